// A table's chat panel (docs/players.md, "Chat"): the table's messages as the server sends
// them over the table's connection, a line to write in, the quick phrases, and for each
// message of someone else "Mute" (their messages are hidden in this browser) and "Report"
// (the message goes to the server's operator).
//
// Everything a person typed is shown with textContent and nothing else: markup stays
// text, a link is not made clickable, no message is ever parsed as HTML. A quick phrase
// arrives as its id and is shown in this page's language (PHRASES, whose ids are the
// server's, web/chat.py). Muting is this browser's own, per table and per seat (all the
// spectators are one), kept in localStorage: the server and the others know nothing of it.
//
// The panel lives outside the table's redrawn page (table.js redraws its root on every
// update), so what is being typed survives the game moving on. On a wide screen it is a
// column on the right, open unless closed; on a narrower one (a phone) it is closed, and
// the "Chat" button in the top bar opens it, with the count of messages not read yet.
import { h, fill, s, toast } from "./dom.js";
import { N_, errorText, t, tn } from "./i18n.js";

// the quick phrases, as the server knows their ids (web/chat.py, PHRASES), in its order
export const PHRASES = {
  good_luck: N_("Good luck!"),
  have_fun: N_("Have fun!"),
  your_turn: N_("Your turn!"),
  one_moment: N_("One moment, please."),
  thanks: N_("Thanks!"),
  sorry: N_("Sorry!"),
  well_played: N_("Well played!"),
  good_game: N_("Good game!"),
};

export const MAX_CHAT = 500; // characters (web/protocol.py, MAX_CHAT)
const WIDE = "(min-width: 1100px)";
const CLOSED_KEY = "dragonlair:chat-closed";

function load(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : JSON.parse(v);
  } catch { return fallback; }
}

function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: this page only */ }
}

/** Who said a message, as muting counts them: a seat's number, or "s" for the spectators. */
function who(m) {
  return m.seat === null || m.seat === undefined ? "s" : String(m.seat);
}

export class ChatPanel {
  /** ``send(msg)`` sends over the table's connection (false when not connected); ``me()``
   * is this page's seat (null: a spectator); ``apart()`` whether the table keeps its
   * spectators' chat apart. */
  constructor(tableId, { send, me, apart }) {
    this.tableId = tableId;
    this.send = send;
    this.me = me;
    this.apart = apart;
    this.messages = new Map(); // id -> message, in the order said
    this.unread = 0;
    this.mutedKey = `dragonlair:chat-muted:${tableId}`;
    this.muted = new Set(load(this.mutedKey, []));
    this.reported = new Set();
    this.menu = null; // the id of the message whose Mute/Report choices are open
    this.lastSent = null; // the text of the message on its way (given back if refused)
    this.wide = window.matchMedia(WIDE);
    this.open = this.wide.matches && !load(CLOSED_KEY, false);
    this.build();
    this.wide.addEventListener("change", () => {
      this.open = this.wide.matches && !load(CLOSED_KEY, false);
      this.layout();
    });
    const place = () => this.place();
    window.addEventListener("scroll", place, { passive: true });
    window.addEventListener("resize", place);
    this.layout();
  }

