"""The decisions held for confirmation (dragonlair.web.table.holds) on their own, with fakes
handed in for the move pipeline, the messages and the table's connections."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dragonlair.core import make
from dragonlair.web.protocol import ProtocolError, TableSettings
from dragonlair.web.store import StoredSeat
from dragonlair.web.table.current import Current
from dragonlair.web.table.decisions import Decisions
from dragonlair.web.table.holds import Holds
from dragonlair.web.table.seats import Seats
from tests.web.partkit import FakePeer


class Rig:
    """A part made as a table makes it: seat 0 a person's (connected), seat 1 a bot's; the
    pipeline applies each played decision to the committed state and rebases the holds,
    as the table's does."""

    def __init__(
        self,
        game_id: str = "dragon-race",
        confirm: float = 5.0,
        confirm_turn: bool = False,
        undo: bool = True,
    ) -> None:
        self.game = make(game_id, players=2)
        self.current = Current(self.game.new_game(5), "playing")
        self.seats = Seats(
            [StoredSeat(0, "human", "P"), StoredSeat(1, "bot", "B", "random", {})], None, True
        )
        self.peer = FakePeer(0)
        self.seats[0].conns.add(self.peer)
        self.settings = TableSettings(
            deadline=60.0,
            away=None,
            takeover=None,
            listed=True,
            hints=False,
            undo=undo,
            confirm=confirm,
            confirm_turn=confirm_turn,
            position=None,
        )
        decisions = Decisions()
        decisions.reset(self.state)
        self.played: list[tuple[int, str]] = []
        self.was_played = asyncio.Event()
        # the bot's moves that follow a played decision, and a gate the play then waits
        # at (a play not quite over when the seat is asked again)
        self.bot_follows = False
        self.gate: asyncio.Event | None = None
        self.undos = 0
        self.undo_allowed = True
        self.tasks: list[asyncio.Task[Any]] = []
        self.holds = Holds(
            "t",
            self.game,
            self.settings,
            self.seats,
            decisions,
            self.current,
            asyncio.Lock(),
            play=self.play,
            message_for=self.message_for,
            check_undo=self.check_undo,
            undone=self.undone,
            spawn=self.spawn,
        )

    @property
    def state(self) -> Any:
        assert self.current.state is not None
        return self.current.state

    async def play(self, seat: int, text: str) -> None:
        self.move(seat, text)
        self.played.append((seat, text))
        while self.bot_follows and 0 not in self.state.to_act:
            self.move(1, self.first_action(1))
        self.was_played.set()
        if self.gate is not None:
            await self.gate.wait()

    def move(self, seat: int, text: str) -> None:
        """A move committed: the state replaced, then the holds rebased."""
        nxt = self.state.clone()
        nxt.apply(seat, self.game.parse_action(text))
        self.current.state = nxt
        self.holds.rebase()

    def message_for(self, conn: Any) -> dict[str, Any]:
        hold = self.holds.shown(conn.seat)
        held = None if hold is None else self.holds.describe(hold, self.state)
        shown = self.state if hold is None else hold.state
        return {"type": "state", "move": shown.move, "held": held}

    def check_undo(self) -> None:
        if not self.undo_allowed:
            raise ProtocolError("undo_not_allowed", "no undo here")

    def undone(self) -> None:
        self.undos += 1

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.append(task)
        return task

    def last(self) -> dict[str, Any]:
        """The last message seat 0 was sent."""
        got: dict[str, Any] = self.peer.sent[-1]
        return got

    def first_action(self, seat: int = 0) -> str:
        return str(self.state.legal_actions(seat)[0])


def test_only_a_persons_seat_at_a_table_with_undo_and_a_window_holds() -> None:
    rig = Rig()
    assert rig.holds.applies(0) and not rig.holds.applies(1)  # a bot's seat plays at once
    assert not Rig(undo=False).holds.applies(0)
    assert not Rig(confirm=0.0).holds.applies(0)
    assert Rig(confirm=0.0, confirm_turn=True).holds.applies(0)
    rig.seats[0].bot_playing = True  # the takeover bot plays an away person's seat
    assert not rig.holds.applies(0)
    rig.seats[0].bot_playing = False
    assert rig.holds.applies(0)
    rig.current.status = "over"
    assert not rig.holds.applies(0)


