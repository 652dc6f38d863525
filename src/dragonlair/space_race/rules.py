"""Space Race rules: the game (spec, options, actions, events) and the state.

Flow (``phase``, one round after another, three rounds)::

    upgrade  six simultaneous secret picks; after each, the picks are revealed together and
             the rest of every hand is passed the way the Navigation Coin shows
             -> upgrade (next pick) | danger (after the sixth pick)
    danger   the top Danger card is revealed; simultaneous secret bids of Fuel (Flight) or
             Crew (Fight); ranks, wrenches and damage; bid cards discarded
             -> upgrade (next round: deal six, flip the coin) | over (after round three)

Seats are numbered clockwise: "left" is seat + 1, "right" is seat - 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal, get_args

from mypy_extensions import mypyc_attr

from dragonlair.core import (
    Action,
    Game,
    GameSpec,
    OptionSpec,
    State,
    dense_ranks,
    make_result,
)
from dragonlair.core.chains import Event
from dragonlair.core.state import NOT_TAKING_PART
from dragonlair.i18n import N_, gettext, ngettext, words

from . import view_types
from .cards import (
    DAMAGE,
    FIGHT,
    FLIGHT,
    NSTACK,
    POWER_SOURCE,
    S_CREW,
    S_DAMAGE,
    S_FUEL,
    S_POWER_COCKPIT,
    S_POWER_ENGINE,
    TYPE_STACK,
    WRENCH,
    CardTables,
    SpaceRaceData,
    load_data,
)
from .kinds import ACTION_KINDS, DANGER, EVENT_SPECS, PHASE_NAMES, PHASES, UPGRADE, Phase
from .scoring import score_ships

RESOURCE: Final = ("Fuel", "Crew")  # what a Flight and a Fight card make players bid
DIRECTIONS: Final = {1: "left (clockwise)", -1: "right (counter-clockwise)"}
# How a card was played, by the stack it went to (for events and labels).
HOW: Final = {
    S_POWER_COCKPIT: "on the Cockpit",
    S_POWER_ENGINE: "on the Engine",
    S_FUEL: "face down as Fuel",
}


# How a game ends (``Result.termination``), and the words a result gives for each
# (``Result.reason``, "" where none are needed).
Termination = Literal["rounds"]
TERMINATIONS: Final[dict[Termination, str]] = {
    "rounds": "",
}
TERMINATION_NAMES: Final[tuple[Termination, ...]] = get_args(Termination)


# Interpreted subclasses: the bot checks' poisoned states (dragonlair.bots.checks).
@mypyc_attr(allow_interpreted_subclasses=True)
class SpaceRaceState(State["SpaceRace"]):
    """A game of Space Race in progress. Every field is plain data (see docs/rules)."""

    __slots__ = (
        "bids",
        "crew_discard",
        "damage_deck",
        "damage_removed",
        "danger",
        "danger_deck",
        "danger_discard",
        "direction",
        "hands",
        "pick",
        "round",
        "seen_top",
        "ships",
        "space_deck",
        "spent_fuel",
    )

    phase: Phase  # one of the phases the game declares (kinds.PHASES)
    round: int  # 1..3
    pick: int  # 1..6 within the round's Upgrade phase
    direction: int  # this round's passing direction: +1 left, -1 right
    hands: list[tuple[int, ...]]  # per seat, Space card ids, sorted
    ships: list[tuple[int, ...]]  # flat: ships[seat * NSTACK + stack], in the order placed
    spent_fuel: list[tuple[int, ...]]  # per seat, Fuel cards bid and discarded (face down)
    crew_discard: tuple[int, ...]  # Crew cards bid and discarded (face up)
    space_deck: list[int]  # the top card is the last
    danger_deck: list[int]  # the top card is the last
    danger: int  # the Danger card revealed this round, 0 outside the Danger phase
    danger_discard: tuple[int, ...]  # Danger cards already used
    damage_deck: list[int]  # the top card is the last
    damage_removed: tuple[int, ...]  # Damage cards removed from ships by wrenches
    seen_top: int  # bit s set: seat s knows the top Danger card (through a Scanner)
    bids: tuple[int, ...]  # the last revealed bids, () before the first

    # ------------------------------------------------------------------ setup and rounds

    def _setup(self) -> None:
        g = self.game
        t = g.tables
        n = g.players
        self.space_deck = list(t.space_ids)
        self.danger_deck = list(t.danger_ids)
        self.damage_deck = list(t.damage_ids)
        self._shuffle(self.space_deck)
        self._shuffle(self.danger_deck)
        self._shuffle(self.damage_deck)
        self.hands = [()] * n
        self.ships = [()] * (n * NSTACK)
        self.spent_fuel = [()] * n
        self.crew_discard = ()
        self.danger = 0
        self.danger_discard = ()
        self.damage_removed = ()
        self.seen_top = 0
        self.bids = ()
        self.round = 0
        self.pick = 0
        self.direction = 1
        self._start_round()

    def _start_round(self) -> None:
        """Upgrade: deal six each (the data's hand_size), flip the Navigation Coin, ask for
        the first pick."""
        g = self.game
        self.round += 1
        self.pick = 1
        self._emit("round", (self.round, g.rounds))
        deck = self.space_deck
        size = g.hand_size
        for s in range(g.players):
            hand = tuple(sorted(deck[-size:]))
            del deck[-size:]
            self.hands[s] = hand
            names = tuple(g.tables.space_name[c] for c in hand)
            self._emit("dealt", (s, size, hand, names), (s,))
        face = g.components.coin[self._randbelow(2)]
        self.direction = 1 if face == "left" else -1
        self._emit("coin", (self.round, face, DIRECTIONS[self.direction]))
        self.phase = UPGRADE
        self._open_choice(g.seats)

    # ------------------------------------------------------------------ decisions

    def _legal_ids(self, seat: int) -> list[int]:
        g = self.game
        if self.phase == UPGRADE:
            pick_ids = g.pick_ids
            ids: list[int] = []
            for c in self.hands[seat]:
                ids += pick_ids[c]
            return ids
        return list(g.bid_ids[len(self.ships[seat * NSTACK + self._bid_stack()])])

    _LEGAL_PAIRS = True

    def _legal_ids_and_actions(self, seat: int) -> tuple[list[int], list[Action]]:
        # _legal_ids with the table's actions alongside: a pick's ids and actions come in
        # one group per card, which two list concatenations take whole
        g = self.game
        if self.phase == UPGRADE:
            pick_ids = g.pick_ids
            pick_actions = g.pick_actions
            ids: list[int] = []
            legal: list[Action] = []
            for c in self.hands[seat]:
                ids += pick_ids[c]
                legal += pick_actions[c]
            return ids, legal
        k = len(self.ships[seat * NSTACK + self._bid_stack()])
        return list(g.bid_ids[k]), list(g.bid_actions[k])

    def _bid_stack(self) -> int:
        """The stack bid from in this Danger phase: Fuel for Flight, Crew for Fight."""
        return S_FUEL if self.game.tables.danger_kind[self.danger] == FLIGHT else S_CREW

    def _step(self, seat: int, aid: int) -> None:
        g = self.game
        # every seat asked has chosen when a choice closes, so the choices are all ints
        if self.phase == UPGRADE:
            self._emit("chose", (seat, g.aid_said[aid]), g.only[seat])
            if self._collect(seat, aid):
                self._reveal_picks(self._close_choice())  # type: ignore[arg-type]
        else:
            self._emit("bid_chosen", (seat, aid - g.bid0), g.only[seat])
            if self._collect(seat, aid):
                self._resolve_danger(self._close_choice())  # type: ignore[arg-type]

    # ------------------------------------------------------------------ upgrade

    def _reveal_picks(self, choices: list[int]) -> None:
        """All picks are played at once: face up into the ship, or face down as Fuel."""
        g = self.game
        t = g.tables
        hands = self.hands
        ships = self.ships
        aid_card = g.aid_card
        aid_stack = g.aid_stack
        aid_how = g.aid_how
        name = t.space_name
        peeks = t.peeks
        only = g.only
        nstack = NSTACK  # (locals: read in the loop below, quicker than globals in the
        fuel = S_FUEL  # pure build; the compiled build reads cards.py's Finals as constants)
        base = 0
        # A Scanner's peek emits its own event after its card's "placed", so the batch
        # of "placed" events is emitted around it.
        placed: list[Event] = []
        for s, aid in enumerate(choices):
            card = aid_card[aid]
            stack = aid_stack[aid]
            hand = hands[s]
            i = hand.index(card)
            hands[s] = hand[:i] + hand[i + 1 :]
            ships[base + stack] += (card,)
            base += nstack
            if stack == fuel:
                placed.append(("placed", (s, aid_how[aid], card, name[card]), only[s]))
            else:
                placed.append(("placed", (s, aid_how[aid], card, name[card]), None))
                if peeks[card]:
                    self._emit_batch(placed)
                    placed = []
                    self._peek(s)
        self._emit_batch(placed)
        if self.pick < self.game.hand_size:
            self._pass_hands()
        else:
            self._start_danger()

    def _peek(self, seat: int) -> None:
        """A Scanner played face up: its owner looks at the top Danger card."""
        deck = self.danger_deck
        if deck:
            top = deck[-1]
            self.seen_top |= 1 << seat
            self._emit("scanned", (seat, top, self.game.tables.danger_name[top]), (seat,))

    def _pass_hands(self) -> None:
        g = self.game
        d = self.direction
        giver = g.giver[d]
        old = self.hands
        # left: seat s receives the hand of s - 1; right: of s + 1
        self.hands = new = old[-1:] + old[:-1] if d == 1 else old[1:] + old[:1]
        only = g.only
        name = g.tables.space_name
        events: list[Event] = [("passed", (DIRECTIONS[d],), None)]
        for s, f in enumerate(giver):
            hand = new[s]
            names = tuple([name[c] for c in hand])
            events.append(("received", (s, f, len(hand), hand, names), only[s]))
        self._emit_batch(events)
        self.pick += 1
        self._open_choice(g.seats)

    # ------------------------------------------------------------------ danger

    def _start_danger(self) -> None:
        g = self.game
        t = g.tables
        card = self.danger_deck.pop()
        self.danger = card
        self.seen_top = 0
        self.phase = DANGER
        self._emit("danger", (self.round, card, RESOURCE[t.danger_kind[card]], t.danger_name[card]))
        if g.scanner_always:
            for s in range(g.players):
                if self._has_scanner(s):
                    self._peek(s)
        stack = self._bid_stack()
        ships = self.ships
        bidders = [s for s in range(g.players) if ships[s * NSTACK + stack]]
        if bidders:
            self._open_choice(bidders)
        else:
            self._resolve_danger([NOT_TAKING_PART] * g.players)

    def _has_scanner(self, seat: int) -> bool:
        peeks = self.game.tables.peeks
        base = seat * NSTACK
        return any(peeks[c] for k in range(S_FUEL) for c in self.ships[base + k])

    def _resolve_danger(self, choices: list[int]) -> None:
        """Reveal the bids, rank them (dense), apply each rank's icon, discard the bids."""
        g = self.game
        t = g.tables
        bid0 = g.bid0
        card = self.danger
        kind = t.danger_kind[card]
        bids = tuple([a - bid0 if a >= 0 else 0 for a in choices])
        ranks = dense_ranks(bids)
        self.bids = bids
        self._emit("bids", (RESOURCE[kind], bids, ranks))
        icons = t.danger_ranks[card]
        for s in sorted(g.seats, key=ranks.__getitem__):  # best rank first, then by seat
            icon, k = icons[ranks[s] - 1]
            if icon == WRENCH:
                self._repair(s, ranks[s], k)
            elif icon == DAMAGE:
                self._damage(s, ranks[s], k)
            else:
                self._emit("unharmed", (s, ranks[s]))
        for s, b in enumerate(bids):
            if b:
                self._spend(s, kind, b)
        self.danger_discard = (*self.danger_discard, card)
        self.danger = 0
        if self.round < self.game.rounds:
            self._start_round()
        else:
            self._end()

    def _repair(self, seat: int, rank: int, k: int) -> None:
        """Wrenches: remove k Damage cards, the most negative first (the earliest drawn
        first among equals)."""
        t = self.game.tables
        i = seat * NSTACK + S_DAMAGE
        damage = self.ships[i]
        if not damage:
            self._emit("repaired", (seat, rank, 0, (), "nothing to repair"))
            return
        removed = tuple(sorted(damage, key=t.damage_vp.__getitem__)[:k])
        keep = list(damage)
        for c in removed:
            keep.remove(c)
        self.ships[i] = tuple(keep)
        self.damage_removed = self.damage_removed + removed
        names = ", ".join([t.damage_name[c] for c in removed])
        self._emit("repaired", (seat, rank, len(removed), removed, names))

    def _damage(self, seat: int, rank: int, k: int) -> None:
        """Draw k Damage cards into the ship; refill an empty deck from removed cards."""
        t = self.game.tables
        drawn: list[int] = []
        for _ in range(k):
            if not self.damage_deck:
                if not self.damage_removed:
                    self._emit("no_damage_left", (seat,))
                    break
                pile = list(self.damage_removed)
                self._shuffle(pile)
                self.damage_deck = pile
                self.damage_removed = ()
                self._emit("refilled", (len(pile),))
            drawn.append(self.damage_deck.pop())
        i = seat * NSTACK + S_DAMAGE
        self.ships[i] = self.ships[i] + tuple(drawn)
        names = ", ".join(t.damage_name[c] for c in drawn) or "none"
        self._emit("damaged", (seat, rank, len(drawn), tuple(drawn), names))

    def _spend(self, seat: int, kind: int, b: int) -> None:
        """Discard the bid: the oldest Fuel first; Crew worth least first, then oldest."""
        ships = self.ships
        if kind == FLIGHT:
            i = seat * NSTACK + S_FUEL
            fuel = ships[i]
            spent = fuel[:b]
            ships[i] = fuel[b:]
            self.spent_fuel[seat] = self.spent_fuel[seat] + spent
            names = tuple(self.game.tables.space_name[c] for c in spent)
            self._emit("spent", (seat, RESOURCE[FLIGHT], b, spent, names), (seat,))
            return
        i = seat * NSTACK + S_CREW
        crew = ships[i]
        # a stable sort: among Crew worth the same, the oldest comes first
        spent = tuple(sorted(crew, key=self.game.tables.vp.__getitem__)[:b])
        keep = list(crew)
        for c in spent:
            keep.remove(c)
        ships[i] = tuple(keep)
        self.crew_discard = self.crew_discard + spent
        names = tuple(self.game.tables.space_name[c] for c in spent)
        self._emit("spent", (seat, RESOURCE[FIGHT], b, spent, names))

    def _end(self) -> None:
        g = self.game
        breakdown = score_ships(self.ship_stacks(), g.tables, g.every_power_source)
        points = [sum(b.values()) for b in breakdown]
        how: Termination = "rounds"  # the only way: after the third round's Danger
        result = make_result(points, breakdown=breakdown, reason=TERMINATIONS[how], termination=how)
        self._emit("final", (tuple(points), result.winners))
        self._finish(result)

    def ship_stacks(self) -> list[tuple[tuple[int, ...], ...]]:
        """Every seat's ship as a tuple of its stacks (see cards.STACKS)."""
        ships = self.ships
        return [tuple(ships[s * NSTACK : (s + 1) * NSTACK]) for s in range(self.game.players)]

    # ------------------------------------------------------------------ views, copies, checks

    def check_invariants(self) -> None:
        g = self.game
        t = g.tables
        n = g.players
        ships = self.ships
        space = [c for h in self.hands for c in h] + list(self.space_deck)
        space += [c for f in self.spent_fuel for c in f] + list(self.crew_discard)
        for s in range(n):
            for k in range(S_DAMAGE):
                stack = ships[s * NSTACK + k]
                space += stack
                for c in stack:
                    expected = S_FUEL if k == S_FUEL else TYPE_STACK[t.type[c]]
                    if t.type[c] == POWER_SOURCE and k != S_FUEL:
                        assert k in (S_POWER_COCKPIT, S_POWER_ENGINE), f"power source {c} in {k}"
                    else:
                        assert k == expected, f"seat {s}: card {c} is in stack {k}"
        assert sorted(space) == list(t.space_ids), "Space cards are not conserved"
        damage = list(self.damage_deck) + list(self.damage_removed)
        damage += [c for s in range(n) for c in ships[s * NSTACK + S_DAMAGE]]
        assert sorted(damage) == list(t.damage_ids), "Damage cards are not conserved"
        danger = [*self.danger_deck, *self.danger_discard] + ([self.danger] if self.danger else [])
        assert sorted(danger) == list(t.danger_ids), "Danger cards are not conserved"
        assert len(self.danger_discard) == self.round - (self.phase != "over"), "danger count"
        sizes = {len(h) for h in self.hands}
        if self.phase == UPGRADE:
            expected = self.game.hand_size + 1 - self.pick
            assert sizes == {expected}, f"hand sizes {sizes} at pick {self.pick}"
        else:
            assert sizes == {0}, f"hands left after the Upgrade phase: {sizes}"
        ch = self._choices
        if ch is not None and self.phase == UPGRADE:
            for s, aid in enumerate(ch):
                if aid is not None and aid >= 0:
                    assert g.aid_card[aid] in self.hands[s], f"seat {s} picked a card not held"
        if ch is not None and self.phase == DANGER:
            limit = [len(ships[s * NSTACK + self._bid_stack()]) for s in range(n)]
            for s, aid in enumerate(ch):
                if aid is not None and aid >= 0:
                    assert aid - g.bid0 <= limit[s], f"seat {s} bid more than it holds"
        if self.seen_top and not self.danger_deck:
            raise AssertionError("a seat knows the top of an empty Danger deck")


class SpaceRace(Game):
    """Space Race (2021) for 2 to 4 players."""

    spec = GameSpec(
        id="space-race",
        name="Space Race",
        min_players=2,
        max_players=4,
        rules_version=1,
        summary=(
            N_(
                "Draft Space cards to build your ship over three rounds, then outbid the others "
                "with Fuel or Crew to escape each Danger."
            )
        ),
        options=(
            OptionSpec(
                "every_power_source",
                False,
                N_("every Power Source scores its colour bonus, not only the top of each stack"),
                kind="bool",
            ),
            OptionSpec(
                "scanner",
                "on-play",
                N_(
                    "on-play: a Scanner shows the top Danger card when it is played; "
                    "always: a face-up Scanner keeps showing it, round after round"
                ),
                choices=("on-play", "always"),
            ),
            OptionSpec(
                "data",
                None,
                N_("a JSON file of component data in the schema of docs/rules/space-race.md"),
                kind="path",
            ),
        ),
    )
    state_class = SpaceRaceState
    view_type = view_types.SpaceRaceView
    action_kinds = ACTION_KINDS
    event_specs = EVENT_SPECS
    phases = PHASES
    phase_names = PHASE_NAMES
    terminations = TERMINATION_NAMES

    components: SpaceRaceData
    tables: CardTables
    every_power_source: bool
    scanner_always: bool
    rounds: int  # the data's: rounds of the game
    hand_size: int  # the data's: Space cards dealt each round
    seats: tuple[int, ...]
    aid_card: tuple[int, ...]
    aid_stack: tuple[int, ...]
    aid_label: tuple[str, ...]
    aid_said: tuple[str, ...]
    aid_how: tuple[str, ...]
    giver: dict[int, tuple[int, ...]]
    only: tuple[tuple[int], ...]
    pick_ids: tuple[tuple[int, ...], ...]
    pick_actions: tuple[tuple[Action, ...], ...]  # the actions of pick_ids, card by card
    bid0: int
    bid_ids: tuple[tuple[int, ...], ...]
    bid_actions: tuple[tuple[Action, ...], ...]  # the actions of bid_ids
    _actions: list[Action]

    def _prepare(self) -> None:
        path = self.options["data"]
        self.components = load_data(None if path is None else str(path), self.players)
        t = self.tables = CardTables.build(self.components)
        self.every_power_source = bool(self.options["every_power_source"])
        self.scanner_always = self.options["scanner"] == "always"
        self.rounds, self.hand_size = self.components.rounds, self.components.hand_size
        max_bid = self.rounds * self.hand_size  # nobody can hold more cards than they picked
        n = self.players
        self.seats = tuple(range(n))
        self.only = tuple((s,) for s in range(n))  # event audiences of one seat
        # giver[d][s]: whose hand seat s receives when hands pass in direction d.
        self.giver = {d: tuple((s - d) % n for s in range(n)) for d in (1, -1)}
        actions: list[Action] = []
        card: list[int] = []
        stack: list[int] = []
        label: list[str] = []
        said: list[str] = []  # the same as a player says it, by the card's face
        picks: list[tuple[int, ...]] = [()]
        for c in t.space_ids:
            name = f"{t.space_name[c]} (#{c})"
            if t.type[c] == POWER_SOURCE:
                ways = [("cockpit", S_POWER_COCKPIT), ("engine", S_POWER_ENGINE)]
            else:
                ways = [("up", TYPE_STACK[t.type[c]])]
            ways.append(("fuel", S_FUEL))
            ids = []
            for kind, k in ways:
                ids.append(len(actions))
                actions.append(Action(kind, c))
                card.append(c)
                stack.append(k)
                label.append(f"{name} {HOW.get(k, 'face up')}")
                said.append(f"{t.space_name[c]} {HOW.get(k, 'face up')}")
            picks.append(tuple(ids))
        self.bid0 = len(actions)
        for b in range(max_bid + 1):
            actions.append(Action("bid", b))
            card.append(0)
            stack.append(-1)
            label.append(f"a bid of {b}")
            said.append(f"a bid of {b}")
        self._actions = actions
        self.aid_card = tuple(card)
        self.aid_stack = tuple(stack)
        self.aid_label = tuple(label)
        self.aid_said = tuple(said)
        self.aid_how = tuple(HOW.get(k, "face up") for k in stack)
        self.pick_ids = tuple(picks)
        self.pick_actions = tuple(tuple([actions[i] for i in p]) for p in picks)
        self.bid_ids = tuple(tuple(range(self.bid0, self.bid0 + k + 1)) for k in range(max_bid + 1))
        self.bid_actions = tuple(tuple([actions[i] for i in b]) for b in self.bid_ids)

    def _define_actions(self) -> Sequence[Action]:
        return self._actions

    @property
    def max_length(self) -> int:
        return self.rounds * (self.hand_size + 1) * self.players

    def catalog(self) -> dict[str, Any]:
        """Every card of this game's data as JSON-ready dicts, for UIs that draw the ids
        found in views and events: {"space": [...], "danger": [...], "damage": [...]}."""
        d = self.components
        return {
            "space": [
                {
                    "id": c.id,
                    "name": c.name,
                    "type": c.type,
                    "color": c.color,
                    "part": c.part,
                    "corner_vp": c.corner_vp,
                    "on_play": c.on_play,
                }
                for c in d.space
            ],
            "danger": [
                {
                    "id": c.id,
                    "name": c.name,
                    "kind": c.kind,
                    "ranks": [{"icon": r.icon, "n": r.n} for r in c.ranks],
                }
                for c in d.danger
            ],
            "damage": [{"id": c.id, "name": c.name, "vp": c.vp} for c in d.damage],
        }

    def describe_action(self, action: Action) -> str:
        """What the action does, naming the card: "Green Crystal (#22) face up: 1 VP"."""
        aid = self.table.id_of(action)
        if aid >= self.bid0:
            b = aid - self.bid0
            return ngettext(
                "bid {n} card of Fuel (Flight) or Crew (Fight)",
                "bid {n} cards of Fuel (Flight) or Crew (Fight)",
                b,
            ).format(n=b)
        c = self.aid_card[aid]
        label = words(self.aid_label[aid])
        if self.aid_stack[aid] == S_FUEL:
            return gettext("play {card}: Fuel for Flight bids and the most-Fuel bonus").format(
                card=label
            )
        return gettext("play {card}: {vp} VP").format(card=label, vp=self.tables.vp[c])
