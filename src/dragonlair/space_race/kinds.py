"""The vocabulary of Space Race: phases, and the kinds of action and event.

A leaf module: it imports only the core, so the rules, the views, the heuristic
and every surface (layouts, boards, the browser's catalog) name these once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, get_args

from dragonlair.core import ActionKind, EventSpec

# The phases: six simultaneous secret picks of the Upgrade phase; the Danger card and its
# simultaneous secret bids; the end. (Action ids follow the card ids: see the rules.)
Phase = Literal["upgrade", "danger", "over"]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
UPGRADE: Final[Phase] = "upgrade"
DANGER: Final[Phase] = "danger"


ACTION_KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind("up", ("card",), "play a Space card face up into your ship"),
    ActionKind("cockpit", ("card",), "connect a Power Source to your Cockpit"),
    ActionKind("engine", ("card",), "connect a Power Source to your Engine"),
    ActionKind("fuel", ("card",), "play a Space card face down as Fuel"),
    ActionKind("bid", ("amount",), "bid that many Fuel (Flight) or Crew (Fight) cards"),
)

EVENT_SPECS: Final[Mapping[str, EventSpec]] = {
    "round": EventSpec(("round",), "round {round} of 3 begins with the Upgrade phase"),
    "dealt": EventSpec(
        ("seat", "count", "cards"),
        "{seat} was dealt {cards}",
        ("seat", "count"),
        "{seat} was dealt {count} Space cards",
        seat_fields=("seat",),
    ),
    "coin": EventSpec(
        ("round", "face", "direction"),
        "the Navigation Coin shows {face}: hands pass {direction} in round {round}",
    ),
    "chose": EventSpec(
        ("seat", "choice"),
        "{seat} chose {choice}",
        ("seat",),
        "{seat} chose a card",
        seat_fields=("seat",),
    ),
    "placed": EventSpec(
        ("seat", "how", "card", "name"),
        "{seat} played {name} (#{card}) {how}",
        ("seat", "how"),
        "{seat} played a card {how}",
        seat_fields=("seat",),
    ),
    "scanned": EventSpec(
        ("seat", "card", "name"),
        "{seat} looked at the top Danger card: {name}",
        ("seat",),
        "{seat} looked at the top Danger card",
        seat_fields=("seat",),
    ),
    "passed": EventSpec(("direction",), "the rest of every hand passes {direction}"),
    "received": EventSpec(
        ("seat", "from_seat", "count", "cards"),
        "{seat} received {cards} from {from_seat}",
        ("seat", "from_seat", "count"),
        "{seat} received the rest of {from_seat}'s hand",
        seat_fields=(
            "seat",
            "from_seat",
        ),
    ),
    "danger": EventSpec(
        ("round", "card", "bid", "name"),
        "Danger of round {round}: {name}; everyone bids {bid}",
    ),
    "bid_chosen": EventSpec(
        ("seat", "amount"),
        "{seat} chose to bid {amount}",
        ("seat",),
        "{seat} chose a bid",
        seat_fields=("seat",),
    ),
    "bids": EventSpec(("bid", "bids", "ranks"), "bids of {bid} revealed: {bids}; ranks {ranks}"),
    "unharmed": EventSpec(
        ("seat", "rank"), "{seat}, ranked {rank}, leaves undamaged", seat_fields=("seat",)
    ),
    "repaired": EventSpec(
        ("seat", "rank", "count", "cards", "names"),
        "{seat}, ranked {rank}, removes {count} Damage: {names}",
        seat_fields=("seat",),
    ),
    "damaged": EventSpec(
        ("seat", "rank", "count", "cards", "names"),
        "{seat}, ranked {rank}, takes {count} Damage: {names}",
        seat_fields=("seat",),
    ),
    "refilled": EventSpec(
        ("count",), "the Damage deck is refilled by shuffling {count} removed Damage cards"
    ),
    "no_damage_left": EventSpec(
        ("seat",), "no Damage cards are left for {seat} to draw", seat_fields=("seat",)
    ),
    "spent": EventSpec(
        ("seat", "bid", "count", "cards"),
        "{seat} discards the {count} {bid} bid: {cards}",
        ("seat", "bid", "count"),
        "{seat} discards the {count} {bid} bid",
        seat_fields=("seat",),
    ),
    "final": EventSpec(("points", "winners"), "final scores {points}; winning seats {winners}"),
}
