// One table: players and spectators alike.  The server's table state is drawn as it
// arrives (over the WebSocket, or as the answer to our own move); events only say when
// to linger, so a finished trick stays in view for a moment.
import { analysisHtml } from "./analysis.js";
import { api, escapeHtml, whoAmI } from "./api.js";
import { cardBack, cardFace, cardName, parseCard, sortHand, suitIcon } from "./cards.js";
import { LiveTable } from "./live.js";
import { scoreSheet, standings, trumpText } from "./scoresheet.js";

const TRICK_HOLD_MS = 1200; // how long a finished trick stays on the table
const ANALYSIS_POLL_MS = 2000; // between asks while the server works out the analysis
const ANALYSIS_PATIENCE_MS = 5 * 60 * 1000; // then stop asking and say so
const OWN_MOVE_GRACE_MS = 250; // wait this long for the socket before drawing our own answer

export function showTable(root, board) {
  new TableScreen(root, board).start();
}

class TableScreen {
  constructor(root, board) {
    this.root = root;
    this.board = board;
    this.shown = null; // the table state on screen
    this.queue = []; // states waiting to be drawn, in order
    this.drawing = false;
    this.held = null; // a finished trick kept in view: {leader, cards, winner}
    this.trickEvents = new Map(); // event number -> finished trick
    this.lastTrick = null; // the last finished trick, for "last trick" across hands
    this.sending = false;
    this.variants = null;
    this.review = null; // the post-game analysis: null, {status: "pending"|"failed"|"ready", ...}
    this.live = new LiveTable(board, (msg) => this.onMessage(msg), (s) => this.onLink(s));
  }

  async start() {
    document.title = `Blackout — table ${this.board}`;
    this.root.innerHTML = skeleton(this.board);
    this.$ = (sel) => this.root.querySelector(sel);
    this.wireTools();
    this.me = await whoAmI();
    let table;
    try {
      table = await api("GET", `/api/tables/${this.board}`);
    } catch (err) {
      this.$("#felt").innerHTML = `<div class="felt-message"><p>${escapeHtml(err.message)}</p>
        <p><a href="/">Back to the lobby</a></p></div>`;
      return;
    }
    this.enqueue(table);
    // From the start, so the chat's history comes too; states already drawn are skipped.
    this.live.start(0);
    setInterval(() => this.tickClock(), 1000);
    api("GET", "/api/variants").then((v) => { this.variants = v; }).catch(() => null);
  }

  // -- arriving news ----------------------------------------------------------------------

  onMessage(msg) {
    if (msg.type === "event") this.onEvent(msg.n, msg.event);
    else if (msg.type === "state") this.enqueue(msg.table);
  }

  onEvent(n, event) {
    if (event.type === "trick") {
      this.trickEvents.set(n, event);
    } else if (event.type === "chat") {
      this.addChat(event.player, event.text);
    } else if (event.type === "seat_taken_over" && this.shown && n > this.shown.event) {
      this.say(`${event.player} is away: a computer player moves for them.`, "info");
    }
  }

  onLink(status) {
    const banner = this.$("#link");
    banner.hidden = status === "live";
    banner.textContent = status === "live" ? "" : "Connection lost — reconnecting…";
    if (status === "live") this.refresh(); // anything missed while away is in the state
  }

  enqueue(table) {
    this.queue.push(table);
    this.drain();
  }

  async refresh() {
    try {
      this.enqueue(await api("GET", `/api/tables/${this.board}`));
    } catch {
      // the socket's retry will bring us back
    }
  }

  async drain() {
    if (this.drawing) return;
    this.drawing = true;
    try {
      while (this.queue.length) {
        const next = this.queue.shift();
        if (this.shown && next.event <= this.shown.event) continue;
        const finished = this.finishedTrick(this.shown, next);
        this.shown = next;
        if (finished) {
          this.lastTrick = finished;
          this.held = finished;
          this.safeDraw();
          await new Promise((r) => setTimeout(r, TRICK_HOLD_MS));
          this.held = null;
        }
        this.safeDraw();
      }
    } finally {
      this.drawing = false;
      this.held = null;
    }
  }

