"""The rules of The Great Dragon Race: the game (spec, options, actions, events) and its state.

The flow of a turn, as phases (``state.phase``):

- ``play``: the active player draws up to five cards (six if robbed since their last turn)
  when the turn starts, then makes one play: ``play <card>``, ``blow <card> <seat>`` (a
  Tornado! or Downdraft! aimed at a pawn) or ``triple <a> <b> <c>``. After a number card
  with their own insignia they may make another play or ``stop`` (``stop`` is also the
  only action of a player who cannot play at all).
- ``halt-play``: after every play, each other player in turn from the active player's
  left answers ``halt <card>`` (a HALT! card they hold) or ``pass``. A HALT! undoes the whole
  turn. No window follows a three of a kind played from a watering hole.
- ``victim``: the active player's movement is over on a spot shared with several
  opponents they have not robbed this turn: ``steal <seat>`` chooses whom to rob (with one
  such opponent the steal is automatic).
- ``halt-steal``: the window after a steal, the same as after a play.
- ``stolen``: the thief plays the stolen card at once as their own.
- ``over``: somebody reached the Finish (or the turn cap ran out).

Every effect on the pawns is computed by :meth:`DragonRace.outcome`, a pure function of the
pawn spots, which the heuristic bot uses too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final, Literal, get_args

from mypy_extensions import mypyc_attr

from dragonlair.core import (
    Action,
    BadDataFile,
    Game,
    GameSpec,
    OptionSpec,
    State,
    make_result,
)
from dragonlair.i18n import N_, _

from . import view_types
from .board import (
    BALLS,
    BOLTS,
    DOWNDRAFT,
    HALT,
    NUMBER,
    PASSING_WIND,
    TORNADO,
    UPDRAFT,
    Board,
    Card,
    RaceData,
    load_data,
)
from .kinds import (
    A_BLOW,
    A_HALT,
    A_PASS,
    A_PLAY,
    A_STEAL,
    A_STOP,
    A_TRIPLE,
    ACTION_KINDS,
    EVENT_SPECS,
    HALT_PLAY,
    HALT_STEAL,
    PENDING_HALT,
    PENDING_STEAL,
    PHASE_NAMES,
    PHASES,
    PLAY,
    STOLEN,
    VICTIM,
    Phase,
)

# Printed on the cards and in the rulebook.
# How many cards are dealt and drawn up to is the data file's "hands" (board.Hands).
# How far the special cards move pawns is the data file's "effects" (board.Effects).


# How a game ends (``Result.termination``), and the words a result gives for each
# (``Result.reason``, "" where none are needed).
Termination = Literal["finish", "turn_cap"]
TERMINATIONS: Final[dict[Termination, str]] = {
    "finish": "",
    "turn_cap": "turn cap: the pawn furthest ahead wins",
}
TERMINATION_NAMES: Final[tuple[Termination, ...]] = get_args(Termination)


# Interpreted subclasses: the bot checks' poisoned states (dragonlair.bots.checks).
@mypyc_attr(allow_interpreted_subclasses=True)
class DragonRaceState(State["DragonRace"]):
    """A race in progress. Pawns are spot numbers; hands are sorted tuples of card ids; the
    draw pile is a tuple whose last card is the top."""

    __slots__ = (
        "active",
        "bonus",
        "discards",
        "draw",
        "extra",
        "hands",
        "last",
        "moved",
        "pawns",
        "start",
        "stolen",
        "turn",
        "victims",
    )

    phase: Phase  # one of the phases the game declares (kinds.PHASES)
    pawns: list[int]  # spot of each seat's pawn
    start: tuple[int, ...]  # the pawns when this turn began (a HALT! puts them back)
    hands: list[tuple[int, ...]]
    draw: tuple[int, ...]
    discards: tuple[int, ...]  # face up, oldest first
    extra: tuple[bool, ...]  # robbed since their last turn: draws one extra card
    turn: int  # turns begun so far
    active: int  # whose turn it is
    bonus: bool  # the active player has earned another play (own insignia)
    victims: tuple[int, ...]  # seats robbed this turn, in order
    stolen: int  # the stolen card in play (phases halt-steal and stolen), else -1
    last: int  # action id of the play or steal the window is about (the latest one), or -1
    moved: tuple[int, ...]  # seats whose pawns the latest play moved

    # ------------------------------------------------------------------ setup and turns

    def _setup(self) -> None:
        g = self.game
        n = g.players
        deck = list(range(1, g.num_cards + 1))
        self._shuffle(deck)
        self.hands = []
        deal = g.deal
        for s in range(n):
            hand = tuple(sorted(deck[-deal:]))
            del deck[-deal:]
            self.hands.append(hand)
            self._emit("dealt", (s, deal, hand, tuple(g.card_name[c] for c in hand)), (s,))
        self.draw = tuple(deck)
        self.discards = ()
        self.pawns = [g.board.start] * n
        self.extra = (False,) * n
        self.turn = 0
        self._start_turn(0)  # the dealer is the last seat; the player on their left begins

    def _start_turn(self, seat: int) -> None:
        self.turn += 1
        self.active = seat
        self.start = tuple(self.pawns)
        self.bonus = False
        self.victims = ()
        self.stolen = -1
        self.last = -1
        self.moved = ()
        self._emit("turn", (seat, self.turn))
        want = self.game.draw_up_to
        if self.extra[seat]:
            want += 1
            extra = list(self.extra)
            extra[seat] = False
            self.extra = tuple(extra)
        self._draw_up_to(seat, want)
        self.phase = PLAY
        self._to_act = (seat,)

    def _draw_up_to(self, seat: int, want: int) -> None:
        """Draw until the hand holds ``want`` cards; an empty draw pile is refilled by
        shuffling the discards; with both empty the hand stays short."""
        hand = self.hands[seat]
        need = want - len(hand)
        if need <= 0:
            return
        draw = self.draw
        if len(draw) >= need:  # the usual case
            drawn = draw[-need:]
            self.draw = draw[:-need]
            if need > 1:
                drawn = tuple(sorted(drawn))
        else:
            drawn = ()
            while need > 0:
                if not self.draw:
                    if not self.discards:
                        break
                    pile = list(self.discards)
                    self._shuffle(pile)
                    self.draw = tuple(pile)
                    self.discards = ()
                    self._emit("reshuffled", (len(pile),))
                take = self.draw[-need:]
                self.draw = self.draw[: len(self.draw) - len(take)]
                drawn += take
                need -= len(take)
            if not drawn:
                return
            drawn = tuple(sorted(drawn))
        self.hands[seat] = tuple(sorted(hand + drawn))
        name = self.game.card_name
        names = tuple([name[c] for c in drawn])
        self._emit("drew", (seat, len(drawn), drawn, names), (seat,))

    def _end_turn(self) -> None:
        if self.turn >= self.game.turn_cap:
            self._emit("capped", (self.turn,))
            self._end("turn_cap")
        else:
            self._start_turn((self.active + 1) % self.game.players)

    def _end(self, how: Termination) -> None:
        self._finish(
            make_result(
                list(self.pawns),
                breakdown=[{"spot reached": p} for p in self.pawns],
                reason=TERMINATIONS[how],
                termination=how,
            )
        )

    # ------------------------------------------------------------------ legal actions

    def _legal_ids(self, seat: int) -> list[int]:
        g = self.game
        ph = self.phase
        if ph in PENDING_HALT:  # most decisions are these answers
            hand = self.hands[seat]
            if g.halt_cards.isdisjoint(hand):
                return [g.pass_id]
            halt_id = g.halt_id
            return [g.pass_id, *[halt_id[c] for c in hand if c in halt_id]]
        if ph == PLAY:
            ids = self._play_ids(seat)
            if not ids or (self.bonus and g.bonus_optional):
                ids.append(g.stop_id)
            return ids
        if ph == STOLEN:
            ids = []
            self._card_ids(self.stolen, seat, ids)
            return ids
        return [g.steal_id[s] for s in self._victims_here()]  # VICTIM

    def _play_ids(self, seat: int) -> list[int]:
        """The plays ``seat`` can make from their hand: each card, then the threes of a kind."""
        g = self.game
        hand = self.hands[seat]
        simple = g.simple_play
        ids = [c - 1 for c in hand if simple[c]]  # played one way only: "play <card>"
        for c in hand:
            if not simple[c]:
                self._card_ids(c, seat, ids)
        if len(hand) >= 3 and g.next_hole_at[self.pawns[seat]] >= 0:
            value = g.card_value
            values = [value[c] for c in hand if value[c]]
            if len(values) - len(set(values)) >= 2:  # else no number is there three times
                groups: dict[int, list[int]] = {}
                for c in hand:
                    if value[c]:
                        groups.setdefault(value[c], []).append(c)
                triple_id = g.triple_id
                for group in groups.values():
                    if len(group) >= 3:
                        for trio in combinations(group, 3):
                            t = triple_id.get(trio)
                            if t is not None:
                                ids.append(t)
        return ids

    def _card_ids(self, c: int, seat: int, out: list[int]) -> None:
        """The ways to play card ``c`` now (from the hand, or stolen)."""
        g = self.game
        k = g.card_kind[c]
        if k <= UPDRAFT:
            out.append(c - 1)
        elif k == PASSING_WIND:
            # Not playable with no watering hole ahead; a stolen one must be played anyway
            # and then does nothing.
            if self.phase == STOLEN or g.next_hole_at[self.pawns[seat]] >= 0:
                out.append(c - 1)
        elif k == DOWNDRAFT:
            targets = g.downdraft_targets(self.pawns, seat)
            if targets:
                blow = g.blow_id[c]
                out.extend([blow[t] for t in targets])
            else:
                out.append(c - 1)
        else:
            out.append(c - 1)
            blow = g.blow_id[c]
            out.extend([blow[t] for t in g.tornado_targets(self.pawns, seat)])

    def _victims_here(self) -> list[int]:
        """Opponents the active player can rob: on the same spot (not the Start, not a
        watering hole), not robbed yet this turn, with a card in hand."""
        g = self.game
        a = self.active
        p = self.pawns[a]
        if p == g.start_spot or g.safe_at[p] or self.pawns.count(p) == 1:
            return []
        return [
            s for s in g.others[a] if self.pawns[s] == p and s not in self.victims and self.hands[s]
        ]

    # ------------------------------------------------------------------ applying actions

    def _step(self, seat: int, aid: int) -> None:
        g = self.game
        k = g.a_kind[aid]
        if k == A_PASS:  # silence at the table: no event
            if not self._window_next():
                self._stands()
        elif k == A_HALT:
            self._halt(seat, g.a_card[aid])
        elif k == A_STEAL:
            self._steal(g.a_target[aid])
        elif k == A_STOP:
            self._emit("stopped", (seat,))
            self._movement_done()
        else:
            self._play(seat, aid, k)

    def _play(self, seat: int, aid: int, k: int) -> None:
        g = self.game
        cards = g.a_cards[aid]
        c = cards[0]
        stolen = self.phase == STOLEN
        if stolen:
            self.stolen = -1
            self._emit("played_stolen", (seat, c, g.card_name[c]))
        elif k == A_TRIPLE:
            self.hands[seat] = tuple([x for x in self.hands[seat] if x not in cards])
            self._emit("triple", (seat, g.card_value[c], cards))
        else:
            hand = self.hands[seat]
            i = hand.index(c)
            self.hands[seat] = hand[:i] + hand[i + 1 :]
            self._emit("played", (seat, c, g.card_name[c]))
        self.discards += cards
        old = self.pawns
        new = g.outcome(old, seat, aid, stolen)
        self.pawns = new
        self.last = aid
        self.bonus = False
        if new == old:
            self.moved = ()
            self._emit("no_effect", (seat,))
        else:
            moved = tuple([s for s in range(g.players) if new[s] != old[s]])
            self.moved = moved
            board = g.components.board  # (the board property is a call)
            for s in moved:
                if s == seat and old[s] == board.entry_arrow and new[s] >= board.exit_arrow:
                    self._emit("shortcut", (s,))
                self._emit("moved", (s, old[s], new[s]))
        if k == A_TRIPLE and g.safe_at[old[seat]]:
            self._stands()  # no HALT! stops a three of a kind from a watering hole
        else:
            self.phase = HALT_PLAY
            self._open_window(g.others[seat], g.pass_id)

    def _stands(self) -> None:
        """Nobody called HALT!: the play or steal takes effect."""
        g = self.game
        a = self.active
        if self.phase == HALT_STEAL:
            extra = list(self.extra)
            extra[self.victims[-1]] = True
            self.extra = tuple(extra)
            self.phase = STOLEN
            self._to_act = (a,)
            return
        pawns = self.pawns
        hazard = g.hazard_at
        for s in self.moved:
            h = hazard[pawns[s]]
            if h:
                self._hazard(s, h)
        if pawns[a] >= g.finish:
            self._emit("won", (a, pawns[a]))
            self._end("finish")
            return
        if g.bonus_for[self.last] == a and self.hands[a]:
            self._emit("bonus", (a,))
            self.bonus = True
            self.phase = PLAY
            self._to_act = (a,)
            return
        self._movement_done()

    def _hazard(self, seat: int, h: int) -> None:
        """A pawn came to rest on a Ballista Bolt or Flaming Ball: a random card is discarded."""
        hand = self.hands[seat]
        what = "ballista bolt" if h == 1 else "flaming ball"
        if not hand:
            self._emit("hazard", (seat, what, 0, "nothing (no cards)"))
            return
        i = self._randbelow(len(hand))
        c = hand[i]
        self.hands[seat] = hand[:i] + hand[i + 1 :]
        self.discards += (c,)
        self._emit("hazard", (seat, what, c, self.game.card_name[c]))

    def _movement_done(self) -> None:
        """The active player's movement for the turn is over: rob someone or end the turn."""
        self.bonus = False
        victims = self._victims_here()
        if len(victims) == 1:
            self._steal(victims[0])
        elif victims:
            self.phase = VICTIM
            self._to_act = (self.active,)
        else:
            self._end_turn()

    def _steal(self, victim: int) -> None:
        g = self.game
        a = self.active
        hand = self.hands[victim]
        i = self._randbelow(len(hand))
        c = hand[i]
        self.hands[victim] = hand[:i] + hand[i + 1 :]
        self.stolen = c
        self.victims += (victim,)
        self.last = g.steal_id[victim]
        self._emit("robbed", (a, victim, c, g.card_name[c]), (a, victim))
        self.phase = HALT_STEAL
        self._open_window(g.others[a], g.pass_id)

    def _halt(self, seat: int, card: int) -> None:
        """A HALT!: the whole turn is undone (cards spent stay spent) and the turn ends."""
        g = self.game
        a = self.active
        hand = self.hands[seat]
        i = hand.index(card)
        self.hands[seat] = hand[:i] + hand[i + 1 :]
        self.discards += (card,)
        self._emit("halted", (seat, card, g.card_name[card], a))
        self._close_window()
        if self.phase == HALT_STEAL:
            victim = self.victims[-1]
            c = self.stolen
            self.stolen = -1
            self.hands[victim] = tuple(sorted((*self.hands[victim], c)))
            self._emit("given_back", (a, victim, c, g.card_name[c]), (a, victim))
        if tuple(self.pawns) != self.start:
            self.pawns = list(self.start)
            self._emit("returned", (self.start,))
        self._end_turn()

    # ------------------------------------------------------------------ views and copies

    def check_invariants(self) -> None:
        g = self.game
        cards = [c for h in self.hands for c in h] + list(self.draw) + list(self.discards)
        if self.stolen >= 0:
            cards.append(self.stolen)
        assert sorted(cards) == list(range(1, g.num_cards + 1)), (
            f"cards not conserved: {sorted(cards)}"
        )
        assert (self.stolen >= 0) == (self.phase in PENDING_STEAL), (
            f"a stolen card {self.stolen} in phase {self.phase}"
        )
        for s, h in enumerate(self.hands):
            assert list(h) == sorted(h), f"seat {s}'s hand is not sorted: {h}"
            assert len(h) <= self.game.max_hand, f"seat {s} holds {len(h)} cards"
        for s, p in enumerate(self.pawns):
            assert g.board.start <= p <= g.board.finish, f"seat {s}'s pawn is off the board: {p}"
        assert len(self.start) == g.players and len(self.extra) == g.players
        assert 1 <= self.turn <= g.turn_cap, f"turn {self.turn} outside 1..{g.turn_cap}"


