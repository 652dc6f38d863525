// Space Dragons on the table: the face-up dragon on the lair, the three scoring cards,
// this round's crew cards, every ship with its shields and damage, claimed dragons and
// crew, and your hand of crew cards (the buttons: hire or play).
import { h } from "../dom.js";
import { icon } from "../icons.js";

export const EFFECTS = {
  shield: "shield: tuck a card under your ship",
  tool: "tool: repair a damage",
  damage: "damage to your ship",
  crosshair: "crosshair: hits the round's highest card",
};
export const SYMBOLS = [["science", "⚛"], ["mood", "♥"], ["crime", "☠"]];

function symbols(counts) {
  return h("span", { class: "symbols" }, SYMBOLS.map(([name, icon], k) =>
    counts[k] ? Array.from({ length: counts[k] }, () => h("span", { class: `sym chip ${name}`, "aria-label": name }, icon)) : null));
}

/** A crew card in words: what it does when played, its symbols and points. */
export function crewWords(c) {
  if (!c) return "";
  const fx = c.effects.length ? c.effects.map((e) => EFFECTS[e] || e).join("; then ") : "no effect";
  const sym = SYMBOLS.map(([name], k) => (c.symbols[k] ? `${name} ${c.symbols[k]}` : null)).filter(Boolean).join(", ");
  return `${c.number}: ${fx}.${sym ? ` Symbols: ${sym}.` : ""}${c.points ? ` ${c.points > 0 ? "+" : ""}${c.points} points.` : ""}`;
}

function dragonWords(d) {
  const sym = SYMBOLS.map(([name], k) => (d.symbols[k] ? `${name} ${d.symbols[k]}` : null)).filter(Boolean).join(", ");
  return `A dragon: ${d.points} points${sym ? `; symbols: ${sym}` : ""}.`;
}

/** The face of crew card ``n``: number, effects in order, symbols and points. */
export function crewFace(comp, n) {
  const c = comp.crew[n - 1];
  if (!c) return h("span", { class: "num" }, String(n));
  return [
    h("span", { class: "top" }, h("span", { class: "num" }, String(n)),
      c.points ? h("span", { class: ["pts", c.points > 0 ? "plus" : "minus"] }, `${c.points > 0 ? "+" : ""}${c.points}`) : null),
    h("span", { class: "effects" }, c.effects.map((e) => h("span", { class: `fx ${e}` }, icon(e, EFFECTS[e])))),
    symbols(c.symbols),
  ];
}

function crewCard(comp, n, extra = {}) {
  const c = comp.crew[n - 1];
  return h("div", { class: ["card", "crew", extra.class], dataset: { card: String(n), info: crewWords(c), k: extra.k } }, crewFace(comp, n));
}

function dragonCard(comp, id, big = false) {
  const d = comp.dragons[id - 1];
  if (!d) return h("div", { class: "card dragon" }, `dragon ${id}`);
  return h("div", { class: ["card", "dragon", big && "big"], dataset: { dragon: String(id), info: dragonWords(d), k: big ? "face-up" : null } },
    h("span", { class: "dragon-art", "aria-hidden": "true" }, "🐉"),
    h("span", { class: "pts" }, `${d.points}`),
    symbols(d.symbols));
}

function scoringCard(comp, symbol, side) {
  const awards = comp.awards ? comp.awards[symbol][side === "b" ? 1 : 0] : [];
  const icon = SYMBOLS.find(([n]) => n === symbol)[1];
  return h("div", { class: `card scoring ${symbol}`, dataset: { info: `${symbol} scoring card, side ${side.toUpperCase()}: at the end, ${awards.map(([rank, pts]) => `${rank} ${pts > 0 ? "+" : ""}${pts}`).join(", ")}` } },
    h("span", { class: "head" }, `${icon} ${symbol} `, h("b", {}, side.toUpperCase())),
    h("ul", {}, awards.map(([rank, pts]) => h("li", {}, `${rank}: ${pts > 0 ? "+" : ""}${pts}`))));
}

/** The last finished round from the log: the cards played in order and who claimed. */
function lastRound(log) {
  let claim = null;
  let i = log.length - 1;
  for (; i >= 0; i--) if (log[i].ev.type === "claimed") { claim = log[i]; break; }
  if (!claim) return null;
  const plays = [];
  for (let j = i - 1; j >= 0; j--) {
    const ev = log[j].ev;
    if (ev.type === "round_start" || ev.type === "claimed") break;
    if (ev.type === "played") plays.unshift([ev.seat, ev.card]);
  }
  return { plays, claim: claim.ev, seq: claim.seq };
}

export function prompt({ view: v }) {
  if (v.phase === "hire") return `Hire a crew member (pick ${v.pick} of 9): the rest of your hand passes left.`;
  if (v.phase === "hunt") return `Play a crew card for round ${v.round} of 7: the highest card claims the dragon.`;
  return null;
}

