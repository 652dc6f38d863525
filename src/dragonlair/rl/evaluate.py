"""How well a policy plays: :func:`evaluate` and ``python -m dragonlair.rl.evaluate``.

The policy is any bot, written as on the command line (``trained``, ``heuristic``,
``ismcts:iterations=200``), or the path of an ONNX policy file (played as
``trained:policy=PATH``). It plays ``games`` games against ``opponents`` (one bot for
every other seat, or one per other seat in order); its seat is rotated, game ``i``
putting it at seat ``i % players``, so every seat is played equally often (with
``games`` a multiple of the player count). The games are dealt with seeds from
``2**62`` up (``TRAINING_SEEDS``), which the environments never deal, so no evaluation
game is a game a policy was trained on; ``seed`` picks which.

The report: the policy's mean share of the win (1 for a win, 1/k for a k-way tie, 0
otherwise) and its mean points, each with a 95% interval (the normal approximation of
the mean over the games: 1.96 standard errors; the share's clipped to [0, 1]), and the
share a seat would get by chance (1/players) to compare with.

    python -m dragonlair.rl.evaluate trained dragon-stripes --players 2 \\
        --opponents heuristic --games 400 --seed 0
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import BotSpec, parse_bot
from ..core import Game, make
from ..core.bot import Bot, view_for
from .common import TRAINING_SEEDS


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% interval."""

    mean: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.mean:.3f} ({self.low:.3f} to {self.high:.3f})"


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` measured."""

    policy: str
    game: str
    players: int
    opponents: tuple[str, ...]
    games: int
    seed: int
    win_share: Interval
    points: Interval
    chance: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        return (
            f"{self.policy} against {', '.join(self.opponents)} at {self.game}, "
            f"{self.players} players, {self.games} games (seats rotated, seed {self.seed}):\n"
            f"  win share {self.win_share}  (chance: {self.chance:.3f})\n"
            f"  points    {self.points.mean:.2f} ({self.points.low:.2f} to "
            f"{self.points.high:.2f})"
        )


def _interval(values: Sequence[float], clip: tuple[float, float] | None = None) -> Interval:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    low, high = mean - half, mean + half
    if clip is not None:
        low, high = max(clip[0], low), min(clip[1], high)
    return Interval(mean, low, high)


def policy_spec(policy: str | BotSpec, game_id: str) -> BotSpec:
    """A policy given as a bot spec, its text, or the path of an ONNX file."""
    if isinstance(policy, BotSpec):
        return policy
    if not isinstance(policy, str):
        raise ValueError(
            f"a policy is a bot (as on the command line) or an .onnx path, not {policy!r}"
        )
    if policy.endswith(".onnx"):
        return BotSpec("trained", {"policy": policy})
    return parse_bot(policy, game_id)


def evaluation_seed(seed: int, i: int) -> int:
    """The seed of evaluation game ``i``: from 2**62 up, never one the environments deal."""
    return TRAINING_SEEDS + (seed * 1_000_003 + i) % TRAINING_SEEDS


def evaluate(
    policy: str | BotSpec,
    game: str,
    opponents: str | Sequence[str] = "heuristic",
    games: int = 200,
    seed: int = 0,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
) -> Evaluation:
    """Play ``policy`` against ``opponents`` for ``games`` games, seats rotated (see the
    module docstring); bad arguments raise ValueError naming what was expected."""
    g: Game = make(game, players=players, options=options)
    n = g.players
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive number, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number, 0 or more, not {seed!r}")
    mine = policy_spec(policy, g.spec.id)
    texts = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
    if len(texts) != n - 1:
        raise ValueError(
            f"opponents: one bot for all or {n - 1} (one per other seat), got {opponents!r}"
        )
    others = [parse_bot(t, g.spec.id) for t in texts]
    me: Bot = mine.make(g)
    them: list[Bot] = [spec.make(g) for spec in others]
    shares: list[float] = []
    points: list[float] = []
    for i in range(games):
        seat = i % n
        bots = [*them[:seat], me, *them[seat:]]
        rngs = [random.Random(evaluation_seed(seed, i) * 8 + s) for s in range(n)]
        state = g.new_game(seed=evaluation_seed(seed, i))
        while not state.is_over:
            s = state.to_act[0]
            bot = bots[s]
            state.apply(s, bot.choose(view_for(bot, state, s), state.legal_actions(s), rngs[s]))
        result = state.result
        assert result is not None
        shares.append(result.win_shares()[seat])
        points.append(float(result.points[seat]))
    return Evaluation(
        policy=mine.text,
        game=g.spec.id,
        players=n,
        opponents=tuple(o.text for o in others),
        games=games,
        seed=seed,
        win_share=_interval(shares, (0.0, 1.0)),
        points=_interval(points),
        chance=1.0 / n,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The command: ``python -m dragonlair.rl.evaluate POLICY GAME [options]``."""
    parser = argparse.ArgumentParser(
        prog="python -m dragonlair.rl.evaluate",
        description="Play a policy (a bot, or an .onnx policy file) against bots, seats "
        "rotated, on evaluation seeds no environment deals; print its win share and points "
        "with 95%% intervals.",
    )
    parser.add_argument(
        "policy", help="a bot (trained, heuristic, ismcts:iterations=200) or an .onnx file"
    )
    parser.add_argument("game", help="a game id, e.g. dragon-stripes")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument(
        "--opponents",
        default="heuristic",
        help="one bot for every other seat, or comma-separated, one per other seat",
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    opponents: str | list[str] = args.opponents
    if "," in args.opponents:
        opponents = [t.strip() for t in args.opponents.split(",")]
    try:
        ev = evaluate(args.policy, args.game, opponents, args.games, args.seed, args.players)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(ev.to_dict(), indent=2) if args.json else ev.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
