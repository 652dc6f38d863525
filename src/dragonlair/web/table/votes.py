"""How a turn-based table nobody wants to finish ends: by its players' vote, or idle.

A turn-based table (:mod:`.deadlines`) is played over days and is never paused when
everyone has left, so the real-time rule (every person gone ``abandon_after`` seconds) does
not fit it. It ends as **abandoned**, without a result and never rated, in two ways:

- **A vote to end.** A person at a seat who is connected proposes to end the game; the
  voters are the persons connected at that moment, each at their own seat (not a seat
  that conceded, not a bot's, not a spectator). The game ends when every voter has
  agreed, the proposer included; one voter who refuses withdraws the vote (nothing
  changes). A proposal needs a second person present: a player alone at the table
  cannot end it for the others (they concede, or wait for the timeout below). A seat
  votes once per vote; a seat that was not there when the vote began has no voice in it.
  A real-time table has no vote (its players concede; an empty one is abandoned).
- **A timeout.** When no person has made a move themselves for ``abandon_after`` (the
  server's setting, 7 days by default) or two move deadlines (twice the table's
  ``pace``), whichever is longer, the table ends as abandoned. Moves its takeover bot
  played at a passed deadline do not count: a table of people who all stopped coming is
  not played to the end by bots. The time is stored with each person's move
  (``dl_tables.abandons``) and found by the deadline sweep with one query over a partial
  index, so it holds across restarts and processes, like the move deadlines.

Both are stored in the table's row (``dl_tables.vote``: the open vote, or how the table
ended), so a vote survives a restart and is seen by whichever process serves the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..protocol import ProtocolError
from .seats import Seats

TIMEOUT_PACES = 2  # a turn-based table idle this many move deadlines may end


def idle_after(pace: float | None, abandon_after: float | None) -> float | None:
    """How long a turn-based table may go without a person's move before it ends as
    abandoned (None: never, or a real-time table)."""
    if pace is None or abandon_after is None:
        return None
    return max(abandon_after, TIMEOUT_PACES * pace)


def present(seats: Seats) -> list[int]:
    """The seats whose person is connected now and may vote."""
    return [
        s.index
        for s in seats
        if s.kind == "human" and not s.is_bot and s.conceded is None and s.conns
    ]


class Votes:
    """A turn-based table's vote to end (None at a real-time table)."""

    def __init__(
        self,
        turn_based: bool,
        seats: Seats,
        stored: dict[str, Any] | None,
        clock: Callable[[], float],
    ) -> None:
        self.turn_based = turn_based
        self.seats = seats
        self.clock = clock
        # {"by": seat, "voters": [...], "agreed": [...], "at": time}; once ended,
        # {"ended": "vote" | "timeout", ...}
        self.vote: dict[str, Any] | None = dict(stored) if stored else None

    @property
    def open(self) -> dict[str, Any] | None:
        """The vote being held now, else None."""
        return None if self.vote is None or "ended" in self.vote else self.vote

    def public(self) -> dict[str, Any] | None:
        """What everyone at the table is told of the vote (no hidden fact in it)."""
        return None if self.vote is None else dict(self.vote)

    def cast(self, seat: int | None, agree: bool, status: str) -> dict[str, Any] | None:
        """``seat``'s voice: a proposal, an agreement or a refusal. The vote to store
        (None: withdrawn); ``"ended"`` in it when the game ends with it. ProtocolError
        (and nothing changed) when the seat cannot vote so."""
        if seat is None:
            raise ProtocolError("spectator", "spectators watch; they have no vote at the table")
        if not self.turn_based:
            raise ProtocolError(
                "not_turn_based",
                "only a turn-based table ends by a vote; at a real-time table, concede",
            )
        if status != "playing":
            raise ProtocolError(
                "not_playing", f"only a game being played can be ended; this table is {status}"
            )
        s = self.seats[seat]
        if s.conceded is not None:
            raise ProtocolError(
                "conceded", f"you conceded this game at move {s.conceded}: you have no vote"
            )
        vote = self.open
        if vote is None:
            if not agree:
                raise ProtocolError("no_vote", "there is no vote to end this game to refuse")
            voters = present(self.seats)
            if seat not in voters:
                voters.append(seat)
            if len(voters) < 2:
                raise ProtocolError(
                    "vote_alone",
                    "a vote to end needs another player at the table: nobody else is here "
                    "now (the game ends by itself when nobody moves for long)",
                )
            return {
                "by": seat,
                "voters": sorted(voters),
                "agreed": [seat],
                "at": self.clock(),
            }
        if seat not in vote["voters"]:
            raise ProtocolError(
                "not_a_voter",
                "this vote was begun before you came back: it is for the players who were "
                "here then",
            )
        if seat in vote["agreed"]:
            raise ProtocolError(
                "already_voted",
                "you have already agreed to end this game; it waits for the others",
            )
        if not agree:
            return None
        after = {**vote, "agreed": sorted([*vote["agreed"], seat])}
        if set(after["agreed"]) >= set(after["voters"]):
            after["ended"] = "vote"
        return after


def ended_by_timeout(at: float) -> dict[str, Any]:
    """How a table that nobody moved at for long ended (stored in ``dl_tables.vote``)."""
    return {"ended": "timeout", "at": at}
