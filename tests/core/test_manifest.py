"""Games are found only through their manifests: the installed ones through the
``dragonlair.games`` entry points, the example game through the manifest the tests
register. No line of the package names the example game, and the core names no game; the
example game then reaches every surface (the per-surface suites play it in full: the
terminal in tests/tui, the server in tests/web, Chromium in tests/browser, simulate in
tests/sim, OpenSpiel, PettingZoo and Gymnasium in tests/rl)."""

from __future__ import annotations

import random
import re
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import dragonlair
from dragonlair.bots import parse_bots
from dragonlair.core import manifest, manifests
from dragonlair.core.manifest import ENTRY_POINT_GROUP, BadManifest, check_manifest, installed_ids
from dragonlair.sim import Job, run
from dragonlair.tui.parts import TerminalParts
from tests.core.pebble_auction.manifest import MANIFEST, replaced
from tests.games import OWN_GAMES

SRC = Path(dragonlair.__file__).parent
INSTALLED = ["dragon-race", "dragon-stripes", "space-dragons", "space-race"]


def _lines(folder: Path, pattern: str) -> list[str]:
    rx = re.compile(pattern, re.IGNORECASE)
    return [
        f"{path.relative_to(SRC)}:{n}: {line.strip()}"
        for path in sorted(folder.rglob("*"))
        if path.suffix in {".py", ".js", ".html", ".css"}
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if rx.search(line)
    ]


