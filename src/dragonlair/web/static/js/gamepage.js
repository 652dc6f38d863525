// A finished game's page, "/games/{table}": the game, its options and terms, its players
// (an account's name links to its profile, bots are marked), the result with each
// player's breakdown, whether it was rated and how each rating moved, and the replay.
//
// The replay steps through the game move by move as one seat saw it (or a spectator),
// the board drawn by the game's own board module exactly as the table page draws it,
// with the log of what that seat was told up to the move shown. The server serves these
// pages only once the game is over (before that /games/{table} is "not found" and the
// API answers not_over): after the end the seed is revealed and the record replays every
// card anyway, so every seat's view of every move is open to anyone.
//
// Beside the log, the table's chat as the chosen viewer read it, up to the move shown:
// each message at the move it was said at (the server counts the moves stored before
// it), as text only, a quick phrase in this page's language; a spectator's message at a
// table whose spectators chatted apart shows in the spectator's view only.
import { getJSON, getOnce } from "./api.js";
import { boardStyle, fill, h } from "./dom.js";
import { errorText, t, word } from "./i18n.js";
import { PHRASES } from "./chat.js";
import { tableTerms } from "./lobby.js";
import { defaultName, eventText, phaseName, seatNames } from "./table.js";
import * as generic from "./games/generic.js";

export async function gamePage(root, tableId) {
  const page = new GamePage(root, tableId);
  window.dragonlair = page; // for the end-to-end tests
  await page.start();
}

