// Space Race (2021) on the table: every ship drawn as a ship, from its Cockpit (the nose)
// to its Engine (the flame), its hull holding the face-up stacks in order (Cockpit Power
// Sources, Scanners, Robot, Crystals, Engine Power Sources; each stack fanned so every
// card shows, the top card last and whole), with its Fuel, Crew, Drones, Loot Carriers and
// Damage as counts on the hull; the Danger card as a card (Flight or Fight, what each
// rank gets); the last bids, turned over; your hand, each card with a button for each
// way to play it.
import { h } from "../dom.js";

const STACKS = [
  ["power_cockpit", "Cockpit power", "⚡"],
  ["scanners", "Scanners", "◉"],
  ["robot_parts", "Robot", "🤖"],
  ["crystals", "Crystals", "◆"],
  ["power_engine", "Engine power", "⚡"],
];
const TOKEN = { scanner: "◉", crystal: "◆", power_source: "⚡", alien_drone: "👾", loot_carrier: "📦", crew: "☺" };
const PART = { head: "Head", body: "Body", legs: "Legs" };
const WAYS = { up: "Ship", cockpit: "Cockpit", engine: "Engine", fuel: "Fuel" };
const WAY_HELP = {
  up: "face up on your ship (its stack)",
  cockpit: "a Power Source by the Cockpit",
  engine: "a Power Source by the Engine",
  fuel: "face down as Fuel",
};
const RANK_ICON = { wrench: "🔧", damage: "💥" };
const RANK_WORDS = { wrench: ["repair", "repairs"], damage: ["damage", "damage"] };
const ORDINAL = ["1st", "2nd", "3rd", "4th", "5th", "6th"];
const ON_PLAY = {
  peek_top_danger: "Scanner: you may look at the top Danger card",
};

export const keys = {};

function space(comp, id) {
  return comp.space[id - 1] || { name: `card ${id}`, type: "?", color: null, corner_vp: 0 };
}

function words(c) {
  const bits = [c.name];
  if (c.corner_vp) bits.push(`${c.corner_vp} VP`);
  if (c.on_play && ON_PLAY[c.on_play]) bits.push(ON_PLAY[c.on_play]);
  return bits.join(" · ");
}

/** A Space card's face: its colour, what it is and its corner VP. */
export function spaceFace(comp, id) {
  const c = space(comp, id);
  return [
    h("span", { class: "vp", title: "corner VP" }, c.corner_vp ? String(c.corner_vp) : ""),
    h("span", { class: "token", "aria-hidden": "true" }, c.part ? PART[c.part][0] : TOKEN[c.type] || "▪"),
    h("span", { class: "name" }, c.name),
  ];
}

function spaceCard(comp, id, cls, k) {
  const c = space(comp, id);
  return h("div", {
    class: ["card", "space", c.color || "plain", cls], dataset: { card: String(id), info: words(c), k },
  }, spaceFace(comp, id));
}

function stack(comp, ids, label, mark, seat, key) {
  return h("div", { class: ["stack", !ids.length && "empty"], dataset: { info: `${label}: ${ids.length} card${ids.length === 1 ? "" : "s"}` } },
    h("span", { class: "stack-label" }, h("span", { "aria-hidden": "true" }, mark, " "), label),
    h("div", { class: "pile" },
      ids.length ? ids.map((id, i) => spaceCard(comp, id, i === ids.length - 1 ? "top" : "under", `s${seat}-${key}-${i}`))
        : h("span", { class: "slot", "aria-hidden": "true" })));
}

function rankText(r) {
  if (r.icon === "x") return "nothing";
  const [one, many] = RANK_WORDS[r.icon] || [r.icon, r.icon];
  return `${r.n} ${r.n === 1 ? one : many}`;
}

