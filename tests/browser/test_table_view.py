"""The table as a Board Game Arena player expects it, in a real Chromium: the action bar in
view on a desktop and a phone in every game, no question that has one answer, an invited
friend's seat that waits for them and takes their name, the winner at the top of the end
screen, a rematch, the "your games" list, names instead of seat numbers, the players'
rules, focus kept on the choices, what happened shown, and a way back from an unknown
page."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.browserkit import (
    DESKTOP,
    PHONE,
    Server,
    click_one,
    create_in_lobby,
    near_end,
    play_to_end,
    shot,
    table_state,
    wait_ready,
)

# A server of its own (tests/browser/conftest.py): the lobby's first page of tables in play must
# hold the test's.
OWN_SERVER = True

GAMES: dict[str, dict[str, Any]] = {
    "space-dragons": {"players": 3, "options": {}},
    "space-race": {"players": 3, "options": {}},
    "dragon-stripes": {"players": 3, "options": {}},
    "dragon-race": {"players": 3, "options": {"turn_cap": 6}},
}


def with_bots(game: str, n: int, seed: int, **extra: Any) -> dict[str, Any]:
    return {
        "game": game,
        "players": n,
        "options": GAMES[game]["options"],
        "seats": [{"type": "human", "name": "Ann"}]
        + [{"type": "bot", "level": "random"}] * (n - 1),
        "seed": seed,
        **extra,
    }


def bar_boxes(page: Any) -> list[dict[str, Any]]:
    """At one moment: the boxes of the action bar, its prompt and each of its buttons. A
    phone's bar repeats the hand as one row that scrolls sideways (``.bar-hand``): a
    button there is measured once the row is scrolled to it, as a thumb would."""
    out: list[dict[str, Any]] = page.evaluate(
        """() => ['.actionbar', '.actionbar .prompt', '.actionbar .bar-hand',
                  '.actionbar button[data-action]']
            .flatMap(sel => [...document.querySelectorAll(sel)])
            .map(e => { const row = e.matches('button') && e.closest('.bar-hand');
                        if (row) row.scrollLeft += e.getBoundingClientRect().left
                          - row.getBoundingClientRect().left;
                        const r = e.getBoundingClientRect();
                        return {what: e.className, x: r.x, y: r.y, width: r.width,
                                height: r.height}; })"""
    )
    return out


def assert_in_view(box: dict[str, Any], vp: dict[str, int]) -> None:
    assert box["y"] >= 0 and box["y"] + box["height"] <= vp["height"] + 0.5, (box, vp)
    assert box["x"] >= 0 and box["x"] + box["width"] <= vp["width"] + 0.5, (box, vp)


def box_of(page: Any, selector: str) -> dict[str, float] | None:
    """The first such element's box once it is visible, measured in one step in the page:
    the table may draw itself again at any moment (a late message), and an element found,
    then measured, could be the one just replaced (no box)."""
    page.locator(selector).first.wait_for(state="visible")
    box: dict[str, float] | None = page.evaluate(
        """(sel) => { const e = document.querySelector(sel); if (!e) return null;
                      const r = e.getBoundingClientRect();
                      return {x: r.x, y: r.y, width: r.width, height: r.height}; }""",
        selector,
    )
    return box


def box_in_view(page: Any, selector: str) -> dict[str, float]:
    """The element's box; fails unless all of it is inside the viewport."""
    box = box_of(page, selector)
    vp = page.viewport_size
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= vp["height"] + 0.5, (selector, box, vp)
    assert box["x"] >= 0 and box["x"] + box["width"] <= vp["width"] + 0.5, (selector, box, vp)
    return dict(box)


# an element of each game's board and a property its own style sheet (board.css) sets
BOARD_RULE = {
    "space-dragons": (".sd-ships", "display", "grid"),
    "space-race": (".sr-ships", "display", "grid"),
    "dragon-stripes": (".ds-facts", "display", "flex"),
    "dragon-race": (".race-players", "display", "grid"),
}


def assert_board_style(page: Any, game: str) -> None:
    """The board's style sheet, from its game's package, is in the page once, between the
    page's app.css and app-end.css (the order the rules' cascade depends on), and applied."""
    sheets = page.evaluate("() => [...document.styleSheets].map(s => new URL(s.href).pathname)")
    assert sheets == ["/static/app.css", f"/static/games/{game}/board.css", "/static/app-end.css"]
    selector, prop, value = BOARD_RULE[game]
    found = page.locator(f".board {selector}").first
    assert found.evaluate("(e, p) => getComputedStyle(e).getPropertyValue(p)", prop) == value


