"""The vocabulary of Space Race: phases, and the kinds of action and event.

A leaf module: it imports only the core, so the rules, the views, the heuristic
and every surface (layouts, boards, the browser's catalog) name these once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, get_args

from dragonlair.core import ActionKind, EventSpec
from dragonlair.i18n import N_, plural

# The phases: six simultaneous secret picks of the Upgrade phase; the Danger card and its
# simultaneous secret bids; the end. (Action ids follow the card ids: see the rules.)
Phase = Literal["upgrade", "danger", "over"]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
# What a player reads for each phase (``Game.phase_names``).
PHASE_NAMES: Final[Mapping[str, str]] = {
    "upgrade": N_("Upgrade"),
    "danger": N_("Danger"),
    "over": N_("Over"),
}
UPGRADE: Final[Phase] = "upgrade"
DANGER: Final[Phase] = "danger"


ACTION_KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind("up", ("card",), N_("play a Space card face up into your ship")),
    ActionKind("cockpit", ("card",), N_("connect a Power Source to your Cockpit")),
    ActionKind("engine", ("card",), N_("connect a Power Source to your Engine")),
    ActionKind("fuel", ("card",), N_("play a Space card face down as Fuel")),
    ActionKind("bid", ("amount",), N_("bid that many Fuel (Flight) or Crew (Fight) cards")),
)

EVENT_SPECS: Final[Mapping[str, EventSpec]] = {
    "round": EventSpec(
        ("round", "rounds"), N_("round {round} of {rounds} begins with the Upgrade phase")
    ),
    "dealt": EventSpec(
        ("seat", "count", "cards", "names"),
        N_("{seat} was dealt {names}"),
        ("seat", "count"),
        plural(
            "{seat} was dealt {count} Space card", "{seat} was dealt {count} Space cards", "count"
        ),
        seat_fields=("seat",),
    ),
    "coin": EventSpec(
        ("round", "face", "direction"),
        N_("the Navigation Coin shows {face}: hands pass {direction} in round {round}"),
    ),
    "chose": EventSpec(
        ("seat", "choice"),
        N_("{seat} chose {choice}"),
        ("seat",),
        N_("{seat} chose a card"),
        seat_fields=("seat",),
    ),
    "placed": EventSpec(
        ("seat", "how", "card", "name"),
        N_("{seat} played {name} {how}"),
        ("seat", "how"),
        N_("{seat} played a card {how}"),
        seat_fields=("seat",),
    ),
    "scanned": EventSpec(
        ("seat", "card", "name"),
        N_("{seat} looked at the top Danger card: {name}"),
        ("seat",),
        N_("{seat} looked at the top Danger card"),
        seat_fields=("seat",),
    ),
    "passed": EventSpec(("direction",), N_("the rest of every hand passes {direction}")),
    "received": EventSpec(
        ("seat", "from_seat", "count", "cards", "names"),
        N_("{seat} received {names} from {from_seat}"),
        ("seat", "from_seat", "count"),
        N_("{seat} received the rest of {from_seat}'s hand"),
        seat_fields=(
            "seat",
            "from_seat",
        ),
    ),
    "danger": EventSpec(
        ("round", "card", "bid", "name"),
        N_("Danger of round {round}: {name}; everyone bids {bid}"),
    ),
    "bid_chosen": EventSpec(
        ("seat", "amount"),
        N_("{seat} chose to bid {amount}"),
        ("seat",),
        N_("{seat} chose a bid"),
        seat_fields=("seat",),
    ),
    "bids": EventSpec(
        ("bid", "bids", "ranks"), N_("bids of {bid} revealed: {bids}; ranks {ranks}")
    ),
    "unharmed": EventSpec(
        ("seat", "rank"), N_("{seat}, ranked {rank}, leaves undamaged"), seat_fields=("seat",)
    ),
    "repaired": EventSpec(
        ("seat", "rank", "count", "cards", "names"),
        N_("{seat}, ranked {rank}, removes {count} Damage: {names}"),
        seat_fields=("seat",),
    ),
    "damaged": EventSpec(
        ("seat", "rank", "count", "cards", "names"),
        N_("{seat}, ranked {rank}, takes {count} Damage: {names}"),
        seat_fields=("seat",),
    ),
    "refilled": EventSpec(
        ("count",),
        plural(
            "the Damage deck is refilled by shuffling {count} removed Damage card",
            "the Damage deck is refilled by shuffling {count} removed Damage cards",
            "count",
        ),
    ),
    "no_damage_left": EventSpec(
        ("seat",), N_("no Damage cards are left for {seat} to draw"), seat_fields=("seat",)
    ),
    "spent": EventSpec(
        ("seat", "bid", "count", "cards", "names"),
        N_("{seat} discards the {count} {bid} bid: {names}"),
        ("seat", "bid", "count"),
        N_("{seat} discards the {count} {bid} bid"),
        seat_fields=("seat",),
    ),
    "final": EventSpec(("points", "winners"), N_("final scores {points}; winning seats {winners}")),
}

WORDS: Final[tuple[str, ...]] = (
    N_("every power source"),
    N_("scanner"),
    N_("Crew"),
    N_("Fuel"),
    N_("left (clockwise)"),
    N_("right (counter-clockwise)"),
    N_("left"),
    N_("right"),
    N_("face down as Fuel"),
    N_("face up"),
    N_("on the Cockpit"),
    N_("on the Engine"),
    N_("Fight"),
    N_("Flight"),
    N_("wrench"),
    N_("wrenches"),
    N_("damage"),
    N_("1st"),
    N_("2nd"),
    N_("3rd"),
    N_("4th"),
    N_("5th"),
    N_("6th"),
    N_("loot carriers"),
    N_("alien drones"),
    N_("colour bonus"),
    N_("fuel"),
    N_("complete robots"),
    N_("robot parts"),
    N_("power sources"),
    N_("scanners"),
    N_("crystal sets"),
    N_("crew"),
    N_("crystals"),
    N_("nothing to repair"),
    N_("Alien Invasion"),
    N_("Fire Onboard"),
    N_("Hull Breach"),
    N_("Alien Drone"),
    N_("Green Crystal"),
    N_("Green Power Source"),
    N_("Green Robot Body"),
    N_("Green Robot Head"),
    N_("Green Robot Legs"),
    N_("Green Scanner"),
    N_("Loot Carrier"),
    N_("Orange Crystal"),
    N_("Orange Power Source"),
    N_("Orange Robot Body"),
    N_("Orange Robot Head"),
    N_("Orange Robot Legs"),
    N_("Orange Scanner"),
    N_("Purple Crystal"),
    N_("Purple Power Source"),
    N_("Purple Robot Body"),
    N_("Purple Robot Head"),
    N_("Purple Robot Legs"),
    N_("Purple Scanner"),
)
"""Words the engine writes into events, results and views (printed names, phases, scoring
lines), marked for translation; each surface translates them where it shows them."""
