"""Tutorials: a game taught by playing it, one rule at a time as it arises.

A game's tutorial is a TOML file of its package, which its manifest names (``tutorial``,
``data/tutorial.toml`` beside the puzzles)::

    title = "Learn Dragon Stripes"
    seat = 0                         # the learner's seat
    seed = 11                        # deals what the position leaves out, seeds the bots
    bots = ["heuristic", "heuristic"]  # the other seats' levels, in seat order
    summary = "What the lesson taught, and what to try in a real game."

    [position]                       # the fixed deal (see dragonlair.core.position)
    game = "dragon-stripes"
    ...

    [[steps]]                        # one per decision of the learner, in order
    text = "What happens now, what to look at, what the choices mean, and why."
    look = ["knight", "pot"]         # the parts of the board to highlight
    allow = ["draw"]                 # optional: the only choices taught here

Step ``k`` is shown while the learner's ``k``-th decision is asked for. Where a step has
``allow``, any other choice is refused (:meth:`Tutorial.refusal`) and changes nothing;
without it every legal choice is taken. Bots are seeded as at any table
(:func:`~dragonlair.bots.base.table_bot_seed`), and only levels that do not search
against a clock are allowed, so the same choices always meet the same answers and the
lesson is the same every time. After the last step the game goes on freely, with the
summary shown.

**Simultaneous choices.** A table's bot is seeded by the move at which it decides. In a
simultaneous secret choice (Space Race's picks and bids, Space Dragons' hiring) that move
counts the choices already made, so it depends on whether the learner chose before or
after the bot: a bot breaking a tie by its seeded draw would then pick another card, and
the lesson would not be the same every time. At a lesson a bot is therefore seeded by the
move at which the decision it answers was opened (:func:`decision_move`), which is the
same whoever chooses first; outside a simultaneous choice that is the move itself, so
turn-by-turn decisions are seeded as at any table. The bots' answers do not depend on the
order otherwise: a seat's view of a simultaneous choice shows nobody's choice but its
own. A tutorial table of the server (``dragonlair.web``) and the terminal's lesson seed
their bots with :meth:`Tutorial.bot_seed`; ordinary tables keep the move itself.

:func:`load` checks everything when a tutorial is read, with errors that name the step and
the field: the fields and their types, the position, and a play-through of every path the
steps allow, in which each allowed choice must be legal where its step is shown and the
game must not end before the last step. Texts are English; the catalogs translate them
(``make catalogs`` extracts them, ``dragonlair.i18n.extract.tutorials``).
"""

from __future__ import annotations

import random
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from .bots import levels, make_bot
from .bots.base import table_bot_seed
from .core import DragonlairError, Game, State, make, manifest
from .core.bot import NO_VIEW
from .core.errors import UnknownAction
from .core.position import BadPosition, build

FIELDS = ("title", "seat", "seed", "bots", "summary", "position", "steps")
STEP_FIELDS = ("text", "look", "allow")
_PART = re.compile(r"^[a-z0-9][a-z0-9-]*$")
SEARCHING = ("ismcts",)
"""Levels that search against a clock: their moves are not the same every time."""
MAX_PATHS = 5000
"""How many decision points the play-through may visit before the steps count as too
open (each step without ``allow`` multiplies the paths)."""


class BadTutorial(DragonlairError, ValueError):
    """A tutorial that cannot be used; the message names the step and the field."""


@dataclass(frozen=True)
class Step:
    """One decision of the learner, taught."""

    text: str
    look: tuple[str, ...]
    allow: tuple[str, ...] | None


