"""A seat's view of Space Dragons as JSON (``state.view(seat)``, which the wire and the
checks take), and the figures it shares with the typed view in view.py
(see that module's docstring for what each seat sees).

They were moved here from view.py when the typed views could not be compiled; both
modules are compiled now (docs/engine.md, "The compiled build"), and the JSON view and
the typed view keep to a module each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from .cards import SIDES, SYMBOLS
from .kinds import HIRE, HUNT, PHASE_NAMES

if TYPE_CHECKING:
    from .rules import SpaceDragons, SpaceDragonsState

_SYMBOLS: Final = tuple(SYMBOLS)
_SIDES: Final = tuple(SIDES)

# The figures a view derives from what the state holds, each worked out here only, for
# the JSON view (build_view) and the typed view alike.


def round_cards(
    played: Sequence[tuple[int, ...]], lead: int, rounds_played: int
) -> list[tuple[int, int]]:
    """The cards played so far in the round being played, as ``(seat, card)`` in play
    order: ``played`` by seat, ``lead`` the round's starting seat."""
    n = len(played)
    out = []
    for j in range(n):
        s = lead + j
        if s >= n:
            s -= n
        p = played[s]
        if len(p) <= rounds_played:
            break
        out.append((s, p[rounds_played]))
    return out


def scoring_sides(sides: Sequence[int]) -> dict[str, str]:
    """Symbol -> the face-up side ("a" or "b") of its scoring card."""
    return {s: _SIDES[sides[k]] for k, s in enumerate(_SYMBOLS)}


def symbol_counts(
    game: SpaceDragons, played: Sequence[tuple[int, ...]], claimed: Sequence[tuple[int, ...]]
) -> dict[str, list[int]]:
    """Symbol -> each seat's count on its played crew and claimed dragons
    (``CardTables.symbol_counts``, which final scoring adds up too)."""
    science, mood, crime = game.tables.symbol_counts(played, claimed)
    return {_SYMBOLS[0]: science, _SYMBOLS[1]: mood, _SYMBOLS[2]: crime}


def card_points(
    game: SpaceDragons, played: Sequence[tuple[int, ...]], claimed: Sequence[tuple[int, ...]]
) -> list[int]:
    """By seat, the points printed on the crew cards it has ``played`` and the dragons it
    has ``claimed`` (``CardTables.card_points``)."""
    return game.tables.card_points(played, claimed)


# Every seat's symbols and points on the table, by the identities of the rows of cards
# they were counted from: the played and claimed cards by seat (tuples the state shares
# with its clones and every view of it), kept with the counts, which serve only rows of
# the same game equal to those kept (a compare that meets the same tuples while nobody
# has played). Every seat sees the same counts, so an entry serves every seat's view; the
# typed view reads them here (an observation encodes both for every seat at every step,
# and they change only when a card is played). Up to TALLIES_REMEMBERED rows of cards at
# once (the tables of a vector environment take turns), then the next starts afresh.
TALLIES_REMEMBERED: Final = 128
Tallies: TypeAlias = tuple[tuple[list[int], list[int], list[int]], list[int]]
_tallied: Final[
    dict[
        int, tuple[SpaceDragons, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], Tallies]
    ]
] = {}


def table_tallies(
    game: SpaceDragons,
    played: tuple[tuple[int, ...], ...],
    claimed: tuple[tuple[int, ...], ...],
) -> Tallies:
    """By symbol, each seat's count (``CardTables.symbol_counts``), and each seat's points
    (``CardTables.card_points``), remembered as above: shared lists, never to be changed."""
    key = 0
    for cards in played:
        key += id(cards)
    for cards in claimed:
        key += id(cards)
    got = _tallied.get(key)
    if got is not None and got[0] is game and got[1] == played and got[2] == claimed:
        return got[3]
    t = game.tables
    tallies = (t.symbol_counts(played, claimed), t.card_points(played, claimed))
    if got is None and len(_tallied) >= TALLIES_REMEMBERED:
        _tallied.clear()  # one call: no other thread's views see it half done
    _tallied[key] = (game, played, claimed, tallies)
    return tallies


def build_view(state: SpaceDragonsState, seat: int | None, out: dict[str, Any]) -> None:
    """Add what ``seat`` may see (None: a spectator) to ``out``."""
    g = state.game
    phase = state.phase
    hunt = phase == HUNT
    played = state.played
    claimed = state.claimed
    out["phase_name"] = PHASE_NAMES[phase]
    out["hand"] = None if seat is None else list(state.hands[seat])
    out["picks"] = None if seat is None else list(state.picks[seat])
    out["hand_sizes"] = [len(h) for h in state.hands]
    out["pick_counts"] = [len(p) for p in state.picks]
    out["pick"] = len(state.picks[0]) + 1 if phase == HIRE else None
    out["round"] = state.round + 1 if hunt else None
    out["rounds_played"] = state.round
    out["starter"] = state.lead
    out["this_round"] = (
        [[s, c] for s, c in round_cards(played, state.lead, state.round)] if hunt else []
    )
    out["played"] = [list(p) for p in played]
    out["shields"] = list(state.shields)
    out["damage"] = list(state.damage)
    out["claimed"] = [list(c) for c in claimed]
    out["face_up"] = state.face_up or None
    out["lair"] = len(state.lair)
    out["pile"] = len(state.pile) - state.taken
    out["start_cards"] = list(state.start_cards)
    out["scoring_cards"] = scoring_sides(state.sides)
    out["symbols"] = symbol_counts(g, played, claimed)
    out["card_points"] = card_points(g, played, claimed)
