// The lobby: choose a game, its players, options and seats (you, bots, friends with an
// invite link, open seats anyone may join), create the table and hand out the links;
// join an open table; watch a table in play.
import { ApiError, getJSON, postJSON } from "./api.js";
import { copyText, fill, h, toast } from "./dom.js";
import { N_, errorText, t, tn } from "./i18n.js";
import { awayTerm, duration } from "./away.js";
import { leaderboardHref, seatName } from "./profile.js";
import { learnPanel } from "./tutorial.js";

const NAME_KEY = "dragonlair:name";
const LEVEL_HELP = {
  random: N_("random: any legal move, for a quick game"),
  heuristic: N_("heuristic: plays sensibly"),
  ismcts: N_("ismcts: searches ahead (slower, stronger)"),
};

/** What a bot level does, in the page's language: the three levels' own words, or a
 * style of play's summary from the game's description. */
function levelHelp(g, b) {
  if (LEVEL_HELP[b]) return t(LEVEL_HELP[b]);
  const summary = g.styles && g.styles[b];
  return summary ? t("{level}: {summary}", { level: t(b), summary: t(summary) }) : b;
}

/** Remember a table's passes in this browser, so its page can show the invite links. */
export function rememberPasses(tableId, passes) {
  try {
    const key = `dragonlair:table:${tableId}`;
    const old = JSON.parse(localStorage.getItem(key) || "{}");
    localStorage.setItem(key, JSON.stringify({ ...old, ...passes, saved: Date.now() }));
  } catch { /* private mode: the links still work, they are just not remembered */ }
}

const GAMES_KEY = "dragonlair:games";

/** The tables this browser has a seat at, newest first: {table, game, name, seat, link, saved}. */
export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(GAMES_KEY) || "[]");
    return Array.isArray(list) ? list.filter((g) => g && typeof g.table === "string" && typeof g.link === "string") : [];
  } catch { return []; }
}

/** Remember a seat of this browser's (the page of that seat calls it on every visit). */
export function rememberGame(entry) {
  try {
    const rest = myGames().filter((g) => !(g.table === entry.table && g.seat === entry.seat));
    localStorage.setItem(GAMES_KEY, JSON.stringify([{ ...entry, saved: Date.now() }, ...rest].slice(0, 30)));
  } catch { /* private mode: not remembered */ }
}

function forgetGame(entry) {
  try {
    localStorage.setItem(GAMES_KEY, JSON.stringify(myGames().filter((g) => !(g.table === entry.table && g.seat === entry.seat))));
  } catch { /* nothing kept */ }
}

/** What a table allows, as its description in the lobby and at the table shows it; first
 * whether its creator chose the deal (then they may know every card). */
export function tableTerms(settings, fairness) {
  const terms = [];
  if (settings.rated) terms.push(t("rated (signed-in players only)"));
  const chosen = fairness && (fairness.chosen || (fairness.chosen_seed ? "seed" : null));
  if (chosen) terms.push(t("deal chosen by the creator (not random)"));
  if (settings.tutorial) terms.push(t("a lesson"));
  else if (settings.position) terms.push(t("started from {position}", { position: t(settings.position) }));
  if (settings.hints) terms.push(t("hints allowed"));
  if (settings.undo) terms.push(t("undo allowed"));
  if (settings.confirm_turn) terms.push(t("Confirm at the end of each turn"));
  terms.push(awayTerm(settings));
  return terms;
}

export function absolute(link) {
  return new URL(link, location.origin).href;
}

