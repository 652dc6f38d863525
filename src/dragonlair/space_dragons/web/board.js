// Space Dragons on the table: the face-up dragon on the lair, the three scoring cards,
// this round's crew cards, every ship with its shields and damage, claimed dragons and
// crew, and your hand of crew cards (the buttons: hire or play).
import { h } from "/static/js/dom.js";
import { N_, t, tn } from "/static/js/i18n.js";
import { icon } from "/static/js/icons.js";

/** The board's style sheet, beside it in the package; the page loads it (dom.js boardStyle). */
export const style = new URL("board.css", import.meta.url).href;

export const EFFECTS = {
  shield: N_("shield: tuck a card under your ship"),
  tool: N_("tool: repair a damage"),
  damage: N_("damage to your ship"),
  crosshair: N_("crosshair: hits the round's highest card"),
};
export const SYMBOLS = [["science", "⚛"], ["mood", "♥"], ["crime", "☠"]];

function symbols(counts) {
  return h("span", { class: "symbols" }, SYMBOLS.map(([name, icon], k) =>
    counts[k] ? Array.from({ length: counts[k] }, () => h("span", { class: `sym chip ${name}`, "aria-label": t(name) }, icon)) : null));
}

/** A crew card in words: what it does when played, its symbols and points. */
export function crewWords(c) {
  if (!c) return "";
  const fx = c.effects.length ? c.effects.map((e) => (EFFECTS[e] ? t(EFFECTS[e]) : e)).join(t("; then ")) : t("no effect");
  const sym = SYMBOLS.map(([name], k) => (c.symbols[k] ? `${t(name)} ${c.symbols[k]}` : null)).filter(Boolean).join(", ");
  return `${c.number}: ${fx}.${sym ? ` ${t("Symbols:")} ${sym}.` : ""}${c.points ? ` ${tn("{n} point.", "{n} points.", c.points, { n: (c.points > 0 ? "+" : "") + c.points })}` : ""}`;
}

function dragonWords(d) {
  const sym = SYMBOLS.map(([name], k) => (d.symbols[k] ? `${t(name)} ${d.symbols[k]}` : null)).filter(Boolean).join(", ");
  return `${tn("A dragon: {n} point", "A dragon: {n} points", d.points)}${sym ? `; ${t("symbols:")} ${sym}` : ""}.`;
}

/** A dragon as its face shows it: its points and its symbols ("the dragon of 11 points"). */
export function dragonName(comp, id) {
  const d = (comp.dragons || [])[Number(id) - 1];
  if (!d) return t("a dragon");
  const sym = SYMBOLS.map(([name], k) => (d.symbols[k] ? `${t(name)} ${d.symbols[k]}` : null)).filter(Boolean).join(", ");
  const base = tn("the dragon of {n} point", "the dragon of {n} points", d.points);
  return sym ? `${base} (${sym})` : base;
}

/** A value of an event in the log as the cards' faces name it (table.js eventText): a
 * dragon by its points and symbols (dragons carry no number); crew cards are numbered. */
export function eventValue(field, value, ev, comp) {
  if (field === "label" && Number.isInteger(ev.dragon)) return dragonName(comp, ev.dragon);
  return undefined;
}

/** What hiring or playing a crew card does, from its printed face, in the page's language. */
export function label(action, comp) {
  const [verb, n] = action.split(" ");
  const c = (comp.crew || [])[Number(n) - 1];
  if (!c) return null;
  const card = crewWords(c).replace(/\.$/, "");
  if (verb === "hire") return t("Hire: {card}", { card });
  if (verb === "play") return t("Play: {card}", { card });
  return null;
}

/** The face of crew card ``n``: number, effects in order, symbols and points. */
export function crewFace(comp, n) {
  const c = comp.crew[n - 1];
  if (!c) return h("span", { class: "num" }, String(n));
  return [
    h("span", { class: "top" }, h("span", { class: "num" }, String(n)),
      c.points ? h("span", { class: ["pts", c.points > 0 ? "plus" : "minus"] }, `${c.points > 0 ? "+" : ""}${c.points}`) : null),
    h("span", { class: "effects" }, c.effects.map((e) => h("span", { class: `fx ${e}` }, icon(e, t(EFFECTS[e]))))),
    symbols(c.symbols),
  ];
}

