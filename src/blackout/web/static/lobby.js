// The lobby: sign in or up, start a table (preset, its options, seats), tables to join or watch.
import { api, escapeHtml, whoAmI } from "./api.js";
import { cardFace } from "./cards.js";

const CLOCKS = [[null, "No move clock"], [15, "15 seconds a move"], [30, "30 seconds a move"],
  [60, "1 minute a move"], [300, "5 minutes a move"], [86400, "1 day a move (by mail)"]];
const SEAT_KINDS = [["bot:basic", "Computer (basic)"], ["bot:expert", "Computer (expert)"],
  ["open", "Open seat"], ["invite", "Invite a player…"]];

export async function showLobby(root) {
  document.title = "Blackout — lobby";
  const me = await whoAmI();
  root.innerHTML = `
    <header class="topbar lobby-top">
      <a class="brand" href="/">Blackout</a>
      <span class="who">${me ? `Signed in as <b>${escapeHtml(me)}</b>
        <button type="button" class="link" id="sign-out">Sign out</button>` : ""}</span>
    </header>
    <div class="lobby">
      <section class="hero" aria-label="welcome">
        <div class="hero-fan" aria-hidden="true">${["AS", "KH", "QC", "JD", "10S"].map((c) =>
          `<span class="hero-card">${cardFace(c)}</span>`).join("")}</div>
        <div><h1>Blackout</h1><p>Oh Hell! and its family — bid exactly the tricks you will take.
          Play with friends and computer players, or watch a game.</p></div>
      </section>
      <p class="notice" id="lobby-notice" role="alert" hidden></p>
      ${me ? `<section class="panel" id="new-table"><h2>New table</h2><p>Loading the games…</p></section>`
           : accountForms()}
      <section class="panel" id="tables"><h2>Tables</h2><p>Loading…</p></section>
    </div>`;
  const notice = root.querySelector("#lobby-notice");
  const say = (text) => { notice.textContent = text; notice.hidden = !text; };
  if (me) {
    root.querySelector("#sign-out").onclick = async () => {
      await api("DELETE", "/api/session").catch(() => null);
      location.assign("/");
    };
    newTableForm(root.querySelector("#new-table"), me, say);
  } else {
    wireAccountForms(root, say);
  }
  const tables = root.querySelector("#tables");
  await listTables(tables, me, say);
  setInterval(() => listTables(tables, me, say), 5000);
}

// -- signing in ---------------------------------------------------------------------------

function accountForms() {
  return `<section class="panel account">
    <form id="sign-in" class="stack">
      <h2>Sign in</h2>
      <label>User id <input name="userid" autocomplete="username" required></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit" class="primary">Sign in</button>
    </form>
    <form id="sign-up" class="stack">
      <h2>New here? Create an account</h2>
      <label>User id <input name="userid" autocomplete="username" required></label>
      <label>E-mail <input name="email" type="email" autocomplete="email" required></label>
      <label>Password <input name="password" type="password" autocomplete="new-password" required></label>
      <button type="submit">Create account</button>
    </form></section>`;
}

function afterSignIn() {
  const next = new URLSearchParams(location.search).get("next");
  location.assign(next && next.startsWith("/tables/") ? next : "/");
}

function wireAccountForms(root, say) {
  root.querySelector("#sign-in").onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    try {
      await api("POST", "/api/session", { userid: f.get("userid"), password: f.get("password") });
      afterSignIn();
    } catch (err) { say(err.message); }
  };
  root.querySelector("#sign-up").onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const account = { userid: f.get("userid"), email: f.get("email"), password: f.get("password") };
    try {
      await api("POST", "/api/accounts", account);
      await api("POST", "/api/session", { userid: account.userid, password: account.password });
      afterSignIn();
    } catch (err) { say(err.message); }
  };
}

// -- a new table ----------------------------------------------------------------------------

