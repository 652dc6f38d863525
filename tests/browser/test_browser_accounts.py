"""Accounts in Chromium, as a player uses them: sign up on the account page (claiming the
guest seat this browser held), play a game against bots to the end signed in, find the
seat refused on another device until signing in there, and sign out everywhere; sign in
with a passkey; in English and German, at a desktop's and a phone's size.

The passkeys' test uses the DevTools protocol's virtual authenticators in place of a
laptop's and a phone's screen lock, and opens the pages at ``localhost``, not
``127.0.0.1``: a passkey's RP id is a host name, and the browser refuses an IP address as
one."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.browserkit import (
    DESKTOP,
    PHONE,
    Server,
    create_in_lobby,
    play_to_end,
    shot,
    wait_ready,
)

# A server of its own (tests/browser/conftest.py): the lobby's tables in play are read for a
# signed-in player's link.
OWN_SERVER = True

PASSWORD = "a long enough secret"


def sign_up(page: Any, server: Server, name: str) -> None:
    page.goto(server.url + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#sign-up button[type=submit]")
    page.wait_for_selector("#sign-out")


def sign_in(page: Any, server: Server, name: str, go: bool = True) -> None:
    if go:
        page.goto(server.url + "/account")
    page.fill("#signin-name", name)
    page.fill("#signin-password", PASSWORD)
    page.click("#sign-in button[type=submit]")
    page.wait_for_selector("#sign-out")


@pytest.mark.timeout(600)
def test_sign_up_claims_the_seat_and_plays_it_to_the_end_signed_in(
    server: Server, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    # a guest creates a table first (the lobby remembers the seat in this browser)
    url = create_in_lobby(page, server, "space-race", 2, name="Lena")
    page.goto(server.url + "/account")
    page.wait_for_selector("#sign-up")
    assert "This browser's seat becomes your account's." in page.inner_text("#sign-up")
    shot(page, "account-guest-desktop")
    sign_up(page, server, "Lena Berg")
    assert page.inner_text("#account-link") == "Lena Berg"
    shot(page, "account-signed-in-desktop")
    # the seat is the account's now: its name links to the account's profile wherever it
    # is shown, the bot's stays plain text; in the lobby's listing
    page.goto(server.url + "/")
    row = page.locator("#playing-tables .table-row", has=page.locator("a.profile-link"))
    link = row.locator("a.profile-link")
    expect(link).to_have_attribute("href", "/players/Lena%20Berg")
    assert link.inner_text() == "Lena"  # the seat's own name
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        row.scroll_into_view_if_needed()
        shot(page, f"lobby-profile-link-{size}", full_page=False)
    # at the table (in another tab: the seat stays open here)
    page.goto(url)
    wait_ready(page)
    chip = page.locator(".seat-chip[data-seat='0'] a.profile-link")
    expect(chip).to_have_attribute("href", "/players/Lena%20Berg")
    assert chip.get_attribute("target") == "_blank"
    assert page.locator(".seat-chip[data-seat='1'] a").count() == 0
    shot(page, "table-profile-link-phone", full_page=False)
    page.set_viewport_size(DESKTOP)
    shot(page, "table-profile-link-desktop", full_page=False)
    # played to the end signed in
    play_to_end(page, random.Random(3))
    assert page.locator(".table-page").get_attribute("data-status") == "over"
    # the same link in another browser: refused until its player signs in there
    phone = new_page(viewport=PHONE)
    phone.goto(url)
    phone.wait_for_selector("text=This seat belongs to an account")
    shot(phone, "account-seat-refused-phone")
    phone.click("#refused-sign-in")  # the refused page leads to signing in
    phone.wait_for_selector("#sign-in")
    sign_in(phone, server, "lena berg", go=False)
    # "your games" on this device lists the seat, and opens it without its link
    phone.wait_for_selector("#account-games-list .account-game")
    shot(phone, "account-signed-in-phone")
    assert "over" in phone.inner_text("#account-games-list")
    phone.click("#account-games-list .account-game")
    phone.wait_for_url("**/play/**#seat=0")
    assert wait_ready(phone)["status"] == "over"
    assert url.split("#")[0] == phone.url.split("#")[0]
    # sign out everywhere: both browsers are guests again
    phone.goto(server.url + "/account")
    phone.click("#sign-out-everywhere")
    phone.wait_for_selector("#sign-in")
    page.goto(server.url + "/account")
    page.wait_for_selector("#sign-in")
    assert page.inner_text("#account-link") in ("Sign in", "Anmelden")


@pytest.mark.timeout(300)
def test_the_account_page_in_german_and_its_refusals(server: Server, pages: Any) -> None:
    page = pages.new(viewport=PHONE)
    page.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
    sign_up(page, server, "Jonas")
    page.click("#sign-out")
    page.wait_for_selector("#sign-in")
    assert "Konto anlegen" in page.inner_text("#sign-up")
    page.fill("#signin-name", "Jonas")
    page.fill("#signin-password", "not the password")
    page.click("#sign-in button[type=submit]")
    page.wait_for_selector("#sign-in .form-error:not([hidden])")
    assert "passen zu keinem Konto" in page.inner_text("#sign-in .form-error")
    page.fill("#signup-name", "jonas")
    page.fill("#signup-password", PASSWORD)
    page.click("#sign-up button[type=submit]")
    page.wait_for_selector("#sign-up .form-error:not([hidden])")
    assert "vergeben" in page.inner_text("#sign-up .form-error")
    shot(page, "account-refusals-german-phone")
    # the two refusals, as Chromium logs every answer of 4xx; nothing else went wrong
    expected = ("status of 401", "status of 409")
    assert sum(any(x in e for x in expected) for e in pages.errors) == 2
    pages.errors[:] = [e for e in pages.errors if not any(x in e for x in expected)]


def authenticator(page: Any) -> tuple[Any, str]:
    """A platform authenticator with a screen lock (user verification) that says yes at
    once, on this page's DevTools session; the session and the authenticator's id."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    got = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, str(got["authenticatorId"])


