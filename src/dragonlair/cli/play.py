"""``dragonlair play``: play a game at the terminal against bots, or hotseat with friends."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

import dragonlair

from ..bots import LEVELS, UnknownBot, parse_bot
from ..core import DragonlairError, State
from ..core.confirm import CONFIRM_SECONDS
from ..core.puzzles import PUZZLE_PREFIX, open_game, puzzle
from ..i18n import N_, _, language
from ..tui import PlaySession, SeatConfig, load_save
from ..tui.session import check_save_path
from ..tutorial import Tutorial, has_tutorial, tutorial
from .options import LANG_HELP, apply_language, bot_name, game_options

SEED_MAX = 2**63 - 1


def _menu(console: Console) -> tuple[str, int, bool]:
    """The game chosen from a numbered list (the games, then their lessons), its player
    count, and whether it is the game's lesson."""
    ids = dragonlair.games()
    if not ids:
        raise typer.BadParameter(_("no games are installed"))
    for i, g in enumerate(ids, 1):
        s = dragonlair.spec(g)
        console.print(
            f"  [bold cyan]{i})[/] {s.name} [dim]("
            + _("{low}-{high} players").format(low=s.min_players, high=s.max_players)
            + f") {_(s.summary)}[/dim]"
        )
    lessons = [g for g in ids if has_tutorial(g)]
    for i, g in enumerate(lessons, len(ids) + 1):
        console.print(
            f"  [bold magenta]{i})[/] "
            + _("Learn to play: {game}").format(game=dragonlair.spec(g).name)
            + " [dim]"
            + _("(a lesson of a few minutes against bots)")
            + "[/dim]"
        )
    choices = len(ids) + len(lessons)
    while True:
        try:
            text = console.input(_("Which game? [1-{n}]: ").format(n=choices)).strip()
        except EOFError:
            raise typer.Exit(0) from None
        if text.isdigit() and len(ids) < int(text) <= choices:
            game = lessons[int(text) - len(ids) - 1]
            return game, tutorial(game).new_game().players, True
        if text.isdigit() and 1 <= int(text) <= len(ids):
            game = ids[int(text) - 1]
            break
        if text in ids:
            game = text
            break
        console.print("[red]" + _("Type a number from 1 to {n}.").format(n=choices) + "[/red]")
    spec = dragonlair.spec(game)
    while True:
        try:
            text = console.input(
                _("How many players? [{low}-{high}, Enter for {default}]: ").format(
                    low=spec.min_players, high=spec.max_players, default=spec.default_players
                )
            ).strip()
        except EOFError:
            raise typer.Exit(0) from None
        if not text:
            return game, spec.default_players, False
        if text.isdigit() and spec.min_players <= int(text) <= spec.max_players:
            return game, int(text), False
        console.print(
            "[red]"
            + _("{game} is for {low} to {high} players.").format(
                game=spec.name, low=spec.min_players, high=spec.max_players
            )
            + "[/red]"
        )


