// Dragon Stripes on the table: the sleeping dragon drawn as an SVG from its tail to its
// head with the gems of every stripe, the knight and the pot beside it, the dragon's eye
// (closed, stirring, half awake, awake), every card drawn so far and what is left in the
// deck, your gems behind your screen and what everyone paid and received in the open.
import { h, s } from "/static/js/dom.js";
import { N_, t, tn } from "/static/js/i18n.js";

/** The board's style sheet, beside it in the package; the page loads it (dom.js boardStyle). */
export const style = new URL("board.css", import.meta.url).href;

export const keys = { d: "draw", h: "hold", t: "take", n: "decline" };

const MOODS = {
  asleep: N_("asleep"),
  stirring: N_("stirring"),
  "half awake": N_("half awake"),
  awake: N_("AWAKE"),
};

function dragonSvg(v, names) {
  const n = v.stripes.length;
  const x0 = 120;
  const w = 820 / n;
  const mult = v.reward_multiplier || 1;
  const parts = [];
  // tail and body outline
  parts.push(s("path", { class: "tail", d: `M10,150 C40,120 80,170 ${x0},135 L${x0},185 C80,200 40,170 10,150 Z` }));
  v.stripes.forEach((gems, i) => {
    const k = i + 1;
    const x = x0 + i * w;
    const rise = Math.sin((Math.PI * (i + 0.5)) / n) * 45;
    const y = 110 - rise;
    const hgt = 100 + rise * 1.2;
    const band = k <= 6 ? "low" : k <= 12 ? "mid" : "high";
    parts.push(s("g", { class: ["stripe", band, k === v.knight && "here"], "data-stripe": k, "data-k": `stripe-${k}`, "data-v": String(gems * mult) },
      s("rect", { x: x + 1, y, width: w - 2, height: hgt, rx: 10 }),
      s("text", { x: x + w / 2, y: y + hgt / 2 + 6, "text-anchor": "middle", class: "gems" }, String(gems * mult)),
      s("text", { x: x + w / 2, y: y + hgt - 8, "text-anchor": "middle", class: "stripe-no" }, String(k))));
  });
  // head with its eye
  const hx = x0 + n * w;
  const mood = v.dragon;
  parts.push(s("g", { class: ["head", mood.replace(" ", "-")] },
    s("path", { d: `M${hx},70 C${hx + 40},40 ${hx + 60},80 ${hx + 58},120 C${hx + 56},170 ${hx + 30},200 ${hx},205 Z` }),
    mood === "asleep"
      ? s("path", { class: "eye closed", d: `M${hx + 18},105 Q${hx + 30},115 ${hx + 42},105` })
      : s("ellipse", { class: "eye", cx: hx + 30, cy: 105, rx: 12, ry: mood === "stirring" ? 3 : mood === "half awake" ? 6 : 10 })));
  // the knight and the pot
  const kx = v.knight === 0 ? 70 : x0 + (v.knight - 0.5) * w;
  const holder = v.holder >= 0 ? names[v.holder] : "";
  parts.push(s("g", { class: "knight", "data-k": "knight", "data-v": `${v.knight}:${v.pot}`, transform: `translate(${kx},0)` },
    s("circle", { cx: 0, cy: 28, r: 20 }),
    s("text", { x: 0, y: 36, "text-anchor": "middle", class: "knight-icon" }, "♞"),
    s("text", { x: 0, y: 62, "text-anchor": "middle", class: "pot" }, t("pot {pot}", { pot: v.pot }))));
  return s("svg", {
    class: "dragon-svg", viewBox: "0 0 1000 240", role: "img",
    "aria-label": t("The dragon, {mood}: the knight is on stripe {stripe} of {n} with a pot of {pot}", { mood: t(MOODS[mood] || mood), stripe: v.knight, n, pot: v.pot }) + (holder ? ` (${holder})` : ""),
  }, s("title", {}, t("the dragon's back, tail to head")), parts);
}

/** Short labels on a phone (the full description is on tap and in the Rules). */
export function short(action, ctx) {
  if (!ctx.phone) return null;
  const v = ctx.view;
  return {
    draw: t("Draw a card"),
    hold: t("Hold (bank or offer)"),
    take: tn("Take over ({n} gem)", "Take over ({n} gems)", v.price),
    decline: t("Decline"),
  }[action] || null;
}

let lastPot = null;

/** Gems flying into the pot when it grows (and out when it is taken). */
export function after(el, ctx, animate) {
  const pot = ctx.view.pot;
  const before = lastPot;
  lastPot = pot;
  if (!animate || before === null || pot === before) return;
  const box = el.querySelector('[data-k="pot"]');
  if (!box) return;
  const diff = pot - before;
  box.append(h("span", { class: ["gem-fly", diff > 0 ? "in" : "out"], "aria-hidden": "true" }, `${diff > 0 ? "+" : ""}${diff} 💎`));
}

