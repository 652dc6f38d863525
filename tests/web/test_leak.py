"""The leak test over the wire: every message a seat receives must be rebuilt, identical,
from a world in which everything that seat cannot see was redrawn.

For each state message a client got, we take the view in it and let the game's own
hidden-state sampler (``game.sample_state``) redraw everything the seat cannot see: other
hands, the deck, others' sealed choices. Events are not part of a state a sampler can
rebuild, so we redraw them too: every event the seat may not see in full has its hidden
fields replaced by random values (what the event table marks public stays). Then the
server's own message builder, :func:`dragonlair.web.protocol.state_message`, runs on that
counterfactual world with the same public facts (move, event cursor, deadline), and its
output must equal, field for field, what went over the wire. Anything the server let slip
(another seat's view, its legal actions, an event's hidden field, a raw state field)
would differ between the two worlds.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

import dragonlair
from dragonlair.core import Action, Game, State
from dragonlair.core.events import event_dict
from dragonlair.web.protocol import state_message
from tests.games import OWN_GAMES
from tests.web.serverkit import LiveServer, SeatClient, config, create_table, drive, open_all
from tests.web.test_play import game_settings, seats_for

Event = tuple[str, tuple[Any, ...], tuple[int, ...] | None] | None


def raw_events(state: State) -> list[Event]:
    """Each event's kind, full values and audience, found through the public surface
    (None for an event nobody sees)."""
    players = state.game.players
    seen: dict[int | None, dict[int, dict[str, Any]]] = {
        s: {e["seq"]: e for e in state.events_since(0, s)} for s in [*range(players), None]
    }
    out: list[Event] = []
    for seq in range(state.event_count):
        versions = {s: seen[s].get(seq) for s in seen}
        full = next((e for e in versions.values() if e is not None and not e.get("redacted")), None)
        some = full or next((e for e in versions.values() if e is not None), None)
        if some is None:
            out.append(None)
            continue
        spec = state.game.event_specs[some["type"]]
        values = tuple(some.get(f) for f in spec.fields)
        full_seats = [
            s for s, e in versions.items() if s is not None and e and not e.get("redacted")
        ]
        spectator = versions[None]
        everyone = spectator is not None and not spectator.get("redacted")
        out.append((some["type"], values, None if everyone else tuple(full_seats)))
    return out


def redraw(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return rng.random() < 0.5
    if isinstance(value, int):
        return rng.randrange(-1000, 1000)
    if isinstance(value, str):
        return "".join(rng.choice("abcdefgh") for _ in range(rng.randrange(1, 8)))
    if isinstance(value, list):
        return [rng.randrange(100) for _ in range(rng.randrange(6))]
    return rng.randrange(1000)


class Counterfactual:
    """A sampled state plus an event log with the seat's hidden fields redrawn."""

    def __init__(
        self,
        game: Game,
        sampled: State,
        events: list[Event],
        seat: int | None,
        rng: random.Random,
    ) -> None:
        self.game = game
        self.sampled = sampled
        self.events: list[Event] = []
        for ev in events:
            if ev is None:
                self.events.append(None)
                continue
            kind, values, audience = ev
            if audience is not None and (seat is None or seat not in audience):
                public = game.event_specs[kind].public or ()
                fields = game.event_specs[kind].fields
                values = tuple(
                    v if f in public else redraw(v, rng)
                    for f, v in zip(fields, values, strict=True)
                )
            self.events.append((kind, values, audience))

    @property
    def move(self) -> int:
        return self.sampled.move

    @property
    def to_act(self) -> tuple[int, ...]:
        return self.sampled.to_act

    @property
    def is_over(self) -> bool:
        return self.sampled.is_over

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.sampled.view(seat)

    def legal_actions(self, seat: int) -> list[Action]:
        return self.sampled.legal_actions(seat)

    def default_action(self, seat: int) -> Action | None:
        return self.sampled.default_action(seat)

    def events_since(self, n: int, seat: int | None) -> list[dict[str, Any]]:
        out = []
        for seq in range(n, len(self.events)):
            ev = self.events[seq]
            if ev is None:
                continue
            kind, values, audience = ev
            d = event_dict(self.game.event_specs, seq, kind, values, audience, seat)
            if d is not None:
                out.append(d)
        return out


