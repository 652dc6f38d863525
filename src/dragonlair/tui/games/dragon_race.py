"""The Great Dragon Race at the terminal: the track with its watering holes, shortcut,
Ballista Bolts, Flaming Balls and every pawn; the players with their hand sizes; your cards.

Players' words: a card is named as printed (``2``, ``2 (B)`` with an insignia of a dragon at
the table, ``Tornado!``, ``HALT! 4``); ``play 2`` plays your 2, ``play 2b`` the one with
insignia B when you hold both, ``blow tornado 3`` blows Player 3 back, ``steal 2`` robs
Player 2. The record keeps the card ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core import Action, Game
from ...dragon_race.view_types import DragonRaceView
from ...i18n import N_, _, ngettext
from ..parts import TerminalParts

PAWN_STYLES = (
    "bold white on red",
    "bold white on blue",
    "bold black on green",
    "bold black on yellow",
)
PER_ROW = 20
NUMBER_KINDS = ("play",)


# ---------------------------------------------------------------------- cards in words


def card_word(game: Game, card: int) -> str:
    """A card as printed on its face, as every text names it: ``2``, ``2 (B)``,
    ``Tornado!``, ``HALT! 4``."""
    g: Any = game
    return str(g.card_name[card])


def _plain(game: Game, card: int) -> str:
    """The card as typed: ``2 b``, ``tornado``, ``halt 4``, ``passing wind``."""
    return card_word(game, card).lower().replace("!", "").replace("(", "").replace(")", "")


def forms(game: Game, action: Action) -> list[str]:
    g: Any = game
    aid = game.action_id(action)
    card = g.a_card[aid]
    if action.kind == "play":
        c = g.components.cards[card - 1]
        word = _plain(game, card)
        out = [f"play {word}"]
        if c.kind == "number" and " " in word:
            out += [f"play {word.replace(' ', '')}", f"play {c.value}"]
        if c.kind == "halt":
            out.append(f"play {c.value}")
        return out
    if action.kind == "blow":
        target = g.a_target[aid] + 1
        word = _plain(game, card)
        return [f"blow {word} {target}", f"play {word} {target}", f"{word} {target}"]
    if action.kind == "triple":
        cards = g.a_cards[aid]
        value = g.components.cards[cards[0] - 1].value
        # the printed insignias (as the label shows them), "-" for a card without one
        letters = " ".join(str(g.components.cards[c - 1].insignia or "-") for c in cards)
        return [f"triple {value}", f"triple {value} {letters}"]
    if action.kind == "halt":
        return [f"halt {g.components.cards[card - 1].value}", "halt"]
    if action.kind == "steal":
        return [f"steal {g.a_target[aid] + 1}"]
    return [str(action)]


def label(game: Game, action: Action, names: Sequence[str], me: int | None = None) -> str:
    g: Any = game
    aid = game.action_id(action)
    card = g.a_card[aid]
    if action.kind in ("play", "blow"):
        c = g.components.cards[card - 1]
        word = card_word(game, card)
        if action.kind == "blow":
            who = names[g.a_target[aid]]
            if c.kind == "tornado":
                return _("{card} on {who}: back to the watering hole behind them").format(
                    card=word, who=who
                )
            return _("{card} on {who}: blow them back to the spot behind you").format(
                card=word, who=who
            )
        if c.kind == "number":
            text = _("move ahead {n}").format(n=c.value)
            if me is not None and g.card_owner[card] == me:
                text += "; " + _("your insignia: you play again")
            return text
        if c.kind == "halt":
            return _("{card} as a number: move ahead {n}").format(card=word, n=c.value)
        text = game.describe_action(action).removeprefix(f"play {g.card_name[card]}")
        return text.removeprefix(":").strip()
    if action.kind == "triple":
        words = ", ".join(card_word(game, c) for c in g.a_cards[aid])
        return _("three of a kind ({cards}): fly to the next watering hole ahead").format(
            cards=words
        )
    if action.kind == "halt":
        return _("call HALT! with your {card}: cancel this turn").format(card=card_word(game, card))
    if action.kind == "steal":
        return _("steal a random card from {who}").format(who=names[g.a_target[aid]])
    if action.kind == "stop":
        return _("end your turn")
    return _("let it stand")


BIG_EVENTS = ("halted", "robbed", "won", "capped")  # not to be missed (TERMINAL)


def event_fields(game: Game, event: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The event with the pawns' spots by seat name (the engine's texts name every card by
    its face already)."""
    out = dict(event)
    if event.get("type") == "returned" and isinstance(out.get("spots"), list):
        out["spots"] = [f"{names[s]} {p}" for s, p in enumerate(out["spots"])]
    return out


# ---------------------------------------------------------------------- the table


def _terrain(board: Any, spot: int) -> tuple[str, str]:
    if spot == board.start:
        return "St", "bold"
    if spot == board.finish:
        return "Fi", "bold"
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


def track(
    game: Game, pawns: Sequence[int], per_row: int = PER_ROW, only: Sequence[int] = ()
) -> Text:
    """The track in rows of ``per_row`` spots (only the rows holding the spots ``only``,
    if given): numbers, terrain and pawns."""
    board = game.board  # type: ignore[attr-defined]
    out = Text()
    for row_start in range(0, board.finish + 1, per_row):
        if only and not any(row_start <= spot < row_start + per_row for spot in only):
            continue
        spots = range(row_start, min(row_start + per_row, board.finish + 1))
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
                here.append(f"P{seats[0] + 1}", style=PAWN_STYLES[seats[0] % 4])
            else:
                here.append(f"{'×' + str(len(seats)):>3}", style="bold reverse")
        out.append_text(numbers)
        out.append("\n")
        out.append_text(ground)
        out.append("\n")
        out.append_text(here)
        out.append("\n")
    return out


