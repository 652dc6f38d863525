// Space Race (2021) on the table: every ship drawn as a ship, from its Cockpit (the nose)
// to its Engine (the flame), its hull holding the face-up stacks in order (Cockpit Power
// Sources, Scanners, Robot, Crystals, Engine Power Sources; each stack fanned so every
// card shows, the top card last and whole), with its Fuel, Crew, Drones, Loot Carriers and
// Damage as counts on the hull; the Danger card as a card (Flight or Fight, what each
// rank gets); the last bids, turned over; your hand, each card with a button for each
// way to play it. The parts a lesson may point at carry data-part: "round" (the phase
// line with the coin), "danger", "danger-top", "bids", "hand", "ship-<seat>", a stack
// "<stack>-<seat>" (crystals-0, power-cockpit-0) and a count "fuel-<seat>", "crew-<seat>",
// "damage-<seat>".
import { h } from "/static/js/dom.js";
import { N_, t, tn, word } from "/static/js/i18n.js";

/** The board's style sheet, beside it in the package; the page loads it (dom.js boardStyle). */
export const style = new URL("board.css", import.meta.url).href;

const STACKS = [
  ["power_cockpit", N_("Cockpit power"), "⚡"],
  ["scanners", N_("Scanners"), "◉"],
  ["robot_parts", N_("Robot"), "🤖"],
  ["crystals", N_("Crystals"), "◆"],
  ["power_engine", N_("Engine power"), "⚡"],
];
const TOKEN = { scanner: "◉", crystal: "◆", power_source: "⚡", alien_drone: "👾", loot_carrier: "📦", crew: "☺" };
const PART = { head: N_("Head"), body: N_("Body"), legs: N_("Legs") };
const WAYS = { up: N_("Ship"), cockpit: N_("Cockpit"), engine: N_("Engine"), fuel: N_("Fuel") };
const WAY_HELP = {
  up: N_("face up on your ship (its stack)"),
  cockpit: N_("a Power Source by the Cockpit"),
  engine: N_("a Power Source by the Engine"),
  fuel: N_("face down as Fuel"),
};
const RANK_ICON = { wrench: "🔧", damage: "💥" };