export function board(ctx) {
  const { view: v, comp, names, seat } = ctx;
  const hire = v.phase === "hire";
  const lair = h("div", { class: "sd-lair" },
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Face-up dragon"),
      v.face_up ? dragonCard(comp, v.face_up, true) : h("div", { class: "card empty" }, "none")),
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Lair"), h("div", { class: "card back" }, `${v.lair}`)),
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, "Draw pile"), h("div", { class: "card back crewback" }, `${v.pile}`)),
    h("div", { class: "scoring-cards" }, Object.entries(v.scoring_cards).map(([sym, side]) => scoringCard(comp, sym, side))),
  );
  const status = hire
    ? `Hiring Crew: pick ${v.pick} of 9. Pick a card; the rest of your hand passes left.`
    : v.phase === "hunt" ? `Dragon Hunt: round ${v.round} of 7, started by ${names[v.starter]}.` : v.phase_name;
  let round = null;
  if (v.this_round.length) {
    round = h("div", { class: "sd-round" }, h("h3", { class: "small" }, `This round (${v.this_round.length} of ${names.length} played)`),
      h("div", { class: "cards trick" }, v.this_round.map(([s, c]) => h("figure", { class: "played" }, crewCard(comp, c, { k: `round-${v.round}-${s}` }), h("figcaption", { class: `p${s}` }, names[s])))));
  } else if (v.phase === "hunt" || v.over) {
    const last = lastRound(ctx.log || []);
    if (last) {
      const d = comp.dragons[last.claim.dragon - 1];
      round = h("div", { class: "sd-round last" }, h("h3", { class: "small" }, "Last round"),
        h("div", { class: "cards trick" }, last.plays.map(([s, c]) => h("figure", { class: ["played", s === last.claim.winner && "took"] },
          crewCard(comp, c, { k: `last-${last.seq}-${s}` }), h("figcaption", { class: `p${s}` }, names[s])))),
        h("p", { class: "took-line", dataset: { k: `took-${last.seq}` } }, h("strong", {}, names[last.claim.winner]), ` wins the round with ${last.claim.card} and claims `,
          d ? `the dragon of ${d.points} points` : "a dragon", "."));
    }
  }
  const ships = h("div", { class: "sd-ships" }, names.map((name, s) => h("div", { class: ["ship", `p${s}`, s === seat && "me"], dataset: { seat: String(s) } },
    h("div", { class: "ship-head" }, h("strong", {}, name), s === seat ? " (you)" : "",
      h("span", { class: "small muted" }, ` · ${v.hand_sizes[s]} in hand${hire ? ` · ${v.pick_counts[s]} hired` : ""}`)),
    h("div", { class: "hull" },
      v.shields[s] ? h("span", { class: "shields", dataset: { info: `${v.shields[s]} shields`, k: `sh-${s}` } }, Array.from({ length: Math.min(v.shields[s], 10) }, () => icon("shield", "shield")), ` ${v.shields[s]}`) : null,
      v.damage[s] ? h("span", { class: "dmg", dataset: { info: `${v.damage[s]} damage`, k: `dmg-${s}` } }, Array.from({ length: Math.min(v.damage[s], 10) }, () => icon("damage", "damage")), ` ${v.damage[s]}`) : null,
      !v.shields[s] && !v.damage[s] ? h("span", { class: "muted small" }, "no shields, no damage") : null),
    h("div", { class: "claimed", dataset: { k: `claimed-${s}`, v: String(v.claimed[s].length) } }, v.claimed[s].map((d) => dragonCard(comp, d))),
    h("div", { class: "tally small" },
      SYMBOLS.map(([sym, icon]) => h("span", { class: `sym ${sym}`, title: sym }, `${icon} ${v.symbols[sym][s]} `)),
      h("span", { dataset: { info: "points on crew and dragons so far", k: `pts-${s}` } }, ` · ${v.card_points[s]} pts`)),
    v.played[s].length ? h("div", { class: "crew-played small" }, "crew: ", v.played[s].join(", ")) : null)));
  const mine = [];
  if (seat !== null && seat !== undefined && v.hand) {
    const verb = hire ? "hire" : "play";
    mine.push(h("section", { class: "hand", "aria-label": "your hand" },
      h("h3", { class: "small" }, hire ? "Your hand: choose a card to hire" : "Your hand"),
      h("div", { class: "cards" }, v.hand.map((c) => {
        const a = `${verb} ${c}`;
        const chosen = v.my_choice === a;
        if (ctx.can(a)) return ctx.button(a, crewFace(comp, c), { class: "card crew", "aria-label": ctx.label(a), info: `${hire ? "Hire" : "Play"} ${crewWords(comp.crew[c - 1])}` });
        return crewCard(comp, c, { class: chosen && "chosen" });
      }))));
    if (v.picks && v.picks.length) {
      mine.push(h("section", { class: "picks" }, h("h3", { class: "small" }, "Crew hired so far"),
        h("div", { class: "cards small-cards" }, v.picks.map((c) => crewCard(comp, c)))));
    }
  }
  return h("div", { class: "space-dragons" },
    h("p", { class: "phase-line" }, status), lair, round, mine, ships,
    h("p", { class: "legend small muted" }, Object.entries(EFFECTS).map(([e, t]) => h("span", { class: `fx ${e}` }, icon(e, t), ` ${t.split(":")[0]}  `)),
      SYMBOLS.map(([n, i]) => `${i} ${n}  `)));
}
