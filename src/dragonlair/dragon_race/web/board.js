// The Great Dragon Race on the table: the track as an SVG built from the board data (the
// Start Island, every spot, the watering holes, the shortcut's entry and exit arrows, the
// crossing where the track passes over itself, Ballista Bolts, Flaming Balls, the Finish)
// with every pawn, where a HALT! would put them back, each player's dragon and hand size,
// and your hand of cards (the buttons).
//
// Layout: the spots run along a figure of eight (a lemniscate of Gerono, spaced by arc
// length) placed so that the board's crossing falls where the curve crosses itself; a
// board without a crossing (or one the curve cannot place) runs around an oval. On a
// narrow screen the figure stands upright.
import { h, s } from "/static/js/dom.js";
import { t, tn, word } from "/static/js/i18n.js";

/** The board's style sheet, beside it in the package; the page loads it (dom.js boardStyle). */
export const style = new URL("board.css", import.meta.url).href;

export const keys = { p: "pass", s: "stop" };

const SAMPLES = 2400;

function curve(kind) {
  // unit curve points and cumulative arc length over one period
  const pts = [];
  for (let i = 0; i <= SAMPLES; i++) {
    const t = (2 * Math.PI * i) / SAMPLES;
    pts.push(kind === "eight" ? [Math.cos(t), Math.sin(2 * t) / 2] : [Math.cos(t), Math.sin(t) / 2]);
  }
  const len = [0];
  for (let i = 1; i <= SAMPLES; i++) {
    len.push(len[i - 1] + Math.hypot(pts[i][0] - pts[i - 1][0], (pts[i][1] - pts[i - 1][1])));
  }
  return { pts, len, total: len[SAMPLES] };
}

function at(c, u) {
  // the point at arc length u (mod total)
  const total = c.total;
  u = ((u % total) + total) % total;
  let lo = 0;
  let hi = SAMPLES;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (c.len[mid] <= u) lo = mid; else hi = mid;
  }
  const f = (u - c.len[lo]) / (c.len[hi] - c.len[lo] || 1);
  return [c.pts[lo][0] + f * (c.pts[hi][0] - c.pts[lo][0]), c.pts[lo][1] + f * (c.pts[hi][1] - c.pts[lo][1])];
}

// How far apart the spots just before and after a crossing are pushed along the track (in
// spot spacings), so that the two passages' numbers never sit on top of each other.
const PUSH = 0.45;
const SPREAD = 2;

/** Where each spot 0..finish lies, in SVG units, for a board. */
export function layout(board, upright) {
  const F = board.finish;
  const L = F + Math.max(8, Math.round(F / 8)); // spots in a whole loop: a gap from Finish to Start
  let kind = "oval";
  let offset = 0; // arc length of spot 0
  const eight = curve("eight");
  const crossings = []; // spot positions (fractional) where the track passes the crossing
  if (board.crossing) {
    const mid = board.crossing[0] + 0.5;
    if (mid - L / 2 >= 0.5) {
      kind = "eight";
      // the curve crosses itself at a quarter and three quarters of its length; the
      // board's crossing is the second passage
      offset = (eight.total * 3) / 4 - (mid * eight.total) / L;
      crossings.push(mid - L / 2, mid);
    }
  }
  const c = kind === "eight" ? eight : curve("oval");
  if (kind === "oval") offset = c.total / 2 + (c.total * 0.5) / L; // start at the left end
  const W = 1000;
  const H = kind === "eight" ? 560 : 520;
  const place = ([x, y]) => {
    const px = W / 2 + x * (W / 2 - 50);
    const py = H / 2 + y * 2 * (H / 2 - 50);
    return upright ? [py, px] : [px, py];
  };
  const raw = (k) => place(at(c, offset + (k * c.total) / L));
  // spots near a crossing move away from it (a monotone warp: a gap at the crossing itself)
  const warp = (k) => {
    let u = k;
    for (const m of crossings) {
      const d = k - m;
      if (Math.abs(d) < 1e-9) continue;
      u += Math.sign(d) * PUSH * Math.exp(-((d / SPREAD) ** 2));
    }
    return u;
  };
  const spot = (k) => raw(warp(k));
  const spots = [];
  for (let k = 0; k <= F; k++) spots.push(spot(k));
  const path = [];
  const from = warp(0);
  const to = warp(F);
  for (let i = 0; i <= F * 4; i++) path.push(raw(from + ((to - from) * i) / (F * 4)));
  const centre = (k) => {
    const [x] = at(c, offset + (warp(k) * c.total) / L);
    return place(kind === "eight" ? [x > 0 ? 0.55 : -0.55, 0] : [0, 0]);
  };
  return { spots, path, width: upright ? H : W, height: upright ? W : H, centre, spot, raw, crossings };
}

