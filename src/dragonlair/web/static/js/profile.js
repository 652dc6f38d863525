// A player's public profile, "/players/{name}" (GET /api/players/{name}): the name, since
// when the account exists, per game the rating (as the account page shows it), games
// played to the end and won, the rating after each rated game as a small chart (an SVG
// drawn here, no chart library), and the newest finished games with their players, each
// linked to its page ("/games/{table}").
import { ApiError, getJSON } from "./api.js";
import { fill, h, s } from "./dom.js";
import { errorText, lang, t, tn } from "./i18n.js";

/** A player's profile page: the link every page uses to name an account. */
export function profileHref(name) {
  return `/players/${encodeURIComponent(name)}`;
}

/** A seat's name as text, a link to its account's profile when an account plays it
 * (``seat.profile``, the account's name: the seat's own name may differ); a guest's, a
 * bot's or an open seat's name stays plain text. ``attrs``: more of the link's. */
export function seatName(seat, text, attrs = {}) {
  return seat.profile ? h("a", { ...attrs, href: profileHref(seat.profile), class: "profile-link" }, text) : text;
}

/** A finished game's page (its result, scores and replay). */
export function gameHref(table) {
  return `/games/${encodeURIComponent(table)}`;
}

/** A game's leaderboard page. */
export function leaderboardHref(game) {
  return `/leaderboard/${encodeURIComponent(game)}`;
}

const day = (seconds) => new Date(seconds * 1000).toLocaleDateString(lang(), { year: "numeric", month: "long", day: "numeric" });
const when = (seconds) => new Date(seconds * 1000).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
const one = (x) => x.toFixed(1);

/** The rating line the account page shows: the cautious estimate, then mu ± sigma. */
export function ratingText(r) {
  return t("Rating {ordinal} ({mu} ± {sigma})", { ordinal: one(r.ordinal), mu: one(r.mu), sigma: one(r.sigma) });
}

const W = 420;
const H = 120;
const PAD = { left: 34, right: 8, top: 8, bottom: 16 };

/** The rating (its cautious estimate) before the first shown game and after each one, as
 * a line over the games in order; the y axis names its lowest and highest value. */
export function ratingChart(g) {
  const values = [g.start.ordinal, ...g.history.map((p) => p.ordinal)];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 1) { lo -= 0.5; hi += 0.5; }
  const x = (i) => PAD.left + (i * (W - PAD.left - PAD.right)) / Math.max(1, values.length - 1);
  const y = (v) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const last = values.length - 1;
  const label = t("Rating after each rated game: from {first} to {last} in {n} games", {
    first: one(values[0]), last: one(values[last]), n: g.history.length,
  });
  return s("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label },
    s("title", {}, label),
    s("line", { class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom }),
    s("line", { class: "axis", x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom }),
    s("text", { class: "tick", x: PAD.left - 4, y: y(hi) + 4, "text-anchor": "end" }, one(hi)),
    s("text", { class: "tick", x: PAD.left - 4, y: y(lo), "text-anchor": "end" }, one(lo)),
    s("text", { class: "tick", x: W - PAD.right, y: H - 3, "text-anchor": "end" }, tn("{n} rated game", "{n} rated games", g.history.length)),
    s("polyline", { class: "rating-line", points: line }),
    s("circle", { class: "rating-now", cx: x(last), cy: y(values[last]), r: 3.5 }));
}

function gamePanel(g) {
  const r = g.rating;
  return h("section", { class: "panel profile-game", dataset: { game: g.game } },
    h("div", { class: "profile-game-head" },
      h("h2", {}, t(g.title)),
      h("a", { href: leaderboardHref(g.game), class: "leaderboard-link" }, t("Leaderboard"))),
    r
      ? h("p", { class: "rating-line-text" },
        h("strong", { class: "rating" }, ratingText(r)),
        " ", r.provisional ? h("span", { class: "badge" }, t("provisional")) : null)
      : h("p", { class: "muted" }, t("Not rated in this game yet.")),
    h("p", { class: "profile-counts" },
      tn("{n} game played to the end", "{n} games played to the end", g.played), ", ",
      tn("{n} won", "{n} won", g.won),
      r ? [", ", tn("{n} rated game", "{n} rated games", r.games)] : null),
    g.history.length ? ratingChart(g) : null);
}

function placeText(g) {
  if (g.rank == null) return "";
  return t("place {rank} of {n}", { rank: g.rank, n: g.players.length });
}

function changeText(g) {
  if (!g.rated) return null;
  if (!g.counted) return h("span", { class: "muted", title: t("The same players met too often today: this game moved no rating.") }, t("rated, not counted"));
  if (g.change == null) return null;
  const sign = g.change > 0 ? "+" : g.change < 0 ? "−" : "±";
  return h("span", { class: g.change >= 0 ? "rating-up" : "rating-down" }, t("rated {change}", { change: `${sign}${one(Math.abs(g.change))}` }));
}

/** A bot level as leaderboards and profiles name it, in the page's language. */
export function botName(level) {
  return t("bot ({level})", { level: t(level) });
}

function playerLink(p) {
  if (p.bot) return h("span", { class: "bot-name" }, botName(p.level));
  if (p.profile) return h("a", { href: profileHref(p.profile) }, p.name);
  return h("span", {}, p.name);
}

function recentList(games) {
  if (!games.length) return h("p", { class: "muted" }, t("No finished games yet."));
  return h("ul", { class: "recent-games" }, games.map((g) =>
    h("li", { class: "recent-game", dataset: { table: g.table } },
      h("div", { class: "recent-head" },
        h("strong", {}, h("a", { href: gameHref(g.table), class: "game-link" }, t(g.title))),
        g.won ? h("span", { class: "badge won" }, t("won")) : null,
        h("span", {}, placeText(g)),
        changeText(g),
        h("span", { class: "muted" }, when(g.ended))),
      h("div", { class: "recent-players" },
        g.players.map((p, i) => [i ? ", " : "", playerLink(p)])))));
}

/** The profile page of the player ``name``. */
export async function profilePage(root, name) {
  document.title = `dragonlair: ${name}`;
  fill(document.getElementById("topbar-info"), t("Player"));
  fill(root, h("p", { class: "muted" }, t("Loading…")));
  let p;
  try {
    p = await getJSON(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    const text = e instanceof ApiError && e.code === "unknown_player" ? t("There is no player of that name.") : errorText(e.code, e.message);
    fill(root, h("section", { class: "profile-page" }, h("p", { class: "form-error", role: "alert" }, text),
      h("a", { class: "button", href: "/" }, t("Back to the lobby"))));
    return;
  }
  document.title = `dragonlair: ${p.name}`;
  fill(root,
    h("section", { class: "profile-page" },
      h("div", { class: "panel profile-head" },
        h("h1", {}, p.name),
        h("p", { class: "muted" }, t("Member since {date}", { date: day(p.since) }))),
      p.games.length ? h("div", { class: "profile-games" }, p.games.map(gamePanel)) : null,
      h("section", { class: "panel", id: "recent" },
        h("h2", {}, t("Recent games")),
        recentList(p.recent))));
}
