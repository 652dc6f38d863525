"""Dragon Stripes at the terminal: the dragon's back with its stripes, the knight, the pot,
the dragon's mood; what each player has paid and received in the open; your gems."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Action, Game
from ...dragon_stripes.view import DragonStripesView

MOODS = {
    "asleep": "z asleep",
    "stirring": "! stirring",
    "half awake": "!! half awake",
    "awake": "!!! AWAKE",
}

EVENT_TEXT = {
    "game_over": "game over, {reason}; gems: {gems}; richest: {winners}",
}


def event_fields(game: Game, event: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    out = dict(event)
    if event.get("type") == "game_over":
        out["gems"] = [f"{names[s]} {g}" for s, g in enumerate(event.get("gems") or [])]
        out["winners"] = [names[s] for s in event.get("winners") or []]
    return out


def board(
    game: Game, view: DragonStripesView, names: Sequence[str], width: int = 80
) -> RenderableType:
    stripes: list[int] = view["stripes"]
    knight: int = view["knight"]
    mult: int = view.get("reward_multiplier", 1)
    back = Text("tail ")
    for i, gems in enumerate(stripes, 1):
        cell = f"♞{gems * mult}" if i == knight else f"{gems * mult}"
        back.append(
            f"[{cell}]",
            style="bold black on yellow"
            if i == knight
            else ("red" if i > 12 else "green" if i <= 6 else "yellow"),
        )
    back.append(" head", style="bold red" if knight >= len(stripes) else "")
    status = Table.grid(padding=(0, 2))
    status.add_row(
        Text(f"pot {view['pot']}", style="bold"),
        Text(f"takeover price {view.get('price', '-')}"),
        Text(f"dragon {MOODS.get(view['dragon'], view['dragon'])}"),
        Text(f"Dangers {view['dangers']}/3", style="red" if view["dangers"] else ""),
        Text(f"Stop costs {view['penalty']}"),
    )
    holder = view.get("holder")
    turn = Text()
    if isinstance(holder, int) and holder >= 0:
        turn.append(f"knight: {names[holder]}")
        if view.get("must_draw"):
            turn.append(" (must draw before holding)", style="dim")
        turn.append("   ")
    drawn = view.get("drawn", [])
    recent = ", ".join(drawn[-6:]) if drawn else "nothing yet"
    turn.append(f"cards drawn: {len(drawn)} (latest: {recent})")
    deck = ", ".join(f"{k} ×{n}" for k, n in view.get("deck_left", {}).items())
    parts: list[RenderableType] = [
        back,
        Text("♞ the knight; stripes 1-6 green, 7-12 yellow, 13+ red", style="dim"),
        status,
        turn,
        Text(f"deck ({view['deck_size']}): {deck}", style="dim"),
    ]
    if "all_gems" in view:
        parts.append(
            Text(
                "Gems: " + ", ".join(f"{names[i]} {g}" for i, g in enumerate(view["all_gems"])),
                style="bold",
            )
        )
        parts.append(Text(f"Lair: {view['lair']}", style="dim"))
    if view.get("lair_empty"):
        parts.append(Text("The lair has run dry.", style="yellow"))
    return Group(*parts)


def players(
    game: Game, view: DragonStripesView, names: Sequence[str], width: int = 80
) -> RenderableType:
    ledger = Table(box=None, pad_edge=False, padding=(0, 1), title="gems in the open")
    for col in ("player", "banked", "received", "paid", "penalties"):
        ledger.add_column(col, justify="right" if col != "player" else "left")
    for seat, row in enumerate(view.get("ledger", [])):
        mark = " (you)" if seat == view.get("seat") and names[seat] != "You" else ""
        penalties = f"{row['penalties']}×¼ {row['half_penalties']}×½"
        ledger.add_row(
            names[seat] + mark,
            str(row["banked"]),
            str(row["received"]),
            str(row["paid"]),
            penalties,
        )
    return ledger


def hand(game: Game, view: DragonStripesView, names: Sequence[str]) -> RenderableType:
    if view.get("gems") is None:
        return Text("-", style="dim")
    return Text(f"Your gems (secret): {view['gems']}", style="bold green")


def label(game: Game, action: Action, names: Sequence[str], me: int | None = None) -> str:
    """What the choice does, without repeating its word (``draw: ...``)."""
    text = game.describe_action(action)
    return text.split(": ", 1)[1] if ": " in text else text