class DragonRace(Game):
    """The Great Dragon Race for 2 to 4 players."""

    spec = GameSpec(
        id="dragon-race",
        name="The Great Dragon Race",
        min_players=2,
        max_players=4,
        rules_version=1,
        summary=(
            N_(
                "Race your dragon from the Start Island to the Finish with number cards, threes "
                "of a kind and specials; steal from the pawns you land on; call HALT! to cancel "
                "a rival's turn."
            )
        ),
        options=(
            OptionSpec(
                "data",
                None,
                N_(
                    "a JSON file with your own board, deck and characters "
                    "(the schema is in docs/rules/dragon-race.md)"
                ),
                kind="path",
            ),
            OptionSpec(
                "turn_cap",
                400,
                N_("the race stops after this many turns and the pawn furthest ahead wins"),
                kind="int",
                min=1,
                max=5000,
            ),
            OptionSpec(
                "bonus_play",
                "may",
                N_(
                    "after a number card with your own insignia: 'may' play another card or "
                    "stop, 'must' play another card whenever you can"
                ),
                choices=("may", "must"),
            ),
        ),
    )
    state_class = DragonRaceState
    view_type = view_types.DragonRaceView
    action_kinds = ACTION_KINDS
    event_specs = EVENT_SPECS
    phases = PHASES
    phase_names = PHASE_NAMES
    terminations = TERMINATION_NAMES

    components: RaceData
    turn_cap: int
    bonus_optional: bool
    num_cards: int
    card_kind: tuple[int, ...]  # by card id (index 0 unused)
    card_value: tuple[int, ...]  # number of number and HALT! cards, 0 for specials
    card_owner: tuple[int, ...]  # the seat whose insignia the card carries, else -1
    card_name: tuple[str, ...]
    forward_at: tuple[tuple[int, ...], ...]  # by spot and steps: Board.forward
    next_hole_at: tuple[int, ...]  # by spot: the next watering hole ahead, or -1
    hole_behind_at: tuple[int, ...]  # by spot: the watering hole behind (or the Start)
    safe_at: tuple[bool, ...]  # by spot: a watering hole
    hazard_at: tuple[int, ...]  # by spot: 1 Ballista Bolt, 2 Flaming Ball, else 0
    others: tuple[tuple[int, ...], ...]  # by seat: the others, clockwise from its left
    a_kind: tuple[int, ...]  # by action id: A_PLAY, A_BLOW, ...
    a_card: tuple[int, ...]  # the card played or used, or -1
    a_cards: tuple[tuple[int, ...], ...]  # the cards a play spends
    a_target: tuple[int, ...]  # the seat aimed at or robbed, or -1
    # by action id, a play that moves the player's pawn alone to a spot that depends only
    # on where it stands (outcome): that spot by the spot it stands on; else None
    own_move: tuple[tuple[int, ...] | None, ...]
    # by action id, a play that moves every pawn by where it stands (outcome): the spot
    # each pawn ends on by the spot it stands on; else None
    every_move: tuple[tuple[int, ...] | None, ...]
    blow_id: Mapping[int, tuple[int, ...]]  # Tornado!/Downdraft! card -> action id by seat
    triple_id: Mapping[tuple[int, ...], int]  # three card ids, ascending -> action id
    halt_id: Mapping[int, int]  # HALT! card -> action id
    halt_cards: frozenset[int]
    simple_play: tuple[bool, ...]  # by card id: played in one way only, whatever the pawns
    bonus_for: tuple[int, ...]  # by action id: the seat whose insignia grants another play
    finish: int
    start_spot: int  # the board's Start
    steal_id: tuple[int, ...]
    stop_id: int
    pass_id: int
    _actions: tuple[Action, ...]
    bolts_back: int  # the data's effects (board.Effects)
    balls_back: int
    tornado_ahead: int
    stolen_draft_ahead: int
    deal: int  # the data's hands (board.Hands): cards dealt to each player
    draw_up_to: int  # a turn starts by drawing up to this many cards
    max_hand: int  # ... plus one after being robbed

    def _prepare(self) -> None:
        path = self.options["data"]
        self.components = load_data(path if isinstance(path, str) else None)
        chars = self.components.characters
        if len(chars) < self.players:
            raise BadDataFile(
                f"{self.components.source}: characters: expected at least {self.players} "
                f"characters for {self.players} players, got {len(chars)}"
            )
        self.turn_cap = int(self.options["turn_cap"])  # type: ignore[arg-type]
        self.bonus_optional = self.options["bonus_play"] == "may"
        cards = self.components.cards
        board = self.components.board
        n = self.players
        seat_of = {chars[s].insignia: s for s in range(n)}
        self.num_cards = len(cards)
        self.card_kind = (-1, *[c.code for c in cards])
        self.card_value = (0, *[c.value for c in cards])
        self.card_owner = (
            -1,
            *[
                seat_of.get(c.insignia, -1) if c.kind == "number" and c.insignia else -1
                for c in cards
            ],
        )
        self.card_name = ("", *[c.name for c in cards])
        self.simple_play = tuple(0 <= k <= UPDRAFT for k in self.card_kind)
        spots = range(board.finish + 1)
        fx = self.components.effects
        self.bolts_back, self.balls_back = fx.bolts_back, fx.balls_back
        self.tornado_ahead, self.stolen_draft_ahead = fx.tornado_ahead, fx.stolen_draft_ahead
        most = max(fx.tornado_ahead, fx.stolen_draft_ahead, *self.card_value)
        hands = self.components.hands
        if hands.deal * n > len(cards):
            raise BadDataFile(
                f"{self.components.source}: hands.deal: expected at most {len(cards) // n} "
                f"cards each for {n} players from a deck of {len(cards)}, got {hands.deal}"
            )
        self.deal, self.draw_up_to = hands.deal, hands.draw_up_to
        self.max_hand = hands.draw_up_to + 1
        self.forward_at = tuple(tuple(board.forward(p, k) for k in range(most + 1)) for p in spots)
        self.next_hole_at = tuple(
            -1 if (h := board.next_watering_hole(p)) is None else h for p in spots
        )
        self.hole_behind_at = tuple(board.watering_hole_behind(p) for p in spots)
        self.safe_at = tuple(board.is_watering_hole(p) for p in spots)
        self.hazard_at = tuple(
            {"ballista bolt": 1, "flaming ball": 2}.get(board.hazard(p) or "", 0) for p in spots
        )
        self.others = tuple(tuple((s + k) % n for k in range(1, n)) for s in range(n))
        t = _action_tables(self.components.cards, n)
        self._actions = t.actions
        self.a_kind = t.kind
        self.a_card = t.card
        self.a_cards = t.cards
        self.a_target = t.target
        self.own_move = self._own_moves()
        self.every_move = self._every_moves()
        self.blow_id = t.blow_id
        self.triple_id = t.triple_id
        self.halt_id = t.halt_id
        self.halt_cards = frozenset(t.halt_id)
        # An own-insignia number card grants another play; not inside a three of a kind.
        self.bonus_for = tuple(
            self.card_owner[c] if k in (A_PLAY, A_BLOW) else -1
            for k, c in zip(t.kind, t.card, strict=True)
        )
        self.finish = board.finish
        self.start_spot = board.start
        self.steal_id = t.steal_id
        self.stop_id = t.stop_id
        self.pass_id = t.pass_id

    def _define_actions(self) -> Sequence[Action]:
        return self._actions

    @property
    def board(self) -> Board:
        return self.components.board

    @property
    def max_length(self) -> int:
        """Per turn: at most six plays from the hand and one stolen card per opponent, each
        followed by a window asking every other player; at most one steal per opponent,
        each a choice and a window; and a stop before each steal and at the end."""
        n = self.players
        per_turn = (self.max_hand + n - 1) * n + (n - 1) * n + n
        return self.turn_cap * per_turn

    # ------------------------------------------------------------------ the effects

    def outcome(self, pawns: Sequence[int], seat: int, aid: int, stolen: bool = False) -> list[int]:
        """The pawn spots after ``seat`` makes the play ``aid`` (``stolen``: with a card
        just stolen). Pawns on watering holes are not moved by anyone else's special, nor
        by the player's own Bolts!/Balls!."""
        p = pawns[seat]
        new = list(pawns)
        to = self.own_move[aid]
        if to is not None:  # the player's pawn alone (_own_moves)
            new[seat] = to[p]
            return new
        to = self.every_move[aid]
        if to is not None:  # every pawn (_every_moves)
            return [to[q] for q in pawns]
        k = self.a_kind[aid]
        c = self.a_card[aid]
        ck = self.card_kind[c]
        if ck in (UPDRAFT, DOWNDRAFT):
            ahead = [q for q in pawns if q > p]
            if not ahead:
                if stolen:
                    new[seat] = self.forward_at[p][self.stolen_draft_ahead]
            elif ck == UPDRAFT:
                new[seat] = min(self.finish, min(ahead) + 1)
            elif k == A_BLOW:
                new[self.a_target[aid]] = self.components.board.back(p, 1)
        elif k == A_BLOW:  # Tornado! on a rival (a Tornado! ahead: _own_moves)
            t = self.a_target[aid]
            new[t] = self.hole_behind_at[pawns[t]]
        return new

    def _own_moves(self) -> tuple[tuple[int, ...] | None, ...]:
        """:attr:`own_move`, the part of :meth:`outcome` that moves the player's pawn alone
        and whatever the other pawns: a three of a kind flies to the next watering hole
        ahead, a number or HALT! card moves ahead its number, a Passing Wind! flies to the
        next watering hole ahead if there is one, a Tornado! played for itself moves ahead
        ``tornado_ahead``."""
        spots = range(len(self.forward_at))
        ahead = {v: tuple(self.forward_at[p][v] for p in spots) for v in {*self.card_value}}
        ahead[self.tornado_ahead] = tuple(self.forward_at[p][self.tornado_ahead] for p in spots)
        to_hole = tuple(p if h < 0 else h for p, h in enumerate(self.next_hole_at))
        out: list[tuple[int, ...] | None] = []
        for k, c in zip(self.a_kind, self.a_card, strict=True):
            ck = self.card_kind[c] if c >= 0 else -1
            if k == A_TRIPLE:
                out.append(self.next_hole_at)
            elif k != A_PLAY:
                out.append(None)
            elif ck in (NUMBER, HALT):
                out.append(ahead[self.card_value[c]])
            elif ck == PASSING_WIND:
                out.append(to_hole)
            elif ck == TORNADO:
                out.append(ahead[self.tornado_ahead])
            else:
                out.append(None)
        return tuple(out)

    def _every_moves(self) -> tuple[tuple[int, ...] | None, ...]:
        """:attr:`every_move`, the part of :meth:`outcome` that moves every pawn by where
        it stands: Ballista Bolts! and Flaming Balls! send every pawn not on a watering
        hole back ``bolts_back`` or ``balls_back`` spots."""
        board = self.components.board
        spots = range(len(self.safe_at))
        back = {
            ck: tuple(p if self.safe_at[p] else board.back(p, steps) for p in spots)
            for ck, steps in ((BOLTS, self.bolts_back), (BALLS, self.balls_back))
        }
        return tuple(
            back.get(self.card_kind[c]) if k == A_PLAY and c >= 0 else None
            for k, c in zip(self.a_kind, self.a_card, strict=True)
        )

    def downdraft_targets(self, pawns: Sequence[int], seat: int) -> list[int]:
        """The leaders a Downdraft! from ``seat`` can blow back: the pawns furthest ahead,
        if they are ahead of ``seat`` and not on a watering hole."""
        top = max(pawns)
        if top <= pawns[seat] or self.safe_at[top]:
            return []
        return [s for s, q in enumerate(pawns) if q == top]

    def tornado_targets(self, pawns: Sequence[int], seat: int) -> list[int]:
        """The rivals a Tornado! from ``seat`` can send back: not on a watering hole and not
        on the Start."""
        safe = self.safe_at
        start = self.start_spot
        return [s for s, q in enumerate(pawns) if s != seat and q != start and not safe[q]]

    # ------------------------------------------------------------------ descriptions

    def describe_card(self, card: int) -> str:
        """What a card is and does, in words."""
        c = self.components.cards[card - 1]
        if c.kind == "number":
            text = _("{card}: move ahead {n}").format(card=c.name, n=c.value)
            if c.insignia:
                owner = next(
                    (_(ch.name) for ch in self.components.characters if ch.insignia == c.insignia),
                    "?",
                )
                text += "; " + _("insignia {insignia}: {owner} plays again").format(
                    insignia=c.insignia, owner=owner
                )
            return text
        if c.kind == "halt":
            return _("{card}: cancel another player's turn, or move ahead {n}").format(
                card=c.name, n=c.value
            )
        return (
            c.name
            + " "
            + {
                "bolts": _("every pawn not on a watering hole moves back {n}, yours too"),
                "balls": _("every pawn not on a watering hole moves back {n}, yours too"),
                "updraft": _("pass the nearest pawn ahead and take the spot in front of it"),
                "downdraft": _("blow the leader back to the spot behind yours"),
                "passing_wind": _("fly to the next watering hole ahead"),
                "tornado": _(
                    "move ahead {n}, or send a rival back to the watering hole behind them"
                ),
            }[c.kind].format(
                n={
                    "bolts": self.bolts_back,
                    "balls": self.balls_back,
                    "tornado": self.tornado_ahead,
                }.get(c.kind)
            )
        )

    def describe_action(self, action: Action) -> str:
        aid = self.table.id_of(action)
        k = self.a_kind[aid]
        c = self.a_card[aid]
        if k == A_PLAY:
            ck = self.card_kind[c]
            name = self.card_name[c]
            if ck == HALT:
                return _("play {card} as a {n}: move ahead {n}").format(
                    card=name, n=self.card_value[c]
                )
            if ck == TORNADO:
                return _("play {card}: move ahead {n}").format(card=name, n=self.tornado_ahead)
            if ck == DOWNDRAFT:
                return _(
                    "play {card} with no leader to blow back (a stolen one: ahead {n} when leading)"
                ).format(card=name, n=self.stolen_draft_ahead)
            return _("play {card}").format(card=self.describe_card(c))
        if k == A_BLOW:
            t = self.a_target[aid]
            if self.card_kind[c] == TORNADO:
                return _(
                    "play {card} on seat {seat}: send it back to the watering hole behind it"
                ).format(card=self.card_name[c], seat=t)
            return _("play {card} on seat {seat}: blow it back to the spot behind yours").format(
                card=self.card_name[c], seat=t
            )
        if k == A_TRIPLE:
            names = ", ".join(self.card_name[x] for x in self.a_cards[aid])
            return _("play three of a kind ({cards}): fly to the next watering hole ahead").format(
                cards=names
            )
        if k == A_HALT:
            return _("call HALT! with {card}: cancel this turn").format(card=self.card_name[c])
        if k == A_STEAL:
            return _("steal a random card from seat {seat}").format(seat=self.a_target[aid])
        if k == A_STOP:
            return _("end your turn")
        return _("let it stand (no HALT!)")


