"""What a player reads at a table, in a real headless Chromium against the real server:
the log names every card the way its face does (never an internal id), the HALT! prompt
says what happened before it asks, the end of a race does not say whose turn it is, the
discards lie in a row, a tooltip does not cover the board when a turn begins, a phone's
bars leave room for the game, and a German page's buttons speak German to a screen
reader."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.browserkit import (
    DESKTOP,
    PHONE,
    Server,
    click_one,
    near_end,
    play_in_page,
    wait_ready,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

# an internal number where a face should be: "(card 33)", "(cards 4, 5, 6)", "(#12)",
# "dragon 19"
INTERNAL = re.compile(r"\((?:card|cards|Karte|Karten) [\d, ]+\)|\(#\d+\)|\b(?:dragon|Drache) \d+\b")


def seat_page(
    server: Server,
    new_page: Callable[..., Any],
    game: str,
    players: int,
    viewport: dict[str, int] | None = None,
    position: str | None = None,
    **options: Any,
) -> Any:
    created = server.create(
        game=game,
        players=players,
        seed=11,
        options=options,
        seats=[{"type": "human", "name": "Mia"}]
        + [{"type": "bot", "level": "random"}] * (players - 1),
        **({} if position is None else {"position": position}),
    )
    page = new_page(viewport=viewport or DESKTOP)
    page.goto(server.url + created["seats"][0]["link"])
    wait_ready(page)
    return page


def log(page: Any) -> list[dict[str, Any]]:
    """The page's log: each line's text and the event it was written from."""
    lines: list[dict[str, Any]] = page.evaluate(
        "() => window.dragonlair.log.map((l) => ({text: l.text, ev: l.ev}))"
    )
    return lines


def faces(page: Any, deck: str) -> list[str]:
    """The printed names of a deck of the table's catalog, by id - 1."""
    names: list[str] = page.evaluate(
        f"() => window.dragonlair.catalog.components[{deck!r}].map((c) => c.name)"
    )
    return names


def check_faces(lines: list[dict[str, Any]], deck: list[str], types: set[str]) -> int:
    """Every line names no internal number, and each of ``types`` names its cards' faces;
    how many such lines there were."""
    named = 0
    for line in lines:
        text, ev = line["text"], line["ev"]
        assert not INTERNAL.search(text), text
        if ev["type"] in types and isinstance(ev.get("cards"), list) and ev["cards"]:
            for card in ev["cards"]:
                assert deck[card - 1] in text, (text, card, deck[card - 1])
            named += 1
    return named


def test_the_race_log_names_cards_by_their_faces_and_the_end_says_it_is_over(
    server: Server, new_page: Callable[..., Any]
) -> None:
    page = seat_page(server, new_page, "dragon-race", 2, turn_cap=8)
    play_in_page(page, seed=3)
    page.locator(".result").wait_for()
    lines = log(page)
    deck = faces(page, "cards")
    # the deal and every draw of this seat name the cards as the hand shows them
    assert check_faces(lines, deck, {"dealt", "drew"}) >= 2
    plays = [x for x in lines if x["ev"]["type"] == "played"]
    assert plays and all(deck[x["ev"]["card"] - 1] in x["text"] for x in plays)
    # after the end the board says the race is over, not whose turn it is
    header = page.locator(".dragon-race .phase-line").inner_text()
    assert "is playing" not in header and "over" in header


def test_after_the_end_dragon_stripes_says_the_game_is_over(
    server: Server, new_page: Callable[..., Any]
) -> None:
    position = near_end("dragon-stripes", 2, seed=6)  # the end is what matters here
    page = seat_page(server, new_page, "dragon-stripes", 2, position=position)
    play_in_page(page, seed=6)
    page.locator(".result").wait_for()
    header = page.locator(".phase-line").inner_text()
    assert "over after turn" in header and "started by" not in header, header