export async function lobby(root) {
  document.title = `dragonlair: ${t("lobby")}`;
  fill(document.getElementById("topbar-info"), "Lobby");
  fill(root, h("p", { class: "muted" }, t("Loading the games…")));
  let games;
  let puzzles = [];
  try {
    games = await getJSON("/api/games");
    puzzles = await getJSON("/api/puzzles");
  } catch (e) {
    fill(root, h("p", { class: "error" }, t("The lobby cannot be loaded: {error}", { error: errorText(e.code, e.message) })));
    return;
  }
  const form = newTableForm(games, puzzles);
  const created = h("section", { class: "panel", id: "created", hidden: true, "aria-live": "polite" });
  const mine = h("div", { id: "my-games" });
  const waiting = h("div", { id: "open-tables" });
  const playing = h("div", { id: "playing-tables" });
  fill(
    root,
    h("div", { class: "lobby" },
      learnPanel(games),
      h("section", { class: "panel new-table" }, h("h1", {}, t("New table")), form),
      created,
      h("section", { class: "panel", id: "your-games", hidden: !myGames().length }, h("h2", {}, t("Your games")),
        h("p", { class: "muted" }, t("Tables where this browser has a seat: go back to yours.")), mine),
      h("section", { class: "panel" }, h("h2", {}, t("Open tables")),
        h("p", { class: "muted" }, t("Tables waiting for players: take a seat.")), waiting),
      h("section", { class: "panel" }, h("h2", {}, t("Being played")),
        h("p", { class: "muted" }, t("Watch any listed game (you see only what is public).")), playing),
      h("section", { class: "panel", id: "leaderboards" }, h("h2", {}, t("Leaderboards")),
        h("nav", { class: "board-games" }, games.map((g) => h("a", { class: "button", href: leaderboardHref(g.id) }, t(g.name))))),
    ),
  );
  form.addEventListener("created", (ev) => showCreated(created, ev.detail));
  const names = Object.fromEntries(games.map((g) => [g.id, g.name]));
  const refresh = () => refreshTables(waiting, playing, names);
  refresh();
  drawMyGames(mine, names);
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, 5000);
  // whose turn it is in your games, now and then (one request per game: less often)
  const mineTimer = setInterval(() => { if (!document.hidden) drawMyGames(mine, names); }, 30000);
  window.addEventListener("pagehide", () => { clearInterval(timer); clearInterval(mineTimer); }, { once: true });
}

