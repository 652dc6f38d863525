"""A game at the terminal, without the screen: who sits where, whose turn it is, the bots,
the answers a seat does not have to give, each human's log, and saving and resuming.

The screen (:mod:`dragonlair.tui.app`) only ever shows a human seat its own ``view`` and its
own ``events_since``, so nothing hidden from that seat can reach it.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import dragonlair

from ..bots import UnknownBot, make_bot
from ..core import Action, DragonlairError, State, derive_seed
from ..core.autoplay import forced_action
from ..core.bot import Bot
from ..core.concede import STAND_INS, adjusted, ended, ends
from ..core.confirm import reveals_to_actor
from ..core.undo import effective_actions
from ..i18n import gettext
from .words import Words

if TYPE_CHECKING:
    from ..tutorial import Tutorial

SAVE_FORMAT = "dragonlair.save/1"
HINT_STREAM = 0x417


@dataclass(frozen=True)
class _Held:
    """What a held decision changed, to take it back: the seat's game before it, and how
    far the seat's log and its "new since your move" mark went."""

    seat: int
    state: State
    seen: int
    logs: int
    last_move: int


@dataclass(frozen=True)
class SeatConfig:
    """Who sits at a seat: a human (by name) or a bot (by level); a human who conceded,
    the move they conceded at (a bot plays their seat from then on)."""

    name: str
    bot: str | None = None
    conceded: int | None = None

    @property
    def human(self) -> bool:
        return self.bot is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "bot": self.bot}
        if self.conceded is not None:
            out["conceded"] = self.conceded
        return out

    @classmethod
    def from_dict(cls, d: Any) -> SeatConfig:
        if not isinstance(d, dict) or not isinstance(d.get("name"), str):
            raise DragonlairError(f"a saved seat should be {{name, bot}}, not {d!r}")
        bot = d.get("bot")
        if bot is not None and not isinstance(bot, str):
            raise DragonlairError(f"a saved seat's bot should be a level name, not {bot!r}")
        conceded = d.get("conceded")
        if conceded is not None and (
            bot is not None or not isinstance(conceded, int) or conceded < 0
        ):
            raise DragonlairError(f"a saved seat's concession should be a move, not {conceded!r}")
        return cls(d["name"], bot, conceded)


@dataclass(frozen=True)
class LogLine:
    """One line of a seat's log; ``seq`` orders it against the seat's last move."""

    seq: int
    text: str
    big: bool = False  # an event a player must not miss (the game module's BIG_EVENTS)

    @classmethod
    def of(cls, words: Words, event: dict[str, Any]) -> LogLine:
        return cls(event["seq"], words.event(event), words.big(event))


