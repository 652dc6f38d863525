"""Regenerate the README's pictures (docs/screenshots/) from the browser tests' own flows.

    .venv/bin/python scripts/screenshots.py            # every picture
    .venv/bin/python scripts/screenshots.py --out /tmp/shots

It starts ``dragonlair serve`` on a free loopback port with a throw-away database, creates
a table of each game in the lobby page (random bots), clicks a fixed number of times with a
fixed generator, and saves what the screen shows at that moment on a desktop (1366x900)
and on a phone (390x844), plus the lobby and the end of a game. Needs Playwright and
Debian's chromium, as the browser tests do (``make test`` installs it). Bots and deals are
random, so pictures differ from run to run; commit them when the pages change.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.browser.browserkit import (  # noqa: E402
    PHONE,
    Server,
    click_one,
    create_in_lobby,
    launch,
    play_to_end,
    wait_ready,
)

# game, players, options, clicks before the picture
SCENES = [
    ("space-dragons", 4, {}, 13),
    ("space-race", 3, {}, 9),
    ("dragon-stripes", 3, {}, 3),
    ("dragon-race", 3, {}, 7),
]
DESKTOP = {"width": 1366, "height": 900}


def fast(ctx: Any) -> Any:
    """A context whose pages show the bots' moves at once (no pacing) for the pictures."""
    ctx.add_init_script("localStorage.setItem('dragonlair:pace', '0')")
    return ctx


def real_choice(page: Any) -> None:
    """Wait past moves with a single answer (the server plays those for the player)."""
    for _ in range(20):
        st = wait_ready(page)
        if st["status"] == "over" or st["legal"] > 1:
            return
        page.wait_for_function(
            "m => { const t = document.querySelector('.table-page');"
            " return Number(t.dataset.move) > m || t.dataset.status === 'over'; }",
            arg=st["move"],
        )


def settle(page: Any) -> None:
    """No hover, no tooltip, animations over."""
    page.mouse.move(0, 0)
    page.wait_for_timeout(1200)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    server = Server()
    try:
        with sync_playwright() as p:
            browser = launch(p)
            page = fast(browser.new_context(viewport=DESKTOP)).new_page()
            page.goto(server.url + "/")
            page.wait_for_selector("#create")
            page.screenshot(path=str(args.out / "lobby.png"))
            phone = fast(browser.new_context(viewport=PHONE)).new_page()
            for game, players, options, clicks in SCENES:
                url = create_in_lobby(page, server, game, players, options=options)
                rng = random.Random(game)
                for _ in range(clicks):
                    if wait_ready(page)["status"] == "over":
                        break
                    click_one(page, rng)
                real_choice(page)
                settle(page)
                page.screenshot(path=str(args.out / f"{game}.png"))
                phone.goto(url)
                real_choice(phone)
                settle(phone)
                phone.screenshot(path=str(args.out / f"phone-{game}.png"))
                print(f"{game}: {args.out / f'{game}.png'}, {args.out / f'phone-{game}.png'}")
            # the end of a game, on a desktop
            create_in_lobby(page, server, "space-race", 4)
            play_to_end(page, random.Random(1))
            page.locator(".result").wait_for()
            settle(page)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(args.out / "end.png"))
            browser.close()
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
