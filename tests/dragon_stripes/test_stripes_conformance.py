"""The core's conformance suite for Dragon Stripes, every player count, a spread of options.

Besides the core's checks it runs the game's own invariants at every step: every gem is in
a hand, the pot or the lair (350 in all), the deck is the deck, and every seat's gems lie
within what its public ledger allows (the bounds the sampler draws from).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from dragonlair.core.conformance import check_game


@pytest.mark.slow
def test_conformance_for_2_to_6_players_secret_and_open_holdings() -> None:
    report = check_game("dragon-stripes", options=({}, {"open_holdings": True}), games=3)
    assert report.games == 5 * 2 * 3
    assert report.leak_samples > 1000


@pytest.mark.slow
def test_conformance_with_a_users_data_file(tmp_path: Path) -> None:
    text = resources.files("dragonlair.dragon_stripes").joinpath("data", "dragon_stripes.json")
    data = json.loads(text.read_text(encoding="utf-8"))
    data["stripes"] = [2, 3, 5, 7, 11, 13, 17, 19, 23]  # a short, rich dragon
    data["footprint_cards"] = [{"steps": 1, "count": 14}, {"steps": 2, "count": 10}]
    data["stop_cards"] = 6
    data["start_gems"] = 50
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data))
    report = check_game(
        "dragon-stripes", players=[2, 4, 6], options=({"data": str(path)},), games=3, seed=7
    )
    assert report.games == 9


@pytest.mark.slow
def test_conformance_over_more_seeds_at_4_players() -> None:
    report = check_game("dragon-stripes", players=[4], games=12, seed=3, every=7)
    assert report.games == 12