@pytest.mark.parametrize("game", list(GAMES))
def test_the_action_bar_is_in_view_on_a_desktop_and_a_phone(
    server: Server, new_page: Callable[..., Any], game: str
) -> None:
    created = server.create(**with_bots(game, GAMES[game]["players"], seed=3))
    for viewport in (DESKTOP, PHONE):
        page = new_page(viewport)
        page.goto(server.url + created["seats"][0]["link"])
        rng = random.Random(game)
        for n in range(4):
            st = wait_ready(page)
            if st["status"] == "over":
                break
            # wherever the page is scrolled, the prompt and the choices are in view
            for where in ("0", "document.body.scrollHeight"):
                page.evaluate(f"() => window.scrollTo(0, {where})")
                boxes = bar_boxes(page)
                bar = boxes[0]
                if viewport is DESKTOP:
                    assert bar["y"] < 120, "the bar sits at the top on a desktop"
                else:
                    assert bar["y"] + bar["height"] > PHONE["height"] - 2, "at the bottom"
                assert len(boxes) >= 2, "a prompt"
                for box in boxes:
                    assert_in_view(box, viewport)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
            if n == 0:
                shot(page, f"{game}-bar-{viewport['width']}", full_page=False)
                assert_board_style(page, game)
            click_one(page, rng)


def test_no_click_is_needed_for_a_halt_window_without_a_halt_card(
    server: Server, new_page: Callable[..., Any]
) -> None:
    created = server.create(**with_bots("dragon-race", 3, seed=12))
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    rng = random.Random(1)
    windows = 0
    halts_held = 0
    for _ in range(300):
        page.wait_for_function(
            "() => { const t = document.querySelector('.table-page');"
            " return t && (t.dataset.status === 'over' || t.dataset.legal !== '0'); }"
        )
        st = table_state(page)
        if st["status"] == "over":
            break
        actions = page.eval_on_selector_all(
            "button[data-action]", "bs => [...new Set(bs.map(b => b.dataset.action))]"
        )
        if actions == ["pass"]:
            # asked HALT! or pass without a HALT! card: the page says so, nobody clicks,
            # and the game goes on by itself
            windows += 1
            assert "no HALT! card" in page.locator(".actionbar .prompt").inner_text()
            page.wait_for_function(
                "m => Number(document.querySelector('.table-page').dataset.move) > m",
                arg=st["move"],
            )
            continue
        if any(a.startswith("halt ") for a in actions):
            halts_held += 1
            # a real choice: HALT! looks nothing like letting it stand
            halt = page.locator(".actionbar button[data-action^='halt ']").first
            stand = page.locator(".actionbar button[data-action='pass']")
            assert "tone-danger" in (halt.get_attribute("class") or "")
            assert "tone-quiet" in (stand.get_attribute("class") or "")
            bg = [b.evaluate("e => getComputedStyle(e).backgroundColor") for b in (halt, stand)]
            assert bg[0] != bg[1]
            # and a countdown says how long the person has, and what happens then
            countdown = page.locator(".actionbar .deadline").inner_text()
            assert " s " in countdown and "let it stand" in countdown
            stand.click()
        else:
            # once it has been asked while holding a HALT! card, the person plays its HALT!
            # cards as numbers on its turns, so that it soon holds none
            halts = page.eval_on_selector_all(
                "button[data-action^='play '][aria-label*='HALT']",
                "bs => bs.map(b => b.dataset.action)",
            )
            others = [a for a in actions if a not in halts] or actions
            choice = halts[0] if halts and halts_held else rng.choice(others)
            page.locator(f'button[data-action="{choice}"]').first.click()
        page.wait_for_function(
            "m => { const t = document.querySelector('.table-page');"
            " return Number(t.dataset.move) > m || t.dataset.status === 'over'; }",
            arg=st["move"],
        )
    else:
        raise AssertionError("the race did not end")
    assert windows > 0, "the person should have met a window without a HALT! card"
    assert halts_held > 0, "and one with a HALT! card, before playing it"
    shot(page, "dragon-race-no-halt-clicks")


