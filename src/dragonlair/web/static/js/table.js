// A table's page: one seat (or a spectator) at one game. Everything it shows comes from
// that connection's own messages (its view, its legal actions, its events as it may see
// them, who sits where) and the table's public catalog (printed components, action
// labels, event sentences): the page never receives anything else, so it cannot show
// what the seat may not know.
//
// The page redraws itself from the latest state on every message. A game may have a board
// module (named in the table's catalog, from the game's manifest) that draws the view the
// way the game looks on a table and turns the natural things into buttons (cards in
// hand); every other legal action is a button in the action bar, which also holds the prompt and the countdown and stays in
// view (fixed at the top on a desktop, at the bottom on a phone).
//
// What others do is shown at a readable pace: updates that carry other seats' moves are
// queued and shown one at a time, at least `pace` ms apart (longer for a reveal, a won
// trick, the end); what changed since this seat's last move stays highlighted.
import { getJSON, getOnce } from "./api.js";
import { Connection } from "./conn.js";
import { boardStyle, copyText, fill, h, toast } from "./dom.js";
import { FairnessPanel } from "./fairness.js";
import { absolute, rememberGame, tableTerms } from "./lobby.js";
import { awayNotices, endVoteControl, seatAway } from "./away.js";
import { ChatPanel } from "./chat.js";
import { canNotify, notifyOn, notifyTurn, setNotify } from "./notify.js";
import { N_, errorText, format, lang, t, tn, word } from "./i18n.js";
import { lessonPanel, markLesson } from "./tutorial.js";
import { focusQuietly, hideInfo, installInfo } from "./info.js";
import { markdown } from "./markdown.js";
import { SeatGuard } from "./seatguard.js";
import { seatName } from "./profile.js";
import * as generic from "./games/generic.js";

// refusals that signing in (account.js) can remedy: the refused page offers it
const SIGN_IN_CODES = new Set(["sign_in_required", "signed_out"]);

const SEAT_LISTS = new Set(["winners", "seats", "losers"]);
const PER_SEAT = new Set(["points", "gems", "bids", "ranks", "start_gems", "scores"]);
// events worth a longer look: a trick or a round won, a reveal, the end
const SLOW_EVENTS = /claim|won|win|reveal|bids|resolv|scor|stop|halt|game_over|final|danger/;

// the bot levels as a seat strip names them ("heuristic bot")
const LEVEL_WORDS = [N_("random"), N_("heuristic"), N_("ismcts")];
const PACE_KEY = "dragonlair:pace";
// a table started from a puzzle starts at the puzzle's decision
const PUZZLE_MOVE = 0;
const SOUND_KEY = "dragonlair:sound";

/** Seat numbers in a sentence or label ("seat 2", German "Platz 2", 0-based in the
 * engine) as names. */

/** A hint's reason in players' words, from what its playouts measured (the sentence
 * dragonlair.bots.advice.Advice.why chose; the terminal's words are in tui/advice.py). */
export function hintReason(why, name) {
  const best = why.best, other = why.other;
  const a = best.shown.value;
  if (!other) return t("{best} is the only choice here.", { best: name(best.action) });
  if (why.kind === "clear") {
    return t("{best} wins most often: about {a}% wins out of {n} games played out from here, against about {b}% wins for the next best, {other}.",
      { best: name(best.action), a, n: best.playouts, b: other.shown.value, other: name(other.action) });
  }
  if (why.kind === "close") {
    return t("The playouts cannot tell {best} apart from the choices marked ≈ (about {a}% wins each); {other} wins clearly less often (about {b}%).",
      { best: name(best.action), a, other: name(other.action), b: other.shown.value });
  }
  const pts = (x) => String(Math.round(x * 10) / 10);
  return t("For winning, the playouts cannot tell your choices apart (each about {a}%); {best} scores the most points on average ({p} against {q} for {other}).",
    { a, best: name(best.action), p: pts(best.points), q: pts(other.points), other: name(other.action) });
}

export function seatNames(text, names) {
  return text.replace(/\b(?:seat|Platz) (\d+)\b/g, (m, n) => (Number(n) < names.length ? names[Number(n)] : m));
}

/** One line for an event, as the engine's event_text writes it, with names for seats and
 * cards named the way their faces are: a game's board module may name the values of some
 * fields itself (``eventValue(field, value, ev, components)``: a card id as its face, "6
 * (C)", "Green Scanner"); a card it names so needs no internal number after it, so a
 * parenthesised reference to that field ("(card {card})", "(#{card})") is left out of a
 * sentence that names the card anyway (by ``{name}`` or ``{value}``). */
export function eventText(catalog, ev, names, board = null) {
  const spec = catalog.events[ev.type];
  if (!spec) return `${ev.type}`;
  let template = ev.redacted ? spec.public_text : spec.text;
  // a counted sentence: the form its count asks for ("1 Karte", "2 Karten")
  const counted = (spec.plurals || {})[ev.redacted ? "public_text" : "text"];
  if (counted && Number.isInteger(ev[counted.field])) template = counted.forms[ev[counted.field] === 1 ? 0 : 1];
  const seatFields = new Set(spec.seat_fields || []); // declared by the game's event table
  // "seat(s) {winners} win" -> "{winners} win": the names say who
  template = template.replace(/\b(?:seat\(s\)|seats|seat) \{([a-z_]+)\}/g, (m, k) => (SEAT_LISTS.has(k) || seatFields.has(k) ? `{${k}}` : m));
  template = template.replace(/\bby seat: \{/g, "{");
  const own = {};
  if (board && board.eventValue) {
    for (const [k, v] of Object.entries(ev)) {
      if (k === "type" || k === "seq" || k === "redacted" || seatFields.has(k)) continue;
      const text = board.eventValue(k, v, ev, catalog.components || {});
      if (text !== undefined && text !== null) own[k] = text;
    }
  }
  if (/\{(name|value)\}/.test(template)) {
    for (const k of Object.keys(own)) template = template.replace(new RegExp(`\\s*\\([^(){}]*\\{${k}\\}\\)`, "g"), "");
  }
  const values = {};
  const isSeat = (v) => Number.isInteger(v) && v >= 0 && v < names.length;
  for (const [k, v] of Object.entries(ev)) {
    if (k in own) values[k] = own[k];
    else if (isSeat(v) && seatFields.has(k)) values[k] = names[v];
    else if (Array.isArray(v) && SEAT_LISTS.has(k) && v.every(isSeat)) values[k] = v.length ? v.map((x) => names[x]).join(t(" and ")) : t("nobody");
    else if (Array.isArray(v) && PER_SEAT.has(k) && v.length === names.length) values[k] = v.map((x, i) => `${names[i]} ${x}`).join(", ");
    else if (Array.isArray(v)) values[k] = v.length ? v.map(word).join(", ") : t("none");
    else values[k] = word(v);
  }
  return seatNames(format(template, values), names);
}

/** The server's default names ("Player 2", "Random bot 3") in the page's language; a name a
 * person chose stays as it is. */
/** The name of ``view``'s phase as its game declares it (the catalog's ``phase_names``,
 * already in the page's language), else the phase's id. */
export function phaseName(catalog, view) {
  if (!view.phase) return "";
  return (catalog.phase_names || {})[view.phase] || view.phase;
}

export function defaultName(name) {
  if (lang() === "en") return name;
  let m = /^Player (\d+)$/.exec(name);
  if (m) return t("Player {n}", { n: m[1] });
  m = /^(Random|Heuristic|Ismcts) bot (\d+)$/.exec(name);
  if (m) return t("{level} bot {n}", { level: t(m[1].toLowerCase()), n: m[2] });
  return name;
}

export async function tablePage(root, { mode, table, token, seat = null }) {
  const page = new TablePage(root, mode, table, token);
  page.accountSeat = seat; // a seat of the signed-in account, opened without its token
  window.dragonlair = page; // for the curious, and for the end-to-end tests
  await page.start();
}

function stored(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v;
  } catch { return fallback; }
}