def test_space_race_names_its_cards(server: Server, new_page: Callable[..., Any]) -> None:
    page = seat_page(server, new_page, "space-race", 2)
    rng = random.Random(4)
    for _ in range(8):
        if wait_ready(page)["status"] == "over":
            break
        click_one(page, rng)
    lines = log(page)
    assert check_faces(lines, faces(page, "space"), {"dealt", "received"}) >= 2
    assert any(x["ev"]["type"] == "chose" and not x["ev"].get("redacted") for x in lines)
    # the buttons' words (tooltips, screen-reader labels) name the cards without a number
    st = wait_ready(page)
    if st["status"] != "over":
        words: list[str] = page.eval_on_selector_all(
            "button[data-action]",
            "bs => bs.flatMap(b => [b.getAttribute('aria-label'), b.dataset.info])",
        )
        assert words and not [w for w in words if w and INTERNAL.search(w)], words


def test_space_dragons_names_a_dragon_by_its_face(
    server: Server, new_page: Callable[..., Any]
) -> None:
    page = seat_page(server, new_page, "space-dragons", 3)
    rng = random.Random(5)
    for _ in range(40):
        if any(x["ev"]["type"] == "claimed" for x in log(page)):
            break
        if wait_ready(page)["status"] == "over":
            break
        click_one(page, rng)
    lines = log(page)
    claims = [x for x in lines if x["ev"]["type"] in ("claimed", "revealed")]
    assert claims
    for x in lines:
        assert not INTERNAL.search(x["text"]), x["text"]
    dragons = page.evaluate("() => window.dragonlair.catalog.components.dragons")
    for x in claims:
        d = dragons[x["ev"]["dragon"] - 1]
        assert f"the dragon of {d['points']} point" in x["text"], x["text"]
        assert "no symbols" not in x["text"]


def test_the_halt_prompt_says_what_happened_then_asks(
    server: Server, new_page: Callable[..., Any]
) -> None:
    page = seat_page(server, new_page, "dragon-race", 2)
    # the page as it is when the other seat's play opens a HALT! window for this seat:
    # drawn by the page's own code from a view with the window open
    out = page.evaluate(
        """() => {
          const p = window.dragonlair;
          const v = p.msg.view;
          const card = v.hand[0];
          v.window = true;
          v.active = 1;
          v.last = `play ${card}`;
          v.turn_start = [...v.pawns];
          v.pawns = v.pawns.map((x, i) => (i === 1 ? x + 4 : x));
          p.msg.legal = ["pass"];
          p.prefs.autoplay = false;
          p.render();
          return {face: p.catalog.components.cards[card - 1].name, from: v.turn_start[1],
                  to: v.pawns[1], bot: p.names()[1],
                  prompt: document.querySelector('.actionbar .prompt').innerText};
        }"""
    )
    prompt = out["prompt"]
    # who played what, and where it moved, before the question
    assert prompt.startswith(f"{out['bot']} played {out['face']}"), prompt
    assert f"{out['bot']} from spot {out['from']} to {out['to']}" in prompt, prompt
    assert prompt.index("spot") < prompt.index("HALT!"), prompt


def test_the_discards_lie_in_a_row(server: Server, new_page: Callable[..., Any]) -> None:
    page = seat_page(server, new_page, "dragon-race", 2)
    box = page.evaluate(
        """() => {
          const p = window.dragonlair;
          p.msg.view.discards = [1, 2, 3, 4, 5, 6, 7, 8];
          p.render();
          const r = document.querySelector('.race-piles .discards').getBoundingClientRect();
          return {width: r.width, height: r.height,
                  cards: document.querySelectorAll('.race-piles .discards .card').length};
        }"""
    )
    assert box["cards"] == 8
    assert box["height"] < 70 and box["width"] > 4 * box["height"], box


def test_no_tooltip_covers_the_board_when_a_turn_begins(
    server: Server, new_page: Callable[..., Any]
) -> None:
    page = seat_page(server, new_page, "dragon-race", 2)
    page.wait_for_timeout(500)
    # focus is on a choice, ready for the keyboard, but its words are not shown
    assert page.evaluate("() => !!document.activeElement?.dataset?.action")
    tip = page.locator(".info-tip")
    assert tip.count() == 0 or not tip.is_visible()
    # moving focus with the keyboard shows them
    page.keyboard.press("ArrowRight")
    tip.wait_for(state="visible", timeout=5000)