def test_an_invited_friend_is_waited_for_and_sets_their_name(
    browser: Any, new_page: Callable[..., Any], own_server: Callable[[Server], Server]
) -> None:
    # a table whose takeover bot would step in at once and whose offers last a second
    own = own_server(Server(away="0.1", deadline="1"))
    ann = new_page()
    create_in_lobby(ann, own, "dragon-stripes", 2, seats=[("human", None)], name="Ann")
    rng = random.Random(3)
    waiting = "open their invite link"
    for _ in range(60):
        ann.wait_for_function(
            "w => { const t = document.querySelector('.table-page');"
            " return t && (t.dataset.status === 'over' || (t.dataset.legal !== '0'"
            " && t.dataset.pending === '0')"
            " || document.querySelector('.actionbar').innerText.includes(w)); }",
            arg=waiting,
        )
        if waiting in ann.locator(".actionbar").inner_text():
            # a move with one answer is answered for the friend too (it is no
            # takeover); past that, a real choice waits for them
            ann.wait_for_timeout(2000)
            if waiting in ann.locator(".actionbar").inner_text():
                break
            continue
        assert table_state(ann)["status"] != "over", "the friend should have been asked"
        click_one(ann, rng)
    else:
        raise AssertionError("the friend's seat was never asked")
    # the friend's seat is asked: nobody plays it and no clock runs out for it
    moves = table_state(ann)["move"]
    chip = ann.locator(".seat-chip[data-seat='1']")
    assert "invited" in chip.inner_text() and "away" not in chip.inner_text()
    assert ann.locator(".deadline").count() == 0
    ann.wait_for_timeout(2500)  # well past the away time and the deadline
    assert table_state(ann)["move"] == moves
    assert "away" not in chip.inner_text()
    # the friend opens their link and names their seat; the game goes on
    ann.locator("details.invites summary").click()
    friend = new_page()
    friend.goto(ann.locator("details.invites input.link").first.input_value())
    friend.wait_for_selector(".table-page[data-seat='1']")
    friend.fill("#seat-name", "Bo")
    friend.click("#name-form button[type=submit]")
    ann.wait_for_function(
        "() => document.querySelector(\".seat-chip[data-seat='1'] .name\").innerText.includes('Bo')"
    )
    assert friend.locator("#name-form").count() == 0
    assert "Bo" in friend.locator("#topbar-info").inner_text()
    assert table_state(friend)["legal"] > 0


def test_the_end_shows_the_winner_first_and_offers_a_rematch(
    server: Server, new_page: Callable[..., Any]
) -> None:
    for viewport, game in ((DESKTOP, "space-race"), (PHONE, "dragon-stripes")):
        # a few choices before the end: the end screen is what this is about
        position = near_end(game, 3, GAMES[game]["options"], seed=8)
        created = server.create(**with_bots(game, 3, seed=8, position=position))
        page = new_page(viewport)
        page.goto(server.url + created["seats"][0]["link"])
        play_to_end(page, random.Random(4))
        page.locator(".result").wait_for()
        page.evaluate("() => window.scrollTo(0, 0)")
        head = box_in_view(page, ".result h2")
        assert "win" in page.locator(".result h2").inner_text().lower()
        assert box_of(page, ".actionbar") is not None
        if viewport is DESKTOP:
            assert head["y"] < 300, "the winner is at the top"
            box_in_view(page, ".result .podium")
            box_in_view(page, "#rematch")
        # the score table fits its box: total and rank are not cut off
        fits = page.evaluate(
            "() => { const r = document.querySelector('.result');"
            " return r.scrollWidth <= r.clientWidth + 1; }"
        )
        assert fits, "the score table is wider than its box"
        names = page.locator(".result .podium").inner_text()
        assert "Ann" in names and "seat" not in names.lower()
        log = page.locator("#log").inner_text()
        assert "seat(s)" not in log and "winning seats" not in log
        # the seats the game's event table declares are named (the catalog's seat_fields)
        assert "Random bot 2" in log and "Ann" in log
        shot(page, f"{game}-end-{viewport['width']}", full_page=False)
        # a rematch: same seats, a new deal, at a new table
        old = page.url
        page.click("#rematch")
        page.wait_for_url(lambda u, old=old: u != old and "/play/" in u)
        st = wait_ready(page)
        assert st["seat"] == "0" and st["status"] == "playing"
        chips = page.locator(".seat-chip .name").all_inner_texts()
        assert chips[0].startswith("Ann") and len(chips) == 3