  /** Draw, and if the state cannot be drawn say so in a sentence (the details go to the
   * console for developers, never onto the table). */
  safeDraw() {
    try {
      this.draw();
    } catch (err) {
      console.error("could not draw the table", err, err?.stack);
      this.say("This table could not be shown properly; reloading the page may help.", "error");
    }
  }

  /** The trick finished between two states, if one was: from the events, else the views. */
  finishedTrick(before, after) {
    if (!before?.view || !after.view) return null;
    let found = null;
    for (const [n, trick] of this.trickEvents) {
      if (n > before.event && n <= after.event) found = trick;
    }
    if (found) return found;
    const a = before.view;
    const b = after.view;
    if (a.hand_number === b.hand_number && (b.tricks?.length ?? 0) > (a.tricks?.length ?? 0)) {
      return b.tricks.at(-1);
    }
    return null;
  }

  // -- acting ----------------------------------------------------------------------------

  async act(action, element) {
    if (this.sending || !this.shown) return;
    this.sending = true;
    element?.classList.add("sending");
    try {
      const answer = await api("POST", `/api/tables/${this.board}/moves`,
        { action, expect: this.shown.next_move });
      this.clearNotice();
      setTimeout(() => this.enqueue(answer), this.live.isOpen ? OWN_MOVE_GRACE_MS : 0);
    } catch (err) {
      element?.classList.remove("sending");
      if (err.kind === "stale") {
        this.say(`${err.message} The table has been brought up to date.`, "error");
        this.refresh();
      } else {
        this.say(err.message, "error");
      }
    } finally {
      this.sending = false;
    }
  }

  async post(path, body, after) {
    try {
      const answer = await api("POST", `/api/tables/${this.board}/${path}`, body);
      if (answer) this.enqueue(answer);
      after?.();
    } catch (err) {
      this.say(err.message, "error");
    }
  }

  async hint() {
    try {
      const h = await api("GET", `/api/tables/${this.board}/hint`);
      this.say(`Hint: ${describeAction(h.action)} — ${h.reason}`, "hint");
      const target = this.root.querySelector(`[data-action="${CSS.escape(h.action)}"]`);
      target?.classList.add("hinted");
      target?.focus();
    } catch (err) {
      this.say(err.message, "error");
    }
  }

  // -- notices and chat ------------------------------------------------------------------