@pytest.mark.parametrize("game", ["dragon-race", "space-race"])
def test_a_phones_bars_leave_room_for_the_game(
    server: Server, new_page: Callable[..., Any], game: str
) -> None:
    page = seat_page(server, new_page, game, 3, viewport=PHONE)
    size = page.evaluate(
        """() => {
          const height = (sel) => document.querySelector(sel).getBoundingClientRect().height;
          return {top: height('.topbar'), badge: height('#topbar-info .badge'),
                  bar: height('.actionbar')};
        }"""
    )
    # the top bar is one line, the seat badge too; the bottom bar under a quarter
    assert size["top"] < 50 and size["badge"] < 26, size
    assert size["bar"] < 0.25 * PHONE["height"], size


def test_the_lobby_has_no_empty_gap_before_create(
    server: Server, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    gap = page.evaluate(
        """() => {
          const create = document.querySelector('#create');
          let before = create.previousElementSibling;
          while (before && !before.innerText.trim()) {
            before = before.previousElementSibling;
          }
          return create.getBoundingClientRect().top - before.getBoundingClientRect().bottom;
        }"""
    )
    assert gap < 30, gap


def test_a_german_page_speaks_german_on_its_buttons(server: Server, browser: Any) -> None:
    created = server.create(
        game="space-dragons",
        players=3,
        seed=11,
        seats=[{"type": "human", "name": "Mia"}] + [{"type": "bot", "level": "random"}] * 2,
    )
    ctx = browser.new_context(viewport=DESKTOP, locale="de-DE")
    try:
        page = ctx.new_page()
        page.goto(server.url + created["seats"][0]["link"])
        wait_ready(page)
        labels: list[str] = page.eval_on_selector_all(
            "button[data-action]", "bs => bs.map(b => b.getAttribute('aria-label'))"
        )
        assert labels
        english = re.compile(r"\b(hire|play|pts|no effect|no symbols|tool|science|mood|crime)\b")
        assert not [x for x in labels if english.search(x)], labels
        assert all(x.startswith("Anheuern: ") for x in labels), labels
        # a dragon claimed, as the log writes it from the event the server sends (whose
        # label is the engine's, in English): by its face, in German
        line = page.evaluate(
            """async () => {
              const p = window.dragonlair;
              const {eventText} = await import('/static/js/table.js');
              const d = p.catalog.components.dragons.findIndex((x) => !x.symbols.some(Boolean)) + 1;
              const ev = {seq: 0, type: 'claimed', winner: 0, card: 5, dragon: d,
                          label: `dragon ${d} (11 pts; no symbols)`};
              return {d, points: p.catalog.components.dragons[d - 1].points,
                      text: eventText(p.catalog, ev, p.names(), p.board)};
            }"""
        )
        assert line["d"] > 0 and f"holt den Drachen mit {line['points']} Punkt" in line["text"], (
            line
        )
        assert not re.search(r"\b(dragon|no|symbols|pts)\b", line["text"]), line
        # the end as the page draws it: the seats say who won, in German
        strip = page.evaluate(
            """() => {
              const p = window.dragonlair;
              p.msg.status = "over";
              Object.assign(p.msg.view, {over: true, result: {winners: [0], ranks: [1, 2, 2],
                points: [3, 1, 1], breakdown: [{}, {}, {}], reason: null}});
              p.render();
              return document.querySelector('.seat-strip').innerText;
            }"""
        )
        assert "Gewinner" in strip and not re.search(r"\bwinner\b", strip), strip
        # the lobby's bot levels, in German
        page.goto(server.url + "/")
        page.wait_for_selector("#create")
        page.select_option("#seat-1-type", "bot")
        page.select_option("#seat-1-level", "heuristic")
        text = page.evaluate("() => document.body.innerText")
        assert "heuristic:" not in text and "Heuristik: spielt" in text
    finally:
        ctx.close()
