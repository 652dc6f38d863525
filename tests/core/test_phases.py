"""Every game declares its phases: a ``Literal`` type its state's ``phase`` is annotated
with, the same values in ``Game.phases`` and a name for each in ``Game.phase_names``; a
position or a view in a phase the game does not declare is refused."""

from __future__ import annotations

import inspect
import random
from dataclasses import replace
from typing import Any, get_args

import pytest

import dragonlair
from dragonlair.core import BadPosition, DragonlairError, Game, game_class
from dragonlair.core.clones import compiled
from dragonlair.core.conformance import ConformanceError, check_game
from dragonlair.core.position import Fields
from dragonlair.core.rng import Rng
from tests.core.example_game import PebbleAuction
from tests.core.pebble_auction.manifest import MANIFEST, registered, replaced
from tests.core.test_position_fifth_game import CODEC, PebbleCodec
from tests.games import OWN_GAMES, table_size


@pytest.mark.parametrize("game_id", dragonlair.games())
def test_the_state_is_typed_with_the_phases_the_game_declares(game_id: str) -> None:
    cls = game_class(game_id)
    state_class = cls.state_class
    if compiled(state_class):
        pytest.skip("a compiled class keeps no annotations")
    own = inspect.get_annotations(state_class, eval_str=True)  # the game's, not the core's
    assert get_args(own["phase"]) == cls.phases
    assert "over" in cls.phases and len(set(cls.phases)) == len(cls.phases)
    assert set(cls.phase_names) <= set(cls.phases)


@pytest.mark.parametrize("game_id", OWN_GAMES)
def test_the_built_in_games_name_every_phase(game_id: str) -> None:
    cls = game_class(game_id)
    assert set(cls.phase_names) == set(cls.phases)
    assert all(name and name[0].isupper() for name in cls.phase_names.values())


@pytest.mark.parametrize("game_id", OWN_GAMES)
def test_a_position_in_a_phase_the_game_does_not_declare_is_refused(game_id: str) -> None:
    game = dragonlair.make(game_id, players=table_size(game_id))
    doc = game.new_game(seed=4).to_position()
    assert dragonlair.position(game_id, doc, seed=1).phase == doc["phase"]
    playing = ", ".join(p for p in game.phases if p != "over")
    with pytest.raises(BadPosition, match=f"is 'nap'; expected one of {playing}$") as e:
        dragonlair.position(game_id, {**doc, "phase": "nap"}, seed=1)
    assert e.value.field == "phase"
    with pytest.raises(BadPosition, match="a position is of a game in progress") as e:
        dragonlair.position(game_id, {**doc, "phase": "over"}, seed=1)
    assert e.value.field == "phase"


class CarelessCodec(PebbleCodec):
    """The example game's position format, setting a phase its game does not declare."""

    def read(self, st: Any, f: Fields, rng: Rng) -> None:
        super().read(st, f, rng)
        st.phase = "nap"


CARELESS = CarelessCodec()


def test_the_phase_a_position_format_sets_is_held_to_the_declared_ones() -> None:
    game = dragonlair.make(PebbleAuction.spec.id, players=3)
    doc = {"game": game.spec.id, "players": 3, **CODEC.write(game.new_game(seed=2))}
    with replaced(game.spec.id, position=f"{__name__}:CODEC"):
        assert dragonlair.position(game.spec.id, doc, seed=1).phase == "bid"
    with (
        replaced(game.spec.id, position=f"{__name__}:CARELESS"),
        pytest.raises(BadPosition, match="is 'nap'; expected one of bid, claim, objections$"),
    ):
        dragonlair.position(game.spec.id, doc, seed=1)


@pytest.mark.parametrize("game_id", OWN_GAMES)
def test_a_view_in_an_undeclared_phase_samples_no_state(game_id: str) -> None:
    state = dragonlair.make(game_id, players=table_size(game_id)).new_game(seed=3)
    view = state.view(state.to_act[0])
    assert state.game.sample_state(view, random.Random(1)).phase == state.phase
    with pytest.raises(DragonlairError, match="view has phase 'nap'"):
        state.game.sample_state({**view, "phase": "nap"}, random.Random(1))


def test_the_suite_refuses_a_name_for_a_phase_the_game_does_not_declare() -> None:
    cls: type[Game] = type(
        "BadlyNamedPhases",
        (PebbleAuction,),
        {
            "spec": replace(PebbleAuction.spec, id="pebble-named"),
            "phase_names": {"bid": "Bidding", "nap": "Napping"},
        },
    )
    with (
        registered(replace(MANIFEST, game=cls, layout=None)),
        pytest.raises(ConformanceError, match="names 'nap', which is not a phase it declares"),
    ):
        check_game(cls.spec.id, games=1, players=[3])
