// Accounts (docs/server.md, "Accounts"): optional. The top bar says who is signed in (or
// offers to sign in); "/account" signs up, in (with a password or a passkey, passkeys.js)
// and out, and deletes the account. The session
// is an HttpOnly cookie the page never sees: it only asks GET /api/account who it is.
// Signing up here makes the guest seats this browser remembers (lobby.js's "your games")
// the new account's, so they follow the player to every device they sign in on.
import { ApiError, getJSON, postJSON } from "./api.js";
import { fill, h, toast } from "./dom.js";
import { N_, errorText, lang, t, tn } from "./i18n.js";
import { myGames } from "./lobby.js";
import { passkeyError, passkeysPanel, passkeysWork, signInWithPasskey } from "./passkeys.js";
import { profileHref } from "./profile.js";

/** Who this browser's session signs in: {id, name}, or null for a guest. */
export async function whoAmI() {
  try {
    return (await getJSON("/api/account")).account;
  } catch {
    return null;
  }
}

/** The top bar's link to the account page: the player's name, or "Sign in". */
export function accountLink() {
  const link = h("a", { href: "/account", class: "account-link", id: "account-link" }, t("Sign in"));
  whoAmI().then((me) => {
    if (me) {
      link.textContent = me.name;
      link.title = t("Signed in as {name}", { name: me.name });
    }
  });
  return link;
}

/** The guest seats this browser holds (their tables and tokens), to claim at sign-up. */
function guestSeats() {
  const seats = [];
  for (const g of myGames()) {
    const hash = g.link.indexOf("#");
    if (hash < 0) continue;
    const token = decodeURIComponent(g.link.slice(hash + 1));
    if (token) seats.push({ table: g.table, token });
  }
  return seats.slice(0, 30);
}

function showError(box, e) {
  const text = e instanceof ApiError ? errorText(e.code, e.message) : String(e.message || e);
  fill(box, text);
  box.hidden = false;
}

function passwordField(id, label, autocomplete) {
  return h("label", { class: "field", for: id }, h("span", {}, label),
    h("input", { id, name: id, type: "password", required: true, minlength: "10", maxlength: "200", autocomplete }));
}

function nameField(id, autocomplete) {
  return h("label", { class: "field", for: id }, h("span", {}, t("Name")),
    h("input", { id, name: id, required: true, minlength: "3", maxlength: "24", autocomplete, autocapitalize: "none", spellcheck: "false" }));
}

function guestPanels(root) {
  const seats = guestSeats();
  const inError = h("p", { class: "form-error", role: "alert", hidden: true });
  const upError = h("p", { class: "form-error", role: "alert", hidden: true });
  const signIn = h("form", { class: "panel account-form", id: "sign-in" },
    h("h2", {}, t("Sign in")),
    nameField("signin-name", "username"),
    passwordField("signin-password", t("Password"), "current-password"),
    inError,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary" }, t("Sign in")),
      passkeysWork() ? h("button", { type: "button", id: "passkey-sign-in", onclick: async () => {
        inError.hidden = true;
        try {
          await signInWithPasskey();
          location.assign("/account");
        } catch (e) { fill(inError, passkeyError(e)); inError.hidden = false; }
      } }, t("Sign in with a passkey")) : null));
  signIn.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    inError.hidden = true;
    try {
      await postJSON("/api/account/signin", {
        name: signIn.querySelector("#signin-name").value,
        password: signIn.querySelector("#signin-password").value,
      });
      location.assign("/account");
    } catch (e) { showError(inError, e); }
  });
  const signUp = h("form", { class: "panel account-form", id: "sign-up" },
    h("h2", {}, t("Create an account")),
    nameField("signup-name", "username"),
    passwordField("signup-password", t("Password (10 characters or more)"), "new-password"),
    seats.length ? h("p", { class: "muted" }, tn("This browser's seat becomes your account's.", "This browser's {n} seats become your account's.", seats.length)) : null,
    upError,
    h("button", { type: "submit", class: "primary" }, t("Create the account")));
  signUp.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    upError.hidden = true;
    try {
      const r = await postJSON("/api/account/signup", {
        name: signUp.querySelector("#signup-name").value,
        password: signUp.querySelector("#signup-password").value,
        seats,
      });
      if (r.claimed.length) toast(tn("Your account now has this browser's seat.", "Your account now has {n} of this browser's seats.", r.claimed.length), 3000);
      location.assign("/account");
    } catch (e) { showError(upError, e); }
  });
  fill(root,
    h("section", { class: "account-page" },
      h("p", { class: "muted" }, t("Playing needs no account: a name and a link are enough. An account keeps your seats and games on every device you sign in on.")),
      h("div", { class: "account-forms" }, signIn, signUp)));
}

