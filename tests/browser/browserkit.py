"""The browser tests' kit: the real server in a subprocess, headless Chromium driven by
Playwright, and the flows a person goes through (create a table in the lobby, play by
clicking). ``scripts/screenshots.py`` uses the same flows for the README's pictures.

Chromium is Debian's (``/usr/bin/chromium``; ``make test`` installs it when missing):
Playwright's own browser download does not work on these machines. It runs with the
flags this machine needs (no sandbox as root, no GPU, no background networking towards a
closed network) and a fresh profile per launch.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.web.clusterkit import wait_healthy

CHROMIUM = os.environ.get("DRAGONLAIR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "out" / "screenshots"


# A whole game of each game, short: few players and a short race (the browser tests
# play them with random bots, where strength does not matter).
GAMES: dict[str, dict[str, Any]] = {
    "space-dragons": {"players": 3, "options": {}},
    "space-race": {"players": 2, "options": {}},
    "dragon-stripes": {"players": 2, "options": {}},
    "dragon-race": {"players": 2, "options": {"turn_cap": 8}},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``dragonlair serve`` in a subprocess on a loopback port, with its own database."""

    def __init__(
        self,
        db_dir: Path | None = None,
        port: int | None = None,
        script: Path | None = None,
        **flags: Any,
    ) -> None:
        # ``script``: a file that runs the dragonlair command after registering games of
        # its own (tests/web/serve_example.py), instead of ``python -m dragonlair``
        self.script = script
        self.dir = db_dir or Path(tempfile.mkdtemp(prefix="dragonlair-browser-"))
        self.own_dir = db_dir is None
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.flags = {
            "sqlite-sync": "NORMAL",
            "http-rate": "100000/minute",
            # a module's tests create many tables that wait for a friend, all from loopback
            "max-waiting-per-address": "100000",
            "ws-rate": "500/second",
            "away": "600",
            "deadline": "30",
            # a decision at a table with undo is held this long before it counts: short, so
            # that a whole game by clicking does not wait out a person's window at every
            # decision (the undo test asks for a window it can act in)
            "confirm": "0.1",
            "log-level": "warning",
            **{k.replace("_", "-"): str(v) for k, v in flags.items()},
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = self.dir / "server.log"
        self.start()

    def start(self) -> None:
        """Start (or start again, on the same port and storage) and wait until it answers."""
        command = [str(self.script)] if self.script else ["-m", "dragonlair"]
        args = [sys.executable, *command, "serve", "--port", str(self.port)]
        args += ["--db", f"sqlite:///{self.dir / 'tables.sqlite3'}"]
        for k, v in self.flags.items():
            args += [f"--{k}", v]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        # a loaded machine has taken over a minute (the bots' workers warm up first); a
        # server that does not answer in time is stopped, not left running
        try:
            wait_healthy(self.url, self.proc, timeout=180)
        except RuntimeError:
            self.stop()
            raise RuntimeError(
                f"the server did not start:\n{self.log.read_text()[-3000:]}"
            ) from None

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL if it does not go)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(15)
        self.proc = None

    def close(self) -> None:
        self.stop()
        if self.own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def create(self, **body: Any) -> dict[str, Any]:
        """A table made through the lobby API (for tests that are not about the lobby)."""
        r = httpx.post(f"{self.url}/api/tables", json=body, timeout=30)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out


