"""The terminal game on Textual: one fixed full-screen layout for ``play``, ``watch`` and
``replay`` that redraws in place.

Panes: the board, the other players, your hand, the log (what changed since your last
move marked ``▶``) and the choices, with a line to type an action. At 80×24 and other small
terminals the panes stack (board and players share one scrolling pane); from 110 columns
and 30 rows the players, log and choices take a column of their own.

Only views reach the panes: a pane is drawn from ``state.view(seat)``, the seat's legal
actions and its own events, never from the state. Hotseat hand-overs cover the screen with
a "pass the screen" page (Textual draws on the terminal's alternate screen, so nothing of
one player stays in the scrollback for the next).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Label, Markdown, OptionList, Static
from textual.widgets.option_list import Option

import dragonlair

from ..core import Action, DragonlairError, Game, Record, State
from ..core.autoplay import WINDOW_SECONDS, answer_delay, in_window
from ..i18n import N_, _, language, using
from .advice import percent, why_sentence
from .render import board, brief, header, player_rules, players, result_table
from .render import hand as hand_of
from .session import LogLine, PlaySession, SeatConfig
from .words import Words

CSS = """
Screen { layout: vertical; }
#header { height: 1; background: $boost; }
#body { height: 1fr; layout: horizontal; }
#left { width: 3fr; }
#right { width: 2fr; }
.pane { border: none; border-top: solid $primary; border-title-color: $text; }
#board { height: auto; max-height: 1fr; }
#hand { height: 1fr; min-height: 3; }
#others { height: auto; max-height: 50%; }
#log { height: 1fr; }
#choices { height: auto; max-height: 50%; border: none; border-top: solid $accent; }
#choices > .option-list--option-highlighted { background: $accent 50%; text-style: bold; }
#entry { height: 1; border: none; padding: 0 1; }
#entry:focus { background: $primary 25%; }
#status { height: auto; max-height: 3; color: $warning; }
App.-narrow #body { layout: vertical; }
App.-narrow #left { width: 1fr; height: 1fr; }
App.-narrow #board { height: 1fr; max-height: 100%; }
App.-narrow #hand { height: auto; max-height: 6; min-height: 0; }
App.-narrow #right { width: 1fr; height: 9; layout: horizontal; }
App.-narrow #others { display: none; }
App.-narrow #log { width: 1fr; height: 1fr; }
App.-narrow #choices { width: 1fr; height: 1fr; max-height: 100%; }
App.-narrow Footer { display: none; }
"""


def translate_bindings(node: App[Any] | Screen[Any]) -> None:
    """The keys' descriptions in the footer in the current language (declared in English,
    marked with ``N_``)."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [replace(b, description=_(b.description)) for b in bindings]


class Drawn(Widget):
    """A pane drawn by a function of its width (Rich renderables, re-drawn on resize)."""

    DEFAULT_CSS = "Drawn { height: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.draw: Callable[[int], RenderableType] = lambda width: Text("")

    def show(self, draw: Callable[[int], RenderableType]) -> None:
        self.draw = draw
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        return self.draw(max(20, self.size.width or 80))


class HelpScreen(ModalScreen[None]):
    """The player rules (Markdown) and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", N_("close")),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help { width: 90%; height: 90%; border: round $primary; background: $surface; }
    """

    def __init__(self, markdown: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(self.markdown)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)


class ConfirmQuit(ModalScreen[str]):
    """Leave the game? With a reminder about saving."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "keep", N_("keep playing"))]
    DEFAULT_CSS = """
    ConfirmQuit { align: center middle; }
    #ask { width: 64; height: auto; border: round $warning; background: $surface; padding: 1; }
    #ask Label { width: 100%; }
    #ask Input { border: tall $primary; height: 3; }
    #ask Horizontal { height: auto; }
    #ask Button { margin: 1 1 0 0; }
    """

    def __init__(self, reminder: str, save_to: str | None) -> None:
        super().__init__()
        translate_bindings(self)
        self.reminder = reminder
        self.save_to = save_to

    def compose(self) -> ComposeResult:
        with Vertical(id="ask"):
            yield Label(_("Leave the game?"))
            yield Label(self.reminder)
            if self.save_to is not None:
                yield Input(self.save_to, id="save-to", placeholder=_("save file"))
            with Horizontal():
                if self.save_to is not None:
                    yield Button(_("Save and quit"), id="save", variant="primary")
                yield Button(_("Quit"), id="quit", variant="error")
                yield Button(_("Keep playing"), id="keep")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.dismiss("save:" + self.query_one("#save-to", Input).value.strip())
        else:
            self.dismiss(event.button.id or "keep")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss("save:" + event.value.strip())

    def action_keep(self) -> None:
        self.dismiss("keep")


class ConfirmConcede(ModalScreen[bool]):
    """Concede the game? Said plainly, with a way back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "keep", N_("keep playing"))]
    DEFAULT_CSS = """
    ConfirmConcede { align: center middle; }
    #ask-concede { width: 64; max-width: 100%; height: auto; border: round $error; }
    #ask-concede { background: $surface; padding: 1; }
    #ask-concede Label { width: 100%; }
    #ask-concede Horizontal { height: auto; }
    #ask-concede Button { margin: 1 1 0 0; }
    """

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-concede"):
            yield Label(_("Concede this game?"))
            yield Label(
                _(
                    "You lose and rank last. A bot plays your seat to the end; with one"
                    " player left, the game ends now."
                )
            )
            with Horizontal():
                yield Button(_("Concede"), id="concede", variant="error")
                yield Button(_("Keep playing"), id="keep")

    def on_mount(self) -> None:
        self.query_one("#keep", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "concede")

    def action_keep(self) -> None:
        self.dismiss(False)


class PassScreen(Screen[None]):
    """A blank page between two players at one screen."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", N_("ready"))]
    DEFAULT_CSS = """
    PassScreen { align: center middle; }
    #pass { width: auto; height: auto; border: round $primary; padding: 1 4; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.player = name

    def compose(self) -> ComposeResult:
        yield Static(
            Text.assemble(
                _("Pass the screen to {player}.").format(player=self.player),
                "\n" + _("Everyone else, look away.") + "\n\n",
                (_("{player}: press Enter when you are ready.").format(player=self.player), "dim"),
            ),
            id="pass",
        )

    def action_ready(self) -> None:
        self.dismiss(None)


