"""Space Race (2021) at the terminal: every ship with its stacks (the top card last),
Power Sources on cockpit and engine, Drones, Loot Carriers, Crew, Fuel and Damage; the
Danger card and the bidding; your hand.

Players' words: cards by their printed names (``up green crystal``, ``fuel crew``,
``cockpit orange power source``); the record keeps the card ids. A colour is always
written with its letter (O, G, P), never shown by colour alone."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Action, Game
from ...i18n import N_, _, ngettext
from ...space_race.kinds import UPGRADE
from ...space_race.view_types import SpaceRaceView
from ..parts import TerminalParts

COLOURS = {"orange": "dark_orange", "green": "green", "purple": "magenta"}
STACKS = (
    ("scanners", N_("Scanners")),
    ("robot_parts", N_("Robot")),
    ("crystals", N_("Crystals")),
    ("power_cockpit", N_("Cockpit power")),
    ("power_engine", N_("Engine power")),
)


@cache
def _catalog(game: Game) -> dict[str, Any]:
    catalog: dict[str, Any] = game.catalog()  # type: ignore[attr-defined]
    return catalog


def space_card(game: Game, card: int) -> Text:
    """A Space card by its printed name (its colour is part of the name)."""
    c = _catalog(game)["space"][card - 1]
    style = COLOURS.get(c["color"] or "", "white")
    return Text(_(c["name"]), style=style)


def card_word(game: Game, card: int) -> str:
    return str(_catalog(game)["space"][card - 1]["name"])


def danger_card(game: Game, card: int) -> Text:
    d = _catalog(game)["danger"][card - 1]
    kind = _("FIGHT") if d["kind"] == "fight" else _("FLIGHT")
    t = Text(f"{kind} ", style="bold red" if d["kind"] == "fight" else "bold cyan")
    for place, rank in enumerate(d["ranks"], 1):
        n = rank["n"]
        if rank["icon"] == "wrench":
            icon = ngettext("{n} wrench", "{n} wrenches", n).format(n=n)
        elif rank["icon"] == "damage":
            icon = ngettext("{n} damage", "{n} damage", n).format(n=n)
        else:
            icon = _("nothing")
        t.append(f" {place}: {icon}")
    return t


TOKENS = {"head": "H", "body": "B", "legs": "L"}


LETTERS = {"orange": "O", "green": "G", "purple": "P"}
_ID = re.compile(r" ?\(#\d+\)")


def forms(game: Game, action: Action) -> list[str]:
    if action.kind == "bid":
        return [str(action)]
    card = action.args[0]
    assert isinstance(card, int)
    return [f"{action.kind} {card_word(game, card).lower()}"]


def label(game: Game, action: Action, names: Sequence[str], me: int | None = None) -> str:
    """What the play does (``face up: 1 VP``); the card itself is in the typed form."""
    text = _ID.sub("", game.describe_action(action))
    if action.kind != "bid":
        card = action.args[0]
        assert isinstance(card, int)
        text = text.removeprefix(f"play {card_word(game, card)} ")
    return text


def _pairs(names: Sequence[str], values: Sequence[Any]) -> list[str]:
    return [f"{names[s]} {v}" for s, v in enumerate(values)]


EVENT_TEXT = {
    "final": N_("final scores {points}; won by {winners}"),
}


BIG_EVENTS = ("danger", "damaged", "final")  # not to be missed (TERMINAL)


def event_fields(game: Game, event: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    out = dict(event)
    kind = event.get("type")
    if kind == "final":
        out["points"] = _pairs(names, event.get("points") or [])
        out["winners"] = [names[s] for s in event.get("winners") or []]
    elif kind == "bids":
        out["bids"] = _pairs(names, event.get("bids") or [])
        out["ranks"] = _pairs(names, event.get("ranks") or [])
    return out


def _stack(game: Game, cards: Sequence[int], token: bool = True) -> Text:
    """A stack bottom first, each card by its colour's letter (and its part for Robot
    parts); the top card (last) underlined."""
    out = Text()
    space = _catalog(game)["space"]
    for i, card in enumerate(cards):
        c = space[card - 1]
        part = TOKENS.get(c["part"] or "", "")
        letter = LETTERS.get(c["color"] or "", "?")
        style = COLOURS.get(c["color"] or "", "white")
        if i:
            out.append(" ")
        out.append(part + letter, style=f"bold {style} underline" if i == len(cards) - 1 else style)
    return out


def _cards(game: Game, cards: Sequence[int]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(", ")
        out.append_text(space_card(game, c))
    return out


def board(game: Game, view: SpaceRaceView, names: Sequence[str], width: int = 80) -> RenderableType:
    top = Text(
        _("round {round}/{rounds}").format(round=view["round"], rounds=view["rounds"]) + "  ·  ",
        style="bold",
    )
    if view["phase"] == UPGRADE:
        arrow = _("left (clockwise)") if view.get("direction") == "left" else _("right")
        top.append(
            _("Upgrade, pick {pick}/6  ·  hands pass {arrow}").format(
                pick=view["pick"], arrow=arrow
            )
        )
    else:
        top.append(_("Danger: bid {what}").format(what=_(view.get("bidding") or "-")))
    top.append(
        "  ·  "
        + _("decks: Space {space}, Danger {danger}, Damage {damage}").format(
            space=view["space_deck"], danger=view["danger_deck"], damage=view["damage_deck"]
        ),
        style="dim",
    )
    parts: list[RenderableType] = [top]
    if danger := view["danger"]:
        parts.append(Text(_("Danger card:") + " ").append_text(danger_card(game, danger)))
    if danger_top := view["danger_top"]:
        parts.append(
            Text(_("Your Scanner shows the next Danger card:") + " ", style="green").append_text(
                danger_card(game, danger_top)
            )
        )
    if (last_bids := view["last_bids"]) is not None:
        parts.append(Text(_("Last bids:") + " " + ", ".join(_pairs(names, last_bids))))
    parts.append(
        Text(
            _(
                "stacks bottom first, top underlined; O orange G green P purple; "
                "Robot parts H head B body L legs"
            ),
            style="dim",
        )
    )
    return Group(*parts)


def players(
    game: Game, view: SpaceRaceView, names: Sequence[str], width: int = 80
) -> RenderableType:
    seat = view.get("seat")
    scores = view.get("score") or []
    damage_cat = _catalog(game)["damage"]
    rows: list[RenderableType] = []
    wide = width >= 96
    table = Table(box=None, pad_edge=False, padding=(0, 1))
    for col in (N_("player"), *(label for _key, label in STACKS)):
        table.add_column(_(col))
    for col in (N_("Drones"), N_("Loot"), N_("Crew"), N_("Fuel"), N_("Damage"), N_("VP")):
        table.add_column(_(col), justify="right")
    for ship in view["ships"]:
        s = ship["seat"]
        mark = " " + _("(you)") if s == seat and names[s] != "You" else ""
        damage = sum(damage_cat[d - 1]["vp"] for d in ship["damage"])
        dmg = f"{len(ship['damage'])} ({damage})" if ship["damage"] else "0"
        vp = str(scores[s]) if s < len(scores) else ""
        if wide:
            table.add_row(
                f"{names[s]}{mark}",
                *[_stack(game, ship[key]) for key, _label in STACKS],  # type: ignore[literal-required]
                str(len(ship["alien_drones"])),
                str(len(ship["loot_carriers"])),
                str(len(ship["crew"])),
                str(ship["fuel"]),
                dmg,
                vp,
            )
            continue
        line = Text(f"{names[s]}{mark}", style="bold")
        line.append(
            "  "
            + _(
                "VP {vp}  Fuel {fuel}  Crew {crew}  Drones {drones}  Loot {loot}  Damage {damage}"
            ).format(
                vp=vp,
                fuel=ship["fuel"],
                crew=len(ship["crew"]),
                drones=len(ship["alien_drones"]),
                loot=len(ship["loot_carriers"]),
                damage=dmg,
            )
        )
        stacks = Text("  ")
        for key, short in STACKS:
            cards = ship[key]  # type: ignore[literal-required]
            if cards:
                stacks.append(f"{_(short)}: ", style="dim")
                stacks.append_text(_stack(game, cards))
                stacks.append("  ")
        rows.append(line)
        rows.append(stacks if len(stacks) > 2 else Text("  " + _("no stacks yet"), style="dim"))
    return table if wide else Group(*rows)


def cards_of(game: Game, action: Action) -> tuple[int, ...]:
    """The card a choice plays (marked in the hand as you go over it)."""
    card = action.args[0] if action.kind != "bid" else None
    return (card,) if isinstance(card, int) else ()


def hand(
    game: Game, view: SpaceRaceView, names: Sequence[str], lit: frozenset[int] = frozenset()
) -> RenderableType:
    out = Text()
    cards = view.get("hand") or []
    if not cards:
        out.append(_("no cards"), style="dim")
    for i, c in enumerate(cards):
        if i:
            out.append(", ")
        if c in lit:
            out.append("▸")
            out.append_text(space_card(game, c))
            out.stylize("reverse", len(out) - len(_(card_word(game, c))) - 1)
        else:
            out.append_text(space_card(game, c))
    seat = view.get("seat")
    if seat is not None:
        mine = view["ships"][seat]
        if fuel_cards := mine["fuel_cards"]:
            out.append("\n" + _("your Fuel (face down):") + " ", style="dim")
            out.append_text(_cards(game, fuel_cards))
    return out


TERMINAL = TerminalParts(
    board=board,
    players=players,
    hand=hand,
    forms=forms,
    label=label,
    cards_of=cards_of,
    event_fields=event_fields,
    event_text=EVENT_TEXT,
    big_events=BIG_EVENTS,
)
"""What the manifest's ``terminal`` names."""