  build() {
    this.log = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-label": t("Messages") });
    this.mutedRow = h("p", { class: "chat-muted small", id: "chat-muted" });
    this.where = h("p", { class: "chat-where small muted", id: "chat-where" });
    this.error = h("p", { class: "chat-error error small", id: "chat-error", role: "alert" });
    this.input = h("input", {
      id: "chat-input", type: "text", autocomplete: "off", enterkeyhint: "send",
      placeholder: t("Write to the table…"), "aria-label": t("Chat message"),
      oninput: () => this.counted(),
    });
    this.count = h("span", { class: "chat-count small muted", id: "chat-count", "aria-live": "polite" });
    const phrases = h("div", { class: "chat-phrases", id: "chat-phrases", role: "group", "aria-label": t("Quick phrases") },
      Object.entries(PHRASES).map(([id, words]) => h("button", {
        type: "button", class: "chat-phrase", dataset: { phrase: id },
        onclick: () => this.say({ type: "chat", phrase: id }),
      }, t(words))));
    const form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (ev) => { ev.preventDefault(); this.sayText(); } },
      this.input, h("button", { type: "submit", class: "primary", id: "chat-send" }, t("Send")));
    this.closeButton = h("button", { type: "button", class: "chat-close", id: "chat-close", "aria-label": t("Close the chat"), onclick: () => this.toggle(false) }, "×");
    this.el = h("aside", { class: "chat", id: "chat", "aria-label": t("Chat") },
      h("header", { class: "chat-head" }, h("h2", { class: "small" }, t("Chat")), this.closeButton),
      this.where, this.log, this.mutedRow, phrases, form, h("div", { class: "chat-foot" }, this.error, this.count));
    this.badge = h("span", { class: "chat-unread", id: "chat-unread", hidden: true });
    this.button = h("button", { type: "button", class: "chat-toggle", id: "chat-toggle", "aria-controls": "chat", onclick: () => this.toggle() },
      s("svg", { class: "chat-icon", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" },
        s("path", { d: "M2 2.5h12v8H7l-3.5 3v-3H2z", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linejoin": "round" })),
      h("span", { class: "chat-toggle-word" }, t("Chat")), this.badge);
    document.body.append(this.el);
    const bar = document.querySelector(".topbar");
    const info = document.getElementById("topbar-info");
    if (bar && info) info.after(this.button); else if (bar) bar.append(this.button);
    document.body.classList.add("has-chat");
    this.describe();
  }

  /** The page cannot join the table: no chat to show. */
  remove() {
    this.el.remove();
    this.button.remove();
    document.body.classList.remove("has-chat", "chat-open");
  }

  /** Open or close the panel (on a wide screen, closing is remembered). */
  toggle(open = !this.open) {
    this.open = open;
    if (this.wide.matches) save(CLOSED_KEY, !open);
    this.layout();
    if (open) {
      this.input.focus({ preventScroll: true });
      this.log.scrollTop = this.log.scrollHeight;
    } else {
      this.button.focus({ preventScroll: true });
    }
  }

  layout() {
    this.el.hidden = !this.open;
    document.body.classList.toggle("chat-open", this.open);
    this.button.setAttribute("aria-expanded", String(this.open));
    if (this.open) this.unread = 0;
    this.badge.hidden = this.unread === 0;
    this.badge.textContent = this.unread ? String(this.unread) : "";
    this.button.setAttribute("aria-label", this.unread ? tn("Chat: {n} new message", "Chat: {n} new messages", this.unread) : t("Chat"));
    this.place();
  }

  /** Below the top bar while it is in view, from the window's top once it scrolled away. */
  place() {
    const bar = document.querySelector(".topbar");
    const top = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
    this.el.style.top = `${Math.round(top)}px`;
  }

  /** Which channel this page writes to, in words. */
  describe() {
    const spectator = this.me() === null || this.me() === undefined;
    let text = "";
    if (this.apart()) text = spectator ? t("Spectators' chat: the players do not read it.") : t("The players' chat: spectators read it and talk among themselves.");
    this.where.textContent = text;
    this.where.hidden = !text;
  }

  // ------------------------------------------------------------------ server messages

  /** A ``chat`` message: the table's chat so far (on connecting) or what was just said. */
  received(list) {
    let fresh = 0;
    for (const m of list) {
      if (this.messages.has(m.id)) continue;
      this.messages.set(m.id, m);
      const mine = this.me() !== null && this.me() !== undefined && m.seat === this.me();
      if (mine && this.lastSent !== null && m.text === this.lastSent) this.lastSent = null;
      if (!mine && !this.muted.has(who(m))) fresh += 1;
    }
    if (!this.open && this.loaded) this.unread += fresh;
    this.loaded = true; // the first message is the history: it is not news
    this.draw();
    this.layout();
  }

  /** The operator hid a message: it leaves the panel. */
  hidden(id) {
    this.messages.delete(id);
    this.draw();
  }

  /** The server took this page's report. */
  reportTaken(id) {
    this.reported.add(id);
    toast(t("Reported: the server's operator will read it."));
    this.draw();
  }

  /** The server refused a chat message or a report: say why here, give the text back. */
  refused(m) {
    this.error.textContent = errorText(m.code, m.message);
    if (this.lastSent !== null && (m.code === "chat_too_long" || m.code === "chat_rate_limited" || m.code === "chat_empty" || m.code === "storage_error")) {
      if (!this.input.value) this.input.value = this.lastSent;
      this.counted();
    }
    this.lastSent = null;
  }

  // ------------------------------------------------------------------ writing

  sayText() {
    const text = this.input.value.trim();
    if (!text) return;
    if (text.length > MAX_CHAT) {
      this.error.textContent = t("A chat message is at most 500 characters.");
      return;
    }
    if (this.say({ type: "chat", text })) {
      this.lastSent = text;
      this.input.value = "";
      this.counted();
    }
  }

  say(msg) {
    this.error.textContent = "";
    if (!this.send(msg)) {
      this.error.textContent = t("Not connected: try again once reconnected.");
      return false;
    }
    return true;
  }

  /** The characters left, once a message gets long. */
  counted() {
    const n = this.input.value.trim().length;
    this.count.textContent = n > MAX_CHAT - 100 ? `${n}/${MAX_CHAT}` : "";
    this.count.classList.toggle("over", n > MAX_CHAT);
  }

  mute(m, on) {
    if (on) this.muted.add(who(m)); else this.muted.delete(who(m));
    save(this.mutedKey, [...this.muted]);
    this.menu = null;
    this.draw();
  }

  report(m) {
    this.menu = null;
    if (!this.say({ type: "report", id: m.id })) return;
    this.draw();
  }

  // ------------------------------------------------------------------ drawing

  /** The name a message is shown with: a seat's, or "spectator" in this page's language. */
  nameOf(m) {
    return m.seat === null || m.seat === undefined ? t("spectator") : m.name;
  }

  draw() {
    const atEnd = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
    const me = this.me();
    const items = [];
    const mutedNames = new Map();
    let hiddenCount = 0;
    for (const m of this.messages.values()) {
      const key = who(m);
      if (this.muted.has(key)) {
        hiddenCount += 1;
        mutedNames.set(key, m);
        continue;
      }
      const mine = me !== null && me !== undefined && m.seat === me;
      const spectator = key === "s";
      const words = m.phrase ? t(PHRASES[m.phrase] || m.phrase) : m.text;
      const open = this.menu === m.id;
      const name = this.nameOf(m);
      items.push(h("li", { class: ["chat-msg", mine && "mine", spectator && "from-spectator", m.phrase && "phrase"], dataset: { id: m.id, seat: key } },
        h("span", { class: ["chat-name", !spectator && `p${m.seat % 6}`] }, name),
        h("span", { class: "chat-text" }, words),
        mine ? null : h("button", {
          type: "button", class: "chat-more", "aria-expanded": String(open),
          "aria-label": t("Mute or report {name}'s message", { name }), title: t("Mute or report"),
          onclick: () => { this.menu = open ? null : m.id; this.draw(); },
        }, "⋯"),
        open ? h("div", { class: "chat-menu" },
          h("button", { type: "button", class: "chat-mute", onclick: () => this.mute(m, true) },
            spectator ? t("Mute the spectators") : t("Mute {name}", { name })),
          this.reported.has(m.id)
            ? h("span", { class: "muted small" }, t("Reported"))
            : h("button", { type: "button", class: "chat-report", onclick: () => this.report(m) }, t("Report to the operator"))) : null));
    }
    if (!items.length) items.push(h("li", { class: "chat-empty muted small" }, t("No messages yet. Say hello, or pick a quick phrase.")));
    fill(this.log, items);
    fill(this.mutedRow, hiddenCount ? [
      tn("{n} message of muted players hidden.", "{n} messages of muted players hidden.", hiddenCount), " ",
      [...mutedNames.values()].map((m) => h("button", { type: "button", class: "chat-unmute", onclick: () => this.mute(m, false) },
        who(m) === "s" ? t("Unmute the spectators") : t("Unmute {name}", { name: this.nameOf(m) }))),
    ] : []);
    this.mutedRow.hidden = !hiddenCount;
    if (atEnd || !this.drawn) this.log.scrollTop = this.log.scrollHeight;
    this.drawn = this.messages.size > 0;
  }
}