async function newTableForm(panel, me, say) {
  let variants;
  try {
    variants = await api("GET", "/api/variants");
  } catch (err) {
    panel.innerHTML = `<h2>New table</h2><p>${escapeHtml(err.message)}</p>`;
    return;
  }
  panel.innerHTML = `<h2>New table</h2>
    <form id="create" class="stack">
      <label>Game <select name="variant">${variants.map((v) =>
        `<option value="${escapeHtml(v.name)}">${escapeHtml(v.title)}</option>`).join("")}</select></label>
      <p class="help" id="variant-summary"></p>
      <label>Players <select name="players"></select></label>
      <fieldset id="seats"><legend>Seats</legend></fieldset>
      <fieldset id="options"><legend>House rules</legend></fieldset>
      <label>Clock <select name="clock">${CLOCKS.map(([v, t]) =>
        `<option value="${v ?? ""}">${t}</option>`).join("")}</select></label>
      <label class="check"><input type="checkbox" name="private"> Private table: only people
        with the invite link may join</label>
      <button type="submit" class="primary">Create table</button>
    </form>`;
  const form = panel.querySelector("#create");
  const current = () => variants.find((v) => v.name === form.variant.value);
  const drawSeats = () => seatRows(panel.querySelector("#seats"), Number(form.players.value), me);
  const drawVariant = () => {
    const v = current();
    panel.querySelector("#variant-summary").textContent = v.summary;
    const [lo, hi] = v.players;
    const counts = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
    const chosen = counts.includes(4) ? 4 : lo;
    form.players.innerHTML = counts.map((n) =>
      `<option value="${n}" ${n === chosen ? "selected" : ""}>${n}</option>`).join("");
    optionRows(panel.querySelector("#options"), v.options);
    drawSeats();
  };
  form.variant.onchange = drawVariant;
  form.players.onchange = drawSeats;
  drawVariant();
  form.onsubmit = async (e) => {
    e.preventDefault();
    try {
      const body = {
        variant: form.variant.value,
        options: readOptions(panel.querySelector("#options"), current().options),
        seats: readSeats(panel.querySelector("#seats"), me),
        private: form.private.checked,
        clock: form.clock.value ? Number(form.clock.value) : null,
      };
      const made = await api("POST", "/api/tables", body);
      location.assign(`/tables/${made.board}`);
    } catch (err) { say(err.message); }
  };
}

function seatRows(fieldset, count, me) {
  const rows = [`<legend>Seats</legend><div class="seat-row"><span>Seat 1</span>
    <span class="you">${escapeHtml(me)} (you)</span></div>`];
  for (let i = 1; i < count; i++) {
    rows.push(`<div class="seat-row" data-seat="${i}"><label for="seat-${i}">Seat ${i + 1}</label>
      <select id="seat-${i}" class="seat-kind">${SEAT_KINDS.map(([v, t]) =>
        `<option value="${v}">${t}</option>`).join("")}</select>
      <input class="seat-invite" placeholder="their user id" aria-label="user id for seat ${i + 1}" hidden></div>`);
  }
  fieldset.innerHTML = rows.join("");
  for (const row of fieldset.querySelectorAll(".seat-row[data-seat]")) {
    const kind = row.querySelector(".seat-kind");
    kind.onchange = () => { row.querySelector(".seat-invite").hidden = kind.value !== "invite"; };
  }
}

function readSeats(fieldset, me) {
  const seats = [me];
  for (const row of fieldset.querySelectorAll(".seat-row[data-seat]")) {
    const kind = row.querySelector(".seat-kind").value;
    if (kind !== "invite") { seats.push(kind); continue; }
    const who = row.querySelector(".seat-invite").value.trim();
    if (!who) throw new Error(`Give the user id of the player invited to seat ${Number(row.dataset.seat) + 1}.`);
    seats.push(who);
  }
  return seats;
}

