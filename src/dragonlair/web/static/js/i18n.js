// The page's words in its language. The server chose the language when it served the page
// (the switch's remembered "lang" cookie, else the browser's Accept-Language) and wrote it
// into <html lang>; the words come from GET /api/strings?lang=.. (the gettext catalog as
// JSON) before anything is drawn. Every sentence a page shows goes through t() or tn():
// their message ids are the English texts, which `pybabel extract` finds in this folder
// (docs/architecture.md, "Translating"), and what the player sends (action texts) never
// goes through here.
import { format } from "./dom.js";

let strings = { lang: "en", languages: { en: "English", de: "Deutsch" }, messages: {}, plurals: {} };

const COOKIE = "lang";

/** Fetch the page's words; the page draws nothing before this. */
export async function loadStrings() {
  const lang = document.documentElement.lang || "en";
  try {
    const r = await fetch(`/api/strings?lang=${encodeURIComponent(lang)}`);
    if (r.ok) strings = await r.json();
  } catch { /* English, the message ids themselves */ }
  document.documentElement.lang = strings.lang;
}

/** The page's language ("en", "de"). */
export function lang() {
  return strings.lang;
}

/** A message in the page's language, its "{field}"s filled from values. */
export function t(message, values) {
  const text = strings.messages[message] || message;
  return values ? format(text, values) : text;
}

/** A counted message: the form for n (both languages: one, and every other count), with
 * "{n}" and the other "{field}"s filled. */
export function tn(singular, plural, n, values = {}) {
  const forms = strings.plurals[singular];
  const text = forms ? forms[n === 1 ? 0 : 1] : (n === 1 ? singular : plural);
  return format(text, { n, ...values });
}

const WORD = /\d*[A-Za-z][A-Za-z'-]*/g;
const LONGEST = 4;

/** A value the engine wrote ("face up", "Green Scanner face up", "dragon 1 (8 pts; mood
 * 2)") in the page's language, as the server's i18n.words does: the whole text if it is a
 * message, else, from left to right, the longest run of up to four words (single spaces
 * between them) that is one. */
export function word(value) {
  if (typeof value !== "string") return value;
  const m = strings.messages;
  if (m[value]) return m[value];
  if (strings.lang === "en") return value;
  const spans = [...value.matchAll(WORD)].map((w) => [w.index, w.index + w[0].length]);
  let out = "";
  let at = 0;
  for (let i = 0; i < spans.length;) {
    for (let j = Math.min(spans.length, i + LONGEST) - 1; j >= i; j--) {
      const phrase = value.slice(spans[i][0], spans[j][1]);
      let single = true;
      for (let k = i; k < j; k++) if (value.slice(spans[k][1], spans[k + 1][0]) !== " ") single = false;
      if (!single) continue;
      if (m[phrase] || j === i) {
        out += value.slice(at, spans[i][0]) + (m[phrase] || phrase);
        at = spans[j][1];
        i = j + 1;
        break;
      }
    }
  }
  return out + value.slice(at);
}

/** The language switch every page shows: remembered in a cookie for a year. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.id = "language";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(strings.languages)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.selected = code === strings.lang;
    select.append(option);
  }
  select.addEventListener("change", () => {
    document.cookie = `${COOKIE}=${select.value}; path=/; max-age=31536000; SameSite=Lax`;
    location.reload();
  });
  return select;
}

/** Mark a message for extraction only (a table built when the module loads, before the
 * words are): translate it with t() where it is shown. */
export function N_(message) {
  return message;
}

// What a player can meet when the server refuses something, by its stable error code (the
// server's own message, in English, is more precise and is kept for English pages).
const ERRORS = {
  rate_limited: N_("Too many messages at once: wait a moment and try again."),
  spectator: N_("Spectators watch; they cannot act."),
  no_open_seat: N_("This table has no open seat any more."),
  bad_name: N_("A name needs at least one letter or digit."),
  game_over: N_("The game is over."),
  not_started: N_("The game has not started yet."),
  illegal_action: N_("That is not one of your choices now."),
  unknown_action: N_("That is not one of your choices now."),
  not_found: N_("There is no such table."),
  unknown_game: N_("There is no such game."),
  network: N_("The server cannot be reached."),
};

/** A refusal from the server (its code and English message) in the page's language. */
export function errorText(code, message) {
  if (strings.lang === "en" || !ERRORS[code]) return message;
  return t(ERRORS[code]);
}