def play(
    game: Annotated[
        str | None, typer.Argument(help=_("Game id (see `dragonlair games`); a menu if omitted."))
    ] = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help=_("Player count."))] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help=_(
                "Comma-separated bot levels ({levels}, or one of the game's archetypes listed "
                "by `dragonlair games`) for the bot seats, in seat order; the last one fills "
                "any remaining bot seats."
            ).format(levels=", ".join(LEVELS))
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(min=0, max=SEED_MAX, help=_("Seed of the game, 0 or more (default: fresh).")),
    ] = None,
    hotseat: Annotated[
        bool, typer.Option(help=_("Several humans at one screen (every seat without a bot)."))
    ] = False,
    undo: Annotated[
        bool,
        typer.Option(
            help=_(
                "Hotseat: allow taking back a decision (every player is asked to agree at "
                "the start). Alone with bots, undo is always allowed."
            )
        ),
    ] = False,
    seat: Annotated[
        int | None,
        typer.Option(
            min=1,
            help=_(
                "Your seat when playing alone: 1 is Player 1 (default: 1, or the seat a "
                "puzzle asks)."
            ),
        ),
    ] = None,
    name: Annotated[
        list[str] | None,
        typer.Option(
            "--name",
            help=_(
                "Names for the human seats first (in seat order), then for the bots "
                "(repeatable): `--name Alice --seat 2` names Player 2 Alice."
            ),
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help=_("Game option key=value (repeatable).")),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help=_("Save to this file after every move (and on `save` or quitting).")),
    ] = None,
    resume: Annotated[Path | None, typer.Option(help=_("Continue a saved game."))] = None,
    from_: Annotated[
        str | None,
        typer.Option(
            "--from",
            help=_(
                "Start from a position file (TOML or JSON), a record, or puzzle:<name> "
                "(see `dragonlair puzzles`)."
            ),
        ),
    ] = None,
    fast: Annotated[
        bool,
        typer.Option(
            help=_(
                "Do not pause after bots' moves (nor, alone at the table, before automatic "
                "answers)."
            )
        ),
    ] = False,
    delay: Annotated[
        float, typer.Option(min=0, help=_("Seconds to pause after a bot's move."))
    ] = 0.8,
    confirm_turn: Annotated[
        bool,
        typer.Option(
            "--confirm-turn",
            help=_(
                "Alone with bots: your decisions wait for F5 (confirm) at the end of your "
                "turn instead of being played 5 s after you decide (ctrl+z takes them back "
                "until then; with --fast and without this, each decision is played at once)."
            ),
        ),
    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=_(LANG_HELP))] = None,
    lesson: Annotated[
        bool,
        typer.Option(
            "--tutorial",
            help=_(
                "Learn the game with its lesson: a fixed deal against bots, one rule at a "
                "time (the menu offers it too)."
            ),
        ),
    ] = False,
) -> None:
    """Play a game at the terminal (the help players read is ``HELP``, in their language)."""
    apply_language(lang)
    from ..tui.app import PlayApp

    console = Console(highlight=False)
    question: str | None = None  # a puzzle's, shown when the game first asks you
    puzzle_at: tuple[int, int] | None = None  # the puzzle's seat and move (F4: the answer)
    tut: Tutorial | None = None  # the game's lesson, with --tutorial or from the menu
    try:
        if lesson and (resume is not None or from_ is not None):
            raise typer.BadParameter(_("a lesson starts from its own deal: no --resume or --from"))
        if save is not None:
            check_save_path(save)
        if resume is not None:
            if game is not None:
                raise typer.BadParameter("give either a game or --resume, not both")
            state, seats = load_save(resume)
        elif from_ is not None:
            if game is not None:
                raise typer.BadParameter("give either a game or --from, not both")
            state, seats, question, puzzle_at = _from_position(
                from_, seed, bots, hotseat, seat, name or []
            )
        else:
            if game is None:
                game, menu_players, chosen_lesson = _menu(console)
                lesson = lesson or chosen_lesson
                if not lesson:
                    players = players or menu_players
            if lesson:
                tut = _lesson(game, players, bots, hotseat, seat, seed, option, from_, resume)
                g = tut.new_game()
                seats = _seats(g.players, ",".join(tut.bots), False, tut.seat + 1, name or [], game)
                state = tut.start()
            else:
                g = dragonlair.make(
                    game, players=players, options=game_options(game, players, option)
                )
                seats = _seats(g.players, bots, hotseat, seat or 1, name or [], g.spec.id)
                state = g.new_game(seed=seed)
        session = PlaySession(
            state,
            seats,
            save_path=save or resume,
            undo=undo or None,
            tutorial=tut,
            # a decision is held for its confirmation (docs/terminal.md, "Undo")
            confirm=0.0 if fast else CONFIRM_SECONDS,
            confirm_turn=confirm_turn,
        )
    except (DragonlairError, UnknownBot) as e:
        raise typer.BadParameter(str(e)) from None
    session.autosave()
    if session.save_error:
        raise typer.BadParameter(session.save_error)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise typer.BadParameter(
            _("the terminal game needs a terminal: run it in one (not through a pipe)")
        )
    app = PlayApp(session, delay=delay, fast=fast)
    app.puzzle_at = puzzle_at
    if question is not None:
        app.notice = (
            _("Puzzle: {question} · F4 shows the answer").format(question=question),
            "bold magenta",
        )
    app.run()
    _print_end(console, app.session)  # the last game played here (``again`` starts one)
    raise typer.Exit(app.return_code or 0)


