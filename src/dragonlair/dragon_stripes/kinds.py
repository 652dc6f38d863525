"""The vocabulary of Dragon Stripes: action ids, phases, the kinds of action and event, and
the figures that follow from the number of Dangers drawn.

A leaf module: it imports only the core, so the rules, the views, the heuristic
and every surface (layouts, boards, the browser's catalog) name these once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, get_args

from dragonlair.core import ActionKind, EventSpec
from dragonlair.i18n import N_, plural

# Action ids, in the order of ``DragonStripes._define_actions``.
DRAW: Final = 0
HOLD: Final = 1
TAKE: Final = 2
DECLINE: Final = 3

# The phases: the knight's holder draws a card or holds; the knight is offered to the
# other players, one at a time; the game is over.
Phase = Literal["draw", "offer", "over"]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
# What a player reads for each phase (``Game.phase_names``).
PHASE_NAMES: Final[Mapping[str, str]] = {
    "draw": N_("Draw"),
    "offer": N_("Offer"),
    "over": N_("Over"),
}
DRAWING: Final[Phase] = "draw"
OFFER: Final[Phase] = "offer"


SECOND_DANGER: Final = 2  # Danger cards drawn from which the dragon is half awake


def reward_multiplier(dangers: int, multipliers: tuple[int, int]) -> int:
    """What a stripe's gems are multiplied by: the data file's ``reward_multiplier``
    before the second Danger (once in the printed game) or from it on (twice)."""
    return multipliers[dangers >= SECOND_DANGER]


def penalty_divisor(dangers: int, divisors: tuple[int, int]) -> int:
    """A Stop costs 1/divisor of the holder's gems: the data file's ``penalty_divisor``
    before the second Danger (1/4 in the printed game) or from it on, that Danger
    included (1/2)."""
    return divisors[dangers >= SECOND_DANGER]


def penalty_fraction(divisor: int) -> str:
    """The penalty as views and events show it: "1/4", "1/2"."""
    return f"1/{divisor}"


ACTION_KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind("draw", (), N_("turn over the top card")),
    ActionKind("hold", (), N_("stop drawing and offer the knight to the others")),
    ActionKind("take", (), N_("take over the knight and the pot, paying the holder")),
    ActionKind("decline", (), N_("let the offered knight go by")),
)

EVENT_SPECS: Final[Mapping[str, EventSpec]] = {
    "setup": EventSpec(
        ("players", "start_gems", "lair"),
        N_("each of the {players} players starts with {start_gems} gems; the lair holds {lair}"),
    ),
    "turn": EventSpec(
        ("seat", "turn"),
        N_("turn {turn}: {seat} starts from the dragon's tail"),
        seat_fields=("seat",),
    ),
    "moved": EventSpec(
        ("seat", "steps", "stripe", "gems", "pot"),
        N_(
            "{seat} draws footprint {steps}: the knight goes to stripe {stripe}; "
            "the pot gains {gems} (now {pot})"
        ),
        seat_fields=("seat",),
    ),
    "lair_short": EventSpec(
        ("stripe", "shown", "paid"),
        N_("the lair runs short: it pays {paid} of the {shown} gems for stripe {stripe}"),
    ),
    "stop": EventSpec(
        ("seat", "pot"),
        N_(
            "{seat} draws a Stop: the knight flees to the tail and the pot of {pot} "
            "goes back to the lair"
        ),
        seat_fields=("seat",),
    ),
    "danger": EventSpec(
        ("seat", "number", "pot", "dragon"),
        N_(
            "{seat} draws Danger {number}: the dragon is {dragon}; the knight flees and "
            "the pot of {pot} goes back to the lair"
        ),
        seat_fields=("seat",),
    ),
    "penalty": EventSpec(
        ("seat", "gems", "fraction"),
        plural(
            "{seat} pays a {fraction} penalty of {gems} gem into the lair",
            "{seat} pays a {fraction} penalty of {gems} gems into the lair",
            "gems",
        ),
        ("seat", "fraction"),
        N_("{seat} pays a {fraction} penalty into the lair"),
        seat_fields=("seat",),
    ),
    "held": EventSpec(
        ("seat", "pot", "price"),
        N_("{seat} holds with a pot of {pot}; the knight is offered for {price}"),
        seat_fields=("seat",),
    ),
    "declined": EventSpec(("seat",), N_("{seat} declines"), seat_fields=("seat",)),
    "took": EventSpec(
        ("seat", "from_seat", "price", "pot"),
        N_("{seat} takes over the knight and the pot of {pot}, paying {price} to {from_seat}"),
        seat_fields=(
            "seat",
            "from_seat",
        ),
    ),
    "banked": EventSpec(
        ("seat", "pot"),
        N_("nobody takes the knight: {seat} banks the pot of {pot}"),
        seat_fields=("seat",),
    ),
    "head": EventSpec(
        ("seat", "steps", "pot", "lair"),
        N_(
            "{seat} draws footprint {steps}: the knight reaches the dragon's head! "
            "{seat} takes the pot of {pot} and the {lair} gems left in the lair"
        ),
        seat_fields=("seat",),
    ),
    "woke": EventSpec(
        ("seat", "lost", "pot"),
        N_(
            "{seat} draws the third Danger: the dragon wakes! {seat} loses all {lost} gems; "
            "the pot of {pot} goes back to the lair"
        ),
        seat_fields=("seat",),
    ),
    "game_over": EventSpec(
        ("reason", "winners", "gems"),
        N_("game over, {reason}; gems by seat: {gems}; richest: seat {winners}"),
    ),
}

WORDS: Final[tuple[str, ...]] = (
    N_("open holdings"),
    N_("half awake"),
    N_("stirring"),
    N_("asleep"),
    N_("awake"),
    N_("the knight reached the dragon's head"),
    N_("the third Danger woke the dragon"),
    N_("woke the dragon"),
    N_("takeover prices received"),
    N_("penalties"),
    N_("banked pots"),
    N_("start"),
    N_("dragon's head"),
    N_("takeover prices paid"),
    N_("footprint"),
    N_("stop"),
    N_("danger"),
)
"""Words the engine writes into events, results and views (printed names, phases, scoring
lines), marked for translation; each surface translates them where it shows them."""
