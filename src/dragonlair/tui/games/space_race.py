"""Space Race (2021) at the terminal: every ship with its stacks (the top card last),
Power Sources on cockpit and engine, Drones, Loot Carriers, Crew, Fuel and Damage; the
Danger card and the bidding; your hand."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Game
from ...space_race.kinds import UPGRADE
from ...space_race.view import SpaceRaceView

COLOURS = {"orange": "dark_orange", "green": "green", "purple": "magenta"}
STACKS = (
    ("scanners", "Scanners"),
    ("robot_parts", "Robot"),
    ("crystals", "Crystals"),
    ("power_cockpit", "Power@cockpit"),
    ("power_engine", "Power@engine"),
)
ICONS = {"wrench": "🔧", "damage": "💥", "x": "✖"}


@cache
def _catalog(game: Game) -> dict[str, Any]:
    catalog: dict[str, Any] = game.catalog()  # type: ignore[attr-defined]
    return catalog


def space_card(game: Game, card: int) -> Text:
    c = _catalog(game)["space"][card - 1]
    name = c["name"]
    style = COLOURS.get(c["color"] or "", "white")
    return Text(f"{name} #{card}", style=style)


def danger_card(game: Game, card: int) -> Text:
    d = _catalog(game)["danger"][card - 1]
    t = Text(f"{d['kind'].upper()} ", style="bold red" if d["kind"] == "fight" else "bold cyan")
    for place, rank in enumerate(d["ranks"], 1):
        icon = ICONS.get(rank["icon"], rank["icon"])
        t.append(f" {place}: {icon}{'×' + str(rank['n']) if rank['n'] > 1 else ''}")
    return t


TOKENS = {
    "scanner": "◉",
    "crystal": "◆",
    "power_source": "⚡",
    "head": "H",
    "body": "B",
    "legs": "L",
}


def _stack(game: Game, cards: Sequence[int]) -> Text:
    """A stack as coloured tokens, bottom first; the top card (last) in bold."""
    out = Text()
    space = _catalog(game)["space"]
    for i, card in enumerate(cards):
        c = space[card - 1]
        token = TOKENS.get(c["part"] or c["type"], "▪")
        style = COLOURS.get(c["color"] or "", "white")
        out.append(token, style=f"bold {style} underline" if i == len(cards) - 1 else style)
    return out


def _cards(game: Game, cards: Sequence[int]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(", ")
        out.append_text(space_card(game, c))
    return out


def board(game: Game, view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    # every view of this game is a SpaceRaceView (the conformance suite checks it)
    return _board(game, cast(SpaceRaceView, view), names)


def _board(game: Game, view: SpaceRaceView, names: Sequence[str]) -> RenderableType:
    seat = view.get("seat")
    top = Text(f"round {view['round']}/{view['rounds']}  ·  ", style="bold")
    if view["phase"] == UPGRADE:
        arrow = "⟳ left (clockwise)" if view.get("direction") == "left" else "⟲ right"
        top.append(f"Upgrade, pick {view['pick']}/6  ·  hands pass {arrow}")
    else:
        top.append(f"Danger: bid {view.get('bidding') or '-'}")
    top.append(
        f"  ·  Space deck {view['space_deck']}  ·  Danger deck {view['danger_deck']}"
        f"  ·  Damage deck {view['damage_deck']}",
        style="dim",
    )
    parts: list[RenderableType] = [top]
    if danger := view["danger"]:
        parts.append(Text("Danger card: ").append_text(danger_card(game, danger)))
    if danger_top := view["danger_top"]:
        parts.append(
            Text("Your Scanner shows the next Danger card: ", style="green").append_text(
                danger_card(game, danger_top)
            )
        )
    if (last_bids := view["last_bids"]) is not None:
        parts.append(
            Text("Last bids: " + ", ".join(f"{names[s]} {b}" for s, b in enumerate(last_bids)))
        )
    ships = Table(title="ships (stacks list the top card last)", title_style="dim")
    ships.add_column("player", style="bold")
    for _, label in STACKS:
        ships.add_column(label)
    for col in ("Drones", "Loot", "Crew", "Fuel", "Damage", "VP so far"):
        ships.add_column(col, justify="right")
    scores = view.get("score") or []
    damage_cat = _catalog(game)["damage"]
    for ship in view["ships"]:
        s = ship["seat"]
        mark = " (you)" if s == seat else ""
        damage = sum(damage_cat[d - 1]["vp"] for d in ship["damage"])
        ships.add_row(
            f"{names[s]}{mark}\n[dim]{ship['cockpit']}[/dim]",
            *[_stack(game, ship[key]) for key, _ in STACKS],  # type: ignore[literal-required]
            str(len(ship["alien_drones"])),
            str(len(ship["loot_carriers"])),
            str(len(ship["crew"])),
            str(ship["fuel"]),
            f"{len(ship['damage'])} ({damage})" if ship["damage"] else "0",
            str(scores[s]) if s < len(scores) else "",
        )
    parts.append(ships)
    parts.append(
        Text(
            "◉ Scanner  H/B/L Robot head/body/legs  ◆ Crystal  ⚡ Power Source; "
            "colour = card colour; underlined = top of the stack",
            style="dim",
        )
    )
    if seat is not None:
        mine = view["ships"][seat]
        if fuel_cards := mine["fuel_cards"]:
            parts.append(Text("Your Fuel (face down): ").append_text(_cards(game, fuel_cards)))
        hand = view.get("hand") or []
        parts.append(Text("Your hand: ").append_text(_cards(game, hand) if hand else Text("-")))
    return Group(*parts)
