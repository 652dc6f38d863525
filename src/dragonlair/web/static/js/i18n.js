// The page's words in its language. The server chose the language when it served the page
// (the switch's remembered "lang" cookie, else the browser's Accept-Language) and wrote it
// into <html lang>; the words come from GET /api/strings?lang=.. (the gettext catalog as
// JSON) before anything is drawn. Every sentence a page shows goes through t() or tn():
// their message ids are the English texts, which `pybabel extract` finds in this folder
// (docs/architecture.md, "Translating"), and what the player sends (action texts) never
// goes through here. A leaf module: it imports nothing, so every other module may use it.

let strings = { lang: "en", languages: { en: "English", de: "Deutsch" }, messages: {}, plurals: {} };

const COOKIE = "lang";

/** A Python str.format-style "{field}" template filled from values (as the engine's
 * event_text does); unknown fields are left as they are. */
export function format(template, values) {
  return template.replace(/\{([a-z_]+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

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
  already_identified: N_("This connection has already said hello."),
  bad_message: N_("The server could not read that message."),
  bad_json: N_("The server could not read that message."),
  too_large: N_("That message is too long."),
  hello_required: N_("The connection has to say hello first."),
  invalid_request: N_("The server could not read that request."),
  bad_options: N_("These options do not fit this game."),
  bad_seats: N_("The seats do not fit this table."),
  bad_seat: N_("There is no such seat at this table."),
  seat_taken: N_("That seat is taken."),
  seed_not_allowed: N_("A table takes a chosen seed only when every seat is yours or a bot's."),
  rated_needs_account: N_("A rated table is for signed-in players: sign in to create or join one."),
  rated_seats: N_("A rated table has one seat for you; the others are open or bots."),
  rated_deal: N_("A rated table is dealt by the server: no position, puzzle or seed."),
  rated_practice: N_("A rated table offers neither hints nor undo."),
  rated_one_seat: N_("At a rated table an account plays one seat only."),
  position_not_allowed: N_("A table starts from a position only when every seat is yours or a bot's."),
  undo_not_allowed: N_("Nobody may take a move back at this table."),
  hints_not_allowed: N_("Nobody may ask the bots for advice at this table."),
  bad_position: N_("That position cannot be read."),
  unknown_bot: N_("There is no such bot."),
  bad_budget: N_("This server does not allow that much thinking for a bot."),
  not_over: N_("That is only for a finished game."),
  storage_error: N_("The server could not store that; try again."),
  not_owner: N_("Another server process runs this table; try again."),
  too_many_waiting: N_("Too many of your tables are waiting for players: play at one, or let one expire, before you open another."),
  lobby_full: N_("The server holds as many tables waiting for players as it can: join one of them, or try again later."),
  broken: N_("This table cannot be played."),
  expired: N_("This table waited too long for players and expired."),
  abandoned: N_("Every player left this table long ago: it ended without a result."),
  unauthorized: N_("That link does not open this table."),
  token_rotated: N_("This seat got a new link from another connection; this one no longer opens it."),
  wrong_seat: N_("This connection plays another seat."),
  not_playing: N_("That is only while the game is being played."),
  cannot_undo: N_("There is nothing to take back: a decision is final once confirmed."),
  not_your_turn: N_("You are not asked anything now."),
  bad_request: N_("A confirmation window is for a table with undo: ask for undo too."),
  nothing_held: N_("You hold no decision to confirm."),
  held: N_("Your last decision waits for its confirmation: confirm it or take it back first."),
  hold_dropped: N_("The game moved on before your decision was confirmed: choose again."),
  confirming: N_("Your decisions are being confirmed: act again in a moment."),
  not_asked: N_("A hint is for your own decision, when you are asked."),
  hint_busy: N_("Your last hint is still being worked out."),
  hint_failed: N_("The hint could not be worked out; try again later."),
  too_many_connections: N_("Too many connections: wait a moment and try again."),
  server_full: N_("The server is full right now: wait a moment and try again."),
  table_full: N_("This table has as many windows open as it takes: close one, or try again later."),
  idle: N_("This connection was quiet too long and was closed; it opens again by itself."),
  chat_empty: N_("A chat message needs some text."),
  chat_too_long: N_("A chat message is at most 500 characters."),
  chat_rate_limited: N_("You are chatting too fast: at most 5 messages in 10 seconds."),
  chat_unknown_phrase: N_("That quick phrase is not one the server knows."),
  chat_no_message: N_("That message is no longer in this table's chat."),
  chat_report_own: N_("You cannot report your own message."),
  chat_already_reported: N_("That message was already reported from here."),
  admin_off: N_("The admin page is off on this server: its operator starts it with an admin token."),
  admin_token: N_("That is not the operator's token."),
  method_not_allowed: N_("The server does not take that request."),
  timeout: N_("The request took too long to arrive; try again."),
  sign_in_required: N_("This seat belongs to an account: sign in as its player to play it."),
  signed_out: N_("You signed out, here or everywhere: sign in again to play this seat."),
  bad_credentials: N_("That name and password do not match an account."),
  locked: N_("Too many wrong passwords for this name from here: wait a while, or sign in from elsewhere."),
  name_taken: N_("That name is taken: choose another one."),
  weak_password: N_("A password has 10 to 200 characters and is not the name."),
  not_signed_in: N_("Sign in first: this needs an account."),
  csrf: N_("That request did not come from this site's pages."),
  seat_claimed: N_("That seat already belongs to an account."),
  passkey_expired: N_("This passkey request was used already or has expired: start again."),
  passkey_refused: N_("The passkey's answer was refused."),
  passkey_taken: N_("This passkey is registered already."),
  unknown_passkey: N_("This passkey belongs to no account here (it may have been removed)."),
  too_many_passkeys: N_("An account has at most 20 passkeys: remove one first."),
  passkey_unavailable: N_("Passkeys need this server's host name."),
  bad_pace: N_("A turn-based table has a deadline per move instead of a time bank."),
  unknown_player: N_("There is no player of that name."),
  conceded: N_("You conceded this game: a bot plays your seat to the end."),
  already_conceded: N_("You have already conceded this game."),
  not_taught: N_("This step of the lesson teaches another choice: read the lesson's text."),
  no_tutorial: N_("This game has no lesson yet."),
};

/** A refusal from the server (its code and English message) in the page's language: a
 * code without a text of its own is named in a sentence of the page's language; an error
 * without a code (not the server's) keeps its message. */
export function errorText(code, message) {
  if (strings.lang === "en" || !code) return message;
  if (!ERRORS[code]) return t("The server refused that ({code}).", { code });
  // these name what is wrong (the field of a position, the option, the seat): the server's
  // own words follow, untranslated, so that nothing the player needs is lost
  return DETAILED.has(code) && message ? `${t(ERRORS[code])} (${message})` : t(ERRORS[code]);
}

const DETAILED = new Set(["bad_position", "bad_options", "bad_seats", "bad_budget", "unknown_bot", "passkey_refused"]);