const STATUS = { waiting: N_("waiting for players"), playing: N_("in play"), over: N_("over"), expired: N_("expired") };

/** The account's games on every device (GET /api/account/games), each opening its seat
 * here without the seat's link ("#seat=N": the session says whose it is). */
async function accountGames(box) {
  let data;
  try {
    data = await getJSON("/api/account/games?limit=30");
  } catch (e) {
    fill(box, h("p", { class: "form-error" }, errorText(e.code, e.message)));
    return;
  }
  if (!data.games.length) {
    fill(box, h("p", { class: "muted" }, t("No games yet: create or join a table in the lobby, signed in.")));
    return;
  }
  fill(box, h("ul", { class: "account-games" }, data.games.map((g) =>
    h("li", {},
      h("a", { href: `/play/${encodeURIComponent(g.table)}#seat=${g.seat}`, class: "account-game" },
        h("strong", {}, t(g.title)),
        h("span", { class: "badge" }, t(STATUS[g.status] || g.status)),
        h("span", { class: "muted" }, new Date(g.created * 1000).toLocaleString(lang())))))));
}

/** The account's rating in each game (GET /api/account/ratings): the cautious estimate
 * (mu - 3 sigma) first, then mu ± sigma, marked provisional while sigma is large. */
async function accountRatings(box) {
  let data;
  try {
    data = await getJSON("/api/account/ratings");
  } catch (e) {
    fill(box, h("p", { class: "form-error" }, errorText(e.code, e.message)));
    return;
  }
  if (!data.ratings.length) {
    fill(box, h("p", { class: "muted" }, t("No ratings yet: play a rated table to the end, signed in.")));
    return;
  }
  fill(box, h("ul", { class: "account-games account-ratings" }, data.ratings.map((r) =>
    h("li", { class: "account-game" },
      h("strong", {}, t(r.title)),
      h("span", { class: "rating" }, t("Rating {ordinal} ({mu} ± {sigma})", { ordinal: r.ordinal.toFixed(1), mu: r.mu.toFixed(1), sigma: r.sigma.toFixed(1) })),
      r.provisional ? h("span", { class: "badge" }, t("provisional")) : null,
      h("span", { class: "muted" }, tn("{n} rated game", "{n} rated games", r.games))))));
}

function signedInPanel(root, me) {
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const act = (path, body) => async () => {
    error.hidden = true;
    try {
      await postJSON(path, body ? body() : {});
      location.assign("/account");
    } catch (e) { showError(error, e); }
  };
  const confirm = h("input", { id: "delete-password", type: "password", autocomplete: "current-password", maxlength: "200" });
  const del = h("details", { class: "danger-zone" },
    h("summary", {}, t("Delete my account")),
    h("p", {}, t("Your name, password and sessions are removed. Your games stay, with your seats named \"deleted player\".")),
    h("label", { class: "field", for: "delete-password" }, h("span", {}, t("Password")), confirm),
    h("button", { type: "button", class: "danger-button", id: "delete-account", onclick: act("/api/account/delete", () => ({ password: confirm.value })) }, t("Delete my account")));
  fill(root,
    h("section", { class: "account-page" },
      h("div", { class: "panel" },
        h("h2", {}, t("Signed in as {name}", { name: me.name })),
        h("p", { class: "muted" }, t("Your seats are played only where you are signed in: a copied link opens nothing without your account.")),
        h("div", { class: "actions" },
          h("a", { class: "button primary", href: "/" }, t("Back to the lobby")),
          h("a", { class: "button", href: profileHref(me.name), id: "public-profile" }, t("Your public profile")),
          h("button", { type: "button", id: "sign-out", onclick: act("/api/account/signout") }, t("Sign out")),
          h("button", { type: "button", id: "sign-out-everywhere", onclick: act("/api/account/signout-everywhere") }, t("Sign out everywhere"))),
        error,
        del),
      passkeysPanel(),
      h("div", { class: "panel", id: "account-games" },
        h("h2", {}, t("Your games")),
        h("div", { id: "account-games-list" }, h("p", { class: "muted" }, t("Loading…")))),
      h("div", { class: "panel", id: "account-ratings" },
        h("h2", {}, t("Your ratings")),
        h("div", { id: "account-ratings-list" }, h("p", { class: "muted" }, t("Loading…"))))));
  accountGames(document.getElementById("account-games-list"));
  accountRatings(document.getElementById("account-ratings-list"));
}

/** The account page: sign in or up as a guest; signed in, sign out or delete. */
export async function accountPage(root) {
  document.title = `dragonlair: ${t("Account")}`;
  fill(document.getElementById("topbar-info"), t("Account"));
  const me = await whoAmI();
  if (me) signedInPanel(root, me);
  else guestPanels(root);
}
