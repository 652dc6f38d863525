"""Regenerate the README's pictures (docs/screenshots/) from the browser tests' own flows.

    .venv/bin/python scripts/screenshots.py            # every picture
    .venv/bin/python scripts/screenshots.py --out /tmp/shots

It starts ``dragonlair serve`` on a free loopback port with a throw-away database, creates
a table of each game in the lobby page (random bots), clicks a fixed number of times with a
fixed generator, and saves the page at that moment on a desktop screen, plus the lobby and
a table on a phone-sized screen (390x844). Needs Playwright and Debian's chromium, as the
browser tests do (``make test`` installs it). Bots and deals are random, so pictures
differ from run to run; commit them when the pages change.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.browser.browserkit import (  # noqa: E402
    PHONE,
    Server,
    click_one,
    create_in_lobby,
    launch,
    wait_ready,
)

# game, players, options, clicks before the picture
SCENES = [
    ("space-dragons", 4, {}, 11),
    ("space-race", 3, {}, 9),
    ("dragon-stripes", 3, {}, 3),
    ("dragon-race", 3, {}, 7),
]
DESKTOP = {"width": 1280, "height": 860}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    server = Server()
    try:
        with sync_playwright() as p:
            browser = launch(p)
            ctx = browser.new_context(viewport=DESKTOP)
            page = ctx.new_page()
            page.goto(server.url + "/")
            page.wait_for_selector("#create")
            page.screenshot(path=str(args.out / "lobby.png"))
            phone_url = ""
            for game, players, options, clicks in SCENES:
                url = create_in_lobby(page, server, game, players, options=options)
                rng = random.Random(game)
                for _ in range(clicks):
                    if wait_ready(page)["status"] == "over":
                        break
                    click_one(page, rng)
                wait_ready(page)
                page.mouse.move(0, 0)
                page.screenshot(path=str(args.out / f"{game}.png"), full_page=True)
                print(f"{game}: {args.out / f'{game}.png'}")
                if game == "space-dragons":
                    phone_url = url
            phone = browser.new_context(viewport=PHONE).new_page()
            phone.goto(phone_url)
            wait_ready(phone)
            phone.screenshot(path=str(args.out / "phone.png"))
            browser.close()
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
