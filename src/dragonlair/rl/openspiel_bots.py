"""dragonlair's bots as OpenSpiel bots (``pyspiel.Bot``), for OpenSpiel's own tools
(``evaluate_bots``, its examples' play loops, a match against its MCTS or ISMCTS).

:func:`spiel_bot` wraps any bot level of the game, written as on the command line:
``random``, ``heuristic``, an archetype (``fuel-heavy``), ``ismcts:iterations=200``,
``trained`` (the shipped policy) or ``trained:policy=PATH``. The bot plays one seat of
one of our OpenSpiel games (either registration of a game with simultaneous choices):
at each ``step`` it is handed that seat's view and legal actions from the engine, never
the true state, and answers with an action id; a seat not asked at a simultaneous node
answers ``wait``. Its choices come from its own generator, seeded by ``seed``.

    game = openspiel.load_game("space-race", players=2)
    bots = [spiel_bot(game, 0, "trained"), spiel_bot(game, 1, "heuristic")]
    evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random)
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from ..bots import BotSpec, parse_bot
from ..core.bot import Bot, view_for
from .openspiel import SpielGame, SpielState


class SpielBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots at one seat of an OpenSpiel game of ours."""

    def __init__(self, game: SpielGame, player: int, bot: Bot, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, SpielGame):
            raise ValueError(f"a dragonlair bot plays a dragonlair OpenSpiel game, not {game!r}")
        n = game.num_players()
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise ValueError(f"player must be a seat from 0 to {n - 1}, not {player!r}")
        self.game = game
        self.player = player
        self.bot = bot
        self.seed = seed
        self.rng = random.Random(seed)

    def player_id(self) -> int:
        return self.player

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: the bot reads the seat's view afresh at every step."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to remember: the view carries what the seat has seen."""

    def step(self, state: SpielState) -> int:
        """The bot's action id at ``state`` (``wait`` where its seat is not asked)."""
        s = state.engine_state
        if self.player not in s.to_act:
            if self.game.simultaneous and not s.is_over:
                return int(self.game.wait)
            raise ValueError(f"seat {self.player} is not asked to act now ({s.phase})")
        legal = s.legal_actions(self.player)
        action = self.bot.choose(view_for(self.bot, s, self.player), legal, self.rng)
        return int(s.game.action_id(action))


def spiel_bot(game: SpielGame, player: int, bot: str | BotSpec, seed: int = 0) -> SpielBot:
    """An OpenSpiel bot for ``player`` of ``game`` playing the dragonlair bot ``bot``."""
    spec = bot if isinstance(bot, BotSpec) else parse_bot(bot, game.engine.spec.id)
    return SpielBot(game, player, spec.make(game.engine), seed)