class TablePage {
  constructor(root, mode, table, token) {
    this.root = root;
    this.mode = mode;
    this.tableId = table;
    this.token = token;
    this.info = null; // the table's public description (welcome)
    this.seats = [];
    this.msg = null; // the latest state message shown
    this.queue = []; // state messages not shown yet (paced)
    this.paceTimer = null;
    this.lastShown = 0;
    this.lastPace = 0;
    this.log = [];
    this.nextEvent = 0;
    this.pending = false;
    this.refs = 0;
    this.catalog = null;
    this.board = generic;
    this.rules = null;
    this.status = "connecting";
    this.countdown = null;
    this.prefs = { autoplay: true };
    this.sinceMine = 0; // the first event after this seat's last move
    this.changed = new Set(); // board elements changed since this seat's last move
    this.snapshot = null; // keys -> text of the board as last drawn
    this.wasMyTurn = false;
    this.hint = null; // the latest hint for this seat (for the move it was asked at)
    this.hintBusy = false;
    this.pace = Number(stored(PACE_KEY, "900")) || 0;
    this.sound = stored(SOUND_KEY, "0") === "1";
    this.reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
    this.phone = window.matchMedia("(max-width: 640px)");
    this.fairness = new FairnessPanel(table, () => this.render());
    this.guard = new SeatGuard(this);
  }

  async start() {
    fill(this.root, h("p", { class: "muted" }, t("Joining the table…")));
    let info;
    try {
      info = await getJSON(`/api/tables/${this.tableId}`);
      this.catalog = await getOnce(`/api/tables/${this.tableId}/catalog?lang=${document.documentElement.lang || "en"}`);
    } catch (e) {
      fill(this.root, h("div", { class: "panel" }, h("h1", {}, t("No table here")),
        h("p", { class: "error" }, errorText(e.code, e.message)), h("p", {}, h("a", { href: "/", class: "button primary" }, t("Back to the lobby")))));
      return;
    }
    this.info = info;
    this.seats = info.seats;
    if (info.settings && info.settings.puzzle) { // a puzzle's table shows its question
      try {
        const found = await getJSON(`/api/puzzles?game=${encodeURIComponent(info.game)}`);
        this.puzzle = found.find((p) => p.name === info.settings.puzzle) || null;
      } catch (e) { console.error(e); }
    }
    if (this.catalog.board) { // the game's own board module, as its manifest names it
      try { this.board = await import(`/static/${this.catalog.board}`); } catch (e) { console.error(e); }
      if (this.board.style) await boardStyle(this.board.style); // its sheet, beside it
    }
    this.baseTitle = `${info.name}: dragonlair`;
    document.title = this.baseTitle;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const hello = () => {
      const m = { type: "hello", since: this.nextEvent };
      if (this.token) m.token = this.token;
      else if (this.accountSeat !== null && this.accountSeat !== undefined) m.seat = this.accountSeat;
      else m.spectate = true;
      return m;
    };
    this.conn = new Connection(`${proto}//${location.host}/ws/tables/${this.tableId}`, hello, {
      message: (m) => this.onMessage(m),
      status: (st, detail, code) => this.onStatus(st, detail, code),
    });
    this.chat = new ChatPanel(this.tableId, {
      send: (m) => this.conn.send(m),
      me: () => (this.mySeat === undefined ? null : this.mySeat),
      apart: () => Boolean(this.info && this.info.settings && this.info.settings.chat_apart),
    });
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    installInfo();
    this.countdown = setInterval(() => this.tick(), 250);
    this.phone.addEventListener("change", () => this.render());
    this.render();
    this.conn.start();
  }

  // ---------------------------------------------------------------- messages

  onStatus(st, detail, code) {
    this.status = st;
    const el = document.getElementById("conn");
    const words = {
      connecting: t("connecting…"),
      connected: t("connected"),
      reconnecting: t("reconnecting…"),
      offline: t("connection lost: {detail}", { detail: detail || t("reconnecting") }),
      refused: t("refused: {detail}", { detail }),
    };
    if (el) {
      el.textContent = words[st] || st;
      el.dataset.state = st;
    }
    if (st === "refused") {
      this.chat?.remove();
      fill(this.root, h("div", { class: "panel" }, h("h1", {}, t("Cannot join this table")),
        h("p", { class: "error" }, detail), h("p", { class: "actions" },
          SIGN_IN_CODES.has(code) ? h("a", { href: "/account", class: "button primary", id: "refused-sign-in" }, t("Sign in")) : null,
          h("a", { href: "/", class: SIGN_IN_CODES.has(code) ? "button" : "button primary" }, t("Back to the lobby")))));
    }
    if (st !== "connected") this.pending = false;
  }

  onMessage(m) {
    switch (m.type) {
      case "welcome":
        this.info = m.table;
        this.seats = m.table.seats;
        this.paused = m.table.paused;
        this.abandons = m.table.abandons;
        this.vote = m.table.vote;
        this.mySeat = m.seat;
        if (m.prefs) this.prefs = { ...this.prefs, ...m.prefs };
        this.chat.describe();
        if (this.token && m.seat !== null && m.seat !== undefined) {
          rememberGame({ table: this.tableId, game: m.table.game, name: m.table.name, seat: m.seat, link: location.pathname + location.hash });
        }
        break;
      case "seats":
        this.seats = m.seats;
        this.paused = m.paused;
        this.abandons = m.abandons;
        this.vote = m.vote;
        break;
      case "played_for_you":
        this.playedFor = m;
        break;
      case "rotated":
        this.guard.rotated(m);
        // "your games" keeps the seat's new link
        if (this.info && this.mySeat !== null && this.mySeat !== undefined) {
          rememberGame({ table: this.tableId, game: this.info.game, name: this.info.name, seat: this.mySeat, link: location.pathname + location.hash });
        }
        break;
      case "prefs":
        this.prefs = { ...this.prefs, ...m.prefs };
        break;
      case "rematch":
        this.rematchOffer = m;
        if (m.link && m.by === this.mySeat && this.askedRematch) {
          location.assign(absolute(m.link));
          return;
        }
        break;
      case "state":
        this.enqueue(m);
        return;
      case "offers":
        // whether an undo would work now, worked out by the server after the move: the
        // Undo button is updated in place (a whole redraw would move the choices)
        this.undoCheck = m;
        this.patchUndo();
        return;
      case "hint":
        this.hintBusy = false;
        if (this.msg && m.move === this.msg.move) this.hint = m;
        // the puzzle's own question answered: the answer stays shown after it is played
        if (this.answerWanted && this.puzzle && m.move === PUZZLE_MOVE) this.answer = m;
        break;
      case "chat": // the chat panel (chat.js) lives outside the redrawn page
        this.chat.received(m.messages);
        return;
      case "chat_hidden":
        this.chat.hidden(m.id);
        return;
      case "chat_reported":
        this.chat.reportTaken(m.id);
        return;
      case "error":
        if (m.code.startsWith("chat_")) {
          this.chat.refused(m);
          return;
        }
        this.refused(m);
        break;
      default:
        return;
    }
    this.render();
  }

