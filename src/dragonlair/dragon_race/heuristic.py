"""A simple, explainable bot for The Great Dragon Race.

It decides from its view and the legal actions only (the game object supplies the printed
board and cards, and :meth:`DragonRace.outcome` predicts where the pawns end up):

- **Its own plays** are scored by the spots its pawn gains, plus half a point for every
  spot a rival ahead of it loses (a quarter for rivals behind), plus a big bonus for
  reaching the Finish. It likes ending on a watering hole (safe from specials and thieves)
  or on a rival (a free card), dislikes Ballista Bolts and Flaming Balls (a lost card),
  values an own-insignia card for the extra play it brings, and hates spending a HALT!
  card as a number, because HALT! cards are its only defence. After an own-insignia card it
  plays again only if the best play is worth something; otherwise it stops.
- **HALT!**: it cancels a turn that wins the race, robs it, sends its pawn back three or
  more spots, or carries the player a long way into the lead; everything else it lets
  stand, keeping its HALT! cards for when they matter.
- **Whom to rob**: the rival with the most cards (the best chance of a good one), then the
  one furthest ahead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from dragonlair.bots.base import Bot
from dragonlair.core import Action, Game

from .board import HALT
from .rules import A_BLOW, A_PASS, A_PLAY, A_STOP, A_TRIPLE, DragonRace

FINISH_BONUS = 1000.0
HALT_AS_NUMBER = 4.0  # what keeping a HALT! card is worth, in spots
INSIGNIA_PLAY = 2.5  # what an extra play is worth, in spots
SAFE_SPOT = 1.0
ON_A_RIVAL = 1.5
HAZARD = 2.5
CARD = 0.5  # every card spent beyond the first


class Heuristic(Bot):
    """Scores its own plays by progress and harm to rivals; halts only what hurts."""

    level = "heuristic"

    def __init__(self, game: Game) -> None:
        if not isinstance(game, DragonRace):
            raise TypeError(f"this bot plays The Great Dragon Race, not {game.spec.name}")
        super().__init__(game)
        self.race = game

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        phase = view["phase"]
        if phase in ("halt-play", "halt-steal"):
            return self._react(view, legal)
        g = self.race
        if phase == "victim":
            sizes = view["hand_sizes"]
            pawns = view["pawns"]
            return max(legal, key=lambda a: (sizes[a.args[0]], pawns[a.args[0]]))
        stolen = phase == "stolen"
        best: Action | None = None
        best_score = 0.0
        for a in legal:
            aid = g.action_id(a)
            if g.a_kind[aid] == A_STOP:
                score = 0.0
            else:
                score = self._score(view, aid, stolen) + rng.random() * 1e-3
            if best is None or score > best_score:
                best, best_score = a, score
        assert best is not None
        return best

    def _score(self, view: Mapping[str, Any], aid: int, stolen: bool) -> float:
        g = self.race
        board = g.board
        me: int = view["seat"]
        pawns: list[int] = view["pawns"]
        new = g.outcome(pawns, me, aid, stolen)
        here, there = pawns[me], new[me]
        if there >= board.finish:
            return FINISH_BONUS
        score = float(there - here)
        for s, (before, after) in enumerate(zip(pawns, new, strict=True)):
            if s != me and after != before:
                score += (before - after) * (0.5 if before >= here else 0.25)
        if there != here:
            if g.safe_at[there]:
                score += SAFE_SPOT
            elif g.hazard_at[there]:
                score -= HAZARD
            elif there != board.start and any(q == there for s, q in enumerate(new) if s != me):
                score += ON_A_RIVAL
        kind = g.a_kind[aid]
        if kind == A_TRIPLE:
            score -= CARD * 2
        elif kind in (A_PLAY, A_BLOW) and not stolen:
            c = g.a_card[aid]
            if g.card_kind[c] == HALT:
                score -= HALT_AS_NUMBER
            if g.card_owner[c] == me:
                score += INSIGNIA_PLAY
        return score

    def _react(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        g = self.race
        halts = [a for a in legal if g.a_kind[g.action_id(a)] != A_PASS]
        passing = next(a for a in legal if g.a_kind[g.action_id(a)] == A_PASS)
        if not halts:
            return passing
        me: int = view["seat"]
        active: int = view["active"]
        pawns: list[int] = view["pawns"]
        start: list[int] = view["turn_start"]
        last = view["last"]
        # Keep the HALT! card of the lowest number: it is the weakest move.
        halt = min(halts, key=lambda a: g.card_value[g.a_card[g.action_id(a)]])
        if view["phase"] == "halt-steal":
            robbed = g.a_target[g.action_id(g.parse_action(last))] if last else -1
            return halt if robbed == me else passing
        if pawns[active] >= g.board.finish:
            return halt
        my_loss = start[me] - pawns[me]
        gain = pawns[active] - start[active]
        leads = pawns[active] >= max(p for s, p in enumerate(pawns) if s != active)
        near_finish = pawns[active] >= g.board.finish - 8
        threshold = 3 if len(halts) > 1 else 4
        if my_loss >= threshold:
            return halt
        if gain >= 8 and leads and pawns[active] > pawns[me]:
            return halt
        if near_finish and gain >= 3 and pawns[active] > pawns[me]:
            return halt
        return passing