def _from_position(
    from_: str,
    seed: int | None,
    bots: str | None,
    hotseat: bool,
    seat: int | None,
    names: list[str],
) -> tuple[State, list[SeatConfig], str | None, tuple[int, int] | None]:
    """The game set up from a position file, a record or a puzzle, and who sits where;
    for a puzzle, its question and its seat and move (F4 shows the answer there): it
    seats you where its question is asked unless ``seat`` says otherwise."""
    question: str | None = None
    puzzle_at: tuple[int, int] | None = None
    state = open_game(from_, seed=seed)
    g = state.game
    if from_.startswith(PUZZLE_PREFIX):
        found = puzzle(from_[len(PUZZLE_PREFIX) :])
        question = _(found.question) if found.question else None
        if found.seat is not None:
            puzzle_at = (found.seat, state.move)
        if seat is None and found.seat is not None:
            seat = found.seat + 1
    seats = _seats(g.players, bots, hotseat, seat or 1, names, g.spec.id)
    return state, seats, question, puzzle_at


def _print_end(console: Console, session: PlaySession) -> None:
    """What is said when the terminal game closes: a failed save, then the result of a
    finished game or where an unfinished one is saved."""
    if session.save_error:
        console.print(f"[red]{session.save_error}[/red]")
    if session.state.is_over and session.state.result is not None:
        from ..tui.render import result_table

        console.print(result_table(session.state.game, session.state.result, session.names))
    elif session.saved:
        path = session.save_path
        console.print(
            _("Stopped. The game is saved in {path}: dragonlair play --resume {path}").format(
                path=path
            )
        )


def _lesson(game: str, *given: object) -> Tutorial:
    """The game's lesson; a lesson sets its own players, bots, seat and deal, so any of
    those given too is refused."""
    if any(g not in (None, False, [], ()) for g in given):
        raise DragonlairError(
            _(
                "a lesson sets its own players, bots, seat, deal and options: give the "
                "game and --tutorial only (and --name, --lang)"
            )
        )
    if not has_tutorial(game):
        raise DragonlairError(_("{game} has no lesson yet").format(game=dragonlair.spec(game).name))
    return tutorial(game)


def _seats(
    players: int,
    bots: str | None,
    hotseat: bool,
    me: int,
    names: list[str],
    game_id: str | None = None,
) -> list[SeatConfig]:
    """Who sits where; with ``game_id``, that game's archetypes are bot levels too."""
    levels = []
    for spec in [parse_bot(b, game_id) for b in (bots or "").split(",") if b.strip()]:
        if spec.params:
            raise UnknownBot(
                f"the terminal game takes bot levels without parameters, not {spec.text!r}"
            )
        levels.append(spec.level)
    if hotseat:
        humans = players - len(levels) if levels else players
        if humans < 1:
            raise DragonlairError(f"{len(levels)} bots leave no seat for a human")
        human_seats = list(range(humans))
    else:
        if not 1 <= me <= players:
            raise DragonlairError(f"seat {me} is not at a table of {players}: use 1 to {players}")
        human_seats = [me - 1]
        levels = levels or ["heuristic"]
    if len(names) > players:
        raise DragonlairError(f"{len(names)} names for {players} players")
    bot_seats = [s for s in range(players) if s not in human_seats]
    # Names go to the human seats first, then to the bots, each in seat order.
    given = dict(zip(human_seats + bot_seats, names, strict=False))
    if len(levels) > len(bot_seats):
        raise DragonlairError(f"{len(levels)} bots for {len(bot_seats)} bot seats")
    levels = levels + [levels[-1]] * (len(bot_seats) - len(levels)) if levels else []
    seats = []
    for s in range(players):
        if s in human_seats:
            # English puts "You" in the second person (tui.words); other languages name
            # the seat, and the board marks it as yours.
            alone = not hotseat and language() == "en"
            default = "You" if alone else _("Player {n}").format(n=s + 1)
            seats.append(SeatConfig(given.get(s, default)))
        else:
            level = levels[bot_seats.index(s)]
            seats.append(SeatConfig(given.get(s, bot_name(level, s)), level))
    return seats


HELP = N_(
    "Play a game at the terminal: against bots, or hotseat with friends.\n\n"
    "A full-screen game: ↑↓ and Enter (or a click) choose, or type an action as the choices "
    "show it; `?` gives the rules, ctrl+q leaves (and offers to save)."
)


def register(app: typer.Typer) -> None:
    app.command(help=_(HELP))(play)