@dataclass(frozen=True)
class Tutorial:
    """A game's tutorial, checked."""

    game: str
    title: str
    seat: int
    seed: int
    bots: tuple[str, ...]
    summary: str
    position: dict[str, Any]
    steps: tuple[Step, ...]

    def new_game(self) -> Game:
        """The game the position is for (its players and options)."""
        players = self.position.get("players")
        options = self.position.get("options")
        return make(
            self.game,
            players=players if isinstance(players, int) else None,
            options=dict(options) if isinstance(options, dict) else {},
        )

    def start(self) -> State:
        """The fixed deal, ready to play."""
        return build(self.new_game(), self.position, self.seed)

    def bot_levels(self) -> dict[int, str]:
        """The bots' levels by seat."""
        others = [s for s in range(len(self.bots) + 1) if s != self.seat]
        return dict(zip(others, self.bots, strict=True))

    def step_index(self, state: State) -> int:
        """How many decisions the learner has made: the index of the step shown now
        (``len(steps)`` and more once the lesson is over)."""
        return sum(1 for seat, _ in state.record.actions if seat == self.seat)

    def step(self, state: State) -> Step | None:
        """The step shown at ``state``, or None once the lesson is over."""
        k = self.step_index(state)
        return self.steps[k] if k < len(self.steps) else None

    def refusal(self, state: State, seat: int, action: str) -> str | None:
        """Why the lesson refuses ``seat``'s ``action`` now (its step allows others), or
        None when it may be played (the rules still judge it)."""
        if seat != self.seat:
            return None
        k = self.step_index(state)
        if k >= len(self.steps):
            return None
        allow = self.steps[k].allow
        if allow is None or action in allow:
            return None
        return f"step {k + 1} of the tutorial teaches {' or '.join(allow)} here, not {action}"

    def info(self, state: State) -> dict[str, Any]:
        """What the learner's page shows of the lesson at ``state`` (English texts, which
        the page translates through the catalog)."""
        k = self.step_index(state)
        step = self.steps[k] if k < len(self.steps) else None
        return {
            "game": self.game,
            "title": self.title,
            "step": k + 1,
            "steps": len(self.steps),
            "text": step.text if step is not None else None,
            "look": list(step.look) if step is not None else [],
            "allow": None if step is None or step.allow is None else list(step.allow),
            "summary": self.summary if step is None or state.is_over else None,
        }

    def bot_seed(self, state: State, seat: int) -> int:
        """The seed of the bot at ``seat`` deciding at ``state``: the table's seed for that
        seat and the move at which the decision was opened (:func:`decision_move`)."""
        return table_bot_seed(self.seed, seat, decision_move(state))

    def bot_action(self, state: State, seat: int, level: str) -> str:
        """What the bot at ``seat`` plays at ``state``, exactly as a tutorial table's bot
        seat does (its view, its legal actions, :meth:`bot_seed`)."""
        game = state.game
        bot = make_bot(level, game)
        legal = state.legal_actions(seat)
        view = state.view(seat) if bot.reads_view else NO_VIEW
        rng = random.Random(self.bot_seed(state, seat))
        return str(bot.choose(view, legal, rng))


def decision_move(state: State) -> int:
    """The move at which the decision asked now was opened: in a simultaneous secret
    choice, the move before its first choice (however many seats have chosen since);
    otherwise the move itself."""
    if not state.in_sealed_choice:
        return state.move
    choosing = state.view(None).get("choosing", state.to_act)
    return state.move - (len(choosing) - len(state.to_act))


# ---------------------------------------------------------------------- reading


def _fail(game_id: str, where: str, message: str) -> BadTutorial:
    return BadTutorial(f"{game_id} tutorial: {where}: {message}")