  say(text, kind) {
    const box = this.$("#notice");
    box.textContent = text;
    box.className = `notice ${kind}`;
    box.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.clearNotice(), 8000);
  }

  clearNotice() {
    this.$("#notice").hidden = true;
  }

  addChat(player, text) {
    const log = this.$("#chat-log");
    const line = document.createElement("li");
    line.innerHTML = `<b>${escapeHtml(player)}</b> ${escapeHtml(text)}`;
    log.append(line);
    log.scrollTop = log.scrollHeight;
    const toggle = this.$("#chat-toggle");
    if (this.$("#side").hidden) toggle.classList.add("unread");
  }

  wireTools() {
    this.$("#sheet-button").onclick = () => this.openDialog("#sheet-dialog", this.sheetHtml());
    this.$("#last-button").onclick = () => this.openDialog("#last-dialog", this.lastTrickHtml());
    this.$("#chat-toggle").onclick = () => {
      const side = this.$("#side");
      side.hidden = !side.hidden;
      this.$("#chat-toggle").classList.remove("unread");
      this.$("#chat-toggle").setAttribute("aria-expanded", String(!side.hidden));
      if (!side.hidden) this.$("#chat-text").focus();
    };
    for (const close of this.root.querySelectorAll("dialog .close")) {
      close.onclick = () => close.closest("dialog").close();
    }
    this.$("#chat-form").onsubmit = async (e) => {
      e.preventDefault();
      const input = this.$("#chat-text");
      const text = input.value.trim();
      if (!text) return;
      try {
        await api("POST", `/api/tables/${this.board}/chat`, { text });
        input.value = "";
      } catch (err) {
        this.say(err.message, "error");
      }
    };
    // Delegated clicks: everything a player does carries data-action.
    this.root.addEventListener("click", (e) => {
      const target = e.target.closest("[data-action]");
      if (target && this.root.contains(target)) this.act(target.dataset.action, target);
      const cmd = e.target.closest("[data-command]");
      if (cmd) this.command(cmd.dataset.command, cmd);
    });
    this.root.addEventListener("keydown", (e) => this.arrowKeys(e));
  }

  command(name, element) {
    if (name === "hint") this.hint();
    else if (name === "analyse") this.analyse();
    else if (name === "join") {
      const invite = new URLSearchParams(location.search).get("invite");
      const body = { seat: Number(element.dataset.seat) };
      if (invite) body.invite = invite;
      this.post("join", body);
    } else if (name === "leave") this.post("leave", {});
    else if (name === "resign" && confirm("Resign this game?")) this.post("resign", {});
    else if (name === "copy-invite") {
      navigator.clipboard?.writeText(this.$("#invite-link").value).then(
        () => this.say("Invite link copied.", "info"), () => this.$("#invite-link").select());
    }
  }

  /** Left and right arrows move along the hand or a row of bids. */
  arrowKeys(e) {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const current = e.target.closest("[data-action]");
    if (!current) return;
    const row = [...current.parentElement.querySelectorAll("[data-action]")];
    const i = row.indexOf(current) + (e.key === "ArrowRight" ? 1 : -1);
    if (i >= 0 && i < row.length) {
      row[i].focus();
      e.preventDefault();
    }
  }

  openDialog(selector, html) {
    const dialog = this.$(selector);
    dialog.querySelector(".dialog-body").innerHTML = html;
    dialog.showModal();
  }

  // -- drawing -----------------------------------------------------------------------------

  get seat() {
    return this.shown?.you?.seat ?? null;
  }

  draw() {
    const t = this.shown;
    // Redrawing replaces the elements: keep the keyboard's place on the same action.
    const active = document.activeElement;
    const focusKey = active?.dataset?.action !== undefined
      ? `[data-action="${CSS.escape(active.dataset.action)}"]`
      : active?.dataset?.command ? `[data-command="${CSS.escape(active.dataset.command)}"]` : null;
    // What the screen shows, for anyone (a test, an assistive tool) that waits on it.
    Object.assign(this.$(".table-page").dataset, {
      event: t.event, nextMove: t.next_move, status: t.status, phase: t.view?.phase ?? "",
      held: this.held ? "trick" : "",
    });
    this.$("#title").textContent = `${t.title ?? t.variant} · table ${t.board}`;
    this.$("#hand-info").innerHTML = handInfo(t.view);
    this.$("#trump-info").innerHTML = t.view ? trumpInfo(t.view) : "";
    this.$("#last-button").hidden = !t.view;
    this.$("#sheet-button").hidden = !t.view;
    this.$("#resign").hidden = !(t.status === "active" && this.seat !== null);
    this.$(".table-body").classList.toggle("over", Boolean(t.view) && (t.status !== "active" ||
      t.view.phase === "over"));
    if (!t.view) {
      this.$("#felt").innerHTML = this.waitingHtml();
      this.$("#mine").innerHTML = "";
    } else if (t.status !== "active" || t.view.phase === "over") {
      this.$("#felt").innerHTML = this.feltHtml();
      this.$("#mine").innerHTML = this.gameOverHtml();
    } else {
      this.$("#felt").innerHTML = this.feltHtml();
      this.$("#felt").classList.toggle("crowded", t.view.players.length >= 6);
      this.$("#mine").innerHTML = this.actionsHtml() + this.handHtml();
      this.layoutHand();
    }
    this.tickClock();
    if (focusKey && !this.root.contains(active)) this.root.querySelector(focusKey)?.focus();
  }

  waitingHtml() {
    const t = this.shown;
    const seated = this.seat !== null;
    const rows = t.seats.map((s) => {
      let what = seatLabel(s);
      let button = "";
      if (s.kind === "open") {
        what = "Open seat";
        if (this.me && !seated) {
          button = `<button type="button" data-command="join" data-seat="${s.seat}">Take this seat</button>`;
        }
      } else if (s.kind === "human" && !s.joined && s.player === this.me && !seated) {
        button = `<button type="button" data-command="join" data-seat="${s.seat}">Join</button>`;
      }
      return `<li>Seat ${s.seat + 1}: <b>${escapeHtml(what)}</b> ${button}</li>`;
    });
    const invite = t.invite
      ? `<p>Invite link: <input id="invite-link" readonly aria-label="invite link"
          value="${escapeHtml(`${location.origin}/tables/${t.board}?invite=${t.invite}`)}">
          <button type="button" data-command="copy-invite">Copy</button></p>` : "";
    const signIn = this.me ? "" : `<p><a class="button" href="/?next=${encodeURIComponent(
      location.pathname + location.search)}">Sign in to join</a></p>`;
    return `<div class="felt-message waiting"><h2>Waiting for players</h2>
      <ul class="seat-list">${rows.join("")}</ul>${invite}${signIn}
      ${seated ? `<button type="button" data-command="leave">Leave this table</button>` : ""}
      <p class="help">The game starts when every seat is taken.</p></div>`;
  }

  feltHtml() {
    const t = this.shown;
    const v = t.view;
    const n = v.players.length;
    const bottom = this.seat ?? 0;
    const plates = v.players.map((_, s) => {
      return `<div class="seat-spot ${s === bottom ? "bottom" : ""}" style="${placeAt((s - bottom + n) % n, n)}">
        ${this.plateHtml(s)}${s === this.seat ? "" : this.otherHandHtml(s)}</div>`;
    });
    const trick = this.held ?? null;
    const plays = trick
      ? trick.cards.map((card, i) => ({ seat: (trick.leader + i) % n, card }))
      : (v.trick ?? []);
    const winner = trick ? trick.winner : v.winning;
    const tag = trick ? "takes it" : "winning";
    // Only a card that was not on the table at the last drawing slides in.
    const before = this.onTable ?? new Set();
    this.onTable = new Set(plays.map((p) => p.card));
    const cards = plays.map(({ seat, card }) => {
      const wins = seat === winner;
      const fresh = before.has(card) ? "" : "arrive";
      return `<div class="trick-card ${wins ? "winning" : ""} ${fresh}" style="${placeAt((seat - bottom + n) % n, n, "trick")}"
        role="img" aria-label="${escapeHtml(nameOf(v, seat))}: ${cardName(card)}${wins ? `, ${tag}` : ""}">
        ${cardFace(card)}${wins ? `<span class="tag">${tag}</span>` : ""}</div>`;
    });
    let caption = "";
    if (trick) caption = `${nameOf(v, trick.winner)} takes the trick`;
    else if (plays.length && winner !== null && winner !== undefined) {
      caption = `${nameOf(v, winner)} is winning the trick`;
    }
    const turnUp = v.turn_up ? `<div class="turn-up" role="img" title="turned up: ${cardName(v.turn_up)}"
      aria-label="turned up: ${cardName(v.turn_up)}">${cardFace(v.turn_up)}</div>` : "";
    return `${turnUp}${plates.join("")}<div class="trick" aria-label="the trick">${cards.join("")}</div>
      <p class="visually-hidden" aria-live="polite">${escapeHtml(caption)}</p>`;
  }

  plateHtml(s) {
    const t = this.shown;
    const v = t.view;
    const seatInfo = t.seats[s] ?? {};
    const turn = v.to_move === s && v.phase !== "over";
    const team = isTeams(t) ? `team-${s % 2}` : "";
    const chips = [];
    if (v.dealer === s) chips.push(`<span class="chip dealer" title="dealer">D</span>`);
    if (v.declarer === s) chips.push(`<span class="chip declarer" title="declarer: names trump">declarer</span>`);
    if (seatInfo.away) chips.push(`<span class="chip away" title="a computer player is moving for them">away</span>`);
    else if (seatInfo.kind === "human" && seatInfo.connected === false && s !== this.seat) {
      chips.push(`<span class="chip away">offline</span>`);
    }
    return `<div class="plate ${turn ? "turn" : ""} ${s === this.seat ? "me" : ""} ${team}" data-seat="${s}">
      <div class="name">${escapeHtml(nameOf(v, s))}${s === this.seat ? " (you)" : ""} ${chips.join("")}</div>
      <div class="stat"><span>${bidStat(v, s)}</span> <span>took <b>${v.tricks_won[s]}</b></span></div>
      <div class="score">score ${v.scores[s]}${turn ? ` <span class="clock" data-clock></span>` : ""}</div>
    </div>`;
  }

  otherHandHtml(s) {
    const v = this.shown.view;
    const cards = v.hands?.[s];
    if (cards?.length) {
      return `<div class="mini-hand shown">${sortHand(cards).map((c) =>
        `<span class="mini-card" role="img" aria-label="${cardName(c)}">${cardFace(c)}</span>`).join("")}</div>`;
    }
    const count = v.hand_sizes?.[s] ?? 0;
    if (!count) return "";
    return `<div class="mini-hand" aria-label="${count} cards"><span class="mini-card">${cardBack()}</span>
      <span class="count">${count}</span></div>`;
  }

  actionsHtml() {
    const t = this.shown;
    const v = t.view;
    const legal = v.legal_actions ?? [];
    const name = (s) => escapeHtml(nameOf(v, s));
    const hint = `<button type="button" class="hint" data-command="hint" title="the expert's suggestion">Hint</button>`;
    if (this.seat === null) {
      return `<div class="actions"><p class="prompt">You are watching. ${v.to_move !== null
        ? `${name(v.to_move)} to ${verb(v.phase)}.` : ""}</p></div>`;
    }
    const mine = v.to_move === this.seat;
    if (v.phase === "bid" && legal.length) {
      const change = !mine;
      const blind = v.blind ? `<p class="help">Blind hand: you see everyone's card but your own.
        After the bids the trick plays itself.</p>` : "";
      return `<div class="actions ${change ? "" : "my-turn"}">${blind}<p class="prompt">${change
        ? `Change your bid while ${name(v.to_move)} has not bid:` : "Your bid:"}</p>
        <div class="bids" role="group" aria-label="bids">${bidButtons(v, legal, change)}</div>
        ${mine ? hint : ""}</div>`;
    }
    if (v.phase === "trump" && mine) {
      return `<div class="actions my-turn"><p class="prompt">You are declarer: name trump.</p>
        <div class="bids trumps" role="group" aria-label="trump">${["S", "H", "C", "D", "NT"].map((s) =>
          `<button type="button" class="bid trump-choice" data-action="trump ${s}"
            aria-label="${s === "NT" ? "no trump" : `trump ${suitWord(s)}`}">${trumpText(s)}</button>`).join("")}
        </div>${hint}</div>`;
    }
    if (v.phase === "play" && mine) {
      const lead = v.trick?.length ? parseCard(v.trick[0].card)?.suit : null;
      return `<div class="actions my-turn"><p class="prompt">Your turn: play a card${lead
        ? ` (follow ${suitIcon(lead)} if you can)` : ""}.</p>${hint}</div>`;
    }
    if (v.to_move === null || v.to_move === undefined) return `<div class="actions"></div>`;
    return `<div class="actions"><p class="prompt">Waiting for ${name(v.to_move)} to ${verb(v.phase)}…</p></div>`;
  }

  handHtml() {
    const v = this.shown.view;
    if (this.seat === null) return "";
    const cards = v.hands?.[this.seat];
    if (!cards) {
      // pbmserv's blind first hand: our own card stays face down.
      const count = v.hand_sizes?.[this.seat] ?? v.cards_dealt;
      return `<div class="hand blind" aria-label="your cards, face down">${Array.from({ length: count },
        () => `<span class="card face-down" role="img" aria-label="your card, face down">${cardBack()}</span>`).join("")}</div>`;
    }
    const playing = v.phase === "play" && v.to_move === this.seat;
    const legal = new Set(v.legal_actions ?? []);
    return `<div class="hand" role="group" aria-label="your hand">${sortHand(cards).map((c) => {
      const state = !playing ? "" : legal.has(c) ? "playable" : "dimmed";
      return `<button type="button" class="card ${state}" data-action="${c}" aria-label="${cardName(c)}"
        ${state === "dimmed" ? `aria-disabled="true" title="you cannot play this card now"` : ""}>${cardFace(c)}</button>`;
    }).join("")}</div>`;
  }

  /** Overlap the cards so the hand fits the width; two rows when one would be too tight. */
  layoutHand() {
    const hand = this.$(".hand");
    if (!hand) return;
    const cards = [...hand.children];
    hand.style.maxWidth = "";
    const width = (hand.clientWidth || window.innerWidth) - 12; // less the padding
    const cardWidth = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) || 64;
    const rows = cards.length > 1 && (width - cardWidth) / (cards.length - 1) < cardWidth * 0.36 ? 2 : 1;
    const perRow = Math.ceil(cards.length / rows);
    const step = Math.min(cardWidth * 0.62, (width - cardWidth - 8) / Math.max(perRow - 1, 1));
    hand.classList.toggle("two-rows", rows === 2);
    // Two rows: the hand is exactly one row wide, so the second row starts where it should.
    if (rows === 2) hand.style.maxWidth = `${cardWidth + (perRow - 1) * step + 14}px`;
    cards.forEach((card, i) => {
      const inRow = i % perRow;
      const count = Math.min(perRow, cards.length - Math.floor(i / perRow) * perRow);
      const mid = (count - 1) / 2;
      const spread = Math.min(3, 24 / Math.max(count, 1));
      card.style.setProperty("--overlap", inRow === 0 ? "0px" : `${step - cardWidth}px`);
      card.style.setProperty("--rot", `${(inRow - mid) * spread}deg`);
      card.style.setProperty("--arc", `${Math.abs(inRow - mid) ** 2 * spread * 0.35}px`);
      card.classList.toggle("row-start", inRow === 0 && i > 0);
    });
  }

  gameOverHtml() {
    const t = this.shown;
    const v = t.view;
    const result = t.result ?? { scores: v.scores, winners: v.winners ?? [] };
    const tiebreak = t.rules?.options?.tiebreak ??
      this.variants?.find((x) => x.name === t.variant)?.options?.find((o) => o.name === "tiebreak")?.default;
    const headline = t.status === "forfeited" ? `<p class="help">The game ended early (forfeited).</p>` : "";
    return `<section class="game-over" aria-label="final standings">${headline}
      ${standings(result.scores, result.winners ?? [], displayNames(v), tiebreak, isTeams(t))}
      <h3>Score sheet</h3>${this.sheetHtml()}
      ${t.status === "over" ? this.reviewHtml() : ""}
      <p><a class="button" href="/">Back to the lobby</a></p></section>`;
  }

  reviewHtml() {
    const r = this.review;
    let body;
    if (r?.status === "ready") {
      body = analysisHtml(r, r.players.map((p) => displayName(p.player)));
    } else if (r?.status === "pending") {
      body = `<p class="help pending" role="status">The expert is going over every bid and card
        of the game… this takes a few seconds, up to a minute for a long game.</p>`;
    } else {
      const failed = r?.status === "failed"
        ? `<p class="error" role="alert">${escapeHtml(r.message)}</p>` : "";
      body = `${failed}<p class="help">The expert goes over every bid and card of the game and
        says how many points each one cost, and how lucky everyone's cards were.</p>
        <p><button type="button" data-command="analyse">Analyse the game</button></p>`;
    }
    return `<section class="review" aria-label="post-game analysis"><h3>Review</h3>${body}</section>`;
  }

  /** Ask for the analysis and keep asking while the server works it out. */
  async analyse() {
    if (this.review?.status === "pending") return;
    this.review = { status: "pending" };
    this.safeDraw();
    try {
      const giveUpAt = Date.now() + ANALYSIS_PATIENCE_MS;
      let answer = await api("GET", `/api/tables/${this.board}/analysis`);
      while (answer.status === "pending" && Date.now() < giveUpAt) {
        await new Promise((r) => setTimeout(r, ANALYSIS_POLL_MS));
        answer = await api("GET", `/api/tables/${this.board}/analysis`);
      }
      this.review = answer.status === "ready" ? answer : { status: "failed",
        message: "The analysis is taking longer than it should; please try again in a few minutes." };
    } catch (err) {
      this.review = { status: "failed", message: err.message };
    }
    this.safeDraw();
  }

  sheetHtml() {
    const v = this.shown?.view;
    return v ? scoreSheet(v.hands_played, displayNames(v)) : "";
  }

  lastTrickHtml() {
    const v = this.shown?.view;
    const trick = v?.tricks?.at(-1) ?? this.lastTrick;
    if (!trick) return `<p class="empty">No trick has been played yet.</p>`;
    const n = v.players.length;
    return `<ol class="last-trick">${trick.cards.map((card, i) => {
      const seat = (trick.leader + i) % n;
      return `<li class="${seat === trick.winner ? "winning" : ""}"><span class="small-card" role="img"
        aria-label="${cardName(card)}">${cardFace(card)}</span><span>${escapeHtml(nameOf(v, seat))}${
        i === 0 ? " (led)" : ""}${seat === trick.winner ? " — took it" : ""}</span></li>`;
    }).join("")}</ol>`;
  }

  tickClock() {
    const clock = this.shown?.clock;
    const el = this.root.querySelector("[data-clock]");
    if (!el) return;
    if (!clock?.deadline) {
      el.textContent = "";
      return;
    }
    const left = Math.max(0, Math.round((Date.parse(clock.deadline) - Date.now()) / 1000));
    el.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    el.classList.toggle("low", left <= 10);
  }
}

