"""The vocabulary of Space Dragons: action ids, phases, and the kinds of action and event.

A leaf module: it imports only the core and the card count of :mod:`.cards`, so the rules,
the views, the heuristic and every surface (layouts, boards, the browser's catalog) name
these once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, get_args

from dragonlair.core import ActionKind, EventSpec
from dragonlair.i18n import N_, plural

from .cards import CREW_CARDS

# Action ids: "hire <n>" is n - 1, "play <n>" is 79 + n.
HIRE_BASE: Final = -1
PLAY_BASE: Final = CREW_CARDS - 1

# The phases: Hiring Crew (simultaneous secret picks), the Dragon Hunt, the end.
Phase = Literal["hire", "hunt", "over"]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
HIRE: Final[Phase] = "hire"
HUNT: Final[Phase] = "hunt"
PHASE_NAMES: Final[Mapping[str, str]] = {
    "hire": N_("Hiring Crew"),
    "hunt": N_("Dragon Hunt"),
    "over": N_("Game over"),
}


ACTION_KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind("hire", ("card",), N_("Hiring Crew: lay this card face down in your crew")),
    ActionKind("play", ("card",), N_("Dragon Hunt: play this crew card face up")),
)

EVENT_SPECS: Final[Mapping[str, EventSpec]] = {
    # the counts of cards dealt and of dragons in the lair are the data file's hand_size
    # and rounds (cards.Components), so the texts take them as fields
    "setup": EventSpec(
        ("pile", "science", "mood", "crime", "hand", "lair"),
        plural(
            "setup: {hand} crew card each, a dragon's lair of {lair}, a spaceship each; "
            "scoring cards science {science}, mood {mood}, crime {crime}; {pile} cards in "
            "the draw pile",
            "setup: {hand} crew cards each, a dragon's lair of {lair}, a spaceship each; "
            "scoring cards science {science}, mood {mood}, crime {crime}; {pile} cards in "
            "the draw pile",
            "hand",
        ),
    ),
    "dealt": EventSpec(
        ("seat", "cards", "count"),
        N_("{seat} is dealt {cards}"),
        ("seat", "count"),
        plural("{seat} is dealt {count} card", "{seat} is dealt {count} cards", "count"),
        seat_fields=("seat",),
    ),
    "start_draw": EventSpec(
        ("cards", "start_seat"),
        N_(
            "start-player draw (seat by seat): {cards}; {start_seat} drew the highest and "
            "starts; these cards leave the game"
        ),
        seat_fields=("start_seat",),
    ),
    "revealed": EventSpec(("dragon", "label"), N_("the dragon's lair reveals {label}")),
    "hired": EventSpec(
        ("seat", "card"),
        N_("{seat} hires {card}"),
        ("seat",),
        N_("{seat} hires a crew member"),
        seat_fields=("seat",),
    ),
    "passed": EventSpec(("after",), N_("{after}: every hand passes to the left")),
    "received": EventSpec(
        ("seat", "cards"),
        N_("{seat} receives {cards}"),
        ("seat",),
        N_("{seat} receives the hand passed to them"),
        seat_fields=("seat",),
    ),
    "crew_hired": EventSpec(
        ("picks",),
        plural(
            "hiring is over: everyone takes their {picks} pick into hand",
            "hiring is over: everyone takes their {picks} picks into hand",
            "picks",
        ),
    ),
    "round_start": EventSpec(
        ("round", "seat"), N_("round {round}: {seat} starts"), seat_fields=("seat",)
    ),
    "played": EventSpec(
        ("seat", "card", "label"), N_("{seat} plays {label}"), seat_fields=("seat",)
    ),
    "shield": EventSpec(
        ("seat", "what", "shields"),
        plural(
            "{seat} tucks {what} under their ship as a shield ({shields} shield)",
            "{seat} tucks {what} under their ship as a shield ({shields} shields)",
            "shields",
        ),
        seat_fields=("seat",),
    ),
    "shield_lost": EventSpec(
        ("seat", "cause", "shields"),
        plural(
            "{seat} loses a shield to {cause} ({shields} shield)",
            "{seat} loses a shield to {cause} ({shields} shields)",
            "shields",
        ),
        seat_fields=("seat",),
    ),
    "damaged": EventSpec(
        ("seat", "cause", "what", "damage"),
        N_("{seat} has no shield against {cause}: {what} is tucked as damage ({damage} damage)"),
        seat_fields=("seat",),
    ),
    "repaired": EventSpec(
        ("seat", "damage"),
        N_("{seat}'s tool repairs a damage ({damage} damage)"),
        seat_fields=("seat",),
    ),
    "tool_idle": EventSpec(
        ("seat",), N_("{seat}'s tool has no damage to repair"), seat_fields=("seat",)
    ),
    "crosshairs": EventSpec(
        ("winner", "hits"),
        plural(
            "{winner} has the highest card: the others' crosshairs hit it {hits} time",
            "{winner} has the highest card: the others' crosshairs hit it {hits} times",
            "hits",
        ),
        seat_fields=("winner",),
    ),
    "claimed": EventSpec(
        ("winner", "card", "dragon", "label"),
        N_("{winner} wins the round with {card} and claims {label}"),
        seat_fields=("winner",),
    ),
    "set_aside": EventSpec(
        ("left",),
        plural(
            "the hunt is over: the {left} unplayed card of each hand is set aside",
            "the hunt is over: the {left} unplayed cards of each hand are set aside",
            "left",
        ),
    ),
    "scored": EventSpec(
        ("card", "side", "counts", "awards"),
        N_("{card} scoring card (side {side}): counts {counts} score {awards}"),
    ),
    "game_over": EventSpec(
        ("points", "winners", "reason"),
        N_("final points {points}; seat(s) {winners} win ({reason})"),
    ),
}

WORDS: Final[tuple[str, ...]] = (
    N_("b sides"),
    N_("variant"),
    N_("a crosshair"),
    N_("damage"),
    N_("a draw-pile card"),
    N_("most points"),
    N_("after pick"),
    N_("crime"),
    N_("science"),
    N_("mood"),
    N_("crew points"),
    N_("shields"),
    N_("dragons"),
    N_("dragon"),
    N_("pts"),
    N_("pt"),
    N_("tool"),
    N_("shield"),
    N_("crosshair"),
    N_("flame"),
    N_("no effect"),
    N_("most"),
    N_("least"),
    N_("second most"),
    N_("second least"),
    N_("fewest"),
    N_("second fewest"),
    N_("Hire"),
    N_("Hunt"),
    N_("Over"),
)
"""Words the engine writes into events, results and views (printed names, phases, scoring
lines), marked for translation; each surface translates them where it shows them."""
