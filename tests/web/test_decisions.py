"""A decision made on a state a moment old: accepted while it is still the seat's own
decision, refused with a reason otherwise.

During simultaneous picks the others' picks arrive one move at a time, and a browser shows
them at the table's pace, so a person's click often carries a move number a few moves old.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dragonlair.core import make
from dragonlair.web.table.decisions import Decisions
from dragonlair.web.table.windows import Windows
from tests.web.serverkit import LiveServer, config, create_table, open_all


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("decisions") / "t.sqlite3"
    server = LiveServer(config(f"sqlite:///{db}"))
    yield server
    server.stop()


@pytest.mark.parametrize(("game", "players"), [("space-race", 2), ("space-dragons", 3)])
def test_a_pick_made_before_the_others_picks_arrived_is_accepted(
    live: LiveServer, game: str, players: int
) -> None:
    seats = [{"type": "human", "name": f"P{i}"} for i in range(players)]
    created = create_table(live.http, game=game, players=players, seats=seats, seed=5)

    async def main() -> None:
        clients = await open_all(live.ws, created)
        first = clients[0].latest
        move = first["move"]
        assert set(first["view"]["to_act"]) == set(range(players))
        # every other seat picks first, each at the move it was dealt at...
        for seat in range(1, players):
            c = clients[seat]
            await c.act(move, c.latest["legal"][0])
            await c.wait_move(move + seat, "the pick applied")
        # ...and seat 0, still looking at the first state, picks from it: accepted
        picked = first["legal"][-1]
        await clients[0].act(move, picked, ref=7)
        c0 = clients[0]
        await c0.wait(lambda: any(m.get("ref") == 7 for m in c0.states), "the own update")
        await c0.settle()
        assert c0.errors == []
        table = live.hub.tables[created["table"]["id"]]
        assert table.state.record.actions[players - 1] == (0, picked)
        # the same seat again at the old move: its decision has moved on, and it is told why
        await c0.act(move, picked)
        err = await c0.next_error(0)
        assert err["code"] == "stale_move"
        assert "since then" in err["message"], err
        assert table.state.move >= move + players
        for c in clients.values():
            await c.close()

    asyncio.run(main())


def test_a_turn_game_refuses_an_action_from_before_another_seat_moved() -> None:
    """Outside a sealed choice a seat's decision dates from the move it was asked at: what
    another seat did in between is on the table for it to see."""
    g = make("dragon-race", players=2)
    st = g.new_game(5)
    d = Decisions()
    d.reset(st)
    assert d.current(0, st.move, st.move)
    start = st.move
    while st.to_act == (0,):
        seat = st.to_act[0]
        st.apply(seat, st.legal_actions(seat)[0])
        d.advance(st, seat)
    asker = st.to_act[0]
    # whoever is asked now is asked from this move on, not from before
    assert d.since(asker) == st.move
    assert not d.current(asker, start, st.move)
    assert "since then" in d.why_stale(asker, start, st.move)


def test_a_seat_that_picked_or_whose_choices_changed_dates_from_now() -> None:
    g = make("space-race", players=2)
    st = g.new_game(5)
    d = Decisions()
    d.reset(st)
    m0 = st.move
    st.apply(1, st.legal_actions(1)[0])
    d.advance(st, 1)
    assert d.since(0) == m0 and d.current(0, m0, st.move)
    assert d.since(1) is None  # seat 1 has picked: it is not asked
    assert not d.current(1, m0, st.move)
    st.apply(0, st.legal_actions(0)[0])
    d.advance(st, 0)
    for s in st.to_act:  # a new choice (or whatever follows) dates from now
        assert d.since(s) == st.move
        assert not d.current(s, m0, st.move)


def test_a_window_ends_at_its_length_whoever_holds_what() -> None:
    """The window part on a clock the test moves: a seat holding a HALT! card and one
    holding none are released at the same moment; only a person's own HALT! is not held."""
    clock = [100.0]
    g = make("dragon-race", players=3)
    released = []
    for seed in range(40):
        st = g.new_game(seed)
        while not st.is_over and (len(st.to_act) != 1 or st.default_action(st.to_act[0]) is None):
            s = st.to_act[0]
            st.apply(s, st.legal_actions(s)[0])
        w = Windows(1.5, now=lambda: clock[0])
        w.update(st)
        seat = st.to_act[0]
        default = st.default_action(seat)
        assert default is not None
        others = [a for a in st.legal_actions(seat) if a != default]
        released.append((bool(others), w.release_at(seat, st.move)))
        assert w.holds(seat, st.move, default, "player")
        assert w.holds(seat, st.move, default, "auto") and w.holds(seat, st.move, default, "bot")
        for halt in others:
            assert not w.holds(seat, st.move, halt, "player")
            assert w.holds(seat, st.move, halt, "bot")
        assert not w.is_open(seat, st.move + 1) and w.release_at(seat, st.move + 1) is None
        clock[0] += 0.5
        assert w.wait_time(seat, st.move) == 1.0  # the same window, asked half a second ago
        clock[0] -= 0.5
    assert {held for held, _ in released} == {True, False}, "both kinds of seat are tried"
    assert {at for _, at in released} == {101.5}