const PAWN_COLOURS = ["#e0464e", "#3d7ee8", "#3bb56c", "#e8c43d", "#b05be0", "#e88a3d"];

export function track(v, comp, names, upright) {
  const b = comp.board;
  const lay = layout(b, upright);
  const holes = new Set(b.watering_holes);
  const bolts = new Set(b.ballista_bolts);
  const balls = new Set(b.flaming_balls);
  const line = (pts) => pts.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  const parts = [s("defs", {},
    s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" },
      s("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" })))];
  parts.push(s("path", { class: "track-road", d: line(lay.path) }));
  if (b.crossing) {
    // the later passage drawn again on top, as a bridge over the earlier one
    const m = b.crossing[0] + 0.5;
    const seg = [];
    for (let q = -6; q <= 6; q++) seg.push(lay.raw(m + q / 4));
    parts.push(s("path", { class: "track-bridge-edge", d: line(seg) }), s("path", { class: "track-road bridge", d: line(seg) }));
  }
  if (b.entry_arrow >= 0) {
    const e = b.entry_arrow;
    const x = b.exit_arrow;
    const [ax, ay] = lay.spots[e];
    const [bx, by] = lay.spots[x];
    const [cx, cy] = lay.centre((e + x) / 2);
    const mx = (ax + bx) / 2 + ((cx - (ax + bx) / 2) * 0.45);
    const my = (ay + by) / 2 + ((cy - (ay + by) / 2) * 0.45);
    parts.push(s("path", { class: "shortcut", d: `M${ax},${ay} Q${mx},${my} ${bx},${by}`, "marker-end": "url(#arrow)" },
      s("title", {}, t("shortcut: a pawn resting on spot {entry} counts its next move from spot {exit}", { entry: e, exit: x }))));
  }
  lay.spots.forEach(([x, y], k) => {
    let cls = "spot";
    let mark = String(k);
    let title = t("spot {n}", { n: k });
    let r = 14;
    if (k === b.start) { cls += " start"; mark = t("Start"); title = t("the Start Island"); r = 28; }
    else if (k === b.finish) { cls += " finish"; mark = t("Finish"); title = t("the Finish"); r = 28; }
    else if (holes.has(k)) { cls += " hole"; title = t("spot {n}: a watering hole (safe from specials)", { n: k }); r = 17; }
    else if (bolts.has(k)) { cls += " bolt"; title = t("spot {n}: a Ballista Bolt (discard a random card)", { n: k }); }
    else if (balls.has(k)) { cls += " ball"; title = t("spot {n}: a Flaming Ball (discard a random card)", { n: k }); }
    if (k === b.entry_arrow) { cls += " entry"; mark = "↱"; title += ", " + t("the shortcut's entry arrow"); }
    if (k === b.exit_arrow) { cls += " exit"; mark = "↳"; title += ", " + t("the shortcut's exit arrow"); }
    parts.push(s("g", { class: cls, "data-spot": k, "data-part": `spot-${k}`, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` },
      s("title", {}, title),
      s("circle", { r }),
      s("text", { y: 5, "text-anchor": "middle" }, mark)));
  });
  // where a HALT! would put the pawns back
  if (v.turn_start && v.turn_start.some((p, i) => p !== v.pawns[i])) {
    v.turn_start.forEach((p, i) => {
      if (p === v.pawns[i]) return;
      const [x, y] = lay.spots[p];
      parts.push(s("circle", { class: "ghost", cx: x, cy: y, r: 20, stroke: PAWN_COLOURS[i % 6] }, s("title", {}, t("{name} began the turn here", { name: names[i] }))));
    });
  }
  const bySpot = new Map();
  v.pawns.forEach((p, i) => bySpot.set(p, [...(bySpot.get(p) || []), i]));
  for (const [p, seats] of bySpot) {
    const [x, y] = lay.spots[p];
    const lift = p === b.start || p === b.finish ? 34 : 22;
    seats.forEach((i, j) => {
      const px = x + (j - (seats.length - 1) / 2) * 22;
      const py = y - lift;
      parts.push(s("g", { class: ["pawn", i === v.active && "active"], "data-pawn": i, "data-k": `pawn-${i}`, "data-v": String(p), transform: `translate(${px.toFixed(1)},${py.toFixed(1)})` },
        s("title", {}, `${names[i]}: ${t("spot {n}", { n: p })}`),
        s("circle", { r: 12, fill: PAWN_COLOURS[i % 6] }),
        s("text", { y: 5, "text-anchor": "middle" }, String(i + 1))));
    });
  }
  return s("svg", {
    class: "race-track", "data-upright": upright ? "1" : "0", viewBox: `0 0 ${lay.width} ${lay.height}`, role: "img",
    "aria-label": t("the track:") + " " + v.pawns.map((p, i) => t("{name} on spot {n}", { name: names[i], n: p })).join(", "),
  }, parts);
}

function cardFace(comp, id) {
  const c = comp.cards[id - 1];
  if (!c) return String(id);
  if (c.kind === "number") return [h("span", { class: "value" }, String(c.value)), c.insignia ? h("span", { class: "insignia" }, c.insignia) : null];
  if (c.kind === "halt") return [h("span", { class: "halt" }, "HALT!"), h("span", { class: "value small-value" }, String(c.value))];
  return h("span", { class: "special" }, c.name);
}

function raceCard(comp, id, cls) {
  const c = comp.cards[id - 1];
  return h("div", { class: ["card", "race", c && c.kind, cls], dataset: { card: String(id), info: c ? c.text : String(id) } }, cardFace(comp, id));
}

/** HALT! is loud, letting it stand is quiet. */
export function tone(action) {
  if (action.startsWith("halt ")) return "danger";
  if (action === "pass" || action === "stop") return "quiet";
  return null;
}

export function short(action, ctx) {
  const parts = action.split(" ");
  const name = (id) => cardName(ctx.comp, id);
  const seatName = (n) => ctx.names[n] ?? t("seat {n}", { n: n + 1 });
  if (parts[0] === "blow") return `${name(parts[1])} → ${seatName(Number(parts[2]))}`;
  if (parts[0] === "steal") return t("Steal from {name}", { name: seatName(Number(parts[1])) });
  if (parts[0] === "triple") return t("Three of a kind: {cards}", { cards: parts.slice(1).map(name).join(", ") });
  if (action === "stop") return t("Stop (end your turn)");
  if (action === "pass") return t("Let it stand");
  if (action.startsWith("halt ")) {
    const c = ctx.comp.cards[Number(action.split(" ")[1]) - 1];
    return c ? t("HALT! (discard {card})", { card: c.name }) : t("HALT! (discard a HALT! card)");
  }
  return null;
}

/** A card by its printed face ("6 (C)", "HALT! 1", "Tornado!"), as the hand shows it. */
export function cardName(comp, id) {
  const c = (comp.cards || [])[Number(id) - 1];
  return c ? c.name : t("card {n}", { n: id });
}

/** A value of an event in the log, named the way the cards' faces are (table.js
 * eventText): a card id as its face, a list of them as their faces. */
export function eventValue(field, value, ev, comp) {
  if (field === "card" && Number.isInteger(value)) return cardName(comp, value);
  if (field === "cards" && Array.isArray(value) && value.every(Number.isInteger)) return value.length ? value.map((id) => cardName(comp, id)).join(", ") : t("none");
  return undefined;
}

/** What the last play was, in a few words: the card by its face and, for a blow, whose pawn. */
function playWords(action, comp, names) {
  const parts = String(action || "").split(" ");
  if (parts[0] === "play") return cardName(comp, parts[1]);
  if (parts[0] === "blow") return t("{card} on {name}", { card: cardName(comp, parts[1]), name: names[Number(parts[2])] ?? parts[2] });
  if (parts[0] === "triple") return t("three of a kind ({cards})", { cards: parts.slice(1).map((id) => cardName(comp, id)).join(", ") });
  if (parts[0] === "steal") return t("a steal from {name}", { name: names[Number(parts[1])] ?? parts[1] });
  return action || "";
}

/** In a HALT! window: what happened this turn (who played what, which pawns it moved),
 * then the question. */
export function prompt({ view: v, legal, names, catalog }) {
  if (!v.window) return null;
  const who = v.active >= 0 ? names[v.active] : t("The player");
  const play = v.last ? playWords(v.last, catalog.components, names) : null;
  const moved = (v.turn_start || []).map((from, i) => (from !== v.pawns[i] ? t("{name} from spot {from} to {to}", { name: names[i], from, to: v.pawns[i] }) : null)).filter(Boolean);
  const moves = moved.length ? moved.join("; ") : t("no pawn has moved");
  const what = play ? t("{name} played {play} · this turn: {moves}.", { name: who, play, moves }) : t("{name} played · this turn: {moves}.", { name: who, moves });
  const ask = legal.length === 1 && legal[0] === "pass" ? t("You hold no HALT! card, so it stands.")
    : t("Call HALT! to cancel the whole turn (every pawn goes back), or let it stand?");
  return `${what} ${ask}`;
}

// where each pawn was last drawn, to walk it along the track step by step
let lastPawns = null;
let lastTable = null;

/** Walk the pawns that moved along the spots between where they were and where they are. */
export function after(el, ctx, animate) {
  const v = ctx.view;
  const key = `${ctx.catalog.game}:${v.pawns.length}`;
  const before = lastTable === key ? lastPawns : null;
  lastPawns = [...v.pawns];
  lastTable = key;
  if (!before || !animate) return;
  const svg = el.querySelector("svg.race-track");
  if (!svg) return;
  const lay = layout(ctx.comp.board, svg.dataset.upright === "1");
  v.pawns.forEach((p, i) => {
    const q = before[i];
    if (q === p || q === undefined) return;
    const g = svg.querySelector(`g.pawn[data-pawn="${i}"]`);
    if (!g) return;
    const steps = [];
    const dir = p > q ? 1 : -1;
    for (let k = q; k !== p + dir && steps.length < 40; k += dir) steps.push(k);
    const end = g.getAttribute("transform");
    const frames = steps.map((k) => {
      const [x, y] = lay.spots[k];
      return { transform: `translate(${x.toFixed(1)}px, ${(y - 22).toFixed(1)}px)` };
    });
    frames[frames.length - 1] = { transform: end.replace(/translate\(([-\d.]+),([-\d.]+)\)/, "translate($1px, $2px)") };
    g.animate(frames, { duration: Math.min(2400, 170 * steps.length), easing: "linear" });
  });
}

export function board(ctx) {
  const { view: v, comp, names, seat } = ctx;
  const upright = window.matchMedia("(max-width: 640px)").matches;
  const chars = comp.characters || [];
  const active = v.active >= 0 ? names[v.active] : "";
  const line = v.over ? h("p", { class: "phase-line" }, t("The race is over after turn {turn}.", { turn: v.turn }))
    : h("p", { class: "phase-line" }, t("Turn {turn}", { turn: v.turn }), active ? ` · ${t("{name} is playing", { name: active })}` : "",
      v.last ? ` · ${t("last play: {play}", { play: playWords(v.last, comp, names) })}` : "", v.bonus ? ` · ${t("insignia bonus: another play")}` : "");
  const players = h("ul", { class: "race-players" }, names.map((n, i) => h("li", { class: [`p${i}`, i === seat && "me", i === v.active && "active"] },
    h("span", { class: "pawn-chip", style: { background: PAWN_COLOURS[i % 6] } }, String(i + 1)),
    h("strong", {}, n), i === seat ? ` ${t("(you)")}` : "",
    chars[i] ? h("span", { class: "small muted" }, ` · ${word(chars[i].name)} (${chars[i].insignia})`) : null,
    h("span", { class: "small" }, ` · ${t("spot {n}", { n: v.pawns[i] })} · ${tn("{n} card", "{n} cards", v.hand_sizes[i])}`),
    v.extra_draw[i] ? h("span", { class: "small warn" }, ` · ${t("draws 1 extra")}`) : null)));
  const mine = [];
  if (v.stolen !== null && v.stolen !== undefined) {
    const a = `play ${v.stolen}`;
    mine.push(h("section", { class: "stolen" }, h("h3", { class: "small" }, t("The stolen card")),
      ctx.can(a) ? ctx.button(a, cardFace(comp, v.stolen), { class: `card race ${(comp.cards[v.stolen - 1] || {}).kind}` }) : raceCard(comp, v.stolen)));
  }
  if (seat !== null && seat !== undefined && v.hand) {
    mine.push(h("section", { class: "hand", "aria-label": t("your hand"), dataset: { part: "hand" } }, h("h3", { class: "small" }, t("Your hand")),
      h("div", { class: "cards" }, v.hand.length ? v.hand.map((id) => {
        const a = `play ${id}`;
        const c = comp.cards[id - 1] || {};
        return ctx.can(a) ? ctx.button(a, cardFace(comp, id), { class: `card race ${c.kind}`, "aria-label": ctx.label(a) }) : raceCard(comp, id);
      }) : h("span", { class: "muted small" }, t("no cards")))));
  }
  const discards = v.discards.slice(-8);
  const piles = h("div", { class: "race-piles small" },
    h("span", {}, t("Draw pile: {n}", { n: v.draw_size })),
    h("span", {}, ` · ${t("Discards ({n}):", { n: v.discards.length })} `),
    h("span", { class: "discards", dataset: { k: "discards", v: String(v.discards.length) } }, discards.map((id) => raceCard(comp, id, "mini"))));
  return h("div", { class: "dragon-race" }, line, mine, h("div", { class: "track-box" }, track(v, comp, names, upright)),
    h("p", { class: "legend small muted" },
      [["hole", t("watering hole (safe from specials)")], ["bolt", t("Ballista Bolt")], ["ball", t("Flaming Ball")], ["entry", t("shortcut arrows")], ["ghost", t("where a HALT! puts a pawn back")]]
        .map(([cls, text]) => h("span", { class: "key" }, h("span", { class: `swatch ${cls}` }), text))),
    players, piles);
}