  /** The server refused something this page sent: say so in words where the player looks
   * (the action bar, else a toast), and give the choices back. A choice that arrived after
   * the table had moved on was not played: everything the server sent since is shown at
   * once, so that the buttons are the latest ones. */
  refused(m) {
    this.pending = false;
    if (/^hint|^rate_limited$|^not_asked$|^stale_move$/.test(m.code)) this.hintBusy = false;
    let text = errorText(m.code, m.message);
    if (m.code === "stale_move") {
      text = t("The table had moved on when your choice arrived, so it was not played: choose again.");
      for (const q of this.queue.splice(0)) this.apply(q, false);
      clearTimeout(this.paceTimer);
      this.paceTimer = null;
    }
    this.refusal = { text, code: m.code, move: this.msg ? this.msg.move : null };
    if (!this.root.querySelector(".actionbar")) toast(text);
  }

  /** Show a state message now (this seat's own move, a first message, nothing paced) or
   * after the ones before it, at the table's pace. */
  enqueue(m) {
    const others = m.ref === undefined && this.msg !== null && m.events.some((ev) => ev.seq >= this.nextEvent);
    if (!others || !this.pace) {
      // this seat's own update: everything before it is shown at once
      for (const q of this.queue.splice(0)) this.apply(q, false);
      clearTimeout(this.paceTimer);
      this.paceTimer = null;
      this.apply(m, true);
      return;
    }
    this.queue.push(m);
    if (this.queue.length > 6) {
      // far behind (a reconnect, a fast table): catch up, keep the latest two paced
      for (const q of this.queue.splice(0, this.queue.length - 2)) this.apply(q, false);
      this.render();
    }
    this.pump();
  }

  pump() {
    if (this.paceTimer || !this.queue.length) return;
    const wait = this.lastShown + this.lastPace - Date.now();
    if (wait > 0) {
      this.paceTimer = setTimeout(() => { this.paceTimer = null; this.pump(); }, wait);
      return;
    }
    this.apply(this.queue.shift(), true);
    this.pump();
  }

  apply(m, draw) {
    const fresh = m.events.filter((ev) => ev.seq >= this.nextEvent);
    for (const ev of fresh) {
      this.log.push({ seq: ev.seq, text: eventText(this.catalog, ev, this.names(), this.board), ev });
      this.nextEvent = ev.seq + 1;
    }
    if (m.ref !== undefined) {
      // this seat moved: what changes from now on is new to it
      this.sinceMine = this.nextEvent;
      this.changed.clear();
    }
    if (this.hint && this.hint.move !== m.move) this.hint = null;
    if (this.refusal && this.refusal.move !== m.move) this.refusal = null;
    this.msg = m;
    if (m.status) this.info = { ...this.info, status: m.status };
    this.pending = false;
    this.lastShown = Date.now();
    this.lastPace = this.pace * (fresh.some((ev) => SLOW_EVENTS.test(ev.type)) ? 2 : 1);
    if (draw) this.render();
  }

  /** What an action does, in the page's language: the game's board module may say it
   * itself (``label(action, components, catalogLabel)``, from the printed card), else the
   * catalog's. */
  actionLabel(a, names) {
    let own = null;
    if (this.board.label) {
      try { own = this.board.label(a, this.catalog.components || {}, this.catalog.actions[a]); } catch (e) { console.error(e); }
    }
    return seatNames(own || this.catalog.actions[a] || a, names);
  }

  names() {
    // seat names as shown everywhere; two seats of the same name ("Random bot") get numbers
    const raw = this.seats.map((s) => (s.kind === "open" ? t("Seat {n}", { n: s.seat + 1 }) : defaultName(s.name)));
    return raw.map((n, i) => (raw.filter((x) => x === n).length > 1 ? `${n} ${i + 1}` : n));
  }

  act(action) {
    if (!this.msg || this.pending) return;
    this.refs += 1;
    const ok = this.conn.send({ type: "act", move: this.msg.move, action, ref: this.refs });
    if (!ok) {
      toast(t("Not connected: your move was not sent. It will be possible again once reconnected."));
      return;
    }
    this.pending = true;
    this.refusal = null;
    for (const b of this.root.querySelectorAll("button[data-action]")) b.disabled = true;
    this.root.querySelector(".refusal")?.remove();
    document.querySelector(".actionbar")?.focus({ preventScroll: true });
    const pageEl = this.root.querySelector(".table-page");
    if (pageEl) pageEl.dataset.pending = "1";
  }

  /** Ask the bots about this seat's choices now (the answer is a ``hint`` message). */
  askHint() {
    if (!this.msg || this.hintBusy) return;
    if (!this.conn.send({ type: "hint", move: this.msg.move })) {
      toast(t("Not connected: try again once reconnected."));
      return;
    }
    this.hintBusy = true;
    this.render();
  }

  /** Take back this seat's last decision (the server checks it is allowed). */
  askUndo() {
    if (!this.msg || this.pending) return;
    if (!this.conn.send({ type: "undo", move: this.msg.move })) {
      toast(t("Not connected: try again once reconnected."));
      return;
    }
    this.pending = true;
    this.render();
  }

  /** Confirm the decisions this seat holds now, without waiting for the window's end. */
  askConfirm() {
    if (!this.msg || this.pending || !this.msg.held) return;
    if (!this.conn.send({ type: "confirm", move: this.msg.move })) {
      toast(t("Not connected: try again once reconnected."));
      return;
    }
    this.pending = true;
    this.render();
  }

  /** What the held decisions wait for, in words, with the seconds left. */
  heldText() {
    const held = this.msg && this.msg.held;
    if (!held) return "";
    if (held.turn) {
      // a table that confirms at the end of a turn: no window, the person's Confirm
      if (held.waiting) {
        return t("Your choice “{action}” waits for your Confirm (it would show you something, so it is not shown before): press Confirm to play it, or Undo to take it back.", { action: held.waiting });
      }
      return t("Nobody sees your decisions yet: press Confirm to play them, or Undo to take back the last one.");
    }
    const left = held.until ? Math.max(0, Math.ceil((held.until - Date.now()) / 1000)) : 0;
    if (held.waiting) {
      return t("Your choice “{action}” waits for its confirmation (it would show you something, so it is not shown before): played in {n} s unless you take it back.", { action: held.waiting, n: left });
    }
    return t("Nobody sees your decision yet: it is played in {n} s unless you take it back.", { n: left });
  }

  /** Keep the countdown of the held decisions running while they are held. */
  tickHeld() {
    clearInterval(this.heldTimer);
    this.heldTimer = null;
    if (!this.msg || !this.msg.held || this.msg.held.turn) return; // no countdown to show
    this.heldTimer = setInterval(() => {
      const el = document.getElementById("held-note");
      if (!el || !this.msg || !this.msg.held) {
        clearInterval(this.heldTimer);
        this.heldTimer = null;
        return;
      }
      el.textContent = this.heldText();
    }, 250);
  }