class PlaySession:
    """One game at the terminal: the state, the seats and what each human has seen."""

    def __init__(
        self,
        state: State,
        seats: Sequence[SeatConfig],
        *,
        save_path: Path | None = None,
        undo: bool | None = None,
        tutorial: Tutorial | None = None,
        confirm: float = 0.0,
        confirm_turn: bool = False,
    ) -> None:
        game = state.game
        if len(seats) != game.players:
            raise DragonlairError(f"{len(seats)} seats for {game.players} players")
        if not any(s.human for s in seats):
            raise DragonlairError("at least one seat must be a human to play")
        self.state = state
        self.seats = list(seats)
        self.save_path = save_path
        self.bots: dict[int, Bot] = {
            i: make_bot(s.bot, game) for i, s in enumerate(seats) if s.bot is not None
        }
        # the humans who conceded (dragonlair.core.concede), each with the move: a bot
        # plays their seat to the end, unless the game ended with the concession
        self.conceded = {i: s.conceded for i, s in enumerate(seats) if s.conceded is not None}
        for i in self.conceded:
            self.bots[i] = make_bot(stand_in(game), game)
        self.names = [s.name for s in seats]
        self.humans = [i for i, s in enumerate(seats) if s.human]
        self.hotseat = len(self.humans) > 1
        self.words = {i: Words(game, self.names, i) for i in self.humans}
        self.spectator_words = Words(game, self.names, None)
        self.seen = dict.fromkeys(self.humans, 0)
        self.logs: dict[int, list[LogLine]] = {i: [] for i in self.humans}
        # The event count when each human last moved: later lines are "new since your move".
        self.last_move = dict.fromkeys(self.humans, 0)
        self.autoplay = dict.fromkeys(self.humans, True)
        self.save_error: str | None = None
        self.saved_moves = -1
        # Undo: always alone with bots; at a hotseat only when asked for (--undo) and
        # every player agrees at the start (the screen asks them, see PlayApp).
        self.undo_wanted = bool(undo) if self.hotseat else undo is not False
        self.undo_allowed = self.undo_wanted and not self.hotseat
        self.hints = True  # alone with bots, or at one screen with friends
        # A lesson (dragonlair.tutorial): its bots play as a table's do, the learner
        # answers everything (nothing is given for them), and there is no undo or hint.
        self.tutorial = tutorial
        if tutorial is not None:
            self.undo_wanted = self.undo_allowed = self.hints = False
            self.autoplay = dict.fromkeys(self.humans, False)
        # Alone with bots and a window of ``confirm`` seconds (``dragonlair play`` gives
        # CONFIRM_SECONDS) or ``confirm_turn``, a decision is held (dragonlair.core.confirm):
        # the bots do not move on it until it is confirmed, at the window's end or, with
        # ``confirm_turn``, only when the player confirms; until then undo takes it back
        # and nothing of it has reached anyone. Without either, undo replays the game
        # (below), as at a hotseat game, where every player sees the one screen.
        self.confirm = confirm
        self.confirm_turn = confirm_turn
        self.held: list[_Held] = []  # before each held decision, in order
        self.unseen: Action | None = None  # held unapplied: it would show something hidden
        self.holder: int | None = None  # the seat whose decisions are held

    # ------------------------------------------------------------------ the end

    @property
    def over(self) -> bool:
        """Whether the game is over: played to its end, or ended by concessions."""
        return self.state.is_over or bool(
            self.conceded and ends(self.state.game.players, self.conceded)
        )

    def result(self) -> dict[str, Any] | None:
        """The game's result as it stands (None while it goes on), the conceding seats
        ranked last (dragonlair.core.concede)."""
        if self.conceded and ends(self.state.game.players, self.conceded):
            return ended(self.state.game.players, self.conceded)
        result = self.state.result
        if result is None:
            return None
        return adjusted(result.to_dict(), self.conceded)

    def concede_refusal(self, seat: int) -> str | None:
        """Why ``seat`` cannot concede now (None: it can)."""
        if self.tutorial is not None:
            return gettext("a lesson cannot be conceded: ctrl+q leaves it")
        if self.over:
            return gettext("the game is over")
        if seat in self.conceded:
            return gettext("you have conceded already")
        return None

    def concede(self, seat: int) -> None:
        """``seat``'s player gives up: they rank last; a bot plays their seat to the end,
        or the game ends now if at most one seat is left playing. DragonlairError (and
        nothing changed) where it is not allowed."""
        why = self.concede_refusal(seat)
        if why is not None:
            raise DragonlairError(gettext("you cannot concede: {why}").format(why=why))
        self.conceded[seat] = self.state.move
        self.seats[seat] = SeatConfig(self.seats[seat].name, None, self.state.move)
        self.bots[seat] = make_bot(stand_in(self.state.game), self.state.game)
        self.autosave()

    # ------------------------------------------------------------------ turns

    def next_bot(self) -> int | None:
        """A bot seat that is asked now, if any (bots go first)."""
        return next((s for s in self.state.to_act if s in self.bots), None)

    def next_human(self) -> int | None:
        return next((s for s in self.state.to_act if s in self.humans), None)

    def bot_action(self, seat: int) -> Action:
        state = self.state
        if self.tutorial is not None:
            level = self.seats[seat].bot or ""
            return state.game.parse_action(self.tutorial.bot_action(state, seat, level))
        rng = random.Random(derive_seed(state.seed or 0, 7919, seat, state.move))
        return self.bots[seat].choose(state.view(seat), state.legal_actions(seat), rng)

    def forced(self, seat: int) -> Action | None:
        """The answer given for ``seat`` when it has one legal action and wants it given."""
        if not self.autoplay.get(seat, False):
            return None
        return forced_action(self.state, seat)

    def apply(self, seat: int, action: Action, *, chosen: bool = True) -> None:
        """Apply ``action`` for ``seat``; bad input raises DragonlairError and changes
        nothing. Saves afterwards when a save file was given. An answer given for a human
        (``chosen=False``: a HALT! it could not call, a forced draw) is not their move:
        what is new since their own last move stays marked. In a lesson, a choice its
        step does not teach is refused the same way."""
        if self.tutorial is not None and self.tutorial.refusal(self.state, seat, str(action)):
            raise DragonlairError(
                gettext("This step of the lesson teaches another choice: read the lesson's text.")
            )
        self.state.apply(seat, action)
        if seat in self.humans:
            self.catch_up(seat)
            if chosen:
                self.last_move[seat] = self.state.event_count
        self.autosave()

    # ------------------------------------------------------------------ holding

    def holds_for(self, seat: int) -> bool:
        """Whether ``seat``'s own decisions are held for confirmation."""
        return (
            self.undo_allowed
            and not self.hotseat
            and seat in self.humans
            and (self.confirm > 0 or self.confirm_turn)
        )

    @property
    def holding(self) -> bool:
        return bool(self.held) or self.unseen is not None

    def hold(self, seat: int, action: Action) -> None:
        """Hold ``seat``'s decision: applied to the game the seat is shown (the bots wait),
        or, when it would show the seat something hidden, kept unapplied. DragonlairError
        (and nothing changed) if it is not legal or a decision waits unseen."""
        if self.unseen is not None:
            raise DragonlairError(
                gettext("your last decision waits for its confirmation: confirm it or take it back")
            )
        if action not in self.state.legal_actions(seat):
            raise DragonlairError(gettext("that is not one of your choices now"))
        self.holder = seat
        if reveals_to_actor(self.state, seat, action):
            self.unseen = action
            return
        self.held.append(
            _Held(
                seat,
                self.state.clone(),
                self.seen[seat],
                len(self.logs[seat]),
                self.last_move[seat],
            )
        )
        self.state.apply(seat, action)
        self.catch_up(seat)
        self.last_move[seat] = self.state.event_count

    def take_back(self) -> bool:
        """Take back the last held decision (False: none is held)."""
        if self.unseen is not None:
            self.unseen = None
            return True
        if not self.held:
            return False
        h = self.held.pop()
        self.state = h.state
        self.seen[h.seat] = h.seen
        del self.logs[h.seat][h.logs :]
        self.last_move[h.seat] = h.last_move
        return True

    def confirm_held(self) -> None:
        """The held decisions are final: the one held unseen is played now."""
        unseen, seat = self.unseen, self.holder
        self.unseen, self.held, self.holder = None, [], None
        if unseen is not None and seat is not None:
            self.apply(seat, unseen)
        else:
            self.autosave()

    # ------------------------------------------------------------------ undo and hints

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` cannot take back a decision now (None: it can)."""
        if not self.undo_allowed:
            if self.hotseat:
                return gettext("this hotseat game is played without undo (start it with --undo)")
            return gettext("this game is played without undo")
        if self.state.is_over:
            return gettext("the game is over")
        if not any(p == seat for p, _ in effective_actions(self.state)):
            return gettext("you have made no decision to take back yet")
        if not self._undo_steps(seat):
            return gettext("something hidden has been revealed since your last decision")
        return None

    def _undo_steps(self, seat: int) -> list[State]:
        """The states after each undo that taking back ``seat``'s last decision takes: one,
        or more when the decision reached is one it had no choice in and that would be
        answered for it again at once. Empty when nothing can be taken back."""
        steps: list[State] = []
        s = self.state
        while s.can_undo(seat):
            s = s.clone()
            s.undo(seat)
            steps.append(s)
            if not self.autoplay.get(seat, False) or forced_action(s, seat) is None:
                return steps
        return []

    def undo(self, seat: int) -> int:
        """Take back ``seat``'s last decision and everything played after it; how many
        undos that took. DragonlairError (and nothing changed) where it is not allowed."""
        why = self.undo_refusal(seat)
        if why is not None:
            raise DragonlairError(gettext("no undo: {why}").format(why=why))
        steps = self._undo_steps(seat)
        self.state = steps[-1]
        self.catch_up(seat)
        self.last_move[seat] = self.state.event_count
        self.autosave()
        return len(steps)

    def hint(self, seat: int) -> Any:
        """The advice on ``seat``'s decision now (a ``dragonlair.bots.advice.Advice``),
        from its view and legal actions only, within the hint's time budget."""
        return self.hint_job(seat)()

    def hint_job(self, seat: int) -> Callable[[], Any]:
        """The hint for ``seat``'s decision now, to work out later (in another thread): it
        holds the seat's view and legal actions as they are now, and nothing else."""
        from ..bots.advice import advise

        state = self.state
        legal = state.legal_actions(seat)
        if not legal:
            raise DragonlairError(gettext("a hint is for your own decision: you are not asked now"))
        game, view = state.game, state.view(seat)
        seed = derive_seed(state.seed or 0, HINT_STREAM, seat, state.move)
        return lambda: advise(game, view, legal, seed=seed)

    # ------------------------------------------------------------------ logs

    def catch_up(self, seat: int) -> list[LogLine]:
        """The lines ``seat`` has not seen yet, added to its log."""
        state = self.state
        words = self.words[seat]
        lines = [LogLine.of(words, e) for e in state.events_since(self.seen[seat], seat)]
        self.seen[seat] = state.event_count
        self.logs[seat].extend(lines)
        return lines

    # ------------------------------------------------------------------ saving

    def to_save(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "seats": [s.to_dict() for s in self.seats],
            "state": json.loads(self.state.to_json()),
        }

    def save(self, path: Path) -> None:
        """Write the save file (atomically); OSError when it cannot be written."""
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_save()))
        tmp.replace(path)

    def autosave(self) -> None:
        if self.save_path is None:
            return
        try:
            self.save(self.save_path)
        except OSError as e:
            self.save_error = f"saving to {self.save_path} failed: {e.strerror or e}"
        else:
            self.save_error = None
            self.saved_moves = self.state.move

    @property
    def saved(self) -> bool:
        """Whether the save file holds the game as it is now."""
        return self.save_path is not None and self.saved_moves == self.state.move


def stand_in(game: Any) -> str:
    """The bot that plays a conceding seat: the first of the stand-ins the game has."""
    for level in STAND_INS:
        try:
            make_bot(level, game)
        except UnknownBot:
            continue
        return level
    return STAND_INS[-1]


def check_save_path(path: Path) -> None:
    """Refuse a save file that could never be written, before the game starts."""
    parent = path.expanduser().resolve().parent
    if path.is_dir():
        raise DragonlairError(f"--save {path}: that is a directory; give a file name")
    if not parent.is_dir():
        raise DragonlairError(f"--save {path}: the directory {parent} does not exist")
    try:
        probe = parent / f".{path.name}.probe"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise DragonlairError(f"--save {path}: cannot write there ({e.strerror or e})") from None


def load_save(path: Path) -> tuple[State, list[SeatConfig]]:
    """A saved session: the state (checked against its record) and who sits where."""
    try:
        doc = json.loads(path.read_text())
    except OSError as e:
        raise DragonlairError(f"cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise DragonlairError(f"{path} is not a saved game: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise DragonlairError(f"{path} is not a dragonlair save file ({SAVE_FORMAT})")
    try:
        state = dragonlair.load(json.dumps(doc.get("state")))
    except DragonlairError:
        # what the engine says names its internals (a field of the state): not for players
        raise DragonlairError(
            f"{path} holds a game that cannot be resumed: its saved state is damaged "
            "or was written by another version of dragonlair"
        ) from None
    seats = [SeatConfig.from_dict(s) for s in doc.get("seats") or []]
    if len(seats) != state.game.players:
        raise DragonlairError(f"{path} has {len(seats)} seats for {state.game.players} players")
    return state, seats


def stdin_is_interactive() -> bool:
    return sys.stdin.isatty()
