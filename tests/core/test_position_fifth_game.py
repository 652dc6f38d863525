"""A game gets positions by declaring its reader and writer in its manifest: the example
game (Pebble Auction) through every generic part (a sealed choice under way,
a window, the card pool, undo)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import dragonlair
from dragonlair.core.position import (
    BadPosition,
    Fields,
    Pool,
    names_to_ids,
    open_choice,
    open_turn,
    open_window,
    to_toml,
    window_seats,
)
from dragonlair.core.rng import Rng
from tests.core.example_game import CARDS, PebbleAuction
from tests.core.pebble_auction.manifest import replaced

GAME = PebbleAuction.spec.id


class PebbleCodec:
    def write(self, st: Any) -> dict[str, Any]:
        out = {
            "phase": st.phase,
            "hands": [list(h) for h in st.hands],
            "deck": st.deck[::-1],  # top first
            "pot": st.pot,
            "points": list(st.points),
            "discards": list(st.discards),
        }
        if st.phase != "bid":
            out["winner"] = st.winner
        if st.phase == "objections":
            out["asked"] = window_seats(st)
        return out

    def read(self, st: Any, f: Fields, rng: Rng) -> None:
        n = st.game.players

        def card(x: object) -> int | None:
            return x if isinstance(x, int) and 1 <= x <= CARDS else None

        pool = Pool(range(1, CARDS + 1), lambda c: f"pebble {c}")
        st.phase = f.text("phase", ("bid", "claim", "objections"))
        parts = [pool.part(f"hands[{s}]", h, card) for s, h in enumerate(f.items("hands", size=n))]
        st.discards = tuple(names_to_ids("discards", f.items("discards", []), card))
        pool.take("discards", st.discards)
        st.hands = [tuple(sorted(pool.fill(f"hands[{s}]", p, rng))) for s, p in enumerate(parts)]
        top = names_to_ids("deck", f.items("deck", []), card)
        pool.take("deck", top)
        rest = pool.remaining()
        rng.shuffle(rest)
        st.deck = (top + rest)[::-1]
        st.pot = f.number("pot", 0, None, 0)
        st.points = list(f.items("points", size=n))
        st.winner = f.seat("winner", n, -1) if st.phase != "bid" else -1
        if st.phase == "bid":
            open_choice(st, [s for s, h in enumerate(st.hands) if h])
        elif st.phase == "claim":
            open_turn(st, (st.winner,))
        else:
            asked = f.items("asked")
            open_window(st, asked, CARDS + 3)  # ALLOW


CODEC = PebbleCodec()


@pytest.fixture
def codec() -> Iterator[None]:
    with replaced(GAME, position=f"{__name__}:CODEC"):
        yield


def test_a_game_whose_manifest_declares_no_position_format_has_none() -> None:
    state = dragonlair.make(GAME, players=3).new_game(seed=1)
    with pytest.raises(dragonlair.DragonlairError, match="has no position format"):
        state.to_position()
    with pytest.raises(dragonlair.DragonlairError, match="has no position format"):
        dragonlair.position(GAME, {"format": "dragonlair.position/1", "game": GAME})


def test_positions_of_a_fifth_game_round_trip_through_every_mechanism(codec: None) -> None:
    game = dragonlair.make(GAME, players=3)
    phases = set()
    for seed in range(20):
        state = game.new_game(seed=seed)
        rng = Rng(seed)
        for _ in range(rng.randbelow(12)):
            if state.is_over:
                break
            seat = state.to_act[rng.randbelow(len(state.to_act))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
        if state.is_over:
            continue
        doc = state.to_position()
        phases.add((state.phase, "chosen" in doc))
        again = dragonlair.position(GAME, to_toml(doc), seed=1)
        assert again.to_position() == doc and again.to_act == state.to_act
    assert {"claim", "objections"} <= {p for p, _ in phases} and ("bid", True) in phases


def test_a_fifth_games_bad_position_and_its_undo(codec: None) -> None:
    state = dragonlair.make(GAME, players=3).new_game(seed=3)
    doc = state.to_position()
    doc["discards"] = [doc["hands"][0][0]]
    with pytest.raises(BadPosition, match="twice") as e:
        dragonlair.position(GAME, doc)
    assert e.value.field == "discards"
    state = dragonlair.position(GAME, state.to_position(), seed=2)
    state.apply(0, state.legal_actions(0)[0])
    assert state.can_undo(0)  # a sealed bid, the others still bidding
    state.undo(0)
    assert 0 in state.to_act and dragonlair.replay(state.record).to_json() == state.to_json()
