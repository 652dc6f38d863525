// The operator's admin page, "/admin" (docs/server.md, "Reports"): the chat messages
// readers reported, the open ones first, each with who reported it; the operator hides
// a message (it leaves its table's chat) or dismisses its reports. The page holds no data
// of its own: it asks for the operator's token, keeps it in this tab's sessionStorage only,
// and sends it as "Authorization: Bearer" with each request (a header another site's page
// cannot make a browser send, so no cross-site request can act here). Messages are shown
// with textContent, as at the table.
import { h, fill, toast } from "./dom.js";
import { PHRASES } from "./chat.js";
import { errorText, t, tn } from "./i18n.js";

const TOKEN_KEY = "dragonlair:admin-token";

function token() {
  try { return sessionStorage.getItem(TOKEN_KEY) || ""; } catch { return ""; }
}

async function call(method, url) {
  const r = await fetch(url, { method, headers: { Authorization: `Bearer ${token()}` } });
  let data = null;
  try { data = await r.json(); } catch { /* not JSON */ }
  if (!r.ok) {
    const err = (data && data.error) || {};
    const e = new Error(errorText(err.code, err.message || r.statusText));
    e.code = err.code;
    throw e;
  }
  return data;
}

export async function adminPage(root) {
  document.title = `${t("Reported messages")}: dragonlair`;
  if (!token()) return askToken(root, "");
  let data;
  try {
    data = await call("GET", "/api/admin/reports");
  } catch (e) {
    if (e.code === "admin_token") {
      try { sessionStorage.removeItem(TOKEN_KEY); } catch { /* nothing kept */ }
    }
    return askToken(root, e.message);
  }
  draw(root, data.reports);
}

function askToken(root, error) {
  const input = h("input", { id: "admin-token", type: "password", autocomplete: "off", required: true });
  fill(root, h("div", { class: "panel admin-page" },
    h("h1", {}, t("Reported messages")),
    h("form", { class: "admin-sign-in", onsubmit: (ev) => {
      ev.preventDefault();
      try { sessionStorage.setItem(TOKEN_KEY, input.value.trim()); } catch { /* this request only */ }
      adminPage(root);
    } },
    h("label", { for: "admin-token" }, t("The operator's token")), input,
    h("button", { type: "submit", class: "primary", id: "admin-open" }, t("Open"))),
    h("p", { class: "error", id: "admin-error", role: "alert" }, error)));
  input.focus();
}

function when(at) {
  return new Date(at * 1000).toLocaleString(document.documentElement.lang || "en");
}

function draw(root, reports) {
  const rows = reports.map((r) => {
    const words = r.phrase ? `${t(PHRASES[r.phrase] || r.phrase)} (${r.phrase})` : r.text;
    const state = r.open ? t("open") : r.outcome === "hidden" ? t("hidden") : t("dismissed");
    const act = (verb) => async () => {
      try {
        await call("POST", `/api/admin/reports/${r.id}/${verb}`);
      } catch (e) {
        toast(e.message);
        return;
      }
      adminPage(root);
    };
    return h("li", { class: ["admin-report", r.open && "open"], dataset: { id: r.id } },
      h("p", { class: "admin-said" },
        h("strong", {}, r.seat === null ? t("spectator") : r.name), " ",
        h("span", { class: "admin-text" }, words)),
      h("p", { class: "small muted" },
        t("Table {table}, {when}; {state}.", { table: r.table, when: when(r.at), state }), " ",
        tn("Reported once by {names}.", "Reported {n} times, by {names}.", r.reports.length,
          { names: r.reports.map((x) => (x.seat === null ? t("spectator") : x.name)).join(", ") })),
      r.open ? h("p", { class: "actions" },
        h("button", { type: "button", class: "danger-button admin-hide", onclick: act("hide") }, t("Hide the message")),
        h("button", { type: "button", class: "admin-dismiss", onclick: act("dismiss") }, t("Dismiss the reports"))) : null);
  });
  fill(root, h("div", { class: "panel admin-page" },
    h("h1", {}, t("Reported messages")),
    h("p", { class: "muted" }, t("A hidden message leaves its table's chat and is never sent again.")),
    rows.length ? h("ol", { class: "admin-reports", id: "admin-reports" }, rows) : h("p", { id: "admin-none" }, t("Nothing has been reported.")),
    h("p", {}, h("button", { type: "button", onclick: () => adminPage(root) }, t("Refresh")), " ",
      h("button", { type: "button", onclick: () => { try { sessionStorage.removeItem(TOKEN_KEY); } catch { /* none */ } adminPage(root); } }, t("Forget the token")))));
}