@dataclass(frozen=True)
class _ActionTables:
    """Every action in id order, and what each one is, for one deck and player count."""

    actions: tuple[Action, ...]
    kind: tuple[int, ...]
    card: tuple[int, ...]
    cards: tuple[tuple[int, ...], ...]
    target: tuple[int, ...]
    blow_id: Mapping[int, tuple[int, ...]]
    triple_id: Mapping[tuple[int, ...], int]
    halt_id: Mapping[int, int]
    steal_id: tuple[int, ...]
    stop_id: int
    pass_id: int


@lru_cache(maxsize=16)
def _action_tables(cards: tuple[Card, ...], players: int) -> _ActionTables:
    """The action table: ``play <card>`` (id card - 1), ``blow <card> <seat>``, every three
    of a kind the deck holds, ``halt <card>``, ``steal <seat>``, ``stop``, ``pass``."""
    actions: list[Action] = []
    kind: list[int] = []
    card: list[int] = []
    spent: list[tuple[int, ...]] = []
    target: list[int] = []

    def add(a: Action, k: int, c: int, cs: tuple[int, ...], t: int) -> int:
        actions.append(a)
        kind.append(k)
        card.append(c)
        spent.append(cs)
        target.append(t)
        return len(actions) - 1

    for c in cards:
        add(Action("play", c.id), A_PLAY, c.id, (c.id,), -1)
    blow_id = {
        c.id: tuple(add(Action("blow", c.id, s), A_BLOW, c.id, (c.id,), s) for s in range(players))
        for c in cards
        if c.kind in ("downdraft", "tornado")
    }
    triple_id = {}
    for v in sorted({c.value for c in cards if c.value}):
        group = [c for c in cards if c.value == v]
        for trio in combinations(group, 3):
            if all(c.kind == "halt" for c in trio):
                continue  # three HALT! cards are not a three of a kind
            ids = tuple(c.id for c in trio)
            triple_id[ids] = add(Action("triple", *ids), A_TRIPLE, ids[0], ids, -1)
    halt_id = {
        c.id: add(Action("halt", c.id), A_HALT, c.id, (c.id,), -1)
        for c in cards
        if c.kind == "halt"
    }
    steal_id = tuple(add(Action("steal", s), A_STEAL, -1, (), s) for s in range(players))
    stop_id = add(Action("stop"), A_STOP, -1, (), -1)
    pass_id = add(Action("pass"), A_PASS, -1, (), -1)
    return _ActionTables(
        tuple(actions),
        tuple(kind),
        tuple(card),
        tuple(spent),
        tuple(target),
        blow_id,
        triple_id,
        halt_id,
        steal_id,
        stop_id,
        pass_id,
    )
