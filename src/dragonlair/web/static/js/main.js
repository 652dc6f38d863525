// The page's entry point: "/" is the lobby, "/play/{table}" a seat (its token after "#"),
// "/watch/{table}" a spectator (the watch token after "#", or none at a listed table),
// "/account" signing in and out (account.js), "/rules/{game}" a game's rules (rules.js).
// The page's words are loaded first (i18n.js), and every page has the language switch.
import { accountLink, accountPage } from "./account.js";
import { languageSwitch, loadStrings, t } from "./i18n.js";
import { lobby } from "./lobby.js";
import { rulesPage } from "./rules.js";
import { tablePage } from "./table.js";

await loadStrings();
document.querySelector(".topbar").append(accountLink(), languageSwitch());
const skip = document.querySelector(".skip");
if (skip) skip.textContent = t("Skip to the game");

const root = document.getElementById("app");
const m = location.pathname.match(/^\/(play|watch)\/([A-Za-z0-9_-]{1,32})\/?$/);
if (m) {
  // "#seat=N": a seat of the signed-in account (account.js's "my games"), without a token
  const own = location.hash.match(/^#seat=(\d{1,2})$/);
  const token = own ? "" : decodeURIComponent(location.hash.slice(1));
  tablePage(root, { mode: m[1], table: m[2], token, seat: own ? Number(own[1]) : null });
} else if (/^\/account\/?$/.test(location.pathname)) {
  accountPage(root);
} else if (/^\/rules\/[a-z0-9-]{1,40}\/?$/.test(location.pathname)) {
  rulesPage(root, location.pathname.split("/")[2]);
} else {
  lobby(root);
}
