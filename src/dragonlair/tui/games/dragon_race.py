"""The Great Dragon Race at the terminal: the track with its watering holes, shortcut,
Ballista Bolts, Flaming Balls and every pawn; the players' hands by size; your cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Game
from ...dragon_race.view import DragonRaceView

PAWN_STYLES = (
    "bold white on red",
    "bold white on blue",
    "bold black on green",
    "bold black on yellow",
)
PER_ROW = 20


def _terrain(board: Any, spot: int) -> tuple[str, str]:
    if spot == board.start:
        return "St", "bold"
    if spot == board.finish:
        return "🏁", "bold"
    if spot in board.watering_holes:
        return "~~", "bold blue"
    if spot == board.entry_arrow:
        return "↱", "bold magenta"
    if spot == board.exit_arrow:
        return "↳", "bold magenta"
    if spot in board.ballista_bolts:
        return "⇶", "red"
    if spot in board.flaming_balls:
        return "●", "dark_orange"
    if board.entry_arrow < spot < board.exit_arrow:
        return "·", "dim magenta"
    return "·", "dim"


def track(game: Game, pawns: Sequence[int]) -> Text:
    board = game.board  # type: ignore[attr-defined]
    out = Text()
    for row_start in range(0, board.finish + 1, PER_ROW):
        spots = range(row_start, min(row_start + PER_ROW, board.finish + 1))
        numbers, ground, here = Text(), Text(), Text()
        for spot in spots:
            numbers.append(f"{spot:>3}", style="dim")
            mark, style = _terrain(board, spot)
            ground.append(f"{mark:>3}", style=style)
            seats = [s for s, p in enumerate(pawns) if p == spot]
            if not seats:
                here.append("   ")
            elif len(seats) == 1:
                here.append(" ")
                here.append(f"{seats[0] + 1:>2}", style=PAWN_STYLES[seats[0] % 4])
            else:
                here.append(f"{'×' + str(len(seats)):>3}", style="bold reverse")
        out.append_text(numbers)
        out.append("\n")
        out.append_text(ground)
        out.append("\n")
        out.append_text(here)
        out.append("\n")
    return out


def board(game: Game, view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    # every view of this game is a DragonRaceView (the conformance suite checks it)
    return _board(game, cast(DragonRaceView, view), names)


def _board(game: Game, view: DragonRaceView, names: Sequence[str]) -> RenderableType:
    seat = view.get("seat")
    g: Any = game
    parts: list[RenderableType] = []
    top = Text(f"turn {view['turn']}")
    active = view.get("active")
    if isinstance(active, int) and active >= 0:
        top.append(f"  ·  {names[active]} is playing", style="bold")
    if view.get("last"):
        top.append(f"  ·  last play: {view['last']}")
    if view.get("bonus"):
        top.append("  ·  insignia bonus play", style="green")
    parts.append(top)
    parts.append(track(game, view["pawns"]))
    parts.append(
        Text(
            "St start  ~~ watering hole  ↱ shortcut entry  ↳ exit  ⇶ Ballista Bolt  "
            "● Flaming Ball  🏁 finish",
            style="dim",
        )
    )
    if view["pawns"] != view.get("turn_start", view["pawns"]):
        parts.append(
            Text(
                "A HALT! would send every pawn back to: "
                + ", ".join(f"{names[s]} {p}" for s, p in enumerate(view["turn_start"])),
                style="yellow",
            )
        )
    players = Table(title="players", title_style="dim")
    for col in ("", "player", "dragon", "spot", "cards", "robbed"):
        players.add_column(col)
    characters = g.components.characters
    for s in range(view["players"]):
        mark = " (you)" if s == seat else ""
        char = characters[s] if s < len(characters) else None
        players.add_row(
            Text(f"{s + 1}", style=PAWN_STYLES[s % 4]),
            names[s] + mark,
            f"{char.name} ({char.insignia})" if char else "",
            str(view["pawns"][s]),
            str(view["hand_sizes"][s]),
            "draws 1 extra" if view["extra_draw"][s] else "",
        )
    parts.append(players)
    if view.get("stolen") is not None:
        parts.append(Text(f"Stolen card: {g.describe_card(view['stolen'])}", style="yellow"))
    if seat is not None:
        hand = view.get("hand") or []
        hand_text = Text("Your hand: ")
        for i, c in enumerate(hand):
            if i:
                hand_text.append("  |  ")
            hand_text.append(g.card_name[c], style="bold")
        parts.append(hand_text if hand else Text("Your hand: -"))
    discards = view.get("discards") or []
    if discards:
        parts.append(
            Text(
                "Discards (newest last): "
                + ", ".join(g.card_name[c] for c in discards[-8:])
                + f"  ({len(discards)} in all)",
                style="dim",
            )
        )
    parts.append(Text(f"Draw pile: {view['draw_size']} cards", style="dim"))
    return Group(*parts)
