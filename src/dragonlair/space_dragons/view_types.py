"""The declared shape of a view of Space Dragons (``Game.view_type``): what each key holds.

Apart from view.py, which the compiled build compiles, so that it stays interpreted (see
:mod:`dragonlair.core.view_types`). view.py says what each seat may see.
"""

from __future__ import annotations

from dragonlair.core.view_types import BaseView


class SpaceDragonsView(BaseView):
    """A view of Space Dragons (view.py says what is public). Cards are
    crew card numbers 1..80, dragons ids 1..20."""

    phase_name: str
    hand: list[int] | None  # the seat's own hand (None: a spectator)
    picks: list[int] | None  # its own face-down picks in Hiring Crew
    hand_sizes: list[int]
    pick_counts: list[int]
    pick: int | None  # the pick being made in Hiring Crew (1..hand_size of the data file)
    round: int | None  # the round of the Dragon Hunt being played (1..rounds of the data file)
    rounds_played: int
    starter: int  # the current round's starting seat
    this_round: list[list[int]]  # [seat, card] in play order
    played: list[list[int]]  # by seat, in play order
    shields: list[int]
    damage: list[int]
    claimed: list[list[int]]  # dragons won, by seat
    face_up: int | None  # the dragon on display
    lair: int  # face-down dragons left
    pile: int  # cards left in the draw pile
    start_cards: list[int]  # the start-player draw, by seat
    scoring_cards: dict[str, str]  # symbol -> the side face up
    symbols: dict[str, list[int]]  # symbol -> each seat's count
    card_points: list[int]  # the points on each seat's cards and dragons
