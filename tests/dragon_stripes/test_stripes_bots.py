"""The bots of Dragon Stripes play from views alone, and plain ``ismcts`` plays the
configuration the game declares as its best (paired evaluation; figures in docs/bots.md)."""

from __future__ import annotations

import pytest

from dragonlair.bots.checks import check_bot, check_ismcts_defaults


@pytest.mark.slow
def test_bots_see_only_views() -> None:
    check_bot("dragon-stripes", "heuristic")
    check_bot("dragon-stripes", "ismcts", iterations=20)


def test_declared_ismcts_defaults_are_valid_and_applied() -> None:
    assert check_ismcts_defaults("dragon-stripes") == {"paired": True}
