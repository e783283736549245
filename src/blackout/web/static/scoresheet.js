// The score sheet, laid out like seed 004's sample: per hand and player, bid and score
// over took and total; made bids marked; then the final standings.
import { escapeHtml } from "./api.js";
import { SUIT_NAMES, suitIcon } from "./cards.js";

const TIEBREAKS = {
  exact_bids_then_coin: "ties go to the most exact bids, then a coin flip",
  extra_hands: "tied leaders play extra hands",
  shared: "tied leaders share the win",
};

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

export function trumpText(trump) {
  if (trump === null || trump === undefined || trump === "NT") return "No trump";
  return `${suitIcon(trump)} <span class="trump-word">${
    SUIT_NAMES[trump].replace(/^./, (c) => c.toUpperCase())}</span>`;
}

function bidText(bid) {
  return bid === null || bid === undefined ? "—" : escapeHtml(bid);
}

/** The sheet as an HTML table; `players` are the names in seat order. */
export function scoreSheet(hands, players) {
  if (!hands?.length) return `<p class="empty">No hand has been scored yet.</p>`;
  const declarers = hands.some((h) => h.declarer !== null && h.declarer !== undefined);
  const head = `<tr><th scope="col">Hand</th><th scope="col">Cards</th><th scope="col">Dealer</th>
    ${declarers ? `<th scope="col">Declarer</th>` : ""}<th scope="col">Trump</th>
    ${players.map((p) => `<th scope="col" class="player">${escapeHtml(p)}
      <span class="sub">bid · score<br>took · total</span></th>`).join("")}</tr>`;
  const rows = hands.map((h) => `<tr>
    <th scope="row">${h.number}${h.extra ? ` <span class="extra">extra</span>` : ""}</th>
    <td>${h.cards}</td><td>${escapeHtml(players[h.dealer])}</td>
    ${declarers ? `<td>${h.declarer === null ? "—" : escapeHtml(players[h.declarer])}</td>` : ""}
    <td class="trump">${trumpText(h.trump)}</td>
    ${players.map((p, s) => `<td class="cell ${h.made[s] ? "made" : "missed"}"
        title="${escapeHtml(p)} ${h.made[s] ? "made" : "missed"} the bid"><div class="ss">
      <span class="ss-bid">${bidText(h.bids[s])}</span><span class="ss-pts">${signed(h.points[s])}</span>
      <span class="ss-took">${h.tricks[s]}</span><span class="ss-total">${h.totals[s]}</span></div>
      <span class="ss-mark" aria-label="${h.made[s] ? "made" : "missed"}">${h.made[s] ? "✓" : "✗"}</span>
    </td>`).join("")}</tr>`).join("");
  return `<div class="sheet-wrap"><table class="score-sheet"><thead>${head}</thead>
    <tbody>${rows}</tbody></table></div>
    <p class="legend"><span class="cell made">✓ made</span> <span class="cell missed">✗ missed</span>
    Each box: bid and points this hand over tricks taken and running total.</p>`;
}

/** Final standings: players by score, the winners marked, the preset's tie-break named. */
export function standings(scores, winners, players, tiebreak, teams) {
  const order = players.map((p, s) => s).sort((a, b) => scores[b] - scores[a]);
  const names = winners.map((s) => players[s]);
  const lead = teams && names.length === 2 ? `${names.join(" & ")} win`
    : names.length === 1 ? `${names[0]} wins` : `${names.join(", ")} win`;
  const tied = order.filter((s) => scores[s] === scores[order[0]]).length > (teams ? 2 : 1);
  return `<div class="standings"><h2 class="winner-line">${escapeHtml(lead)}!</h2>
    <ol>${order.map((s) => `<li class="${winners.includes(s) ? "winner" : ""}">
      <span class="name">${escapeHtml(players[s])}</span>
      <span class="score">${scores[s]}</span>${winners.includes(s) ? `<span class="badge">winner</span>` : ""}
      </li>`).join("")}</ol>
    ${tied && tiebreak ? `<p class="help">Tie-break: ${escapeHtml(TIEBREAKS[tiebreak] ?? tiebreak)}.</p>` : ""}
    </div>`;
}
