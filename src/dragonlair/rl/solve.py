"""A small Dragon Stripes that can be solved: CFR and exact exploitability in minutes.

The full games are far too large to solve, so this module plays Dragon Stripes with a
reduced deck and dragon, declared through the game's own data file schema (the shipped
``dragon_stripes/data/small_deck.json``, or any file given as ``data``), as an OpenSpiel
game with **explicit chance nodes**: ``python_dragon_stripes_chance``. A draw is a player's
decision followed by a chance node that turns over a card of each kind still hidden with
its share of the rest of the deck (:mod:`dragonlair.dragon_stripes.chance`), which deals
exactly as the engine's shuffle does; everything else is the engine's own rules. A seat's
information state is everything it has been shown (its events, in order), so the game has
perfect recall and OpenSpiel's tabular algorithms apply.

On it, :func:`run` trains counterfactual regret minimisation (OpenSpiel's CFR+) and
measures the exploitability (OpenSpiel's exact best response) of its average policy and of
the project's bots made into tabular policies: the random bot, the heuristic and ISMCTS
(a search is random, so ISMCTS counts as the pure policy of one seeded search per
information state; docs/rl.md says so beside its figure). Exploitability here is the mean
over the seats of what a best response gains against the others playing the policy, in
win shares (0: a Nash equilibrium; 1/2 for two players is the most there is to gain).

``python -m dragonlair.rl.solve`` prints the table (``--help`` for the options).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import pyspiel
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr, exploitability

from dragonlair.bots import make_bot
from dragonlair.core.bot import view_for
from dragonlair.dragon_stripes.chance import draw_outcomes, put_on_top
from dragonlair.dragon_stripes.kinds import DRAW
from dragonlair.dragon_stripes.rules import DragonStripes, DragonStripesState

GAME_NAME = "python_dragon_stripes_chance"
SMALL_DECK = "small_deck.json"
BOT_LEVELS = ("random", "heuristic", "ismcts")


def small_deck_path() -> str:
    """The path of the shipped small variant's data file."""
    return str(resources.files("dragonlair.dragon_stripes").joinpath("data", SMALL_DECK))


def _engine(params: Mapping[str, Any]) -> DragonStripes:
    players = params.get("players", 2)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be an integer, not {players!r}")
    data = params.get("data", "") or small_deck_path()
    return DragonStripes(players=players, options={"data": data})


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Dragon Stripes with explicit chance (a small deck, for solvers)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"players": 2, "data": ""},
)


class ChanceGame(pyspiel.Game):  # type: ignore[misc]
    """Dragon Stripes with the draw as a chance node (see the module docstring)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        engine = _engine(params or {})
        self.engine = engine
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=len(engine.card_kinds),
            num_players=engine.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            # each card: a player's draw, its chance node, and at most one answer a seat
            max_game_length=len(engine.deck) * (2 + engine.players),
        )
        super().__init__(_GAME_TYPE, info, dict(params or {}))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> _InfoStateObserver:
        """The observer OpenSpiel's best response reads: information-state strings only."""
        if params:
            raise ValueError(f"the {GAME_NAME} observer takes no parameters, got {dict(params)}")
        if iig_obs_type is not None and not iig_obs_type.perfect_recall:
            raise ValueError(
                f"{GAME_NAME} offers information states only (a perfect-recall observer)"
            )
        return _InfoStateObserver()

    def new_initial_state(self) -> ChanceState:
        """The start: the first seat must draw (the deck is not dealt yet: each draw is
        chance)."""
        return ChanceState(self, _Node(self.engine))


class _InfoStateObserver:
    """OpenSpiel's observer interface for information-state strings (no tensors)."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: ChanceState, player: int) -> None:
        """Nothing to write: this observer has no tensor."""

    def string_from(self, state: ChanceState, player: int) -> str:
        """``player``'s information state."""
        return state.information_state_string(player)


class _Node:
    """The engine's state and, between a seat's draw and its card, the seat that drew.

    OpenSpiel clones a Python state by making a new initial state and deep-copying each
    attribute into it, so the node deals its engine state only when first read: a clone
    never deals a game it throws away, and ``__deepcopy__`` is the engine's fast
    ``clone()``."""

    __slots__ = ("_state", "drawing", "engine", "seen")

    def __init__(
        self,
        engine: DragonStripes,
        state: DragonStripesState | None = None,
        drawing: int | None = None,
        seen: dict[int, tuple[int, str]] | None = None,
    ) -> None:
        self.engine = engine
        self._state = state
        self.drawing = drawing
        # Per seat, the events its information state covers so far and that text: a
        # child extends its parent's text by the new events instead of writing it anew.
        self.seen: dict[int, tuple[int, str]] = {} if seen is None else seen

    @property
    def state(self) -> DragonStripesState:
        """The engine's state (dealt on first use; the deck order is redrawn by chance)."""
        s = self._state
        if s is None:
            dealt = self.engine.new_game(0)
            assert isinstance(dealt, DragonStripesState)
            s = self._state = dealt
        return s

    def __deepcopy__(self, memo: Any) -> _Node:
        return _Node(self.engine, self.state.clone(), self.drawing, dict(self.seen))

    def information_state(self, seat: int) -> str:
        """Every event ``seat`` has been shown, one compact JSON line each."""
        s = self.state
        count, text = self.seen.get(seat, (0, ""))
        if count < s.event_count:
            lines = [
                json.dumps(e, sort_keys=True, separators=(",", ":"))
                for e in s.events_since(count, seat)
            ]
            text = "\n".join([text, *lines]) if text else "\n".join(lines)
            self.seen[seat] = (s.event_count, text)
        return text