  setPref(name, value) {
    this.prefs = { ...this.prefs, [name]: value };
    this.conn.send({ type: "prefs", prefs: { [name]: value } });
    this.render();
  }

  // ---------------------------------------------------------------- drawing

  render() {
    const focused = document.activeElement;
    const focusKey = focused && focused !== document.body && (focused.dataset?.action || focused.id);
    const focusInBar = focused && (focused.closest?.(".actionbar") || focused.dataset?.action);
    const lost = !focused || focused === document.body || focused === this.root;
    const m = this.msg;
    this.tickHeld();
    const names = this.names();
    const seat = m ? m.seat : this.mySeat;
    const view = m ? m.view : null;
    const legal = m && m.status === "playing" ? m.legal : [];
    const handled = new Set();
    const label = (a) => this.actionLabel(a, names);
    const ctx = {
      view, seat, names, legal, catalog: this.catalog, comp: this.catalog.components,
      log: this.log, label, phone: this.phone.matches,
      can: (a) => legal.includes(a),
      /** A button for a legal action drawn on the board (a card in hand). */
      button: (action, content, attrs = {}) => {
        handled.add(action);
        const tone = this.board.tone ? this.board.tone(action, ctx) : null;
        return h("button", {
          type: "button", ...attrs, class: ["act", attrs.class, tone && `tone-${tone}`],
          "aria-label": attrs["aria-label"] || label(action),
          dataset: { action, info: attrs.info || label(action) }, disabled: this.pending,
          onclick: () => this.act(action),
        }, content);
      },
    };
    const top = document.getElementById("topbar-info");
    if (top && this.info) {
      fill(top, h("strong", {}, this.info.name),
        seat === null || seat === undefined ? h("span", { class: "badge" }, t("spectator")) : h("span", { class: "badge" }, t("you: {name} (seat {n})", { name: names[seat] ?? "", n: seat + 1 })));
    }
    if (!view) {
      fill(this.root, h("p", { class: "muted" }, t("Waiting for the table…")));
      return;
    }
    const boardEl = h("section", { class: "board", "aria-label": t("the table") });
    try {
      boardEl.append(this.board.board(ctx));
    } catch (e) {
      console.error(e);
      boardEl.append(generic.board(ctx));
    }
    const over = view.over || m.status === "over";
    // a puzzle's question, then hint and undo, or a lesson's step: under the action bar
    const coached = [this.puzzlePanel(ctx), this.coach(ctx)].filter(Boolean);
    const lesson = !coached.length && m.tutorial ? lessonPanel(m.tutorial, m.status) : null;
    const coach = coached.length ? h("div", { class: "coach-area" }, coached) : lesson;
    const main = h("div", {
      class: ["table-page", over && "is-over", coach && "has-coach"],
      dataset: {
        game: this.info.game, move: String(m.move), status: m.status, legal: String(legal.length),
        seat: seat === null || seat === undefined ? "spectator" : String(seat), pending: this.pending ? "1" : "0",
      },
    },
      this.actionBar(ctx, handled, view, legal, names, seat),
      coach,
      over && (m.result || view.result) ? this.result(m.result || view.result, names, seat) : null,
      this.seatStrip(view, names, seat),
      boardEl,
      h("div", { class: "side" }, this.guard.panel(this.seats, seat), this.logPanel(), this.settingsPanel(seat), this.invitePanel(), this.fairness.panel(this.info, m.status), this.tools()),
    );
    const before = this.snapshot;
    hideInfo();
    fill(this.root, main);
    // on a phone the hand's buttons are in the bar too, under the thumb
    const barEl = this.root.querySelector(".actionbar");
    if (this.phone.matches && barEl && !this.pending) this.handInBar(barEl, legal);
    // on a phone the bar is fixed at the bottom: leave room for it under the page
    document.body.style.paddingBottom = this.phone.matches && barEl ? `${barEl.offsetHeight + 8}px` : "";
    if (barEl) document.documentElement.style.setProperty("--bar-h", `${barEl.offsetHeight}px`);
    this.markChanges(before);
    this.markHint();
    markLesson(this.root, m.tutorial);
    if (this.board.after) {
      try { this.board.after(boardEl, ctx, this.animate()); } catch (e) { console.error(e); }
    }
    this.numberKeys();
    this.tick();
    this.turnSignal(legal.length > 0 && !this.pending, names, seat);
    // focus stays on the choices: back on the same action if it is still there, else on
    // the first choice when it is this seat's turn, else on the bar itself
    const bar = this.root.querySelector(".actionbar");
    let target = null;
    if (focusKey) {
      target = this.root.querySelector(`[data-action="${CSS.escape(focusKey)}"]`) || document.getElementById(focusKey);
      if (target && target.disabled) target = null;
    }
    if (!target && (focusInBar || lost)) {
      target = this.root.querySelector(".actionbar button[data-action]:not([disabled])")
        || this.root.querySelector("button[data-action]:not([disabled])")
        || (focusInBar ? bar : null);
    }
    if (target) focusQuietly(target, { preventScroll: true });
    const log = this.root.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
  }

  /** The hint's win chance on each choice's button (to the precision its playouts
   * support), the best choice marked, and those about as good as it. */
  markHint() {
    const hint = this.hint;
    if (!hint || !this.msg || hint.move !== this.msg.move) return;
    for (const r of hint.choices) {
      for (const b of this.root.querySelectorAll(`button[data-action="${CSS.escape(r.action)}"]`)) {
        b.classList.toggle("hint-pick", r.action === hint.pick);
        b.classList.toggle("hint-close", r.action !== hint.pick && r.close);
        b.append(h("span", { class: "hint-badge", title: t("win chance after this choice (hint)") },
          `${r.action !== hint.pick && r.close ? "≈ " : ""}${r.shown.value}%`));
      }
    }
  }

  /** Hint and undo, where the table allows them (the server says which, seat by seat). */
  coach(ctx) {
    const m = this.msg;
    if (!m || !m.offers) return null;
    const o = this.undoOffer();
    if ((!o.hints && !o.undo) || m.status !== "playing") return null;
    const row = [];
    if (o.hints) {
      row.push(h("button", {
        type: "button", id: "hint-button", class: "small",
        disabled: !o.hint || this.hintBusy || this.pending,
        title: o.hint ? t("What do the bots think of my choices? (from what I can see)") : t("A hint is for your own decision, when you are asked."),
        onclick: () => this.askHint(),
      }, this.hintBusy ? t("Thinking…") : t("Hint")));
    }
    if (o.undo) {
      row.push(h("button", {
        type: "button", id: "undo-button", class: "small",
        disabled: !o.can_undo || this.pending,
        title: o.can_undo ? t("Take back my last decision: nobody has seen it yet") : word(o.undo_reason) || "",
        onclick: () => this.askUndo(),
      }, t("Undo")));
      if (m.held) {
        row.push(h("button", {
          type: "button", id: "confirm-button", class: "small primary",
          disabled: this.pending,
          title: m.held.turn ? t("Play my decisions of this turn: the others see them and the game goes on") : t("Play my decision now, without waiting"),
          onclick: () => this.askConfirm(),
        }, t("Confirm")));
        row.push(h("span", { class: "small held-note", id: "held-note", role: "status" }, this.heldText()));
      } else {
        row.push(h("span", { class: "muted small", id: "undo-reason" }, !o.can_undo && o.undo_reason ? t("No undo: {why}.", { why: word(o.undo_reason) }) : ""));
      }
    }
    return h("section", { class: "coach", "aria-label": t("hint and undo") },
      h("div", { class: "coach-buttons", role: "group", "aria-label": t("hint and undo") }, row),
      this.hintPanel(ctx));
  }

