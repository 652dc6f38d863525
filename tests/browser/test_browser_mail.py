"""E-mail for turn-based tables in Chromium, as a player uses it, against a local SMTP
server (aiosmtpd): Ann gives her address and turns turn e-mail on on the account page,
confirms it by the link she is sent, gets "your turn" when a turn-based table asks her,
opens its seat link and lands on her own seat, and stops the e-mail with the one-click
link, signed out; at a desktop's and a phone's size."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dragonlair.web.table.deadlines import ManualClock
from tests.browser.browserkit import PHONE, shot, wait_ready
from tests.browser.test_browser_accounts import PASSWORD
from tests.web.mailkit import SmtpServer, link, text_of
from tests.web.serverkit import LiveServer, config

DAY = 86400.0
ANN = "ann@example.org"


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as s:
        yield s


def sign_up(page: Any, url: str, name: str) -> None:
    page.goto(url + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#sign-up button[type=submit]")
    page.wait_for_selector("#sign-out")


@pytest.mark.timeout(240)
def test_turn_mail_from_the_account_page_to_the_seat_and_unsubscribed(
    new_page: Callable[..., Any],
    own_server: Callable[[LiveServer], LiveServer],
    smtp: SmtpServer,
    tmp_path: Path,
) -> None:
    clock = ManualClock(1_800_000_000.0)
    server = own_server(
        LiveServer(
            config(
                f"sqlite:///{tmp_path / 'mail.sqlite3'}",
                clock=clock,
                deadline_sweep=0.1,
                mail=smtp.settings(),
                mail_every=0.1,
                # the links' host; the test opens their paths on the test server
                public_url="https://games.dragonlair.test",
            )
        )
    )
    url = server.http
    ann = new_page()
    sign_up(ann, url, "Ann")
    box = ann.locator("#account-email")
    box.locator("#email-address").wait_for()
    assert not ann.locator("#email-turns").is_checked()  # off until she turns it on
    assert "No address" in ann.inner_text("#email-status")
    ann.fill("#email-address", ANN)
    ann.check("#email-turns")
    ann.click("#email-save")
    ann.locator("#email-status", has_text="Not confirmed").wait_for()
    box.scroll_into_view_if_needed()
    shot(ann, "account-email-unconfirmed", full_page=False)
    verify = smtp.inbox.wait_for(ANN)[0]
    ann.goto(url + link(verify, "/mail/verify"))
    assert "Address confirmed" in ann.inner_text("h1")
    shot(ann, "mail-verified", full_page=False)
    ann.goto(url + "/account")
    ann.locator("#email-status", has_text="Confirmed.").wait_for()
    assert ann.locator("#email-turns").is_checked()
    ann.locator("#account-email").scroll_into_view_if_needed()
    shot(ann, "account-email", full_page=False)
    phone = new_page(viewport=PHONE)
    phone.goto(url + "/account")
    phone.fill("#signin-name", "Ann")
    phone.fill("#signin-password", PASSWORD)
    phone.click("#sign-in button[type=submit]")
    phone.locator("#email-status", has_text="Confirmed.").wait_for()
    phone.locator("#account-email").scroll_into_view_if_needed()
    shot(phone, "account-email-phone", full_page=False)
    phone.context.add_cookies([{"name": "lang", "value": "de", "url": url}])
    phone.goto(url + "/account")
    phone.locator("#email-status", has_text="Bestätigt.").wait_for()
    assert "E-Mail-Adresse" in phone.inner_text("#account-email")
    phone.locator("#account-email").scroll_into_view_if_needed()
    shot(phone, "account-email-phone-de", full_page=False)

    # Ann, signed in, makes a turn-based table with a friend's seat; the game asks her
    created = ann.evaluate(
        """async () => {
          const r = await fetch('/api/tables', {method: 'POST',
            headers: {'content-type': 'application/json'},
            body: JSON.stringify({game: 'dragon-race', players: 2, pace: 86400,
              seats: [{type: 'human', name: 'Ann'}, {type: 'human', name: 'Bob'}]})});
          return await r.json();
        }"""
    )
    tid = created["table"]["id"]
    turn = smtp.inbox.wait_for(ANN, 2)[-1]
    assert "Your turn" in str(turn["Subject"]) and tid in str(turn["Subject"])
    seat_link = link(turn, "/play/")
    assert seat_link == f"/play/{tid}#seat=0"
    # the link opens her own seat, on any device she is signed in on
    phone.goto(url + seat_link)
    phone.wait_for_selector(".table-page[data-seat='0']")
    assert wait_ready(phone)["seat"] == "0"
    shot(phone, "mail-seat-link-phone", full_page=False)

    # one click, signed out: no more turn e-mail
    stranger = new_page(viewport=PHONE)
    stranger.goto(url + link(turn, "/mail/unsubscribe"))
    assert "No more e-mail" in stranger.inner_text("h1")
    shot(stranger, "mail-unsubscribed-phone", full_page=False)
    ann.goto(url + "/account")
    ann.locator("#email-status", has_text="No turn e-mail").wait_for()
    assert not ann.locator("#email-turns").is_checked()
    assert len(smtp.inbox.to(ANN)) == 2  # the link and one "your turn"
    assert "List-Unsubscribe" in turn and text_of(turn).count("/mail/unsubscribe") == 1
