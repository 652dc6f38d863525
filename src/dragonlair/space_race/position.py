"""Space Race positions (see ``docs/rules/space-race.md``, "Positions").

Cards are written by id, as the views show them (Space, Danger and Damage cards each have
their own ids). Decks are written top first. Every hidden part (a hand, a ship's Fuel and
spent Fuel cards, the Space, Danger and Damage decks) may be written in full, as a number
(how many, dealt at random from what is left) or, for the decks, left out (the rest).
"""

from __future__ import annotations

from typing import Any

from dragonlair.core.position import (
    BadPosition,
    Fields,
    Pool,
    check_int,
    names_to_ids,
    open_choice,
)
from dragonlair.core.rng import Rng

from .cards import (
    FLIGHT,
    NSTACK,
    POWER_SOURCE,
    S_DAMAGE,
    S_FUEL,
    STACKS,
    TYPE_STACK,
)
from .rules import SpaceRaceState

UPGRADE, DANGER = "upgrade", "danger"  # the phases a position can be in
PHASES = (UPGRADE, DANGER)
_OPEN = tuple(k for k in range(NSTACK) if k not in (S_FUEL, S_DAMAGE))


def write(st: SpaceRaceState) -> dict[str, Any]:
    n = st.game.players
    out: dict[str, Any] = {"phase": st.phase, "round": st.round}
    if st.phase == UPGRADE:
        out["pick"] = st.pick
    out["direction"] = "left" if st.direction == 1 else "right"
    out["hands"] = [list(h) for h in st.hands]
    ships = []
    for s in range(n):
        base = s * NSTACK
        ship: dict[str, Any] = {STACKS[k]: list(st.ships[base + k]) for k in _OPEN}
        ship["fuel"] = list(st.ships[base + S_FUEL])
        ship["spent_fuel"] = list(st.spent_fuel[s])
        ship["damage"] = list(st.ships[base + S_DAMAGE])
        ships.append(ship)
    out["ships"] = ships
    out["crew_discard"] = list(st.crew_discard)
    out["space_deck"] = st.space_deck[::-1]
    if st.danger:
        out["danger"] = st.danger
    out["danger_deck"] = st.danger_deck[::-1]
    out["danger_discard"] = list(st.danger_discard)
    out["seen_top"] = [s for s in range(n) if st.seen_top >> s & 1]
    out["damage_deck"] = st.damage_deck[::-1]
    out["damage_removed"] = list(st.damage_removed)
    if st.bids:
        out["bids"] = list(st.bids)
    return out


def _ids(known: tuple[int, ...]) -> Any:
    valid = set(known)

    def lookup(x: object) -> int | None:
        return x if isinstance(x, int) and not isinstance(x, bool) and x in valid else None

    return lookup


def read(st: SpaceRaceState, f: Fields, rng: Rng) -> None:
    """Read a position into the blank state ``st``: the phase, round and pick, the Space
    cards (ships, hands, the deck), the Danger cards, the Damage cards and the bids;
    BadPosition names the first field that is wrong."""
    g = st.game
    t = g.tables
    n = g.players
    damage_card = _ids(t.damage_ids)
    st.phase = f.text("phase", PHASES)
    upgrade = st.phase == UPGRADE
    st.round = f.number("round", 1, g.rounds)
    st.pick = f.number("pick", 1, g.hand_size) if upgrade else g.hand_size
    st.direction = 1 if f.text("direction", ("left", "right")) == "left" else -1
    damage = Pool(t.damage_ids, lambda c: f"Damage card {c}")
    _read_space(st, f, rng, damage)
    _read_dangers(st, f, rng)
    removed = names_to_ids("damage_removed", f.items("damage_removed", []), damage_card)
    damage.take("damage_removed", removed)
    st.damage_removed = tuple(removed)
    dtop = names_to_ids("damage_deck", f.items("damage_deck", []), damage_card)
    damage.take("damage_deck", dtop)
    rest = damage.remaining()
    rng.shuffle(rest)
    st.damage_deck = (dtop + rest)[::-1]
    bids = f.items("bids", [])
    st.bids = tuple(check_int(f"bids[{i}]", b, 0) for i, b in enumerate(bids))
    if st.bids and len(st.bids) != n:
        raise BadPosition("bids", f"should be one bid per seat ({n})")
    if upgrade:
        open_choice(st, g.seats)
    else:
        stack = st._bid_stack()
        bidders = [s for s in range(n) if st.ships[s * NSTACK + stack]]
        if not bidders:
            what = "Fuel" if t.danger_kind[st.danger] == FLIGHT else "Crew"
            raise BadPosition("ships", f"nobody has {what} to bid: the Danger resolves at once")
        open_choice(st, bidders)


