"""Environment ids carry a version that stands for the layout and the rules: a layout or
rules change cannot ship under the old id (the policy is in dragonlair.rl.versions)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import dragonlair
from dragonlair.rl import versions
from dragonlair.rl.gymnasium_env import env_id
from dragonlair.rl.pettingzoo_env import env, parallel_env
from dragonlair.rl.versions import VERSIONS, digest, version
from tests.games import OWN_GAMES


def test_every_games_layout_and_rules_digest_matches_its_version() -> None:
    # dragonlair's own games (an outside game's environment ids carry -v0)
    assert set(VERSIONS) == set(OWN_GAMES)
    for game_id, (number, recorded) in VERSIONS.items():
        assert digest(game_id) == recorded, (
            f"{game_id}'s layout or rules changed: its environment ids must go from "
            f"-v{number} to -v{number + 1}, with the new digest {digest(game_id)} in "
            "dragonlair.rl.versions.VERSIONS and a line in CHANGELOG.md"
        )


def test_the_ids_carry_the_version() -> None:
    for game_id in VERSIONS:
        v = version(game_id)
        assert env_id(game_id).endswith(f"-v{v}")
        assert env(game_id).metadata["name"].endswith(f"_v{v}")
        assert parallel_env(game_id).metadata["name"].endswith(f"_parallel_v{v}")
    assert version("pebble-auction") == 0  # a game with no entry


def test_the_digest_changes_with_the_layout_and_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = digest("dragon-stripes")
    rules = dragonlair.spec("dragon-stripes").rules_version
    with monkeypatch.context() as mp:
        mp.setattr(versions, "signature_text", lambda encoder: "another layout")
        assert digest("dragon-stripes") != before
    with monkeypatch.context() as mp:
        mp.setattr(versions, "game_spec", lambda game_id: SimpleNamespace(rules_version=rules + 1))
        assert digest("dragon-stripes") != before
    assert digest("dragon-stripes") == before
