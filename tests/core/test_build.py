"""Both builds behave alike: the pure-Python package and the one compiled with mypyc
(``make compiled``; ``make test`` runs the fast tier in both). These tests run in either
and check what compiling could change: which build is running, errors for arguments of
the wrong type at the public entry points, pickling, processes and clones."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import multiprocessing
import os
import pickle
import random
import types
from pathlib import Path
from typing import Any

import pytest

import dragonlair
from dragonlair import BadSeat, IllegalAction, State, UnknownAction
from dragonlair.core import clones

GAMES = ["space-dragons", "space-race", "dragon-stripes", "dragon-race", "pebble-auction"]
ENGINE_GAMES = GAMES[:4]  # the four games, compiled in the compiled build


def played(game_id: str, seed: int, moves: int) -> State:
    """A state after ``moves`` random decisions (or the end) from ``seed``."""
    state = dragonlair.make(game_id).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def finish(state: State, seed: int) -> str:
    """Play ``state`` to the end with a seeded random generator; its JSON."""
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state.to_json()


def test_the_build_running_is_the_one_expected() -> None:
    """``make compiled`` runs the tests with DRAGONLAIR_EXPECT_COMPILED=1, so a compiled
    venv that silently fell back to pure Python fails here."""
    expected = os.environ.get("DRAGONLAIR_EXPECT_COMPILED", "0") == "1"
    assert dragonlair.COMPILED is expected
    from dragonlair.dragon_race.rules import DragonRaceState

    compiled_methods = not isinstance(State.__dict__["apply"], types.FunctionType)
    assert compiled_methods is dragonlair.COMPILED
    assert ("__mypyc_attrs__" in DragonRaceState.__dict__) is dragonlair.COMPILED


def _setup_lists() -> dict[str, list[str]]:
    """The module lists setup.py compiles from (its top-level list literals), read
    without running it."""
    tree = ast.parse((Path(__file__).parents[2] / "setup.py").read_text())
    found: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.List):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = ast.literal_eval(node.value)
    return found


def test_every_module_the_build_lists_is_the_build_expected() -> None:
    """In the compiled build every module setup.py lists is an extension module, and in
    the pure build none is: a module dropped from the build, or left over from an old
    one, fails here."""
    lists = _setup_lists()
    paths = [f"src/dragonlair/core/{m}.py" for m in lists["CORE"]]
    for game in lists["GAMES"]:
        paths += [f"src/dragonlair/{game}/{m}.py" for m in lists["GAME_MODULES"]]
    paths += lists["ALSO"]
    for path in paths:
        name = path.removeprefix("src/").removesuffix(".py").replace("/", ".")
        module = importlib.import_module(name)
        assert module.__file__ is not None
        compiled = not module.__file__.endswith(".py")
        assert compiled is dragonlair.COMPILED, (name, module.__file__)


def test_only_a_compiling_build_asks_for_mypy_and_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build backend asks for mypy, and for NumPy (which the compiled observation
    layouts import), only when DRAGONLAIR_COMPILE=1: the pure build needs neither."""
    path = Path(__file__).parents[2] / "build_backend" / "dragonlair_build.py"
    spec = importlib.util.spec_from_file_location("dragonlair_build", path)
    assert spec is not None and spec.loader is not None
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    monkeypatch.delenv("DRAGONLAIR_COMPILE", raising=False)
    assert backend._compile_requires() == []
    monkeypatch.setenv("DRAGONLAIR_COMPILE", "1")
    assert backend._compile_requires() == ["mypy>=1.11", "numpy>=1.26"]