def launch(playwright: Any) -> Any:
    """Headless Debian Chromium with this machine's flags."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


# ---------------------------------------------------------------------------- flows


def create_in_lobby(
    page: Any,
    server: Server,
    game: str,
    players: int,
    seats: list[tuple[str, str | None]] | None = None,
    options: dict[str, Any] | None = None,
    name: str = "Ann",
    seed_hint: str | None = None,
) -> str:
    """Create a table from the lobby page by filling in its form: ``seats`` are (type,
    level) for seats 2.. (default: random bots). Returns the table page's URL."""
    page.goto(server.url + "/")
    page.fill("#my-name", name)
    page.check(f"#game-{game}")
    page.select_option("#players", str(players))
    if options:
        page.click("details.options-box:first-of-type summary")
        for k, v in options.items():
            field = page.locator(f"#opt-{k}")
            if isinstance(v, bool):
                field.set_checked(v)
            elif field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(str(v))
            else:
                field.fill(str(v))
    for i, (kind, level) in enumerate(seats or [("bot", "random")] * (players - 1), start=1):
        page.select_option(f"#seat-{i}-type", kind)
        if kind == "bot" and level:
            page.select_option(f"#seat-{i}-level", level)
    page.click("#create")
    if all(kind == "bot" for kind, _ in seats or [("bot", None)]):
        page.wait_for_url("**/play/**")
    else:
        page.wait_for_selector("#go-to-table")
        page.click("#go-to-table")
        page.wait_for_url("**/play/**")
    wait_ready(page)
    return str(page.url)


def table_state(page: Any) -> dict[str, Any]:
    """What the table page shows now: move, status, its seat, how many legal actions."""
    out: dict[str, Any] = page.evaluate(
        """() => {
          const t = document.querySelector('.table-page');
          if (!t) return {};
          return {move: Number(t.dataset.move), status: t.dataset.status, seat: t.dataset.seat,
                  legal: Number(t.dataset.legal), pending: t.dataset.pending === '1'};
        }"""
    )
    return out


def wait_ready(page: Any, timeout: float = 60_000) -> dict[str, Any]:
    """Wait until it is this page's turn (a legal action, nothing pending) or the game is
    over; what the page shows then."""
    page.wait_for_function(
        """() => {
          const t = document.querySelector('.table-page');
          return t && (t.dataset.status === 'over'
                       || (t.dataset.legal !== '0' && t.dataset.pending === '0'));
        }""",
        timeout=timeout,
    )
    return table_state(page)


Chooser = Callable[[Any, list[str], random.Random], str]


def random_choice(page: Any, actions: list[str], rng: random.Random) -> str:
    """Any of the clickable actions."""
    return rng.choice(actions)


def click_one(page: Any, rng: random.Random, choose: Chooser = random_choice) -> str:
    """Click one of the page's action buttons (as a person would) and wait for the game to
    move on; the action clicked, or "" when the turn had moved on before a click."""
    before = table_state(page)
    enabled = "button[data-action]:not([disabled])"
    actions: list[str] = page.eval_on_selector_all(enabled, "bs => bs.map(b => b.dataset.action)")
    if not actions:
        # what the caller read may be a moment old: the turn may have moved on since (another
        # seat acted, or a single answer was played for this seat), or the buttons are still
        # being drawn
        now = table_state(page)
        if now.get("move") != before.get("move") or not now.get("legal") or now.get("pending"):
            return ""
        page.wait_for_selector(enabled, timeout=10_000)
        actions = page.eval_on_selector_all(enabled, "bs => bs.map(b => b.dataset.action)")
    assert actions, "no action to click"
    action = choose(page, actions, rng)
    for attempt in range(3):
        try:
            page.locator(f'button[data-action="{action}"]').first.click(timeout=5000)
            break
        except Exception:
            # the button went away: a move with a single answer the server answered first,
            # or the page drew the bar again (a message about the others) while the click
            # waited for the button to hold still, which on a loaded machine can take
            # longer than the wait: click again, as a person would, while the turn is
            # still this one
            if len(actions) == 1:
                break
            now = table_state(page)
            if now.get("move") != before.get("move") or now.get("status") == "over":
                return ""
            if attempt == 2:
                raise
    page.wait_for_function(
        "m => { const t = document.querySelector('.table-page');"
        " return t && (Number(t.dataset.move) > m || t.dataset.status === 'over'); }",
        arg=before["move"],
        timeout=60_000,
    )
    return action


