"""The engine's conformance suite for every player count and a spread of options."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from dragonlair.core.conformance import check_game


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [{}, {"every_power_source": True}, {"scanner": "always"}],
    ids=["default", "every_power_source", "scanner_always"],
)
def test_conformance(options: dict[str, object]) -> None:
    report = check_game("space-race", players=(2, 3, 4), options=(options,), games=3)
    assert report.games == 9
    assert report.leak_samples > 500


@pytest.mark.slow
def test_conformance_with_a_user_data_file(tmp_path: Path) -> None:
    doc = json.loads(
        resources.files("dragonlair.space_race").joinpath("data", "space_race.json").read_text()
    )
    for card in doc["damage_cards"][:20]:
        card["vp"] = -2
    path = tmp_path / "printed.json"
    path.write_text(json.dumps(doc))
    report = check_game("space-race", options=({"data": str(path)},), games=1, seed=9)
    assert report.games == 3
