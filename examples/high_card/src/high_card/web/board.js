// High Card on the page: the score, the two cards revealed last round, and your hand as
// buttons. Its style sheet lies beside it (`style`, which the page loads), so the game
// ships both in its own package. dom.js is the page's own helper, at its fixed address.
import { h } from "/static/js/dom.js";

/** The style sheet beside the module; the page loads it before drawing the board. */
export const style = new URL("board.css", import.meta.url).href;

function card(n, extra = {}) {
  return h("span", { class: ["hc-card", extra.class] }, n ? String(n) : "?");
}

export function board(ctx) {
  const { view, names, seat } = ctx;
  const score = h("p", { class: "hc-score" },
    names.map((name, s) => h("span", { class: ["hc-seat", s === seat && "hc-me"] }, `${name}: ${view.points[s]}`)));
  const last = h("div", { class: "hc-last", "aria-label": "last round" },
    view.last.some((c) => c) ? view.last.map((c, s) => h("figure", {}, card(c), h("figcaption", {}, names[s] ?? ""))) : h("p", {}, "No round played yet"));
  const mine = view.hand
    ? h("div", { class: "hc-hand", "aria-label": "your hand" },
      view.hand.map((c) => (ctx.can(`lay ${c}`) ? ctx.button(`lay ${c}`, card(c)) : card(c, { class: "hc-idle" }))))
    : null;
  return h("div", { class: "hc-board" }, score, last, mine);
}