function crewCard(comp, n, extra = {}) {
  const c = comp.crew[n - 1];
  return h("div", { class: ["card", "crew", extra.class], dataset: { card: String(n), info: crewWords(c), k: extra.k } }, crewFace(comp, n));
}

function dragonCard(comp, id, big = false) {
  const d = comp.dragons[id - 1];
  if (!d) return h("div", { class: "card dragon" }, t("dragon {n}", { n: id }));
  return h("div", { class: ["card", "dragon", big && "big"], dataset: { dragon: String(id), info: dragonWords(d), k: big ? "face-up" : null } },
    h("span", { class: "dragon-art", "aria-hidden": "true" }, "🐉"),
    h("span", { class: "pts" }, `${d.points}`),
    symbols(d.symbols));
}

function scoringCard(comp, symbol, side) {
  const awards = comp.awards ? comp.awards[symbol][side === "b" ? 1 : 0] : [];
  const icon = SYMBOLS.find(([n]) => n === symbol)[1];
  return h("div", { class: `card scoring ${symbol}`, dataset: { info: t("{symbol} scoring card, side {side}: at the end, {awards}", { symbol: t(symbol), side: side.toUpperCase(), awards: awards.map(([rank, pts]) => `${t(rank)} ${pts > 0 ? "+" : ""}${pts}`).join(", ") }) } },
    h("span", { class: "head" }, `${icon} ${t(symbol)} `, h("b", {}, side.toUpperCase())),
    h("ul", {}, awards.map(([rank, pts]) => h("li", {}, `${t(rank)}: ${pts > 0 ? "+" : ""}${pts}`))));
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
  if (v.phase === "hire") return t("Hire a crew member (pick {pick} of 9): the rest of your hand passes left.", { pick: v.pick });
  if (v.phase === "hunt") return t("Play a crew card for round {round} of 7: the highest card claims the dragon.", { round: v.round });
  return null;
}