  /** A puzzle's table: its title, question and notes, and "Show the answer", which asks
   * the hint's estimator about the puzzle's decision and says what it found best and why
   * (it stays shown once the decision is played). */
  puzzlePanel(ctx) {
    const p = this.puzzle;
    const m = this.msg;
    if (!p || !m) return null;
    const o = this.undoOffer();
    const open = m.move === PUZZLE_MOVE && m.status === "playing" && m.seat === p.seat;
    const answer = this.answer;
    return h("section", { class: "puzzle-panel", id: "puzzle", "aria-label": t("puzzle") },
      h("h2", {}, t("Puzzle: {title}", { title: t(p.title) })),
      h("p", { class: "puzzle-question", id: "puzzle-question" }, h("strong", {}, t(p.question))),
      p.notes ? h("p", { class: "puzzle-notes small", id: "puzzle-hint-text" }, t(p.notes)) : null,
      p.source ? h("p", { class: "muted small" }, t("From {source}.", { source: t(p.source) })) : null,
      answer
        ? h("div", { class: "puzzle-answer", id: "puzzle-answer", role: "status" },
          h("p", {}, h("strong", {}, t("The answer: {choice}", { choice: ctx.label(answer.pick) }))),
          h("p", {}, hintReason(answer.why, (a) => ctx.label(a))))
        : open ? h("button", {
          type: "button", id: "answer-button", class: "small",
          disabled: !o.hint || this.hintBusy || this.pending,
          title: o.hints ? t("What the bots find best here, and why (from what you can see)") : t("This table was created without hints."),
          onclick: () => { this.answerWanted = true; this.askHint(); },
        }, this.hintBusy && this.answerWanted ? t("Thinking…") : t("Show the answer")) : null);
  }

  /** The undo offer as it stands: the state's, with the server's later check for this move. */
  undoOffer() {
    const m = this.msg;
    const checked = this.undoCheck && m && this.undoCheck.move === m.move ? this.undoCheck.offers : {};
    return { ...(m ? m.offers : {}), ...checked };
  }

  patchUndo() {
    const button = document.getElementById("undo-button");
    if (!button) return;
    const o = this.undoOffer();
    button.disabled = !o.can_undo || this.pending;
    button.title = o.can_undo ? t("Take back my last decision: nobody has seen it yet") : word(o.undo_reason) || "";
    const reason = document.getElementById("undo-reason");
    const text = !o.can_undo && o.undo_reason ? t("No undo: {why}.", { why: word(o.undo_reason) }) : "";
    if (reason) reason.textContent = text;
  }

  /** The hint: the choices ranked (the best first, those the playouts cannot tell apart
   * from it marked "about as good"), each win chance shown only to the precision its
   * playouts support, and why, in a sentence. */
  hintPanel(ctx) {
    const hint = this.hint;
    if (!hint || !this.msg || hint.move !== this.msg.move) return null;
    const range = (r) => `${r.shown.value}% (${r.shown.low}–${r.shown.high}%)`;
    return h("section", { class: "hint-panel", id: "hint", "aria-label": t("hint") },
      // the puzzle's answer says the same sentence just above: once is enough
      this.answer && this.answer.move === hint.move ? null
        : h("p", { class: "hint-why", id: "hint-why" }, hintReason(hint.why, (a) => ctx.label(a))),
      h("p", { class: "small muted" }, t("From what you can see: your win chance after each choice, from games played out by the bots (95 percent interval, rounded as far as the playouts support)")),
      h("ol", { class: "hint-list" }, hint.choices.map((r) => h("li", {
        class: r.action === hint.pick ? "pick" : r.close ? "close" : null,
        dataset: { hinted: r.action, playouts: String(r.playouts), step: String(r.shown.step) },
      },
        h("span", { class: "hint-label" }, ctx.label(r.action)),
        h("span", { class: "hint-win" }, range(r)),
        h("span", { class: "small muted" }, t("{n} games", { n: r.playouts })),
        r.action === hint.pick ? h("strong", { class: "small" }, t("best"))
          : r.close ? h("span", { class: "small" }, t("about as good")) : null))));
  }

  /** A copy of the hand's action buttons in the bar (a phone's bottom bar): they press
   * the same actions as the board's. */
  handInBar(bar, legal) {
    if (!legal.length || bar.querySelector(".choice-buttons")) return;
    const hand = this.root.querySelector(".board .hand .cards");
    if (!hand || !hand.querySelector("button[data-action]")) return;
    const copy = hand.cloneNode(true);
    copy.classList.add("bar-hand");
    copy.removeAttribute("id");
    for (const el of copy.querySelectorAll("[id]")) el.removeAttribute("id");
    for (const el of copy.querySelectorAll("[data-k]")) el.removeAttribute("data-k");
    for (const b of copy.querySelectorAll("button[data-action]")) {
      b.addEventListener("click", () => this.act(b.dataset.action));
    }
    bar.append(copy);
  }

  animate() {
    return !this.reduced.matches;
  }

  /** Flash what differs from the board as last drawn; keep it marked until this seat moves. */
  markChanges(before) {
    const now = new Map();
    for (const el of this.root.querySelectorAll(".board [data-k]")) now.set(el.dataset.k, el.textContent + "|" + (el.getAttribute("data-v") || ""));
    this.snapshot = now;
    if (!before) return;
    for (const [k, v] of now) {
      if (before.get(k) !== v) {
        const isNew = !before.has(k);
        this.changed.add(k);
        const el = this.root.querySelector(`.board [data-k="${CSS.escape(k)}"]`);
        // a new thing arrives (bids turn over), a changed one flashes
        if (el && this.animate()) el.classList.add(isNew ? el.dataset.anim || "arrive" : "flash");
      }
    }
    if (this.seatIs()) {
      for (const el of this.root.querySelectorAll(".board [data-k]")) {
        if (this.changed.has(el.dataset.k)) el.classList.add("changed");
      }
    }
  }

  seatIs() {
    return this.msg && this.msg.seat !== null && this.msg.seat !== undefined;
  }

  /** The tab title and an optional sound say when it is this seat's turn. */
  turnSignal(myTurn, names, seat) {
    document.title = myTurn ? `● ${t("Your turn:")} ${this.baseTitle}` : this.baseTitle;
    if (myTurn && !this.wasMyTurn && this.sound) beep();
    if (myTurn && !this.wasMyTurn) notifyTurn(t("Your turn:") + " " + this.baseTitle, t("It is your turn at {game}.", { game: this.info.name }), this.tableId);
    this.wasMyTurn = myTurn;
  }

