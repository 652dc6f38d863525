// A game's leaderboard, "/leaderboard/{game}?page=N" (GET /api/ratings/{game}, settled
// ratings only): rank, player (an account links to its profile, a bot level is marked),
// the cautious estimate that orders the board and mu ± sigma, rated games; 25 a page.
// Provisional ratings are left out, and the page says how many and why.
import { getJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { errorText, t, tn } from "./i18n.js";
import { botName, leaderboardHref, profileHref } from "./profile.js";

export const PAGE = 25;

function pageHref(game, page) {
  return page > 1 ? `${leaderboardHref(game)}?page=${page}` : leaderboardHref(game);
}

function playerCell(p) {
  if (p.bot) return h("td", { class: "player" }, h("span", { class: "bot-name" }, botName(p.player.slice(4))));
  return h("td", { class: "player" }, h("a", { href: profileHref(p.name) }, p.name));
}

function boardTable(players) {
  return h("table", { class: "leaderboard" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num" }, "#"),
      h("th", { scope: "col" }, t("Player")),
      h("th", { scope: "col", class: "num" }, t("Rating")),
      h("th", { scope: "col", class: "num wide" }, t("Mean ± uncertainty")),
      h("th", { scope: "col", class: "num" }, t("Games")))),
    h("tbody", {}, players.map((p) => h("tr", { class: p.bot ? "is-bot" : null },
      h("td", { class: "num" }, String(p.rank)),
      playerCell(p),
      h("td", { class: "num" }, h("strong", {}, p.ordinal.toFixed(1))),
      h("td", { class: "num wide" }, `${p.mu.toFixed(1)} ± ${p.sigma.toFixed(1)}`),
      h("td", { class: "num" }, String(p.games))))));
}

function pager(game, page, pages) {
  if (pages <= 1) return null;
  return h("nav", { class: "pager", "aria-label": t("Pages") },
    page > 1 ? h("a", { class: "button", href: pageHref(game, page - 1), rel: "prev" }, t("Previous")) : null,
    h("span", {}, t("Page {page} of {pages}", { page, pages })),
    page < pages ? h("a", { class: "button", href: pageHref(game, page + 1), rel: "next" }, t("Next")) : null);
}

/** The leaderboard page of ``game`` (the first game when none is named). */
export async function leaderboardPage(root, game) {
  document.title = `dragonlair: ${t("Leaderboard")}`;
  fill(document.getElementById("topbar-info"), t("Leaderboard"));
  fill(root, h("p", { class: "muted" }, t("Loading…")));
  let games;
  try {
    games = await getJSON("/api/games");
  } catch (e) {
    fill(root, h("p", { class: "form-error", role: "alert" }, errorText(e.code, e.message)));
    return;
  }
  game = game || games[0].id;
  const page = Math.max(1, Math.min(100000, parseInt(new URLSearchParams(location.search).get("page"), 10) || 1));
  const tabs = h("nav", { class: "board-games", "aria-label": t("Games") }, games.map((g) =>
    h("a", { href: leaderboardHref(g.id), class: ["button", g.id === game && "primary"], "aria-current": g.id === game ? "page" : null }, t(g.name))));
  let data;
  try {
    data = await getJSON(`/api/ratings/${encodeURIComponent(game)}?provisional=false&limit=${PAGE}&offset=${(page - 1) * PAGE}`);
  } catch (e) {
    fill(root, h("section", { class: "board-page" }, tabs, h("p", { class: "form-error", role: "alert" }, errorText(e.code, e.message))));
    return;
  }
  document.title = `dragonlair: ${t("Leaderboard")}: ${t(data.name)}`;
  const pages = Math.max(1, Math.ceil(data.total / PAGE));
  const sigma = data.provisional_sigma.toFixed(1);
  fill(root,
    h("section", { class: "board-page" },
      tabs,
      h("div", { class: "panel" },
        h("h1", {}, t("Leaderboard: {game}", { game: t(data.name) })),
        h("p", { class: "muted" }, t("Ordered by rating, the cautious estimate mu − 3 sigma of a player's strength; bots are rated players too, one per level.")),
        h("p", { class: "muted", id: "provisional-note" }, data.provisional_players
          ? tn("{n} player with a provisional rating is not listed yet: a rating settles once its uncertainty (±) falls below {sigma}.",
            "{n} players with a provisional rating are not listed yet: a rating settles once its uncertainty (±) falls below {sigma}.",
            data.provisional_players, { sigma })
          : t("Provisional ratings are not listed: a rating settles once its uncertainty (±) falls below {sigma}.", { sigma })),
        data.players.length
          ? boardTable(data.players)
          : h("p", { class: "muted" }, page > 1 ? t("There is no such page.") : t("No settled ratings in this game yet.")),
        pager(game, page, pages))));
}
