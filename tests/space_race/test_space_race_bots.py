"""The bots of Space Race (2021) play from views alone, and plain ``ismcts`` plays the
configuration the game declares as its best (the generic one; figures in docs/bots.md)."""

from __future__ import annotations

import pytest

from dragonlair.bots.checks import check_bot, check_ismcts_defaults


@pytest.mark.slow
def test_bots_see_only_views() -> None:
    check_bot("space-race", "heuristic")
    check_bot("space-race", "ismcts", iterations=20)


def test_declared_ismcts_defaults_are_valid_and_applied() -> None:
    assert check_ismcts_defaults("space-race") == {}
