"""The conformance suite every game passes, called from each game's tests in one line::

    from dragonlair.core.conformance import check_game
    def test_conformance(): check_game("my-game")

It plays seeded random games for every player count and each option set given, and checks
at every step (the costlier checks every ``every`` steps):

- first, the game's manifest: every part it declares exists, loads and is what it claims
  to be (:func:`~dragonlair.core.manifest.check_manifest`);
- termination within the game's declared ``max_length``;
- ``to_act`` and ``legal_actions`` agree; action text and ids round-trip;
- every phase the game reaches is one it declares (``Game.phases``, "over" included, each
  once, with a name in ``Game.phase_names`` only for a declared phase), and
  every finished game ends in a way it declares (``Result.termination``, one of
  ``Game.terminations``);
- illegal actions, actions from seats not asked, malformed text and bad seats raise the
  right error and change nothing (the JSON before and after is compared);
- ``clone()`` copies exactly and is independent of the original;
- ``to_json``/``load`` and ``replay(record)`` reproduce the state exactly;
- the same seed and actions give the same game, even with the global ``random`` used
  between steps;
- the game's own conservation checks (``check_invariants``);
- views match the game's declared view type (``Game.view_type``, a ``TypedDict``) key for
  key and value for value; views and events are plain JSON; every field an event declares
  as a seat holds one; every seat sees every event, at least redacted (a gap in the
  numbering would tell a seat that something private happened);
- the leak test: for each seat (and a spectator), redraw everything it cannot see with the
  game's hidden-state sampler; its view and legal actions must not change, and the sampled
  state must be a valid state that plays on to the end.

Failures raise :class:`ConformanceError` with the game, setting, seed and move, so the
failing game can be replayed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import BadSeat, DragonlairError, IllegalAction, UnknownAction
from .game import Game
from .manifest import BadManifest, check_manifest
from .record import Record
from .registry import load, make, replay
from .rng import Rng, derive_seed
from .state import GAME_OVER, State
from .views import check_view


class ConformanceError(AssertionError):
    """A game broke one of the engine's guarantees."""


@dataclass
class Report:
    """What the suite ran: games, decisions and leak samples per setting."""

    games: int = 0
    decisions: int = 0
    leak_samples: int = 0
    longest: int = 0
    settings: list[str] = field(default_factory=list)


def check_game(
    game_id: str,
    players: Iterable[int] | None = None,
    options: Sequence[Mapping[str, object]] = ({},),
    games: int = 3,
    seed: int = 0,
    every: int = 5,
) -> Report:
    """Run the whole suite for ``game_id``; raises ConformanceError on the first failure."""
    try:
        check_manifest(game_id)
    except BadManifest as e:
        raise ConformanceError(str(e)) from e
    report = Report()
    first = make(game_id)
    check_phases(first)
    counts = (
        list(players)
        if players is not None
        else list(range(first.spec.min_players, first.spec.max_players + 1))
    )
    for n in counts:
        for opts in options:
            game = make(game_id, players=n, options=opts)
            report.settings.append(f"{n}p {dict(opts)}")
            for g in range(games):
                game_seed = derive_seed(seed, n, g)
                _Checker(game, game_seed, every, report).run()
    return report


def check_phases(game: Game) -> None:
    """The phases ``game`` declares: ``GAME_OVER`` among them, none twice, and a name in
    ``phase_names`` only for a declared phase."""
    phases = game.phases
    if GAME_OVER not in phases or len(set(phases)) != len(phases):
        _fail(f"{game.spec.id}: phases {phases} should hold {GAME_OVER!r} and each phase once")
    for phase, name in game.phase_names.items():
        if phase not in phases:
            _fail(f"{game.spec.id}: phase_names names {phase!r}, which is not a phase it declares")
        if not isinstance(name, str) or not name:
            _fail(f"{game.spec.id}: phase_names gives {phase!r} no name")


def _fail(msg: str) -> None:
    raise ConformanceError(msg)