# The Great Dragon Race runs 65 to 90 turns at a table of three and 166 to 289 (800 to
# 1,300 moves) at four, each message of each connection rebuilt from a redrawn world; its
# games at those tables stop at the safety cap, ended "by the turn cap". Its finish line
# is reached over the wire at the smallest table (and in tests/web/test_play.py at every
# size).
LONG_GAMES: dict[tuple[str, int], dict[str, Any]] = {
    ("dragon-race", 3): {"turn_cap": 30},
    ("dragon-race", 4): {"turn_cap": 40},
}


def options_for(game: str, players: int) -> dict[str, Any]:
    """The options of the game played at this table size."""
    return LONG_GAMES.get((game, players), {})


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), game_settings())
def test_wire_messages_leak_nothing(sqlite_url: str, game: str, players: int) -> None:
    # what is checked is the messages, not storage: SQLite only (the other tests cover both)
    live = LiveServer(config(sqlite_url))
    try:
        check_wire(live, game, players)
    finally:
        live.stop()


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", [g for g in OWN_GAMES if g in dragonlair.games()])
def test_wire_messages_leak_nothing_with_a_confirm_at_the_end_of_each_turn(
    sqlite_url: str, game: str
) -> None:
    # every person's decisions are held until they confirm them: each seat's held game is
    # shown to it alone, and the others' messages are rebuilt from redrawn states
    live = LiveServer(config(sqlite_url))
    try:
        # two people (seats 1 and 3) and a bot: each holds its own turn's decisions
        spec = dragonlair.spec(game)
        players = min(max(spec.min_players, 3), spec.max_players)
        check_wire(live, game, players, undo=True, confirm_turn=True)
    finally:
        live.stop()


def check_wire(live: LiveServer, game: str, players: int, **settings: Any) -> None:
    created = create_table(
        live.http,
        game=game,
        players=players,
        options=options_for(game, players),
        seats=seats_for(players),
        seed=17,
        **settings,
    )
    tid = created["table"]["id"]

    async def main() -> list[SeatClient]:
        clients = await open_all(live.ws, created)
        watcher = await SeatClient.open(live.ws, tid, created["watch"]["token"], None)
        # at a table of one person and bots, undo is on: the person sometimes takes a
        # held decision back and decides again
        await drive(clients, random.Random(9), undo=random.Random(4))
        await watcher.wait(lambda: watcher.latest["status"] == "over", "the end")
        conns = [*clients.values(), watcher]
        for c in conns:
            await c.close()
        return conns

    conns = asyncio.run(main())
    table = live.hub.tables.get(tid) or live.hub.finished[tid]
    final: State = table.state
    g = final.game
    # the event count after each move, from a replay of the record
    counts = []
    st = g.new_game(final.seed)
    counts.append(st.event_count)
    for s, a in final.record.actions:
        st.apply(s, a)
        counts.append(st.event_count)
    events = raw_events(final)
    people = {i for i, s in enumerate(created["table"]["seats"]) if s["kind"] == "human"}
    rng = random.Random(2024)
    checked = held = 0
    for conn in conns:
        since = 0
        for msg in conn.states:
            move = msg["move"]
            try:
                sampled = g.sample_state(msg["view"], random.Random(rng.getrandbits(64)))
            except Exception:
                # the conformance suite asks samplers for views of games in play only; the
                # last message of a finished game is checked against the true state instead
                assert msg["status"] == "over", f"the sampler fails on seat {conn.seat}'s view"
                sampled = final
                assert move == final.move
            # a held decision is shown to its seat alone, with the committed events only
            committed = move - (msg["held"]["shown"] if "held" in msg else 0)
            world = Counterfactual(g, sampled, events[: counts[committed]], conn.seat, rng)
            deadline = msg["deadline"]["at"] if msg["deadline"] else None
            again = state_message(
                world,
                conn.seat,
                since,
                table=tid,
                # a held decision that ends the game is not the end until it is confirmed
                status="over" if sampled.is_over and "held" not in msg else "playing",
                timed_seats=people,
                deadline_at=deadline,
            )
            if "held" in msg and msg["held"]["waiting"] is not None:
                again["legal"] = []  # a decision held unseen: nothing more until confirmed
            # a seat's offers come from the table's public settings, whose turn it is and
            # whether the seat holds a decision of its own
            offers: dict[str, Any] = msg.get("offers") or {}
            if conn.seat is not None:
                settings = created["table"]["settings"]
                assert offers == {
                    "hints": settings["hints"],
                    "hint": settings["hints"]
                    and msg["status"] == "playing"
                    and conn.seat in msg["view"]["to_act"]
                    and ("held" not in msg or msg["held"]["waiting"] is None),
                    "undo": settings["undo"],
                    "can_undo": "held" in msg,
                    "undo_reason": offers["undo_reason"],
                    "confirm": settings["confirm"],
                    "confirm_turn": settings.get("confirm_turn", False),
                }, offers
            else:
                assert "offers" not in msg and "held" not in msg
            held += "held" in msg
            msg = {k: v for k, v in msg.items() if k not in ("offers", "held", "ref")}
            assert again == msg, (
                f"seat {conn.seat} move {move}: the message depends on hidden facts"
            )
            since = counts[committed]
            checked += 1
    assert checked > final.move
    if created["table"]["settings"]["undo"]:
        assert held > 0, "no decision was held: the undo was not in play"
    assert dragonlair.replay(final.record).to_json() == final.to_json()