// -- pieces -------------------------------------------------------------------------------

function skeleton(board) {
  return `<div class="table-page">
    <header class="topbar">
      <a class="brand" href="/" title="lobby">Blackout</a>
      <span id="title" class="title">Table ${board}</span>
      <span id="hand-info" class="hand-info"></span>
      <span id="trump-info" class="trump-info"></span>
      <nav class="tools" aria-label="table tools">
        <button type="button" id="last-button" hidden>Last trick</button>
        <button type="button" id="sheet-button" hidden>Score sheet</button>
        <button type="button" id="chat-toggle" aria-expanded="false" aria-controls="side">Chat</button>
        <button type="button" id="resign" data-command="resign" hidden>Resign</button>
      </nav>
    </header>
    <p id="link" class="link-banner" role="status" hidden></p>
    <p id="notice" class="notice" role="alert" hidden></p>
    <div class="table-body">
      <section id="felt" class="felt" aria-label="the table"></section>
      <section id="mine" class="mine" aria-label="your seat"></section>
    </div>
    <aside id="side" class="side" hidden aria-label="chat">
      <h2>Chat</h2><ul id="chat-log" class="chat-log"></ul>
      <form id="chat-form"><input id="chat-text" maxlength="500" aria-label="message" placeholder="Say something">
      <button type="submit">Send</button></form>
    </aside>
    <dialog id="sheet-dialog" aria-label="score sheet"><button type="button" class="close">Close</button>
      <h2>Score sheet</h2><div class="dialog-body"></div></dialog>
    <dialog id="last-dialog" aria-label="last trick"><button type="button" class="close">Close</button>
      <h2>Last trick</h2><div class="dialog-body"></div></dialog>
  </div>`;
}