def play_to_end(
    page: Any,
    rng: random.Random,
    choose: Chooser = random_choice,
    max_clicks: int = 400,
    every: Callable[[int], None] | None = None,
) -> int:
    """Click until the game is over; how many clicks it took. ``every(n)`` runs before
    click n (a reload, a screenshot)."""
    for n in range(max_clicks):
        st = wait_ready(page)
        if st["status"] == "over":
            return n
        if every is not None:
            every(n)
            st = wait_ready(page)
            if st["status"] == "over":
                return n
        click_one(page, rng, choose)
    raise AssertionError(f"the game did not end within {max_clicks} clicks")


# Plays seat's turns inside the page: waits (on the page's own changes, no polling from
# here) until it is the seat's turn, clicks one of its enabled action buttons at random, and
# waits for the game to move on; until the game is over. Each wait gives up after a minute
# with an error, so that a stuck page fails the test instead of hanging it.
PLAY_IN_PAGE = """async ({seed, most}) => {
  let r = seed >>> 0;
  const t = () => document.querySelector('.table-page');
  const ready = () => { const x = t(); return !!x && (x.dataset.status === 'over'
    || (x.dataset.legal !== '0' && x.dataset.pending === '0')); };
  const until = (f, what) => new Promise((done, fail) => {
    if (f()) return done();
    const watch = new MutationObserver(() => { if (f()) { stop(); done(); } });
    const timer = setTimeout(() => { stop(); fail(new Error('waited a minute for ' + what)); },
                             60000);
    const stop = () => { watch.disconnect(); clearTimeout(timer); };
    watch.observe(document.documentElement,
                  {subtree: true, childList: true, attributes: true, characterData: true});
  });
  for (let n = 0; n < most; n++) {
    await until(ready, 'the seat to be asked');
    if (t().dataset.status === 'over') return n;
    const move = Number(t().dataset.move);
    const moved = () => { const x = t(); return Number(x.dataset.move) > move
                                              || x.dataset.status === 'over'; };
    const buttons = [...document.querySelectorAll('button[data-action]:not([disabled])')];
    if (buttons.length) {
      r = (Math.imul(r, 1103515245) + 12345) >>> 0;
      buttons[(r >>> 8) % buttons.length].click();
    }
    await until(moved, 'the game to move on after move ' + move);
  }
  throw new Error('the game did not end within ' + most + ' clicks');
}"""


def play_in_page(page: Any, seed: int = 0, most: int = 400) -> int:
    """Click the page's action buttons at random until the game is over, the whole loop
    running inside the page (a click and its wait cost no round trip from here); how many
    clicks it took. For tests that need a finished game and are not about the clicks (the
    clicks of :func:`play_to_end` are Playwright's, checked for being visible and free)."""
    return int(page.evaluate(PLAY_IN_PAGE, {"seed": seed, "most": most}))


def shot(page: Any, name: str, full_page: bool = True) -> Path:
    """A screenshot under out/screenshots/."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def near_end(
    game: str,
    players: int,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    choices: int = 3,
) -> str:
    """A position (TOML, for ``Server.create(position=...)``) of a game played at random
    from ``seed`` until seat 0 has ``choices`` real choices (two or more actions) left
    before its end, taken just before the first of them. A table started from it reaches
    the end in a few clicks, where a whole game by clicking takes dozens; the rest of the
    game differs (the server's bots choose their own moves), so it may take a few more."""
    import dragonlair
    from dragonlair.core.position import to_toml

    state = dragonlair.make(game, players=players, options=options or {}).new_game(seed)
    rng = random.Random(seed)
    asked: list[Any] = []  # the state before each of seat 0's real choices
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_action_ids(seat)
        if seat == 0 and len(legal) > 1:
            asked.append(state.clone())
        state.apply_id(seat, rng.choice(legal))
    if len(asked) < choices:
        raise AssertionError(f"seat 0 had only {len(asked)} choices in that {game} game")
    return str(to_toml(asked[-choices].to_position()))