export function tone(action) {
  if (action === "decline") return "quiet";
  if (action === "take") return "strong";
  return null;
}

export function prompt({ view: v, names }) {
  if (v.phase === "offer") return tn("{name} holds: take the knight over for {n} gem, or decline?", "{name} holds: take the knight over for {n} gems, or decline?", v.price, { name: v.holder >= 0 ? names[v.holder] : t("The holder") });
  return null;
}

export function board(ctx) {
  const { view: v, names, seat } = ctx;
  const holder = v.holder >= 0 ? names[v.holder] : null;
  const offer = v.phase === "offer";
  const facts = h("div", { class: "ds-facts" },
    h("div", { class: "fact", dataset: { k: "pot", info: t("the gems in the pot: the knight's holder takes them when they bank") } }, h("span", { class: "label small" }, t("Pot")), h("strong", { class: "big" }, String(v.pot))),
    h("div", { class: "fact", dataset: { k: "price", info: t("what another player pays to take the knight over") } }, h("span", { class: "label small" }, t("Takeover price")), h("strong", { class: "big" }, String(v.price))),
    h("div", { class: ["fact", v.dangers && "warn"], dataset: { k: "dragon", info: t("three Danger cards wake the dragon") } }, h("span", { class: "label small" }, t("Dragon")),
      h("strong", {}, t(MOODS[v.dragon] || v.dragon)), h("span", { class: "small" }, ` · ${t("Danger {n}/3", { n: v.dangers })}`)),
    h("div", { class: "fact" }, h("span", { class: "label small" }, t("A Stop costs")), h("strong", {}, v.penalty)),
    v.reward_multiplier > 1 ? h("div", { class: "fact warn" }, h("span", { class: "label small" }, t("Rewards")), h("strong", {}, `×${v.reward_multiplier}`)) : null,
    seat !== null && seat !== undefined && v.gems !== null ? h("div", { class: "fact mine" }, h("span", { class: "label small" }, t("Your gems (secret)")), h("strong", { class: "big", id: "my-gems", dataset: { k: "my-gems" } }, String(v.gems))) : null,
  );
  const turn = v.over ? h("p", { class: "phase-line" }, t("The game is over after turn {turn}.", { turn: v.turn })) : h("p", { class: "phase-line" },
    t("Turn {turn}, started by {name}.", { turn: v.turn, name: names[v.starter] }) + " ",
    holder ? (offer ? t("{name} holds: the knight is offered for {price}.", { name: holder, price: v.price })
      : v.must_draw ? t("{name} has the knight and must draw.", { name: holder }) : t("{name} has the knight.", { name: holder })) : "");
  const deck = h("div", { class: "ds-deck", dataset: { part: "deck" } },
    h("div", {}, h("span", { class: "label small" }, t("Cards drawn so far (newest last)")),
      h("div", { class: "cards small-cards" }, v.drawn.length ? v.drawn.map((c, i) => h("div", { class: ["card", "ds-card", c.split(" ")[0]], dataset: { k: `drawn-${v.turn}-${i}` } }, c.startsWith("footprint") ? `👣 ${c.split(" ")[1]}` : c === "stop" ? t("STOP") : t("DANGER"))) : h("span", { class: "muted small" }, t("nothing yet")))),
    h("div", {}, h("span", { class: "label small" }, tn("Deck: {n} card left", "Deck: {n} cards left", v.deck_size)),
      h("ul", { class: "deck-left small" }, Object.entries(v.deck_left).map(([k, c]) => h("li", {}, `${t(k)} ×${c}`)))));
  const ledger = h("div", { class: "scroll-x" }, h("table", { class: "ledger" },
    h("caption", { class: "small" }, t("Gems in the open")),
    h("thead", {}, h("tr", {}, [N_("player"), N_("banked"), N_("received"), N_("paid"), N_("penalties")].map((c) => h("th", {}, t(c))), v.all_gems ? h("th", {}, t("gems")) : null)),
    h("tbody", {}, v.ledger.map((row, i) => h("tr", { class: [i === seat && "me", i === v.holder && "holder"], dataset: { k: `ledger-${i}` } },
      h("th", { class: `p${i}` }, names[i], i === seat ? ` ${t("(you)")}` : ""),
      h("td", {}, String(row.banked)), h("td", {}, String(row.received)), h("td", {}, String(row.paid)),
      h("td", {}, `${row.penalties - row.half_penalties}×¼ ${row.half_penalties}×½`),
      v.all_gems ? h("td", {}, String(v.all_gems[i])) : null)))));
  return h("div", { class: "dragon-stripes" }, turn, dragonSvg(v, names), facts,
    v.lair_empty ? h("p", { class: "warn" }, t("The lair has run dry.")) : null, deck, ledger);
}