/** CSS placing seat `r` round the table (0 = bottom, then clockwise); the radii are CSS
 * variables (--rx/--ry for seats, --tx/--ty for the trick) so they follow the screen. */
function placeAt(r, n, which) {
  const angle = ((90 + (r * 360) / n) * Math.PI) / 180;
  const [rx, ry] = which === "trick" ? ["--tx", "--ty"] : ["--rx", "--ry"];
  const cos = Math.cos(angle).toFixed(3);
  const sin = Math.sin(angle).toFixed(3);
  return `left:calc(50% + var(${rx}) * ${cos});top:calc(50% + var(${ry}) * ${sin})`;
}

/** "bot:basic-2" -> "basic bot 2": computer players by what they are. */
function displayName(player) {
  const bot = /^bot:([a-z]+)(?:-(\d+))?$/.exec(player ?? "");
  return bot ? `${bot[1]} bot${bot[2] ? ` ${bot[2]}` : ""}` : (player ?? "");
}

function nameOf(v, seat) {
  return displayName(v.players[seat]);
}

function displayNames(v) {
  return v.players.map(displayName);
}

function seatLabel(s) {
  if (s.kind === "open") return "open seat";
  if (s.kind === "bot" && !s.player) return `${s.bot} bot`;
  return displayName(s.player);
}