class GamePage {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.board = generic;
    this.frames = [];
    this.at = 0;
    this.seat = null; // whose view the replay shows (null: a spectator's)
    this.phone = window.matchMedia("(max-width: 640px)");
  }

  async start() {
    fill(this.root, h("p", { class: "muted" }, t("Loading the game…")));
    const lang = document.documentElement.lang || "en";
    try {
      this.summary = await getJSON(`/api/tables/${this.tableId}/summary`);
      this.catalog = await getOnce(`/api/tables/${this.tableId}/catalog?lang=${lang}`);
    } catch (e) {
      fill(this.root, h("div", { class: "panel" }, h("h1", {}, t("No finished game here")),
        h("p", { class: "error" }, errorText(e.code, e.message)),
        h("p", {}, h("a", { href: "/", class: "button primary" }, t("Back to the lobby")))));
      return;
    }
    if (this.catalog.board) {
      try { this.board = await import(`/static/${this.catalog.board}`); } catch (e) { console.error(e); }
      if (this.board.style) await boardStyle(this.board.style); // its sheet, beside it
    }
    const info = this.summary.table;
    document.title = `${info.name}: ${t("finished game")}: dragonlair`;
    fill(document.getElementById("topbar-info"), h("strong", {}, info.name), h("span", { class: "badge" }, t("finished game")));
    await this.load(null);
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    this.phone.addEventListener("change", () => this.render());
  }

  /** The replay as ``seat`` saw it; the page keeps the move it showed. */
  async load(seat) {
    const q = seat === null ? "" : `?seat=${seat}`;
    try {
      const replay = await getJSON(`/api/tables/${this.tableId}/replay${q}`);
      this.frames = replay.frames;
      this.seat = seat;
    } catch (e) {
      this.failed = errorText(e.code, e.message);
    }
    this.at = Math.min(this.at, Math.max(0, this.frames.length - 1));
    this.log = this.logLines();
    this.render();
  }

  names() {
    const raw = this.summary.players.map((p) => defaultName(p.name));
    return raw.map((n, i) => (raw.filter((x) => x === n).length > 1 ? `${n} ${i + 1}` : n));
  }

  /** Every event the seat was told, with the frame it arrived in. */
  logLines() {
    const names = this.names();
    const out = [];
    this.frames.forEach((f, i) => {
      for (const ev of f.events) out.push({ frame: i, seq: ev.seq, text: eventText(this.catalog, ev, names, this.board) });
    });
    return out;
  }

  go(i) {
    const n = this.frames.length;
    if (!n) return;
    this.at = Math.max(0, Math.min(n - 1, i));
    this.render();
    document.getElementById("replay-position")?.focus({ preventScroll: true });
  }

  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const el = ev.target;
    if (el && (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA")) return;
    const step = { ArrowRight: 1, ArrowLeft: -1 }[ev.key];
    if (step) { ev.preventDefault(); this.go(this.at + step); }
    if (ev.key === "Home") { ev.preventDefault(); this.go(0); }
    if (ev.key === "End") { ev.preventDefault(); this.go(this.frames.length - 1); }
  }

  // ---------------------------------------------------------------- drawing

  render() {
    const s = this.summary;
    const info = s.table;
    const names = this.names();
    fill(this.root, h("div", { class: "game-page", dataset: { table: info.id, game: info.game } },
      this.head(info),
      this.resultPanel(info.result, names),
      this.replayPanel(names),
      this.playersPanel(names)));
  }

  head(info) {
    const when = new Date(info.created * 1000);
    const options = Object.entries(info.options || {}).filter(([, v]) => v !== null && v !== "").map(([k, v]) => `${word(k.replace(/_/g, " "))}: ${typeof v === "boolean" ? (v ? t("yes") : t("no")) : word(String(v))}`);
    const terms = tableTerms(info.settings, info.fairness).slice(0, -1); // not the away policy: the game is over
    const seed = info.fairness && info.fairness.revealed ? info.fairness.revealed.seed : null;
    return h("section", { class: "panel game-head" },
      h("h1", {}, t("{game}: a finished game", { game: info.name })),
      h("p", { class: "muted small" },
        t("{players} players · {moves} moves · started {date}", { players: info.players, moves: this.summary.moves, date: when.toLocaleString(document.documentElement.lang || "en") })),
      options.length ? h("p", { class: "small" }, t("Options: {options}", { options: options.join(", ") })) : null,
      terms.length ? h("p", { class: "small muted" }, t("This table: {terms}", { terms: terms.join(" · ") })) : null,
      seed !== null ? h("p", { class: "small muted", id: "seed" }, t("Deal: seed {seed} (its commitment was published before the first card)", { seed })) : null);
  }

  resultPanel(result, names) {
    if (!result) return null;
    const labels = [];
    for (const b of result.breakdown || []) for (const k of Object.keys(b)) if (!labels.includes(k)) labels.push(k);
    const conceded = new Map((result.conceded || []).map(([seat, move]) => [seat, move]));
    const order = names.map((_, i) => i).sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
    const winners = result.winners.map((w) => names[w]).join(t(" and "));
    const scored = result.termination !== "conceded";
    return h("section", { class: "panel result", id: "result", "aria-label": t("final scores") },
      h("div", { class: "result-head" },
        h("h2", {}, h("span", { class: "trophy", "aria-hidden": "true" }, "🏆 "),
          result.winners.length > 1 ? t("Shared win: {names}", { names: winners }) : result.winners.length ? t("{name} wins!", { name: winners }) : t("The game is over."))),
      result.reason ? h("p", { class: "muted small" }, seatNames(word(result.reason), names)) : null,
      h("ol", { class: "podium" }, order.map((i) => h("li", { class: [`p${i}`, result.winners.includes(i) && "winner"], dataset: { seat: String(i) } },
        h("span", { class: "rank" }, `${result.ranks[i]}.`), h("span", { class: "who" }, names[i]),
        scored ? h("span", { class: "pts" }, String(result.points[i])) : null,
        conceded.has(i) ? h("span", { class: "small conceded" }, t("conceded at move {move}", { move: conceded.get(i) })) : null))),
      scored && labels.length ? h("div", { class: "scroll-x" }, h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, t("player")), labels.map((l) => h("th", {}, word(l.replace(/_/g, " ")))), h("th", {}, t("total")), h("th", {}, t("rank")))),
        h("tbody", {}, order.map((i) => h("tr", { class: [result.winners.includes(i) && "winner"] },
          h("th", {}, names[i]),
          labels.map((l) => h("td", {}, result.breakdown[i] && l in result.breakdown[i] ? String(result.breakdown[i][l]) : "")),
          h("td", { class: "total" }, String(result.points[i])),
          h("td", {}, String(result.ranks[i]))))))) : null,
      scored ? null : h("p", { class: "small muted" }, t("The game ended by concession: no points were counted.")));
  }

  playersPanel(names) {
    const rating = this.summary.rating;
    const changes = new Map(rating.changes.map((c) => [c.seat, c]));
    const fmt = (r) => `${r.ordinal.toFixed(1)} (${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)})`;
    const why = {
      conceded_early: t("it was conceded before move {n}, too early to tell anything", { n: rating.rated_after }),
      not_all_accounts: t("not every person's seat belonged to an account"),
      same_accounts: t("these accounts had already played their rated games together that day"),
    }[rating.why] || "";
    let rated;
    if (!this.summary.table.settings.rated) rated = t("Not rated.");
    else if (!rating.rated) rated = t("Not rated: {why}.", { why });
    else if (!rating.counted) rated = t("Rated, but it did not count: {why}.", { why });
    else rated = t("Rated: each rating is shown as its cautious estimate (mean − 3 × uncertainty).");
    return h("section", { class: "panel players" },
      h("h2", {}, t("Players")),
      h("p", { class: "small muted", id: "rated" }, rated),
      h("ul", { class: "player-list" }, this.summary.players.map((p) => {
        const c = changes.get(p.seat);
        const who = p.account
          ? h("a", { href: `/players/${encodeURIComponent(p.account)}`, class: "who" }, names[p.seat])
          : h("span", { class: "who" }, names[p.seat]);
        const kind = p.kind === "bot" ? t("{level} bot", { level: t(p.level) }) : p.account ? t("account") : t("guest");
        let change = null;
        if (c && rating.counted) {
          const delta = c.after.ordinal - c.before.ordinal;
          change = h("span", { class: ["rating-change", delta >= 0 ? "up" : "down"] },
            `${fmt(c.before)} → ${fmt(c.after)} `, h("strong", {}, `${delta >= 0 ? "+" : "−"}${Math.abs(delta).toFixed(1)}`),
            c.after.provisional ? h("span", { class: "small muted" }, ` ${t("provisional")}`) : null);
        }
        return h("li", { class: `p${p.seat}`, dataset: { seat: String(p.seat) } },
          h("span", { class: "seat-no" }, String(p.seat + 1)), who,
          h("span", { class: "kind small muted" }, kind),
          p.conceded !== null && p.conceded !== undefined ? h("span", { class: "small conceded" }, t("conceded at move {move}", { move: p.conceded })) : null,
          change);
      })));
  }

  replayPanel(names) {
    if (this.failed) return h("section", { class: "panel" }, h("p", { class: "error" }, this.failed));
    const n = this.frames.length;
    const frame = this.frames[this.at];
    if (!frame) return null;
    const view = frame.view;
    const ctx = {
      view, seat: this.seat, names, legal: [], catalog: this.catalog, comp: this.catalog.components,
      log: this.log.filter((l) => l.frame <= this.at), label: (a) => seatNames(this.catalog.actions[a] || a, names), phone: this.phone.matches,
      can: () => false,
      button: (action, content, attrs = {}) => h("span", { class: ["act", attrs.class] }, content),
    };
    const boardEl = h("section", { class: "board", "aria-label": t("the table") });
    try {
      boardEl.append(this.board.board(ctx));
    } catch (e) {
      console.error(e);
      boardEl.append(generic.board(ctx));
    }
    const seen = h("select", { id: "replay-seat", "aria-label": t("whose view"), onchange: (ev) => this.load(ev.target.value === "" ? null : Number(ev.target.value)) },
      h("option", { value: "", selected: this.seat === null }, t("a spectator")),
      names.map((name, i) => h("option", { value: String(i), selected: this.seat === i }, name)));
    const button = (id, text, label, to, disabled) => h("button", { type: "button", id, "aria-label": label, title: label, disabled, onclick: () => this.go(to) }, text);
    const last = n - 1;
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay") },
      button("replay-start", "⏮", t("to the start"), 0, this.at === 0),
      button("replay-back", "◀", t("one move back"), this.at - 1, this.at === 0),
      h("span", { id: "replay-position", class: "replay-position", tabindex: -1, "aria-live": "polite" }, t("move {move} of {moves}", { move: this.at, moves: last })),
      button("replay-forward", "▶", t("one move forward"), this.at + 1, this.at === last),
      button("replay-end", "⏭", t("to the end"), last, this.at === last),
      h("input", { type: "range", id: "replay-slider", min: 0, max: last, value: this.at, "aria-label": t("move"), oninput: (ev) => this.go(Number(ev.target.value)) }),
      h("label", { class: "small", for: "replay-seat" }, t("Seen by"), " ", seen));
    const lines = ctx.log;
    const log = h("section", { class: "panel log", "aria-label": t("what happened") },
      h("h2", { class: "small" }, t("Log")),
      h("ol", { tabindex: 0, id: "log" }, lines.slice(-300).map((l) => h("li", { value: l.seq + 1, class: l.frame === this.at ? "new" : null }, l.text))));
    const phase = phaseName(this.catalog, view); // as the table page's action bar writes it
    const lobby = h("a", { class: "button", href: "/" }, t("Back to the lobby"));
    const section = h("section", { class: "replay", "aria-label": t("replay"), dataset: { move: String(frame.move), frame: String(this.at), seat: this.seat === null ? "spectator" : String(this.seat) } },
      h("h2", {}, t("Replay")),
      h("p", { class: "small muted" }, t("Step through the game as one player saw it, or as a spectator. The game is over, so every player's view is open. Keys: ← → one move, Home and End.")),
      controls,
      phase ? h("p", { class: "small muted phase" }, phase) : null,
      h("div", { class: "replay-body" }, boardEl, h("div", { class: "replay-side" }, log, this.chatPanel(names))),
      h("p", { class: "actions" }, lobby));
    queueMicrotask(() => {
      if (this.board.after) {
        try { this.board.after(boardEl, ctx, false); } catch (e) { console.error(e); }
      }
      for (const id of ["log", "replay-chat-log"]) {
        const ol = document.getElementById(id);
        if (ol) ol.scrollTop = ol.scrollHeight;
      }
    });
    return section;
  }

  /** The chat said up to the move shown, as the chosen viewer read it (null: none). */
  chatPanel(names) {
    const all = (this.summary.chat || []).filter((m) => !m.apart || this.seat === null);
    if (!all.length) return null;
    const frame = this.frames[this.at];
    const upTo = frame ? frame.move : 0;
    const shown = all.filter((m) => m.move <= upTo);
    return h("section", { class: "panel replay-chat", id: "replay-chat", "aria-label": t("chat") },
      h("h2", { class: "small" }, t("Chat")),
      shown.length ? h("ol", { id: "replay-chat-log", tabindex: 0 }, shown.map((m) => {
        const who = m.seat === null || m.seat === undefined ? t("spectator") : names[m.seat] || m.name;
        return h("li", { class: ["replay-said", m.move === upTo && "new"], dataset: { move: String(m.move), seat: m.seat === null ? "spectator" : String(m.seat) } },
          h("span", { class: "muted small" }, t("move {move}", { move: m.move })), " ",
          h("strong", { class: "said-name" }, who), ": ",
          h("span", { class: "said-text" }, m.phrase ? t(PHRASES[m.phrase] || m.phrase) : m.text));
      })) : h("p", { class: "small muted" }, t("Nothing was said before this move.")));
  }
}
