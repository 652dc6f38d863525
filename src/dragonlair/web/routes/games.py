"""The games the server offers: their specs, bot levels and rules in brief."""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter

from ...bots import UnknownBot, archetypes, levels, make_bot
from ...core import DragonlairError, games, make, spec
from ...core.puzzles import puzzles
from ...i18n import using
from ...tutorial import has_tutorial
from ..catalog import rules
from ..language import LangQuery, check
from ..protocol import GameInfo, ProtocolError, PuzzleInfo, RulesInfo

router = APIRouter(tags=["lobby"])


@cache
def bot_levels(game_id: str, rules_version: int) -> tuple[str, ...]:
    """The bot levels that can play ``game_id`` (some need an optional extra): random,
    heuristic and ismcts, then the game's archetypes."""
    g = make(game_id)
    found = []
    for level in levels(game_id):
        try:
            make_bot(level, g)
        except UnknownBot:
            continue
        found.append(level)
    return tuple(found)


def game_info(game_id: str) -> GameInfo:
    """A game's description; ProtocolError ``unknown_game`` (404) if there is none."""
    try:
        s = spec(game_id)
    except DragonlairError as e:
        raise ProtocolError("unknown_game", str(e), 404) from None
    styles = {a.name: a.summary for a in archetypes(game_id).values()}
    return GameInfo(
        **s.to_dict(),  # type: ignore[arg-type]
        bots=list(bot_levels(game_id, s.rules_version)),
        styles=styles,
        tutorial=has_tutorial(game_id),
    )


@router.get("/api/games")
async def list_games() -> list[GameInfo]:
    """The games, their player counts and options, and the bot levels each has."""
    return [game_info(g) for g in games()]


@router.get("/api/games/{game_id}")
async def get_game(game_id: str) -> GameInfo:
    """One game's description."""
    return game_info(game_id)


@router.get("/api/games/{game_id}/rules")
async def get_rules(game_id: str, lang: LangQuery = "en") -> RulesInfo:
    """A game's rules in brief, our rulings and deviations, and what each action does,
    in ``lang``."""
    game_info(game_id)  # unknown_game
    with using(check(lang)):
        return RulesInfo(**rules(make(game_id)))


@cache
def puzzle_list() -> tuple[PuzzleInfo, ...]:
    """The puzzles every game ships (read once: they are package data)."""
    out = []
    for p in puzzles():
        players = p.doc.get("players")
        out.append(
            PuzzleInfo(
                name=p.name,
                game=p.game,
                title=p.title,
                source=p.source,
                notes=p.notes,
                seat=p.seat,
                question=p.question,
                players=players if isinstance(players, int) else make(p.game).players,
            )
        )
    return tuple(out)


@router.get("/api/puzzles")
async def list_puzzles(game: str | None = None) -> list[PuzzleInfo]:
    """The positions the games ship as puzzles (start a practice table from one with the
    table request's ``puzzle``); ``game`` keeps one game's."""
    if game is not None:
        game_info(game)  # unknown_game
    return [p for p in puzzle_list() if game is None or p.game == game]