def held(cdp: Any, authenticator_id: str) -> list[dict[str, Any]]:
    """The credentials the virtual authenticator holds."""
    out: list[dict[str, Any]] = cdp.send(
        "WebAuthn.getCredentials", {"authenticatorId": authenticator_id}
    )["credentials"]
    return out


def add_passkey(page: Any, label: str, count: int) -> None:
    page.fill("#passkey-label", label)
    page.click("#passkey-add-button")
    expect(page.locator("#passkeys-list .passkey")).to_have_count(count)


@pytest.mark.timeout(240)
def test_a_passkey_signs_in_alone_and_a_removed_one_no_more(server: Server, pages: Any) -> None:
    local = server.url.replace("127.0.0.1", "localhost")
    laptop = pages.new()
    cdp, key = authenticator(laptop)
    laptop.goto(local + "/account")
    laptop.fill("#signup-name", "Mira Stone")
    laptop.fill("#signup-password", PASSWORD)
    laptop.click("#sign-up button[type=submit]")
    laptop.wait_for_selector("#account-passkeys")
    laptop.wait_for_selector("#passkeys-list >> text=No passkeys yet.")
    add_passkey(laptop, "  my   laptop ", 1)
    assert "my laptop" in laptop.inner_text("#passkeys-list")
    assert "not used yet" in laptop.inner_text("#passkeys-list")
    # the authenticator holds it as a discoverable credential for this host
    (cred,) = held(cdp, key)
    assert cred["isResidentCredential"] and cred["rpId"] == "localhost"

    # signed out, the passkey alone signs in: no name, no password typed
    laptop.click("#sign-out")
    laptop.wait_for_selector("#passkey-sign-in")
    laptop.click("#passkey-sign-in")
    laptop.wait_for_selector("#sign-out")
    assert laptop.inner_text("#account-link") == "Mira Stone"
    laptop.wait_for_selector("#passkeys-list >> text=last used")
    shot(laptop, "account-passkeys-desktop")

    # a phone, in German: signed in with the password, it adds a passkey of its own
    phone = pages.new(viewport=PHONE)
    phone.context.add_cookies([{"name": "lang", "value": "de", "url": local}])
    authenticator(phone)
    phone.goto(local + "/account")
    phone.fill("#signin-name", "mira stone")
    phone.fill("#signin-password", PASSWORD)
    phone.click("#sign-in button[type=submit]")
    phone.wait_for_selector("#account-passkeys")
    phone.wait_for_selector("#passkeys-list .passkey")
    add_passkey(phone, "Telefon", 2)
    text = phone.inner_text("#account-passkeys")
    assert "Passkeys" in text and "Telefon" in text and "noch nicht benutzt" in text
    shot(phone, "account-passkeys-german-phone")
    # ... and removes the laptop's
    phone.click("#passkeys-list .passkey:has-text('my laptop') .passkey-remove")
    expect(phone.locator("#passkeys-list .passkey")).to_have_count(1)
    assert "my laptop" not in phone.inner_text("#passkeys-list")

    # the laptop still holds its passkey, but it signs nobody in any more
    laptop.click("#sign-out")
    laptop.click("#passkey-sign-in")
    laptop.wait_for_selector("#sign-in .form-error:not([hidden])")
    assert "belongs to no account" in laptop.inner_text("#sign-in .form-error")
    assert laptop.inner_text("#account-link") == "Sign in"
    assert len(held(cdp, key)) == 1
    shot(laptop, "account-passkey-refused-desktop", full_page=False)
    # the one refusal, as Chromium logs every answer of 4xx; nothing else went wrong
    refused = [e for e in pages.errors if "status of 401" in e]
    assert len(refused) == 1, pages.errors
    pages.errors[:] = [e for e in pages.errors if e not in refused]
