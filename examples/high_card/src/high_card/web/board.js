// High Card on the page: the score, the two cards revealed last round, and your hand as
// buttons. Its style sheet lies beside it and is loaded from here, so the game ships
// both in its own package. dom.js is the page's own helper, at its fixed address.
import { h } from "/static/js/dom.js";

const STYLE = new URL("board.css", import.meta.url).href;

function ensureStyle() {
  if (!document.querySelector(`link[href="${STYLE}"]`)) {
    document.head.append(h("link", { rel: "stylesheet", href: STYLE }));
  }
}

function card(n, extra = {}) {
  return h("span", { class: ["hc-card", extra.class] }, n ? String(n) : "?");
}

export function board(ctx) {
  ensureStyle();
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
