"""What the three adapters share: the utility, the names, the extra "wait" action, the
bots that play the other seats, and the checks on actions coming in.

**Utility.** A finished game is worth a share of the win: 1 to a sole winner, 1/k to each
of k tied winners, 0 to everyone else, so every game sums to 1 (OpenSpiel's
``CONSTANT_SUM`` with ``utility_sum=1``, bounds 0 and 1). Points and margins are not
rewarded: the rulebooks only say who wins, and a bonus for margin would teach a different
game. Rewards come only at the end.

**Wait.** Where every seat must answer at once (OpenSpiel's simultaneous nodes, PettingZoo's
Parallel API), a seat that is not asked gets a single legal action, ``wait``, whose id is
one past the game's own ids (``game.num_actions``). The game's own ids are unchanged.
"""

from __future__ import annotations

import operator
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..bots import BotSpec, parse_bot
from ..core import Action, Game, IllegalAction, Result, State
from ..core.bot import Bot, view_for

WAIT_TEXT = "wait"

# The environments deal their games with seeds below this; dragonlair.rl.evaluate plays
# its games with seeds from it up, so no evaluation game is ever a game trained on.
TRAINING_SEEDS = 2**62


def win_shares(result: Result | None, players: int) -> list[float]:
    """Each seat's share of the win (1/k for each of k winners, else 0); all 0 before the end."""
    return [0.0] * players if result is None else result.win_shares()


def wait_id(game: Game) -> int:
    """The id of the extra ``wait`` action of seats not asked at a simultaneous step."""
    return game.num_actions


def snake(game_id: str) -> str:
    """A game id as a Python-style name: "dragon-stripes" -> "dragon_stripes"."""
    return re.sub(r"[^a-z0-9]+", "_", game_id.lower()).strip("_")


def camel(game_id: str) -> str:
    """A game id as an environment name: "dragon-stripes" -> "DragonStripes"."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", game_id) if part)


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat: "player_0", "player_1", ..."""
    return f"player_{seat}"


def action_index(value: object, limit: int, what: str) -> int:
    """An action id given as an int (a NumPy integer, or an array holding one), checked to
    lie in ``range(limit)``; ValueError saying what was expected otherwise."""
    raw = value
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise ValueError(f"{what}: expected one action id, got an array of shape {value.shape}")
        value = value.item()
    try:
        if isinstance(value, bool | np.bool_):
            raise TypeError
        aid = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(
            f"{what}: expected an action id (an integer from 0 to {limit - 1}), got {raw!r}"
        ) from None
    if not 0 <= aid < limit:
        raise ValueError(f"{what}: action id {aid} is out of range: expected 0 to {limit - 1}")
    return aid


def refuse(state: State, seat: int, aid: int) -> IllegalAction:
    """The error for ``seat`` trying action ``aid`` that is not legal now, naming the legal ones."""
    game = state.game
    legal = [f"{i} ({game.action_from_id(i)})" for i in state.legal_action_ids(seat)]
    shown = ", ".join(legal[:12]) + (f" and {len(legal) - 12} more" if len(legal) > 12 else "")
    if 0 <= aid < game.num_actions:
        what = str(game.action_from_id(aid))
    else:
        what = WAIT_TEXT if aid == wait_id(game) else "no such action"
    if seat not in state.to_act:
        return IllegalAction(
            f"seat {seat} is not asked to act now ({state.phase}); only {WAIT_TEXT} "
            f"(id {wait_id(game)}) is accepted from it, not {aid} ({what})"
        )
    return IllegalAction(
        f"action {aid} ({what}) is not legal for seat {seat} now ({state.phase}); legal: {shown}"
    )


class UnsupportedRenderMode(TypeError, ValueError):
    """A render mode the environments do not offer (they render text: ``"ansi"``). A
    TypeError, as an unexpected argument would be, because that is what tools that try
    ``render_mode="rgb_array"`` first fall back on (Stable-Baselines3's ``make_vec_env``);
    a ValueError too, as a bad value."""


def check_render_mode(render_mode: object) -> None:
    """Refuse any render mode but None and ``"ansi"`` (:class:`UnsupportedRenderMode`)."""
    if render_mode not in (None, "ansi"):
        raise UnsupportedRenderMode(f"render_mode must be None or 'ansi', not {render_mode!r}")


class Opponents:
    """Bots for the seats an environment does not hand to a learner, each with its own
    seeded generator; they see only their seat's view and legal actions."""

    def __init__(self, game: Game, specs: Mapping[int, BotSpec]) -> None:
        self.game = game
        self.bots: dict[int, Bot] = {s: spec.make(game) for s, spec in specs.items()}
        self.rngs: dict[int, random.Random] = {s: random.Random(s) for s in self.bots}

    def seed(self, seed: int) -> None:
        """Reseed every bot's generator from ``seed`` (each seat its own stream)."""
        self.rngs = {s: random.Random(seed * 1_000_003 + s) for s in self.bots}

    def choose(self, state: State, seat: int) -> Action:
        """The bot at ``seat`` picks one of its legal actions from its view (none is made
        for a bot that does not read it, such as the random bot)."""
        bot = self.bots[seat]
        return bot.choose(view_for(bot, state, seat), state.legal_actions(seat), self.rngs[seat])


def parse_opponents(
    game: Game,
    opponents: str | Sequence[str],
    learner_seats: Sequence[int],
    bot_params: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
) -> dict[int, BotSpec]:
    """The bot of every seat not in ``learner_seats``, each a :class:`BotSpec`.

    ``opponents`` is one bot for all, or a list with one per other seat in seat order;
    each is written as on the command line, ``level`` or ``level:key=value...``
    (``ismcts:iterations=200``, an archetype of the game, ``trained``). ``bot_params``
    is a mapping given to every opponent, or a list with one mapping per other seat;
    a parameter written in the opponent's own text takes precedence over it."""
    others = [s for s in range(game.players) if s not in learner_seats]
    if isinstance(opponents, str):
        texts = [opponents] * len(others)
    else:
        texts = list(opponents)
        if len(texts) != len(others) or not all(isinstance(x, str) for x in texts):
            raise ValueError(
                f"opponents: expected one bot for all or a list of {len(others)} bots "
                f"(one per other seat), got {opponents!r}"
            )
    if bot_params is None or isinstance(bot_params, Mapping):
        params: list[Mapping[str, Any]] = [bot_params or {}] * len(others)
    else:
        params = list(bot_params)
        if len(params) != len(others) or not all(isinstance(p, Mapping) for p in params):
            raise ValueError(
                f"bot_params: expected one mapping for all opponents or a list of "
                f"{len(others)} mappings (one per other seat), got {bot_params!r}"
            )
    specs: dict[int, BotSpec] = {}
    for seat, text, extra in zip(others, texts, params, strict=True):
        spec = parse_bot(text, game.spec.id)
        specs[seat] = BotSpec(spec.level, {**extra, **spec.params})
    return specs
