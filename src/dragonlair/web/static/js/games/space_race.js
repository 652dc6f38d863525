// Space Race (2021) on the table: every ship from its Cockpit to its Engine with the
// face-up stacks (top card last, drawn on top), Power Sources on either end, Drones, Loot
// Carriers, Crew, Fuel (a face-down count; your own cards shown to you) and Damage; the
// Danger card and the bids; your hand, each card with a button for each way to play it.
import { h } from "../dom.js";

const STACKS = [
  ["power_cockpit", "Cockpit power"],
  ["scanners", "Scanners"],
  ["robot_parts", "Robot"],
  ["crystals", "Crystals"],
  ["power_engine", "Engine power"],
];
const TOKEN = { scanner: "◉", crystal: "◆", power_source: "⚡", alien_drone: "👾", loot_carrier: "📦", crew: "☺" };
const PART = { head: "H", body: "B", legs: "L" };
const WAYS = { up: "Ship", cockpit: "Cockpit", engine: "Engine", fuel: "Fuel" };
const ICON = { wrench: "🔧", damage: "💥", x: "✖" };

export const keys = {};

function space(comp, id) {
  return comp.space[id - 1] || { name: `card ${id}`, type: "?", color: null, corner_vp: 0 };
}

/** A Space card's face: its colour, what it is and its corner VP. */
export function spaceFace(comp, id) {
  const c = space(comp, id);
  return [
    h("span", { class: "vp" }, c.corner_vp ? String(c.corner_vp) : ""),
    h("span", { class: "token", "aria-hidden": "true" }, c.part ? PART[c.part] : TOKEN[c.type] || "▪"),
    h("span", { class: "name" }, c.name),
  ];
}

function spaceCard(comp, id, cls) {
  const c = space(comp, id);
  return h("div", { class: ["card", "space", c.color || "plain", cls], title: `${c.name} (#${id})`, dataset: { card: String(id) } }, spaceFace(comp, id));
}

function stack(comp, ids, label) {
  return h("div", { class: "stack", title: label },
    h("span", { class: "stack-label small" }, label),
    h("div", { class: "pile" }, ids.length ? ids.map((id, i) => spaceCard(comp, id, i === ids.length - 1 ? "top" : "under")) : h("span", { class: "muted small" }, "–")));
}

function dangerCard(comp, id, note) {
  const d = comp.danger[id - 1];
  if (!d) return h("div", { class: "card danger" }, `Danger ${id}`);
  return h("div", { class: ["card", "danger", d.kind], title: d.name },
    h("span", { class: "kind" }, d.kind === "flight" ? "FLIGHT: bid Fuel" : "FIGHT: bid Crew"),
    h("ol", { class: "ranks" }, d.ranks.map((r) => h("li", {}, r.icon === "x" ? ICON.x : `${ICON[r.icon] || r.icon}×${r.n}`))),
    note ? h("span", { class: "small" }, note) : null);
}

export function board(ctx) {
  const { view: v, comp, names, seat } = ctx;
  const upgrade = v.phase === "upgrade";
  const line = upgrade
    ? `Round ${v.round} of ${v.rounds} · Upgrade: pick ${v.pick} of 6 · hands pass ${v.direction === "left" ? "left ⟳" : "right ⟲"}`
    : v.phase === "danger" ? `Round ${v.round} of ${v.rounds} · Danger: bid ${v.bidding === "fuel" ? "Fuel" : "Crew"}` : `Round ${v.round} of ${v.rounds}`;
  const decks = h("div", { class: "sr-decks" },
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Danger"),
      v.danger ? dangerCard(comp, v.danger) : h("div", { class: "card back" }, `${v.danger_deck}`)),
    v.danger ? h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Danger deck"), h("div", { class: "card back" }, `${v.danger_deck}`)) : null,
    v.danger_top ? h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Your Scanner shows next"), dangerCard(comp, v.danger_top)) : null,
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Space deck"), h("div", { class: "card back" }, `${v.space_deck}`)),
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Damage deck"), h("div", { class: "card back damageback" }, `${v.damage_deck}`)),
    v.last_bids ? h("div", { class: "bids" }, h("span", { class: "label small" }, "Last bids"),
      h("ul", {}, v.last_bids.map((b, s) => h("li", {}, `${names[s]}: ${b}`)))) : null,
  );
  const ships = h("div", { class: "sr-ships" }, v.ships.map((ship) => {
    const s = ship.seat;
    const dmg = ship.damage.reduce((t, d) => t + ((comp.damage[d - 1] || {}).vp || 0), 0);
    return h("div", { class: ["ship", `p${s}`, s === seat && "me"], dataset: { seat: String(s) } },
      h("div", { class: "ship-head" }, h("strong", {}, names[s]), s === seat ? " (you)" : "",
        h("span", { class: "small muted" }, ` · ${ship.cockpit} · ${v.hand_sizes[s]} in hand`),
        h("span", { class: "score", title: "VP if the game ended now" }, `${v.score[s]} VP`)),
      h("div", { class: "rocket" },
        h("div", { class: "cockpit", "aria-hidden": "true" }, "◀"),
        STACKS.map(([key, label]) => stack(comp, ship[key], label)),
        h("div", { class: "engine", "aria-hidden": "true" }, "▶▶")),
      h("div", { class: "counters small" },
        h("span", { title: "Alien Drones" }, `👾 ${ship.alien_drones.length}`),
        h("span", { title: "Loot Carriers" }, `📦 ${ship.loot_carriers.length}`),
        h("span", { title: "Crew" }, `☺ Crew ${ship.crew.length}`),
        h("span", { title: "Fuel (face down)" }, `⛽ Fuel ${ship.fuel}`),
        h("span", { title: "Damage cards", class: ship.damage.length ? "bad" : "" }, `💥 ${ship.damage.length}${ship.damage.length ? ` (${dmg} VP)` : ""}`)),
      ship.fuel_cards && ship.fuel_cards.length ? h("div", { class: "fuel-cards small" }, "Your Fuel: ",
        ship.fuel_cards.map((id) => space(comp, id).name).join(", ")) : null);
  }));
  const mine = [];
  if (seat !== null && seat !== undefined && v.hand) {
    mine.push(h("section", { class: "hand", "aria-label": "your hand" },
      h("h3", { class: "small" }, upgrade ? "Your hand: choose a card and where it goes" : "Your hand"),
      h("div", { class: "cards" }, v.hand.map((id) => {
        const ways = Object.keys(WAYS).map((w) => `${w} ${id}`).filter((a) => ctx.can(a));
        const chosen = v.my_choice && v.my_choice.endsWith(` ${id}`);
        return h("div", { class: ["hand-card", chosen && "chosen"] }, spaceCard(comp, id),
          ways.length ? h("div", { class: "ways" }, ways.map((a) => ctx.button(a, WAYS[a.split(" ")[0]], { class: "way", "aria-label": ctx.label(a) }))) : null);
      }))));
  }
  return h("div", { class: "space-race" }, h("p", { class: "phase-line" }, line), decks, mine, ships,
    h("p", { class: "legend small muted" }, "◉ Scanner · H/B/L Robot head/body/legs · ◆ Crystal · ⚡ Power Source · colour = card colour · top card last"));
}