function isTeams(t) {
  return t.variant === "partnership" || t.rules?.options?.teams === true;
}

function suitWord(s) {
  return { C: "clubs", D: "diamonds", H: "hearts", S: "spades" }[s];
}

function verb(phase) {
  return { bid: "bid", trump: "name trump", play: "play" }[phase] ?? "move";
}

function describeAction(action) {
  if (parseCard(action)) return `play the ${cardName(action)}`;
  if (action.startsWith("trump")) return action === "trump NT" ? "no trump" : `trump ${suitWord(action.at(-1))}`;
  return `bid ${action}`;
}

function handInfo(v) {
  if (!v) return "";
  const total = v.hands_total >= v.hand_number ? ` of ${v.hands_total}` : "";
  return `Hand ${v.hand_number}${total}, ${v.cards_dealt} card${v.cards_dealt === 1 ? "" : "s"}`;
}

function trumpInfo(v) {
  if (v.trump_decided === false || (v.trump === null && v.phase === "bid" && v.declarer === null &&
      v.trump_decided !== true)) {
    return "Trump: named by the top bidder";
  }
  return `Trump: ${trumpText(v.trump)}`;
}

function bidStat(v, s) {
  const bid = v.bids?.[s];
  const partner = v.players.length === 4 ? v.bids?.[(s + 2) % 4] : null;
  const partnerSpecial = partner === "nil" || partner === "board";
  if (bid === null || bid === undefined) {
    // Seed 000: a player whose partner bid nil or board before them does not bid.
    if (partnerSpecial) return `<span class="skipped">skipped</span>`;
    return `bid <b>–</b>`;
  }
  const voided = partnerSpecial && bid !== "nil" && bid !== "board";
  return `bid <b>${escapeHtml(bid)}</b>${voided ? ` <span class="skipped">(void)</span>` : ""}`;
}