function dangerCard(comp, id, note) {
  const d = comp.danger[id - 1];
  if (!d) return h("div", { class: "card danger" }, `Danger ${id}`);
  const flight = d.kind === "flight";
  return h("div", {
    class: ["card", "danger", d.kind], dataset: { info: `${flight ? "Flight: everyone bids Fuel" : "Fight: everyone bids Crew"}; the highest bid ranks 1st. ${d.ranks.map((r, i) => `${ORDINAL[i]}: ${rankText(r)}`).join(", ")}`, k: `danger-${id}` },
  },
  h("span", { class: "danger-head" }, h("span", { class: "danger-icon", "aria-hidden": "true" }, flight ? "🚀" : "⚔"),
    h("span", {}, h("strong", {}, flight ? "FLIGHT" : "FIGHT"), h("span", { class: "small" }, flight ? "bid Fuel" : "bid Crew"))),
  h("ol", { class: "ranks" }, d.ranks.map((r, i) => h("li", { class: r.icon },
    h("span", { class: "ord" }, ORDINAL[i]),
    h("span", { class: "icons", "aria-hidden": "true" }, r.icon === "x" ? "✖" : (RANK_ICON[r.icon] || r.icon).repeat(Math.min(r.n, 4))),
    h("span", { class: "words" }, rankText(r))))),
  note ? h("span", { class: "small" }, note) : null);
}

function counter(icon, n, word, info, cls) {
  return h("span", { class: ["counter", cls], dataset: { info } }, h("span", { "aria-hidden": "true" }, icon), h("strong", {}, String(n)), h("span", { class: "word" }, word));
}

function ship(ctx, ship) {
  const { view: v, comp, names, seat } = ctx;
  const s = ship.seat;
  const dmg = ship.damage.reduce((t, d) => t + ((comp.damage[d - 1] || {}).vp || 0), 0);
  const damageNames = ship.damage.map((d) => (comp.damage[d - 1] || {}).name || `damage ${d}`);
  return h("div", { class: ["ship", `p${s}`, s === seat && "me"], dataset: { seat: String(s) } },
    h("div", { class: "ship-head" },
      h("span", { class: "seat-no" }, String(s + 1)),
      h("strong", {}, names[s]), s === seat ? " (you)" : "",
      h("span", { class: "small muted" }, ` · ${ship.cockpit} · ${v.hand_sizes[s]} in hand`),
      h("span", { class: "score", dataset: { k: `score-${s}`, info: "VP if the game ended now" } }, `${v.score[s]} VP`)),
    h("div", { class: "rocket", role: "group", "aria-label": `${names[s]}'s ship, cockpit to engine` },
      h("div", { class: "cockpit", dataset: { info: `Cockpit (${ship.cockpit})` } }, h("span", { class: "window", "aria-hidden": "true" }), h("span", { class: "part-name" }, ship.cockpit)),
      h("div", { class: "sr-hull" }, STACKS.map(([key, label, mark]) => stack(comp, ship[key], label, mark, s, key))),
      h("div", { class: "engine", dataset: { info: `Engine (${ship.engine})` } }, h("span", { class: "part-name" }, ship.engine), h("span", { class: "flame", "aria-hidden": "true" }))),
    h("div", { class: "counters" },
      counter("⛽", ship.fuel, "Fuel", `Fuel: ${ship.fuel} face down${ship.fuel_cards && ship.fuel_cards.length ? ` (yours: ${ship.fuel_cards.map((id) => space(comp, id).name).join(", ")})` : ""}`, "fuel"),
      counter("☺", ship.crew.length, "Crew", `Crew: ${ship.crew.length}`, "crew"),
      counter("👾", ship.alien_drones.length, "Drones", `Alien Drones: ${ship.alien_drones.length}`),
      counter("📦", ship.loot_carriers.length, "Loot", `Loot Carriers: ${ship.loot_carriers.length}`),
      counter("💥", ship.damage.length, ship.damage.length ? `Damage (${dmg} VP)` : "Damage", ship.damage.length ? `Damage: ${damageNames.join(", ")} (${dmg} VP)` : "no Damage", ship.damage.length ? "bad" : "")),
    ship.fuel_cards && ship.fuel_cards.length ? h("div", { class: "fuel-cards small muted" }, "Your Fuel (only you see it): ",
      ship.fuel_cards.map((id) => space(comp, id).name).join(", ")) : null);
}