def _top(view: DragonRaceView, names: Sequence[str]) -> Text:
    top = Text(_("turn {turn}").format(turn=view["turn"]))
    active = view.get("active")
    if isinstance(active, int) and active >= 0:
        top.append("  ·  " + _("{name} playing").format(name=names[active]), style="bold")
    if view.get("bonus"):
        top.append("  ·  " + _("insignia bonus play"), style="green")
    return top


def brief(
    game: Game, view: DragonRaceView, names: Sequence[str], width: int = 80
) -> RenderableType:
    """What a small screen shows first: the turn, the pawns from the leader down, and the
    section of the track where the pawn in play is."""
    pawns: list[int] = view["pawns"]
    finish = game.board.finish  # type: ignore[attr-defined]
    leaders = Text(_("leaders:") + " ", style="bold")
    for i, s in enumerate(sorted(range(len(pawns)), key=lambda s: (-pawns[s], s))):
        if i:
            leaders.append(" · ")
        leaders.append(f"P{s + 1}", style=PAWN_STYLES[s % 4])
        leaders.append(f" {names[s]} {pawns[s]}")
    active = view.get("active")
    here = pawns[active] if isinstance(active, int) and active >= 0 else max(pawns)
    per_row = max(10, min(PER_ROW, (width - 1) // 3))
    top = _top(view, names).append("  ·  " + _("Finish {spot}").format(spot=finish), style="dim")
    section = track(game, pawns, per_row, only=(here,))
    section.rstrip()
    return Group(top, leaders, section)


def board(
    game: Game, view: DragonRaceView, names: Sequence[str], width: int = 80
) -> RenderableType:
    parts: list[RenderableType] = [_top(view, names)]
    per_row = max(10, min(PER_ROW, (width - 1) // 3))
    parts.append(track(game, view["pawns"], per_row))
    parts.append(
        Text(
            _(
                "St start ~~ watering hole ↱ shortcut ↳ exit ⇶ Ballista Bolt ● Flaming Ball "
                "Fi finish; P1..P4 pawns (×2: two pawns)"
            ),
            style="dim",
        )
    )
    if view["pawns"] != view.get("turn_start", view["pawns"]):
        parts.append(
            Text(
                _("A HALT! would send every pawn back to:")
                + " "
                + ", ".join(f"{names[s]} {p}" for s, p in enumerate(view["turn_start"])),
                style="yellow",
            )
        )
    if (stolen := view["stolen"]) is not None:
        parts.append(
            Text(_("Stolen card: {card}").format(card=card_word(game, stolen)), style="yellow")
        )
    discards = view.get("discards") or []
    pile = Text(
        ngettext("Draw pile: {n} card", "Draw pile: {n} cards", view["draw_size"]).format(
            n=view["draw_size"]
        ),
        style="dim",
    )
    if discards:
        pile.append(
            "  ·  "
            + _("discards (newest last):")
            + " "
            + ", ".join(card_word(game, c) for c in discards[-6:])
            + " "
            + _("({n} in all)").format(n=len(discards))
        )
    parts.append(pile)
    return Group(*parts)


def players(
    game: Game, view: DragonRaceView, names: Sequence[str], width: int = 80
) -> RenderableType:
    seat = view.get("seat")
    g: Any = game
    table = Table(box=None, pad_edge=False, padding=(0, 1))
    for col in ("", N_("player"), N_("insignia"), N_("spot"), N_("cards"), ""):
        table.add_column(_(col) if col else col)
    characters = g.components.characters
    for s in range(view["players"]):
        mark = " " + _("(you)") if s == seat and names[s] != "You" else ""
        table.add_row(
            Text(f"P{s + 1}", style=PAWN_STYLES[s % 4]),
            names[s] + mark,
            str(characters[s].insignia),
            str(view["pawns"][s]),
            str(view["hand_sizes"][s]),
            _("robbed: draws 1 extra") if view["extra_draw"][s] else "",
        )
    return table


def cards_of(game: Game, action: Action) -> tuple[int, ...]:
    """The cards of your hand that a choice plays (marked in the hand as you go over it)."""
    g: Any = game
    aid = game.action_id(action)
    return tuple(g.a_cards[aid]) if action.kind == "triple" else (g.a_card[aid],)


def hand(
    game: Game, view: DragonRaceView, names: Sequence[str], lit: frozenset[int] = frozenset()
) -> RenderableType:
    cards = view.get("hand") or []
    if not cards:
        return Text(_("no cards"), style="dim")
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append("  ")
        if c in lit:
            out.append(f"▸[{card_word(game, c)}]", style="bold reverse")
        else:
            out.append(f" [{card_word(game, c)}]", style="bold")
    return out


TERMINAL = TerminalParts(
    board=board,
    players=players,
    hand=hand,
    brief=brief,
    forms=forms,
    label=label,
    cards_of=cards_of,
    event_fields=event_fields,
    big_events=BIG_EVENTS,
    number_kinds=NUMBER_KINDS,
)
"""What the manifest's ``terminal`` names."""
