"""The table's chat in Chromium: two seats (two browser contexts) and a spectator talk;
what they type stays text (markup runs nothing and makes no element, a link is not made
clickable); a message that is too long is refused in words and sends nothing; a quick
phrase reaches each reader in their own language; muting hides a player's messages in
that browser only (and stays after a reload); a report reaches the operator's admin page,
where hiding the message takes it out of everyone's chat. Screenshots at 1366x900 and
390x844, English and German, go to out/screenshots/chat-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.browserkit import OUT, PHONE, Server
from tests.browser.conftest import Pages

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

TOKEN = "operator-token-for-the-browser-test"
IMG = '<img src=x onerror="window.__pwned = 1; alert(1)">'
SCRIPT = "<script>window.__pwned = 2; alert(2)</script>"
LINK = "see https://evil.example/win and <a href=javascript:alert(3)>this</a>"
# what must never appear inside the chat: an element made from what somebody typed
INJECTED = "#chat-log img, #chat-log script, #chat-log a, #chat-log iframe"


@pytest.fixture(scope="module")
def server(browser: Any) -> Iterator[Server]:
    s = Server(admin_token=TOKEN)
    yield s
    s.close()


def texts(page: Any) -> list[str]:
    return [t for t in page.locator("#chat-log .chat-msg .chat-text").all_text_contents()]


def wait_texts(page: Any, n: int) -> list[str]:
    page.wait_for_function(
        "n => document.querySelectorAll('#chat-log .chat-msg').length === n", arg=n
    )
    return texts(page)


def open_page(pages: Pages, server: Server, link: str, lang: str = "en", **kw: Any) -> Any:
    page = pages.new(**kw)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    dialogs: list[str] = []

    def dialog(d: Any) -> None:  # an alert() would mean a message ran as code
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    page.dialogs = dialogs
    page.goto(server.url + link)
    page.locator(".table-page").wait_for()
    return page


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def menu(page: Any, index: int) -> None:
    """Open the Mute/Report choices of the index-th message shown."""
    page.locator("#chat-log .chat-msg").nth(index).locator(".chat-more").click()


def test_chat_between_seats_and_a_spectator_is_text_only(server: Server, pages: Pages) -> None:
    created = server.create(
        game="dragon-race",
        players=2,
        seed=11,
        seats=[{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
    )
    ann = open_page(pages, server, created["seats"][0]["link"])
    bob = open_page(pages, server, created["seats"][1]["link"], lang="de")
    eve = open_page(pages, server, created["watch"]["link"])
    for p in (ann, bob, eve):
        p.locator("#chat-input").wait_for()  # open by default on a wide screen

    for text in (IMG, SCRIPT, LINK):
        say(ann, text)
    for p in (ann, bob, eve):
        assert wait_texts(p, 3) == [IMG, SCRIPT, LINK]
        assert p.locator(INJECTED).count() == 0
        assert p.evaluate("() => window.__pwned === undefined")
        assert p.dialogs == []
    # a quick phrase, in each reader's language
    eve.click("[data-phrase=good_game]")
    assert wait_texts(ann, 4)[-1] == "Good game!"
    assert wait_texts(bob, 4)[-1] == "Gutes Spiel!"
    assert bob.locator("#chat-log .chat-msg").last.locator(".chat-name").inner_text() == (
        "Zuschauer"
    )

    # too long: refused in words, the text stays to be shortened, nothing is sent
    huge = "dragon " * 100
    say(ann, huge)
    assert "500" in ann.locator("#chat-error").inner_text()
    assert ann.input_value("#chat-input") == huge
    # the server refuses it too when a page sends it anyway
    ann.evaluate("() => window.dragonlair.conn.send({type: 'chat', text: 'x'.repeat(501)})")
    ann.wait_for_function("() => document.querySelector('#chat-error').textContent.includes('500')")
    say(ann, "back to the game")
    assert wait_texts(bob, 5)[-1] == "back to the game"
    assert wait_texts(eve, 5)[-1] == "back to the game"  # the huge ones never arrived

    # Bob mutes Ann: her messages are hidden for him, for nobody else, after a reload too
    menu(bob, 0)
    bob.click(".chat-mute")
    bob.wait_for_function("() => !document.querySelector('#chat-log .chat-msg[data-seat=\"0\"]')")
    assert texts(bob) == ["Gutes Spiel!"]
    assert "Ann wieder zeigen" in bob.locator("#chat-muted").inner_text()
    assert len(texts(eve)) == 5
    bob.reload()
    bob.locator("#chat-muted .chat-unmute").wait_for()
    assert wait_texts(bob, 1) == ["Gutes Spiel!"]

    # Eve reports Ann's first message; the operator hides it from the admin page
    menu(eve, 0)
    eve.click(".chat-report")
    eve.wait_for_function(
        "() => document.querySelector('#toast')?.textContent.startsWith('Reported')"
    )
    admin = pages.new()
    admin.on("dialog", lambda d: d.dismiss())
    admin.goto(server.url + "/admin")
    admin.fill("#admin-token", "not the token")
    admin.click("#admin-open")
    admin.wait_for_function(
        "() => document.querySelector('#admin-error')?.textContent.includes('token')"
    )
    # the browser logs the refused request (401) as a console error: that one is expected
    pages.errors[:] = [e for e in pages.errors if "401 (Unauthorized)" not in e]
    admin.fill("#admin-token", TOKEN)
    admin.click("#admin-open")
    report = admin.locator(".admin-report.open")
    report.wait_for()
    assert report.locator(".admin-text").inner_text() == IMG
    assert admin.locator(".admin-page img, .admin-page script").count() == 0
    assert "spectator" in report.inner_text()
    report.locator(".admin-hide").click()
    admin.locator(".admin-report:not(.open)").wait_for()
    for p, n in ((ann, 4), (eve, 4)):
        assert IMG not in wait_texts(p, n)
    bob.click("#chat-muted .chat-unmute")
    assert IMG not in wait_texts(bob, 4)
    assert ann.evaluate("() => window.__pwned === undefined")

    # the pages as their readers see them
    OUT.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(OUT / "chat-desktop-en.png"))
    bob.screenshot(path=str(OUT / "chat-desktop-de.png"))
    admin.screenshot(path=str(OUT / "chat-admin.png"))


def test_on_a_phone_the_chat_is_a_toggle_with_an_unread_count(server: Server, pages: Pages) -> None:
    created = server.create(
        game="dragon-stripes",
        players=2,
        seed=4,
        seats=[{"type": "human", "name": "Mia"}, {"type": "human", "name": "Noa"}],
    )
    OUT.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "de"):
        mia = open_page(pages, server, created["seats"][0]["link"], lang=lang, viewport=PHONE)
        noa = open_page(pages, server, created["seats"][1]["link"])
        # closed: the board is not covered
        assert mia.locator("#chat").is_hidden()
        noa.locator("#chat-input").wait_for()
        noa.click("[data-phrase=good_luck]")
        say(noa, f"hello from Noa ({lang})")
        mia.wait_for_function("() => document.querySelector('#chat-unread').textContent === '2'")
        mia.screenshot(path=str(OUT / f"chat-phone-closed-{lang}.png"))
        mia.click("#chat-toggle")
        mia.locator("#chat-input").wait_for()
        assert mia.locator("#chat-unread").is_hidden()
        words = wait_texts(mia, 2 if lang == "en" else 4)
        assert words[-1] == f"hello from Noa ({lang})"
        assert ("Good luck!" if lang == "en" else "Viel Glück!") in words
        mia.screenshot(path=str(OUT / f"chat-phone-open-{lang}.png"))
        mia.click("#chat-close")
        assert mia.locator("#chat").is_hidden()
        mia.context.close()
        noa.context.close()
