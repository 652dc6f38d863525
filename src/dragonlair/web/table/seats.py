"""Seats and presence: who plays each seat, its token's digest, its live connections and
the spectators' — who is at the table, who has arrived, who a bot plays for now.

Nothing here sends a message or arms a timer: the table does, from what these say.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..protocol import ProtocolError, SeatInfo
from ..security import match
from ..store import StoredSeat
from .ports import Peer

_WATCH = "watch"


class Seat:
    """One seat: who plays it, its token's digest, and its live connections."""

    def __init__(self, s: StoredSeat) -> None:
        self.index = s.seat
        self.kind = s.kind
        self.name = s.name
        self.level = s.level
        self.budget = dict(s.budget or {})
        self.token_hash = s.token_hash
        self.account = s.account  # the account of the person who plays it (None: a guest)
        self.conns: set[Peer] = set()
        self.bot_playing = False
        # a person's seat: whether its person has connected since the server started
        self.arrived = False
        self.autoplay = True
        # a person's time bank: seconds they may still be away (None: no bank, nobody
        # plays for them); and the moves the takeover bot played for them, not yet shown
        self.bank: float | None = s.bank
        self.played_for: list[dict[str, Any]] = []
        # the move its player conceded at: a bot plays the seat from then on
        # (dragonlair.web.concede)
        self.conceded = s.conceded
        # the account's name (its profile's address), None for a guest
        self.profile = s.profile

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat now (a bot seat, an away player's, or one whose
        player conceded)."""
        return self.kind == "bot" or self.bot_playing or self.conceded is not None

    def info(self) -> SeatInfo:
        """The seat as everyone may see it."""
        return SeatInfo(
            seat=self.index,
            kind=self.kind,  # type: ignore[arg-type]
            name=self.name,
            level=self.level,
            connected=bool(self.conns),
            connections=len(self.conns),
            bot_playing=self.bot_playing,
            arrived=self.arrived,
            bank=None if self.bank is None or self.kind != "human" else round(self.bank, 1),
            conceded=self.conceded,
            profile=self.profile if self.account is not None else None,
        )

    def prefs(self) -> dict[str, Any]:
        """The seat's preferences, as its own connections are told them."""
        return {"autoplay": self.autoplay}


class Seats:
    """Every seat of a table and its spectators' connections."""

    def __init__(
        self,
        stored: list[StoredSeat],
        watch_hash: bytes | None,
        wait_for_arrival: bool,
        turn_based: bool = False,
    ) -> None:
        self.seats = [Seat(s) for s in stored]
        # a turn-based table is never paused: everyone away is how it is played
        self.turn_based = turn_based
        self.watchers: set[Peer] = set()
        self.watch_hash = watch_hash
        self.wait_for_arrival = wait_for_arrival

    def __getitem__(self, index: int) -> Seat:
        return self.seats[index]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    def present(self, seat: Seat) -> bool:
        """Whether the table treats this person as having arrived."""
        return seat.arrived or not self.wait_for_arrival

    def nobody(self) -> bool:
        """Whether the table has people's seats still played by them (not conceded) and
        none of them is connected."""
        people = [s for s in self.seats if s.kind == "human" and s.conceded is None]
        return bool(people) and not any(s.conns for s in people)

    def paused(self) -> bool:
        """Whether every person has left the table (none connected, and one had arrived,
        or the table does not wait for arrivals): it is paused, no bot plays it out and no
        clock runs. Before anyone arrives, a table that waits for its people plays its
        bots' seats until one of theirs is asked."""
        if self.turn_based or not self.nobody():
            return False
        return not self.wait_for_arrival or any(s.arrived for s in self.seats)

    def timed(self) -> set[int]:
        """Seats played by people now: their offers and windows have deadlines (not yet
        for a person who has never arrived, when the table waits for them)."""
        return {s.index for s in self.seats if not s.is_bot and self.present(s)}

    def identify(self, token: str) -> int | None:
        """The seat a token belongs to, or None for the spectator token; ProtocolError if
        it is neither."""
        candidates: list[tuple[object, bytes | None]] = [
            (s.index, s.token_hash) for s in self.seats
        ]
        candidates.append((_WATCH, self.watch_hash))
        found = match(token, candidates)
        if found is None:
            raise ProtocolError(
                "unauthorized", "that token is not a seat or watch token of this table", 401
            )
        return None if found == _WATCH else int(found)  # type: ignore[call-overload]

    def connections(self) -> list[Peer]:
        """Every live connection: spectators and each seat's."""
        out = list(self.watchers)
        for s in self.seats:
            out.extend(s.conns)
        return out

    def check_room(self, seat: int | None, per_seat: int, spectators: int) -> None:
        """Refuse a newcomer (ProtocolError ``table_full``) when its seat already has
        ``per_seat`` connections open, or the table ``spectators`` watchers: the per-table
        caps below the per-address and per-process ones, so one table's crowd cannot take
        a process's connections."""
        if seat is None:
            if len(self.watchers) >= spectators:
                raise ProtocolError(
                    "table_full", f"this table has as many spectators as it takes ({spectators})"
                )
        elif len(self.seats[seat].conns) >= per_seat:
            raise ProtocolError(
                "table_full",
                f"this seat is open in as many windows as it takes ({per_seat}); close one of them",
            )

    def arrive(self, conn: Peer) -> tuple[bool, bool]:
        """``conn`` joins; for a seat's: (whether its person arrived for the first time,
        whether a bot was playing for them until now)."""
        if conn.seat is None:
            self.watchers.add(conn)
            return False, False
        seat = self.seats[conn.seat]
        seat.conns.add(conn)
        first, taken_over = not seat.arrived, seat.bot_playing
        seat.arrived = True
        seat.bot_playing = False
        return first, taken_over

    def leave(self, conn: Peer) -> Seat | None:
        """``conn`` left; the seat it was the last connection of, if any."""
        if conn.seat is None:
            self.watchers.discard(conn)
            return None
        seat = self.seats[conn.seat]
        seat.conns.discard(conn)
        return None if seat.conns else seat

    def infos(self) -> list[SeatInfo]:
        """Every seat as everyone may see it."""
        return [s.info() for s in self.seats]
