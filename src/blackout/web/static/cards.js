// Cards in the game's notation ("10C", "AD"), their spoken names, and their SVG faces.
// Every card is drawn here: no image files.

export const SUITS = ["S", "H", "C", "D"]; // display order: colours alternate
export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const RANK_NAMES = { J: "jack", Q: "queen", K: "king", A: "ace" };
const SVG = "http://www.w3.org/2000/svg";

// Suit shapes in a 100 x 100 box, referenced by <use href="#suit-X">.
const SUIT_SHAPES = {
  D: '<path d="M50 2 L88 50 L50 98 L12 50 Z"/>',
  H: '<path d="M50 94 C22 70 3 52 3 30 C3 13 15 3 29 3 C39 3 46 9 50 18 C54 9 61 3 71 3 ' +
     'C85 3 97 13 97 30 C97 52 78 70 50 94 Z"/>',
  S: '<path d="M50 3 C64 24 96 40 96 62 C96 77 85 85 73 85 C64 85 57 80 53 73 C55 84 60 92 ' +
     '68 98 L32 98 C40 92 45 84 47 73 C43 80 36 85 27 85 C15 85 4 77 4 62 C4 40 36 24 50 3 Z"/>',
  C: '<circle cx="50" cy="27" r="22"/><circle cx="26" cy="60" r="22"/>' +
     '<circle cx="74" cy="60" r="22"/><path d="M44 50 L56 50 C56 78 60 90 68 98 L32 98 ' +
     'C40 90 44 78 44 50 Z"/>',
};

/** Put the suit shapes into the page once, for every card and label to reuse. */
export function installSprite() {
  if (document.getElementById("suit-sprite")) return;
  const holder = document.createElement("div");
  holder.innerHTML =
    `<svg id="suit-sprite" xmlns="${SVG}" width="0" height="0" style="position:absolute" ` +
    `aria-hidden="true"><defs>` +
    Object.entries(SUIT_SHAPES)
      .map(([s, shape]) => `<symbol id="suit-${s}" viewBox="0 0 100 100">${shape}</symbol>`)
      .join("") +
    `<pattern id="card-back" width="10" height="10" patternUnits="userSpaceOnUse" ` +
    `patternTransform="rotate(45)"><rect width="10" height="10" fill="#1f4e8c"/>` +
    `<rect width="5" height="10" fill="#2a63ad"/></pattern></defs></svg>`;
  document.body.prepend(holder.firstChild);
}

/** "10C" -> {rank: "10", suit: "C"}; null for anything that is not a card. */
export function parseCard(text) {
  const m = /^(10|[2-9JQKA])([CDHS])$/.exec(String(text).toUpperCase());
  return m ? { rank: m[1], suit: m[2] } : null;
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

/** "10C" -> "10 of clubs", "AS" -> "ace of spades". */
export function cardName(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  return `${RANK_NAMES[c.rank] ?? c.rank} of ${SUIT_NAMES[c.suit]}`;
}

/** A hand sorted for display: by suit (colours alternating), high card first. */
export function sortHand(cards) {
  const key = (t) => {
    const c = parseCard(t);
    return SUITS.indexOf(c.suit) * 100 + (12 - RANKS.indexOf(c.rank));
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** An inline SVG suit symbol (for labels such as "trump ♥"). */
export function suitIcon(suit, extraClass = "") {
  return `<svg class="suit-icon ${isRed(suit) ? "red" : "black"} ${extraClass}" ` +
    `viewBox="0 0 100 100" aria-hidden="true"><use href="#suit-${suit}"/></svg>`;
}

/** The SVG markup of one card face (aria-hidden: the button around it carries the name). */
export function cardFace(text) {
  const c = parseCard(text);
  if (!c) return cardBack();
  const colour = isRed(c.suit) ? "red" : "black";
  const wide = c.rank === "10";
  const rankAttrs = `font-size="${wide ? 25 : 28}" font-weight="700" ` +
    `letter-spacing="${wide ? -2 : 0}" text-anchor="middle"`;
  const index = `<text x="16" y="28" ${rankAttrs}>${c.rank}</text>` +
    `<use href="#suit-${c.suit}" x="5" y="33" width="22" height="22"/>`;
  const court = "JQK".includes(c.rank);
  const centre = court
    ? `<rect x="27" y="30" width="46" height="80" rx="4" fill="none" stroke="currentColor" ` +
      `stroke-width="2" opacity="0.5"/><text x="50" y="82" font-size="40" font-weight="700" ` +
      `text-anchor="middle" font-family="Georgia, serif">${c.rank}</text>` +
      `<use href="#suit-${c.suit}" x="41" y="88" width="18" height="18"/>`
    : `<use href="#suit-${c.suit}" x="${c.rank === "A" ? 26 : 32}" y="${c.rank === "A" ? 46 : 52}" ` +
      `width="${c.rank === "A" ? 48 : 36}" height="${c.rank === "A" ? 48 : 36}"/>`;
  return `<svg class="card-svg ${colour}" viewBox="0 0 100 140" xmlns="${SVG}" aria-hidden="true">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#999" stroke-width="1.5"/>` +
    `<g fill="currentColor" font-family="system-ui, Arial, sans-serif">${index}${centre}` +
    `<g transform="rotate(180 50 70)">${index}</g></g></svg>`;
}

/** The back of a card: a patterned face-down card. */
export function cardBack() {
  return `<svg class="card-svg back" viewBox="0 0 100 140" xmlns="${SVG}" aria-hidden="true">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#999" stroke-width="1.5"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#card-back)"/></svg>`;
}