def _text(game_id: str, where: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(game_id, where, f"should be a text, not {value!r}")
    return value.strip()


def _names(game_id: str, where: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _fail(game_id, where, f"should be a list of names, not {value!r}")
    return tuple(value)


def parse(game_id: str, text: str) -> Tutorial:
    """A tutorial from its TOML text, checked and played through (BadTutorial names the
    step and the field that are wrong)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BadTutorial(f"{game_id} tutorial: not TOML: {e}") from None
    return from_dict(game_id, doc)


def from_dict(game_id: str, doc: dict[str, Any]) -> Tutorial:
    """A tutorial from its document, checked and played through."""
    unknown = sorted(set(doc) - set(FIELDS))
    if unknown:
        raise _fail(game_id, unknown[0], f"unknown field; the fields are {', '.join(FIELDS)}")
    for name in FIELDS:
        if name not in doc:
            raise _fail(game_id, name, "is missing")
    title = _text(game_id, "title", doc["title"])
    summary = _text(game_id, "summary", doc["summary"])
    position = doc["position"]
    if not isinstance(position, dict):
        raise _fail(game_id, "position", "should be a table (the fixed deal)")
    if position.get("game", game_id) != game_id:
        raise _fail(game_id, "position.game", f"is {position.get('game')!r}, not {game_id!r}")
    seed = doc["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise _fail(game_id, "seed", f"should be a whole number from 0, not {seed!r}")
    raw_steps = doc["steps"]
    if not isinstance(raw_steps, list) or not raw_steps:
        raise _fail(game_id, "steps", "should be a list of at least one [[steps]] table")
    steps = [_step(game_id, f"step {i}", raw) for i, raw in enumerate(raw_steps, 1)]
    tut = Tutorial(
        game=game_id,
        title=title,
        seat=0,
        seed=seed,
        bots=(),
        summary=summary,
        position=dict(position),
        steps=tuple(steps),
    )
    try:
        g = tut.new_game()
    except DragonlairError as e:
        raise _fail(game_id, "position", str(e)) from None
    seat = doc["seat"]
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.players:
        raise _fail(game_id, "seat", f"should be a seat from 0 to {g.players - 1}, not {seat!r}")
    bots = _bots(game_id, doc["bots"], g.players - 1)
    tut = Tutorial(
        game=game_id,
        title=title,
        seat=seat,
        seed=seed,
        bots=bots,
        summary=summary,
        position=dict(position),
        steps=tuple(steps),
    )
    try:
        start = tut.start()
    except BadPosition as e:
        raise _fail(game_id, f"position.{e.field}", str(e)) from None
    except DragonlairError as e:
        raise _fail(game_id, "position", str(e)) from None
    play_through(tut, start)
    return tut


def _step(game_id: str, where: str, raw: object) -> Step:
    """One ``[[steps]]`` table: its text, the board parts it points at and the choices it
    allows (None: any)."""
    if not isinstance(raw, dict):
        raise _fail(game_id, where, "should be a table")
    extra = sorted(set(raw) - set(STEP_FIELDS))
    if extra:
        has = ", ".join(STEP_FIELDS)
        raise _fail(game_id, f"{where}, field {extra[0]!r}", f"unknown; a step has {has}")
    text = _text(game_id, f"{where}, field 'text'", raw.get("text"))
    look = _names(game_id, f"{where}, field 'look'", raw.get("look", []))
    for part in look:
        if not _PART.match(part):
            raise _fail(game_id, f"{where}, field 'look'", f"{part!r} is not a board part's name")
    allow = raw.get("allow")
    allowed = None if allow is None else _names(game_id, f"{where}, field 'allow'", allow)
    if allowed is not None and len(set(allowed)) != len(allowed):
        raise _fail(game_id, f"{where}, field 'allow'", "names a choice twice")
    return Step(text=text, look=look, allow=allowed)


def _bots(game_id: str, raw: object, others: int) -> tuple[str, ...]:
    """The levels of the ``others`` bots: one per other seat, each a level of the game that
    plays the same moves every time (no search against a clock)."""
    bots = _names(game_id, "bots", raw)
    if len(bots) != others:
        raise _fail(game_id, "bots", f"should name {others} levels, one per other seat")
    known = levels(game_id)
    for i, level in enumerate(bots):
        if level in SEARCHING:
            raise _fail(
                game_id,
                f"bots[{i}]",
                f"{level} searches against a clock, so its moves are not the same every "
                "time; choose random, heuristic or a style",
            )
        if level not in known:
            names = ", ".join(known)
            raise _fail(game_id, f"bots[{i}]", f"no level {level!r}; the levels are {names}")
    return bots


def play_through(tut: Tutorial, start: State) -> int:
    """Play every path the steps allow, from ``start`` to the last step, with the bots as
    a table plays them; BadTutorial where an allowed choice is not legal where its step is
    shown, or the game ends before the last step. Returns how many paths there are."""
    levels_by_seat = tut.bot_levels()
    todo = [start]
    visited = 0
    paths = 0
    while todo:
        st = todo.pop()
        visited += 1
        if visited > MAX_PATHS:
            raise _fail(
                tut.game, "steps", f"allow more than {MAX_PATHS} paths: restrict more steps"
            )
        while True:
            if st.is_over:
                k = tut.step_index(st)
                if k >= len(tut.steps):
                    break  # the last step was shown; the game may end with it
                raise _fail(
                    tut.game,
                    f"step {k + 1}",
                    f"the game ends before it is shown (it has {len(tut.steps)} steps)",
                )
            bots = [s for s in st.to_act if s != tut.seat]
            if not bots:
                break
            seat = bots[0]
            text = tut.bot_action(st, seat, levels_by_seat[seat])
            st.apply(seat, st.game.parse_action(text))
        k = tut.step_index(st)
        if k >= len(tut.steps):
            paths += 1
            continue
        legal = [str(a) for a in st.legal_actions(tut.seat)]
        allow = tut.steps[k].allow
        for choice in allow if allow is not None else legal:
            if choice not in legal:
                raise _fail(
                    tut.game,
                    f"step {k + 1}, field 'allow'",
                    f"{choice!r} is not a legal choice there; the choices are {', '.join(legal)}",
                )
            nxt = st.clone()
            try:
                nxt.apply(tut.seat, st.game.parse_action(choice))
            except UnknownAction as e:  # pragma: no cover - legal texts parse
                raise _fail(tut.game, f"step {k + 1}, field 'allow'", str(e)) from None
            todo.append(nxt)
    return paths


@cache
def tutorial(game_id: str) -> Tutorial:
    """``game_id``'s tutorial, read and checked once; BadTutorial when it has none or it
    is wrong."""
    m = manifest(game_id)
    text = m.tutorial_text()
    if text is None:
        raise BadTutorial(f"{m.game.spec.name} has no tutorial")
    return parse(game_id, text)


def has_tutorial(game_id: str) -> bool:
    """Whether ``game_id``'s manifest names a tutorial."""
    return manifest(game_id).tutorial is not None