class UndoConsent(Screen[bool]):
    """At a hotseat game started with --undo, each player agrees to undo, or not."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("agree")),
        Binding("n,escape", "answer(False)", N_("play without undo")),
    ]
    DEFAULT_CSS = """
    UndoConsent { align: center middle; }
    #consent { width: 70; height: auto; border: round $primary; padding: 1 2; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.player = name

    def compose(self) -> ComposeResult:
        yield Static(
            Text.assemble(
                _(
                    "This game was started with undo: any player may take back their last "
                    "decision, and every move played after it, as long as nothing hidden has "
                    "been revealed since."
                )
                + "\n\n",
                (
                    _("{player}: press Y to agree, or N to play without undo.").format(
                        player=self.player
                    ),
                    "bold",
                ),
            ),
            id="consent",
        )

    def action_answer(self, agree: bool) -> None:
        self.dismiss(agree)


class TableApp(App[int]):
    """The panes every terminal screen shares; ``play``, ``watch`` and ``replay`` fill them."""

    CSS = CSS
    TITLE = "dragonlair"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", N_("rules"), priority=True),
        Binding("ctrl+q", "leave", N_("quit"), priority=True),
        # The panes scroll from the keyboard wherever the typing goes: they never take the
        # focus (so nothing typed is lost in a pane), and their titles name these keys.
        Binding("pageup", "scroll_pane('board', -1)", N_("table up"), show=False, priority=True),
        Binding("pagedown", "scroll_pane('board', 1)", N_("table down"), show=False, priority=True),
        Binding("ctrl+up", "scroll_pane('log', -1)", N_("log up"), show=False, priority=True),
        Binding("ctrl+down", "scroll_pane('log', 1)", N_("log down"), show=False, priority=True),
    ]

    def __init__(self, game: Game, names: Sequence[str]) -> None:
        super().__init__()
        translate_bindings(self)
        self.game = game
        self.names = list(names)
        self.lit: frozenset[int] = frozenset()  # the cards of the highlighted choice

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                with VerticalScroll(id="board", classes="pane"):
                    yield Drawn(id="board-drawn")
                with VerticalScroll(id="hand", classes="pane"):
                    yield Drawn(id="hand-drawn")
            with Vertical(id="right"):
                with VerticalScroll(id="others", classes="pane"):
                    yield Drawn(id="others-drawn")
                with VerticalScroll(id="log", classes="pane"):
                    yield Drawn(id="log-drawn")
                yield OptionList(id="choices")
        yield Static(id="status")
        yield Input(id="entry", placeholder=self.entry_hint())
        yield Footer()

    def entry_hint(self) -> str:
        return ""

    def lesson(self) -> RenderableType | None:
        """A lesson's text, shown above the table (None: no lesson here)."""
        return None

    def setup_panes(self) -> None:
        """Titles and the layout for the terminal's size; each app calls it when mounted
        (Textual calls every class's own ``on_mount``, so the base has none)."""
        self.query_one("#board", VerticalScroll).border_title = self.table_title()
        self.query_one("#hand", VerticalScroll).border_title = _("your hand")
        self.query_one("#others", VerticalScroll).border_title = _("players")
        self.query_one("#log", VerticalScroll).border_title = _("log · ctrl+↑↓")
        self.query_one("#choices", OptionList).border_title = _("choices")
        for pane in self.query(VerticalScroll):
            pane.can_focus = False
        self.query_one("#choices", OptionList).can_focus = False
        self._fit(self.size.width, self.size.height)

    def table_title(self, name: str | None = None) -> str:
        """The table pane's title, with the keys that scroll it."""
        return _("{name} · PgUp PgDn").format(name=name or _("table"))

    def action_scroll_pane(self, pane: str, step: int) -> None:
        if isinstance(self.screen, ModalScreen | PassScreen):
            return
        scroll = self.query_one(f"#{pane}", VerticalScroll)
        if pane == "log":
            scroll.scroll_relative(y=3 * step, animate=False)
        elif step < 0:
            scroll.scroll_page_up(animate=False)
        else:
            scroll.scroll_page_down(animate=False)

    def on_resize(self, event: Any) -> None:
        self._fit(event.size.width, event.size.height)

    @property
    def narrow(self) -> bool:
        return self.has_class("-narrow")

    def _fit(self, width: int, height: int) -> None:
        narrow = width < 110 or height < 30
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
            self.redraw()

    def redraw(self) -> None:
        """Draw every pane again (after a move, a resize or a hand-over)."""

    # ------------------------------------------------------------------ panes

    def show_view(
        self,
        view: dict[str, Any],
        log: Sequence[LogLine],
        new_after: int,
        title: str | None = None,
    ) -> None:
        game, names = self.game, self.names
        self.query_one("#header", Static).update(header(game, view, names))

        def draw_board(width: int) -> RenderableType:
            # A small screen shows what matters first (the final scores, the leaders, the
            # section of the table in play); the rest is below, a PageDown away.
            parts: list[RenderableType] = []
            if (lesson := self.lesson()) is not None:
                parts.append(lesson)
            final = None
            if view.get("result") is not None:
                from ..core import Result

                final = result_table(game, Result.from_dict(view["result"]), names)
            if self.narrow:
                if final is not None:
                    parts.append(final)
                if (first := brief(game, view, names, width)) is not None:
                    parts.append(first)
                    parts.append(Text("─" * 8 + " " + _("the whole table") + " " + "─" * 8))
            parts.append(board(game, view, names, width))
            if final is not None and not self.narrow:
                parts.append(final)
            if self.narrow:
                parts.append(Text(_("players"), style="bold"))
                parts.append(players(game, view, names, width))
            return Group(*parts)

        self.query_one("#board-drawn", Drawn).show(draw_board)
        self.query_one("#others-drawn", Drawn).show(lambda w: players(game, view, names, w))
        self.query_one("#hand-drawn", Drawn).show(lambda w: hand_of(game, view, names, self.lit))
        self.query_one("#hand", VerticalScroll).display = view.get("seat") is not None
        self.show_log(log, new_after)
        if title:
            self.query_one("#board", VerticalScroll).border_title = self.table_title(title)

    def show_log(self, log: Sequence[LogLine], new_after: int) -> None:
        lines = list(log[-200:])

        def draw(width: int) -> RenderableType:
            if not lines:
                return Text(_("(nothing yet)"), style="dim")
            grid = Table.grid()
            grid.add_column(width=2, no_wrap=True)
            grid.add_column(ratio=1)
            for line in lines:
                new = line.seq >= new_after
                style = "bold" if new else "dim"
                grid.add_row(
                    Text("▶" if new else " ", style="bold"),
                    Text(line.text, style=f"{style} yellow" if line.big else style),
                )
            return grid

        self.query_one("#log-drawn", Drawn).show(draw)
        # Anchored, the pane stays at its last line through the layouts that follow (the
        # scrollbar appearing narrows the pane, the lines wrap and it grows again), until
        # the player scrolls it up; a scroll to the end once, after one refresh, could
        # land a line short.
        self.query_one("#log", VerticalScroll).anchor()

    def blank(self) -> None:
        """Nothing of anyone on the screen (before a hand-over)."""
        self.query_one("#header", Static).update("")
        for pane in ("board", "hand", "others", "log"):
            self.query_one(f"#{pane}-drawn", Drawn).show(lambda w: Text(""))
        self.query_one("#choices", OptionList).clear_options()
        self.query_one("#status", Static).update("")

    def status(self, text: str, style: str = "") -> None:
        self.query_one("#status", Static).update(Text(text, style=style))

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen | PassScreen):
            return
        self.push_screen(HelpScreen(self.help_text()))

    def help_text(self) -> str:
        return player_rules(self.game)

    def action_leave(self) -> None:
        self.exit(0)


