// The page's entry point: "/" is the lobby, "/play/{table}" a seat (its token after "#"),
// "/watch/{table}" a spectator (the watch token after "#", or none at a listed table),
// "/account" signing in and out (account.js), "/admin" the operator's reports (admin.js),
// "/players/{name}" a player's profile (profile.js), "/leaderboard/{game}" a game's
// leaderboard (leaderboard.js), "/games/{table}" a finished game and its replay
// (gamepage.js), "/rules/{game}" a game's rules (rules.js).
// The page's words are loaded first (i18n.js), and every page has the language switch.
import { accountLink, accountPage } from "./account.js";
import { adminPage } from "./admin.js";
import { gamePage } from "./gamepage.js";
import { languageSwitch, loadStrings, t } from "./i18n.js";
import { leaderboardPage } from "./leaderboard.js";
import { lobby } from "./lobby.js";
import { profilePage } from "./profile.js";
import { rulesPage } from "./rules.js";
import { tablePage } from "./table.js";

await loadStrings();
document.querySelector(".topbar").append(accountLink(), languageSwitch());
const skip = document.querySelector(".skip");
if (skip) skip.textContent = t("Skip to the game");

const root = document.getElementById("app");
const m = location.pathname.match(/^\/(play|watch)\/([A-Za-z0-9_-]{1,32})\/?$/);
const player = location.pathname.match(/^\/players\/([^/]{1,200})\/?$/);
const board = location.pathname.match(/^\/leaderboard(?:\/([A-Za-z0-9_-]{1,64}))?\/?$/);
const decoded = (part) => { try { return decodeURIComponent(part); } catch { return part; } };
if (m) {
  // "#seat=N": a seat of the signed-in account (account.js's "my games"), without a token
  const own = location.hash.match(/^#seat=(\d{1,2})$/);
  const token = own ? "" : decodeURIComponent(location.hash.slice(1));
  tablePage(root, { mode: m[1], table: m[2], token, seat: own ? Number(own[1]) : null });
} else if (/^\/games\/[A-Za-z0-9_-]{1,32}\/?$/.test(location.pathname)) {
  gamePage(root, location.pathname.split("/")[2]);
} else if (/^\/account\/?$/.test(location.pathname)) {
  accountPage(root);
} else if (/^\/admin\/?$/.test(location.pathname)) {
  adminPage(root);
} else if (player) {
  profilePage(root, decoded(player[1]));
} else if (board) {
  leaderboardPage(root, board[1] || "");
} else if (/^\/rules\/[a-z0-9-]{1,40}\/?$/.test(location.pathname)) {
  rulesPage(root, location.pathname.split("/")[2]);
} else {
  lobby(root);
}
