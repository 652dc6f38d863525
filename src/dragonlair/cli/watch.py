"""``dragonlair watch``: bots play a seeded game while you watch as a spectator."""

from __future__ import annotations

import random
import sys
from typing import Annotated

import typer
from rich.console import Console

import dragonlair

from ..bots import LEVELS, UnknownBot, parse_bots
from ..core import Action, DragonlairError, State, derive_seed
from ..core.bot import view_for
from ..i18n import N_, _, ngettext
from .options import LANG_HELP, apply_language, bot_name, parse_options

SEED_MAX = 2**63 - 1


def watch(
    game: Annotated[str, typer.Argument(help=_("Game id (see `dragonlair games`)."))],
    players: Annotated[int | None, typer.Option("--players", "-n", help=_("Player count."))] = None,
    bots: Annotated[
        str,
        typer.Option(
            help=_(
                "Comma-separated bots per seat ({levels}, or one of the game's archetypes "
                "listed by `dragonlair games`; parameters as level:key=value); the last one "
                "fills the remaining seats."
            ).format(levels=", ".join(LEVELS))
        ),
    ] = "heuristic",
    seed: Annotated[int, typer.Option(min=0, max=SEED_MAX, help=_("Seed of the game."))] = 1,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help=_("Game option key=value (repeatable).")),
    ] = None,
    delay: Annotated[float, typer.Option(min=0, help=_("Seconds between moves."))] = 0.8,
    log: Annotated[
        bool,
        typer.Option(
            "--log",
            help=_("No screen: print the game as a log (the default without a terminal)."),
        ),
    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=_(LANG_HELP))] = None,
) -> None:
    """Watch bots play (the help players read is ``HELP``, in their language)."""
    apply_language(lang)
    from ..tui.app import WatchApp
    from ..tui.render import result_table
    from ..tui.words import Words

    try:
        g = dragonlair.make(game, players=players, options=parse_options(option))
        specs = parse_bots(bots if bots.strip() else "random", g.players, g.spec.id)
        levels = [spec.level for spec in specs]
        seat_bots = [spec.make(g) for spec in specs]
        state = g.new_game(seed=seed)
    except (DragonlairError, UnknownBot) as e:
        raise typer.BadParameter(str(e)) from None
    names = [bot_name(level, i) for i, level in enumerate(levels)]
    rngs = [random.Random(derive_seed(seed, 1000 + i)) for i in range(g.players)]

    def choose(state: State, seat: int) -> Action:
        bot = seat_bots[seat]
        return bot.choose(view_for(bot, state, seat), state.legal_actions(seat), rngs[seat])

    console = Console(highlight=False)
    if log or not sys.stdout.isatty():
        words = Words(g, names, None)
        console.rule(
            ngettext(
                "{game}, {n} player, seed {seed}", "{game}, {n} players, seed {seed}", g.players
            ).format(game=g.spec.name, n=g.players, seed=seed)
        )
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, choose(state, seat))
        for event in state.events_since(0, None):
            console.print(f"  {words.event(event)}", markup=False)
        result = state.result
        assert result is not None
        console.rule(_("result"))
        for s in range(g.players):
            mark = " " + _("(wins)") if s in result.winners else ""
            points = ngettext("{n} point", "{n} points", result.points[s]).format(
                n=result.points[s]
            )
            console.print(f"{names[s]}: {points}{mark}", markup=False)
        return
    WatchApp(state, names, choose, delay).run()
    if state.result is not None:
        console.print(result_table(g, state.result, names))


HELP = N_(
    "Watch bots play a seeded game on the full screen, as a spectator sees it: space pauses, "
    "→ plays one move while paused, + and - change the pace, q leaves."
)


def register(app: typer.Typer) -> None:
    app.command(help=_(HELP))(watch)