def comparable(msg: dict[str, Any]) -> dict[str, Any]:
    """A state message without what differs between two tables or two moments: the table
    id and the deadline's clock time."""
    out = {k: v for k, v in msg.items() if k != "table"}
    if out.get("deadline"):
        out["deadline"] = {k: v for k, v in out["deadline"].items() if k != "at"}
    return out


@pytest.mark.parametrize(("game", "options"), [("dragon-race", {"turn_cap": 5})])
def test_auto_answers_look_like_typed_ones(
    sqlite_url: str, game: str, options: dict[str, Any]
) -> None:
    """Two tables with the same deal and the same moves: at one, the server answers seat 1's
    forced moves for it (its autoplay preference); at the other, seat 1 types them. Every
    message seat 0 and a spectator receive is the same at both (the answer is an ordinary
    action, and to_act asks the seats the rules ask)."""
    live = LiveServer(config(sqlite_url))
    try:
        seats = [{"type": "human", "name": "A"}, {"type": "human", "name": "B"}]

        async def play(auto: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
            created = create_table(
                live.http, game=game, players=2, options=options, seats=seats, seed=31
            )
            tid = created["table"]["id"]
            clients = await open_all(live.ws, created)
            watcher = await SeatClient.open(live.ws, tid, created["watch"]["token"], None)
            # seat 0 types everything in both runs; seat 1 only at the typed table
            await clients[0].send({"type": "prefs", "prefs": {"autoplay": False}})
            await clients[1].send({"type": "prefs", "prefs": {"autoplay": auto}})
            for c in clients.values():
                await c.wait(lambda c=c: any(m["type"] == "prefs" for m in c.messages), "prefs")
            await drive(clients, random.Random(5), auto={1} if auto else set())
            await watcher.wait(lambda: watcher.latest["status"] == "over", "the end")
            forced = sum(
                1 for m in clients[1].states if len(m["legal"]) == 1 and m["status"] == "playing"
            )
            out = (clients[0].states, watcher.states, forced)
            for c in [*clients.values(), watcher]:
                await c.close()
            return out

        seen_auto, watched_auto, forced = asyncio.run(play(True))
        seen_typed, watched_typed, _ = asyncio.run(play(False))
        assert forced > 0, "seat 1 should have been asked something with a single answer"
        assert [comparable(m) for m in seen_auto] == [comparable(m) for m in seen_typed]
        assert [comparable(m) for m in watched_auto] == [comparable(m) for m in watched_typed]
    finally:
        live.stop()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_windows_length_does_not_tell_who_holds_a_halt(sqlite_url: str) -> None:
    """What seat 0 can time of the others' HALT! windows: each stays open the window's
    length at least, whether the seat asked holds a HALT! card or not, and whether it is
    a person answered for by the server (seat 1) or a bot (seat 2). (Holding a HALT! card
    and passing, or holding none, both end the window at its length; a window can only
    be seen to last longer when someone thinks longer.)"""
    window = 0.5
    live = LiveServer(config(sqlite_url, window=window))
    try:
        seats = [
            {"type": "human", "name": "A"},
            {"type": "human", "name": "B"},
            {"type": "bot", "level": "heuristic"},
        ]
        created = create_table(
            live.http, game="dragon-race", players=3, options={"turn_cap": 12}, seats=seats, seed=8
        )

        async def main() -> tuple[list[dict[str, Any]], list[float]]:
            clients = await open_all(live.ws, created)
            await drive(clients, random.Random(3), auto={1})
            observer = clients[0]
            out = (list(observer.states), list(observer.arrivals))
            for c in clients.values():
                await c.close()
            return out

        states, arrivals = asyncio.run(main())
        table = (
            live.hub.tables.get(created["table"]["id"]) or live.hub.finished[created["table"]["id"]]
        )
        final: State = table.state
        # each window of seats 1 and 2 that was let pass: its move, and whether the seat
        # could HALT! there (a HALT! played ends the window at once: it shows anyway)
        windows: dict[int, tuple[int, bool]] = {}
        st = final.game.new_game(final.seed)
        for seat, action in final.record.actions:
            asked = st.to_act
            default = st.default_action(seat)
            passed = default is not None and str(action) == str(default)
            if asked == (seat,) and seat != 0 and passed:
                windows[st.move] = (seat, len(st.legal_actions(seat)) > 1)
            st.apply(seat, action)
        lengths: dict[tuple[int, bool], list[float]] = {}
        for i, msg in enumerate(states[:-1]):
            if msg["move"] in windows and states[i + 1]["move"] == msg["move"] + 1:
                key = windows[msg["move"]]
                lengths.setdefault(key, []).append(arrivals[i + 1] - arrivals[i])
        assert (1, False) in lengths and (2, False) in lengths, lengths.keys()
        assert any(held for _, held in lengths), "nobody could HALT!: another seed is needed"
        # a little under the length: the two messages may not travel equally fast
        short = {k: min(v) for k, v in lengths.items() if min(v) < window * 0.8}
        assert not short, f"windows closed before their length ({window} s): {short}"
    finally:
        live.stop()


# --- a finished game's page and its replay --------------------------------------------


def page_answers(http: str, tid: str) -> dict[str, tuple[int, str]]:
    """What the finished-game page and its data answer for table ``tid`` now."""
    out = {}
    for path in (
        f"/games/{tid}",
        f"/api/tables/{tid}/summary",
        f"/api/tables/{tid}/record",
        f"/api/tables/{tid}/replay",
        *(f"/api/tables/{tid}/replay?seat={s}" for s in range(2)),
    ):
        r = httpx.get(http + path)
        out[path.replace(tid, "{id}")] = (r.status_code, r.text.replace(tid, "{id}"))
    return out


def rebuilt_frames(record: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """The replay frames the record alone gives: the game dealt from its seed and every
    stored action applied, as ``seat`` saw each step."""
    st = dragonlair.replay({**record, "actions": []})
    out = [{"move": 0, "view": st.view(seat), "events": st.events_since(0, seat)}]
    for s, a in record["actions"]:
        n = st.event_count
        st.apply(s, a)
        out.append({"move": st.move, "view": st.view(seat), "events": st.events_since(n, seat)})
    return out


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game", "players"), [("dragon-stripes", 2), ("space-race", 3)])
def test_a_finished_games_page_shows_nothing_before_the_end_and_the_record_after(
    sqlite_url: str, game: str, players: int
) -> None:
    """Before the end, a table's page and its data say the same whatever its cards: "not
    found" and ``not_over``, word for word as for another table in play with other cards.
    After the end, each seat's replay is exactly what the stored record replays to, and
    the record is exactly the stored rows."""
    live = LiveServer(config(sqlite_url))
    try:
        seats = seats_for(players)
        created = create_table(live.http, game=game, players=players, seats=seats, seed=17)
        other = create_table(live.http, game=game, players=players, seats=seats, seed=99)
        tid = created["table"]["id"]

        async def play(stop_after: int | None) -> None:
            clients = await open_all(live.ws, created)
            await drive(clients, random.Random(9), stop_after=stop_after)
            for c in clients.values():
                await c.close()

        asyncio.run(play(3))
        running = page_answers(live.http, tid)
        assert running == page_answers(live.http, other["table"]["id"])
        assert running["/games/{id}"][0] == 404
        assert all(
            code == 409 and '"not_over"' in text
            for path, (code, text) in running.items()
            if path.startswith("/api/")
        ), running
        asyncio.run(play(None))
        summary = httpx.get(f"{live.http}/api/tables/{tid}/summary").json()
        assert summary["table"]["status"] == "over"
        assert httpx.get(f"{live.http}/games/{tid}").status_code == 200
        record = httpx.get(f"{live.http}/api/tables/{tid}/record").json()
        stored = live.hub.store.load(tid)
        assert record["actions"] == [list(a) for a in stored.actions]
        assert record["seed"] == stored.seed == summary["table"]["fairness"]["revealed"]["seed"]
        assert summary["moves"] == len(record["actions"])
        for seat in [None, *range(players)]:
            q = "" if seat is None else f"?seat={seat}"
            frames = httpx.get(f"{live.http}/api/tables/{tid}/replay{q}").json()["frames"]
            assert frames == rebuilt_frames(record, seat), f"seat {seat}'s replay"
    finally:
        live.stop()