/** Short labels for the bar: "Bid 2 Fuel". */
export function short(action, ctx) {
  const m = action.match(/^bid (\d+)$/);
  if (m) return `Bid ${m[1]} ${ctx.view.bidding === "crew" ? "Crew" : "Fuel"}`;
  return null;
}

export function prompt({ view }) {
  if (view.phase === "upgrade") return "Choose a card for your ship, and where it goes.";
  if (view.phase === "danger") return `Bid ${view.bidding === "crew" ? "Crew" : "Fuel"} against the Danger: the highest bid gets the best rank.`;
  return null;
}

export function board(ctx) {
  const { view: v, comp, names, seat } = ctx;
  const upgrade = v.phase === "upgrade";
  const line = upgrade
    ? `Round ${v.round} of ${v.rounds} · Upgrade: pick ${v.pick} of 6 · hands pass ${v.direction === "left" ? "left ⟳" : "right ⟲"}`
    : v.phase === "danger" ? `Round ${v.round} of ${v.rounds} · Danger: bid ${v.bidding === "fuel" ? "Fuel" : "Crew"}` : `Round ${v.round} of ${v.rounds}`;
  const decks = h("div", { class: "sr-decks" },
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Danger"),
      v.danger ? dangerCard(comp, v.danger) : h("div", { class: "card back dangerback", dataset: { info: `Danger deck: ${v.danger_deck} cards` } }, h("span", {}, "DANGER"), h("strong", {}, `${v.danger_deck}`))),
    v.danger ? h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Danger deck"), h("div", { class: "card back dangerback" }, `${v.danger_deck}`)) : null,
    v.danger_top ? h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Your Scanner shows next"), dangerCard(comp, v.danger_top)) : null,
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Space deck"), h("div", { class: "card back" }, `${v.space_deck}`)),
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Damage deck"), h("div", { class: "card back damageback" }, `${v.damage_deck}`)),
    v.last_bids ? h("div", { class: "bids" }, h("span", { class: "label small" }, "Last bids"),
      h("div", { class: "bid-row" }, v.last_bids.map((b, s) => h("div", { class: ["bid", `p${s}`], dataset: { k: `bid-${s}-${v.danger_discard ? v.danger_discard.length : 0}`, anim: "flip" } },
        h("strong", {}, String(b)), h("span", { class: "small" }, names[s]))))) : null,
  );
  const ships = h("div", { class: "sr-ships" }, v.ships.map((sh) => ship(ctx, sh)));
  const mine = [];
  if (seat !== null && seat !== undefined && v.hand && v.hand.length) {
    mine.push(h("section", { class: "hand", "aria-label": "your hand" },
      h("h3", { class: "small" }, upgrade ? "Your hand: choose a card and where it goes" : "Your hand"),
      h("div", { class: "cards" }, v.hand.map((id) => {
        const ways = Object.keys(WAYS).map((w) => `${w} ${id}`).filter((a) => ctx.can(a));
        const chosen = v.my_choice && v.my_choice.endsWith(` ${id}`);
        return h("div", { class: ["hand-card", chosen && "chosen"] }, spaceCard(comp, id),
          ways.length ? h("div", { class: "ways" }, ways.map((a) => ctx.button(a, WAYS[a.split(" ")[0]], {
            class: ["way", `way-${a.split(" ")[0]}`], "aria-label": ctx.label(a), info: `${space(comp, id).name}: ${WAY_HELP[a.split(" ")[0]]}`,
          }))) : null);
      }))));
  }
  return h("div", { class: "space-race" }, h("p", { class: "phase-line" }, line), decks, mine, ships,
    h("p", { class: "legend small muted" }, "Each ship runs from its Cockpit (left) to its Engine (right). ◉ Scanner · H/B/L Robot head, body, legs · ◆ Crystal · ⚡ Power Source · the colour is the card's colour · in a stack the top card is the last, drawn whole."));
}