class _Checker:
    def __init__(self, game: Game, seed: int, every: int, report: Report):
        self.game = game
        self.seed = seed
        self.every = max(1, every)
        self.report = report
        self.where = f"{game.spec.id} {game.players}p options={game.options} seed={seed}"

    def fail(self, state: State | None, msg: str) -> None:
        at = f" at move {state.move}" if state is not None else ""
        _fail(f"{self.where}{at}: {msg}")

    # ------------------------------------------------------------------ the playout

    def run(self) -> None:
        game = self.game
        saved = random.getstate()
        try:
            random.seed(self.seed)
            a = game.new_game(self.seed)
            random.seed(self.seed + 1)
            b = game.new_game(self.seed)
        finally:
            random.setstate(saved)
        if a.to_json() != b.to_json():
            self.fail(
                a,
                "two new games with the same seed differ "
                "(does the game use the global random generator or the clock?)",
            )
        driver = Rng(self.seed ^ 0x5EED)
        steps = 0
        state = a
        while not state.is_over:
            self.check_turn(state)
            state.check_invariants()
            if steps % self.every == 0:
                self.check_refusals(state, driver)
                self.check_clone(state, driver)
                self.check_json(state)
                self.check_events(state)
                self.check_leaks(state, driver)
            seat, action = self.random_move(state, driver)
            state.apply(seat, action)
            steps += 1
            if steps > game.max_length:
                self.fail(state, f"did not end within max_length={game.max_length} decisions")
        self.check_turn(state)
        state.check_invariants()
        self.check_over(state)
        for seat in [*range(game.players), None]:
            self.check_view_type(state, seat, state.view(seat))
        self.check_json(state)
        self.check_events(state)
        self.check_record(state)
        self.check_global_random(state.record)
        self.report.games += 1
        self.report.decisions += steps
        self.report.longest = max(self.report.longest, steps)

    @staticmethod
    def random_move(state: State, rng: Rng) -> tuple[int, Any]:
        seat = state.to_act[rng.randbelow(len(state.to_act))]
        legal = state.legal_actions(seat)
        return seat, legal[rng.randbelow(len(legal))]

    # ------------------------------------------------------------------ checks

    def check_turn(self, state: State) -> None:
        game = self.game
        to_act = state.to_act
        if not isinstance(to_act, tuple):
            self.fail(state, f"to_act should be a tuple, not {type(to_act).__name__}")
        if len(set(to_act)) != len(to_act) or any(
            not isinstance(s, int) or not 0 <= s < game.players for s in to_act
        ):
            self.fail(state, f"to_act {to_act} has repeated or invalid seats")
        if state.is_over != (not to_act):
            self.fail(state, f"is_over={state.is_over} but to_act={to_act}")
        if state.phase not in game.phases:
            self.fail(
                state,
                f"phase {state.phase!r} is not one of the phases the game declares "
                f"({', '.join(game.phases) or 'none'})",
            )
        for seat in range(game.players):
            legal = state.legal_actions(seat)
            ids = state.legal_action_ids(seat)
            if (seat in to_act) != bool(legal):
                self.fail(
                    state,
                    f"seat {seat}: in to_act={seat in to_act} but has {len(legal)} legal actions",
                )
            if len(set(legal)) != len(legal):
                self.fail(state, f"seat {seat} has repeated legal actions {legal}")
            if ids != [game.action_id(x) for x in legal]:
                self.fail(state, f"seat {seat}: legal_action_ids disagree with legal_actions")
            if any(x is not game.actions[i] for x, i in zip(legal, ids, strict=True)):
                self.fail(state, f"seat {seat}: legal_actions are not the table's own actions")
            if seat in to_act and state.legal_ids_unchecked(seat) != ids:
                self.fail(state, f"seat {seat}: legal_ids_unchecked disagree with legal_action_ids")
            for x in legal:
                if game.parse_action(str(x)) != x or game.action_from_id(game.action_id(x)) != x:
                    self.fail(state, f"action {x!r} does not round-trip through text and id")

    def check_refusals(self, state: State, rng: Rng) -> None:
        before = state.to_json()
        game = self.game
        acting = state.to_act[rng.randbelow(len(state.to_act))]
        legal = state.legal_actions(acting)
        legal_ids = set(state.legal_action_ids(acting))
        idle = [s for s in range(game.players) if s not in state.to_act]
        attempts: list[tuple[int, Any, type[Exception], str]] = []
        if idle:
            attempts.append(
                (idle[rng.randbelow(len(idle))], legal[0], IllegalAction, "a seat not asked to act")
            )
        others = [i for i in range(game.num_actions) if i not in legal_ids]
        for _ in range(3):
            if others:
                bad = game.action_from_id(others[rng.randbelow(len(others))])
                attempts.append((acting, bad, IllegalAction, "an illegal action"))
        attempts.append((acting, "%% no such action %%", UnknownAction, "malformed text"))
        attempts.append((acting, "", UnknownAction, "empty text"))
        attempts.append((game.players, legal[0], IllegalAction, "a seat outside the table"))
        attempts.append((-1, legal[0], IllegalAction, "a negative seat"))
        for seat, action, error, what in attempts:
            try:
                state.apply(seat, action)
            except error:
                pass
            except BadSeat:
                if error is not IllegalAction:
                    self.fail(state, f"{what} raised BadSeat instead of {error.__name__}")
            except Exception as e:
                self.fail(
                    state,
                    f"{what} ({seat}, {action!r}) raised {type(e).__name__}: {e}; "
                    f"expected {error.__name__}",
                )
            else:
                self.fail(state, f"{what} ({seat}, {action!r}) was accepted")
            if state.to_json() != before:
                self.fail(state, f"refusing {what} ({seat}, {action!r}) changed the state")
        try:
            state.apply_id(acting, game.num_actions)
        except IllegalAction:
            pass
        else:
            self.fail(state, "an out-of-range action id was accepted")
        if state.to_json() != before:
            self.fail(state, "refusing an out-of-range id changed the state")

    def check_clone(self, state: State, rng: Rng) -> None:
        before = state.to_json()
        c = state.clone()
        if c.to_json() != before:
            self.fail(state, "clone() differs from the original")
        for _ in range(1 + rng.randbelow(6)):
            if c.is_over:
                break
            c.apply(*self.random_move(c, rng))
        if state.to_json() != before:
            self.fail(state, "playing on a clone changed the original")

    def check_json(self, state: State) -> None:
        text = state.to_json()
        again = load(text)
        if again.to_json() != text:
            self.fail(state, "load(to_json()) does not reproduce the state")
        if state.seed is not None and replay(state.record).to_json() != text:
            self.fail(state, "replay(record) does not reproduce the state")
        if again.to_act != state.to_act or again.is_over != state.is_over:
            self.fail(state, "a loaded state disagrees on to_act or is_over")
        for seat in range(self.game.players):
            if again.legal_actions(seat) != state.legal_actions(seat):
                self.fail(state, f"a loaded state disagrees on seat {seat}'s legal actions")

    def check_events(self, state: State) -> None:
        specs = self.game.event_specs
        n = self.game.players
        for seat in [*range(self.game.players), None]:
            events = state.events_since(0, seat)
            seqs = [e["seq"] for e in events]
            if seqs != list(range(state.event_count)):
                self.fail(
                    state,
                    f"seat {seat} does not see every event, at least redacted "
                    f"(numbers {seqs[-5:]} of {state.event_count}): a gap in the "
                    "numbering would tell it that something private happened",
                )
            for e in events:
                if e["type"] not in specs:
                    self.fail(state, f"event of undeclared type {e['type']!r}")
                for name in specs[e["type"]].seat_fields:
                    v = e.get(name)
                    if name in e and not (
                        isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n
                    ):
                        self.fail(state, f"event {e['type']}: seat field {name}={v!r} is no seat")
            if json.loads(json.dumps(events)) != events:
                self.fail(state, f"seat {seat}: events are not plain JSON")
            if events:
                mid = events[len(events) // 2]["seq"]
                if state.events_since(mid, seat) != [e for e in events if e["seq"] >= mid]:
                    self.fail(state, f"seat {seat}: events_since({mid}) is not the tail")
            for e in events:
                self.game.event_text(e)

    def check_leaks(self, state: State, rng: Rng) -> None:
        game = self.game
        seats: list[int | None] = [*range(game.players), None]
        playout_seat = seats[rng.randbelow(len(seats))]
        for seat in seats:
            view = state.view(seat)
            if json.loads(json.dumps(view)) != view:
                self.fail(state, f"view({seat}) is not plain JSON (tuples or non-str keys?)")
            for k in range(2):
                sample_rng = random.Random(rng.next64())
                sampled = game.sample_state(json.loads(json.dumps(view)), sample_rng)
                self.report.leak_samples += 1
                if sampled.view(seat) != view:
                    diff = _first_difference(view, sampled.view(seat))
                    self.fail(
                        state,
                        f"leak: seat {seat}'s view changes when what it cannot see "
                        f"is redrawn ({diff})",
                    )
                if seat is not None and sampled.legal_actions(seat) != state.legal_actions(seat):
                    self.fail(
                        state,
                        f"leak: seat {seat}'s legal actions change when what it "
                        f"cannot see is redrawn",
                    )
                if sampled.to_act != state.to_act:
                    self.fail(state, "a sampled state has a different to_act")
                try:
                    sampled.check_invariants()
                except AssertionError as e:
                    self.fail(state, f"a state sampled for seat {seat} breaks an invariant: {e}")
                if k == 0 and seat == playout_seat:
                    self.play_out_sample(state, sampled, rng, seat)
            self.check_view_type(state, seat, view)

    def check_view_type(self, state: State, seat: int | None, view: Mapping[str, Any]) -> None:
        try:
            check_view(view, self.game.view_type)
        except TypeError as e:
            self.fail(state, f"view({seat}): {e}")

    def play_out_sample(self, state: State, sampled: State, rng: Rng, seat: int | None) -> None:
        text = sampled.to_json()
        if load(text).to_json() != text:
            self.fail(state, "a sampled state does not round-trip through JSON")
        steps = 0
        while not sampled.is_over:
            sampled.check_invariants()
            legal_seats = sampled.to_act
            for s in legal_seats:
                if not sampled.legal_actions(s):
                    self.fail(
                        state,
                        f"a state sampled for seat {seat} has no legal action "
                        f"for seat {s} at step {steps}",
                    )
            sampled.apply(*self.random_move(sampled, rng))
            steps += 1
            if steps > self.game.max_length:
                self.fail(state, f"a state sampled for seat {seat} does not end")
        sampled.check_invariants()

    def check_over(self, state: State) -> None:
        r = state.result
        n = self.game.players
        if r is None:
            self.fail(state, "the game is over but has no result")
            return
        if len(r.points) != n or len(r.ranks) != n:
            self.fail(
                state, f"result has {len(r.points)} points and {len(r.ranks)} ranks for {n} players"
            )
        if not r.winners or sorted(r.winners) != [i for i in range(n) if r.ranks[i] == 1]:
            self.fail(state, f"winners {r.winners} are not the seats ranked 1: {r.ranks}")
        if r.breakdown and len(r.breakdown) != n:
            self.fail(state, "the scoring breakdown does not cover every seat")
        for seat in range(n):
            if state.legal_actions(seat):
                self.fail(state, f"seat {seat} still has legal actions after the end")
            try:
                state.apply(seat, self.game.actions[0])
            except IllegalAction:
                pass
            else:
                self.fail(state, "an action was accepted after the end")
        if r.termination not in state.game.terminations:
            self.fail(
                state,
                f"the result's termination {r.termination!r} is not one the game declares "
                f"({', '.join(state.game.terminations) or 'none'})",
            )
        if state.view(None).get("result") != r.to_dict():
            self.fail(state, "the spectator's view of a finished game lacks the result")

    def check_record(self, state: State) -> None:
        rec = state.record
        if Record.from_json(rec.to_json()) != rec:
            self.fail(state, "a record does not round-trip through JSON")
        if replay(rec.to_json()).to_json() != state.to_json():
            self.fail(state, "replaying the record's JSON does not give the same state")

    def check_global_random(self, rec: Record) -> None:
        """Replay while stirring the global generator: the game must not notice."""
        saved = random.getstate()
        try:
            state = self.game.new_game(rec.seed)
            random.seed(self.seed + 1)
            for seat, text in rec.actions:
                random.random()
                random.shuffle(list(range(10)))
                state.apply(seat, text)
                random.seed(random.random())
            random.seed(self.seed + 2)
            again = replay(rec)
        except DragonlairError as e:
            self.fail(None, f"the game depends on the global random generator: {e}")
            return
        finally:
            random.setstate(saved)
        if state.to_json() != again.to_json():
            self.fail(state, "the game depends on the global random generator")


def _first_difference(a: Any, b: Any, path: str = "view") -> str:
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}[{k!r}] only on one side"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}[{k!r}]")
    if isinstance(a, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} != {b!r}"