def test_your_games_bring_you_back_to_your_seat(
    server: Server, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    url = create_in_lobby(page, server, "space-dragons", 3)
    table = url.split("/play/")[1].split("#")[0]
    page.goto(server.url + "/")
    row = page.locator("#my-games li", has_text="Space Dragons")
    row.first.wait_for()
    assert "seat 1" in row.first.inner_text()
    # the table in play offers your seat, not a spectator's view
    page.locator("#playing-tables li a", has_text="Back to your seat").first.wait_for()
    row.first.locator("a", has_text="Back to the table").click()
    page.wait_for_url(f"**/play/{table}**")
    st = wait_ready(page)
    assert st["seat"] == "0"


def test_rules_for_players_focus_on_the_choices_and_what_happened(
    server: Server, new_page: Callable[..., Any]
) -> None:
    created = server.create(**with_bots("space-dragons", 3, seed=6))
    page = new_page(paced=True)
    page.goto(server.url + created["seats"][0]["link"])
    st = wait_ready(page)
    assert page.title().startswith("● Your turn")
    # the Rules dialog holds the players' rules, with the current choices explained
    page.keyboard.press("?")
    dialog = page.locator("dialog#rules")
    dialog.locator("h2").wait_for()
    text = dialog.inner_text()
    assert "Your choices now" in text and "seat 0" not in text and ".py" not in text
    assert dialog.locator("h3").count() >= 3 and dialog.locator("li").count() >= 5
    page.keyboard.press("Escape")
    rng = random.Random(2)
    took = False
    marked = False  # the log marks what happened since the person's last move
    for _ in range(60):
        click_one(page, rng)
        st = wait_ready(page)
        took = took or page.locator(".sd-round.last .played.took").count() > 0
        if st["status"] == "over":
            break
        # after a move the focus is back on the choices, never on the page's body
        focused = page.evaluate(
            "() => { const e = document.activeElement; return e && (e.dataset.action"
            " || (e.classList.contains('actionbar') ? 'bar' : e.tagName)); }"
        )
        assert focused not in ("BODY", None), focused
        assert page.title().startswith("● Your turn")
        marked = marked or page.locator("#log li.new").count() > 0
        if marked and page.locator(".sd-round.last .played.took").count() > 0:
            took = True
            break  # both seen (the focus checked at every move until then)
    # a round just won stays on the table with its winner marked (at the end too)
    took = took or page.locator(".sd-round.last .played.took").count() > 0
    assert took, "a finished round should be shown with its winner"
    assert marked, "the others' moves since the person's own should be marked"
    assert "wins the round" in page.locator(".took-line").inner_text()


# records, after every redraw, the animations running on the board's elements
WATCH_ANIMATIONS = """
window.__animations = [];
new MutationObserver(() => {
  for (const e of document.querySelectorAll('.board *')) {
    const name = getComputedStyle(e).animationName;
    if (name && name !== 'none') window.__animations.push(name);
  }
}).observe(document, {childList: true, subtree: true});
"""


def test_animations_respect_reduced_motion(browser: Any, server: Server) -> None:
    def animated(motion: str) -> list[str]:
        created = server.create(**with_bots("dragon-stripes", 2, seed=2))
        ctx = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
        ctx.add_init_script("localStorage.setItem('dragonlair:pace', '0')")
        ctx.add_init_script(WATCH_ANIMATIONS)
        try:
            page = ctx.new_page()
            page.goto(server.url + created["seats"][0]["link"])
            wait_ready(page)
            for _ in range(3):  # a few moves: the board changes
                click_one(page, random.Random(1))
                if wait_ready(page)["status"] == "over":
                    break
            out: list[str] = page.evaluate("() => window.__animations")
            return out
        finally:
            ctx.close()

    assert animated("no-preference"), "a change on the board is animated"
    assert animated("reduce") == []


def test_an_unknown_page_leads_back_to_the_lobby(
    server: Server, new_page: Callable[..., Any], pages: Any
) -> None:
    page = new_page()
    r = page.goto(server.url + "/no/such/page")
    assert r is not None and r.status == 404
    assert "There is nothing here" in page.locator("h1").inner_text()
    page.click("text=Back to the lobby")
    page.wait_for_selector("#create")
    # the browser reports the page's own 404; that one is expected here
    pages.errors[:] = [e for e in pages.errors if "status of 404" not in e]
