"""The conformance suite passes the example game and catches deliberately broken copies."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, NotRequired, Self

import pytest

from dragonlair.core import Action, EventSpec, Game, UnknownGame, manifest, register
from dragonlair.core.bot import Bot
from dragonlair.core.conformance import ConformanceError, check_game
from dragonlair.core.manifest import BadManifest, check_manifest
from tests.core.example_game import PebbleAuction, PebbleState, PebbleView
from tests.core.pebble_auction.manifest import MANIFEST, registered


def test_example_game_conforms() -> None:
    report = check_game("pebble-auction", games=4, options=({}, {"start_points": 0}))
    assert report.games == 3 * 4 * 2
    assert report.leak_samples > 100


def _broken(name: str, state_cls: type[PebbleState]) -> type[Game]:
    cls = type(
        f"Broken{name}",
        (PebbleAuction,),
        {
            "spec": replace(PebbleAuction.spec, id=f"pebble-{name}"),
            "state_class": state_cls,
        },
    )
    return cls


class LeakyView(PebbleView):
    all_hands: NotRequired[list[list[int]]]
    sealed: NotRequired[list[int | None]]


class LeakyViewState(PebbleState):
    """Shows every hand to everyone."""

    __slots__ = ()

    def _view(self, seat: int | None, out: dict[str, Any]) -> None:
        super()._view(seat, out)
        out["all_hands"] = [list(h) for h in self.hands]


class GlobalShuffleState(PebbleState):
    """Shuffles with the global random generator."""

    __slots__ = ()

    def _shuffle(self, items: list[Any]) -> None:
        random.shuffle(items)


class AcceptsIllegalState(PebbleState):
    """A "fast path" apply that skips the legality check."""

    __slots__ = ()

    def apply(self, seat: object, action: Any) -> None:
        assert type(seat) is int
        table = self.game.table
        if isinstance(action, str):
            action = table.parse(action)
        aid = table.ids[action]
        if seat not in self.to_act or aid not in self._legal_ids(seat):
            # forgets to refuse: plays the first legal action instead
            aid = self._legal_ids(self.to_act[0])[0]
            seat = self.to_act[0]
        self._legal = None
        self._hist = (self._hist, seat, aid)
        self._move += 1
        self._step(seat, aid)


class SharedCloneState(PebbleState):
    """A clone that shares the points list with its original."""

    __slots__ = ()

    def clone(self) -> Self:
        n = super().clone()
        n.points = self.points
        return n


class HiddenChoiceLeakState(PebbleState):
    """Shows other seats' sealed bids before the reveal."""

    __slots__ = ()

    def _view(self, seat: int | None, out: dict[str, Any]) -> None:
        super()._view(seat, out)
        out["sealed"] = [c for c in (self._choices or [])]


class ReversedPairsState(PebbleState):
    """Builds its legal ids and actions together (the optional hook), in another order
    than ``_legal_ids`` gives them."""

    __slots__ = ()
    _LEGAL_PAIRS = True

    def _legal_ids_and_actions(self, seat: int) -> tuple[list[int], list[Action]]:
        ids = self._legal_ids(seat)[::-1]
        actions = self.game.table.actions
        return ids, [actions[i] for i in ids]


class FreshActionsPairsState(PebbleState):
    """Builds its legal actions anew: equal to the table's, but other objects."""

    __slots__ = ()
    _LEGAL_PAIRS = True

    def _legal_ids_and_actions(self, seat: int) -> tuple[list[int], list[Action]]:
        ids = self._legal_ids(seat)
        actions = self.game.table.actions
        return ids, [Action(actions[i].kind, *actions[i].args) for i in ids]


