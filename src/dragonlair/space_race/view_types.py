"""The declared shape of a view of Space Race (2021) (``Game.view_type``): what each key holds.

Apart from view.py, which the compiled build compiles, so that it stays interpreted (see
:mod:`dragonlair.core.view_types`). view.py says what each seat may see.
"""

from __future__ import annotations

from typing import TypedDict

from dragonlair.core.view_types import BaseView


class ShipView(TypedDict):
    """One ship: its factions, every face-up stack card by card (ids, in the order placed),
    its Fuel and spent Fuel counted (the cards shown only to the owner)."""

    seat: int
    cockpit: str
    engine: str
    scanners: list[int]
    robot_parts: list[int]
    crystals: list[int]
    power_cockpit: list[int]
    power_engine: list[int]
    alien_drones: list[int]
    loot_carriers: list[int]
    crew: list[int]
    damage: list[int]
    fuel: int
    fuel_cards: list[int] | None
    spent_fuel: int
    spent_fuel_cards: list[int] | None


class SpaceRaceView(BaseView):
    """A view of Space Race (see the module docstring for what each seat sees)."""

    round: int
    rounds: int
    pick: int
    direction: str  # "left" or "right": where hands pass
    hand: list[int] | None  # the seat's own hand (None: a spectator)
    hand_sizes: list[int]
    ships: list[ShipView]
    space_deck: int
    crew_discard: list[int]
    danger: int | None  # the Danger card of this round's Danger phase
    bidding: str | None  # "fuel" or "crew"
    danger_top: int | None  # the top Danger card, if this seat's Scanner showed it
    seen_top_danger: list[int]  # seats that have seen it
    danger_deck: int
    danger_discard: list[int]
    damage_deck: int
    damage_removed: list[int]
    last_bids: list[int] | None
    score: list[int]  # each seat's running score