@pytest.mark.timeout(30)
def test_a_held_decision_is_shown_to_its_seat_alone_and_taken_back_by_undo() -> None:
    async def main() -> None:
        rig = Rig()
        action = rig.first_action()
        assert await rig.holds.hold(0, 0, action, rig.peer, "r1")
        # nothing committed, the seat is shown its own game with the decision applied
        assert rig.state.move == 0 and rig.played == []
        hold = rig.holds.get(0)
        assert hold is not None and 0 in rig.holds and rig.holds
        msg = rig.last()
        assert msg["ref"] == "r1" and msg["move"] == hold.state.move == 1
        assert msg["held"]["decisions"] == 1 and msg["held"]["shown"] == 1
        assert msg["held"]["until"] is not None and msg["held"]["turn"] is False
        version = rig.holds.version
        await rig.holds.undo(0, 1, rig.peer)
        assert rig.holds.get(0) is None and not rig.holds and rig.holds.version > version
        assert rig.last() == {"type": "state", "move": 0, "held": None, "ref": "undo"}
        assert rig.undos == 1 and rig.played == []
        # nothing more to take back: refused, nothing changed
        sent = len(rig.peer.sent)
        with pytest.raises(ProtocolError) as e:
            await rig.holds.undo(0, 0, rig.peer)
        assert e.value.code == "cannot_undo"
        assert len(rig.peer.sent) == sent and rig.undos == 1
        # an undo the table does not allow now is refused before anything is looked at
        assert await rig.holds.hold(0, 0, action, rig.peer, None)
        rig.undo_allowed = False
        with pytest.raises(ProtocolError) as e:
            await rig.holds.undo(0, 1, rig.peer)
        assert e.value.code == "undo_not_allowed" and rig.holds.get(0) is not None
        rig.holds.drop_all()
        assert not rig.holds

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_bad_decisions_and_stale_undos_are_refused_and_change_nothing() -> None:
    async def main() -> None:
        rig = Rig()
        legal = {str(a) for a in rig.state.legal_actions(0)}
        # a card of the game that is not in seat 0's hand
        illegal = next(f"play {n}" for n in range(1, 100) if f"play {n}" not in legal)
        for text, code in (("fly away", "unknown_action"), (illegal, "illegal_action")):
            with pytest.raises(ProtocolError) as e:
                await rig.holds.hold(0, 0, text, rig.peer, None)
            assert e.value.code == code
        assert not rig.holds and rig.peer.sent == []
        # a seat not asked: the pipeline answers it
        assert not await rig.holds.hold(1, 0, rig.first_action(), None, None)
        assert await rig.holds.hold(0, 0, rig.first_action(), rig.peer, None)
        with pytest.raises(ProtocolError) as e:
            await rig.holds.undo(0, 7, rig.peer)
        assert e.value.code == "stale_move"
        with pytest.raises(ProtocolError) as e:
            await rig.holds.confirm(0, 7)
        assert e.value.code == "stale_move"
        hold = rig.holds.get(0)
        assert hold is not None and len(hold) == 1 and rig.played == []
        with pytest.raises(ProtocolError) as e:
            await rig.holds.confirm(1, 0)
        assert e.value.code == "nothing_held"
        rig.holds.drop_all()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_confirm_plays_the_held_decisions_in_order_through_the_pipeline() -> None:
    async def main() -> None:
        rig = Rig(confirm=0.0, confirm_turn=True)
        first = rig.first_action()
        assert await rig.holds.hold(0, 0, first, rig.peer, None)
        hold = rig.holds.get(0)
        assert hold is not None
        assert rig.last()["held"]["until"] is None and rig.last()["held"]["turn"] is True
        second = str(hold.state.legal_actions(0)[0]) if 0 in hold.state.to_act else None
        if second is not None:
            assert await rig.holds.hold(0, 1, second, rig.peer, None)
        await rig.holds.confirm(0, hold.state.move)
        assert rig.played == [(0, first)] + ([(0, second)] if second else [])
        assert rig.state.move == len(rig.played)
        assert not rig.holds and rig.last()["held"] is None
        assert rig.last()["move"] == rig.state.move

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_the_window_confirms_by_itself_at_its_end() -> None:
    async def main() -> None:
        rig = Rig(confirm=0.05)
        action = rig.first_action()
        assert await rig.holds.hold(0, 0, action, rig.peer, None)
        await asyncio.wait_for(rig.was_played.wait(), 20)
        await asyncio.gather(*rig.tasks)
        assert rig.played == [(0, action)] and rig.state.move == 1 and not rig.holds

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_held_decisions_follow_the_others_moves_or_are_dropped_with_a_word() -> None:
    async def main() -> None:
        # a sealed choice: the bot's pick moves the game on under my held pick
        rig = Rig("space-race")
        mine = rig.first_action(0)
        assert await rig.holds.hold(0, 0, mine, rig.peer, None)
        version = rig.holds.version
        rig.move(1, rig.first_action(1))
        hold = rig.holds.get(0)
        assert hold is not None and hold.base is rig.state and rig.holds.version > version
        assert hold.state.move == rig.state.move + 1
        # the game ends under it: dropped, and the seat is told
        rig.current.status = "over"
        rig.current.state = rig.state.clone()
        rig.holds.rebase()
        assert not rig.holds and rig.last()["code"] == "hold_dropped"
        assert rig.played == []

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_decision_that_would_show_something_is_held_unseen_and_blocks_the_next() -> None:
    async def main() -> None:
        rig = Rig("dragon-stripes", confirm=0.0, confirm_turn=True)
        assert await rig.holds.hold(0, 0, "draw", rig.peer, None)
        held = rig.last()["held"]
        assert held["waiting"] == "draw" and held["shown"] == 0 and rig.last()["move"] == 0
        with pytest.raises(ProtocolError) as e:
            await rig.holds.hold(0, 0, "draw", rig.peer, None)
        assert e.value.code == "held"
        await rig.holds.confirm(0, 0)
        assert rig.played == [(0, "draw")] and not rig.holds

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_my_next_decision_waits_for_my_last_to_be_played() -> None:
    async def main() -> None:
        rig = Rig(confirm=0.0, confirm_turn=True)
        rig.bot_follows, rig.gate = True, asyncio.Event()
        first = rig.first_action()
        assert await rig.holds.hold(0, 0, first, rig.peer, None)
        confirming = asyncio.create_task(rig.holds.confirm(0, 1))
        await rig.was_played.wait()  # committed, the bot moved, I am asked again
        move, nxt = rig.state.move, rig.first_action()
        deciding = asyncio.create_task(rig.holds.hold(0, move, nxt, rig.peer, None))
        await asyncio.sleep(0)  # it runs up to its first wait: for the play to end
        assert not deciding.done()
        rig.gate.set()
        assert await deciding  # held on the game I was shown, not refused
        await confirming
        hold = rig.holds.get(0)
        assert hold is not None and hold.started == move and len(hold) == 1
        assert rig.played == [(0, first)]
        rig.holds.drop_all()

    asyncio.run(main())
