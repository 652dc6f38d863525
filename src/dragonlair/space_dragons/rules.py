"""Space Dragons rules: the game definition (spec, options, actions, events) and its state.

The flow is declared by ``phase``:

- ``hire`` (Hiring Crew): one simultaneous secret pick per card dealt (the data file's
  ``hand_size``, nine in the built-in data); after each, the rest of every hand passes left
  (seat + 1). Skipped with the designer's variant.
- ``hunt`` (Dragon Hunt): one round per dragon in the lair (the data file's ``rounds``,
  seven in the built-in data); the round's starter plays first, then clockwise.
  A played card's immediate effects resolve at once in the card's order; after everyone
  has played, crosshairs hit the round's winner, who takes the face-up dragon, reveals
  the next one and starts the next round.
- ``over``: final scoring has been done; ``result`` holds it.

Each rule lives in one method below; card properties come from the flat tables built in
:mod:`.cards`, so a move touches only ints and tuples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, get_args

from mypy_extensions import mypyc_attr

from dragonlair.core import (
    Action,
    Game,
    GameSpec,
    OptionSpec,
    State,
    make_result,
)
from dragonlair.core.chains import Event
from dragonlair.i18n import N_

from . import view_types
from .cards import (
    CREW_CARDS,
    DAMAGE,
    DRAGONS,
    SHIELD,
    SYMBOLS,
    Components,
    Rank,
    Tables,
)
from .cards import load_components as _load_components
from .kinds import (
    ACTION_KINDS,
    EVENT_SPECS,
    HIRE,
    HIRE_BASE,
    HUNT,
    PHASE_NAMES,
    PHASES,
    PLAY_BASE,
    Phase,
)

# The cards dealt (picks in Hiring Crew) and the rounds of the Dragon Hunt (dragons in the
# lair) are the data file's hand_size and rounds (cards.Components).


# How a game ends (``Result.termination``), and the words a result gives for each
# (``Result.reason``, "" where none are needed).
Termination = Literal["points", "dragons", "shared"]
TERMINATIONS: Final[dict[Termination, str]] = {
    "points": "",
    "dragons": "tied on points: the most dragons wins",
    "shared": "tied on points and dragons: a shared win",
}
TERMINATION_NAMES: Final[tuple[Termination, ...]] = get_args(Termination)


# Event texts used often enough to be built once.
_A_CARD: Final = "a draw-pile card"
_A_COUNTER: Final = "a counter (the draw pile is empty)"
_BY_DAMAGE: Final = "damage"
_BY_CROSSHAIR: Final = "a crosshair"
SIDE_NAMES: Final = ("A", "B")


def award_points(counts: Sequence[int], awards: Sequence[tuple[Rank, int]]) -> list[int]:
    """What one scoring card gives each player for their symbol ``counts``.

    Dense ranking: "most" is the highest count and "second most" the next distinct count
    below it (likewise "fewest" and "second fewest"), so tied players share a place and
    all get the full award; zero counts take part. ``awards`` are listed largest first and
    a player takes only the first one they qualify for."""
    distinct = sorted(set(counts))
    second = len(distinct) > 1
    target: dict[Rank, int | None] = {
        "most": distinct[-1],
        "second most": distinct[-2] if second else None,
        "fewest": distinct[0],
        "second fewest": distinct[1] if second else None,
    }
    out = []
    for count in counts:
        got = 0
        for rank, points in awards:
            if target[rank] == count:
                got = points
                break
        out.append(got)
    return out


# Interpreted subclasses: the bot checks' poisoned states (dragonlair.bots.checks).
@mypyc_attr(allow_interpreted_subclasses=True)
class SpaceDragonsState(State["SpaceDragons"]):
    """A game of Space Dragons in progress.

    Crew cards are numbers 1..80 and dragons ids 1..20. Every crew card is in exactly one
    of ``hands``, ``picks``, ``played``, ``start_cards`` or ``pile``; every dragon in
    exactly one of ``lair``, ``face_up``, ``claimed``, ``ships`` or ``box``."""

    __slots__ = (
        "box",
        "claimed",
        "damage",
        "face_up",
        "hands",
        "lair",
        "lead",
        "picks",
        "pile",
        "played",
        "round",
        "shields",
        "ships",
        "sides",
        "start_cards",
        "taken",
    )

    phase: Phase  # one of the phases the game declares (kinds.PHASES)
    hands: list[tuple[int, ...]]  # sorted; in Hiring Crew, the hand being drafted from
    picks: list[tuple[int, ...]]  # face-down picks during Hiring Crew, in pick order
    played: list[tuple[int, ...]]  # face-up crew cards, in the order played
    start_cards: tuple[int, ...]  # the start-player draw, one per seat; out of the game
    pile: tuple[int, ...]  # the draw pile after the start-player draw, top first
    taken: int  # cards taken from the pile's top (tucked under ships, some since removed)
    shields: list[int]  # shields under each ship
    damage: list[int]  # damage under each ship
    lair: tuple[int, ...]  # face-down dragons, top first
    face_up: int  # the dragon on display; 0 once the lair is empty
    claimed: list[tuple[int, ...]]  # dragons each player has won, in order
    ships: tuple[int, ...]  # the dragon card each spaceship is (its dragon side never used)
    box: tuple[int, ...]  # dragons back in the box, unseen
    round: int  # rounds of the hunt completed (0..game.rounds)
    lead: int  # the current round's starting player (before the hunt: the start player)
    sides: tuple[int, ...]  # face-up side of the science, mood and crime cards (0 A, 1 B)

    # ------------------------------------------------------------------ setup

    def _setup(self) -> None:
        g = self.game
        n = g.players
        deck = list(range(1, CREW_CARDS + 1))
        self._shuffle(deck)
        dragons = list(range(1, DRAGONS + 1))
        self._shuffle(dragons)
        hand, rounds = g.hand_size, g.rounds
        self.hands = [tuple(sorted(deck[s * hand : (s + 1) * hand])) for s in range(n)]
        self.picks = [()] * n
        self.played = [()] * n
        rest = deck[n * hand :]
        self.start_cards = tuple(rest[:n])  # each player draws the top card of the pile
        self.pile = tuple(rest[n:])
        self.taken = 0
        self.shields = [0] * n
        self.damage = [0] * n
        self.lair = tuple(dragons[1:rounds])
        self.face_up = dragons[0]
        self.ships = tuple(dragons[rounds : rounds + n])
        self.box = tuple(dragons[rounds + n :])
        self.claimed = [()] * n
        self.round = 0
        self.sides = tuple(
            [
                self._randbelow(2) if side == "random" else ("a", "b").index(side)
                for side in g.side_options
            ]
        )
        self.lead = self.start_cards.index(max(self.start_cards))
        self._emit("setup", (len(self.pile), *[SIDE_NAMES[x] for x in self.sides], hand, rounds))
        for s in range(n):
            self._emit("dealt", (s, self.hands[s], hand), (s,))
        self._emit("start_draw", (self.start_cards, self.lead))
        self._emit("revealed", (self.face_up, g.tables.dragon_labels[self.face_up]))
        if g.variant:
            self._start_round()
        else:
            self.phase = HIRE
            self._open_choice(g.seats)

    # ------------------------------------------------------------------ moves

    def _legal_ids(self, seat: int) -> list[int]:
        base = HIRE_BASE if self.phase == HIRE else PLAY_BASE
        return [base + c for c in self.hands[seat]]

    def _step(self, seat: int, aid: int) -> None:
        if self.phase == HUNT:
            self._play(seat, aid - PLAY_BASE)
        else:
            self._emit("hired", (seat, aid - HIRE_BASE), self.game.only[seat])
            if self._collect(seat, aid):
                self._reveal_picks(self._close_choice())

    # ------------------------------------------------------------------ Hiring Crew

    def _reveal_picks(self, choices: list[int | None]) -> None:
        """Everyone's pick goes face down with their earlier picks; the rest of each hand
        passes left. After the last pick (``hand_size``) the picks are the crew, and the hunt
        begins."""
        n = self.game.players
        hands = self.hands
        picks = self.picks
        for s in range(n):
            card = choices[s] - HIRE_BASE  # type: ignore[operator]
            h = hands[s]
            i = h.index(card)
            hands[s] = h[:i] + h[i + 1 :]
            picks[s] += (card,)
        done = len(picks[0])
        if done < self.game.hand_size:
            g = self.game
            self.hands = hands = hands[-1:] + hands[:-1]  # seat s receives what s - 1 kept
            only = g.only
            events: list[Event] = [("passed", (g.pass_texts[done - 1],), None)]
            for s in range(n):
                events.append(("received", (s, hands[s]), only[s]))
            self._emit_batch(events)
            self._open_choice(g.seats)
        else:
            self.hands = [tuple(sorted(p)) for p in picks]
            self.picks = [()] * n
            self._emit("crew_hired", (done,))
            self._start_round()

    # ------------------------------------------------------------------ Dragon Hunt

    def _start_round(self) -> None:
        self.phase = HUNT
        self._emit("round_start", (self.round + 1, self.lead))
        self._to_act = (self.lead,)

    def _play(self, seat: int, card: int) -> None:
        """Play a crew card face up and resolve its immediate effects in the card's order;
        after the last player of the round, end the round."""
        h = self.hands[seat]
        i = h.index(card)
        self.hands[seat] = h[:i] + h[i + 1 :]
        self.played[seat] += (card,)
        t = self.game.tables
        self._emit("played", (seat, card, t.card_labels[card]), None)
        for effect in t.immediate[card]:
            if effect == SHIELD:
                self.shields[seat] += 1
                self._emit("shield", (seat, self._take(), self.shields[seat]))
            elif effect == DAMAGE:
                self._hit(seat, _BY_DAMAGE)
            elif self.damage[seat]:  # a tool
                self.damage[seat] -= 1
                self._emit("repaired", (seat, self.damage[seat]))
            else:
                self._emit("tool_idle", (seat,))
        nxt = seat + 1
        if nxt == self.game.players:
            nxt = 0
        if nxt == self.lead:
            self._end_round()
        else:
            self._to_act = (nxt,)

    def _take(self) -> str:
        """Take the top card of the draw pile to tuck under a ship; once the pile is empty,
        shields and damage are counters."""
        if self.taken < len(self.pile):
            self.taken += 1
            return _A_CARD
        return _A_COUNTER

    def _hit(self, seat: int, cause: str) -> None:
        """One damage or crosshair hit: remove a shield, or else tuck a card as damage."""
        if self.shields[seat]:
            self.shields[seat] -= 1
            self._emit("shield_lost", (seat, cause, self.shields[seat]))
        else:
            self.damage[seat] += 1
            self._emit("damaged", (seat, cause, self._take(), self.damage[seat]))

    def _end_round(self) -> None:
        """Crosshairs on other players' cards hit the round's highest card; it takes the
        face-up dragon, reveals the next and starts the next round."""
        g = self.game
        t = g.tables
        r = self.round
        cards = [p[r] for p in self.played]
        top = max(cards)
        winner = cards.index(top)
        crosshairs = t.crosshairs
        hits = sum([crosshairs[c] for c in cards]) - crosshairs[top]
        if hits:
            self._emit("crosshairs", (winner, hits))
            for _ in range(hits):
                self._hit(winner, _BY_CROSSHAIR)
        dragon = self.face_up
        self.claimed[winner] += (dragon,)
        self._emit("claimed", (winner, top, dragon, t.dragon_labels[dragon]))
        self.round = r + 1
        self.lead = winner
        if self.lair:
            self.face_up = self.lair[0]
            self.lair = self.lair[1:]
            self._emit("revealed", (self.face_up, t.dragon_labels[self.face_up]))
        else:
            self.face_up = 0
        if self.round == g.rounds:
            self._end_game()
            return
        if g.variant:
            n = g.players
            hands = self.hands
            self.hands = hands[-1:] + hands[:-1]  # seat s receives the hand of seat s - 1
            self._emit("passed", (g.pass_texts[g.hand_size + r],))
            for s in range(n):
                self._emit("received", (s, self.hands[s]), (s,))
        self._start_round()

    # ------------------------------------------------------------------ scoring

    def _end_game(self) -> None:
        """Final scoring: crew plus/minus points, dragon values, shields and damage, then
        the three scoring cards. Most points wins; a tie goes to the most dragons; a tie
        on both is a shared win."""
        g = self.game
        t = g.tables
        n = g.players
        if g.hand_size > g.rounds:  # the cards dealt that no round played
            self._emit("set_aside", (g.hand_size - g.rounds,))
        crew_points = t.crew_points
        dragon_points = t.dragon_points
        counts = t.symbol_counts(self.played, self.claimed)  # science, mood, crime by seat
        breakdown: list[dict[str, int]] = []
        for played, claimed, shields, damage in zip(
            self.played, self.claimed, self.shields, self.damage, strict=True
        ):
            breakdown.append(
                {
                    "crew points": sum([crew_points[c] for c in played]),
                    "dragons": sum([dragon_points[d] for d in claimed]),
                    "shields": shields * g.shield_value,
                    "damage": damage * g.damage_value,
                }
            )
        for k, symbol in enumerate(SYMBOLS):
            side = self.sides[k]
            awards = award_points(counts[k], t.scoring[k][side])
            for b, a in zip(breakdown, awards, strict=True):
                b[symbol] = a
            self._emit("scored", (symbol, SIDE_NAMES[side], tuple(counts[k]), tuple(awards)))
        points = [sum(b.values()) for b in breakdown]
        dragons = [len(c) for c in self.claimed]
        top = max(points)
        tied = [s for s in range(n) if points[s] == top]
        how: Termination = "points"
        if len(tied) > 1:
            most = max(dragons[s] for s in tied)
            how = "shared" if sum(1 for s in tied if dragons[s] == most) > 1 else "dragons"
        reason = TERMINATIONS[how]
        result = make_result(points, dragons, breakdown, reason, how)
        self._emit("game_over", (tuple(points), result.winners, reason or "most points"))
        self._finish(result)

    # ------------------------------------------------------------------ views and copies

    def check_invariants(self) -> None:
        g = self.game
        n = g.players
        crew = [c for h in self.hands for c in h]
        crew += [c for p in self.picks for c in p]
        crew += [c for p in self.played for c in p]
        crew += [*self.start_cards, *self.pile]
        assert sorted(crew) == list(range(1, CREW_CARDS + 1)), "crew cards are not conserved"
        dragons = [*self.lair, *self.ships, *self.box, *(d for c in self.claimed for d in c)]
        if self.face_up:
            dragons.append(self.face_up)
        assert sorted(dragons) == list(range(1, DRAGONS + 1)), "dragons are not conserved"
        assert len(self.start_cards) == n and len(self.ships) == n
        assert 0 <= self.taken <= len(self.pile), f"taken {self.taken} is off the pile"
        assert min(self.shields) >= 0 and min(self.damage) >= 0, "negative shields or damage"
        assert sum(len(c) for c in self.claimed) == self.round, "a dragon per round"
        assert len(self.lair) == max(0, g.rounds - 1 - self.round)
        assert (self.face_up == 0) == (self.round == g.rounds)
        if self.phase == HIRE:
            done = len(self.picks[0])
            assert all(len(p) == done for p in self.picks), "uneven picks"
            assert all(len(h) == g.hand_size - done for h in self.hands), "uneven hands"
            ch = self._choices or []
            for s, c in enumerate(ch):
                assert c is None or c < 0 or c - HIRE_BASE in self.hands[s], "pick not in hand"
            return
        assert not any(self.picks), "picks outside Hiring Crew"
        # in the hunt, the seats from the round's starter up to the one to act have played
        done = (self._to_act[0] - self.lead) % n if self.phase == HUNT else 0
        for j in range(n):
            s = (self.lead + j) % n
            assert len(self.played[s]) == self.round + (j < done), f"seat {s} played off turn"
            assert len(self.hands[s]) + len(self.played[s]) == g.hand_size, f"seat {s} lost a card"


class SpaceDragons(Game):
    """Space Dragons for 3 to 5 players."""

    spec = GameSpec(
        id="space-dragons",
        name="Space Dragons",
        min_players=3,
        max_players=5,
        rules_version=1,
        summary=(
            N_(
                "Draft a crew of nine, then play seven tricks without suits: the highest card "
                "takes the dragon, and every card played stays and scores."
            )
        ),
        options=(
            OptionSpec(
                "science", "a", N_("science scoring card side"), choices=("a", "b", "random")
            ),
            OptionSpec("mood", "a", N_("mood scoring card side"), choices=("a", "b", "random")),
            OptionSpec("crime", "a", N_("crime scoring card side"), choices=("a", "b", "random")),
            OptionSpec(
                "b_sides",
                "penalty",
                N_("B sides award minus points (penalty) or plus points (bonus)"),
                choices=("penalty", "bonus"),
            ),
            OptionSpec("shield", 1, N_("points per shield at the end"), kind="int", min=-5, max=5),
            OptionSpec(
                "damage", -2, N_("points per damage at the end"), kind="int", min=-10, max=5
            ),
            OptionSpec(
                "variant",
                False,
                N_("designer's variant: no Hiring Crew; hands pass left after each round"),
                kind="bool",
            ),
            OptionSpec("data", None, N_("a component data file of printed values"), kind="path"),
        ),
    )
    state_class = SpaceDragonsState
    view_type = view_types.SpaceDragonsView
    action_kinds = ACTION_KINDS
    event_specs = EVENT_SPECS
    phases = PHASES
    phase_names = PHASE_NAMES
    terminations = TERMINATION_NAMES

    components: Components
    tables: Tables
    side_options: tuple[str, str, str]
    shield_value: int
    damage_value: int
    variant: bool
    pass_texts: tuple[str, ...]
    hand_size: int  # the data's: cards dealt to each player, and picks in Hiring Crew
    rounds: int  # the data's: rounds of the Dragon Hunt = dragons in the lair
    seats: tuple[int, ...]
    only: tuple[tuple[int], ...]  # event audiences of one seat

    def _prepare(self) -> None:
        o = self.options
        data = o["data"]
        self.components = _load_components(data if isinstance(data, str) else None)
        self.tables = Tables(self.components, b_penalty=o["b_sides"] == "penalty")
        self.side_options = (str(o["science"]), str(o["mood"]), str(o["crime"]))
        self.shield_value = int(o["shield"])  # type: ignore[arg-type]
        self.damage_value = int(o["damage"])  # type: ignore[arg-type]
        self.variant = bool(o["variant"])
        self.seats = tuple(range(self.players))
        self.only = tuple((s,) for s in self.seats)
        self.hand_size, self.rounds = self.components.hand_size, self.components.rounds
        self.pass_texts = tuple(f"after pick {k}" for k in range(1, self.hand_size + 1)) + tuple(
            f"after round {r}" for r in range(1, self.rounds + 1)
        )

    def _define_actions(self) -> Sequence[Action]:
        cards = range(1, CREW_CARDS + 1)
        return [*(Action("hire", c) for c in cards), *(Action("play", c) for c in cards)]

    @property
    def max_length(self) -> int:
        return (self.rounds if self.variant else self.hand_size + self.rounds) * self.players

    def describe_action(self, action: Action) -> str:
        aid = self.table.id_of(action)
        card = aid - HIRE_BASE if aid <= PLAY_BASE else aid - PLAY_BASE
        verb = "hire" if aid <= PLAY_BASE else "play"
        return f"{verb} {self.tables.card_labels[card]}"