function optionLabel(name) {
  return name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

function optionControl(opt) {
  const id = `opt-${opt.name}`;
  const value = opt.default;
  switch (opt.kind) {
    case "bool":
      return `<input type="checkbox" id="${id}" ${value ? "checked" : ""}>`;
    case "int":
      return `<input type="number" id="${id}" value="${value ?? ""}" placeholder="none"
        ${opt.min != null ? `min="${opt.min}"` : ""} ${opt.max != null ? `max="${opt.max}"` : ""}>`;
    case "schedule":
      return `<select id="${id}">${(opt.choices ?? []).map((c) =>
        `<option ${JSON.stringify(c) === JSON.stringify(value) ? "selected" : ""}>${escapeHtml(c)}</option>`).join("")}
        <option value="custom" ${Array.isArray(value) ? "selected" : ""}>custom hand sizes…</option></select>
        <input id="${id}-sizes" class="sizes" placeholder="e.g. 1,2,3" aria-label="hand sizes"
          value="${Array.isArray(value) ? value.join(",") : ""}" ${Array.isArray(value) ? "" : "hidden"}>`;
    default:
      return `<select id="${id}">${(opt.choices ?? []).map((c) =>
        `<option ${c === value ? "selected" : ""}>${escapeHtml(c)}</option>`).join("")}</select>`;
  }
}

function optionRows(fieldset, options) {
  fieldset.hidden = options.length === 0;
  fieldset.innerHTML = `<legend>House rules</legend>` + options.map((opt) =>
    `<div class="option"><label for="opt-${opt.name}">${optionLabel(opt.name)}</label>
      ${optionControl(opt)}<p class="help">${escapeHtml(opt.help)}</p></div>`).join("");
  for (const opt of options.filter((o) => o.kind === "schedule")) {
    const select = fieldset.querySelector(`#opt-${opt.name}`);
    select.onchange = () => {
      fieldset.querySelector(`#opt-${opt.name}-sizes`).hidden = select.value !== "custom";
    };
  }
}

/** Only the options changed from the preset's defaults. */
function readOptions(fieldset, options) {
  const out = {};
  for (const opt of options) {
    const el = fieldset.querySelector(`#opt-${opt.name}`);
    let value;
    if (opt.kind === "bool") value = el.checked;
    else if (opt.kind === "int") value = el.value === "" ? null : Number(el.value);
    else if (opt.kind === "schedule" && el.value === "custom") {
      const text = fieldset.querySelector(`#opt-${opt.name}-sizes`).value;
      value = text.split(/[\s,]+/).filter(Boolean).map(Number);
      if (!value.length || value.some((n) => !Number.isInteger(n) || n < 1)) {
        throw new Error("Hand sizes are whole numbers separated by commas, such as 1,2,3.");
      }
    } else value = el.value;
    if (JSON.stringify(value) !== JSON.stringify(opt.default)) out[opt.name] = value;
  }
  return out;
}

// -- the lists of tables ------------------------------------------------------------------------

function seatText(seat) {
  if (seat.kind === "open") return "<i>open</i>";
  if (seat.kind === "bot") return `${escapeHtml(seat.bot ?? "basic")} bot`;
  return escapeHtml(seat.player);
}

function tableRow(t, button) {
  return `<li class="table-row"><a href="/tables/${t.board}">#${t.board} ${escapeHtml(t.variant)}</a>
    <span class="seats-text">${t.seats.map(seatText).join(", ")}</span>
    <span class="status">${escapeHtml(t.status)}${t.private ? " · private" : ""}</span>${button}</li>`;
}

async function listTables(panel, me, say) {
  let lists;
  try {
    lists = await api("GET", "/api/tables");
  } catch (err) {
    panel.innerHTML = `<h2>Tables</h2><p>${escapeHtml(err.message)}</p>`;
    return;
  }
  const section = (title, rows, empty) => `<h3>${title}</h3>` +
    (rows.length ? `<ul class="tables">${rows.join("")}</ul>` : `<p class="empty">${empty}</p>`);
  const mine = new Set((lists.mine ?? []).map((t) => t.board));
  panel.innerHTML = `<h2>Tables</h2>` +
    (me ? section("Your tables", (lists.mine ?? []).map((t) =>
      tableRow(t, `<a class="button" href="/tables/${t.board}">${
        t.status === "over" ? "Review" : "Open"}</a>`)), "None yet.") : "") +
    section("Open to join", (lists.open ?? []).filter((t) => !mine.has(t.board)).map((t) =>
      tableRow(t, me ? `<button type="button" data-join="${t.board}">Join</button>`
        : `<a class="button" href="/?next=/tables/${t.board}">Sign in to join</a>`)),
      "No table is waiting for players.") +
    section("Games to watch", (lists.playing ?? []).map((t) =>
      tableRow(t, `<a class="button" href="/tables/${t.board}">Watch</a>`)), "No game in progress.");
  for (const button of panel.querySelectorAll("[data-join]")) {
    button.onclick = async () => {
      try {
        await api("POST", `/api/tables/${button.dataset.join}/join`, {});
        location.assign(`/tables/${button.dataset.join}`);
      } catch (err) { say(err.message); }
    };
  }
}
