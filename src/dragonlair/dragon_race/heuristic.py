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

**How a race stands** (:meth:`Heuristic.evaluate`, which ISMCTS uses to score the leaves
of its search instead of playing races out): each seat's chance to win is a softmax of
minus its *effective distance* to the Finish over a spread that narrows as the leader
nears it (``spread × √(leader's distance + 1)``). The effective distance is the distance,
plus a few spots for every seat that plays before it, less the HALT! cards it holds at a
value that grows towards the Finish: near the end every winning play is halted by whoever
can, so the race goes to whoever still holds HALT! cards when the others have run out.
The viewing seat's HALT! cards are known; the others' are expected from the unseen cards
(not in the discard pile or the viewer's hand) and their hand sizes. A play still in its
HALT! window counts as undone with the chance that a seat yet to answer holds a HALT! card
and, playing as this bot, would use it. Ranks come from the same model, pair by pair.

The constants (:data:`RACE_FIT`) are a maximum-likelihood fit of that model (a
conditional logit) to who won 4,000 seeded races among four heuristic players (2,000 for
two and three players), taken at the start of every turn with the HALT! cards each seat
really held. The race is mostly luck: at four players the fit's log-loss is only 2.6%
below that of a coin toss among the seats, yet one HALT! card near the Finish is worth
about as much as two turns of progress.

What it values in its own plays and when it halts are its :class:`Weights`; the
archetypes (``archetypes.py``) are this bot with other weights.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from dragonlair.core import Action, Bot, Game, final_rewards, reward
from dragonlair.core.views import seat_of

from .board import BALLS, BOLTS, HALT
from .kinds import (
    A_BLOW,
    A_PASS,
    A_PLAY,
    A_STOP,
    A_TRIPLE,
    HALT_STEAL,
    PENDING_HALT,
    STOLEN,
    VICTIM,
)
from .rules import DragonRace
from .view import AnyDragonRaceView, DragonRaceSeatView

FINISH_BONUS = 1000.0
HALT_AS_NUMBER = 4.0  # what keeping a HALT! card is worth, in spots
INSIGNIA_PLAY = 2.5  # what an extra play is worth, in spots
SAFE_SPOT = 1.0
ON_A_RIVAL = 1.5
HAZARD = 2.5
CARD = 0.5  # every card spent beyond the first


@dataclass(frozen=True)
class Weights:
    """What its own plays are worth, in spots, and when it halts; the defaults are the
    heuristic's."""

    halt_as_number: float = HALT_AS_NUMBER
    insignia_play: float = INSIGNIA_PLAY
    safe_spot: float = SAFE_SPOT
    on_a_rival: float = ON_A_RIVAL
    hazard: float = HAZARD
    card: float = CARD
    harm_ahead: float = 0.5  # per spot a rival ahead of it loses
    harm_behind: float = 0.25  # per spot a rival behind it loses
    halt_loss: int = 4  # halts a turn that sends its pawn back this far (one less with several)
    halt_lead: int = 8  # ... or carries the player this far into the lead


# How a race in progress stands (``Heuristic.evaluate``), by player count: the spread of
# the race in spots per square root of the leader's distance, what playing one seat later
# costs in spots, and what a HALT! card in hand is worth in spots at the Start (early) and
# in addition by the Finish (late). Fitted as described in the module docstring.
RACE_FIT: dict[int, tuple[float, float, float, float]] = {
    2: (3.2, 2.4, 3.4, 8.1),
    3: (4.1, 2.0, 1.1, 6.4),
    4: (5.8, 1.8, -0.6, 8.8),
}


class Heuristic(Bot):
    """Scores its own plays by progress and harm to rivals; halts only what hurts."""

    level = "heuristic"

    def __init__(self, game: Game, weights: Weights = Weights()) -> None:
        if not isinstance(game, DragonRace):
            raise TypeError(f"this bot plays The Great Dragon Race, not {game.spec.name}")
        if not isinstance(weights, Weights):
            raise TypeError(f"the Dragon Race heuristic's weights are Weights, not {weights!r}")
        super().__init__(game)
        self.race = game
        self.weights = weights
        self._fit = RACE_FIT[min(max(game.players, 2), 4)]
        # per game, by action id: whether a play can move another pawn than the player's
        # (DragonRace.outcome: Ballista Bolts and Flaming Balls, and a special blown on a
        # rival)
        actions = game.table.actions
        self._moves_others = tuple(
            game.a_kind[i] != A_TRIPLE
            and (game.a_kind[i] == A_BLOW or game.card_kind[game.a_card[i]] in (BOLTS, BALLS))
            for i in range(len(actions))
        )

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        # every view of this game is one of these (the conformance suite checks it); a
        # Mapping is one already, so no cast (a call, for every decision)
        return self._choose(view, legal, rng)

    def _choose(
        self, view: AnyDragonRaceView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        pawns: Sequence[int]
        if isinstance(view, DragonRaceSeatView):
            phase, pawns = view.phase, view.pawns
        else:
            phase, pawns = view["phase"], view["pawns"]
        if phase in PENDING_HALT:
            return self._react(view, legal)
        g = self.race
        if phase == VICTIM:
            sizes = view["hand_sizes"]
            return max(legal, key=lambda a: (sizes[int(a.args[0])], pawns[int(a.args[0])]))
        stolen = phase == STOLEN
        me = seat_of(view)
        kinds, actions, stop = g.a_kind, g.table.actions, A_STOP
        score_play = self._score_play
        draw = rng.random
        best: Action | None = None
        best_score = 0.0
        for a in legal:
            aid = a._table_id  # self._action_id(a), inline
            if aid < 0 or actions[aid] is not a:
                aid = g.action_id(a)
            if kinds[aid] == stop:
                score = 0.0
            else:
                score = score_play(me, pawns, aid, stolen) + draw() * 1e-3
            if best is None or score > best_score:
                best, best_score = a, score
        assert best is not None
        return best

    def _action_id(self, action: Action) -> int:
        """The id of ``action``: the table's hint for the game's own actions (which the
        state hands out, confirmed by identity; an ``Action``'s hash is a Python call),
        else looked up by value."""
        g = self.race
        aid = action._table_id
        if aid < 0 or g.table.actions[aid] is not action:
            aid = g.action_id(action)
        return aid

    def _score(self, view: AnyDragonRaceView, aid: int, stolen: bool) -> float:
        """What the play ``aid`` is worth to the seat of ``view`` (``stolen``: with a card
        just stolen), without the tie-break."""
        pawns = view.pawns if isinstance(view, DragonRaceSeatView) else view["pawns"]
        return self._score_play(seat_of(view), pawns, aid, stolen)

    def _score_play(self, me: int, pawns: Sequence[int], aid: int, stolen: bool) -> float:
        g = self.race
        w = self.weights
        here = pawns[me]
        new: list[int] | None = None  # the pawns after the play, if others may move
        to = g.own_move[aid]
        if to is None:
            new = g.outcome(pawns, me, aid, stolen)
            there = new[me]
        else:  # its pawn alone moves: outcome's table, read without a list of the pawns
            there = to[here]
        if there >= g.finish:
            return FINISH_BONUS
        score = float(there - here)
        if new is not None and self._moves_others[aid]:  # else no other pawn moves
            for s, (before, after) in enumerate(zip(pawns, new, strict=True)):
                if s != me and after != before:
                    score += (before - after) * (w.harm_ahead if before >= here else w.harm_behind)
        if there != here:
            if g.safe_at[there]:
                score += w.safe_spot
            elif g.hazard_at[there]:
                score -= w.hazard
            elif there != g.start_spot and (
                there in pawns if new is None else new.count(there) > 1
            ):  # a rival there too
                score += w.on_a_rival
        kind = g.a_kind[aid]
        if kind == A_TRIPLE:
            score -= w.card * 2
        elif kind in (A_PLAY, A_BLOW) and not stolen:
            c = g.a_card[aid]
            if g.card_kind[c] == HALT:
                score -= w.halt_as_number
            if g.card_owner[c] == me:
                score += w.insignia_play
        return score

    def _react(self, view: AnyDragonRaceView, legal: Sequence[Action]) -> Action:
        g = self.race
        kinds, card, value = g.a_kind, g.a_card, g.card_value
        passing: Action | None = None
        # Keep the HALT! card of the lowest number: it is the weakest move.
        halt: Action | None = None
        lowest = 0
        halts = 0
        actions = g.table.actions
        for a in legal:
            aid = a._table_id  # self._action_id(a), inline
            if aid < 0 or actions[aid] is not a:
                aid = g.action_id(a)
            if kinds[aid] == A_PASS:
                if passing is None:
                    passing = a
            else:
                halts += 1
                v = value[card[aid]]
                if halt is None or v < lowest:
                    halt, lowest = a, v
        assert passing is not None, "a HALT! window always lets a seat pass"
        if halt is None:
            return passing
        return halt if self.would_halt(view, seat_of(view), halts > 1) else passing

    def would_halt(self, view: AnyDragonRaceView, me: int, several: bool) -> bool:
        """Whether this bot, as seat ``me`` holding one HALT! card (``several``: more),
        halts the play or steal the window of ``view`` is about."""
        g = self.race
        pawns: Sequence[int]
        if isinstance(view, DragonRaceSeatView):
            phase, active, pawns = view.phase, view.active, view.pawns
        else:
            phase, active, pawns = view["phase"], view["active"], view["pawns"]
        if phase == HALT_STEAL:
            robbed: Sequence[int] = (
                view.robbed if isinstance(view, DragonRaceSeatView) else view["robbed"]
            )
            return bool(robbed) and robbed[-1] == me
        if pawns[active] >= g.finish:
            return True
        start: Sequence[int] = (
            view.turn_start if isinstance(view, DragonRaceSeatView) else view["turn_start"]
        )
        my_loss = start[me] - pawns[me]
        gain = pawns[active] - start[active]
        near_finish = pawns[active] >= g.finish - 8
        threshold = self.weights.halt_loss - (1 if several else 0)
        if my_loss >= threshold:
            return True
        if (
            gain >= self.weights.halt_lead
            and pawns[active] >= max(p for s, p in enumerate(pawns) if s != active)  # leads
            and pawns[active] > pawns[me]
        ):
            return True
        return near_finish and gain >= 3 and pawns[active] > pawns[me]

    # ------------------------------------------------------------------ evaluation

    def evaluate(self, view: Mapping[str, Any]) -> list[float]:
        """Each seat's expected reward (win share, rank and points, on the scale search
        bots maximise) in the race of ``view``, a seat's or a spectator's."""
        return self._evaluate(cast(AnyDragonRaceView, view))

    def _evaluate(self, view: AnyDragonRaceView) -> list[float]:
        if view["over"]:
            result = view["result"]
            return final_rewards(result["points"], result["ranks"], result["winners"])
        halts = self._halt_holdings(view)
        pawns: list[int] = view["pawns"]
        if view["phase"] in PENDING_HALT:
            stands = self._chance_it_stands(view, halts)
            after = self._race(view, pawns, halts, True)
            if stands >= 1.0:
                return after
            before = self._race(view, view["turn_start"], halts, True)
            return [stands * a + (1 - stands) * b for a, b in zip(after, before, strict=True)]
        return self._race(view, pawns, halts, view["last"] is not None)

    def _halt_holdings(self, view: AnyDragonRaceView) -> list[tuple[float, float]]:
        """For each seat: the expected number of HALT! cards it holds, and the chance it
        holds none, from what ``view`` shows (exact for the viewing seat)."""
        g = self.race
        halt_cards = g.halt_cards
        seat = view["seat"]
        hand = view["hand"] or []
        seen = set(view["discards"]) | set(hand)
        if view["stolen"] is not None:
            seen.add(view["stolen"])
        unseen = g.num_cards - len(seen)
        unseen_halts = len(halt_cards) - len(halt_cards & seen)
        out = []
        for s, size in enumerate(view["hand_sizes"]):
            if s == seat:
                k = sum(1 for c in hand if c in halt_cards)
                out.append((float(k), 0.0 if k else 1.0))
                continue
            none = 1.0
            for i in range(min(size, unseen)):
                none *= max(0, unseen - unseen_halts - i) / (unseen - i)
            out.append((unseen_halts * size / unseen if unseen else 0.0, none))
        return out

    def _chance_it_stands(self, view: AnyDragonRaceView, halts: list[tuple[float, float]]) -> float:
        """The chance nobody left in the window halts its play or steal, if each seat
        halts as this bot would whenever it holds a HALT! card."""
        window = view.get("window")
        asked = list(view["to_act"]) + (list(window["next"]) if window else [])
        stands = 1.0
        for s in asked:
            if self.would_halt(view, s, halts[s][0] > 1.5):
                stands *= halts[s][1]
        return stands

    def _race(
        self,
        view: AnyDragonRaceView,
        pawns: Sequence[int],
        halts: list[tuple[float, float]],
        moved: bool,
    ) -> list[float]:
        """The expected rewards for pawns on ``pawns``, as a race to the Finish whose
        spread grows with the distance left (``moved``: the active seat has played)."""
        g = self.race
        n = g.players
        finish = g.board.finish
        active: int = view["active"]
        left = [max(0, finish - p) for p in pawns]
        closest = min(left)
        if closest == 0:
            winners = [s for s in range(n) if left[s] == 0]
            ranks = [1 + sum(1 for q in pawns if q > p) for p in pawns]
            return final_rewards(list(pawns), ranks, winners)
        spread, later, early, late = self._fit
        halt_value = early + late * (finish - closest) / finish
        scale = spread * math.sqrt(closest + 1)
        u = []
        for s in range(n):
            order = (s - active) % n
            if moved and order == 0:
                order = n
            u.append(-(left[s] + later * order - halt_value * halts[s][0]) / scale)
        top = max(u)
        e = [math.exp(x - top) for x in u]
        total = sum(e)
        lo = min(pawns)
        span = finish - lo
        out = []
        for s in range(n):
            win = e[s] / total
            rank = sum(e[s] / (e[s] + e[j]) for j in range(n) if j != s) / (n - 1)
            points = win + (1 - win) * ((pawns[s] - lo) / span if span else 0.5)
            out.append(reward(win, rank, points))
        return out