@pytest.mark.parametrize("game_id", GAMES)
def test_wrong_types_at_the_public_entry_points(game_id: str) -> None:
    """The same errors in both builds: a compiled method's typed parameters would raise
    TypeError before the method could say what is wrong."""
    game = dragonlair.make(game_id)
    state = game.new_game(seed=3)
    before = state.to_json()
    seat = state.to_act[0]
    bad: list[Any] = ["0", 0.0, None, True, [0]]
    for value in bad:
        with pytest.raises(BadSeat):
            state.apply(value, state.legal_actions(seat)[0])
        with pytest.raises(BadSeat):
            state.apply_id(value, state.legal_action_ids(seat)[0])
        if value is not None:
            with pytest.raises(BadSeat):
                state.view(value)
            with pytest.raises(BadSeat):
                state.events_since(0, value)
        with pytest.raises(BadSeat):
            state.legal_actions(value)
        with pytest.raises(BadSeat):
            state.legal_action_ids(value)
        with pytest.raises(BadSeat):
            state.can_undo(value)
        with pytest.raises(IllegalAction):
            state.apply_id(seat, value)
        if value is not None:  # None asks for a random seed
            with pytest.raises(ValueError, match="seed must be"):
                game.new_game(seed=value)
        with pytest.raises(ValueError, match="event number"):
            state.events_since(value, None)
        with pytest.raises(IllegalAction, match="out of range"):
            game.action_from_id(value)
        with pytest.raises(IllegalAction):
            game.action_id(value)
    for value in [12, None, 1.5, b"x"]:
        with pytest.raises(UnknownAction):
            state.apply(seat, value)
        with pytest.raises(UnknownAction):
            game.parse_action(value)
    assert state.to_json() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_states_and_games_pickle(game_id: str) -> None:
    state = played(game_id, seed=11, moves=6)
    copy = pickle.loads(pickle.dumps(state))
    assert type(copy) is type(state) and copy.to_json() == state.to_json()
    assert copy.game.players == state.game.players and copy.game.options == state.game.options
    assert copy.legal_actions(copy.to_act[0]) == state.legal_actions(state.to_act[0])
    assert copy.events_since(0, None) == state.events_since(0, None)
    assert finish(copy, 5) == finish(state, 5)
    over = played(game_id, seed=11, moves=10_000)
    assert over.is_over and over.result is not None
    over_copy = pickle.loads(pickle.dumps(over))
    assert over_copy.result == over.result and over_copy.to_json() == over.to_json()
    assert pickle.loads(pickle.dumps(over.result)) == over.result
    assert pickle.loads(pickle.dumps(over.game.actions)) == over.game.actions
    game = pickle.loads(pickle.dumps(state.game))
    assert type(game) is type(state.game) and repr(game) == repr(state.game)
    assert game.new_game(seed=4).to_json() == state.game.new_game(seed=4).to_json()


def test_layout_rows_and_features_pickle() -> None:
    """The observation layouts are compiled too; their frozen dataclasses pickle as their
    arguments in both builds (a compiled one could not be unpickled field by field)."""
    pytest.importorskip("numpy")
    from dragonlair.rl.layout import Context, encoder_for
    from dragonlair.rl.layouts import dragon_stripes

    game = dragonlair.make("dragon-stripes")
    encoder = encoder_for(game)
    assert pickle.loads(pickle.dumps(encoder.rows)) == encoder.rows
    [pot] = [f for f in dragon_stripes.LAYOUT.features if f.name == "pot"]
    assert pickle.loads(pickle.dumps(pot)) == pot
    context = pickle.loads(pickle.dumps(Context(game, 2)))
    assert context.seat == 2 and context.order == (2, 3, 0, 1)


def _finish_in_worker(blob: bytes) -> str:
    return finish(pickle.loads(blob), 5)


def test_states_cross_to_a_spawned_process_and_back() -> None:
    """A fresh interpreter (spawn, as on macOS and Windows) imports the same build and
    plays the pickled states on to the same ends."""
    states = [played(g, seed=21, moves=6) for g in ENGINE_GAMES]
    blobs = [pickle.dumps(s) for s in states]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        ends = pool.map(_finish_in_worker, blobs)
    assert ends == [finish(s, 5) for s in states]


