// Passkeys (WebAuthn, docs/server.md, "Accounts"): the account page's list of the
// account's passkeys (add one, remove one) and the guest page's "Sign in with a passkey".
// The server makes the options and checks the answers (py_webauthn); this page only turns
// their base64url fields into the bytes navigator.credentials wants, and back.
import { ApiError, getJSON, postJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { errorText, lang, t } from "./i18n.js";

/** Whether this browser can make and use passkeys at all. */
export function passkeysWork() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

function fromB64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
}

function toB64url(buffer) {
  let raw = "";
  for (const b of new Uint8Array(buffer)) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(o) {
  return {
    ...o,
    challenge: fromB64url(o.challenge),
    user: { ...o.user, id: fromB64url(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) })),
  };
}

function requestOptions(o) {
  return {
    ...o,
    challenge: fromB64url(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) })),
  };
}

function credentialJSON(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return { id: cred.id, rawId: toB64url(cred.rawId), type: cred.type, response,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {} };
}

/** What to tell the player when the browser or the server refuses. */
export function passkeyError(e) {
  if (e instanceof ApiError) return errorText(e.code, e.message);
  if (e && e.name === "NotAllowedError") return t("No passkey was used (cancelled, or the time ran out).");
  if (e && e.name === "InvalidStateError") return t("This device already holds a passkey for your account.");
  if (e && e.name === "SecurityError") return t("Passkeys need this server's address by name (not a bare IP address) over HTTPS or on localhost.");
  return String((e && e.message) || e);
}

/** Sign in with a passkey: the browser offers the player this site's passkeys. */
export async function signInWithPasskey() {
  const { ticket, options } = await postJSON("/api/account/passkeys/signin/options", {});
  const cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return postJSON("/api/account/passkeys/signin", { ticket, credential: credentialJSON(cred) });
}

async function addPasskey(label) {
  const { ticket, options } = await postJSON("/api/account/passkeys/options", {});
  const cred = await navigator.credentials.create({ publicKey: creationOptions(options) });
  return postJSON("/api/account/passkeys", { ticket, credential: credentialJSON(cred), label });
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang());
}

/** The account page's passkeys panel: the list, with remove buttons, and a form to add. */
export function passkeysPanel() {
  const list = h("div", { id: "passkeys-list" }, h("p", { class: "muted" }, t("Loading…")));
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const say = (e) => { fill(error, passkeyError(e)); error.hidden = false; };
  const refresh = async () => {
    let data;
    try {
      data = await getJSON("/api/account/passkeys");
    } catch (e) { say(e); return; }
    if (!data.passkeys.length) {
      fill(list, h("p", { class: "muted" }, t("No passkeys yet.")));
      return;
    }
    fill(list, h("ul", { class: "account-games passkeys" }, data.passkeys.map((k) =>
      h("li", { class: "account-game passkey" },
        h("strong", {}, k.label),
        h("span", { class: "muted" }, t("added {when}", { when: when(k.created) })),
        h("span", { class: "muted" }, k.used ? t("last used {when}", { when: when(k.used) }) : t("not used yet")),
        h("button", { type: "button", class: "danger-button passkey-remove", "aria-label": t("Remove the passkey {label}", { label: k.label }),
          onclick: async () => {
            error.hidden = true;
            try {
              await postJSON("/api/account/passkeys/remove", { id: k.id });
              refresh();
            } catch (e) { say(e); }
          } }, t("Remove"))))));
  };
  const label = h("input", { id: "passkey-label", maxlength: "64", placeholder: t("e.g. my phone"), autocomplete: "off" });
  const add = h("form", { class: "passkey-add", id: "passkey-add" },
    h("label", { class: "field", for: "passkey-label" }, h("span", {}, t("Name of the device")), label),
    h("button", { type: "submit", class: "primary", id: "passkey-add-button", disabled: !passkeysWork() }, t("Add a passkey")));
  add.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    try {
      await addPasskey(label.value || t("passkey"));
      label.value = "";
      refresh();
    } catch (e) { say(e); }
  });
  refresh();
  return h("div", { class: "panel", id: "account-passkeys" },
    h("h2", {}, t("Passkeys")),
    h("p", { class: "muted" }, passkeysWork()
      ? t("A passkey signs you in with this device's screen lock or a security key: no name, no password.")
      : t("This browser cannot use passkeys.")),
    list, add, error);
}