export function board(ctx) {
  const { view: v, comp, names, seat } = ctx;
  const hire = v.phase === "hire";
  const lair = h("div", { class: "sd-lair" },
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, t("Face-up dragon")),
      v.face_up ? dragonCard(comp, v.face_up, true) : h("div", { class: "card empty" }, t("none"))),
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, t("Lair")), h("div", { class: "card back" }, `${v.lair}`)),
    h("div", { class: "pile-box" }, h("span", { class: "label small" }, t("Draw pile")), h("div", { class: "card back crewback" }, `${v.pile}`)),
    h("div", { class: "scoring-cards", dataset: { part: "scoring" } }, Object.entries(v.scoring_cards).map(([sym, side]) => scoringCard(comp, sym, side))),
  );
  const status = hire
    ? t("Hiring Crew: pick {pick} of 9. Pick a card; the rest of your hand passes left.", { pick: v.pick })
    : v.phase === "hunt" ? t("Dragon Hunt: round {round} of 7, started by {name}.", { round: v.round, name: names[v.starter] }) : t(v.phase_name);
  let round = null;
  if (v.this_round.length) {
    round = h("div", { class: "sd-round", dataset: { part: "trick" } }, h("h3", { class: "small" }, t("This round ({n} of {all} played)", { n: v.this_round.length, all: names.length })),
      h("div", { class: "cards trick" }, v.this_round.map(([s, c]) => h("figure", { class: "played" }, crewCard(comp, c, { k: `round-${v.round}-${s}` }), h("figcaption", { class: `p${s}` }, names[s])))));
  } else if (v.phase === "hunt" || v.over) {
    const last = lastRound(ctx.log || []);
    if (last) {
      const d = comp.dragons[last.claim.dragon - 1];
      round = h("div", { class: "sd-round last", dataset: { part: "trick" } }, h("h3", { class: "small" }, t("Last round")),
        h("div", { class: "cards trick" }, last.plays.map(([s, c]) => h("figure", { class: ["played", s === last.claim.winner && "took"] },
          crewCard(comp, c, { k: `last-${last.seq}-${s}` }), h("figcaption", { class: `p${s}` }, names[s])))),
        h("p", { class: "took-line", dataset: { k: `took-${last.seq}` } }, h("strong", {}, names[last.claim.winner]), " ",
          d ? t("wins the round with {card} and claims the dragon of {points} points.", { card: last.claim.card, points: d.points })
            : t("wins the round with {card} and claims a dragon.", { card: last.claim.card })));
    }
  }
  const ships = h("div", { class: "sd-ships" }, names.map((name, s) => h("div", { class: ["ship", `p${s}`, s === seat && "me"], dataset: { seat: String(s), part: `ship-${s}` } },
    h("div", { class: "ship-head" }, h("strong", {}, name), s === seat ? ` ${t("(you)")}` : "",
      h("span", { class: "small muted" }, ` · ${t("{n} in hand", { n: v.hand_sizes[s] })}${hire ? ` · ${t("{n} hired", { n: v.pick_counts[s] })}` : ""}`)),
    h("div", { class: "hull" },
      v.shields[s] ? h("span", { class: "shields", dataset: { info: tn("{n} shield", "{n} shields", v.shields[s]), k: `sh-${s}` } }, Array.from({ length: Math.min(v.shields[s], 10) }, () => icon("shield", t("shield"))), ` ${v.shields[s]}`) : null,
      v.damage[s] ? h("span", { class: "dmg", dataset: { info: tn("{n} damage", "{n} damage", v.damage[s]), k: `dmg-${s}` } }, Array.from({ length: Math.min(v.damage[s], 10) }, () => icon("damage", t("damage"))), ` ${v.damage[s]}`) : null,
      !v.shields[s] && !v.damage[s] ? h("span", { class: "muted small" }, t("no shields, no damage")) : null),
    h("div", { class: "claimed", dataset: { k: `claimed-${s}`, v: String(v.claimed[s].length) } }, v.claimed[s].map((d) => dragonCard(comp, d))),
    h("div", { class: "tally small" },
      SYMBOLS.map(([sym, icon]) => h("span", { class: `sym ${sym}`, title: t(sym) }, `${icon} ${v.symbols[sym][s]} `)),
      h("span", { dataset: { info: t("points on crew and dragons so far"), k: `pts-${s}` } }, ` · ${t("{n} pts", { n: v.card_points[s] })}`)),
    v.played[s].length ? h("div", { class: "crew-played small" }, t("crew:"), " ", v.played[s].join(", ")) : null)));
  const mine = [];
  if (seat !== null && seat !== undefined && v.hand) {
    const verb = hire ? "hire" : "play";
    mine.push(h("section", { class: "hand", "aria-label": t("your hand"), dataset: { part: "hand" } },
      h("h3", { class: "small" }, hire ? t("Your hand: choose a card to hire") : t("Your hand")),
      h("div", { class: "cards" }, v.hand.map((c) => {
        const a = `${verb} ${c}`;
        const chosen = v.my_choice === a;
        if (ctx.can(a)) return ctx.button(a, crewFace(comp, c), { class: "card crew", "aria-label": ctx.label(a), info: `${hire ? t("Hire") : t("Play")} ${crewWords(comp.crew[c - 1])}` });
        return crewCard(comp, c, { class: chosen && "chosen" });
      }))));
    if (v.picks && v.picks.length) {
      mine.push(h("section", { class: "picks", dataset: { part: "picks" } }, h("h3", { class: "small" }, t("Crew hired so far")),
        h("div", { class: "cards small-cards" }, v.picks.map((c) => crewCard(comp, c)))));
    }
  }
  return h("div", { class: "space-dragons" },
    h("p", { class: "phase-line" }, status), lair, round, mine, ships,
    h("p", { class: "legend small muted" }, Object.entries(EFFECTS).map(([e, text]) => h("span", { class: `fx ${e}` }, icon(e, t(text)), ` ${t(text).split(":")[0]}  `)),
      SYMBOLS.map(([n, i]) => `${i} ${t(n)}  `)));
}
