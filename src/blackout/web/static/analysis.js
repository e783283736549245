// The post-game analysis of a finished table (GET /api/tables/{board}/analysis): per
// player, how close the bids and cards came to the expert's best and what the cards were
// worth; then the costliest decisions, and every decision hand by hand.
import { escapeHtml } from "./api.js";
import { cardName, parseCard, suitIcon } from "./cards.js";

/** How many of the costliest decisions the review lists before the full table. */
const COSTLIEST = 8;

function signed(x) {
  return x > 0 ? `+${x.toFixed(1)}` : x.toFixed(1);
}

function share(accuracy, count) {
  if (accuracy === null || accuracy === undefined) return "—";
  const within = Math.round(accuracy * count);
  return `${Math.round(accuracy * 100)}% <span class="sub">${within} of ${count}</span>`;
}

/** A move as a player reads it: "bid 2", "Q♠" (with its name for screen readers), "trump ♥". */
function moveHtml(kind, text) {
  if (kind === "bid") return `bid ${escapeHtml(text)}`;
  if (kind === "trump") {
    const suit = /^trump (\w)/i.exec(text)?.[1]?.toUpperCase();
    return suit && "CDHS".includes(suit) ? `trump ${suitIcon(suit)}` : escapeHtml(text);
  }
  const card = parseCard(text);
  if (!card) return escapeHtml(text);
  return `<span class="move-card" aria-label="${cardName(text)}"><span aria-hidden="true">${
    card.rank}</span>${suitIcon(card.suit)}</span>`;
}

function verb(kind) {
  return kind === "play" ? "played" : kind === "trump" ? "named" : "";
}

function summaryHtml(players, names) {
  const rows = players.map((p, seat) => `<tr><th scope="row">${escapeHtml(names[seat])}</th>
    <td>${p.score}</td><td>${share(p.bid_accuracy, p.bids)}</td><td>${p.bid_points_lost.toFixed(1)}</td>
    <td>${share(p.play_accuracy, p.plays)}</td><td>${p.play_points_lost.toFixed(1)}</td>
    <td class="${p.luck >= 0 ? "lucky" : "unlucky"}">${signed(p.luck)}</td></tr>`).join("");
  return `<div class="sheet-wrap"><table class="analysis-summary">
    <thead><tr><th scope="col">Player</th><th scope="col">Score</th>
      <th scope="col">Bids on the mark</th><th scope="col">Points lost bidding</th>
      <th scope="col">Cards on the mark</th><th scope="col">Points lost in play</th>
      <th scope="col">Luck of the cards</th></tr></thead>
    <tbody>${rows}</tbody></table></div>`;
}

function costliestHtml(decisions, names, within) {
  const worst = decisions.filter((d) => d.lost > within)
    .sort((a, b) => b.lost - a.lost).slice(0, COSTLIEST);
  if (!worst.length) {
    return `<p class="help">Every decision was within ${within} points of the expert's best.</p>`;
  }
  const items = worst.map((d) => `<li><span class="where">Hand ${d.hand}</span>
    <span class="who">${escapeHtml(names[d.seat])}</span> ${verb(d.kind)} ${moveHtml(d.kind, d.played)}
    — the expert would have ${verb(d.kind)} ${moveHtml(d.kind, d.best)}:
    <strong>${d.lost.toFixed(1)} points</strong> lost
    <span class="sub">(expected ${d.played_points.toFixed(1)} against ${d.best_points.toFixed(1)})</span></li>`);
  return `<h4>The costliest decisions</h4><ol class="costliest">${items.join("")}</ol>`;
}

function everyDecisionHtml(decisions, names, within) {
  const rows = decisions.map((d) => `<tr class="${d.lost > within ? "costly" : ""}">
    <td>${d.hand}</td><td>${escapeHtml(names[d.seat])}</td><td>${moveHtml(d.kind, d.played)}</td>
    <td>${d.played === d.best ? "same" : moveHtml(d.kind, d.best)}</td>
    <td>${d.lost.toFixed(1)}</td></tr>`).join("");
  return `<details class="every-decision"><summary>Every decision (${decisions.length})</summary>
    <div class="sheet-wrap"><table class="analysis-decisions">
    <thead><tr><th scope="col">Hand</th><th scope="col">Player</th><th scope="col">Move</th>
      <th scope="col">Expert's best</th><th scope="col">Points lost</th></tr></thead>
    <tbody>${rows}</tbody></table></div></details>`;
}

/** The whole review; `names` are the players' display names in seat order. */
export function analysisHtml(analysis, names) {
  const within = analysis.accurate_within;
  return `${summaryHtml(analysis.players, names)}
    <p class="help">A bid or card is on the mark when the expert expects it to score within
      ${within} points of its own best choice, seeing only what that player saw (its own
      cards, the bids, the cards played); these are estimates from
      ${analysis.iterations} sampled deals a move, so a small loss can be noise. Luck is what
      the cards alone were worth: every hand dealt again the same way and played by the basic
      bot in every seat, a seat's points against the table's average.</p>
    ${costliestHtml(analysis.decisions, names, within)}
    ${everyDecisionHtml(analysis.decisions, names, within)}`;
}
