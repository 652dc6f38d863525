// One WebSocket per seat (docs/server.md, "Play"), kept open by itself: when the
// connection drops it reconnects with exponential backoff (0.25 s doubling to 15 s, with
// jitter so that a table's players do not all come back at once), says hello again with
// the number of the next event it needs, and carries on. A heartbeat notices a server
// that fell silent without closing (a hung process, a laptop waking up, a lost route):
// after QUIET ms without a message it sends a ping, and when nothing at all has come
// DEAD ms after that ping, the connection is given up and a new one opened after the
// first, short back-off (not after the old one's closing handshake, which a silent
// server never answers).
// Refusals that cannot get better by retrying (a bad token, no such table) stop it.

import { N_, errorText, t } from "./i18n.js";

const QUIET = 2000;
const DEAD = 4000;
const FIRST_RETRY = 250;

const FATAL = new Map([
  [4400, N_("the server refused the connection")],
  [4401, N_("this link's token is not valid for this table")],
  [4404, N_("there is no such table")],
  [4409, N_("this table cannot be played any more")],
]);

export class Connection {
  /**
   * @param {string} url the table's WebSocket URL
   * @param {() => object} hello the hello message to send (called at every connection)
   * @param {{message: (m: object) => void, status: (s: string, detail?: string) => void}} on
   */
  constructor(url, hello, on) {
    this.url = url;
    this.hello = hello;
    this.on = on;
    this.ws = null;
    this.retries = 0;
    this.timer = null;
    this.pinger = null;
    this.lastHeard = 0;
    this.pingSent = 0; // when the heartbeat's ping went, 0: none awaiting an answer
    this.stopped = false;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    this.on.status(this.retries ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (e) {
      this.later();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      this.pingSent = 0;
      ws.send(JSON.stringify(this.hello()));
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return; // a connection given up on
      this.lastHeard = Date.now();
      this.pingSent = 0;
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      // the refusal a closing connection sends first says why (an account's seat, signed out)
      this.lastError = m.type === "error" ? m : null;
      if (m.type === "welcome") {
        this.retries = 0;
        this.on.status("connected");
        this.startPinging();
      }
      if (m.type !== "pong") this.on.message(m);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pinger);
      if (this.stopped) return;
      const fatal = FATAL.get(ev.code);
      if (fatal) {
        this.stopped = true;
        const why = this.lastError;
        this.on.status("refused", why && why.code ? errorText(why.code, why.message) : t(fatal), why && why.code);
        return;
      }
      this.later();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  later() {
    const delay = Math.min(15000, FIRST_RETRY * 2 ** this.retries) * (0.75 + Math.random() / 2);
    this.retries += 1;
    this.on.status("offline", t("reconnecting in {n} s", { n: Math.ceil(delay / 1000) }));
    this.timer = setTimeout(() => this.open(), delay);
  }

  startPinging() {
    clearInterval(this.pinger);
    this.pingSent = 0;
    this.pinger = setInterval(() => this.heartbeat(), 500);
  }

  /** Ping a quiet connection; give up on one silent since its ping (judged by when the
   * ping went, so a timer slowed down in a background tab never gives up too early). */
  heartbeat() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (this.pingSent && now - this.pingSent > DEAD) {
      this.giveUp(ws);
      return;
    }
    if (!this.pingSent && now - this.lastHeard > QUIET) {
      this.pingSent = now;
      ws.send('{"type":"ping"}');
    }
  }

  /** Leave a connection whose server fell silent and reconnect now: its close event may
   * come only after a long closing handshake, so it is not waited for. */
  giveUp(ws) {
    this.ws = null;
    clearInterval(this.pinger);
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try { ws.close(); } catch { /* already closing */ }
    if (!this.stopped) this.later();
  }

  /** Send a message now; false if the connection is not open (the caller retries). */
  send(msg) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  /** Drop the connection as a network failure would (it comes back by itself). */
  drop() {
    if (this.ws) this.ws.close();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
