// Learning a game by playing it: the lobby's "Learn to play" (a tutorial table of one's
// own, against the tutorial's bots on its fixed deal), and at that table the lesson's
// panel: the step's text, the parts of the board it is about highlighted, the choices it
// does not teach greyed out (the server refuses them too), and at the end the summary with
// "Play a real game". The texts come in English with the state and are translated here.
import { ApiError, postJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { errorText, t } from "./i18n.js";

/** The lobby's panel: each game with a tutorial, and the button that starts it. */
export function learnPanel(games) {
  const taught = games.filter((g) => g.tutorial);
  if (!taught.length) return null;
  const problem = h("p", { class: "error", role: "alert" });
  const start = async (g, button) => {
    button.disabled = true;
    fill(problem);
    try {
      const created = await postJSON("/api/tables", { game: g.id, tutorial: true });
      location.assign(new URL(created.seats[0].link, location.origin).href);
    } catch (e) {
      problem.textContent = e instanceof ApiError ? errorText(e.code, e.message) : String(e);
      button.disabled = false;
    }
  };
  return h("section", { class: "panel learn", id: "learn" },
    h("h2", {}, t("Learn to play")),
    h("p", { class: "muted" }, t("A lesson of a few minutes at a table of your own: play against bots, one rule at a time as it comes up.")),
    h("ul", { class: "learn-list" }, taught.map((g) => {
      const button = h("button", { type: "button", class: "primary", dataset: { tutorial: g.id } }, t("Learn to play"));
      button.addEventListener("click", () => start(g, button));
      return h("li", {}, h("span", { class: "learn-game" }, g.name), button);
    })),
    problem);
}

/** The lesson's panel at a tutorial table (in the coach's place: such a table offers
 * neither hints nor undo). */
export function lessonPanel(lesson, status) {
  const done = lesson.text === null || status === "over";
  return h("section", { class: ["coach", "lesson", done && "done"], id: "tutorial", "aria-label": t("lesson"), "aria-live": "polite" },
    h("p", { class: "lesson-head small" },
      h("strong", {}, t(lesson.title)), " · ",
      done ? t("lesson complete") : t("step {n} of {total}", { n: lesson.step, total: lesson.steps })),
    done
      ? [h("p", { class: "lesson-text", id: "tutorial-summary" }, t(lesson.summary || "")),
        h("p", {}, h("a", { class: "button primary", id: "real-game", href: "/" }, t("Play a real game")))]
      : h("p", { class: "lesson-text", id: "tutorial-text" }, t(lesson.text)));
}

/** Highlight what the step is about, and grey out the choices it does not teach. */
export function markLesson(root, lesson) {
  if (!lesson || lesson.text === null) return;
  for (const part of lesson.look) {
    const sel = `.board [data-k="${CSS.escape(part)}"], .board [data-part="${CSS.escape(part)}"]`;
    for (const el of root.querySelectorAll(sel)) el.classList.add("lesson-look");
  }
  if (!lesson.allow) return;
  for (const b of root.querySelectorAll("button[data-action]")) {
    if (lesson.allow.includes(b.dataset.action)) {
      b.classList.add("lesson-taught");
    } else {
      b.disabled = true;
      b.title = t("Not part of this step of the lesson");
    }
  }
}
