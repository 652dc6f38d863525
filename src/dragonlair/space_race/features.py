"""What a finished game of Space Race (2021) says beyond its result, for designers' tables.

Everyone drafts at once, so there is no start player (``start_seat`` is None). Read from
each seat's own events and the public view of the finished ships:

- ``length``: ``rounds`` played;
- per seat: the ship's contents at the end (``scanners``, ``robot_parts``, ``crystals``,
  ``power_cockpit``, ``power_engine``, ``alien_drones``, ``loot_carriers``, ``crew``,
  ``damage``: cards in each stack; ``fuel`` and ``spent_fuel``: Fuel cards), the cards
  played as Fuel (``fuel_picks``), ``damage_taken`` and ``damage_repaired`` over the
  game, and ``cards`` (the Space cards played, as space-separated ids);
- ``position(view)`` (the manifest's ``features``): ``score_s``, each seat's running score
  as the view shows it;
- ``standing(state)``: the same running scores read from the state, without a view, so
  that the simulation takes them after every decision (the results' checkpoints).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..core import Game, State
from .json_view import running_scores
from .view_types import SpaceRaceView

if TYPE_CHECKING:
    from .rules import SpaceRace, SpaceRaceState

LENGTH = ("rounds",)
STACKS = (
    "scanners",
    "robot_parts",
    "crystals",
    "power_cockpit",
    "power_engine",
    "alien_drones",
    "loot_carriers",
    "crew",
    "damage",
)
SEAT = (
    *STACKS,
    "fuel",
    "spent_fuel",
    "fuel_picks",
    "damage_taken",
    "damage_repaired",
    "cards",
)


def features(state: State) -> dict[str, Any]:
    """Length in rounds and the per-seat ship contents and features of a finished game,
    from one pass over the event log (each seat's placements as it saw them, the Damage
    everyone saw) and the public view of the ships."""
    n = state.game.players
    ships = state.view(None)["ships"]
    fuel_picks = [0] * n
    cards: list[list[str]] = [[] for _ in range(n)]
    taken = [0] * n
    repaired = [0] * n
    rounds = 0
    for kind, values, _audience in state.event_log():
        if kind == "placed":  # seat, how, card, name: its own seat sees it whole
            s = cast(int, values[0])
            fuel_picks[s] += "Fuel" in cast(str, values[1])
            cards[s].append(str(values[2]))
        elif kind == "damaged":  # seat, rank, count, cards, names (public)
            taken[cast(int, values[0])] += cast(int, values[2])
        elif kind == "repaired":
            repaired[cast(int, values[0])] += cast(int, values[2])
        elif kind == "round":
            rounds += 1
    seats: list[dict[str, Any]] = []
    for s in range(n):
        ship = ships[s]
        row: dict[str, Any] = {k: len(ship[k]) for k in STACKS}
        row["fuel"] = ship["fuel"]
        row["spent_fuel"] = ship["spent_fuel"]
        row["fuel_picks"] = fuel_picks[s]
        row["cards"] = " ".join(cards[s])
        row["damage_taken"] = taken[s]
        row["damage_repaired"] = repaired[s]
        seats.append(row)
    return {"start_seat": None, "length": {"rounds": rounds}, "seats": seats}


def position(view: SpaceRaceView) -> dict[str, float]:
    """Each seat's score as the ships stand."""
    return {f"score_{s}": float(p) for s, p in enumerate(view["score"])}


def standing(state: State) -> list[float]:
    """Each seat's running score, as :func:`position` reads it from the view (the view
    scores the state's own row of stacks, face-down Fuel counted), read from the state
    without building a view. Ships change only when the picks are revealed, so most calls
    find the scores remembered for the row (``json_view.running_scores``)."""
    st: SpaceRaceState = state  # type: ignore[assignment]  # (a cast is a call)
    return list(map(float, running_scores(st.game, st.ships)))


def stage(state: State) -> int:
    """Where the game stands, as a number the simulation takes after every decision (see
    :func:`stage_name`): the round times 100 plus the pick under way in it."""
    st: SpaceRaceState = state  # type: ignore[assignment]  # (a cast is a call)
    return st.round * 100 + st.pick


def stage_name(game: Game, value: int) -> str:
    """A :func:`stage` as a designer says it: ``round 2 of 3, pick 4 of 6``."""
    sr = cast("SpaceRace", game)
    round_, pick = divmod(value, 100)
    return f"round {round_} of {sr.rounds}, pick {pick} of {sr.hand_size}"


def token_names(game: Game) -> dict[str, dict[str, str]]:
    """What the ids of ``cards`` are: each Space card's name, corner VP and on-play effect
    (``Green Crystal, 1 VP``; ``Orange Scanner, 2 VP, peeks at the top Danger``)."""
    sr = cast("SpaceRace", game)
    return {
        "cards": {
            str(c.id): f"{c.name}, {c.corner_vp} VP"
            + (", peeks at the top Danger" if c.on_play == "peek_top_danger" else "")
            for c in sr.components.space
        }
    }
