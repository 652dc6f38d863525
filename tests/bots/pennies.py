"""Matching Pennies on the engine: the smallest game where a sealed choice matters.

Both seats show heads or tails at once (a simultaneous secret choice); seat 0 wins if they
match, seat 1 if they differ. Whoever could see the other's coin before choosing would
always win, so a search that lets one seat's choice depend on the other's reveals itself
by rating its moves near 1 instead of near 1/2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dragonlair.core import Action, ActionKind, EventSpec, Game, GameSpec, State, make_result
from dragonlair.core.view_types import BaseView

HEADS, TAILS = 0, 1


class PenniesView(BaseView):
    coins: list[int]


class PenniesState(State):
    __slots__ = ("coins",)

    game: Pennies
    coins: tuple[int, ...]

    def _setup(self) -> None:
        self.coins = ()
        self.phase = "show"
        self._open_choice([0, 1])

    def _legal_ids(self, seat: int) -> list[int]:
        return [HEADS, TAILS]

    def _step(self, seat: int, aid: int) -> None:
        if self._collect(seat, aid):
            ch = self._close_choice()
            self.coins = (int(ch[0]), int(ch[1]))  # type: ignore[arg-type]
            self._emit("shown", (self.coins,))
            match = self.coins[0] == self.coins[1]
            how = "matched" if match else "differed"
            self._finish(make_result([1, 0] if match else [0, 1], termination=how))

    def _view(self, seat: int | None, out: dict[str, Any]) -> None:
        out["coins"] = list(self.coins)

    def _fill_from_view(self, view: dict[str, Any], rng: Any) -> None:
        for s in self.unknown_choices():
            self.fill_choice(s, rng.randrange(2))
        self.coins = tuple(view["coins"])


class Pennies(Game):
    spec = GameSpec(
        id="matching-pennies",
        name="Matching Pennies",
        min_players=2,
        max_players=2,
        rules_version=1,
        summary="Show a coin at once; seat 0 wins on a match.",
    )
    state_class = PenniesState
    view_type = PenniesView
    phases = ("show", "over")
    terminations = ("matched", "differed")
    action_kinds = (ActionKind("heads", (), "show heads"), ActionKind("tails", (), "show tails"))
    event_specs = {"shown": EventSpec(("coins",), "coins shown: {coins}")}

    def _define_actions(self) -> Sequence[Action]:
        return [Action("heads"), Action("tails")]

    @property
    def max_length(self) -> int:
        return 2