@pytest.mark.parametrize(
    ("name", "state_cls", "message"),
    [
        ("reversed-pairs", ReversedPairsState, "legal_ids_unchecked disagree"),
        ("fresh-pairs", FreshActionsPairsState, "not the table's own actions"),
        ("leaky", LeakyViewState, "leak: seat"),
        ("global-shuffle", GlobalShuffleState, "global random"),
        ("accepts-illegal", AcceptsIllegalState, "was accepted"),
        ("shared-clone", SharedCloneState, "changed the original"),
        ("sealed-leak", HiddenChoiceLeakState, "leak: seat"),
    ],
)
def test_suite_catches_broken_copies(name: str, state_cls: type[PebbleState], message: str) -> None:
    cls = _broken(name, state_cls)
    cls.view_type = LeakyView  # declares the leaked keys: the leak test must find them
    with (
        registered(replace(MANIFEST, game=cls, layout=None)),
        pytest.raises(ConformanceError, match=message),
    ):
        check_game(cls.spec.id, games=3)


class NeverEndsState(PebbleState):
    """Forgets to end: bids are returned to hand, so rounds go on for ever."""

    __slots__ = ()

    def _reveal(self, choices: list[int | None]) -> None:
        self._to_act = ()
        self._start_round()


def test_suite_catches_a_game_that_does_not_end() -> None:
    cls = _broken("never-ends", NeverEndsState)
    with (
        registered(replace(MANIFEST, game=cls, layout=None)),
        pytest.raises(ConformanceError, match="max_length|does not end"),
    ):
        check_game(cls.spec.id, games=1, players=[2])


PEBBLE = "tests.core.pebble_auction"  # the example game's package


def test_suite_catches_a_phase_the_game_does_not_declare() -> None:
    cls = _broken("undeclared-phase", PebbleState)
    cls.phases = ("bid", "claim", "over")  # "objections" is missing
    with (
        registered(replace(MANIFEST, game=cls, layout=None)),
        pytest.raises(ConformanceError, match="'objections' is not one of the phases"),
    ):
        check_game(cls.spec.id, games=2, players=[3])


def test_event_seat_fields_are_declared_fields_and_checked_to_hold_seats() -> None:
    with pytest.raises(ValueError, match="seat fields"):
        EventSpec(("seat",), "{seat}", seat_fields=("winner",))
    specs = dict(PebbleAuction.event_specs)
    specs["took"] = EventSpec(("seat", "pot"), "{seat} took {pot}", seat_fields=("seat", "pot"))
    cls = _broken("pot-as-seat", PebbleState)
    cls.event_specs = specs
    with (
        registered(replace(MANIFEST, game=cls, layout=None)),
        pytest.raises(ConformanceError, match="seat field pot="),
    ):
        check_game(cls.spec.id, games=3, players=[2], every=1)


class UndeclaredViewKeyState(PebbleState):
    """Shows a key its game's view type does not declare."""

    __slots__ = ()

    def _view(self, seat: int | None, out: dict[str, Any]) -> None:
        super()._view(seat, out)
        out["deck_left"] = len(self.deck)


class MistypedViewState(PebbleState):
    """Shows the pot as text where the view type declares an int."""

    __slots__ = ()

    def _view(self, seat: int | None, out: dict[str, Any]) -> None:
        super()._view(seat, out)
        out["pot"] = str(self.pot)


@pytest.mark.parametrize(
    ("name", "state_cls", "message"),
    [
        ("undeclared-key", UndeclaredViewKeyState, "unexpected extra key.*deck_left"),
        ("mistyped", MistypedViewState, "'pot'.* int"),
    ],
)
def test_suite_checks_every_view_against_the_declared_type(
    name: str, state_cls: type[PebbleState], message: str
) -> None:
    cls = _broken(name, state_cls)
    with (
        registered(replace(MANIFEST, game=cls, layout=None)),
        pytest.raises(ConformanceError, match=f"does not match PebbleView: .*{message}"),
    ):
        check_game(cls.spec.id, games=1, players=[2])