function newTableForm(games, puzzles) {
  const form = h("form", { class: "stack", novalidate: true });
  const nameInput = h("input", {
    id: "my-name", name: "name", maxlength: 40, autocomplete: "nickname",
    value: localStorage.getItem(NAME_KEY) || "", placeholder: t("Your name"),
  });
  const gameList = h("div", { class: "game-choice", role: "radiogroup", "aria-label": t("Game") });
  games.forEach((g, i) => {
    const id = `game-${g.id}`;
    gameList.append(
      h("label", { class: "game-option", for: id },
        h("input", { type: "radio", name: "game", id, value: g.id, checked: i === 0 }),
        h("span", { class: "game-name" }, g.name),
        h("span", { class: "muted small" }, t("{low}–{high} players", { low: g.min_players, high: g.max_players })),
        h("span", { class: "small" }, t(g.summary)),
        h("a", { href: `/rules/${g.id}`, class: "small rules-link", id: `rules-${g.id}` }, t("Rules at a glance")),
      ),
    );
  });
  const players = h("select", { id: "players", name: "players" });
  const options = h("div", { class: "options" });
  const seats = h("div", { class: "seats-setup" });
  const mySeat = h("select", { id: "my-seat", name: "my-seat" });
  const startFrom = h("select", { id: "start-from", name: "start-from" },
    h("option", { value: "" }, t("A new deal")),
    games.map((g) => {
      const mine = puzzles.filter((p) => p.game === g.id);
      return mine.length ? h("optgroup", { label: t("{game} puzzles", { game: g.name }) },
        mine.map((p) => h("option", { value: `puzzle:${p.name}` }, t(p.title)))) : null;
    }),
    h("option", { value: "own" }, t("My own position (paste it or choose its file)")));
  const puzzleNotes = h("div", { class: "puzzle-notes small", id: "puzzle-notes", "aria-live": "polite" });
  const positionText = h("textarea", {
    id: "position", rows: 8, spellcheck: "false", "aria-label": "position (TOML or JSON)",
    placeholder: 'game = "dragon-stripes"\nphase = "turn"\n…  (see the game\'s rules page, "Positions")',
  });
  const positionFile = h("input", { id: "position-file", type: "file", accept: ".toml,.json,text/plain,application/json", "aria-label": t("position file") });
  const ownPosition = h("div", { class: "own-position stack", style: { display: "none" } }, positionText,
    h("label", { class: "small", for: "position-file" }, t("or read it from a file:"), " ", positionFile));
  positionFile.addEventListener("change", async () => {
    const file = positionFile.files && positionFile.files[0];
    if (file) positionText.value = await file.text();
  });
  const hints = h("input", { id: "hints", type: "checkbox", checked: true });
  const undo = h("input", { id: "undo", type: "checkbox", checked: true });
  const confirmTurn = h("input", { id: "confirm-turn", type: "checkbox" });
  const touched = { hints: false, undo: false };
  hints.addEventListener("change", () => { touched.hints = true; });
  undo.addEventListener("change", () => { touched.undo = true; syncTerms(); });
  const deadline = h("input", { id: "deadline", type: "number", min: 3, max: 600, value: 15, step: 1 });
  const listed = h("input", { id: "listed", type: "checkbox", checked: true });
  const rated = h("input", { id: "rated", type: "checkbox" });
  const wait = h("input", { id: "wait-for-arrival", type: "checkbox", checked: true });
  const takeover = h("select", { id: "takeover" });
  const bank = h("input", { id: "time-bank", type: "number", min: 0, max: 1440, value: 1, step: 0.5 });
  // the table's kind: real time, or turn-based with a deadline per move (seconds)
  const pace = h("select", { id: "table-pace" },
    h("option", { value: "" }, t("real time: everyone plays now")),
    [3600, 12 * 3600, 86400, 3 * 86400].map((secs) => h("option", { value: String(secs) }, t("turn-based: {pace} per move", { pace: duration(secs) }))));
  // what the away policy does depends on the pace: said under it
  const policyHelp = h("span", { class: "help small muted", id: "away-policy-help" });
  const drawPolicyHelp = () => fill(policyHelp, pace.value
    ? t("turn-based: the bot plays a move its player did not make by its deadline, one move at a time; the table never pauses")
    : t("shown to everyone before they join; when every player has left, the table pauses and no bot plays it out"));
  drawPolicyHelp();
  pace.addEventListener("change", () => { bank.disabled = takeover.value === "" || pace.value !== ""; drawPolicyHelp(); });
  function drawTakeover() {
    const g = current();
    const was = takeover.value || "heuristic";
    fill(takeover,
      g.bots.filter((b) => !(g.styles && b in g.styles)).map((b) => h("option", { value: b, selected: b === was }, t("the {level} bot plays for them", { level: t(b) }))),
      h("option", { value: "", selected: was === "" }, t("nobody: the table waits for them")));
    if (![...takeover.options].some((o) => o.selected)) takeover.value = g.bots.includes("heuristic") ? "heuristic" : g.bots[0];
    bank.disabled = takeover.value === "" || pace.value !== "";
  }
  takeover.addEventListener("change", () => { bank.disabled = takeover.value === "" || pace.value !== ""; });
  const submit = h("button", { type: "submit", class: "primary", id: "create" }, t("Create table"));
  const problem = h("p", { class: "error", role: "alert", id: "create-problem" });

  const current = () => games.find((g) => g.id === gameList.querySelector("input[name=game]:checked").value);

  function drawPlayers() {
    const g = current();
    const want = Number(players.value) || Math.max(g.min_players, Math.min(4, g.max_players));
    fill(players);
    for (let n = g.min_players; n <= g.max_players; n++) {
      players.append(h("option", { value: n, selected: n === Math.min(Math.max(want, g.min_players), g.max_players) }, String(n)));
    }
  }

  function drawOptions() {
    const g = current();
    fill(options);
    for (const o of g.options) {
      if (o.kind === "path") continue; // a file on the server: not something a page can give
      const id = `opt-${o.name}`;
      let input;
      if (o.kind === "bool") {
        input = h("input", { type: "checkbox", id, name: o.name, checked: !!o.default });
      } else if (o.kind === "choice") {
        input = h("select", { id, name: o.name },
          o.choices.map((c) => h("option", { value: String(c), selected: c === o.default }, String(c))));
      } else {
        input = h("input", {
          type: "number", id, name: o.name, value: o.default ?? "",
          min: o.min ?? null, max: o.max ?? null, step: o.kind === "int" ? 1 : "any",
        });
      }
      input.dataset.kind = o.kind;
      options.append(
        h("div", { class: "option" },
          h("label", { for: id }, t(o.name.replace(/_/g, " "))), input,
          h("span", { class: "help small muted" }, t(o.help))),
      );
    }
    if (!options.childElementCount) options.append(h("p", { class: "muted small" }, t("This game has no options.")));
  }

  function drawSeats() {
    const g = current();
    const n = Number(players.value);
    const old = {};
    for (const row of seats.querySelectorAll(".seat-row[data-seat]")) {
      old[row.dataset.seat] = {
        type: row.querySelector("select.seat-type")?.value,
        level: row.querySelector("select.seat-level")?.value,
      };
    }
    const me = Math.min(Number(mySeat.value) || 0, n - 1);
    fill(mySeat);
    for (let i = 0; i < n; i++) mySeat.append(h("option", { value: i, selected: i === me }, t("Seat {n}", { n: i + 1 })));
    fill(seats);
    for (let i = 0; i < n; i++) {
      if (i === me) {
        seats.append(h("div", { class: "seat-row", dataset: { seat: String(i) } }, h("span", { class: "seat-no" }, t("Seat {n}", { n: i + 1 })), h("strong", {}, t("You"))));
        continue;
      }
      const prev = old[i] || {};
      const type = h("select", { class: "seat-type", id: `seat-${i}-type`, "aria-label": t("Seat {n}", { n: i + 1 }) },
        h("option", { value: "bot", selected: (prev.type || "bot") === "bot" }, t("Bot")),
        h("option", { value: "human", selected: prev.type === "human" }, t("A friend (invite link)")),
        h("option", { value: "open", selected: prev.type === "open" }, t("Open seat (anyone may join)")),
      );
      const chosen = prev.level || (g.bots.includes("heuristic") ? "heuristic" : g.bots[0]);
      const option = (b) => h("option", { value: b, selected: b === chosen, title: levelHelp(g, b) }, t(b));
      const styles = g.bots.filter((b) => g.styles && b in g.styles);
      const level = h("select", { class: "seat-level", id: `seat-${i}-level`, "aria-label": t("Seat {n} bot level", { n: i + 1 }) },
        g.bots.filter((b) => !styles.includes(b)).map(option),
        styles.length ? h("optgroup", { label: t("Styles of play (the heuristic, leaning one way)") }, styles.map(option)) : null);
      const help = h("span", { class: "seat-help help small muted" });
      const sync = () => {
        level.hidden = help.hidden = type.value !== "bot";
        help.textContent = levelHelp(g, level.value);
      };
      type.addEventListener("change", sync);
      level.addEventListener("change", sync);
      sync();
      seats.append(h("div", { class: "seat-row", dataset: { seat: String(i) } }, h("span", { class: "seat-no" }, t("Seat {n}", { n: i + 1 })), type, level, help));
    }
    syncTerms();
  }

  /** Hints and undo default to on at a table of you and bots, and off with other
   * people; undo is never offered with open seats (the server refuses it). */
  function syncTerms() {
    const types = [...seats.querySelectorAll("select.seat-type")].map((t) => t.value);
    const practice = types.every((t) => t === "bot");
    const open = types.includes("open");
    if (!touched.hints) hints.checked = practice;
    if (!touched.undo || open) undo.checked = practice;
    undo.disabled = open;
    confirmTurn.disabled = open || !undo.checked;
  }

  function choosePuzzle() {
    const v = startFrom.value;
    ownPosition.style.display = v === "own" ? "" : "none"; // .stack would override [hidden]
    fill(puzzleNotes);
    if (!v.startsWith("puzzle:")) return;
    const p = puzzles.find((x) => `puzzle:${x.name}` === v);
    if (!p) return;
    const radio = gameList.querySelector(`input[name=game][value="${CSS.escape(p.game)}"]`);
    if (radio) radio.checked = true;
    drawPlayers();
    players.value = String(p.players);
    mySeat.value = String(p.seat ?? 0);
    drawOptions();
    drawSeats();
    drawTakeover();
    fill(puzzleNotes,
      p.question ? h("p", {}, h("strong", {}, t(p.question))) : null,
      p.notes ? h("p", {}, t(p.notes)) : null,
      p.source ? h("p", { class: "muted" }, t("From {source}. You sit in seat {n}.", { source: p.source, n: (p.seat ?? 0) + 1 })) : null);
  }

  form.addEventListener("change", (ev) => {
    if (ev.target.name === "game") { drawPlayers(); drawOptions(); drawSeats(); drawTakeover(); }
    if (ev.target === players || ev.target === mySeat) drawSeats();
    if (ev.target.classList.contains("seat-type")) syncTerms();
    if (ev.target === startFrom) choosePuzzle();
  });
  drawPlayers();
  drawOptions();
  drawSeats();
  drawTakeover();

  form.append(
    h("div", { class: "field" }, h("label", { for: "my-name" }, t("Your name")), nameInput),
    h("fieldset", {}, h("legend", {}, t("Game")), gameList),
    h("div", { class: "field" }, h("label", { for: "players" }, t("Players")), players),
    h("details", { class: "options-box" }, h("summary", {}, t("Options")), options),
    h("fieldset", {}, h("legend", {}, t("Seats")),
      h("div", { class: "field" }, h("label", { for: "my-seat" }, t("Your seat")), mySeat), seats),
    h("details", { class: "options-box", id: "start-from-box" }, h("summary", {}, t("Start from a position")),
      h("p", { class: "small muted" }, t("A practice table from a puzzle or a position of your own: every seat but yours must be a bot.")),
      h("div", { class: "field" }, h("label", { for: "start-from" }, t("Start from")), startFrom),
      puzzleNotes, ownPosition),
    h("div", { class: "option" }, h("label", { for: "table-pace" }, t("Pace")), pace,
      h("span", { class: "help small muted" }, t("turn-based: friends play over days, each move by its deadline; shown in the lobby"))),
    h("fieldset", { class: "away-policy" }, h("legend", {}, t("When a player is away")),
      h("div", { class: "option" }, h("label", { for: "takeover" }, t("their turns")), takeover, policyHelp),
      h("div", { class: "option" }, h("label", { for: "time-bank" }, t("time bank (minutes)")), bank,
        h("span", { class: "help small muted" }, t("how long in all each player may be away during the game before the bot plays for them")))),
    h("details", { class: "options-box" }, h("summary", {}, t("Table settings")),
      h("div", { class: "option" }, h("label", { for: "deadline" }, t("seconds to answer")), deadline,
        h("span", { class: "help small muted" }, t("time to answer an offer or a HALT! window before the default (decline, pass) is played for you"))),
      h("div", { class: "option" }, h("label", { for: "wait-for-arrival" }, t("wait for friends")), wait,
        h("span", { class: "help small muted" }, t("a friend's seat waits for them: no bot plays it and no clock runs for it until they first open their link"))),
      h("div", { class: "option" }, h("label", { for: "listed" }, t("listed")), listed,
        h("span", { class: "help small muted" }, t("shown in the lobby, where anyone may join its open seats or watch it"))),
      h("div", { class: "option" }, h("label", { for: "rated" }, t("rated")), rated,
        h("span", { class: "help small muted" }, t("the end changes the players' ratings: you and everyone who joins must be signed in; no hints, undo or chosen deal"))),
      h("div", { class: "option" }, h("label", { for: "hints" }, t("hints allowed")), hints,
        h("span", { class: "help small muted" }, t("anyone at the table may ask the bots what they think of their choices (shown in the table's description: taking a seat agrees to it)"))),
      h("div", { class: "option" }, h("label", { for: "undo" }, t("undo allowed")), undo,
        h("span", { class: "help small muted" }, t("a player's decisions wait a few seconds (or until they confirm), seen by nobody else, and may be taken back until then (not with open seats)"))),
      h("div", { class: "option" }, h("label", { for: "confirm-turn" }, t("Confirm each turn")), confirmTurn,
        h("span", { class: "help small muted" }, t("with undo: your decisions stay yours alone, and can be taken back, until you press Confirm at the end of your turn (off: they are played a few seconds after you decide)")))),
    problem,
    submit,
  );

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    problem.textContent = "";
    const g = current();
    const me = nameInput.value.trim();
    if (me) localStorage.setItem(NAME_KEY, me);
    const opts = {};
    for (const input of options.querySelectorAll("[name]")) {
      const kind = input.dataset.kind;
      if (kind === "bool") opts[input.name] = input.checked;
      else if (kind === "int" || kind === "float") {
        if (input.value === "" || Number.isNaN(Number(input.value))) {
          problem.textContent = t("Option {name}: expected a number.", { name: input.name });
          input.focus();
          return;
        }
        opts[input.name] = Number(input.value);
      } else {
        const o = g.options.find((x) => x.name === input.name);
        const c = o.choices.find((x) => String(x) === input.value);
        opts[input.name] = c === undefined ? input.value : c;
      }
    }
    const seatList = [];
    for (const row of seats.querySelectorAll(".seat-row[data-seat]")) {
      const select = row.querySelector("select.seat-type");
      if (!select) { seatList.push({ type: "human", name: me || null }); continue; }
      const type = select.value;
      seatList.push(type === "bot" ? { type, level: row.querySelector("select.seat-level").value } : { type });
    }
    const body = {
      game: g.id, players: Number(players.value), options: opts, seats: seatList,
      listed: listed.checked,
      wait_for_arrival: wait.checked,
      hints: hints.checked && !rated.checked,
      undo: undo.checked && !undo.disabled && !rated.checked,
      rated: rated.checked,
      takeover: takeover.value || null,
    };
    if (confirmTurn.checked && body.undo) body.confirm_turn = true;
    if (pace.value) body.pace = Number(pace.value);
    else if (takeover.value) {
      const minutes = Number(bank.value);
      if (bank.value === "" || !(minutes >= 0 && minutes <= 1440)) {
        problem.textContent = t("Time bank: expected a number of minutes from 0 to 1440.");
        bank.focus();
        return;
      }
      body.away = Math.round(minutes * 60);
    }
    if (startFrom.value.startsWith("puzzle:")) body.puzzle = startFrom.value.slice("puzzle:".length);
    else if (startFrom.value === "own") {
      if (!positionText.value.trim()) {
        problem.textContent = t("Start from a position: paste the position or choose its file.");
        positionText.focus();
        return;
      }
      body.position = positionText.value;
    }
    const secs = Number(deadline.value);
    if (deadline.value !== "") {
      if (!(secs > 0 && secs <= 3600)) {
        problem.textContent = t("Seconds to answer: expected a number from 1 to 3600.");
        deadline.focus();
        return;
      }
      body.deadline = secs;
    }
    submit.disabled = true;
    try {
      const created = await postJSON("/api/tables", body);
      rememberPasses(created.table.id, { seats: created.seats, watch: created.watch });
      const invites = created.seats.length > 1 || created.table.status === "waiting";
      const mine = created.seats.find((p) => p.seat === Number(mySeat.value)) || created.seats[0];
      if (!invites) {
        location.assign(absolute(mine.link));
        return;
      }
      form.dispatchEvent(new CustomEvent("created", { detail: { ...created, mine: mine.seat } }));
    } catch (e) {
      problem.textContent = e instanceof ApiError ? errorText(e.code, e.message) : String(e);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function linkRow(label, link) {
  const url = absolute(link);
  const input = h("input", { class: "link", readonly: true, value: url, "aria-label": label });
  return h("div", { class: "link-row" },
    h("span", {}, label), input,
    h("button", { type: "button", onclick: () => copyText(url, input) }, t("Copy")));
}

function showCreated(panel, created) {
  const mine = created.seats.find((p) => p.seat === created.mine) || created.seats[0];
  const others = created.seats.filter((p) => p !== mine);
  const open = created.table.seats.filter((s) => s.kind === "open").map((s) => s.seat + 1);
  fill(panel,
    h("h2", {}, t("Your table of {game} is ready", { game: created.table.name })),
    others.length ? h("p", {}, t("Send each friend their own link (it is their seat's key; keep the others to yourself):")) : null,
    others.map((p) => linkRow(t("Seat {n}", { n: p.seat + 1 }), p.link)),
    open.length ? h("p", {}, tn("Open seat {seats}: anyone may join from this lobby. The game starts when every seat is taken.", "Open seats {seats}: anyone may join from this lobby. The game starts when every seat is taken.", open.length, { seats: open.join(", ") })) : null,
    linkRow("Spectators", created.watch.link),
    h("p", {}, h("a", { class: "button primary", id: "go-to-table", href: absolute(mine.link) }, t("Go to your seat"))),
  );
  panel.hidden = false;
  panel.querySelector("#go-to-table").focus();
}

async function refreshTables(waiting, playing, names) {
  let tables;
  try {
    tables = await getJSON("/api/tables");
  } catch {
    return; // keep what is shown; the next refresh tries again
  }
  const row = (tb, action) => h("li", { class: "table-row" },
    h("span", { class: "game-name" }, names[tb.game] || tb.game),
    h("span", { class: "small" }, tb.seats.map((s, i) => [i ? ", " : "", s.kind === "open" ? t("(open)") : seatName(s, s.name)]),
      tableTerms(tb.settings, tb.fairness).length ? h("span", { class: "muted table-terms" }, ` · ${tableTerms(tb.settings, tb.fairness).join(" · ")}`) : null),
    action);
  const open = tables.filter((tb) => tb.status === "waiting");
  const live = tables.filter((tb) => tb.status === "playing");
  fill(waiting, open.length
    ? h("ul", { class: "tables" }, open.map((tb) => row(tb, h("button", {
      type: "button", onclick: () => join(tb),
    }, t("Join")))))
    : h("p", { class: "muted small" }, t("None right now.")));
  fill(playing, live.length
    ? h("ul", { class: "tables" }, live.map((tb) => {
      const own = myGames().find((g) => g.table === tb.id);
      return row(tb, own
        ? h("a", { class: "button primary", href: absolute(own.link) }, t("Back to your seat"))
        : h("a", { class: "button", href: `/watch/${tb.id}` }, t("Watch")));
    }))
    : h("p", { class: "muted small" }, t("None right now.")));
}

/** The seats whose games "your games" lists: those this browser holds the links of. An
 * account's seats, on any device, are the place to add to this list when there are
 * accounts; everything below reads only this. */
function yourSeats() {
  return myGames();
}

async function drawMyGames(box, names) {
  const games = yourSeats();
  const section = document.getElementById("your-games");
  if (!games.length) { if (section) section.hidden = true; return; }
  const rows = await Promise.all(games.map(async (g) => {
    let info = null;
    try { info = await getJSON(`/api/tables/${g.table}`); } catch (e) {
      if (e instanceof ApiError && e.status === 404) { forgetGame(g); return null; }
    }
    const status = info ? { waiting: t("waiting for players"), playing: info.to_act.includes(g.seat) ? t("your turn") : t("in play"), over: t("over"), broken: t("cannot resume") }[info.status] || info.status : "";
    const forget = h("button", { type: "button", class: "quiet small", "aria-label": t("forget {game}", { game: names[g.game] || g.game }), onclick: () => { forgetGame(g); row.remove(); } }, t("Forget"));
    const row = h("li", { class: ["table-row", info && info.status === "playing" && info.to_act.includes(g.seat) && "your-turn"] },
      h("span", { class: "game-name" }, names[g.game] || g.name || g.game),
      h("span", { class: "small" }, `${t("seat {n}", { n: g.seat + 1 })}${info ? ` · ${info.seats.map((s) => s.name).join(", ")}` : ""}${status ? ` · ${status}` : ""}`),
      h("span", { class: "row-actions" }, h("a", { class: "button primary", href: absolute(g.link) }, info && info.status === "over" ? t("See the end") : t("Back to the table")), forget));
    return row;
  }));
  // the games waiting for you first, newest first among them, as the list is
  const live = rows.filter(Boolean);
  const yours = live.filter((r) => r.classList.contains("your-turn"));
  if (section) section.hidden = !live.length;
  fill(box,
    yours.length ? h("p", { class: "your-turn-count", id: "your-turn-count" }, tn("Your turn in {n} game", "Your turn in {n} games", yours.length)) : null,
    h("ul", { class: "tables" }, [...yours, ...live.filter((r) => !yours.includes(r))]));
  document.title = yours.length ? `(${yours.length}) dragonlair: ${t("lobby")}` : `dragonlair: ${t("lobby")}`;
}

async function join(tb) {
  const name = (document.getElementById("my-name")?.value || "").trim();
  if (name) localStorage.setItem(NAME_KEY, name);
  try {
    const joined = await postJSON(`/api/tables/${tb.id}/join`, name ? { name } : {});
    rememberPasses(tb.id, { joined: joined.seat });
    location.assign(absolute(joined.seat.link));
  } catch (e) {
    toast(t("Cannot join: {error}", { error: errorText(e.code, e.message) }));
  }
}
