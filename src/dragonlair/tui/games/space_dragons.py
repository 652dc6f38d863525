"""Space Dragons at the terminal: the face-up dragon, this round's cards, every ship with
its shields and damage, the crews played so far, and your hand with each card's effects
and symbols."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Action, Game
from ...i18n import N_, _, ngettext
from ...space_dragons.kinds import HIRE, HUNT
from ...space_dragons.view_types import SpaceDragonsView
from ..parts import TerminalParts

EFFECT_ICONS = {
    "shield": ("⛨", "cyan"),
    "tool": ("⚒", "green"),
    "damage": ("✹", "red"),
    "crosshair": ("⌖", "magenta"),
}
SYMBOL_ICONS = (("⚛", "blue"), ("♥", "green"), ("☠", "grey62"))


def _symbols(text: Text, symbols: Sequence[int]) -> None:
    for (icon, style), n in zip(SYMBOL_ICONS, symbols, strict=True):
        if n:
            text.append(icon * n, style=style)


def crew_card(game: Game, number: int) -> Text:
    """``42 ⌖ ⚛ +1``: number, effects in order, symbols, points."""
    card = game.components.card(number)  # type: ignore[attr-defined]
    t = Text(f"{number:>2}", style="bold")
    if card.effects:
        t.append(" ")
        for e in card.effects:
            icon, style = EFFECT_ICONS[e]
            t.append(icon, style=style)
    if any(card.symbols):
        t.append(" ")
        _symbols(t, card.symbols)
    if card.points:
        t.append(f" {card.points:+d}", style="green" if card.points > 0 else "red")
    return t


def dragon_card(game: Game, dragon: int) -> Text:
    d = game.components.dragons[dragon - 1]  # type: ignore[attr-defined]
    t = Text("[" + _("dragon {points}").format(points=d.points) + "]", style="bold yellow")
    if any(d.symbols):
        t.append(" ")
        _symbols(t, d.symbols)
    return t


def _row(items: Sequence[Text], sep: str = "  ") -> Text:
    out = Text()
    for i, item in enumerate(items):
        if i:
            out.append(sep)
        out.append_text(item)
    return out


def _pairs(names: Sequence[str], values: Sequence[Any]) -> list[str]:
    return [f"{names[s]} {v}" for s, v in enumerate(values)]


EVENT_TEXT = {
    "game_over": N_("final points {points}; won by {winners} ({reason})"),
    "start_draw": N_(
        "start-player draw: {cards}; {start_seat} drew the highest and starts; "
        "these cards leave the game"
    ),
}


BIG_EVENTS = ("claimed", "damaged", "game_over")  # not to be missed (TERMINAL)


def event_fields(game: Game, event: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    out = dict(event)
    kind = event.get("type")
    if kind == "game_over":
        out["points"] = _pairs(names, event.get("points") or [])
        out["winners"] = [names[s] for s in event.get("winners") or []]
    elif kind == "start_draw":
        out["cards"] = _pairs(names, event.get("cards") or [])
    elif kind == "scored":
        out["counts"] = _pairs(names, event.get("counts") or [])
        out["awards"] = _pairs(names, event.get("awards") or [])
    return out


NUMBER_KINDS = ("hire", "play")


def board(
    game: Game, view: SpaceDragonsView, names: Sequence[str], width: int = 80
) -> RenderableType:
    top = Text()
    top.append(_(view.get("phase_name", view["phase"])), style="bold")
    if view["phase"] == HUNT:
        top.append("  ·  " + _("round {round}/7").format(round=view["round"]))
    sides = view.get("scoring_cards", {})
    top.append(
        "  ·  "
        + _("scoring cards:")
        + " "
        + ", ".join(f"{_(k)} {v.upper()}" for k, v in sides.items())
    )
    top.append(
        "  ·  "
        + _("lair {lair}  ·  draw pile {pile}").format(lair=view["lair"], pile=view["pile"]),
        style="dim",
    )
    parts: list[RenderableType] = [top]
    if face_up := view["face_up"]:
        face = Text(_("Face-up dragon:") + " ")
        face.append_text(dragon_card(game, face_up))
        parts.append(face)
    if view.get("this_round"):
        played = [
            Text(f"{names[s]}: ").append_text(crew_card(game, c)) for s, c in view["this_round"]
        ]
        parts.append(Text(_("This round:") + " ").append_text(_row(played, "   ")))
    legend = Text(_("effects: ⛨ shield ⚒ tool ✹ damage ⌖ crosshair") + "   ", style="dim")
    legend.append(_("symbols: ⚛ science ♥ mood ☠ crime"), style="dim")
    parts.append(legend)
    return Group(*parts)


def brief(
    game: Game, view: SpaceDragonsView, names: Sequence[str], width: int = 80
) -> RenderableType:
    """What a small screen shows first: the round and the face-up dragon, the cards of
    this round by player (and who is still to play), and the points so far."""
    top = Text(_(view.get("phase_name", view["phase"])), style="bold")
    if view["phase"] == HUNT:
        top.append("  ·  " + _("round {round}/7").format(round=view["round"]))
    if face_up := view["face_up"]:
        top.append("  ·  " + _("Face-up dragon:") + " ")
        top.append_text(dragon_card(game, face_up))
    parts: list[RenderableType] = [top]
    if view["phase"] == HUNT:
        trick = Text(_("This round:") + " ", style="bold")
        played = {s: c for s, c in view.get("this_round") or []}
        order = [(view["starter"] + i) % view["players"] for i in range(view["players"])]
        for i, s in enumerate(order):
            if i:
                trick.append("  ")
            trick.append(f"{names[s]} ")
            if s in played:
                trick.append_text(crew_card(game, played[s]))
            else:
                trick.append("…", style="dim")
        parts.append(trick)
    points = view.get("card_points") or [0] * view["players"]
    leaders = Text(_("points so far:") + " ", style="bold")
    for i, s in enumerate(sorted(range(view["players"]), key=lambda s: (-points[s], s))):
        if i:
            leaders.append(" · ")
        dragons = len(view["claimed"][s])
        leaders.append(f"{names[s]} {points[s]}")
        if dragons:
            won = ngettext("{n} dragon", "{n} dragons", dragons).format(n=dragons)
            leaders.append(f" ({won})", style="yellow")
    parts.append(leaders)
    return Group(*parts)


def players(
    game: Game, view: SpaceDragonsView, names: Sequence[str], width: int = 80
) -> RenderableType:
    seat = view.get("seat")
    ships = Table(box=None, pad_edge=False, padding=(0, 1))
    for col in (
        N_("player"),
        N_("hand"),
        "⛨",
        "✹",
        "⚛ ♥ ☠",
        N_("pts"),
        N_("dragons"),
        N_("crew played"),
    ):
        ships.add_column(
            _(col), justify="left" if col in ("player", "crew played", "dragons") else "right"
        )
    symbols = view.get("symbols", {})
    for s in range(view["players"]):
        mark = " " + _("(you)") if s == seat and names[s] != "You" else ""
        counts = " ".join(str(symbols.get(k, [0] * 9)[s]) for k in ("science", "mood", "crime"))
        held = f"{view['hand_sizes'][s]}"
        if view["phase"] == HIRE:
            held += f" +{view['pick_counts'][s]}"
        ships.add_row(
            names[s] + mark,
            held,
            str(view["shields"][s]),
            str(view["damage"][s]),
            counts,
            str(view.get("card_points", [0] * 9)[s]),
            _row([dragon_card(game, d) for d in view["claimed"][s]], " "),
            " ".join(str(c) for c in view["played"][s]),
        )
    return ships


def cards_of(game: Game, action: Action) -> tuple[int, ...]:
    """The card a choice hires or plays (marked in the hand as you go over it)."""
    card = action.args[0]
    return (card,) if isinstance(card, int) else ()


def _marked(game: Game, card: int, lit: frozenset[int]) -> Text:
    text = crew_card(game, card)
    if card in lit:
        text = Text("▸").append_text(text)
        text.stylize("reverse")
    return text


def hand(
    game: Game, view: SpaceDragonsView, names: Sequence[str], lit: frozenset[int] = frozenset()
) -> RenderableType:
    cards = view.get("hand") or []
    out = (
        _row([_marked(game, c, lit) for c in cards], "  ")
        if cards
        else Text(_("no cards"), style="dim")
    )
    if picks := view["picks"]:
        out.append("\n" + _("hired so far:") + " ", style="dim")
        out.append_text(_row([crew_card(game, c) for c in picks], "  "))
    return out


def label(game: Game, action: Action, names: Sequence[str], me: int | None = None) -> str:
    """``tool, tool, tool; mood 1; +3 pts``: the card's effects, symbols and points."""
    text = game.describe_action(action).removeprefix(str(action)).strip()
    return text.removeprefix("(").removesuffix(")") or str(action)


TERMINAL = TerminalParts(
    board=board,
    players=players,
    hand=hand,
    brief=brief,
    label=label,
    cards_of=cards_of,
    event_fields=event_fields,
    event_text=EVENT_TEXT,
    big_events=BIG_EVENTS,
    number_kinds=NUMBER_KINDS,
)
"""What the manifest's ``terminal`` names."""
