// The fairness of the deal, on the table page: during play the commitment the server
// published when the table was created (the SHA-256 of "<seed>:<salt>"); at the end the
// revealed seed and salt, hashed here in the browser and compared with it, so any player
// can see that the deal was fixed before the first card. A deal the table's creator chose
// (a position or a seed) is never called fair or verified: the panel says who chose it, and
// the check at the end only shows it was not changed during the game (its commitment names
// what it was made from, "<seed>:<salt>:<source>"). See docs/server.md, "Fair deals".

import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

async function sha256hex(text) {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The text a commitment hashes: "<seed>:<salt>", and ":<source>" for a chosen deal. */
function committedText({ seed, salt, source }) {
  return source ? `${seed}:${salt}:${source}` : `${seed}:${salt}`;
}

/** How a table whose deal its creator chose names that, in the panel and the listing. */
export function chosenTitle(chosen) {
  return chosen === "position" ? t("Not a random deal: started from a position the creator chose")
    : t("Not a random deal: the creator chose the seed");
}

function chosenNote(chosen) {
  return chosen === "position"
    ? t("The table's creator set up this game from a position of their choosing, so they may know every card. The commitment shows only that the deal was not changed during the game, not that it was dealt at random.")
    : t("The table's creator chose the seed that deals every card, so they may know every card. The commitment shows only that the deal was not changed during the game, not that it was dealt at random.");
}

export class FairnessPanel {
  /** ``changed`` is called when the check at the end is done (to draw it). */
  constructor(tableId, changed) {
    this.tableId = tableId;
    this.changed = changed;
    this.revealed = null; // {seed, salt} once the game is over
    this.check = null; // "verified" | "unchanged" (a chosen deal) | "mismatch" | "unverifiable"
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
    const chosen = fair.chosen || (fair.chosen_seed ? "seed" : null);
    const commitment = fair.commitment ? h("code", { class: "commitment" }, fair.commitment) : null;
    if (chosen && (!commitment || status !== "over")) {
      return this.details("chosen",
        h("summary", {}, chosenTitle(chosen)),
        h("p", {}, chosenNote(chosen)),
        ...(commitment ? [
          h("p", { class: "muted" }, t("Before the first card the server published this SHA-256 of the deal and what it was made from:")),
          commitment] : []));
    }
    if (status !== "over") {
      return this.details("committed",
        h("summary", {}, t("Fair deal: committed")),
        h("p", {}, t("Before the first card the server published this SHA-256 of the seed that deals every card (and a secret salt):")),
        commitment,
        h("p", { class: "muted" }, t("When the game ends the seed and salt are revealed and checked against it here.")));
    }
    this.reveal(fair);
    if (!this.check) {
      return this.details("checking", h("summary", {}, chosen ? chosenTitle(chosen) : t("Fair deal: checking…")), commitment);
    }
    const { seed, salt, source } = this.revealed;
    const text = committedText(this.revealed);
    const words = {
      verified: t("Fair deal: verified"),
      unchanged: chosenTitle(chosen),
      mismatch: t("The deal does not match its commitment!"),
      unverifiable: chosen ? chosenTitle(chosen) : t("Fair deal: check it yourself"),
    };
    return this.details(this.check,
      h("summary", {}, words[this.check]),
      chosen ? h("p", {}, chosenNote(chosen)) : null,
      h("p", {}, t("Published before the first card:")), commitment,
      h("p", {}, t("Revealed at the end:"), " ", t("seed"), " ", h("code", { class: "seed" }, String(seed)), ", ", t("salt"), " ", h("code", { class: "salt" }, salt),
        source ? [", ", t("made from"), " ", h("code", { class: "source" }, source)] : null),
      this.check === "unverifiable"
        ? h("p", { class: "muted" }, t("This page cannot hash here (it needs https); run:"), " ", h("code", {}, `printf '%s' "${text}" | sha256sum`))
        : h("p", { class: this.check === "mismatch" ? "error" : "muted" },
          "SHA-256 ", h("code", {}, text), " = ", h("code", { class: "digest" }, this.digest),
          this.check === "mismatch" ? t(": not the commitment.")
            : this.check === "unchanged" ? t(": the same, so the chosen deal was not changed during the game.") : t(": the same.")));
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
        this.digest = await sha256hex(committedText(revealed));
        // a chosen deal, or a revealed text that names a source, is never "verified"
        const chosen = fair.chosen || fair.chosen_seed || revealed.source;
        this.check = this.digest !== fair.commitment ? "mismatch" : chosen ? "unchanged" : "verified";
      }
    } catch (e) {
      console.warn("could not check the deal", e);
      this.asked = false;
      return;
    }
    this.changed();
  }
}
