"""A Confirm at the end of a turn: at a table created with ``confirm_turn``, a person's
decisions stay held, shown to that seat alone and taken back by undo, until the person
confirms them; bots and spectators see nothing of them before, and nothing can be taken
back after. Played through whole games of every game, with an undo of every kind of
decision the person is offered."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

import dragonlair
from tests.games import OWN_GAMES
from tests.web.serverkit import LiveServer, SeatClient, config, create_table


def kind(action: str) -> str:
    """A decision's kind: its action's first word (``take``, ``pick``, ``bid``, ``pass``)."""
    return action.split(maxsplit=1)[0]


def practice(server: LiveServer, game: str, **body: Any) -> dict[str, Any]:
    """Seat 1 a person, the others heuristic bots; undo with a Confirm at the turn's end."""
    seats: list[dict[str, Any]] = [{"type": "bot", "level": "heuristic"}] * 3
    seats[1] = {"type": "human", "name": "Me"}
    return create_table(
        server.http, game=game, players=3, seats=seats, seed=3, confirm_turn=True, **body
    )


async def answered(c: SeatClient, ref: str, states: int, errors: int) -> dict[str, Any] | None:
    """The state answering the message sent with ``ref`` once ``c`` had ``states`` states
    and ``errors`` errors, or None when it was refused."""

    def found() -> dict[str, Any] | None:
        return next((m for m in c.states[states:] if m.get("ref") == ref), None)

    await c.wait(lambda: found() is not None or len(c.errors) > errors, f"the answer to {ref}")
    return found()


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", [g for g in OWN_GAMES if g in dragonlair.games()])
def test_every_kind_of_decision_is_taken_back_until_confirmed_and_none_after(
    sqlite_url: str, game: str
) -> None:
    server = LiveServer(config(sqlite_url))
    try:
        created = practice(server, game)
        settings = created["table"]["settings"]
        assert settings["confirm_turn"] is True and settings["confirm"] == 0.0
        tid = created["table"]["id"]
        table = server.hub.tables[tid]
        me = next(p for p in created["seats"] if p["seat"] == 1)
        rng = random.Random(5)
        offered: set[str] = set()
        undone: set[str] = set()
        confirmed = played = 0

        def mine() -> int:
            """My decisions in the committed record."""
            return sum(1 for s, _ in table.state.record.actions if s == 1)

        async def main() -> None:
            nonlocal confirmed, played
            c = await SeatClient.open(server.ws, tid, me["token"], 1)
            w = await SeatClient.open(server.ws, tid, created["watch"]["token"], None)
            n = 0
            while True:
                m = c.latest
                if m["status"] == "over":
                    break
                if "held" in m and not m["legal"]:
                    # my turn is over in my own game (or a draw waits to be seen): the
                    # committed game has not moved, nobody was told, nothing was stored
                    assert m["held"]["turn"] is True and m["held"]["until"] is None
                    await w.settle()
                    seen = w.latest["move"]
                    assert mine() == played and seen <= table.state.move
                    errors = len(c.errors)
                    await c.send({"type": "confirm", "move": m["move"]})
                    # confirmed: played and stored (or dropped, with a word, where the bots'
                    # sealed picks left it unplayable), and it cannot be taken back
                    await c.wait(
                        lambda p=played, e=errors: (
                            "held" not in c.latest and (mine() > p or len(c.errors) > e)
                        ),
                        "the confirmation",
                    )
                    dropped = [e["code"] for e in c.errors[errors:]]
                    assert mine() > played or dropped == ["hold_dropped"], dropped
                    confirmed += 1
                    errors = len(c.errors)
                    await c.send({"type": "undo", "move": c.latest["move"]})
                    err = await c.next_error(errors)
                    # my last decision ended the game, or the bots' moves that followed
                    # it did before the undo was answered (the error names the move it
                    # was answered at)
                    ended = table.status == "over" and err["move"] == table.state.move
                    assert err["code"] == ("not_playing" if ended else "cannot_undo"), err
                    continue
                if not m["legal"]:
                    await c.wait(lambda m=m: c.latest is not m, "my turn")
                    continue
                legal = m["legal"]
                kinds = {kind(a): a for a in legal}
                offered.update(kinds)
                # each kind offered for the first time is decided, then taken back
                for k, action in kinds.items():
                    if k in undone:
                        continue
                    n += 1
                    states, errors = len(c.states), len(c.errors)
                    await c.act(m["move"], action, ref=f"a{n}")
                    held = await answered(c, f"a{n}", states, errors)
                    if held is None:
                        break  # the bots' sealed picks moved the game on: decide again
                    assert held["held"]["decisions"] >= 1 and held["offers"]["can_undo"]
                    if held["held"]["decisions"] == 1:
                        played = mine()  # (a forced pass may be answered for me before)
                    states = len(c.states)
                    await c.send({"type": "undo", "move": held["move"]})
                    back = await answered(c, "undo", states, errors)
                    assert back is not None, c.errors[errors:]
                    assert sorted(back["legal"]) == sorted(legal), (action, back["legal"])
                    if back["move"] == m["move"]:
                        assert back["view"] == m["view"]
                    undone.add(k)
                legal = c.latest["legal"]
                if not legal:
                    continue
                n += 1
                states, errors = len(c.states), len(c.errors)
                await c.act(c.latest["move"], rng.choice(legal), ref=f"a{n}")
                held = await answered(c, f"a{n}", states, errors)
                if held is not None and held["held"]["decisions"] == 1:
                    played = mine()
            await c.close()
            await w.close()

        asyncio.run(main())
    finally:
        server.stop()
    assert confirmed > 0
    assert undone == offered, f"offered {sorted(offered)}, taken back {sorted(undone)}"
    final = table.state
    assert final.is_over
    assert dragonlair.replay(final.record).to_json() == final.to_json()


def test_a_confirm_at_the_end_of_a_turn_is_for_a_table_with_undo(live: LiveServer) -> None:
    seats = [{"type": "human"}, {"type": "bot"}]
    for body in (
        {"undo": False, "confirm_turn": True},
        {"confirm_turn": True, "confirm": 5.0},
        {"confirm_turn": "yes"},
        {"seats": [{"type": "human"}, {"type": "open"}], "confirm_turn": True},
    ):
        r = httpx.post(
            f"{live.http}/api/tables",
            json={"game": "dragon-stripes", "seats": seats} | body,
            timeout=60,
        )
        assert r.status_code in (400, 422), (body, r.text)
    assert not live.hub.tables  # nothing was made
