"""Dragon Stripes at the terminal: the dragon's back with its stripes, the knight, the pot,
the dragon's mood, and what each player has paid and received in the open."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Game
from ...dragon_stripes.view import DragonStripesView

MOODS = {
    "asleep": "😴 asleep",
    "stirring": "😠 stirring",
    "half awake": "🐉 half awake",
    "awake": "🔥 AWAKE",
}


def board(game: Game, view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    # every view of this game is a DragonStripesView (the conformance suite checks it)
    return _board(game, cast(DragonStripesView, view), names)


def _board(game: Game, view: DragonStripesView, names: Sequence[str]) -> RenderableType:
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
    back.append(" head 🐲", style="bold red" if knight >= len(stripes) else "")
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
    drawn = view.get("drawn", [])
    recent = ", ".join(drawn[-6:]) if drawn else "nothing yet"
    turn.append(f"   cards drawn so far: {len(drawn)} (latest: {recent})")
    deck = ", ".join(f"{k} ×{n}" for k, n in view.get("deck_left", {}).items())
    ledger = Table(title="gems in the open", title_style="dim")
    for col in ("player", "banked", "received", "paid", "penalties"):
        ledger.add_column(col, justify="right" if col != "player" else "left")
    for seat, row in enumerate(view.get("ledger", [])):
        mark = " (you)" if seat == view.get("seat") else ""
        penalties = f"{row['penalties']}×¼ {row['half_penalties']}×½"
        ledger.add_row(
            names[seat] + mark,
            str(row["banked"]),
            str(row["received"]),
            str(row["paid"]),
            penalties,
        )
    parts: list[RenderableType] = [
        back,
        status,
        turn,
        Text(f"deck ({view['deck_size']}): {deck}", style="dim"),
    ]
    if view.get("gems") is not None:
        parts.append(Text(f"Your gems: {view['gems']}", style="bold green"))
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
    parts.append(ledger)
    return Group(*parts)