function bidButtons(v, legal, change) {
  const bids = new Set(legal);
  const current = change ? v.bids?.[v.seat] : null;
  const hooked = !change && v.hooked_bid ? v.hooked_bid : null;
  const all = [...legal];
  if (hooked && !bids.has(hooked.bid)) all.push(hooked.bid);
  if (current !== null && current !== undefined && !bids.has(current)) all.push(current);
  const rank = (b) => (/^\d+$/.test(b) ? Number(b) : b === "nil" ? 100 : 101);
  all.sort((a, b) => rank(a) - rank(b));
  return all.map((b) => {
    const words = `bid ${b}`;
    if (hooked && b === hooked.bid) {
      return `<button type="button" class="bid hooked" data-action="${escapeHtml(b)}" aria-disabled="true"
        aria-label="${words} (not allowed: ${escapeHtml(hooked.reason)})" title="${escapeHtml(hooked.reason)}">${escapeHtml(b)}</button>`;
    }
    if (b === current) {
      return `<button type="button" class="bid current" aria-pressed="true" disabled
        aria-label="${words} (your bid now)">${escapeHtml(b)}</button>`;
    }
    return `<button type="button" class="bid" data-action="${escapeHtml(b)}" aria-label="${words}">${escapeHtml(b)}</button>`;
  }).join("");
}