const ORDINAL = [N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th")];
const ON_PLAY = {
  peek_top_danger: N_("Scanner: you may look at the top Danger card"),
};

export const keys = {};

function space(comp, id) {
  return comp.space[id - 1] || { name: t("card {n}", { n: id }), type: "?", color: null, corner_vp: 0 };
}

function words(c) {
  const bits = [t(c.name)];
  if (c.corner_vp) bits.push(t("{n} VP", { n: c.corner_vp }));
  if (c.on_play && ON_PLAY[c.on_play]) bits.push(t(ON_PLAY[c.on_play]));
  return bits.join(" · ");
}

/** A Space card's face: its colour, what it is and its corner VP. */
/** What an action does, as the catalog says it, without the card's internal number
 * ("play Green Crystal face up: 1 VP"): a Space card carries a name, not a number. */
export function label(action, comp, text) {
  return text ? text.replace(/ \(#\d+\)/g, "") : null;
}

const SPACE_CARDS = new Set(["dealt", "received", "spent", "placed"]);

/** A value of an event in the log as the cards' faces name it (table.js eventText): Space
 * cards, Danger cards and Damage cards carry names, not numbers. */
export function eventValue(field, value, ev, comp) {
  // a choice is named as its action reads, which numbers the card: the name says which
  if (field === "choice" && typeof value === "string") return word(value.replace(/ \(#\d+\)/g, ""));
  const deck = SPACE_CARDS.has(ev.type) ? comp.space : ev.type === "danger" || ev.type === "scanned" ? comp.danger : ev.type === "repaired" || ev.type === "damaged" ? comp.damage : null;
  if (!deck) return undefined;
  const name = (id) => (deck[id - 1] ? t(deck[id - 1].name) : t("card {n}", { n: id }));
  if (field === "card" && Number.isInteger(value)) return name(value);
  if (field === "cards" && Array.isArray(value) && value.every(Number.isInteger)) return value.length ? value.map(name).join(", ") : t("none");
  return undefined;
}

export function spaceFace(comp, id) {
  const c = space(comp, id);
  return [
    h("span", { class: "vp", title: t("corner VP") }, c.corner_vp ? String(c.corner_vp) : ""),
    h("span", { class: "token", "aria-hidden": "true" }, c.part ? PART[c.part][0] : TOKEN[c.type] || "▪"),
    h("span", { class: "name" }, t(c.name)),
  ];
}

function spaceCard(comp, id, cls, k) {
  const c = space(comp, id);
  return h("div", {
    class: ["card", "space", c.color || "plain", cls], dataset: { card: String(id), info: words(c), k },
  }, spaceFace(comp, id));
}

function stack(comp, ids, label, mark, seat, key) {
  return h("div", { class: ["stack", !ids.length && "empty"], dataset: { info: `${t(label)}: ${tn("{n} card", "{n} cards", ids.length)}`, part: `${key.replace("_", "-")}-${seat}` } },
    h("span", { class: "stack-label" }, h("span", { "aria-hidden": "true" }, mark, " "), t(label)),
    h("div", { class: "pile" },
      ids.length ? ids.map((id, i) => spaceCard(comp, id, i === ids.length - 1 ? "top" : "under", `s${seat}-${key}-${i}`))
        : h("span", { class: "slot", "aria-hidden": "true" })));
}

function rankText(r) {
  if (r.icon === "x") return t("nothing");
  if (r.icon === "wrench") return tn("{n} repair", "{n} repairs", r.n);
  if (r.icon === "damage") return tn("{n} damage", "{n} damage", r.n);
  return `${r.n} ${r.icon}`;
}

function dangerCard(comp, id, note) {
  const d = comp.danger[id - 1];
  if (!d) return h("div", { class: "card danger" }, t("Danger {n}", { n: id }));
  const flight = d.kind === "flight";
  return h("div", {
    class: ["card", "danger", d.kind], dataset: { info: `${flight ? t("Flight: everyone bids Fuel") : t("Fight: everyone bids Crew")}; ${t("the highest bid ranks 1st.")} ${d.ranks.map((r, i) => `${t(ORDINAL[i])}: ${rankText(r)}`).join(", ")}`, k: `danger-${id}` },
  },
  h("span", { class: "danger-head" }, h("span", { class: "danger-icon", "aria-hidden": "true" }, flight ? "🚀" : "⚔"),
    h("span", {}, h("strong", {}, flight ? t("FLIGHT") : t("FIGHT")), h("span", { class: "small" }, flight ? t("bid Fuel") : t("bid Crew")))),
  h("ol", { class: "ranks" }, d.ranks.map((r, i) => h("li", { class: r.icon },
    h("span", { class: "ord" }, t(ORDINAL[i])),
    h("span", { class: "icons", "aria-hidden": "true" }, r.icon === "x" ? "✖" : (RANK_ICON[r.icon] || r.icon).repeat(Math.min(r.n, 4))),
    h("span", { class: "words" }, rankText(r))))),
  note ? h("span", { class: "small" }, note) : null);
}

function counter(icon, n, word, info, cls, part) {
  return h("span", { class: ["counter", cls], dataset: part ? { info, part } : { info } }, h("span", { "aria-hidden": "true" }, icon), h("strong", {}, String(n)), h("span", { class: "word" }, t(word)));
}

function ship(ctx, ship) {
  const { view: v, comp, names, seat } = ctx;
  const s = ship.seat;
  const dmg = ship.damage.reduce((sum, d) => sum + ((comp.damage[d - 1] || {}).vp || 0), 0);
  const damageNames = ship.damage.map((d) => t((comp.damage[d - 1] || {}).name || "damage"));
  return h("div", { class: ["ship", `p${s}`, s === seat && "me"], dataset: { seat: String(s), part: `ship-${s}` } },
    h("div", { class: "ship-head" },
      h("span", { class: "seat-no" }, String(s + 1)),
      h("strong", {}, names[s]), s === seat ? ` ${t("(you)")}` : "",
      h("span", { class: "small muted" }, ` · ${t(ship.cockpit)} · ${t("{n} in hand", { n: v.hand_sizes[s] })}`),
      h("span", { class: "score", dataset: { k: `score-${s}`, info: t("VP if the game ended now") } }, t("{n} VP", { n: v.score[s] }))),
    h("div", { class: "rocket", role: "group", "aria-label": t("{name}'s ship, cockpit to engine", { name: names[s] }) },
      h("div", { class: "cockpit", dataset: { info: `${t("Cockpit")} (${t(ship.cockpit)})` } }, h("span", { class: "window", "aria-hidden": "true" }), h("span", { class: "part-name" }, t(ship.cockpit))),
      h("div", { class: "sr-hull" }, STACKS.map(([key, label, mark]) => stack(comp, ship[key], label, mark, s, key))),
      h("div", { class: "engine", dataset: { info: `${t("Engine")} (${t(ship.engine)})` } }, h("span", { class: "part-name" }, t(ship.engine)), h("span", { class: "flame", "aria-hidden": "true" }))),
    h("div", { class: "counters" },
      counter("⛽", ship.fuel, "Fuel", t("Fuel: {n} face down", { n: ship.fuel }) + (ship.fuel_cards && ship.fuel_cards.length ? ` (${t("yours:")} ${ship.fuel_cards.map((id) => t(space(comp, id).name)).join(", ")})` : ""), "fuel", `fuel-${s}`),
      counter("☺", ship.crew.length, "Crew", `${t("Crew")}: ${ship.crew.length}`, "crew", `crew-${s}`),
      counter("👾", ship.alien_drones.length, "Drones", `${t("Alien Drones")}: ${ship.alien_drones.length}`),
      counter("📦", ship.loot_carriers.length, "Loot", `${t("Loot Carriers")}: ${ship.loot_carriers.length}`),
      counter("💥", ship.damage.length, ship.damage.length ? t("Damage ({n} VP)", { n: dmg }) : "Damage", ship.damage.length ? `${t("Damage")}: ${damageNames.join(", ")} (${t("{n} VP", { n: dmg })})` : t("no Damage"), ship.damage.length ? "bad" : "", `damage-${s}`)),
    ship.fuel_cards && ship.fuel_cards.length ? h("div", { class: "fuel-cards small muted" }, t("Your Fuel (only you see it):"), " ",
      ship.fuel_cards.map((id) => t(space(comp, id).name)).join(", ")) : null);
}

/** Short labels for the bar: "Bid 2 Fuel". */
export function short(action, ctx) {
  const m = action.match(/^bid (\d+)$/);
  if (m) return ctx.view.bidding === "crew" ? t("Bid {n} Crew", { n: m[1] }) : t("Bid {n} Fuel", { n: m[1] });
  return null;
}

export function prompt({ view }) {
  if (view.phase === "upgrade") return t("Choose a card for your ship, and where it goes.");
  if (view.phase === "danger") return view.bidding === "crew" ? t("Bid Crew against the Danger: the highest bid gets the best rank.") : t("Bid Fuel against the Danger: the highest bid gets the best rank.");
  return null;
}

export function board(ctx) {
  const { view: v, comp, names, seat } = ctx;
  const upgrade = v.phase === "upgrade";
  const line = upgrade
    ? `${t("Round {round} of {rounds}", v)} · ${t("Upgrade: pick {pick} of 6", v)} · ${v.direction === "left" ? t("hands pass left ⟳") : t("hands pass right ⟲")}`
    : v.phase === "danger" ? `${t("Round {round} of {rounds}", v)} · ${v.bidding === "fuel" ? t("Danger: bid Fuel") : t("Danger: bid Crew")}` : t("Round {round} of {rounds}", v);
  const decks = h("div", { class: "sr-decks" },
    h("div", { class: "pile-box", dataset: { part: "danger" } }, h("span", { class: "label small" }, t("Danger")),
      v.danger ? dangerCard(comp, v.danger) : h("div", { class: "card back dangerback", dataset: { info: tn("Danger deck: {n} card", "Danger deck: {n} cards", v.danger_deck) } }, h("span", {}, t("DANGER")), h("strong", {}, `${v.danger_deck}`))),
    v.danger ? h("div", { class: "pile-box" }, h("span", { class: "label small" }, t("Danger deck")), h("div", { class: "card back dangerback" }, `${v.danger_deck}`)) : null,
    v.danger_top ? h("div", { class: "pile-box", dataset: { part: "danger-top" } }, h("span", { class: "label small" }, t("Your Scanner shows next")), dangerCard(comp, v.danger_top)) : null,
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, t("Space deck")), h("div", { class: "card back" }, `${v.space_deck}`)),
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, t("Damage deck")), h("div", { class: "card back damageback" }, `${v.damage_deck}`)),
    v.last_bids ? h("div", { class: "bids", dataset: { part: "bids" } }, h("span", { class: "label small" }, t("Last bids")),
      h("div", { class: "bid-row" }, v.last_bids.map((b, s) => h("div", { class: ["bid", `p${s}`], dataset: { k: `bid-${s}-${v.danger_discard ? v.danger_discard.length : 0}`, anim: "flip" } },
        h("strong", {}, String(b)), h("span", { class: "small" }, names[s]))))) : null,
  );
  const ships = h("div", { class: "sr-ships" }, v.ships.map((sh) => ship(ctx, sh)));
  const mine = [];
  if (seat !== null && seat !== undefined && v.hand && v.hand.length) {
    mine.push(h("section", { class: "hand", "aria-label": t("your hand"), dataset: { part: "hand" } },
      h("h3", { class: "small" }, upgrade ? t("Your hand: choose a card and where it goes") : t("Your hand")),
      h("div", { class: "cards" }, v.hand.map((id) => {
        const ways = Object.keys(WAYS).map((w) => `${w} ${id}`).filter((a) => ctx.can(a));
        const chosen = v.my_choice && v.my_choice.endsWith(` ${id}`);
        return h("div", { class: ["hand-card", chosen && "chosen"] }, spaceCard(comp, id),
          ways.length ? h("div", { class: "ways" }, ways.map((a) => ctx.button(a, t(WAYS[a.split(" ")[0]]), {
            class: ["way", `way-${a.split(" ")[0]}`], "aria-label": ctx.label(a), info: `${t(space(comp, id).name)}: ${t(WAY_HELP[a.split(" ")[0]])}`,
          }))) : null);
      }))));
  }
  return h("div", { class: "space-race" }, h("p", { class: "phase-line", dataset: { part: "round" } }, line), decks, mine, ships,
    h("p", { class: "legend small muted" }, t("Each ship runs from its Cockpit (left) to its Engine (right). ◉ Scanner · H/B/L Robot head, body, legs · ◆ Crystal · ⚡ Power Source · the colour is the card's colour · in a stack the top card is the last, drawn whole.")));
}
