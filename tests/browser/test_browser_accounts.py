"""Accounts in Chromium, as a player uses them: sign up on the account page (claiming the
guest seat this browser held), play a game against bots to the end signed in, find the
seat refused on another device until signing in there, and sign out everywhere; in
English and German, at a desktop's and a phone's size."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.browserkit import PHONE, Server, create_in_lobby, play_to_end, shot, wait_ready

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
    # the seat is the account's now: played to the end signed in
    page.goto(url)
    wait_ready(page)
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
