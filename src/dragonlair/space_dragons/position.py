"""Space Dragons positions (see ``docs/rules/space-dragons.md``, "Positions").

Crew cards and dragons are written by number (1-80 and 1-20), as the views show them.
Every hidden part (a hand, face-down picks, the draw pile, the cards tucked under the
ships, the lair, the ships' dragon sides, the box) may be written in full, as a number
(how many, dealt at random from what is left) or, where its size follows from the rest,
left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dragonlair.core.position import (
    BadPosition,
    Fields,
    Pool,
    check_int,
    names_to_ids,
    open_choice,
    open_turn,
)
from dragonlair.core.rng import Rng

from .cards import CREW_CARDS, DRAGONS, SIDES, SYMBOLS

if TYPE_CHECKING:
    from .rules import SpaceDragonsState

PHASES = ("hire", "hunt")


def write(st: SpaceDragonsState) -> dict[str, Any]:
    n = st.game.players
    out: dict[str, Any] = {
        "phase": st.phase,
        "round": st.round,
        "lead": st.lead,
        "sides": {s: SIDES[st.sides[k]] for k, s in enumerate(SYMBOLS)},
        "start_cards": list(st.start_cards),
        "hands": [list(h) for h in st.hands],
    }
    if st.phase == "hire":
        out["picks"] = [list(p) for p in st.picks]
    out["played"] = [list(p) for p in st.played]
    out["shields"] = list(st.shields)
    out["damage"] = list(st.damage)
    out["tucked"] = list(st.pile[: st.taken])
    out["pile"] = list(st.pile[st.taken :])
    out["face_up"] = st.face_up
    out["lair"] = list(st.lair)
    out["claimed"] = [list(c) for c in st.claimed]
    out["ships"] = list(st.ships)
    out["box"] = list(st.box)
    assert len(out["hands"]) == n
    return out


def _number(top: int) -> Any:
    def lookup(x: object) -> int | None:
        if isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= top:
            return x
        return None

    return lookup


def _per_seat(f: Fields, key: str, n: int, default: Any = ...) -> list[Any]:
    raw = f.items(key, [default] * n if default is not ... else ..., size=n)
    return list(raw)


def read(st: SpaceDragonsState, f: Fields, rng: Rng) -> None:
    """Read a position into the blank state ``st``: the phase and round, the sides, the crew
    cards (hands, picks, played, the pile) and the dragons; BadPosition names the first
    field that is wrong."""
    g = st.game
    st.phase = f.text("phase", PHASES)
    if st.phase == "hire" and g.variant:
        raise BadPosition("phase", "the designer's variant has no Hiring Crew")
    st.round = f.number("round", 0, g.rounds - 1, 0)
    if st.phase == "hire" and st.round:
        raise BadPosition("round", "Hiring Crew comes before the first round")
    st.lead = f.seat("lead", g.players)
    st.sides = _read_sides(st, f.sub("sides", None))
    done = _read_crew(st, f, rng)
    _read_dragons(st, f, rng)
    if st.phase == "hire":
        open_choice(st, g.seats)
    else:
        open_turn(st, ((st.lead + done) % g.players,))


def _read_sides(st: SpaceDragonsState, sides: Fields | None) -> tuple[int, ...]:
    """The side of each symbol's scoring card: as the table plays it, or as the position
    says where the table draws it at random."""
    g = st.game
    chosen_sides = []
    for k, symbol in enumerate(SYMBOLS):
        option = g.side_options[k]
        if sides is not None and sides.has(symbol):
            side = sides.text(symbol, SIDES)
            if option not in ("random", side):
                raise sides.fail(symbol, f"is {side!r}, but this table plays side {option!r}")
        elif option == "random":
            raise BadPosition(f"sides.{symbol}", "is missing (the table draws it at random)")
        else:
            side = option
        chosen_sides.append(SIDES.index(side))
    if sides is not None:
        sides.finish()
    return tuple(chosen_sides)


def _read_crew(st: SpaceDragonsState, f: Fields, rng: Rng) -> int:
    """The crew cards: start cards, played, picks, hands, the tucked cards and the pile,
    each card in one place; the shields and damage. How many seats have played this
    round."""
    g = st.game
    n = g.players
    crew = _number(CREW_CARDS)
    hire = st.phase == "hire"
    hand = g.hand_size
    pool = Pool(range(1, CREW_CARDS + 1), lambda c: f"crew card {c}")
    start = names_to_ids("start_cards", f.items("start_cards", size=n), crew)
    pool.take("start_cards", start)
    st.start_cards = tuple(start)
    played_raw = _per_seat(f, "played", n, [])
    played = []
    for s, p in enumerate(played_raw):
        cards = names_to_ids(f"played[{s}]", p, crew)
        pool.take(f"played[{s}]", cards)
        played.append(tuple(cards))
    st.played = played
    done = _hunt_done(st, played)
    picks_done = 0
    pick_parts: list[list[int] | int] = []
    if hire:
        raw_picks = _per_seat(f, "picks", n, None)
        sizes = {len(p) for p in raw_picks if isinstance(p, list)} | {
            p for p in raw_picks if isinstance(p, int) and not isinstance(p, bool)
        }
        if len(sizes) > 1:
            raise BadPosition("picks", "every seat has made the same number of picks")
        picks_done = sizes.pop() if sizes else 0
        if picks_done >= hand:
            raise BadPosition("picks", f"at most {hand - 1} picks are made before the hunt")
        for s, p in enumerate(raw_picks):
            pick_parts.append(pool.part(f"picks[{s}]", p, crew, picks_done))
    hand_size = [hand - picks_done if hire else hand - len(played[s]) for s in range(n)]
    hand_parts: list[list[int] | int] = []
    for s, h in enumerate(_per_seat(f, "hands", n, None)):
        part = pool.part(f"hands[{s}]", h, crew, hand_size[s])
        size = len(part) if isinstance(part, list) else part
        if size != hand_size[s]:
            raise BadPosition(f"hands[{s}]", f"has {size} cards; expected {hand_size[s]}")
        hand_parts.append(part)
    tucked_part = pool.part("tucked", f.raw("tucked", None), crew, None) if f.has("tucked") else 0
    pile_part = pool.part("pile", f.raw("pile", None), crew, None) if f.has("pile") else None
    st.hands = [tuple(sorted(pool.fill(f"hands[{s}]", p, rng))) for s, p in enumerate(hand_parts)]
    st.picks = [tuple(pool.fill(f"picks[{s}]", p, rng)) for s, p in enumerate(pick_parts)]
    if not hire:
        st.picks = [()] * n
    tucked = pool.fill("tucked", tucked_part, rng)
    if pile_part is None:
        pile_part = len(pool.remaining())
    pile = pool.fill("pile", pile_part, rng)
    if pool.remaining():
        raise BadPosition(
            "pile", f"crew cards {sorted(pool.remaining())} are nowhere: every card is somewhere"
        )
    st.pile = tuple(tucked + pile)
    st.taken = len(tucked)
    st.shields = [
        check_int(f"shields[{s}]", v, 0) for s, v in enumerate(_per_seat(f, "shields", n, 0))
    ]
    st.damage = [
        check_int(f"damage[{s}]", v, 0) for s, v in enumerate(_per_seat(f, "damage", n, 0))
    ]
    return done


def _hunt_done(st: SpaceDragonsState, played: list[tuple[int, ...]]) -> int:
    """How many seats have played this round, checking that the seats from the lead on
    have played, up to the one to act (none during Hiring Crew)."""
    n = st.game.players
    if st.phase == "hire":
        if any(played):
            raise BadPosition("played", "no crew is played during Hiring Crew")
        return 0
    done = 0
    for j in range(n):
        s = (st.lead + j) % n
        if len(played[s]) == st.round + 1:
            done += 1
        elif len(played[s]) != st.round or any(
            len(played[(st.lead + k) % n]) != st.round for k in range(j, n)
        ):
            raise BadPosition(
                f"played[{s}]",
                f"has {len(played[s])} cards: in round {st.round + 1} the seats from "
                f"the lead ({st.lead}) on have played {st.round + 1}, the others {st.round}",
            )
    if done == n:
        raise BadPosition("played", "every seat has played this round: the round is over")
    return done


def _read_dragons(st: SpaceDragonsState, f: Fields, rng: Rng) -> None:
    """The dragons: claimed (one a round so far), face up, in the lair, on the ships and
    in the box, each in one place."""
    n = st.game.players
    rounds = st.game.rounds
    dragon = _number(DRAGONS)
    dragons = Pool(range(1, DRAGONS + 1), lambda d: f"dragon {d}")
    claimed = []
    for s, c in enumerate(_per_seat(f, "claimed", n, [])):
        ds = names_to_ids(f"claimed[{s}]", c, dragon)
        dragons.take(f"claimed[{s}]", ds)
        claimed.append(tuple(ds))
    if sum(len(c) for c in claimed) != st.round:
        raise BadPosition("claimed", f"after {st.round} rounds, {st.round} dragons are claimed")
    st.claimed = claimed
    st.face_up = f.number("face_up", 1, DRAGONS)
    dragons.take("face_up", [st.face_up])
    lair_part = dragons.part("lair", f.raw("lair", None), dragon, rounds - 1 - st.round)
    ships_part = dragons.part("ships", f.raw("ships", None), dragon, n)
    lair = dragons.fill("lair", lair_part, rng)
    if len(lair) != rounds - 1 - st.round:
        raise BadPosition("lair", f"holds {rounds - 1 - st.round} dragons in round {st.round + 1}")
    ships = dragons.fill("ships", ships_part, rng)
    if len(ships) != n:
        raise BadPosition("ships", f"should be {n} dragons, one per spaceship")
    box = dragons.fill(
        "box", dragons.part("box", f.raw("box", None), dragon, len(dragons.remaining())), rng
    )
    if dragons.remaining():
        raise BadPosition("box", f"dragons {sorted(dragons.remaining())} are nowhere")
    st.lair, st.ships, st.box = tuple(lair), tuple(ships), tuple(box)