def test_the_example_games_manifest_is_checked_part_by_part() -> None:
    m = check_manifest("pebble-auction")
    assert m is MANIFEST
    assert m.player_rules().startswith("# Pebble Auction")
    assert m.load_layout() is not None and m.load_terminal() is None


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        (
            {"layout": "tests.core.pebble_auction.nowhere:LAYOUT"},
            "layout tests.core.pebble_auction.nowhere:LAYOUT: ",
        ),
        ({"layout": "tests.core.pebble_auction.layout:MISSING"}, "has no MISSING"),
        (
            {"layout": "tests.core.pebble_auction.layout:ALL_POINTS"},
            "is not a layout for pebble-auction",
        ),
        ({"terminal": "tests.core.pebble_auction.layout:NOWHERE"}, "has no NOWHERE"),
        ({"browser_board": f"{PEBBLE}:data/pebble_auction.js"}, "no browser board"),
        ({"browser_board": f"{PEBBLE}.layout:board.js"}, "is a module, not a package"),
        ({"position": f"{PEBBLE}.layout"}, "position tests.core.pebble_auction.layout has no"),
        ({"position": f"{PEBBLE}.nowhere"}, "position tests.core.pebble_auction.nowhere: cannot"),
        ({"puzzles": "data/nowhere"}, "no puzzles folder data/nowhere"),
        ({"game_data": f"{PEBBLE}.layout"}, "lacks features, LENGTH or SEAT"),
        ({"tutorial": "data/nowhere.toml"}, "tutorial data/nowhere.toml: "),
        ({"catalog": lambda game: {"cards": {1, 2}}}, "catalog is not JSON data"),
        ({"catalog": lambda game: [1, 2]}, "catalog gave list"),
        ({"ismcts": {"c": object()}}, "ismcts defaults must be plain data"),
        ({"package": f"{PEBBLE}.layout"}, "no data/player_rules.md"),
        ({"features": lambda view: {"pot": float("nan")}}, "features must map names"),
    ],
)
def test_a_part_that_is_not_there_is_caught(parts: dict[str, Any], message: str) -> None:
    with registered(replace(MANIFEST, **parts)):
        with pytest.raises(BadManifest, match=message):
            check_manifest("pebble-auction")
        with pytest.raises(ConformanceError, match=message):
            check_game("pebble-auction", games=1, players=[2])


def test_a_heuristic_that_plays_illegally_is_caught() -> None:
    class Wrong(Bot):
        def choose(self, view: Any, legal: Any, rng: Any) -> Action:
            return Action("take") if view["phase"] == "bid" else legal[0]

    with (
        registered(replace(MANIFEST, heuristic=Wrong)),
        pytest.raises(BadManifest, match="the heuristic chose take, not a legal action"),
    ):
        check_manifest("pebble-auction")


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ({"game": PebbleState}, "game must be a Game class"),
        ({"layout": "no colon"}, "layout must be 'module:attribute' or None"),
        ({"browser_board": "../secret.js"}, "browser_board must be 'package:folder/name.js'"),
        ({"browser_board": "tests:../secret.js"}, "browser_board must be 'package:"),
        ({"browser_board": "tests:/etc/x.js"}, "browser_board must be 'package:"),
        ({"position": "a/b"}, "position must be 'module' or 'module:attribute'"),
        ({"puzzles": "../data"}, "puzzles must be a path inside the package"),
        ({"game_data": "a.b:c"}, "game_data must be a module name"),
        ({"tutorial": "data/t.toml", "package": None}, "tutorial is a path inside package"),
        ({"heuristic": "heuristic"}, "heuristic must be a bot factory or None"),
        ({"catalog": {}}, "catalog must be a function or None"),
        ({"ismcts": [("c", 1)]}, "ismcts must be a mapping"),
    ],
)
def test_a_malformed_manifest_is_refused_when_made(parts: dict[str, Any], message: str) -> None:
    with pytest.raises(BadManifest, match=message):
        replace(MANIFEST, **parts)


def test_only_a_manifest_can_be_registered_and_unknown_ids_are_named() -> None:
    with pytest.raises(BadManifest, match="register takes a GameManifest"):
        register(PebbleAuction)  # type: ignore[arg-type]
    with pytest.raises(UnknownGame, match="no game 'nope'; the games are: .*pebble-auction"):
        manifest("nope")