  prompt(view, legal, names, seat) {
    const m = this.msg;
    if (m.status === "waiting") {
      const open = this.seats.filter((s) => s.kind === "open").map((s) => s.seat + 1);
      const invited = this.seats.filter((s) => s.kind === "human" && !s.connected && !s.arrived).map((s) => names[s.seat]);
      const parts = [];
      if (open.length) parts.push(tn("seat {seats} still open", "seats {seats} still open", open.length, { seats: open.join(", ") }));
      if (invited.length) parts.push(t("waiting for {names} to open their link", { names: invited.join(", ") }));
      return h("strong", {}, t("Waiting for players: {what}.", { what: parts.join("; ") || t("starting") }));
    }
    if (m.status === "abandoned") return h("strong", {}, t("The game was abandoned."));
    if (view.over || m.status === "over") {
      const r = m.result || view.result; // the table's, when a player conceded
      if (!r) return h("strong", {}, t("The game is over."));
      const winners = r.winners.map((w) => names[w]);
      if (r.winners.length > 1) return h("strong", { class: "your-turn" }, t("Shared win: {names}", { names: winners.join(t(" and ")) }));
      return h("strong", { class: "your-turn" }, r.winners[0] === seat ? t("You win!") : t("{name} wins!", { name: winners[0] }));
    }
    if (legal.length) {
      const own = this.board.prompt ? this.board.prompt({ view, legal, names, seat, catalog: this.catalog }) : null;
      if (legal.length === 1 && this.prefs.autoplay && !m.tutorial) {
        return h("strong", { class: "your-turn" }, own || t("Your move"), h("span", { class: "muted small" }, ` · ${t("only one choice: played for you in a moment")}`));
      }
      return h("strong", { class: "your-turn" }, own || (view.window ? t("You are asked: answer now.") : t("Your move.")));
    }
    if (view.my_choice) {
      return h("strong", {}, t("You chose: {choice}. Waiting for the others.", { choice: this.actionLabel(view.my_choice, names) }));
    }
    const absent = view.to_act.filter((i) => this.seats[i] && this.seats[i].kind === "human" && !this.seats[i].arrived && !this.seats[i].connected);
    if (absent.length) {
      return h("span", {}, t("Waiting for {names} to open their invite link: their seat waits for them.", { names: absent.map((i) => names[i]).join(t(" and ")) }));
    }
    const who = view.to_act.map((s) => names[s]).join(", ");
    return h("span", {}, who ? `${view.choosing ? t("Still choosing") : view.window ? t("Asked") : t("To play")}: ${who}` : "");
  }

  actionBar(ctx, handled, view, legal, names, seat) {
    const m = this.msg;
    const parts = [h("div", { class: "prompt", "aria-live": "polite" }, this.prompt(view, legal, names, seat))];
    const phase = phaseName(this.catalog, view);
    if ("choosing" in view && !view.over && m.status !== "over") {
      const waiting = view.to_act.map((s) => names[s]);
      parts.push(h("span", { class: "choosing small" }, waiting.length ? t("still choosing: {names}", { names: waiting.join(", ") }) : t("revealing")));
    }
    const forcedMine = legal.length === 1 && this.prefs.autoplay && !m.tutorial && m.deadline && m.deadline.seat === seat;
    if (m.deadline && m.status === "playing" && !forcedMine) {
      const answer = this.actionLabel(m.deadline.default, names);
      const [before, after] = (m.deadline.seat === seat ? t("you must answer in {secs} (or {default})")
        : t("{name} must answer in {secs} (or {default})", { name: names[m.deadline.seat] })).split("{secs}");
      parts.push(h("span", { class: "deadline", role: "timer", dataset: { at: String(m.deadline.at) } },
        before, h("span", { class: "secs" }, "…"), (after || "").replace("{default}", answer)));
    }
    if (m.due && m.status === "playing") {
      // a turn-based table: when the move asked now must have been made
      const when = new Date(m.due * 1000).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
      parts.push(h("span", { class: "move-due small", id: "move-due" }, t("move due by {when}", { when })));
    }
    parts.push(h("span", { class: "muted small phase" }, `${phase} · ${t("move {move}", { move: m.move })}`));
    const rest = legal.filter((a) => !handled.has(a));
    // in a window, or when there are only a few, the board's own choices are in the bar too
    const mirror = view.window || legal.length <= 3 ? legal.filter((a) => handled.has(a)) : [];
    const keys = this.board.keys || {};
    const byAction = {};
    for (const [k, a] of Object.entries(keys)) byAction[a] = k;
    const shown = [...mirror, ...rest];
    const tone = (a) => (this.board.tone ? this.board.tone(a, ctx) : null) || (/^(pass|decline|hold)\b/.test(a) ? "quiet" : null);
    const order = (a) => ({ danger: 0, strong: 1, null: 2, quiet: 3 })[String(tone(a))] ?? 2;
    shown.sort((a, b) => order(a) - order(b));
    const buttons = shown.length ? h("div", { class: "choice-buttons", role: "group", "aria-label": t("your choices") },
      shown.map((a) => {
        const letter = byAction[a] || byAction[a.split(" ")[0]];
        const toned = tone(a);
        return h("button", {
          type: "button", class: ["act", "choice", toned && `tone-${toned}`], dataset: { action: a, letter: letter || "", info: ctx.label(a) },
          "aria-label": ctx.label(a),
          disabled: this.pending, onclick: () => this.act(a),
        }, toned === "danger" ? h("span", { class: "tone-mark", "aria-hidden": "true" }, "✋") : null,
        h("span", { class: "choice-label" }, (this.board.short && this.board.short(a, ctx)) || ctx.label(a)), letter ? h("kbd", {}, letter.toUpperCase()) : null);
      })) : null;
    if (legal.length && !shown.length && handled.size && !this.phone.matches) {
      parts.push(h("span", { class: "hint small" }, t("Choose on the table ↓")));
    }
    const since = this.seatIs() ? this.log.filter((l) => l.seq >= this.sinceMine).length : 0;
    return h("section", {
      class: ["actionbar", legal.length && "my-turn", view.window && "window"], tabindex: -1, "aria-label": t("prompt and choices"),
    },
    h("div", { class: "bar-line" }, parts,
      since && this.sinceMine ? h("button", { type: "button", class: "since small", onclick: () => document.getElementById("log")?.focus() }, tn("{n} new since your move", "{n} new since your move", since)) : null),
    this.refusal ? h("p", { class: "refusal", role: "alert", dataset: { code: this.refusal.code || "" } }, this.refusal.text) : null,
    buttons, this.nameForm(seat), awayNotices(this, names));
  }

  seatStrip(view, names, me) {
    const toAct = new Set(this.msg && this.msg.status === "abandoned" ? [] : view.to_act);
    const choosing = new Set(view.choosing || []);
    return h("ol", { class: "seat-strip", "aria-label": t("players") },
      this.seats.map((s) => {
        let state = "";
        const result = (this.msg && this.msg.result) || view.result; // a concession's, or the game's
        if (view.over || (this.msg && this.msg.status === "over")) state = result && result.winners.includes(s.seat) ? t("winner") : "";
        else if (choosing.has(s.seat)) state = toAct.has(s.seat) ? t("choosing…") : t("ready ✓");
        else if (toAct.has(s.seat)) state = view.window ? t("asked") : t("to play");
        const kind = s.conceded !== null && s.conceded !== undefined ? t("conceded") : s.kind === "bot" ? t("{level} bot", { level: t(s.level) }) : seatAway(s, this.info.settings, this.paused) ? seatAway(s, this.info.settings, this.paused) : s.kind === "open" ? t("open seat") : s.kind === "human" && !s.connected && !s.arrived ? t("invited") : "";
        return h("li", { class: ["seat-chip", `p${s.seat}`, toAct.has(s.seat) && "acting", s.seat === me && "me"], dataset: { seat: String(s.seat) } },
          h("span", { class: "seat-no", title: t("seat {n}", { n: s.seat + 1 }) }, String(s.seat + 1)),
          h("span", { class: ["dot", s.connected || s.kind === "bot" ? "on" : "off"], title: s.kind === "bot" ? t("bot") : s.connected ? t("connected") : t("not connected") }),
          // an account's name opens its profile in another tab: the table stays open here
          h("span", { class: "name" }, seatName(s, names[s.seat], { target: "_blank", rel: "noopener" }), s.seat === me ? ` ${t("(you)")}` : ""),
          kind ? h("span", { class: "kind small muted" }, kind) : null,
          state ? h("span", { class: "state small" }, state) : null);
      }));
  }