def test_the_installed_games_are_the_entry_points() -> None:
    eps = {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    assert sorted(eps) == installed_ids()
    # dragonlair's own four, each in its package's manifest; other distributions may add more
    assert list(OWN_GAMES) == INSTALLED and set(INSTALLED) <= set(eps)
    for game_id in INSTALLED:
        assert eps[game_id].value == f"{manifest(game_id).package}.manifest:MANIFEST"
    for game_id, ep in eps.items():
        assert ep.load() is manifest(game_id)


def test_no_surface_names_the_example_game() -> None:
    # the example game is Pebble Auction (tests/core/pebble_auction); "pebble" alone is also
    # the name of the process-pool library the server's bots run in
    assert _lines(SRC, r"(?i)pebble[-_ ]?auction|PebbleHeuristic|pebble_layout") == []


def test_the_core_names_no_game() -> None:
    names = [m.id for m in manifests() if m.id in INSTALLED]
    packages = [m.game.__module__.split(".")[1] for m in manifests() if m.id in INSTALLED]
    pattern = "|".join(re.escape(x) for x in [*names, *packages])
    assert _lines(SRC / "core", pattern) == []


@pytest.mark.parametrize("game_id", [*INSTALLED, "pebble-auction"])
def test_every_declared_part_exists_and_loads(game_id: str) -> None:
    m = check_manifest(game_id)
    assert m.id == game_id and m.player_rules().strip()


def test_the_example_game_is_listed_and_made_everywhere() -> None:
    assert "pebble-auction" in dragonlair.games()
    assert [m.id for m in manifests()] == dragonlair.games()
    game = dragonlair.make("pebble-auction", players=3)
    assert isinstance(game, MANIFEST.game)


def test_the_example_game_is_simulated() -> None:
    job = Job("pebble-auction", 3, tuple(parse_bots("random", 3)), n=6, seed=2)
    result = run(job, workers=1)
    assert len(result.outcomes) == 6


def test_the_terminal_draws_the_example_game_on_its_generic_board() -> None:
    from dragonlair.tui import render

    game = dragonlair.make("pebble-auction", players=2)
    state = game.new_game(seed=1)
    console = Console(width=100, record=True, color_system=None)
    console.print(render.board(game, state.view(0), ["Ann", "Bob"]))
    assert "hand sizes" in console.export_text()
    assert "Choices at the table" in render.player_rules(game)  # the help screen's text
    # a board the manifest names is the one drawn
    with replaced("pebble-auction", terminal=f"{__name__}:POT"):
        assert render.board(game, state.view(0), ["Ann", "Bob"]) == "the pot: 0"


def pot_board(game: dragonlair.Game, view: dict[str, Any], names: list[str]) -> str:
    return f"the pot: {view['pot']}"


def _pot_form(game: dragonlair.Game, action: dragonlair.Action) -> list[str]:
    return [f"pebble {action.args[0]}"] if action.kind == "bid" else [str(action)]


POT = TerminalParts(board=pot_board, forms=_pot_form, big_events=("claimed",))
NOT_PARTS = {"board": pot_board}


def test_the_terminals_words_are_the_parts_the_manifest_names() -> None:
    from dragonlair.tui.words import Words

    game = dragonlair.make("pebble-auction", players=2)
    state = game.new_game(seed=1)
    legal = state.legal_actions(0)
    plain = Words(game, ["Ann", "Bob"], me=0)
    assert not plain.big({"type": "claimed"})
    with replaced("pebble-auction", terminal=f"{__name__}:POT"):
        words = Words(game, ["Ann", "Bob"], me=0)
        bid = next(a for a in legal if a.kind == "bid")
        assert words.parse(f"pebble {bid.args[0]}", legal) == bid
        assert words.big({"type": "claimed"})
    with (
        replaced("pebble-auction", terminal=f"{__name__}:NOT_PARTS"),
        pytest.raises(BadManifest, match="is dict, not a dragonlair.tui.parts.TerminalParts"),
    ):
        Words(game, ["Ann", "Bob"], me=0)


def test_the_browser_gets_the_example_games_catalog_and_no_board_module() -> None:
    from dragonlair.web.catalog import rules, table_catalog

    game = dragonlair.make("pebble-auction", players=2)
    catalog = table_catalog(game)
    assert catalog["board"] is None
    assert catalog["components"] == {"cards": list(range(1, 17)), "hand": 3}
    assert rules(game)["text"].startswith("# Pebble Auction")
    stripes = table_catalog(dragonlair.make("dragon-stripes", players=2))
    assert stripes["board"] == "games/dragon-stripes/board.js"  # from its own package
    with replaced("pebble-auction", catalog=None):
        assert table_catalog(game)["components"] == {}


def test_the_example_game_is_offered_to_the_rl_libraries() -> None:
    from dragonlair.rl import gymnasium_env, layout_ids, openspiel
    from dragonlair.rl.pettingzoo_env import env

    assert "pebble-auction" in layout_ids()
    assert any(n.startswith("python_pebble_auction") for n in openspiel.register_all())
    assert gymnasium_env.env_id("pebble-auction") in gymnasium_env.register_all()
    aec = env("pebble-auction", players=2)
    aec.reset(seed=3)
    rng = random.Random(3)
    for _agent in aec.agent_iter(max_iter=200):
        obs, _, term, trunc, _ = aec.last()
        if term or trunc:
            aec.step(None)
            continue
        mask = obs["action_mask"]
        aec.step(rng.choice([i for i, ok in enumerate(mask) if ok]))
    assert not aec.agents


def test_the_entry_points_are_read_once_per_import_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # reading them opens every installed distribution's metadata; make() and spec() ask
    reads: list[int] = []
    real = metadata.entry_points

    def counting(**kwargs: Any) -> Any:
        reads.append(1)
        return real(**kwargs)

    monkeypatch.setattr(metadata, "entry_points", counting)
    monkeypatch.syspath_prepend(str(tmp_path))  # a new import path: read again
    assert dragonlair.spec("dragon-race").id == "dragon-race"
    dragonlair.make("space-race", players=2)
    assert manifest("dragon-stripes").id == "dragon-stripes"
    assert len(reads) == 1
    monkeypatch.syspath_prepend(str(tmp_path / "other"))
    assert "space-dragons" in dragonlair.games()
    assert len(reads) == 2
