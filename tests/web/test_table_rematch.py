"""A finished table's rematch as a part (dragonlair.web.table.rematch) on its own, with
fakes for the connections and the new table."""

from __future__ import annotations

from dragonlair.web.store import StoredSeat
from dragonlair.web.table.rematch import Rematch
from dragonlair.web.table.seats import Seats
from tests.web.partkit import FakePeer


class FakeTable:
    """The rematch's new table: its seats, whose persons have not opened them yet."""

    def __init__(self) -> None:
        self.seats = Seats(
            [StoredSeat(0, "human", "Ann"), StoredSeat(1, "human", "Bob")], None, True
        )


LINKS = {0: "/play/new#ann", 1: "/play/new#bob"}


def test_no_rematch_is_told_before_one_is_made() -> None:
    part = Rematch(None)
    ann = FakePeer(0)
    part.tell([ann])
    assert not part.made and ann.sent == []


def test_each_seat_is_told_its_own_link_and_spectators_nothing() -> None:
    part = Rematch(None)
    new = FakeTable()
    assert part.record("new", 1, LINKS, new) == {"table": "new", "by": 1}
    ann, bob, eve = FakePeer(0), FakePeer(1), FakePeer(None)
    part.tell([ann, bob, eve])
    assert part.made
    assert ann.sent == [{"type": "rematch", "table": "new", "by": 1, "link": LINKS[0]}]
    assert bob.sent == [{"type": "rematch", "table": "new", "by": 1, "link": LINKS[1]}]
    assert eve.sent == []


def test_a_link_is_told_only_until_its_new_seat_was_opened() -> None:
    part = Rematch(None)
    new = FakeTable()
    part.record("new", 0, LINKS, new)
    new.seats[1].arrived = True  # Bob opened his new seat
    ann, bob = FakePeer(0), FakePeer(1)
    part.tell([ann, bob])
    assert ann.sent[0]["link"] == LINKS[0]
    assert bob.sent == [{"type": "rematch", "table": "new", "by": 0, "link": None}]


def test_a_rematch_made_elsewhere_or_read_back_is_told_without_links() -> None:
    # made here, but its new table is not held here: no link leads to it
    made = Rematch(None)
    made.record("new", 0, LINKS, None)
    # read back from storage: the links went to the seats already
    stored = Rematch({"table": "new", "by": 1})
    assert stored.made
    for part, by in ((made, 0), (stored, 1)):
        ann = FakePeer(0)
        part.send(ann)
        assert ann.sent == [{"type": "rematch", "table": "new", "by": by, "link": None}]
    # a stored rematch without the table's id is no rematch
    assert not Rematch({"by": 1}).made
