"""Turn-based tables: a deadline per move, kept in storage and acted on once.

A table created with a ``pace`` (seconds per move, an hour to two weeks) is *turn-based*:
friends play it over days, each making their move when they come by. Its rules:

- **A deadline per move.** Whenever the game asks a person's seat, the move's deadline
  is ``pace`` seconds later (on the server's clock, :attr:`ServerConfig.clock`). It is
  stored in the table's row (``dl_tables.due``) in the same commit as the action that
  asked the seat (or, when the game begins, right after), never kept as a timer in
  memory: a restarted server, or another process that takes the table over, reads it back.
- **When it passes, the away policy acts, once.** The table's ``takeover`` bot plays that
  one move for each person still asked, through the move pipeline like any action; what
  it played is kept for them and shown, marked, when they look (``played_for_you``).
  Then the next move has its own deadline. A table whose ``takeover`` is None stores no
  deadline: it waits for its players, however long.
- **A sweep, not timers.** Every ``deadline_sweep`` seconds the lobby service asks the
  database for the tables in play whose deadline has passed (one query over the partial
  index ``dl_tables_due``) and has each one it serves act. A move is stored under its
  move number (storage's primary key) and, with several processes, only under the table
  owner's fenced epoch (:mod:`dragonlair.web.ownership`), so two processes that both see
  the same passed deadline store one move between them: the other's write is refused.
- **Nothing else runs for it.** A turn-based table has no time bank, no short deadline
  for offers and windows (the move's deadline covers them), and it is never paused when
  everyone has left (that is how it is played): its bots play their own seats at once,
  and its persons' seats wait for them until their deadline, whether or not they have
  opened their link since the server started.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from ...core import State
from ...core.autoplay import forced_action
from .current import Current
from .seats import Seats

log = logging.getLogger("dragonlair.web")

MIN_PACE = 3600.0
MAX_PACE = 14 * 86400.0


class ManualClock:
    """A clock that moves only when told to (tests play games over days without waiting):
    hand it to the server as ``ServerConfig.clock``."""

    def __init__(self, now: float | None = None) -> None:
        self.now = time.time() if now is None else now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``."""
        self.now += seconds


def persons_asked(st: State, seats: Seats) -> list[int]:
    """The persons' seats the game asks now."""
    return [s for s in st.to_act if seats[s].kind == "human"]


class Turns:
    """A table's move deadline (turn-based tables; nothing at a real-time table)."""

    def __init__(
        self,
        pace: float | None,
        takeover: str | None,
        seats: Seats,
        current: Current,
        clock: Callable[[], float],
        due: float | None,
        abandons: float | None = None,
        idle: float | None = None,
        remind: float = 0.25,
    ) -> None:
        self.pace = pace
        self.remind = remind  # the share of a move's time left when its reminder goes out
        self.takeover = takeover
        self.seats = seats
        self.current = current
        self.clock = clock
        self.due = due if pace is not None else None  # Unix seconds, as stored
        self.firing = False  # the deadline's moves are being played
        # when the table ends as abandoned unless a person moves (Unix seconds, as
        # stored), and how long after a person's move that is (see .votes)
        self.idle = idle if pace is not None else None
        self.abandons = abandons if self.idle is not None else None

    @property
    def turn_based(self) -> bool:
        return self.pace is not None

    def due_for(self, st: State) -> float | None:
        """The deadline a new state ``st`` gets: ``pace`` from now when a person must
        move and a bot would play for them, else none."""
        if self.pace is None or self.takeover is None or st.is_over:
            return None
        return self.clock() + self.pace if persons_asked(st, self.seats) else None

    def after(self, nxt: State) -> tuple[float | None] | None:
        """What to store with the action that leads to ``nxt``: ``(deadline,)``, or None
        at a real-time table (nothing to store)."""
        return None if self.pace is None else (self.due_for(nxt),)

    def abandons_after(self, by: str) -> float | None:
        """What to store as the table's ``abandons`` with a move made ``by`` someone: a
        person's own move puts it ``idle`` seconds from now; a bot's leaves it (None)."""
        if self.idle is None or by != "player":
            return None
        return self.clock() + self.idle

    def abandons_missing(self) -> float | None:
        """At the start of play: the ``abandons`` to store when the table should have one
        and has none, else None."""
        if self.idle is None or self.abandons is not None or self.current.playing() is None:
            return None
        return self.clock() + self.idle

    def idle_over(self) -> bool:
        """Whether nobody has moved for so long that the table ends as abandoned."""
        return (
            self.current.playing() is not None
            and self.abandons is not None
            and self.clock() >= self.abandons
        )

    def missing(self) -> float | None:
        """At the start of play: the deadline to store when the table should have one and
        has none (a new game, or one whose deadline was not stored yet), else None."""
        st = self.current.playing()
        if st is None or self.due is not None:
            return None
        return self.due_for(st)

    def mail(
        self, before: State | None, nxt: State, due: float | None, played_for: int | None = None
    ) -> list[tuple[int, bool, float | None]]:
        """The e-mail that a new deadline ``due`` for ``nxt`` brings (dragonlair.web.mail):
        for each person's seat asked in ``nxt`` that has an account and a real choice (an
        answer the server gives for the seat, :mod:`dragonlair.core.autoplay`, is nobody's
        turn), ``(seat, quiet, remind_at)``: ``quiet`` when ``before`` asked it already (it
        was told; but not the seat ``played_for`` at its deadline: its player is away, and
        the move asked now is a new one) or its person is at the table now (they see it),
        and the time its reminder goes out (when ``remind`` of the move's time is left)."""
        if due is None or self.pace is None:
            return []

        def choosing(st: State) -> list[int]:
            return [
                s
                for s in persons_asked(st, self.seats)
                if self.seats[s].account is not None
                and not (self.seats[s].autoplay and forced_action(st, s) is not None)
            ]

        was = set(choosing(before)) - {played_for} if before is not None else set()
        remind_at = due - self.pace * self.remind if self.remind > 0 else None
        # a person at the table now sees it is their turn: no e-mail (the reminder stays)
        return [(s, s in was or bool(self.seats[s].conns), remind_at) for s in choosing(nxt)]

    def overdue(self) -> list[int]:
        """The persons' seats whose move's deadline has passed, when a bot would play
        for them."""
        st = self.current.playing()
        if st is None or self.due is None or self.takeover is None:
            return []
        if self.clock() < self.due:
            return []
        return persons_asked(st, self.seats)
