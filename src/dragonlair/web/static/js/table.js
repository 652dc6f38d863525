// A table's page: one seat (or a spectator) at one game. Everything it shows comes from
// that connection's own messages (its view, its legal actions, its events as it may see
// them, who sits where) and the table's public catalog (printed components, action
// labels, event sentences): the page never receives anything else, so it cannot show
// what the seat may not know.
//
// The page redraws itself from the latest state on every message. A game may have a board
// module (named in the table's catalog, from the game's manifest) that draws the view the way the game looks on a table and
// turns the natural things into buttons (cards in hand); every other legal action is a
// button in the choices bar, labelled with the game's own description of it.
import { getJSON, getOnce } from "./api.js";
import { Connection } from "./conn.js";
import { copyText, fill, format, h, toast } from "./dom.js";
import { FairnessPanel } from "./fairness.js";
import { absolute } from "./lobby.js";
import { SeatGuard } from "./seatguard.js";
import * as generic from "./games/generic.js";

const SEAT_FIELDS = new Set(["seat", "winner", "victim", "by", "to", "target"]);

/** One line for an event, as the engine's event_text writes it (names for seats). */
export function eventText(catalog, ev, names) {
  const spec = catalog.events[ev.type];
  if (!spec) return `${ev.type}`;
  const template = ev.redacted ? spec.public_text : spec.text;
  const values = {};
  for (const [k, v] of Object.entries(ev)) {
    if (Number.isInteger(v) && (SEAT_FIELDS.has(k) || k.endsWith("_seat")) && v >= 0 && v < names.length) values[k] = names[v];
    else if (Array.isArray(v)) values[k] = v.length ? v.join(", ") : "none";
    else values[k] = v;
  }
  return format(template, values);
}

export async function tablePage(root, { mode, table, token }) {
  const page = new TablePage(root, mode, table, token);
  window.dragonlair = page; // for the curious, and for the end-to-end tests
  await page.start();
}

class TablePage {
  constructor(root, mode, table, token) {
    this.root = root;
    this.mode = mode;
    this.tableId = table;
    this.token = token;
    this.info = null; // the table's public description (welcome)
    this.seats = [];
    this.msg = null; // the latest state message
    this.log = [];
    this.nextEvent = 0;
    this.pending = false;
    this.refs = 0;
    this.catalog = null;
    this.board = generic;
    this.rules = null;
    this.status = "connecting";
    this.countdown = null;
    this.fairness = new FairnessPanel(table, () => this.render());
    this.guard = new SeatGuard(this);
  }

