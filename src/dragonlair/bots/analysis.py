"""Analysis of a position from one seat's view: how good is each of its legal actions?

``analyse(state, seat)`` takes the seat's view and legal actions from the state and never
touches the state again; everything after that is :func:`analyse_view`, which sees only
the view (the tests run it on a poisoned state, as for bots). For each legal action it
gives:

- **the win chance** with its 95% Wilson interval (``dragonlair.bots.interval``): the
  seat's mean win share (1 for a win, 1/k for a win shared by k seats) over ``samples``
  determinizations of the view (``game.sample_state``: everything the seat cannot see is
  redrawn, as ISMCTS does each iteration), with the action played and the game then
  played out by the game's heuristic in every seat (the rollout policy of the game's
  paired ISMCTS; a random one for a game without a heuristic). Every action is played on
  the same determinizations with the same random numbers afterwards, so differences
  between actions are not luck of the draw;
- **the expected points** over the same playouts;
- **the ISMCTS statistics**: a search with the game's ISMCTS defaults (or the parameters
  given) from the view, its visits and mean reward per action, and its pick (the bot's
  move);
- with ``games=N``, **N continuations** per action played by the chosen bots from
  determinizations of the view (seeded: the same arguments give the same games), with
  their win chance and mean points.

Everything is seeded from ``seed``: the same view and arguments give the same analysis.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import Action, DragonlairError, Game, State, derive_seed
from ..core.bot import Bot, RandomBot, view_for
from . import BotSpec, UnknownBot, heuristic_class, make_bot, parse_bots
from .interval import wilson_interval
from .ismcts import ISMCTSBot


@dataclass(frozen=True)
class Rate:
    """A win chance with its 95% interval."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}

    def __str__(self) -> str:
        return f"{self.value:.1%} [{self.low:.1%}, {self.high:.1%}]"


def _wilson(successes: float, trials: int) -> Rate:
    value = successes / trials if trials > 0 else 0.0
    low, high = wilson_interval(successes, trials)
    return Rate(value, min(low, value), max(high, value))  # rounding at 0 and 1


@dataclass(frozen=True)
class Outcomes:
    """The seat's win chance and points over a set of played-out games."""

    games: int
    win: Rate
    points: float
    points_sd: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "win": self.win.to_dict(),
            "points": self.points,
            "points_sd": self.points_sd,
        }


@dataclass(frozen=True)
class ActionValue:
    """What the analysis found for one legal action."""

    action: Action
    playouts: Outcomes
    visits: int
    value: float
    continuations: Outcomes | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": str(self.action),
            "playouts": self.playouts.to_dict(),
            "ismcts": {"visits": self.visits, "value": self.value},
        }
        if self.continuations is not None:
            out["continuations"] = self.continuations.to_dict()
        return out


@dataclass(frozen=True)
class Analysis:
    """The analysis of one decision of one seat."""

    game: str
    seat: int
    move: int
    pick: Action
    actions: tuple[ActionValue, ...]
    samples: int
    iterations: int
    bots: tuple[str, ...]
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "move": self.move,
            "pick": str(self.pick),
            "samples": self.samples,
            "iterations": self.iterations,
            "bots": list(self.bots),
            "seed": self.seed,
            "actions": [a.to_dict() for a in self.actions],
        }


def analyse(
    state: State,
    seat: int,
    *,
    samples: int = 100,
    games: int = 0,
    bots: str = "heuristic",
    seed: int = 0,
    **ismcts: Any,
) -> Analysis:
    """Analyse ``seat``'s decision in ``state`` from its view only (see the module
    docstring); ``ismcts`` parameters (``iterations``, ``time``, ...) go to the search."""
    legal = state.legal_actions(seat)  # BadSeat for a seat not at the table
    if not legal:
        waiting = ", ".join(map(str, state.to_act)) or "nobody: the game is over"
        raise DragonlairError(f"seat {seat} is not asked to act now; waiting for {waiting}")
    view = state.view(seat)
    return analyse_view(
        state.game, view, legal, samples=samples, games=games, bots=bots, seed=seed, **ismcts
    )


def analyse_view(
    game: Game,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    *,
    samples: int = 100,
    games: int = 0,
    bots: str = "heuristic",
    seed: int = 0,
    **ismcts: Any,
) -> Analysis:
    """:func:`analyse` from a seat's view and legal actions alone."""
    seat = view.get("seat")
    if not isinstance(seat, int) or seat not in view.get("to_act", ()):
        raise DragonlairError(f"the view's seat {seat!r} is not asked to act")
    if not legal:
        raise DragonlairError(f"seat {seat} has no legal action to analyse")
    for name, value in (("samples", samples), ("games", games), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise DragonlairError(f"{name} should be a whole number >= 0, not {value!r}")
    if samples < 1:
        raise DragonlairError("samples should be at least 1")
    specs = parse_bots(bots, game.players)
    try:
        searcher = make_bot("ismcts", game, **ismcts)
    except UnknownBot as e:
        raise DragonlairError(str(e)) from None
    assert isinstance(searcher, ISMCTSBot)
    search = searcher.search(view, legal, random.Random(derive_seed(seed, 0)))
    stats = {str(s.action): s for s in search.stats}
    try:
        policy: Bot = heuristic_class(game)(game)
    except UnknownBot:
        policy = RandomBot(game)
    playouts = _outcomes(game, view, legal, samples, [policy] * game.players, seed, 1)
    continued: list[Outcomes | None] = [None] * len(legal)
    if games:
        players = [spec.make(game) for spec in specs]
        continued = list(_outcomes(game, view, legal, games, players, seed, 2))
    values = tuple(
        ActionValue(
            a,
            playouts[i],
            stats[str(a)].visits,
            stats[str(a)].mean,
            continued[i],
        )
        for i, a in enumerate(legal)
    )
    return Analysis(
        game=game.spec.id,
        seat=seat,
        move=int(view["move"]),
        pick=search.action,
        actions=values,
        samples=samples,
        iterations=search.iterations,
        bots=tuple(_labels(specs)) if games else (),
        seed=seed,
    )


def _labels(specs: Sequence[BotSpec]) -> list[str]:
    return [s.text for s in specs]


def _outcomes(
    game: Game,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    count: int,
    players: Sequence[Bot],
    seed: int,
    stream: int,
) -> list[Outcomes]:
    """Each action played on ``count`` determinizations of ``view``, then the game played
    out by ``players`` (one bot per seat, each given only its own view)."""
    seat: int = view["seat"]
    shares: list[list[float]] = [[] for _ in legal]
    points: list[list[float]] = [[] for _ in legal]
    for i in range(count):
        determinized = game.sample_state(view, random.Random(derive_seed(seed, stream, i, 0)))
        after = derive_seed(seed, stream, i, 1)
        for k, action in enumerate(legal):
            s = determinized.clone()
            s.apply(seat, action)
            rng = random.Random(after)
            while not s.is_over:
                p = s.to_act[0]
                options = s.legal_actions(p)
                bot = players[p]
                pick = (
                    options[0]
                    if len(options) == 1
                    else bot.choose(view_for(bot, s, p), options, rng)
                )
                s.apply(p, pick)
            result = s.result
            assert result is not None
            share = 1 / len(result.winners) if seat in result.winners else 0.0
            shares[k].append(share)
            points[k].append(float(result.points[seat]))
    out = []
    for k in range(len(legal)):
        pts = points[k]
        out.append(
            Outcomes(
                games=count,
                win=_wilson(sum(shares[k]), count),
                points=statistics.fmean(pts),
                points_sd=statistics.stdev(pts) if len(pts) > 1 else 0.0,
            )
        )
    return out
