// The fairness of the deal, on the table page: during play the commitment the server
// published when the table was created (the SHA-256 of "<seed>:<salt>"); at the end the
// revealed seed and salt, hashed here in the browser and compared with it, so any player
// can see that the deal was fixed before the first card. See docs/server.md, "Fair deals".

import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

async function sha256hex(text) {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

export class FairnessPanel {
  /** ``changed`` is called when the check at the end is done (to draw it). */
  constructor(tableId, changed) {
    this.tableId = tableId;
    this.changed = changed;
    this.revealed = null; // {seed, salt} once the game is over
    this.check = null; // "verified" | "mismatch" | "unverifiable"
    this.digest = null;
    this.asked = false;
    this.open = false; // the page is drawn anew on every change: keep the panel as the reader left it
  }

  details(kind, ...children) {
    return h("details", {
      class: ["panel fairness", kind], dataset: { fairness: kind }, open: this.open || kind === "mismatch",
      ontoggle: (ev) => { this.open = ev.target.open; },
    }, ...children);
  }

  /** The panel for the table's description ``info`` and the game's ``status``. */
  panel(info, status) {
    const fair = info && info.fairness;
    if (!fair) return null;
    if (fair.chosen_seed) {
      return this.details("chosen",
        h("summary", {}, t("Practice table")),
        h("p", { class: "muted" }, t("The creator chose this table's seed, so there is no commitment to check.")));
    }
    const commitment = h("code", { class: "commitment" }, fair.commitment);
    if (status !== "over") {
      return this.details("committed",
        h("summary", {}, t("Fair deal: committed")),
        h("p", {}, t("Before the first card the server published this SHA-256 of the seed that deals every card (and a secret salt):")),
        commitment,
        h("p", { class: "muted" }, t("When the game ends the seed and salt are revealed and checked against it here.")));
    }
    this.reveal(fair);
    if (!this.check) {
      return this.details("checking", h("summary", {}, t("Fair deal: checking…")), commitment);
    }
    const { seed, salt } = this.revealed;
    const text = `${seed}:${salt}`;
    const words = {
      verified: t("Fair deal: verified"),
      mismatch: t("The deal does not match its commitment!"),
      unverifiable: t("Fair deal: check it yourself"),
    };
    return this.details(this.check,
      h("summary", {}, words[this.check]),
      h("p", {}, t("Published before the first card:")), commitment,
      h("p", {}, t("Revealed at the end:"), " ", t("seed"), " ", h("code", { class: "seed" }, String(seed)), ", ", t("salt"), " ", h("code", { class: "salt" }, salt)),
      this.check === "unverifiable"
        ? h("p", { class: "muted" }, t("This page cannot hash here (it needs https); run:"), " ", h("code", {}, `printf '%s' "${text}" | sha256sum`))
        : h("p", { class: this.check === "verified" ? "muted" : "error" },
          "SHA-256 ", h("code", {}, text), " = ", h("code", { class: "digest" }, this.digest),
          this.check === "verified" ? t(": the same.") : t(": not the commitment.")));
  }

  /** Learn the revealed seed (from the description, or asked for once) and check it. */
  async reveal(fair) {
    if (this.asked) return;
    this.asked = true;
    let revealed = fair.revealed;
    try {
      if (!revealed) revealed = (await getJSON(`/api/tables/${this.tableId}`)).fairness.revealed;
      if (!revealed) return;
      this.revealed = revealed;
      if (!(globalThis.crypto && crypto.subtle)) {
        this.check = "unverifiable";
      } else {
        this.digest = await sha256hex(`${revealed.seed}:${revealed.salt}`);
        this.check = this.digest === fair.commitment ? "verified" : "mismatch";
      }
    } catch (e) {
      console.warn("could not check the deal", e);
      this.asked = false;
      return;
    }
    this.changed();
  }
}