class ChanceState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: a seat's decision, a chance node (a draw's card) or the end."""

    def __init__(self, game: ChanceGame, node: _Node) -> None:
        super().__init__(game)
        self._node = node

    @property
    def engine_state(self) -> DragonStripesState:
        """The engine's state underneath (its deck order past ``top`` means nothing here:
        the next card is chosen by the chance node)."""
        return self._node.state

    def current_player(self) -> int:
        s = self._node.state
        if s.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._node.drawing is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return s.to_act[0]

    def _legal_actions(self, player: int) -> list[int]:
        s = self._node.state
        if s.is_over or self._node.drawing is not None or player not in s.to_act:
            return []
        return sorted(s.legal_ids_unchecked(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._node.drawing is None:
            return []
        return draw_outcomes(self._node.state)

    def _apply_action(self, action: int) -> None:
        node = self._node
        s = node.state
        if node.drawing is not None:
            if action not in dict(draw_outcomes(s)):
                raise ValueError(f"{action} is not a card kind left in the deck")
            put_on_top(s, action)
            s.apply_unchecked(node.drawing, DRAW)
            node.drawing = None
            return
        if s.is_over:
            raise ValueError("the game is over; no action can be applied")
        seat = s.to_act[0]
        if action not in s.legal_ids_unchecked(seat):
            raise ValueError(f"{action} is not a legal action of seat {seat}")
        if action == DRAW:
            node.drawing = seat
        else:
            s.apply_unchecked(seat, action)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._node.state.game
        if player == pyspiel.PlayerId.CHANCE:
            card = game.card_kinds[action]
            return {0: "Stop", -1: "Danger"}.get(card, f"footprint {card}")
        return str(game.action_from_id(action))

    def is_terminal(self) -> bool:
        return bool(self._node.state.is_over)

    def returns(self) -> list[float]:
        s = self._node.state
        result = s.result
        return [0.0] * s.game.players if result is None else list(result.win_shares())

    def information_state_string(self, player: int | None = None) -> str:
        """Everything ``player`` has been shown, in order: its events, one compact JSON
        line each (the acting seat's by default)."""
        seat = self.current_player() if player is None else player
        return self._node.information_state(seat)

    def __str__(self) -> str:
        return " ".join(str(a) for a in self.history())


pyspiel.register_game(_GAME_TYPE, ChanceGame)


def load(players: int = 2, data: str | None = None) -> ChanceGame:
    """The registered game, for ``players`` seats and a data file (the small deck)."""
    params: dict[str, Any] = {"players": players}
    if data:
        params["data"] = data
    game = pyspiel.load_game(GAME_NAME, params)
    assert isinstance(game, ChanceGame)
    return game


# ------------------------------------------------------------------ bots as policies


class BotPolicy(os_policy.Policy):  # type: ignore[misc]
    """A bot as an OpenSpiel policy: at each information state, the action it chooses
    from the seat's view in one run seeded by that information state (so a search, which
    is random, counts as a pure policy), asked only where a best response reaches."""

    def __init__(self, game: ChanceGame, level: str, seed: int = 0, **params: Any) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.engine = game.engine
        self.bot = make_bot(level, game.engine, **params)
        self.seed = seed
        self.chosen: dict[str, int] = {}

    def action_probabilities(
        self, state: ChanceState, player_id: int | None = None
    ) -> dict[int, float]:
        s = state.engine_state
        seat = s.to_act[0]
        legal = s.legal_actions(seat)
        if len(legal) == 1:  # a forced draw: nothing to ask
            return {self.engine.action_id(legal[0]): 1.0}
        key = state.information_state_string(seat)
        aid = self.chosen.get(key)
        if aid is None:
            digest = hashlib.sha256(f"{self.seed}:{key}".encode()).digest()
            rng = random.Random(int.from_bytes(digest[:8], "big"))
            action = self.bot.choose(view_for(self.bot, s, seat), legal, rng)
            aid = self.chosen[key] = self.engine.action_id(action)
        return {aid: 1.0}


def bot_policy(game: ChanceGame, level: str, seed: int = 0, **params: Any) -> Any:
    """The bot of ``level`` as an OpenSpiel policy (the random bot: each legal action
    alike; any other: :class:`BotPolicy`)."""
    if level == "random":
        if params:
            raise ValueError(f"the random bot takes no parameters, not {params}")
        return os_policy.UniformRandomPolicy(game)
    return BotPolicy(game, level, seed, **params)


# ------------------------------------------------------------------ the run


@dataclass(frozen=True)
class Row:
    """One policy's exploitability, and how long it took to make and measure."""

    policy: str
    exploitability: float
    seconds: float


def exploitability_of(game: ChanceGame, policy: Any) -> float:
    """The mean gain of a best response over the seats, exactly: OpenSpiel's NashConv
    (Python best responses, which ask the policy only where they reach, so a bot searches
    only at the information states its own play leads to) over the number of seats."""
    conv = exploitability.nash_conv(game, policy, use_cpp_br=False)
    return float(conv) / int(game.num_players())


def run(
    iterations: int,
    bots: Sequence[str] = BOT_LEVELS,
    data: str | None = None,
    players: int = 2,
    ismcts_iterations: int = 200,
    checkpoints: Sequence[int] = (),
    progress: Callable[[str], None] | None = None,
) -> tuple[list[Row], list[tuple[int, float]]]:
    """The exploitability of each bot and of CFR+ after ``iterations``; also the curve at
    each iteration count in ``checkpoints``."""
    say = progress or (lambda _msg: None)
    game = load(players, data)
    rows: list[Row] = []
    for level in bots:
        t = time.perf_counter()
        params = {"iterations": ismcts_iterations} if level == "ismcts" else {}
        pol = bot_policy(game, level, **params)
        rows.append(Row(level, exploitability_of(game, pol), time.perf_counter() - t))
        say(f"{level}: {rows[-1].exploitability:.4f} ({rows[-1].seconds:.1f} s)")
    t = time.perf_counter()
    solver = cfr.CFRPlusSolver(game)
    curve: list[tuple[int, float]] = []
    marks = set(checkpoints)
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in marks:
            curve.append((i, exploitability_of(game, solver.average_policy())))
            say(f"cfr+ after {i}: {curve[-1][1]:.5f}")
    # the last iteration's policy, measured once even when the curve asked for it too
    last = curve[-1][1] if curve and curve[-1][0] == iterations else None
    if last is None:
        last = exploitability_of(game, solver.average_policy())
    rows.append(Row(f"cfr+ ({iterations} iterations)", last, time.perf_counter() - t))
    return rows, curve


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m dragonlair.rl.solve",
        description=(
            "Solve a small Dragon Stripes with CFR+ and print the exploitability of the "
            "bots and of the CFR+ policy (mean best-response gain per seat, in win shares)."
        ),
    )
    p.add_argument("--iterations", type=int, default=200, help="CFR+ iterations (200)")
    p.add_argument(
        "--bots",
        default=",".join(BOT_LEVELS),
        help="bot levels to measure, comma-separated (random,heuristic,ismcts; '' for none)",
    )
    p.add_argument("--ismcts-iterations", type=int, default=200, help="ISMCTS budget (200)")
    p.add_argument("--data", default=None, help="a Dragon Stripes data file (the small deck)")
    p.add_argument("--players", type=int, default=2, help="players (2)")
    p.add_argument("--curve", default="", help="iteration counts to measure on the way: 10,50")
    p.add_argument("--json", default=None, help="also write the rows to this JSON file")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    bots = [b for b in args.bots.split(",") if b]
    unknown = [b for b in bots if b not in BOT_LEVELS]
    if unknown:
        print(
            f"unknown bot level {', '.join(unknown)}; choose from {', '.join(BOT_LEVELS)}",
            file=sys.stderr,
        )
        return 2
    if args.iterations < 1:
        print("--iterations must be at least 1", file=sys.stderr)
        return 2
    try:
        curve_at = [int(x) for x in args.curve.split(",") if x]
    except ValueError:
        print(f"--curve takes iteration counts such as 10,50, not {args.curve!r}", file=sys.stderr)
        return 2
    game = load(args.players, args.data)
    states = len(os_policy.TabularPolicy(game).states)
    print(
        f"{GAME_NAME}: {args.players} players, deck {list(game.engine.deck)}, "
        f"{len(game.engine.stripes) - 1} stripes, {states} decision information states"
    )
    rows, curve = run(
        args.iterations,
        bots,
        args.data,
        args.players,
        args.ismcts_iterations,
        curve_at,
        progress=lambda msg: print("  " + msg, flush=True),
    )
    print(f"{'policy':<28} {'exploitability':>14} {'seconds':>8}")
    for r in rows:
        print(f"{r.policy:<28} {r.exploitability:>14.5f} {r.seconds:>8.1f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "rows": [r.__dict__ for r in rows],
                    "curve": curve,
                    "states": states,
                    "iterations": args.iterations,
                    "players": args.players,
                },
                f,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
