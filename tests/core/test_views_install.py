"""A game's views are installed for its states by its view module (the rules never import
it): found whichever module of the game is imported first, and refused clearly where a
state class has none."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

import dragonlair
from dragonlair.core.errors import DragonlairError
from dragonlair.core.game_views import GameViews, install_views, views_of
from dragonlair.core.state import State
from dragonlair.dragon_stripes.rules import DragonStripesState
from dragonlair.dragon_stripes.view import DragonStripesSeatView, build_view, sample_from_view


@pytest.mark.parametrize(
    ("module", "game", "seat_view"),
    [
        ("dragonlair.dragon_race.rules", "DragonRace", "DragonRaceSeatView"),
        ("dragonlair.space_race.rules", "SpaceRace", "SpaceRaceSeatView"),
    ],
)
def test_importing_only_the_rules_installs_the_views(
    module: str, game: str, seat_view: str
) -> None:
    code = (
        f"import random; from {module} import {game}; s = {game}(2).new_game(1); "
        "print(type(s.seat_view(0)).__name__, s.view(0)['game'], "
        "s.game.sample_state(s.view(0), random.Random(1)).move)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == seat_view and out.stdout.split()[2] == "0"


def test_a_state_class_without_views_is_refused_clearly() -> None:
    class Bare(State):
        __slots__ = ()

    assert views_of(Bare) is None
    with pytest.raises(DragonlairError, match="has no views.*install_views"):
        Bare.__new__(Bare)._game_views()


def test_a_subclass_may_install_views_of_its_own() -> None:
    class Annotated(DragonStripesState):
        __slots__ = ()

    base = dragonlair.make("dragon-stripes", players=3).new_game(seed=3)
    assert views_of(Annotated) is views_of(DragonStripesState)  # found through its base

    def build(state: Any, seat: int | None, out: dict[str, Any]) -> None:
        build_view(state, seat, out)
        out["note"] = "annotated"

    install_views(Annotated, GameViews(build, sample_from_view, None))
    mine = Annotated.__new__(Annotated)
    mine.__setstate__(base.__getstate__())
    assert mine.view(0)["note"] == "annotated"
    assert dict(mine.seat_view(0)) == mine.view(0)  # no typed view: the JSON view
    assert "note" not in base.view(0)
    assert isinstance(base.seat_view(0), DragonStripesSeatView)