class PlayApp(TableApp):
    """A game against bots or hotseat: humans choose, bots' moves are paced and shown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", N_("choice up"), show=False, priority=True),
        Binding("down", "move(1)", N_("choice down"), show=False, priority=True),
        Binding("ctrl+t", "autoplay", N_("auto-answers")),
        Binding("f2,ctrl+g", "hint", N_("hint"), priority=True),
        Binding("ctrl+z,f3", "undo", N_("undo"), priority=True),
        Binding("f4", "answer", N_("answer"), priority=True),
        Binding("f5", "confirm", N_("confirm"), priority=True),
    ]

    def __init__(self, session: PlaySession, *, delay: float = 0.6, fast: bool = False) -> None:
        super().__init__(session.state.game, session.names)
        self.session = session
        self.delay = 0.0 if fast else delay
        # Alone at the table, nobody can read the timing of an automatic answer.
        self.answer_wait: Callable[[], float] = (
            (lambda: 0.0) if fast and not session.hotseat else answer_delay
        )
        # A reaction window lasts as long whoever holds what (core.autoplay): a pass in it,
        # a bot's or one given for a player, is applied this long after the seat was asked.
        self.window = 0.0 if fast and not session.hotseat else WINDOW_SECONDS
        # the pace, kept to go back to after a game its players conceded
        self.pace = (self.delay, self.window, self.answer_wait)
        self.viewer: int | None = None if session.hotseat else session.humans[0]
        self.asking: int | None = None
        self.legal: list[Action] = []
        self.shown: list[Action] = []  # the choices as listed (one per distinct choice)
        self.question: tuple[int | None, int] | None = None
        self.pending = False
        # the latest hint: (seat, move) it answers, and the analysis
        self.hint: tuple[tuple[int, int], Any] | None = None
        self.thinking: tuple[int, int] | None = None
        self.notice: tuple[str, str] | None = None  # shown when the next question is asked
        # a puzzle's question: the seat asked it and the move the puzzle began at (F4 shows
        # the answer while that seat has not decided since)
        self.puzzle_at: tuple[int, int] | None = None
        self.answering: tuple[int, int] | None = None  # the answer was asked for here
        self._hold_gen = 0  # a held decision's window timer counts only for its own hold

    @property
    def state(self) -> State:
        return self.session.state

    def entry_hint(self) -> str:
        if self.session.tutorial is not None:
            return _("type an action or pick with ↑↓ Enter · ? rules · ctrl+q quit")
        return _("type an action or pick with ↑↓ Enter · F2 hint · ? rules · ctrl+q quit")

    def lesson(self) -> RenderableType | None:
        tut = self.session.tutorial
        if tut is None:
            return None
        info = tut.info(self.state)
        if info["text"] is not None and not self.state.is_over:
            title = _("{title} · step {n} of {total}").format(
                title=_(info["title"]), n=info["step"], total=info["steps"]
            )
            body = Text(_(info["text"]))
        else:
            title = _("{title} · lesson complete").format(title=_(info["title"]))
            body = Text(_(info["summary"] or ""))
            body.append(
                "\n" + _("A real game: type again when this one is over, or run dragonlair play."),
                style="dim",
            )
        return Panel(body, title=title, title_align="left", border_style="magenta")

    def on_mount(self) -> None:
        self.setup_panes()
        self.query_one("#entry", Input).focus()
        session = self.session
        if session.hotseat and session.undo_wanted:
            self.ask_consent(list(session.humans), True)
        else:
            self.call_after_refresh(self.advance)

    def ask_consent(self, left: list[int], agreed: bool) -> None:
        """Ask each player of a hotseat game started with --undo to agree to it (one
        after the other, at the screen); undo is on only if they all do."""
        session = self.session
        if not left:
            session.undo_allowed = agreed
            self.status(
                _("everyone agreed: undo is on (ctrl+z)")
                if agreed
                else _("not everyone agreed: this game is played without undo"),
                "green" if agreed else "yellow",
            )
            self.call_after_refresh(self.advance)
            return
        seat = left[0]
        self.push_screen(
            UndoConsent(session.names[seat]),
            lambda yes: self.ask_consent(left[1:], agreed and bool(yes)),
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The undo key exists only where undo is allowed; hint and undo are greyed out
        while nobody here is asked."""
        if action == "undo" and not self.session.undo_allowed:
            return False
        if action == "confirm":
            seat = self.viewer
            if seat is None or not self.session.holds_for(seat):
                return False
            return True if self.session.holding else None
        if action == "undo" and self.session.holding:
            return True
        if action in ("hint", "answer") and not self.session.hints:
            return False
        if action == "answer":
            return self.puzzle_at is not None and (True if self.at_puzzle() else None)
        if action in ("hint", "undo") and self.asking is None:
            return None
        return True

    # ------------------------------------------------------------------ the loop

    def advance(self) -> None:
        """Take the game one step on: a bot's move, an automatic answer, a hand-over or a
        question to a human."""
        self.pending = False
        session, state = self.session, self.state
        if session.holding:
            return  # nothing moves on a decision until it is confirmed
        if session.over:
            self.game_over()
            return
        bot = session.next_bot()
        if bot is not None:
            # Without a pause, the bots play on at once (and the screen is drawn once).
            while bot is not None:
                window = self.window if in_window(state, bot) else 0.0
                started = time.monotonic()
                action = session.bot_action(bot)
                wait = window - (time.monotonic() - started)
                if wait > 0:
                    # a bot's answer in a window ends it no sooner than anyone's would
                    self.pending = True
                    self.after(wait, functools.partial(self.bot_answers, bot, action))
                    return
                session.apply(bot, action)
                shown = self.viewer is not None and bool(session.catch_up(self.viewer))
                if self.delay and shown:
                    break
                bot = session.next_bot() if not state.is_over else None
            if self.viewer is not None:
                self.redraw()
            self.later(self.delay if self.delay and shown else 0.0)
            return
        seat = session.next_human()
        assert seat is not None
        forced = session.forced(seat)
        # In hotseat the screen goes to every player who is asked, even when the answer is
        # given for them: skipping the hand-over would tell the others that the player had
        # no choice (no HALT! card), which the others must not learn.
        if session.hotseat and self.viewer != seat:
            self.viewer = None
            self.blank()
            self.push_screen(PassScreen(session.names[seat]), lambda _: self.hand_over(seat))
            return
        self.viewer = seat
        self.ask(seat)
        if forced is not None:
            words = session.words[seat]
            self.status(
                _("answered for you: {choice}  (ctrl+t: ask me instead)").format(
                    choice=words.label(forced)
                )
            )
            self.pending = True
            self.after(self.forced_wait(seat), lambda: self.auto_answer(seat, forced))

    def forced_wait(self, seat: int) -> float:
        """How long an answer given for ``seat`` waits: a window's length in a window, else
        an automatic answer's delay (core.autoplay)."""
        return self.window if in_window(self.state, seat) else self.answer_wait()

    def bot_answers(self, seat: int, action: Action) -> None:
        """Apply a bot's answer held until its window's end, and go on."""
        if seat in self.state.to_act and action in self.state.legal_actions(seat):
            self.session.apply(seat, action)
            if self.viewer is not None:
                self.session.catch_up(self.viewer)
                self.redraw()
        self.advance()

    def later(self, seconds: float) -> None:
        self.pending = True
        self.after(seconds, self.advance)

    def after(self, seconds: float, callback: Callable[[], object]) -> None:
        if seconds > 0:
            self.set_timer(seconds, callback)
        else:
            self.call_later(callback)

    def hand_over(self, seat: int) -> None:
        self.viewer = seat
        self.advance()

    def auto_answer(self, seat: int, action: Action) -> None:
        if self.asking != seat or action not in self.state.legal_actions(seat):
            return
        if not self.session.autoplay.get(seat):
            self.pending = False
            self.status("")
            return
        self.choose(seat, action, chosen=False)

    def ask(self, seat: int) -> None:
        session = self.session
        session.catch_up(seat)
        self.asking = seat
        self.legal = self.state.legal_actions(seat)
        self.redraw()
        big = [ln for ln in session.logs[seat] if ln.big and ln.seq >= session.last_move[seat]]
        if self.notice is not None and not session.save_error:
            self.status(*self.notice)
        elif big and not session.save_error:
            # what the player must not miss, though the log has scrolled past it
            more = len(big) - 1
            text = big[-1].text
            if more:
                text += " " + _("(+{n} more in the log)").format(n=more)
            self.status(text, "bold yellow")
        else:
            self.status(session.save_error or "", "bold red")
        self.notice = None
        self.refresh_bindings()

    def redraw(self) -> None:
        if self.viewer is None:
            return
        seat = self.viewer
        session = self.session
        view = self.view_of(seat)
        self.show_view(view, session.logs[seat], session.last_move[seat])
        self.show_choices(seat if self.asking == seat else None, view)

    def show_choices(self, seat: int | None, view: dict[str, Any]) -> None:
        options = self.query_one("#choices", OptionList)
        # The highlight stays where it was only while the same question is redrawn.
        question = (seat, self.state.move)
        keep = options.highlighted if question == self.question else None
        self.question = question
        options.clear_options()
        if seat is None or self.session.over:
            options.border_title = _("choices")
            return
        words = self.session.words[seat]
        default = (view.get("window") or {}).get("default")
        numbered = not words.number_kinds
        items = []
        start = 0
        # Cards that are the same for the player (two plain 2s) are one choice.
        seen: set[tuple[str, str]] = set()
        self.shown = []
        for a in self.legal:
            key = (words.typed(a, self.legal), words.label(a))
            if key not in seen or (default is not None and str(a) == default):
                seen.add(key)
                self.shown.append(a)
        hint = self.hint[1] if self.hint is not None and self.hint[0] == question else None
        rated = {str(c.action): c for c in hint.choices} if hint else {}
        pick = None
        for i, a in enumerate(self.shown):
            line = Text()
            if numbered:
                line.append(f"{i + 1:>2} ", style="bold cyan")
            typed = words.typed(a, self.shown)
            line.append(typed, style="bold")
            label = words.label(a)
            if label and label != typed:
                line.append("  " + label, style="dim")
            if default is not None and str(a) == default:
                line.append("  " + _("(Enter)"), style="yellow")
                start = i
            if str(a) in rated:
                choice = rated[str(a)]
                line.append("  " + percent(choice.to_dict()), style="bold magenta")
                if hint is not None and str(a) == str(hint.pick):
                    line.append("  ★ " + _("best"), style="bold magenta")
                    pick = i
                elif choice.close:
                    line.append("  ≈ " + _("about as good"), style="magenta")
            items.append(Option(line))
        options.add_options(items)
        if keep is not None and keep < len(items) and default is None:
            start = keep
        if pick is not None:
            start = pick
        options.highlighted = start
        asked = "" if view.get("window") is None else " · " + _("you may answer")
        if hint is not None:
            asked += " · " + _("hint: your win chance after each choice")
            if question == self.answering:
                self.status(self.answer_text(hint, words), "bold magenta")
            else:
                self.status(self.hint_reason(hint, words), "magenta")
        options.border_title = _("choices") + asked

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Going over the choices marks the cards each one plays in your hand."""
        lit: frozenset[int] = frozenset()
        if self.asking is not None and event.option_index < len(self.shown):
            lit = self.session.words[self.asking].cards_of(self.shown[event.option_index])
        if lit != self.lit:
            self.lit = lit
            self.query_one("#hand-drawn", Drawn).refresh()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.asking is not None and event.option_index < len(self.shown):
            self.choose(self.asking, self.shown[event.option_index])

    def on_input_changed(self, event: Input.Changed) -> None:
        # The entry line takes printable keys before any binding: "?" alone opens the help.
        if event.value == "?":
            event.input.value = ""
            self.action_help()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if self.session.over:
            if text.lower() in ("again", "a", "new", "n"):
                self.play_again()
            else:
                self.exit(0)
            return
        low = text.lower()
        if low in ("?", "help", "h", "rules"):
            self.action_help()
            return
        if low in ("q", "quit", "exit"):
            self.action_leave()
            return
        if low == "auto":
            self.action_autoplay()
            return
        if low == "hint":
            self.action_hint()
            return
        if low == "undo":
            self.action_undo()
            return
        if low == "confirm":
            self.action_confirm()
            return
        if low == "concede":
            self.action_concede()
            return
        if low == "answer" and self.puzzle_at is not None:
            self.action_answer()
            return
        if low == "save" or low.startswith("save "):
            self.save_to(text[4:].strip())
            return
        if self.asking is None:
            return
        seat = self.asking
        if not text:
            index = self.query_one("#choices", OptionList).highlighted
            if index is not None and index < len(self.shown):
                self.choose(seat, self.shown[index])
            return
        try:
            action = self.session.words[seat].parse(text, self.shown)
        except DragonlairError as e:
            self.status(str(e), "bold red")
            return
        self.choose(seat, action)

    def choose(self, seat: int, action: Action, *, chosen: bool = True) -> None:
        if self.asking != seat:
            return
        if chosen and self.session.holds_for(seat):
            self.hold(seat, action)
            return
        try:
            self.session.apply(seat, action, chosen=chosen)
        except DragonlairError as e:  # never expected: the action was one of the legal ones
            self.status(str(e), "bold red")
            return
        self.asking = None
        self.legal = []
        self.shown = []
        self.lit = frozenset()
        self.status(self.session.save_error or "", "bold red")
        self.redraw()
        self.later(0.0)

    # ------------------------------------------------------------------ held decisions

    def hold(self, seat: int, action: Action) -> None:
        """Hold the player's decision (session.hold): the seat sees it, the bots wait for
        its confirmation; the seat decides on while its own game asks it."""
        try:
            self.session.hold(seat, action)
        except DragonlairError as e:
            self.status(str(e), "yellow")
            return
        self.arm_confirm()
        self.show_held(seat)

    def show_held(self, seat: int, said: str = "") -> None:
        """Draw the seat's game with its held decisions, ask it again if its game does,
        and say on the status line how they wait."""
        session = self.session
        self.hint = None
        self.asking = None
        self.legal = []
        self.shown = []
        self.lit = frozenset()
        if session.unseen is None and seat in self.state.to_act and not self.state.is_over:
            self.ask(seat)
        else:
            self.redraw()
            self.refresh_bindings()
        if not session.holding:
            self.status(said, "green")
            return
        if session.unseen is not None:
            text = _(
                "Your choice “{action}” waits for its confirmation (it would show you "
                "something): F5 plays it, ctrl+z takes it back."
            ).format(action=session.words[seat].typed(session.unseen, [session.unseen]))
        elif session.confirm_turn:
            text = _(
                "Nobody sees your decisions yet: F5 confirms them, ctrl+z takes back the last one."
            )
        else:
            text = _(
                "Nobody sees your decision yet: it is played in {n} s unless you take it back "
                "(ctrl+z); F5 plays it now."
            ).format(n=f"{self.session.confirm:g}")
        self.status(f"{said} · {text}" if said else text, "bold green")

    def arm_confirm(self) -> None:
        """(Re)start the confirmation window from now; none when the player confirms."""
        self._hold_gen += 1
        if self.session.confirm_turn:
            return
        gen = self._hold_gen
        self.set_timer(self.session.confirm, lambda: self.window_ended(gen))

    def window_ended(self, gen: int) -> None:
        if gen == self._hold_gen and self.session.holding:
            self.action_confirm()

    def action_confirm(self) -> None:
        """Play the held decisions now: the bots go on."""
        session = self.session
        if not session.holding:
            self.status(_("nothing to confirm: you hold no decision"), "yellow")
            return
        self._hold_gen += 1
        session.confirm_held()
        self.asking = None
        self.legal = []
        self.shown = []
        self.hint = None
        self.status(session.save_error or "", "bold red")
        self.redraw()
        self.refresh_bindings()
        self.later(0.0)

    def undo_held(self, seat: int) -> None:
        """Take back the last held decision: nobody else was told anything of it."""
        if not self.session.take_back():
            self.status(
                _("no undo: a decision can be taken back only until it is confirmed"), "yellow"
            )
            return
        if self.session.holding:
            self.arm_confirm()
        else:
            self._hold_gen += 1
        self.show_held(seat, _("you took back your last decision"))

    def save_to(self, target: str) -> None:
        session = self.session
        path = Path(target) if target else session.save_path
        if path is None:
            self.status(_("say where: save FILE"), "yellow")
            return
        try:
            session.save(path)
        except OSError as e:
            self.status(
                _("cannot save to {path}: {error}").format(path=path, error=e.strerror or e),
                "bold red",
            )
            return
        self.status(_("saved to {path}").format(path=path), "green")

    def action_move(self, step: int) -> None:
        options = self.query_one("#choices", OptionList)
        if not isinstance(self.screen, ModalScreen | PassScreen) and options.option_count:
            current = options.highlighted or 0
            options.highlighted = max(0, min(options.option_count - 1, current + step))

    def action_hint(self) -> None:
        """Ask the bots about the asked seat's choices, from its view only, in a worker
        thread; the answer marks the choices (win chance, the bot's pick highlighted)."""
        seat = self.asking
        if seat is None or isinstance(self.screen, ModalScreen | PassScreen):
            return
        if not self.session.hints:
            self.status(_("no hints in a lesson: its text says what to look at"), "magenta")
            return
        question = (seat, self.state.move)
        if self.thinking == question:
            return
        if self.hint is not None and self.hint[0] == question:
            self.status(_("the hint is shown by the choices"), "magenta")
            return
        self.thinking = question
        self.status(_("the bots are thinking about your choices…"), "magenta")
        try:
            job = self.session.hint_job(seat)  # the view as it is now, read here
        except (DragonlairError, ImportError) as e:
            self.thinking = None
            self._hint_failed(question, e)
            return
        lang = language()  # the worker's answer is drawn in the player's language
        self.run_worker(
            lambda: self._work_hint(question, job, lang),
            thread=True,
            exclusive=True,
            group="hint",
        )

    def action_answer(self) -> None:
        """A puzzle's "show the answer": the hint of the puzzle's decision, with the choice
        it ranks best named as the answer and why, from the analysis (the seat's view
        only, as every hint)."""
        if self.asking is None or not self.at_puzzle():
            self.status(_("the answer is for the puzzle's own question"), "yellow")
            return
        question = (self.asking, self.state.move)
        self.answering = question
        if self.hint is not None and self.hint[0] == question:
            self.redraw()  # worked out already: shown as the answer now
            return
        self.action_hint()

    def at_puzzle(self) -> bool:
        """Whether the seat asked now faces the puzzle's decision: the puzzle's seat, not
        having decided since the puzzle began (the others' sealed picks may have moved
        the game on meanwhile)."""
        if self.puzzle_at is None or self.asking != self.puzzle_at[0]:
            return False
        seat, move = self.puzzle_at
        return all(s != seat for s, _ in self.state.record.actions[move:])

    def answer_text(self, advice: Any, words: Words) -> str:
        """The answer to a puzzle on the status line: the best-ranked choice, and why."""
        by_text = {str(a): a for a in self.legal}
        pick = str(advice.pick)

        def name(text: str) -> str:
            return words.typed(by_text[text], self.legal) if text in by_text else text

        return (
            _("The answer: {choice}.").format(choice=name(pick))
            + " "
            + why_sentence(advice.why(), name)
        )

    def _work_hint(self, question: tuple[int, int], job: Callable[[], Any], lang: str) -> None:
        """The hint, worked out in a worker thread. A hint that fails (an analysis this
        install cannot run, a bug in a bot) is a message on the status line: the game,
        unsaved moves and all, goes on. What it shows is drawn in ``lang`` (a call from a
        thread runs outside the app's context, in the default language)."""
        try:
            analysis = job()
        except Exception as e:  # nothing a player presses may end the game
            self.call_from_thread(self._in_language, lang, self._hint_failed, question, e)
            return
        self.call_from_thread(self._in_language, lang, self._show_hint, question, analysis)

    @staticmethod
    def _in_language(lang: str, show: Callable[..., None], *args: Any) -> None:
        with using(lang):
            show(*args)

    def _hint_failed(self, question: tuple[int, int], error: Exception) -> None:
        if self.thinking == question:
            self.thinking = None
        if isinstance(error, ImportError):
            reason = _("this install lacks {name}").format(name=error.name or error)
        else:
            reason = str(error) or type(error).__name__
        self.status(_("no hint: {reason}").format(reason=reason), "yellow")

    def _show_hint(self, question: tuple[int, int], analysis: Any) -> None:
        self.thinking = None
        if self.asking is None or (self.asking, self.state.move) != question:
            return  # the game has moved on
        self.hint = (question, analysis)
        self.redraw()

    def hint_reason(self, advice: Any, words: Words) -> str:
        """The hint's sentence on the status line: why the best choice is marked."""
        by_text = {str(a): a for a in self.legal}

        def name(text: str) -> str:
            return words.typed(by_text[text], self.legal) if text in by_text else text

        return _("hint:") + " " + why_sentence(advice.why(), name)

    def action_undo(self) -> None:
        viewer = self.viewer
        if (
            viewer is not None
            and self.session.holds_for(viewer)
            and not isinstance(self.screen, ModalScreen | PassScreen)
        ):
            self.undo_held(viewer)
            return
        seat = self.asking
        if seat is None or isinstance(self.screen, ModalScreen | PassScreen):
            return
        if self.pending:
            self.status(_("wait: an answer is being given for you"), "yellow")
            return
        try:
            steps = self.session.undo(seat)
        except DragonlairError as e:
            self.status(str(e), "yellow")
            return
        self.hint = None
        self.question = None
        self.asking = None
        self.legal = []
        self.shown = []
        self.lit = frozenset()
        self.notice = (
            _("you took back your last decision")
            if steps == 1
            else _("you took back your last decision (and the answers given for you before it)"),
            "green",
        )
        self.later(0.0)

    def action_autoplay(self) -> None:
        seat = self.asking if self.asking is not None else self.viewer
        if seat is None:
            return
        on = not self.session.autoplay[seat]
        self.session.autoplay[seat] = on
        self.status(
            _("answers with no choice are given for you")
            if on
            else _("you will be asked even when there is only one answer"),
            "green",
        )
        if on and self.asking == seat and not self.pending:
            forced = self.session.forced(seat)
            if forced is not None:
                self.pending = True
                self.after(self.forced_wait(seat), lambda: self.auto_answer(seat, forced))

    def help_text(self) -> str:
        keys = (
            "\n\n## "
            + _("Keys")
            + "\n\n- "
            + _(
                "**↑ ↓** move over the choices, **Enter** takes the highlighted one (in a HALT!"
                " window or an offer, the default answer is highlighted); a click takes one too."
            )
        )
        keys += "\n- " + _(
            "**Type** an action as the choices show it (`play 2`, `steal 3`) and Enter."
        )
        words = self.session.words[self.session.humans[0]]
        if words.number_kinds:
            keys += " " + _("A bare number is a card's printed number (`5` plays your 5).")
        else:
            keys += " " + _("A bare number is the number of a choice.")
        keys += "\n- " + _(
            "**ctrl+t** turns automatic answers off or on: with them on, a question "
            "with only one possible answer is answered for you after a short pause."
        )
        keys += "\n- " + _(
            "**F2** (or ctrl+g, or `hint`) asks the bots what they think of your choices,"
            " from what you can see only: each choice gets your win chance with its 95 percent"
            " interval, rounded as far as the playouts support, the best is highlighted (★),"
            " the choices too close to tell apart from it are marked ≈, and the status line"
            " says why."
        )
        if self.puzzle_at is not None:
            keys += "\n- " + _(
                "**F4** (or `answer`) at the puzzle's question shows its answer: the choice"
                " the bots' playouts rank best, and why."
            )
        if self.session.undo_allowed:
            keys += "\n- " + _(
                "**ctrl+z** (or F3, or `undo`) takes back your last decision and every move"
                " played after it, as long as nothing hidden has been revealed since."
            )
        keys += "\n- " + _(
            "**PgUp PgDn** scroll the table (on a small screen: the whole board, the players"
            " and the final scores below what is shown first); **ctrl+↑ ctrl+↓** scroll the"
            " log. Whatever you type goes to the entry line."
        )
        keys += "\n- " + _("**save FILE** saves the game; `dragonlair play --resume FILE` goes on.")
        if self.session.tutorial is None:
            keys += "\n- " + _(
                "**concede** gives the game up, once you confirm: you rank last and a bot plays"
                " your seat to the end (with one player left, the game ends there)."
            )
        keys += "\n- " + _(
            "**?** or **F1** this help; **Esc** closes it. **ctrl+q** or `quit` leaves."
        )
        return player_rules(self.game) + keys

    def action_leave(self) -> None:
        if self.session.over:
            self.exit(0)
            return
        if isinstance(self.screen, ConfirmQuit):
            return
        session = self.session
        if session.saved:
            reminder = _("The game is saved in {path}: --resume it to go on.").format(
                path=session.save_path
            )
            save_to = None
        else:
            reminder = _("The game is not saved. Save it to go on later with --resume:")
            save_to = str(session.save_path or "dragonlair-game.json")

        def done(answer: str | None) -> None:
            if answer == "quit":
                self.exit(0)
            elif answer and answer.startswith("save:"):
                path = Path(answer[5:] or "dragonlair-game.json")
                try:
                    session.save(path)
                except OSError as e:
                    self.status(
                        _("cannot save to {path}: {error}").format(
                            path=path, error=e.strerror or e
                        ),
                        "bold red",
                    )
                    return
                self.exit(
                    0,
                    message=_("Saved to {path}: dragonlair play --resume {path}").format(path=path),
                )

        self.push_screen(ConfirmQuit(reminder, save_to), done)

    def view_of(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees, its result the one concessions made (dragonlair.core.concede)."""
        view = self.state.view(seat)
        session = self.session
        if session.conceded:
            result = session.result()
            if result is not None:
                who = _(" and ").join(session.names[c] for c, _m in result["conceded"])
                result["reason"] = _("{who} conceded").format(who=who)
            view = {**view, "result": result}
            if session.over:
                view["to_act"] = []  # ended by the concession: nobody is asked any more
        return view

    def action_concede(self) -> None:
        """Give up the game, once the player confirms: they rank last, a bot plays their
        seat to the end (or the game ends, with one seat left playing)."""
        seat = self.asking if self.asking is not None else self.viewer
        if seat is None or isinstance(self.screen, ModalScreen | PassScreen):
            return
        why = self.session.concede_refusal(seat)
        if why is not None:
            self.status(_("you cannot concede: {why}").format(why=why), "yellow")
            return

        def done(yes: bool | None) -> None:
            if not yes or self.session.concede_refusal(seat) is not None:
                return
            self.session.concede(seat)
            self.hint = None
            self.question = None
            self.asking = None
            self.legal = []
            self.shown = []
            self.lit = frozenset()
            self.notice = None
            self.status(_("You conceded: a bot plays your seat to the end."), "yellow")
            if all(h in self.session.conceded for h in self.session.humans):
                # nobody left to play: the bots play it out without pauses
                self.delay = self.window = 0.0
                self.answer_wait = lambda: 0.0
            self.redraw()
            if not self.pending:
                self.later(0.0)

        self.push_screen(ConfirmConcede(), done)

    def play_again(self) -> None:
        """A new game at the same table: same game and options, same players and bots, a
        new deal. The finished game stays in its save file; the new one is saved when the
        players say where (``save FILE``, or on leaving)."""
        old = self.session
        state = old.state.game.new_game()
        seats = [SeatConfig(s.name, s.bot) for s in old.seats]  # nobody has conceded yet
        session = PlaySession(state, seats, undo=old.undo_wanted)
        session.undo_allowed = old.undo_allowed
        session.autoplay = dict(old.autoplay)
        self.session = session
        self.delay, self.window, self.answer_wait = self.pace
        self.viewer = None if session.hotseat else session.humans[0]
        self.asking = None
        self.legal, self.shown = [], []
        self.question = None
        self.hint = self.thinking = None
        self.pending = False
        self.query_one("#board", VerticalScroll).border_title = self.table_title()
        self.query_one("#entry", Input).placeholder = self.entry_hint()
        self.status(_("a new game: same players, a new deal"), "green")
        self.call_after_refresh(self.advance)

    def game_over(self) -> None:
        session = self.session
        for seat in session.humans:
            session.catch_up(seat)
        self.asking = None
        if session.hotseat:
            # Everyone is looking: the table as a spectator sees it, nobody's hand.
            self.viewer = None
            words = session.spectator_words
            log = [LogLine.of(words, e) for e in self.state.events_since(0, None)]
            self.show_view(self.view_of(None), log, log[-1].seq if log else 0)
            self.show_choices(None, {})
        else:
            self.redraw()
        self.query_one("#board", VerticalScroll).border_title = self.table_title(_("game over"))
        self.status(
            _("Game over. Enter leaves; type again and Enter for a new game."), "bold green"
        )


class WatchApp(TableApp):
    """Bots play while you watch as a spectator: the board and the log, move by move."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "pause", N_("pause/go")),
        Binding("right,n", "step", N_("one move")),
        Binding("plus,equals_sign", "speed(0.5)", N_("faster")),
        Binding("minus", "speed(2)", N_("slower")),
        Binding("q", "leave", N_("quit")),
    ]

    def __init__(
        self,
        state: State,
        names: Sequence[str],
        choose: Callable[[State, int], Action],
        delay: float,
    ) -> None:
        super().__init__(state.game, names)
        self.state = state
        self.choose = choose
        self.delay = delay
        self.paused = False
        self.words = Words(state.game, names, None)
        self.lines: list[LogLine] = []
        self.seen = 0
        self.mark = 0

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if widget.id != "entry":
                yield widget

    def on_mount(self) -> None:
        self.setup_panes()
        self.query_one("#hand", VerticalScroll).display = False
        self.query_one("#choices", OptionList).display = False
        self.redraw()
        self.set_timer(self.delay, self.tick)

    def redraw(self) -> None:
        self.show_view(self.state.view(None), self.lines, self.mark)

    def step_once(self) -> None:
        state = self.state
        if state.is_over:
            return
        seat = state.to_act[0]
        state.apply(seat, self.choose(state, seat))
        self.mark = self.seen
        for e in state.events_since(self.seen, None):
            self.lines.append(LogLine.of(self.words, e))
        self.seen = state.event_count
        self.redraw()
        if state.is_over:
            self.query_one("#board", VerticalScroll).border_title = self.table_title(_("game over"))
            self.status(_("Game over. Press q to leave."), "bold green")

    def tick(self) -> None:
        if self.paused or self.state.is_over:
            return
        self.step_once()
        self.set_timer(self.delay, self.tick)

    def action_pause(self) -> None:
        self.paused = not self.paused
        self.status(_("paused: space goes on, → one move") if self.paused else "")
        if not self.paused:
            self.tick()

    def action_step(self) -> None:
        if self.paused:
            self.step_once()

    def action_speed(self, factor: float) -> None:
        self.delay = min(5.0, max(0.02, self.delay * factor))
        self.status(_("{seconds:.2f} s between moves").format(seconds=self.delay))


class ReplayApp(TableApp):
    """A finished or saved game as one seat (or a spectator) saw it: forward, back, to a
    move number."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # priority: a focused pane that can scroll would otherwise take Home and End
        Binding("right,n,space", "go(1)", N_("next"), priority=True),
        Binding("left,p,b", "go(-1)", N_("back"), priority=True),
        Binding("home", "to(0)", N_("start"), priority=True),
        Binding("end", "to(-1)", N_("end"), priority=True),
        Binding("q,escape", "leave", N_("quit")),
    ]

    def __init__(
        self, record: Record, names: Sequence[str], seat: int | None, start: int = 0
    ) -> None:
        game = _game_of(record)
        super().__init__(game, names)
        self.record = record
        self.seat = seat
        self.words = Words(game, names, seat)
        self.total = len(record.actions)
        self.at = max(0, min(start, self.total))
        self.typed = ""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if widget.id != "entry":
                yield widget

    def on_mount(self) -> None:
        self.setup_panes()
        self.query_one("#choices", OptionList).display = False
        self.query_one("#hand", VerticalScroll).display = self.seat is not None
        self.redraw()

    def state_at(self, move: int) -> State:
        # the deal or the position the record starts from, then its actions (undo included)
        return dragonlair.replay(replace(self.record, actions=self.record.actions[:move]))

    def redraw(self) -> None:
        state = self.state_at(self.at)
        before = state.event_count
        if self.at > 0:
            previous = self.state_at(self.at - 1)
            before = previous.event_count
        log = [LogLine.of(self.words, e) for e in state.events_since(0, self.seat)]
        who = _("a spectator") if self.seat is None else self.names[self.seat]
        self.show_view(
            state.view(self.seat),
            log,
            before,
            title=_("move {move} of {total}, as {who}").format(
                move=self.at, total=self.total, who=who
            ),
        )
        note = _("← back  → next  Home/End  type a number and Enter to go to that move")
        if self.at == self.total and not state.is_over:
            note = _("the game was saved here; it is not over") + "  ·  " + note
        self.status(_("go to move {move}").format(move=self.typed) + "_" if self.typed else note)

    def action_go(self, step: int) -> None:
        self.action_to(self.at + step)

    def action_to(self, move: int) -> None:
        self.at = self.total if move < 0 else max(0, min(move, self.total))
        self.typed = ""
        self.redraw()

    def on_key(self, event: Any) -> None:
        char = getattr(event, "character", None)
        if char is not None and char.isdigit():
            self.typed += char
            self.redraw()
            event.stop()
        elif event.key == "backspace" and self.typed:
            self.typed = self.typed[:-1]
            self.redraw()
        elif event.key == "enter" and self.typed:
            self.action_to(int(self.typed))


def _game_of(record: Record) -> Game:
    import dragonlair

    return dragonlair.make(record.game, players=record.players, options=record.options)
