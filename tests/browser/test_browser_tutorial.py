"""A tutorial in a real headless Chromium against the real server, in English (and Space
Race's and Space Dragons' in German too): the lobby's "Learn to play" opens the lesson,
each step's text is shown (in the page's language) with the parts it names highlighted
and the choices it does not teach greyed out, clicking the taught choice moves the lesson
on, and at its end the summary offers a real game. Screenshots of the lobby, a step and
the end at desktop and phone sizes go to out/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from dragonlair.core import manifests
from dragonlair.i18n import translations
from dragonlair.tutorial import tutorial
from tests.browser.browserkit import DESKTOP, PHONE, shot

pytestmark = pytest.mark.slow


def lesson(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(
        """() => {
          const t = document.querySelector('.table-page');
          const text = document.getElementById('tutorial-text');
          const summary = document.getElementById('tutorial-summary');
          return {
            move: t ? Number(t.dataset.move) : -1,
            legal: t ? Number(t.dataset.legal) : 0,
            pending: t ? t.dataset.pending === '1' : true,
            text: text ? text.textContent : null,
            summary: summary ? summary.textContent : null,
            looked: [...document.querySelectorAll('.board .lesson-look')].map(
              (e) => e.dataset.k || e.dataset.part),
            taught: [...document.querySelectorAll('button.lesson-taught:not([disabled])')].map(
              (e) => e.dataset.action),
            greyed: [...document.querySelectorAll('button[data-action][disabled]')].map(
              (e) => e.dataset.action),
            enabled: [...document.querySelectorAll('button[data-action]:not([disabled])')].map(
              (e) => e.dataset.action),
            legal_actions: [...document.querySelectorAll('button[data-action]')].map(
              (e) => e.dataset.action),
          };
        }"""
    )
    return out


SHIPPED = [m.id for m in manifests() if m.tutorial is not None]
# every lesson in English; in German the one whose board names the most parts and the
# one that plays both a simultaneous and a turn-by-turn phase (the German texts of every
# lesson are checked at the terminal, tests/tui/test_tutorial.py)
RUNS = [(game_id, "en") for game_id in SHIPPED] + [("space-race", "de"), ("space-dragons", "de")]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game_id", "lang"), RUNS)
def test_each_lesson_in_the_browser(browser: Any, server: Any, game_id: str, lang: str) -> None:
    tut = tutorial(game_id)
    words = translations(lang).gettext
    ctx = browser.new_context(viewport=DESKTOP, locale=lang)
    ctx.add_init_script("localStorage.setItem('dragonlair:pace', '0')")
    errors: list[str] = []
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/")
        page.wait_for_selector(f'#learn button[data-tutorial="{game_id}"]')
        assert words("Learn to play") in page.inner_text("#learn")
        if game_id == next(g for g, lg in RUNS if lg == lang):
            shot(page, f"tutorial-lobby-{lang}-desktop", full_page=False)
        page.click(f'#learn button[data-tutorial="{game_id}"]')
        page.wait_for_url("**/play/**")
        for k, step in enumerate(tut.steps, 1):
            page.wait_for_function(
                "n => { const e = document.getElementById('tutorial-text');"
                " const t = document.querySelector('.table-page');"
                " return e && t && t.dataset.legal !== '0' && t.dataset.pending === '0'"
                " && document.querySelector('.lesson-head').textContent.includes(' ' + n + ' '); }",
                arg=k,
            )
            now = lesson(page)
            assert now["text"] == words(step.text), f"step {k}"
            assert sorted(set(now["looked"])) == sorted(set(step.look)), f"step {k}"
            if step.allow is not None:
                assert set(now["enabled"]) <= set(step.allow), f"step {k}: {now}"
                assert now["taught"], f"step {k}: no taught choice shown"
                choice = now["taught"][0]
            else:
                choice = now["enabled"][0]
            if step.allow is not None:
                # every choice the step does not teach is greyed out
                assert set(now["greyed"]) >= set(now["legal_actions"]) - set(step.allow)
            if k == 2:
                shot(page, f"tutorial-{game_id}-step-{lang}-desktop", full_page=False)
                page.set_viewport_size(PHONE)
                page.wait_for_timeout(300)
                shot(page, f"tutorial-{game_id}-step-{lang}-phone", full_page=False)
                page.set_viewport_size(DESKTOP)
            move = now["move"]
            page.locator(f'button[data-action="{choice}"]:not([disabled])').first.click()
            page.wait_for_function(
                "m => Number(document.querySelector('.table-page').dataset.move) > m", arg=move
            )
        page.wait_for_selector("#tutorial-summary")
        shown_end = lesson(page)
        assert shown_end["summary"] == words(tut.summary)
        assert page.get_attribute("#real-game", "href") == "/"
        shot(page, f"tutorial-{game_id}-end-{lang}-desktop", full_page=False)
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(300)
        shot(page, f"tutorial-{game_id}-end-{lang}-phone", full_page=False)
        page.click("#real-game")
        page.wait_for_selector("#learn")
    finally:
        ctx.close()
    assert not errors, errors
