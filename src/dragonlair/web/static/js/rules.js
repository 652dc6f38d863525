// "/rules/{game}": a game's rules at a glance, readable from the lobby before any table
// exists. The text is the game's own players' rules (GET /api/games/{id}/rules, the
// manifest's player_rules.md or player_rules.de.md, the same text the table's Rules
// dialog and the terminal's "?" show), in the page's language: the game's summary and its
// sections listed first, then every section under its heading.
import { getJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { markdown } from "./markdown.js";

/** The rules text cut at its "## " headings: the part before the first, then each
 * section's heading and text. */
export function sections(text) {
  const out = [{ title: null, body: [] }];
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const head = line.match(/^##\s+(.*?)\s*#*$/);
    if (head) out.push({ title: head[1], body: [] });
    else if (!/^#\s/.test(line)) out[out.length - 1].body.push(line); // the title is the page's
  }
  return out.filter((s) => s.title !== null || s.body.join("").trim());
}

export async function rulesPage(root, gameId) {
  fill(root, h("p", { class: "muted" }, t("Loading the rules…")));
  const lang = document.documentElement.lang || "en";
  let r, g;
  try {
    [r, g] = await Promise.all([
      getJSON(`/api/games/${encodeURIComponent(gameId)}/rules?lang=${lang}`),
      getJSON(`/api/games/${encodeURIComponent(gameId)}`),
    ]);
  } catch (e) {
    fill(root, h("div", { class: "panel" }, h("h1", {}, t("No such game")),
      h("p", { class: "error" }, errorText(e.code, e.message)),
      h("p", {}, h("a", { href: "/", class: "button primary" }, t("Back to the lobby")))));
    return;
  }
  document.title = `${r.name}: ${t("rules at a glance")}: dragonlair`;
  fill(document.getElementById("topbar-info"), h("strong", {}, r.name));
  const parts = sections(r.text || "");
  const anchor = (i) => `rules-part-${i}`;
  fill(root, h("article", { class: "panel rules-page", id: "rules-page", dataset: { game: r.id } },
    h("h1", {}, t("{game}: the rules at a glance", { game: r.name })),
    h("p", { class: "rules-summary" }, h("strong", {}, r.summary), " ",
      h("span", { class: "muted" }, t("{low}–{high} players", { low: g.min_players, high: g.max_players }))),
    h("nav", { class: "rules-contents", "aria-label": t("Contents") },
      h("ol", {}, parts.filter((p) => p.title).map((p) => h("li", {},
        h("a", { href: `#${anchor(parts.indexOf(p))}` }, p.title))))),
    parts.map((p, i) => h("section", { class: "rules-part", id: anchor(i) },
      p.title ? h("h2", {}, p.title) : null,
      markdown(p.body.join("\n")))),
    h("p", { class: "rules-back" }, h("a", { href: "/", class: "button primary", id: "rules-play" }, t("To the lobby: play {game}", { game: r.name })))));
}
