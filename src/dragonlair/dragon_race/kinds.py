"""The vocabulary of The Great Dragon Race: kinds of action, phases, and the event table.

A leaf module: it imports only the core, so the rules, the views, the heuristic
and every surface (layouts, boards, the browser's catalog) name these once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, get_args

from dragonlair.core import ActionKind, EventSpec
from dragonlair.i18n import N_, plural

# Kinds of action, for the tables indexed by action id (``DragonRace.a_kind``).
A_PLAY: Final = 0
A_BLOW: Final = 1
A_TRIPLE: Final = 2
A_HALT: Final = 3
A_STEAL: Final = 4
A_STOP: Final = 5
A_PASS: Final = 6

# The phases (see the rules' module docstring).
Phase = Literal["play", "halt-play", "victim", "halt-steal", "stolen", "over"]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
# What a player reads for each phase (``Game.phase_names``).
PHASE_NAMES: Final[Mapping[str, str]] = {
    "play": N_("Play"),
    "halt-play": N_("Halt play"),
    "victim": N_("Victim"),
    "halt-steal": N_("Halt steal"),
    "stolen": N_("Stolen"),
    "over": N_("Over"),
}
PLAY: Final[Phase] = "play"
HALT_PLAY: Final[Phase] = "halt-play"
VICTIM: Final[Phase] = "victim"
HALT_STEAL: Final[Phase] = "halt-steal"
STOLEN: Final[Phase] = "stolen"
PENDING_STEAL: Final[tuple[Phase, ...]] = (HALT_STEAL, STOLEN)  # a stolen card is in play
PENDING_HALT: Final[tuple[Phase, ...]] = (HALT_PLAY, HALT_STEAL)  # the HALT! windows


ACTION_KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind("play", ("card",), N_("play a card from your hand (or the card you stole)")),
    ActionKind("blow", ("card", "seat"), N_("play a Tornado! or Downdraft! on a seat's pawn")),
    ActionKind(
        "triple", ("card", "card", "card"), N_("three of a kind: fly to the next watering hole")
    ),
    ActionKind("halt", ("card",), N_("discard a HALT! card to cancel this turn")),
    ActionKind("steal", ("seat",), N_("rob an opponent on your spot of a random card")),
    ActionKind("stop", (), N_("end your turn without another play")),
    ActionKind("pass", (), N_("let the play or steal stand")),
)

EVENT_SPECS: Final[Mapping[str, EventSpec]] = {
    "dealt": EventSpec(
        ("seat", "count", "cards", "names"),
        N_("{seat} is dealt {names}"),
        ("seat", "count"),
        plural("{seat} is dealt {count} card", "{seat} is dealt {count} cards", "count"),
        seat_fields=("seat",),
    ),
    "turn": EventSpec(("seat", "turn"), N_("turn {turn}: {seat} to play"), seat_fields=("seat",)),
    "drew": EventSpec(
        ("seat", "count", "cards", "names"),
        N_("{seat} draws {names}"),
        ("seat", "count"),
        plural("{seat} draws {count} card", "{seat} draws {count} cards", "count"),
        seat_fields=("seat",),
    ),
    "reshuffled": EventSpec(
        ("count",),
        plural(
            "the {count} discarded card is shuffled into a new draw pile",
            "the {count} discarded cards are shuffled into a new draw pile",
            "count",
        ),
    ),
    "played": EventSpec(("seat", "card", "name"), N_("{seat} plays {name}"), seat_fields=("seat",)),
    "played_stolen": EventSpec(
        ("seat", "card", "name"),
        N_("{seat} plays the stolen {name}"),
        seat_fields=("seat",),
    ),
    "triple": EventSpec(
        ("seat", "value", "cards"),
        N_("{seat} plays three {value}s"),
        seat_fields=("seat",),
    ),
    "shortcut": EventSpec(
        ("seat",), N_("{seat} flies the shortcut through the flaming hoops"), seat_fields=("seat",)
    ),
    "moved": EventSpec(
        ("seat", "from_spot", "to_spot"),
        N_("{seat} moves from spot {from_spot} to {to_spot}"),
        seat_fields=("seat",),
    ),
    "no_effect": EventSpec(("seat",), N_("no pawn moves"), seat_fields=("seat",)),
    "halted": EventSpec(
        ("seat", "card", "name", "target"),
        N_("{seat} calls HALT! with {name}: {target}'s turn is cancelled"),
        seat_fields=(
            "seat",
            "target",
        ),
    ),
    "returned": EventSpec(("spots",), N_("every pawn goes back to where the turn began: {spots}")),
    "hazard": EventSpec(
        ("seat", "hazard", "card", "name"),
        N_("{seat} lands on a {hazard} and discards {name}"),
        seat_fields=("seat",),
    ),
    "bonus": EventSpec(
        ("seat",), N_("{seat} played their own insignia: another play"), seat_fields=("seat",)
    ),
    "robbed": EventSpec(
        ("seat", "victim", "card", "name"),
        N_("{seat} steals {name} from {victim}"),
        ("seat", "victim"),
        N_("{seat} steals a card from {victim}"),
        seat_fields=(
            "seat",
            "victim",
        ),
    ),
    "given_back": EventSpec(
        ("seat", "victim", "card", "name"),
        N_("{victim} gets {name} back from {seat}"),
        ("seat", "victim"),
        N_("{victim} gets the stolen card back from {seat}"),
        seat_fields=(
            "seat",
            "victim",
        ),
    ),
    "stopped": EventSpec(("seat",), N_("{seat} ends the turn"), seat_fields=("seat",)),
    "won": EventSpec(
        ("seat", "spot"), N_("{seat} reaches the Finish and wins the race!"), seat_fields=("seat",)
    ),
    "capped": EventSpec(
        ("turns",),
        plural(
            "the race is stopped after {turns} turn: the pawn furthest ahead wins",
            "the race is stopped after {turns} turns: the pawn furthest ahead wins",
            "turns",
        ),
    ),
}

WORDS: Final[tuple[str, ...]] = (
    N_("turn cap"),
    N_("bonus play"),
    N_("ballista bolt"),
    N_("flaming ball"),
    N_("spot reached"),
    N_("turn cap: the pawn furthest ahead wins"),
    N_("Dragon A"),
    N_("Dragon B"),
    N_("Dragon C"),
    N_("Dragon D"),
)
"""Words the engine writes into events, results and views (printed names, phases, scoring
lines), marked for translation; each surface translates them where it shows them."""
