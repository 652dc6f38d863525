// A seat open in more than one place: the server tells every connection of a seat how
// many connections it has. When there are more than this page, it says so and offers a
// new link: the server replaces the seat's token, sends the new one to this page only
// and cuts every other connection of the seat off (docs/server.md, "rotate").

import { h, toast } from "./dom.js";
import { t, tn } from "./i18n.js";

export class SeatGuard {
  /** ``page`` has ``conn`` (to send), ``token`` and ``tableId``. */
  constructor(page) {
    this.page = page;
    this.asking = false;
  }

  /** A warning for this page's seat when it is open elsewhere too, else null. */
  panel(seats, mySeat) {
    if (mySeat === null || mySeat === undefined) return null;
    const seat = seats.find((s) => s.seat === mySeat);
    if (!seat || !(seat.connections > 1)) return null;
    const others = seat.connections - 1;
    return h("section", { class: "panel seat-guard", "aria-label": t("your seat is open elsewhere"), dataset: { connections: String(seat.connections) } },
      h("p", {}, tn("Your seat is open in {n} other place too (another tab, or someone with your link).", "Your seat is open in {n} other places too (another tab, or someone with your link).", others)),
      h("button", {
        type: "button", id: "rotate-token", disabled: this.asking,
        onclick: () => this.rotate(),
      }, t("Get a new link and cut the others off")));
  }

  rotate() {
    if (this.page.conn.send({ type: "rotate" })) this.asking = true;
    else toast(t("Not connected: try again once reconnected."));
  }

  /** The server's answer: this page carries on with the new token. */
  rotated(m) {
    this.asking = false;
    const old = this.page.token;
    this.page.token = m.token; // the next hello (a reconnection) uses it
    history.replaceState(null, "", `${location.pathname}${location.search}#${m.token}`);
    const key = `dragonlair:table:${this.page.tableId}`;
    try {
      const passes = JSON.parse(localStorage.getItem(key) || "null");
      const mine = passes && passes.seats && passes.seats.find((p) => p.token === old);
      if (mine) {
        mine.token = m.token;
        mine.link = m.link;
        localStorage.setItem(key, JSON.stringify(passes));
      }
    } catch { /* nothing kept in this browser */ }
    toast(t("This seat has a new link (in the address bar now); the old one no longer opens it."));
  }
}
