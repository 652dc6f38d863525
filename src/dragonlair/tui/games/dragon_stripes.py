"""Dragon Stripes at the terminal: the dragon's back with its stripes, the knight, the pot,
the dragon's mood; what each player has paid and received in the open; your gems."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Action, Game
from ...dragon_stripes.view_types import DragonStripesView
from ...i18n import N_, _, words
from ..parts import TerminalParts

MOODS = {
    "asleep": ("z", N_("asleep")),
    "stirring": ("!", N_("stirring")),
    "half awake": ("!!", N_("half awake")),
    "awake": ("!!!", N_("AWAKE")),
}

EVENT_TEXT = {
    "game_over": N_("game over, {reason}; gems: {gems}; richest: {winners}"),
}


BIG_EVENTS = ("danger", "woke", "took", "game_over")  # not to be missed (TERMINAL)


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
    back = Text(_("tail") + " ")
    for i, gems in enumerate(stripes, 1):
        cell = f"♞{gems * mult}" if i == knight else f"{gems * mult}"
        back.append(
            f"[{cell}]",
            style="bold black on yellow"
            if i == knight
            else ("red" if i > 12 else "green" if i <= 6 else "yellow"),
        )
    back.append(" " + _("head"), style="bold red" if knight >= len(stripes) else "")
    status = Table.grid(padding=(0, 2))
    status.add_row(
        Text(_("pot {pot}").format(pot=view["pot"]), style="bold"),
        Text(_("takeover price {price}").format(price=view.get("price", "-"))),
        Text(_("dragon {mood}").format(mood=_mood(view["dragon"]))),
        Text(_("Dangers {n}/3").format(n=view["dangers"]), style="red" if view["dangers"] else ""),
        Text(_("Stop costs {penalty}").format(penalty=_(str(view["penalty"])))),
    )
    holder = view.get("holder")
    turn = Text()
    if isinstance(holder, int) and holder >= 0:
        turn.append(_("knight: {name}").format(name=names[holder]))
        if view.get("must_draw"):
            turn.append(" " + _("(must draw before holding)"), style="dim")
        turn.append("   ")
    drawn = view.get("drawn", [])
    recent = ", ".join(words(d) for d in drawn[-6:]) if drawn else _("nothing yet")
    turn.append(_("cards drawn: {n} (latest: {recent})").format(n=len(drawn), recent=recent))
    deck = ", ".join(f"{words(k)} ×{n}" for k, n in view.get("deck_left", {}).items())
    parts: list[RenderableType] = [
        back,
        Text(_("♞ the knight; stripes 1-6 green, 7-12 yellow, 13+ red"), style="dim"),
        status,
        turn,
        Text(_("deck ({n}): {cards}").format(n=view["deck_size"], cards=deck), style="dim"),
    ]
    if "all_gems" in view:
        parts.append(
            Text(
                _("Gems:")
                + " "
                + ", ".join(f"{names[i]} {g}" for i, g in enumerate(view["all_gems"])),
                style="bold",
            )
        )
        parts.append(Text(_("Lair: {gems}").format(gems=view["lair"]), style="dim"))
    if view.get("lair_empty"):
        parts.append(Text(_("The lair has run dry."), style="yellow"))
    return Group(*parts)


def players(
    game: Game, view: DragonStripesView, names: Sequence[str], width: int = 80
) -> RenderableType:
    ledger = Table(box=None, pad_edge=False, padding=(0, 1), title=_("gems in the open"))
    for col in (N_("player"), N_("banked"), N_("received"), N_("paid"), N_("penalties")):
        ledger.add_column(_(col), justify="right" if col != "player" else "left")
    for seat, row in enumerate(view.get("ledger", [])):
        mark = " " + _("(you)") if seat == view.get("seat") and names[seat] != "You" else ""
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
    return Text(_("Your gems (secret): {gems}").format(gems=view["gems"]), style="bold green")


def label(game: Game, action: Action, names: Sequence[str], me: int | None = None) -> str:
    """What the choice does, without repeating its word (``draw: ...``)."""
    text = game.describe_action(action)
    return text.split(": ", 1)[1] if ": " in text else text


def _mood(dragon: str) -> str:
    sign, word = MOODS.get(dragon, ("", dragon))
    return f"{sign} {_(word)}".strip()


TERMINAL = TerminalParts(
    board=board,
    players=players,
    hand=hand,
    label=label,
    event_fields=event_fields,
    event_text=EVENT_TEXT,
    big_events=BIG_EVENTS,
)
"""What the manifest's ``terminal`` names."""