  async start() {
    fill(this.root, h("p", { class: "muted" }, "Joining the table…"));
    let info;
    try {
      info = await getJSON(`/api/tables/${this.tableId}`);
      this.catalog = await getOnce(`/api/tables/${this.tableId}/catalog`);
    } catch (e) {
      fill(this.root, h("div", { class: "panel" }, h("h1", {}, "No table here"),
        h("p", { class: "error" }, e.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
      return;
    }
    this.info = info;
    this.seats = info.seats;
    if (this.catalog.board) { // the game's own board module, as its manifest names it
      try { this.board = await import(`/static/${this.catalog.board}`); } catch (e) { console.error(e); }
    }
    document.title = `${info.name}: dragonlair`;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const hello = () => {
      const m = { type: "hello", since: this.nextEvent };
      if (this.token) m.token = this.token; else m.spectate = true;
      return m;
    };
    this.conn = new Connection(`${proto}//${location.host}/ws/tables/${this.tableId}`, hello, {
      message: (m) => this.onMessage(m),
      status: (st, detail) => this.onStatus(st, detail),
    });
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    this.countdown = setInterval(() => this.tick(), 250);
    this.render();
    this.conn.start();
  }

  // ---------------------------------------------------------------- messages

  onStatus(st, detail) {
    this.status = st;
    const el = document.getElementById("conn");
    const words = {
      connecting: "connecting…",
      connected: "connected",
      reconnecting: "reconnecting…",
      offline: `connection lost: ${detail || "reconnecting"}`,
      refused: `refused: ${detail}`,
    };
    if (el) {
      el.textContent = words[st] || st;
      el.dataset.state = st;
    }
    if (st === "refused") {
      fill(this.root, h("div", { class: "panel" }, h("h1", {}, "Cannot join this table"),
        h("p", { class: "error" }, detail), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
    }
    if (st !== "connected") this.pending = false;
  }

  onMessage(m) {
    switch (m.type) {
      case "welcome":
        this.info = m.table;
        this.seats = m.table.seats;
        this.mySeat = m.seat;
        break;
      case "seats":
        this.seats = m.seats;
        break;
      case "rotated":
        this.guard.rotated(m);
        break;
      case "state":
        for (const ev of m.events) {
          if (ev.seq < this.nextEvent) continue; // already in the log
          this.log.push({ seq: ev.seq, text: eventText(this.catalog, ev, this.names()), ev });
          this.nextEvent = ev.seq + 1;
        }
        this.msg = m;
        if (m.status) this.info = { ...this.info, status: m.status };
        this.pending = false;
        break;
      case "error":
        this.pending = false;
        if (m.code !== "stale_move") toast(m.message);
        break;
      default:
        return;
    }
    this.render();
  }

  names() {
    // seat names as shown everywhere; two seats of the same name ("Random bot") get numbers
    const raw = this.seats.map((s) => (s.kind === "open" ? `seat ${s.seat + 1}` : s.name));
    return raw.map((n, i) => (raw.filter((x) => x === n).length > 1 ? `${n} ${i + 1}` : n));
  }

  act(action) {
    if (!this.msg || this.pending) return;
    this.refs += 1;
    const ok = this.conn.send({ type: "act", move: this.msg.move, action, ref: this.refs });
    if (!ok) {
      toast("Not connected: your move was not sent. It will be possible again once reconnected.");
      return;
    }
    this.pending = true;
    for (const b of this.root.querySelectorAll("button[data-action]")) b.disabled = true;
  }

  // ---------------------------------------------------------------- drawing

  render() {
    const focused = document.activeElement;
    const focusKey = focused && (focused.dataset?.action || focused.id);
    const m = this.msg;
    const names = this.names();
    const seat = m ? m.seat : this.mySeat;
    const view = m ? m.view : null;
    const legal = m ? m.legal : [];
    const handled = new Set();
    const ctx = {
      view, seat, names, legal, catalog: this.catalog, comp: this.catalog.components,
      label: (a) => this.catalog.actions[a] || a,
      can: (a) => legal.includes(a),
      /** A button for a legal action drawn on the board (a card in hand). */
      button: (action, content, attrs = {}) => {
        handled.add(action);
        return h("button", {
          type: "button", ...attrs, class: ["act", attrs.class],
          title: attrs.title || this.catalog.actions[action] || action,
          dataset: { action }, disabled: this.pending,
          onclick: () => this.act(action),
        }, content);
      },
    };
    const top = document.getElementById("topbar-info");
    if (top) {
      fill(top, h("strong", {}, this.info.name),
        seat === null || seat === undefined ? h("span", { class: "badge" }, "spectator") : h("span", { class: "badge" }, `you: ${names[seat] ?? ""}`));
    }
    if (!view) {
      fill(this.root, h("p", { class: "muted" }, "Waiting for the table…"));
      return;
    }
    const boardEl = h("section", { class: "board", "aria-label": "the table" });
    try {
      boardEl.append(this.board.board(ctx));
    } catch (e) {
      console.error(e);
      boardEl.append(generic.board(ctx));
    }
    const main = h("div", {
      class: "table-page",
      dataset: {
        game: this.info.game, move: String(m.move), status: m.status, legal: String(legal.length),
        seat: seat === null || seat === undefined ? "spectator" : String(seat), pending: this.pending ? "1" : "0",
      },
    },
      this.headline(view, legal, names, seat),
      this.seatStrip(view, names, seat),
      boardEl,
      this.choices(ctx, handled),
      view.result ? this.result(view.result, names) : null,
      h("div", { class: "side" }, this.guard.panel(this.seats, seat), this.logPanel(), this.invitePanel(), this.fairness.panel(this.info, m.status), this.tools()),
    );
    fill(this.root, main);
    this.numberKeys();
    this.tick();
    if (focusKey) {
      const again = this.root.querySelector(`[data-action="${CSS.escape(focusKey)}"]`) || document.getElementById(focusKey);
      if (again && !again.disabled) again.focus();
      else if (legal.length) this.root.querySelector("button[data-action]")?.focus();
    }
    const log = this.root.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
  }

  headline(view, legal, names, seat) {
    const m = this.msg;
    const parts = [];
    const phase = view.phase_name || (view.phase.charAt(0).toUpperCase() + view.phase.slice(1)).replace(/[-_]/g, " ");
    if (m.status === "waiting") {
      const open = this.seats.filter((s) => s.kind === "open").map((s) => s.seat + 1);
      parts.push(h("strong", {}, `Waiting for players: seat${open.length > 1 ? "s" : ""} ${open.join(", ")} still open.`));
    } else if (view.over || m.status === "over") {
      parts.push(h("strong", {}, "Game over."));
    } else if (legal.length) {
      parts.push(h("strong", { class: "your-turn" }, view.window ? "You are asked: answer now." : "Your move."));
    } else if (view.my_choice) {
      parts.push(h("strong", {}, `You chose: ${this.catalog.actions[view.my_choice] || view.my_choice}.`));
    } else {
      const who = view.to_act.map((s) => names[s]).join(", ");
      parts.push(h("span", {}, who ? `${view.choosing ? "Still choosing" : "To play"}: ${who}` : ""));
    }
    if ("choosing" in view && !view.over) {
      const waiting = view.to_act.map((s) => names[s]);
      parts.push(h("span", { class: "choosing" }, waiting.length ? `still choosing: ${waiting.join(", ")}` : "revealing"));
    }
    parts.push(h("span", { class: "muted small" }, `${phase} · move ${m.move}`));
    if (m.deadline && m.status === "playing") {
      const whom = m.deadline.seat === seat ? "you" : names[m.deadline.seat];
      parts.push(h("span", { class: "deadline", role: "timer", dataset: { at: String(m.deadline.at) } },
        `${whom} must answer in `, h("span", { class: "secs" }, "…"),
        ` (or ${this.catalog.actions[m.deadline.default] || m.deadline.default})`));
    }
    return h("div", { class: "headline", "aria-live": "polite" }, parts);
  }

  seatStrip(view, names, me) {
    const toAct = new Set(view.to_act);
    const choosing = new Set(view.choosing || []);
    return h("ol", { class: "seat-strip", "aria-label": "players" },
      this.seats.map((s) => {
        let state = "";
        if (view.over) state = view.result && view.result.winners.includes(s.seat) ? "winner" : "";
        else if (choosing.has(s.seat)) state = toAct.has(s.seat) ? "choosing…" : "ready ✓";
        else if (toAct.has(s.seat)) state = view.window ? "asked" : "to play";
        return h("li", { class: ["seat-chip", `p${s.seat}`, toAct.has(s.seat) && "acting", s.seat === me && "me"], dataset: { seat: String(s.seat) } },
          h("span", { class: ["dot", s.connected || s.kind === "bot" ? "on" : "off"], title: s.kind === "bot" ? "bot" : s.connected ? "connected" : "not connected" }),
          h("span", { class: "name" }, names[s.seat], s.seat === me ? " (you)" : ""),
          h("span", { class: "kind small muted" }, s.kind === "bot" ? `${s.level} bot` : s.bot_playing ? "away: a bot plays" : s.kind === "open" ? "open seat" : ""),
          state ? h("span", { class: "state small" }, state) : null);
      }));
  }

  choices(ctx, handled) {
    const rest = ctx.legal.filter((a) => !handled.has(a));
    const keys = this.board.keys || {};
    const byAction = {};
    for (const [k, a] of Object.entries(keys)) byAction[a] = k;
    if (!ctx.legal.length) return null;
    return h("section", { class: "choices", "aria-label": "your choices" },
      rest.length ? h("h2", { class: "small" }, handled.size ? "Or:" : "Your choices") : null,
      h("div", { class: "choice-buttons" },
        rest.map((a) => {
          const letter = byAction[a] || byAction[a.split(" ")[0]];
          return h("button", {
            type: "button", class: "act choice", dataset: { action: a, letter: letter || "" },
            disabled: this.pending, onclick: () => this.act(a),
          }, h("span", { class: "label" }, ctx.label(a)), letter ? h("kbd", {}, letter.toUpperCase()) : null);
        })));
  }

  result(result, names) {
    const labels = [];
    for (const b of result.breakdown) for (const k of Object.keys(b)) if (!labels.includes(k)) labels.push(k);
    const winners = result.winners.map((w) => names[w]).join(" and ");
    return h("section", { class: "panel result", "aria-label": "final scores" },
      h("h2", {}, result.winners.length > 1 ? `Shared win: ${winners}` : `${winners} wins!`),
      result.reason ? h("p", { class: "muted" }, result.reason) : null,
      h("div", { class: "scroll-x" }, h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, "player"), labels.map((l) => h("th", {}, l)), h("th", {}, "total"), h("th", {}, "rank"))),
        h("tbody", {}, names.map((n, i) => h("tr", { class: result.winners.includes(i) ? "winner" : "" },
          h("th", {}, n),
          labels.map((l) => h("td", {}, result.breakdown[i] && l in result.breakdown[i] ? String(result.breakdown[i][l]) : "")),
          h("td", { class: "total" }, String(result.points[i])),
          h("td", {}, String(result.ranks[i]))))))),
      h("p", {}, h("a", { href: "/", class: "button" }, "Back to the lobby")));
  }

  logPanel() {
    return h("section", { class: "panel log", "aria-label": "what happened" },
      h("h2", { class: "small" }, "Log"),
      h("ol", { tabindex: 0, id: "log" }, this.log.slice(-300).map((l) => h("li", { dataset: { seq: String(l.seq), type: l.ev.type } }, l.text))));
  }

  invitePanel() {
    let passes = null;
    try { passes = JSON.parse(localStorage.getItem(`dragonlair:table:${this.tableId}`) || "null"); } catch { /* none */ }
    if (!passes || !passes.seats || passes.seats.length < 2) return null;
    const rows = passes.seats.filter((p) => p.token !== this.token).map((p) => {
      const url = absolute(p.link);
      const input = h("input", { readonly: true, value: url, class: "link", "aria-label": `link for seat ${p.seat + 1}` });
      return h("div", { class: "link-row" }, h("span", {}, `Seat ${p.seat + 1}`), input,
        h("button", { type: "button", onclick: () => copyText(url, input) }, "Copy"));
    });
    return h("details", { class: "panel invites" }, h("summary", {}, "Invite links"), rows);
  }

  tools() {
    return h("div", { class: "tools" },
      h("button", { type: "button", id: "rules-button", onclick: () => this.showRules() }, "Rules ", h("kbd", {}, "?")),
      h("a", { class: "button", href: "/" }, "Lobby"));
  }

  async showRules() {
    let dlg = document.getElementById("rules");
    if (!dlg) {
      dlg = h("dialog", { id: "rules", "aria-label": "rules in brief" });
      document.body.append(dlg);
    }
    fill(dlg, h("p", {}, "Loading the rules…"));
    if (!dlg.open) dlg.showModal();
    try {
      this.rules = this.rules || await getOnce(`/api/games/${this.info.game}/rules`);
    } catch (e) {
      fill(dlg, h("p", { class: "error" }, e.message));
      return;
    }
    const r = this.rules;
    fill(dlg,
      h("div", { class: "dialog-head" }, h("h2", {}, `${r.name}: the rules in brief`),
        h("button", { type: "button", id: "close-rules", onclick: () => dlg.close() }, "Close")),
      r.text.split(/\n\s*\n/).map((p) => h("p", { class: "rules-text" }, p.replace(/\s*\n\s*/g, " ").replace(/``/g, ""))),
      h("h3", {}, "Actions"),
      h("dl", {}, r.actions.map((a) => [h("dt", {}, h("code", {}, a.form)), h("dd", {}, a.help)])),
      h("h3", {}, "Keys"),
      h("p", {}, "Tab moves between controls, Enter or Space presses one; 1–9 press the numbered choices; ",
        "the letters shown on buttons press them; ? opens these rules, Esc closes them; L goes to the log."),
    );
    dlg.querySelector("#close-rules").focus();
  }

  // ---------------------------------------------------------------- keys and time

  numberKeys() {
    const buttons = [...this.root.querySelectorAll("button[data-action]")];
    buttons.forEach((b, i) => {
      if (i < 9) {
        b.dataset.key = String(i + 1);
        b.setAttribute("aria-keyshortcuts", String(i + 1));
      }
    });
  }

  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
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