@pytest.mark.parametrize("game_id", GAMES)
def test_clones_copy_lists_and_share_the_rest(game_id: str) -> None:
    state = played(game_id, seed=8, moves=6)
    clone = state.clone()
    assert type(clone) is type(state) and clone.to_json() == state.to_json()
    for name in type(state)._all_slots():
        mine, theirs = getattr(state, name), getattr(clone, name)
        assert mine == theirs, name
        if isinstance(mine, list):
            assert mine is not theirs, name
        elif isinstance(mine, tuple):
            assert mine is theirs, name  # shared, not copied
    before = state.to_json()
    assert finish(clone, 2) != before
    assert state.to_json() == before


SOURCE = Path(__file__).resolve().parents[2] / "src" / "dragonlair"


@pytest.mark.parametrize("game_id", ENGINE_GAMES)
def test_the_compiled_clones_are_read_from_the_declarations(game_id: str) -> None:
    """The compiled build compiles clones generated from the games' source (setup.py);
    what the generator reads there is what pure Python reads from the classes, and in
    the compiled build each game's state is cloned by the function compiled for it."""
    cls = type(dragonlair.make(game_id).new_game(seed=1))
    source = (SOURCE / cls.__module__.split(".")[1] / "rules.py").read_text()
    assert clones.state_classes(source) == [cls.__name__]
    declared = clones.declared_fields(source, cls.__name__)
    base = clones.declared_fields((SOURCE / "core" / "state.py").read_text(), "State")
    if not dragonlair.COMPILED:
        assert [name for name, _ in declared] == list(cls.__dict__["__slots__"])
        own = inspect.get_annotations(cls)
        assert declared == [(name, own[name]) for name in cls.__dict__["__slots__"]]
        assert [name for name, _ in base] == list(State.__slots__)
        return
    from dragonlair import _clones  # type: ignore[attr-defined]  # the compiled build's only

    state = played(game_id, seed=8, moves=6)
    state.clone()
    assert clones.COMPILED_CLONES[cls] is _clones.CLONES[cls]
    fields = {a for a in cls.__mypyc_attrs__ if not a.startswith("__")}  # type: ignore[attr-defined]
    assert fields == {name for name, _ in declared + base}


def test_the_clone_rule_refuses_dicts_and_fields_without_a_type() -> None:
    source = (
        'class XState(State["X"]):\n    __slots__ = ("a", "b")\n    a: int\n    b: dict[int, int]\n'
    )
    assert clones.state_classes(source) == ["XState"]
    fields = clones.declared_fields(source, "XState")
    assert fields == [("a", "int"), ("b", "dict[int, int]")]
    with pytest.raises(TypeError, match=r"XState\.b is a dict"):
        clones.clone_body("XState", fields)
    with pytest.raises(TypeError, match=r"XState\.b is in __slots__ without a type"):
        clones.declared_fields(source.replace("    b: dict[int, int]\n", ""), "XState")
    text = clones.compiled_clones(
        [], [("m", "XState", source.replace("dict[int, int]", "list[int] | None"))]
    )
    assert "    n.a = self.a\n" in text and "    n.b = None if c is None else c.copy()\n" in text


@pytest.mark.parametrize("game_id", ENGINE_GAMES)
def test_state_classes_bind_no_functions_as_class_attributes(game_id: str) -> None:
    """``_view = view.build_view`` in a class body is a method in pure Python but, in
    a compiled class, a field that every new state is given (and no method): a game
    writes a method calling the function instead."""
    cls = type(dragonlair.make(game_id).new_game(seed=1))
    for klass in cls.__mro__[:-2]:  # the game's class and State, not Generic and object
        for name, value in vars(klass).items():
            if isinstance(value, types.FunctionType) and name not in ("clone",):
                assert value.__qualname__.startswith(f"{klass.__qualname__}."), name
    assert "_view" not in getattr(cls, "__mypyc_attrs__", ())