def _read_space(st: SpaceRaceState, f: Fields, rng: Rng, damage: Pool) -> None:
    """The Space cards, each in one place: each ship's stacks (with its Damage cards, taken
    from ``damage``), its Fuel, the Crew discard, the hands and the deck."""
    g = st.game
    t = g.tables
    n = g.players
    space, damage_card = _ids(t.space_ids), _ids(t.damage_ids)
    upgrade = st.phase == UPGRADE
    pool = Pool(t.space_ids, lambda c: f"Space card {c} ({t.space_name[c]})")
    ships: list[tuple[int, ...]] = [()] * (n * NSTACK)
    hidden: list[tuple[int, Any, Any]] = []
    for s, raw in enumerate(f.items("ships", size=n)):
        ship = Fields(raw, f"ships[{s}]")
        base = s * NSTACK
        for k in _OPEN:
            name = ship.name(STACKS[k])
            cards = names_to_ids(name, ship.items(STACKS[k], []), space)
            pool.take(name, cards)
            for c in cards:
                kind = t.type[c]
                fits = k in (3, 4) if kind == POWER_SOURCE else TYPE_STACK[kind] == k
                if not fits:
                    raise BadPosition(name, f"{t.space_name[c]} ({c}) does not go in {STACKS[k]}")
            ships[base + k] = tuple(cards)
        dmg = names_to_ids(ship.name("damage"), ship.items("damage", []), damage_card)
        damage.take(ship.name("damage"), dmg)
        ships[base + S_DAMAGE] = tuple(dmg)
        fuel = pool.part(ship.name("fuel"), ship.raw("fuel", 0), space)
        spent = pool.part(ship.name("spent_fuel"), ship.raw("spent_fuel", 0), space)
        hidden.append((s, fuel, spent))
        ship.finish()
    crew = names_to_ids("crew_discard", f.items("crew_discard", []), space)
    pool.take("crew_discard", crew)
    st.crew_discard = tuple(crew)
    size = g.hand_size + 1 - st.pick if upgrade else 0
    hand_parts = []
    for s, h in enumerate(f.items("hands", [size] * n, size=n)):
        part = pool.part(f"hands[{s}]", h, space)
        got = len(part) if isinstance(part, list) else part
        if got != size:
            raise BadPosition(f"hands[{s}]", f"has {got} cards; expected {size} at this point")
        hand_parts.append(part)
    deck_part = pool.part("space_deck", f.raw("space_deck", None), space, -1)
    st.hands = [tuple(sorted(pool.fill(f"hands[{s}]", p, rng))) for s, p in enumerate(hand_parts)]
    spent_fuel: list[tuple[int, ...]] = []
    for s, fuel, spent in hidden:
        ships[s * NSTACK + S_FUEL] = tuple(pool.fill(f"ships[{s}].fuel", fuel, rng))
        spent_fuel.append(tuple(pool.fill(f"ships[{s}].spent_fuel", spent, rng)))
    st.spent_fuel = spent_fuel
    st.ships = ships
    deck = deck_part if isinstance(deck_part, list) else []
    rest = pool.remaining()
    rng.shuffle(rest)
    st.space_deck = (deck + rest)[::-1]  # kept top last


def _read_dangers(st: SpaceRaceState, f: Fields, rng: Rng) -> None:
    """The Danger cards: the one in play, the used ones (one a round so far), the deck's
    top and who has seen it."""
    t = st.game.tables
    n = st.game.players
    danger_card = _ids(t.danger_ids)
    upgrade = st.phase == UPGRADE
    dangers = Pool(t.danger_ids, lambda c: f"Danger card {c}")
    st.danger = f.number("danger", None, None, 0) if not upgrade else 0
    if not upgrade:
        if danger_card(st.danger) is None:
            raise BadPosition("danger", "the Danger phase needs the Danger card in play")
        dangers.take("danger", [st.danger])
    discard = names_to_ids("danger_discard", f.items("danger_discard", []), danger_card)
    dangers.take("danger_discard", discard)
    if len(discard) != st.round - 1:
        raise BadPosition("danger_discard", f"in round {st.round}, {st.round - 1} Dangers are used")
    st.danger_discard = tuple(discard)
    top = names_to_ids("danger_deck", f.items("danger_deck", []), danger_card)
    dangers.take("danger_deck", top)
    rest = dangers.remaining()
    rng.shuffle(rest)
    st.danger_deck = (top + rest)[::-1]
    seen = [check_int(f"seen_top[{i}]", s, 0, n - 1) for i, s in enumerate(f.items("seen_top", []))]
    if seen and not top:
        raise BadPosition("seen_top", "a seat knows the top Danger card: write it in danger_deck")
    st.seen_top = sum(1 << s for s in set(seen))