  result(result, names, me) {
    const labels = [];
    for (const b of result.breakdown) for (const k of Object.keys(b)) if (!labels.includes(k)) labels.push(k);
    const winners = result.winners.map((w) => names[w]).join(t(" and "));
    const order = names.map((_, i) => i).sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
    const isSeat = me !== null && me !== undefined;
    const conceded = result.termination === "conceded"; // ended by a concession: no points counted
    return h("section", { class: "panel result", "aria-label": t("final scores"), id: "result" },
      h("div", { class: "result-head" },
        h("h2", {}, h("span", { class: "trophy", "aria-hidden": "true" }, "🏆 "), result.winners.length > 1 ? t("Shared win: {names}", { names: winners }) : t("{name} wins!", { name: winners })),
        h("div", { class: "result-actions" },
          isSeat ? h("button", { type: "button", class: "primary", id: "rematch", onclick: () => this.rematch() },
            this.rematchOffer ? t("Play the rematch") + (this.rematchOffer.by !== me ? ` (${t("{name} asks", { name: names[this.rematchOffer.by] || t("a player") })})` : "") : t("Rematch")) : null,
          h("a", { href: `/games/${this.tableId}`, class: "button", id: "game-page-link" }, t("Replay and scores")),
          h("a", { href: "/", class: "button" }, t("Back to the lobby")))),
      result.reason ? h("p", { class: "muted small" }, seatNames(word(result.reason), names)) : null,
      h("ol", { class: "podium" }, order.map((i) => h("li", { class: [`p${i}`, result.winners.includes(i) && "winner", i === me && "me"] },
        h("span", { class: "rank" }, `${result.ranks[i]}.`), h("span", { class: "who" }, names[i], i === me ? ` ${t("(you)")}` : ""),
        conceded ? null : h("span", { class: "pts" }, String(result.points[i]))))),
      conceded ? null : h("details", this.keepOpen("breakdown", { class: "breakdown" }, !this.phone.matches),
        h("summary", {}, t("Each player's breakdown")),
        h("div", { class: "scroll-x" }, h("table", { class: "scores" },
          h("thead", {}, h("tr", {}, h("th", {}, t("player")), labels.map((l) => h("th", {}, word(l.replace(/_/g, " ")))), h("th", {}, t("total")), h("th", {}, t("rank")))),
          h("tbody", {}, order.map((i) => h("tr", { class: [result.winners.includes(i) && "winner", i === me && "me"] },
            h("th", {}, names[i]),
            labels.map((l) => h("td", {}, result.breakdown[i] && l in result.breakdown[i] ? String(result.breakdown[i][l]) : "")),
            h("td", { class: "total" }, String(result.points[i])),
            h("td", {}, String(result.ranks[i])))))))));
  }

  rematch() {
    if (this.rematchOffer && this.rematchOffer.link) {
      location.assign(absolute(this.rematchOffer.link));
      return;
    }
    const b = document.getElementById("rematch");
    if (b) b.disabled = true;
    this.askedRematch = true;
    if (!this.conn.send({ type: "rematch" })) {
      toast(t("Not connected: try again once reconnected."));
      if (b) b.disabled = false;
    }
  }

  logPanel() {
    return h("section", { class: "panel log", "aria-label": t("what happened") },
      h("h2", { class: "small" }, t("Log")),
      h("ol", { tabindex: 0, id: "log" }, this.log.slice(-300).map((l) => h("li", {
        value: l.seq + 1, class: this.seatIs() && this.sinceMine && l.seq >= this.sinceMine ? "new" : null,
        dataset: { seq: String(l.seq), type: l.ev.type },
      }, l.text))));
  }

