"""Fixtures for the end-to-end tests in a real browser: ``dragonlair serve`` (a subprocess
on a free loopback port with a temporary database) and one headless Chromium per test
module, with a fresh browser context (cookies, storage) per page.

The server is started once per pytest process (each xdist worker) and shared by the
modules, whose tests make tables of their own and read only those: a server took 3 to 3.5 s
of CPU to start (its imports and its bots' workers). A module whose tests read what the
whole server holds (the lobby's lists of tables, a leaderboard) sets ``OWN_SERVER = True``
and gets a server of its own, as a module that needs other flags starts its own.

Chromium is module-scoped on purpose: Playwright's sync API keeps an event loop running in
the main thread while it is open, and other test directories call ``asyncio.run``, which
refuses to run inside a running loop; closing Playwright after the module frees it.

Without Chromium these tests are skipped, except under CI, where that is a failure:
``make test`` installs it, so a skip there would hide a broken set-up. (Playwright comes
with the dev extra, which every test run has.)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest
from playwright.sync_api import sync_playwright

from tests.browser.browserkit import CHROMIUM, DESKTOP, Server, launch


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (make test installs Debian's chromium)"
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is end to end (a real server and Chromium): all are slow."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    why = _missing()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shared_server() -> Iterator[Server]:
    """The server the modules share, started when a test first asks for it."""
    why = _missing()
    if why is not None:
        pytest.skip(why)  # the browser fixture says why (and fails under CI)
    s = Server()
    yield s
    s.close()


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, browser: Any) -> Iterator[Server]:
    """The shared server, or one of the module's own when it sets ``OWN_SERVER``."""
    if not getattr(request.module, "OWN_SERVER", False):
        yield request.getfixturevalue("shared_server")
        return
    s = Server()
    yield s
    s.close()


class Pages:
    """New pages in fresh contexts, each recording the page's script errors."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, viewport: dict[str, int] | None = None, paced: bool = False) -> Any:
        """A page; other seats' moves are shown at once unless ``paced`` (the default pace
        of a person's browser)."""
        ctx = self.browser.new_context(viewport=viewport or DESKTOP)
        if not paced:
            ctx.add_init_script("localStorage.setItem('dragonlair:pace', '0')")
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        self.contexts.clear()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    p = Pages(browser)
    yield p
    p.close()
    assert not p.errors, "the page reported errors:\n" + "\n".join(p.errors)


@pytest.fixture
def new_page(pages: Pages) -> Callable[..., Any]:
    return pages.new


class OwnServer(Protocol):
    """A server a test starts for itself (a ``browserkit.Server``, a ``serverkit.LiveServer``)."""

    def close(self) -> None: ...


S = TypeVar("S", bound=OwnServer)


@pytest.fixture
def own_server(pages: Pages) -> Iterator[Callable[[S], S]]:
    """``own_server(server)`` keeps a server the test started with settings of its own (a
    clock, mail, short banks) and gives it back. At the end the pages are closed first,
    then the server: a page left open would try to reconnect to the stopped server and
    report an error."""
    owned: list[OwnServer] = []

    def own(server: S) -> S:
        owned.append(server)
        return server

    yield own
    pages.close()
    for s in owned:
        s.close()
