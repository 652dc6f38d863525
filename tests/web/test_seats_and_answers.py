"""Seats people recognise and questions nobody has to answer: an invited seat waits for its
person (no takeover, no deadline) until they first arrive, they can set their name, the
server answers a seat's forced moves (a preference, on by default), and a finished table
offers a rematch with the same seats and a new deal."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from tests.web.serverkit import LiveServer, SeatClient, config, create_table, drive


def seats_messages(c: SeatClient) -> list[dict[str, Any]]:
    return [m for m in c.messages if m["type"] == "seats"]


def test_an_invited_seat_waits_for_its_person(db_url: str) -> None:
    live = LiveServer(config(db_url, away=0.05, deadline=0.2))
    try:
        created = create_table(
            live.http,
            game="dragon-stripes",
            players=2,
            seats=[{"type": "human", "name": "Ann"}, {"type": "human"}],
            seed=4,
        )
        tid = created["table"]["id"]

        async def main() -> None:
            ann = await SeatClient.open(live.ws, tid, created["seats"][0]["token"], 0)
            table = live.hub.tables[tid]
            # Ann plays until the friend's seat must make a real choice; it is never played
            # for, however long the friend takes, and has no deadline
            # (a move with one answer is answered for it, as for anyone: that is no takeover)
            for _ in range(200):
                st = ann.latest
                if 1 in st["view"]["to_act"]:
                    if len(table.state.legal_actions(1)) > 1:
                        break
                    await ann.wait(lambda m=st["move"]: ann.latest["move"] > m, "an answer")
                    continue
                await drive({0: ann}, random.Random(1), stop_after=st["move"] + 1)
            assert 1 in ann.latest["view"]["to_act"]
            assert len(table.state.legal_actions(1)) > 1
            stalled = ann.latest["move"]
            # nothing is due to happen by itself: no deadline, no away timer, no answer
            assert table.clocks.pending() == []
            await ann.settle()
            assert ann.latest["move"] == stalled and table.state.move == stalled
            assert not table.seats[1].bot_playing and table.deadline_at is None
            assert ann.latest["deadline"] is None
            assert seats_messages(ann)[-1]["seats"][1]["arrived"] is False
            # the friend arrives and names their seat: everyone sees the name
            bo = await SeatClient.open(live.ws, tid, created["seats"][1]["token"], 1)
            await ann.wait(
                lambda: seats_messages(ann)[-1]["seats"][1]["arrived"], "the friend's arrival"
            )
            await bo.send({"type": "name", "name": "  Bo\u0007 "})
            await ann.wait(lambda: seats_messages(ann)[-1]["seats"][1]["name"] == "Bo", "name")
            assert live.hub.store.load(tid).seats[1].name == "Bo"
            errors = len(bo.errors)
            await bo.send({"type": "name", "name": "\u0007"})
            assert (await bo.next_error(errors))["code"] == "bad_name"
            await bo.close()
            await ann.close()

        asyncio.run(main())
    finally:
        live.stop()


def test_without_waiting_an_invited_seat_is_taken_over(db_url: str) -> None:
    live = LiveServer(config(db_url, away=0.05))
    try:
        created = create_table(
            live.http,
            game="dragon-stripes",
            players=2,
            seats=[{"type": "human"}, {"type": "human"}],
            seed=4,
            wait_for_arrival=False,
        )
        assert created["table"]["settings"]["wait_for_arrival"] is False

        async def main() -> None:
            ann = await SeatClient.open(
                live.ws, created["table"]["id"], created["seats"][0]["token"], 0
            )
            await ann.wait(
                lambda: (
                    bool(seats_messages(ann)) and seats_messages(ann)[-1]["seats"][1]["bot_playing"]
                ),
                "the takeover",
            )
            await ann.close()

        asyncio.run(main())
    finally:
        live.stop()


def test_forced_moves_are_played_for_the_seat_unless_it_says_no(db_url: str) -> None:
    live = LiveServer(config(db_url))
    try:
        created = create_table(
            live.http,
            game="dragon-race",
            players=2,
            options={"turn_cap": 4},
            seats=[{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}],
            seed=7,
        )
        tid = created["table"]["id"]

        async def main() -> None:
            ann = await SeatClient.open(live.ws, tid, created["seats"][0]["token"], 0)
            welcome = next(m for m in ann.messages if m["type"] == "welcome")
            assert welcome["prefs"] == {"autoplay": True}
            # Ann never answers a question with one answer: the game still ends
            await drive({0: ann}, random.Random(3), auto={0})
            forced = [m for m in ann.states if len(m["legal"]) == 1 and m["status"] == "playing"]
            assert forced, "Ann should have been asked something with a single answer"
            typed = {m["ref"] for m in ann.states if "ref" in m}
            assert len(typed) < len([m for m in ann.states if m["legal"]])
            await ann.close()

        asyncio.run(main())
        # the same table with the preference off: nothing is scheduled for Ann
        created = create_table(
            live.http,
            game="dragon-race",
            players=2,
            options={"turn_cap": 4},
            seats=[{"type": "human", "name": "Ann"}, {"type": "bot", "level": "random"}],
            seed=7,
        )
        tid = created["table"]["id"]

        async def off() -> None:
            ann = await SeatClient.open(live.ws, tid, created["seats"][0]["token"], 0)
            await ann.send({"type": "prefs", "prefs": {"autoplay": False}})
            await ann.wait(
                lambda: any(
                    m["type"] == "prefs" and m["prefs"] == {"autoplay": False} for m in ann.messages
                ),
                "the preference",
            )
            table = live.hub.tables[tid]
            rng = random.Random(3)
            for _ in range(400):
                st = ann.latest
                if st["status"] == "over":
                    break
                if st["legal"] and len(st["legal"]) == 1:
                    assert not [p for p in table.clocks.pending() if "answer" in p], (
                        "nothing is answered for a seat that said no"
                    )
                await drive({0: ann}, rng, stop_after=st["move"] + 1)
            errors = len(ann.errors)
            await ann.send({"type": "prefs", "prefs": {"autoplay": "yes"}})
            assert (await ann.next_error(errors))["code"] == "bad_message"
            await ann.close()

        asyncio.run(off())
    finally:
        live.stop()


def test_a_rematch_has_the_same_seats_and_a_new_deal(db_url: str) -> None:
    live = LiveServer(config(db_url))
    try:
        created = create_table(
            live.http,
            game="dragon-stripes",
            players=3,
            seats=[
                {"type": "human", "name": "Ann"},
                {"type": "human", "name": "Bo"},
                {"type": "bot", "level": "random"},
            ],
            seed=5,
        )
        tid = created["table"]["id"]

        async def main() -> None:
            ann = await SeatClient.open(live.ws, tid, created["seats"][0]["token"], 0)
            bo = await SeatClient.open(live.ws, tid, created["seats"][1]["token"], 1)
            errors = len(ann.errors)
            await ann.send({"type": "rematch"})
            assert (await ann.next_error(errors))["code"] == "not_over"
            await drive({0: ann, 1: bo}, random.Random(2))
            await ann.send({"type": "rematch"})
            got: dict[int, dict[str, Any]] = {}
            for i, c in ((0, ann), (1, bo)):
                await c.wait(
                    lambda c=c: any(m["type"] == "rematch" for m in c.messages),
                    f"the rematch ({ann.errors})",
                    timeout=15,
                )
                got[i] = next(m for m in c.messages if m["type"] == "rematch")
            assert got[0]["table"] == got[1]["table"] != tid and got[0]["by"] == 0
            assert got[0]["link"] != got[1]["link"]  # each seat its own token
            new = live.hub.tables[got[0]["table"]]
            old = live.hub.tables.get(tid) or live.hub.finished[tid]
            assert [(s.kind, s.name, s.level) for s in new.seats] == [
                (s.kind, s.name, s.level) for s in old.seats
            ]
            assert new.seed != old.seed and new.settings == old.settings
            # asking again gives the same table; Bo's token opens Bo's new seat
            await bo.send({"type": "rematch"})
            await bo.wait(
                lambda: sum(m["type"] == "rematch" for m in bo.messages) >= 2, "the same answer"
            )
            assert [m for m in bo.messages if m["type"] == "rematch"][-1] == got[1]
            token = got[1]["link"].split("#", 1)[1]
            again = await SeatClient.open(live.ws, got[1]["table"], token, 1)
            assert again.latest["seat"] == 1
            for c in (ann, bo, again):
                await c.close()

        asyncio.run(main())
    finally:
        live.stop()
