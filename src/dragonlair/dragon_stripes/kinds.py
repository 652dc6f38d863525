"""The vocabulary of Dragon Stripes: action ids, phases, and the kinds of action and event.

A leaf module: it imports only the core, so the rules, the views, the heuristic
and every surface (layouts, boards, the browser's catalog) name these once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, get_args

from dragonlair.core import ActionKind, EventSpec

# Action ids, in the order of ``DragonStripes._define_actions``.
DRAW: Final = 0
HOLD: Final = 1
TAKE: Final = 2
DECLINE: Final = 3

# The phases: the knight's holder draws a card or holds; the knight is offered to the
# other players, one at a time; the game is over.
Phase = Literal["draw", "offer", "over"]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
DRAWING: Final[Phase] = "draw"
OFFER: Final[Phase] = "offer"


ACTION_KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind("draw", (), "turn over the top card"),
    ActionKind("hold", (), "stop drawing and offer the knight to the others"),
    ActionKind("take", (), "take over the knight and the pot, paying the holder"),
    ActionKind("decline", (), "let the offered knight go by"),
)

EVENT_SPECS: Final[Mapping[str, EventSpec]] = {
    "setup": EventSpec(
        ("players", "start_gems", "lair"),
        "each of the {players} players starts with {start_gems} gems; the lair holds {lair}",
    ),
    "turn": EventSpec(
        ("seat", "turn"), "turn {turn}: {seat} starts from the dragon's tail", seat_fields=("seat",)
    ),
    "moved": EventSpec(
        ("seat", "steps", "stripe", "gems", "pot"),
        "{seat} draws footprint {steps}: the knight goes to stripe {stripe}; "
        "the pot gains {gems} (now {pot})",
        seat_fields=("seat",),
    ),
    "lair_short": EventSpec(
        ("stripe", "shown", "paid"),
        "the lair runs short: it pays {paid} of the {shown} gems for stripe {stripe}",
    ),
    "stop": EventSpec(
        ("seat", "pot"),
        "{seat} draws a Stop: the knight flees to the tail and the pot of {pot} "
        "goes back to the lair",
        seat_fields=("seat",),
    ),
    "danger": EventSpec(
        ("seat", "number", "pot", "dragon"),
        "{seat} draws Danger {number}: the dragon is {dragon}; the knight flees and "
        "the pot of {pot} goes back to the lair",
        seat_fields=("seat",),
    ),
    "penalty": EventSpec(
        ("seat", "gems", "fraction"),
        "{seat} pays a {fraction} penalty of {gems} gems into the lair",
        ("seat", "fraction"),
        "{seat} pays a {fraction} penalty into the lair",
        seat_fields=("seat",),
    ),
    "held": EventSpec(
        ("seat", "pot", "price"),
        "{seat} holds with a pot of {pot}; the knight is offered for {price}",
        seat_fields=("seat",),
    ),
    "declined": EventSpec(("seat",), "{seat} declines", seat_fields=("seat",)),
    "took": EventSpec(
        ("seat", "from_seat", "price", "pot"),
        "{seat} takes over the knight and the pot of {pot}, paying {price} to {from_seat}",
        seat_fields=(
            "seat",
            "from_seat",
        ),
    ),
    "banked": EventSpec(
        ("seat", "pot"),
        "nobody takes the knight: {seat} banks the pot of {pot}",
        seat_fields=("seat",),
    ),
    "head": EventSpec(
        ("seat", "steps", "pot", "lair"),
        "{seat} draws footprint {steps}: the knight reaches the dragon's head! "
        "{seat} takes the pot of {pot} and the {lair} gems left in the lair",
        seat_fields=("seat",),
    ),
    "woke": EventSpec(
        ("seat", "lost", "pot"),
        "{seat} draws the third Danger: the dragon wakes! {seat} loses all {lost} gems; "
        "the pot of {pot} goes back to the lair",
        seat_fields=("seat",),
    ),
    "game_over": EventSpec(
        ("reason", "winners", "gems"),
        "game over, {reason}; gems by seat: {gems}; richest: seat {winners}",
    ),
}