  /** An invited friend's seat still has its default name ("Player 2"): ask for theirs. */
  nameForm(seat) {
    if (seat === null || seat === undefined || this.named) return null;
    const s = this.seats[seat];
    if (!s || s.kind !== "human" || !/^Player \d+$/.test(s.name)) return null;
    const input = h("input", {
      id: "seat-name", maxlength: 40, autocomplete: "nickname", value: this.nameDraft ?? stored("dragonlair:name", ""),
      placeholder: t("Your name"), "aria-label": t("your name"), oninput: (ev) => { this.nameDraft = ev.target.value; },
    });
    const save = (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) { input.focus(); return; }
      try { localStorage.setItem("dragonlair:name", name); } catch { /* not kept */ }
      if (this.conn.send({ type: "name", name })) this.named = true;
      this.render();
    };
    return h("form", { class: "name-form", id: "name-form", onsubmit: save },
      h("label", { for: "seat-name" }, t("You sit in seat {n}. Your name at this table:", { n: seat + 1 })), input,
      h("button", { type: "submit", class: "primary" }, t("Save")),
      h("button", { type: "button", class: "quiet", onclick: () => { this.named = true; this.render(); } }, t("Later")));
  }

  /** Attributes for a <details> that stays open or closed across redraws. */
  keepOpen(key, attrs, initially = false) {
    this.opened = this.opened || {};
    if (!(key in this.opened)) this.opened[key] = initially;
    return { ...attrs, open: this.opened[key], ontoggle: (ev) => { this.opened[key] = ev.target.open; } };
  }

  settingsPanel(seat) {
    const isSeat = seat !== null && seat !== undefined;
    const box = (id, text, checked, on) => h("label", { class: "toggle small", for: id },
      h("input", { type: "checkbox", id, checked, onchange: (ev) => on(ev.target.checked) }), text);
    return h("details", this.keepOpen("settings", { class: "panel settings" }), h("summary", {}, t("Settings")),
      isSeat ? box("pref-autoplay", t("Answer for me when I have only one choice (a HALT! window without a HALT! card, the last card of a draft)"), !!this.prefs.autoplay,
        (v) => this.setPref("autoplay", v)) : null,
      box("pref-sound", t("A sound when it is my turn"), this.sound, (v) => {
        this.sound = v;
        try { localStorage.setItem(SOUND_KEY, v ? "1" : "0"); } catch { /* not kept */ }
        if (v) beep();
      }),
      isSeat && canNotify() ? box("pref-notify", t("A notification when it is my turn and this tab is in the background"), notifyOn(), async (v) => {
        if (!(await setNotify(v)) && v) toast(t("This browser does not allow notifications from this page: allow them in its site settings."));
        this.render();
      }) : null,
      box("pref-pace", t("Show the others' moves one at a time"), this.pace > 0, (v) => {
        this.pace = v ? 900 : 0;
        try { localStorage.setItem(PACE_KEY, String(this.pace)); } catch { /* not kept */ }
      }));
  }

  invitePanel() {
    let passes = null;
    try { passes = JSON.parse(localStorage.getItem(`dragonlair:table:${this.tableId}`) || "null"); } catch { /* none */ }
    if (!passes || !passes.seats || passes.seats.length < 2) return null;
    const rows = passes.seats.filter((p) => p.token !== this.token).map((p) => {
      const url = absolute(p.link);
      const input = h("input", { readonly: true, value: url, class: "link", "aria-label": t("link for seat {n}", { n: p.seat + 1 }) });
      return h("div", { class: "link-row" }, h("span", {}, t("Seat {n}", { n: p.seat + 1 })), input,
        h("button", { type: "button", onclick: () => copyText(url, input) }, t("Copy")));
    });
    return h("details", this.keepOpen("invites", { class: "panel invites" }), h("summary", {}, t("Invite links")), rows);
  }

  tools() {
    const terms = this.info && this.info.settings ? tableTerms(this.info.settings, this.info.fairness) : [];
    return h("div", { class: "tools" },
      terms.length ? h("p", { class: "small muted table-terms", id: "table-terms" }, t("This table: {terms}", { terms: terms.join(" · ") })) : null,
      h("button", { type: "button", id: "rules-button", onclick: () => this.showRules() }, t("Rules") + " ", h("kbd", {}, "?")),
      h("a", { class: "button", href: "/" }, t("Lobby")),
      this.concedeControl(),
      endVoteControl(this));
  }

  /** Conceding, with a confirmation step: the seat ranks last (docs/server.md). */
  concedeControl() {
    const seat = this.msg ? this.msg.seat : this.mySeat;
    const me = seat === null || seat === undefined ? null : this.seats[seat];
    if (!me || me.kind !== "human" || !this.msg || this.msg.status !== "playing") return null;
    if (me.conceded !== null && me.conceded !== undefined) {
      return h("p", { class: "small conceded", id: "conceded-note" }, t("You conceded: a bot plays your seat to the end."));
    }
    if (!this.askingConcede) {
      return h("button", { type: "button", id: "concede", class: "danger-button", onclick: () => {
        this.askingConcede = true;
        this.render();
        document.getElementById("concede-no")?.focus();
      } }, t("Concede"));
    }
    const left = this.seats.filter((x) => x.conceded === null || x.conceded === undefined).length;
    const no = () => { this.askingConcede = false; this.render(); };
    const yes = () => {
      this.askingConcede = false;
      if (!this.conn.send({ type: "concede" })) toast(t("Not connected: try again once reconnected."));
      this.render();
    };
    return h("div", { class: "concede-confirm", id: "concede-confirm", role: "alertdialog", "aria-label": t("concede") },
      h("p", {}, left <= 2 ? t("Concede this game? It ends now: the other player wins, and it counts as your loss.")
        : t("Concede this game? You rank last, and a bot plays your seat to the end.")),
      h("button", { type: "button", id: "concede-yes", class: "danger-button", onclick: yes }, t("Yes, concede")),
      h("button", { type: "button", id: "concede-no", class: "primary", onclick: no }, t("Keep playing")));
  }

  async showRules() {
    let dlg = document.getElementById("rules");
    if (!dlg) {
      dlg = h("dialog", { id: "rules", "aria-label": t("how to play") });
      document.body.append(dlg);
    }
    fill(dlg, h("p", {}, t("Loading the rules…")));
    if (!dlg.open) dlg.showModal();
    try {
      this.rules = this.rules || await getOnce(`/api/games/${this.info.game}/rules?lang=${document.documentElement.lang || "en"}`);
    } catch (e) {
      fill(dlg, h("p", { class: "error" }, errorText(e.code, e.message)));
      return;
    }
    const r = this.rules;
    const m = this.msg;
    const names = this.names();
    const now = m && m.legal && m.legal.length ? h("section", { class: "rules-now" },
      h("h3", {}, t("Your choices now")),
      h("ul", {}, m.legal.map((a) => h("li", {}, this.actionLabel(a, names))))) : null;
    // the players' rules, in Markdown, from the game's manifest
    const body = h("div", { class: "rules-text" }, r.text ? markdown(r.text) : h("p", {}, r.summary));
    fill(dlg,
      h("div", { class: "dialog-head" }, h("h2", {}, t("How to play {game}", { game: r.name })),
        h("button", { type: "button", id: "close-rules", onclick: () => dlg.close() }, t("Close"))),
      now,
      body,
      h("h3", {}, t("Keys")),
      h("p", {}, t("Tab moves between controls, Enter or Space presses one; 1–9 press the numbered choices; the letters shown on buttons press them; ? opens these rules, Esc closes them; L goes to the log.")),
    );
    dlg.querySelector("#close-rules").focus();
  }

  // ---------------------------------------------------------------- keys and time

  numberKeys() {
    // one number per action (a card in hand and its copy in the bar share it)
    const seen = new Map();
    for (const b of this.root.querySelectorAll(".actionbar button[data-action], .board button[data-action]")) {
      const a = b.dataset.action;
      if (!seen.has(a)) {
        if (seen.size >= 9) continue;
        seen.set(a, String(seen.size + 1));
      }
      b.dataset.key = seen.get(a);
      b.setAttribute("aria-keyshortcuts", seen.get(a));
    }
  }

  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const el = ev.target;
    if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT")) return;
    if (document.querySelector("dialog[open]")) return; // Esc closes it natively
    if (ev.key === "?") {
      ev.preventDefault();
      this.showRules();
      return;
    }
    if (ev.key === "l" || ev.key === "L") {
      document.getElementById("log")?.focus();
      return;
    }
    let target = null;
    if (/^[1-9]$/.test(ev.key)) target = this.root.querySelector(`button[data-action][data-key="${ev.key}"]`);
    else if (/^[a-z]$/i.test(ev.key)) target = this.root.querySelector(`button[data-action][data-letter="${ev.key.toLowerCase()}"]`);
    if (target && !target.disabled) {
      ev.preventDefault();
      target.focus();
      target.click();
    }
    if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
      const buttons = [...this.root.querySelectorAll("button[data-action]:not([disabled])")];
      const i = buttons.indexOf(document.activeElement);
      if (i >= 0) {
        ev.preventDefault();
        buttons[(i + (ev.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length].focus();
      }
    }
  }

  tick() {
    for (const el of this.root.querySelectorAll(".deadline[data-at]")) {
      const left = Math.max(0, Math.ceil((Number(el.dataset.at) - Date.now()) / 1000));
      const secs = el.querySelector(".secs");
      if (secs) secs.textContent = `${left} s`;
      el.classList.toggle("urgent", left <= 5);
    }
  }
}

let audio = null;

/** Two short soft tones. */
function beep() {
  try {
    audio = audio || new AudioContext();
    const t0 = audio.currentTime;
    for (const [i, f] of [660, 880].entries()) {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t0 + i * 0.14);
      g.gain.exponentialRampToValueAtTime(0.15, t0 + i * 0.14 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + i * 0.14 + 0.13);
      o.connect(g).connect(audio.destination);
      o.start(t0 + i * 0.14);
      o.stop(t0 + i * 0.14 + 0.14);
    }
  } catch { /* no audio here */ }
}
