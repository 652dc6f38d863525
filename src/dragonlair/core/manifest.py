"""Game manifests: the one place a game says what it brings to every surface.

A game package declares one :class:`GameManifest` in its ``manifest.py`` and registers it
under the entry-point group ``dragonlair.games`` (the mechanism pytest and Gymnasium
plugins use), named by the game's id::

    [project.entry-points."dragonlair.games"]
    my-game = "my_game.manifest:MANIFEST"

Every surface (the registry behind :func:`dragonlair.make`, the bots, the terminal, the
server and the browser, the RL adapters, simulate and bench) finds a game only through
:func:`manifest` and :func:`manifests`; the core names no game. A game made elsewhere (a
designer's variant, the example game of our tests) is added at run time with
:func:`register`, which takes precedence over an installed manifest of the same id.

Every field must be given, so a surface a game does not provide is an explicit opt-out
(``None``), and each surface says what it does then. Parts that need an optional extra
(the RL layout needs numpy, the terminal board Rich) are named by ``"module:attribute"``
references, loaded only by the surface that uses them, so reading a manifest stays cheap
and installs without extras still list every game. :func:`check_manifest` (part of the
conformance suite) loads every declared part and checks that it is what it claims to be.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import random
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata, resources
from importlib.resources.abc import Traversable
from typing import Any

from .bot import Bot
from .errors import DragonlairError, UnknownGame
from .game import Game
from .state import State

ENTRY_POINT_GROUP = "dragonlair.games"

PLAYER_RULES = "data/player_rules.md"

# "package.module:attribute", the form of an entry point's value
_REFERENCE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
# "package.module" alone, or with ":attribute"
_MODULE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*)?$")
# a file of a package's data: "package:folder/name.ext", no "..", no absolute path
_DATA_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.-]*"
_PACKAGE_FILE = re.compile(rf"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:({_DATA_NAME}/)*{_DATA_NAME}\.js$")
# a path inside the game's package: "data/puzzles", "data/tutorial.toml"
_DATA_PATH = re.compile(rf"^({_DATA_NAME}/)*{_DATA_NAME}$")

Catalog = Callable[[Game], dict[str, Any]]
"""A game's printed components as JSON-ready data, for the browser (public data only)."""

Features = Callable[[Any], Mapping[str, float]]
"""Named numbers read from a view (a position's features), for designers' tools; the
function takes its game's declared view type (``Game.view_type``), hence ``Any`` here."""


class BadManifest(DragonlairError, ValueError):
    """A manifest that is malformed, or a declared part that does not exist or load."""


# an archetype's name, as the command line writes it: fuel-heavy, dragon-hunter
_ARCHETYPE_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Archetype:
    """A style of play: the game's heuristic with other declared weights.

    ``weights`` is an instance of the frozen dataclass of named weights the heuristic takes
    as ``heuristic(game, weights=...)``; its class's defaults are the heuristic's own, so
    the plain heuristic is the archetype with every weight at its default."""

    name: str
    """The bot level it is chosen by (``--bots fuel-heavy``): lower case, words joined by
    hyphens."""

    summary: str
    """What the style does, in a player's words, for listings."""

    weights: Any

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and _ARCHETYPE_NAME.match(self.name)):
            raise BadManifest(
                f"an archetype's name is lower-case words joined by hyphens, not {self.name!r}"
            )
        w = self.weights
        if not (dataclasses.is_dataclass(w) and not isinstance(w, type)):
            raise BadManifest(f"archetype {self.name}: weights must be a dataclass instance")
        if not type(w).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            raise BadManifest(f"archetype {self.name}: weights must be a frozen dataclass")

    def changed(self) -> dict[str, Any]:
        """The weights that differ from the heuristic's defaults: name -> value."""
        default = type(self.weights)()
        return {
            f.name: getattr(self.weights, f.name)
            for f in dataclasses.fields(self.weights)
            if getattr(self.weights, f.name) != getattr(default, f.name)
        }


@dataclass(frozen=True)
class GameManifest:
    """Everything a surface needs to offer one game. ``None`` opts out of a surface."""

    game: type[Game]
    """The game class (its spec's id is the manifest's id)."""

    heuristic: Callable[..., Bot] | None
    """The heuristic bot's factory, called as ``heuristic(game, **params)``; ``None``: the
    game has no heuristic (the levels are then random and ismcts, with searching
    opponents)."""

    ismcts: Mapping[str, Any]
    """The game's own ISMCTS defaults (parameters of ``dragonlair.bots.ismcts``); ``{}``
    for none."""

    layout: str | None
    """``"module:attribute"`` of the RL observation layout (a ``dragonlair.rl.Layout``);
    ``None``: the game is not offered to OpenSpiel, PettingZoo and Gymnasium."""

    terminal: str | None
    """``"module:attribute"`` of the game's terminal parts (a
    ``dragonlair.tui.parts.TerminalParts``: the board, and optionally the players, hand and
    brief panes and the players' words); ``None``: the terminal's generic board (the view's
    fields as a table) and the engine's own words."""

    browser_board: str | None
    """``"package:path/board.js"``: the browser's board module, a file of the package's
    data. The server publishes the folder it lies in (with any style sheet or picture
    beside it) for the page to import; ``None``: the page's generic board."""

    catalog: Catalog | None
    """The printed components the browser draws (public data only, no file paths);
    ``None``: the page shows ids and action labels."""

    package: str | None
    """The package holding ``data/player_rules.md``, the rules in players' words;
    ``None``: the game ships no player rules, and its spec's summary stands in."""

    features: Features | None = field(default=None)
    """The per-game features designers' tools read from views; ``None``: none."""

    archetypes: tuple[Archetype, ...] = field(default=())
    """Styles of play built on the heuristic with other weights (``<pkg>/archetypes.py``),
    each a bot level of its own; ``()``: none."""

    position: str | None = field(default=None)
    """``"module"`` (or ``"module:attribute"``) of the game's position format: an object
    with ``write(state) -> dict`` and ``read(state, fields, rng)`` (see
    :mod:`dragonlair.core.position`); ``None``: the game has no positions (no puzzles, no
    undo, no ``dragonlair.position``)."""

    puzzles: str | None = field(default=None)
    """The folder of ``package`` holding the game's puzzles, one position per
    ``<name>.toml`` (``"data/puzzles"``); ``None``: none."""

    game_data: str | None = field(default=None)
    """``"module"`` of what a finished game says beyond its result, for designers' results
    tables: ``features(state) -> dict``, ``LENGTH`` and ``SEAT`` (see
    :mod:`dragonlair.sim.features`); ``None``: none."""

    tutorial: str | None = field(default=None)
    """The file of ``package`` holding the game's tutorial; ``None``: none."""

    def __post_init__(self) -> None:
        if not (isinstance(self.game, type) and issubclass(self.game, Game)):
            raise BadManifest(f"manifest's game must be a Game class, got {self.game!r}")
        where = f"{self.game.spec.id} manifest"
        if self.heuristic is not None and not callable(self.heuristic):
            raise BadManifest(f"{where}: heuristic must be a bot factory or None")
        if not isinstance(self.ismcts, Mapping) or not all(isinstance(k, str) for k in self.ismcts):
            raise BadManifest(f"{where}: ismcts must be a mapping of parameter names")
        for name, ref in (("layout", self.layout), ("terminal", self.terminal)):
            if ref is not None and not (isinstance(ref, str) and _REFERENCE.match(ref)):
                raise BadManifest(
                    f"{where}: {name} must be 'module:attribute' or None, got {ref!r}"
                )
        if self.position is not None and not (
            isinstance(self.position, str) and _MODULE.match(self.position)
        ):
            raise BadManifest(
                f"{where}: position must be 'module' or 'module:attribute' or None, "
                f"got {self.position!r}"
            )
        if self.game_data is not None and not (
            isinstance(self.game_data, str)
            and _MODULE.match(self.game_data)
            and ":" not in self.game_data
        ):
            raise BadManifest(f"{where}: game_data must be a module name or None")
        board = self.browser_board
        if board is not None and not (isinstance(board, str) and _PACKAGE_FILE.match(board)):
            raise BadManifest(
                f"{where}: browser_board must be 'package:folder/name.js' or None, got {board!r}"
            )
        for name, path in (("puzzles", self.puzzles), ("tutorial", self.tutorial)):
            if path is None:
                continue
            if not (isinstance(path, str) and _DATA_PATH.match(path)):
                raise BadManifest(
                    f"{where}: {name} must be a path inside the package like 'data/{name}' "
                    f"or None, got {path!r}"
                )
            if self.package is None:
                raise BadManifest(f"{where}: {name} is a path inside package, and there is none")
        for name in ("catalog", "features"):
            value = getattr(self, name)
            if value is not None and not callable(value):
                raise BadManifest(f"{where}: {name} must be a function or None")
        if self.package is not None and not isinstance(self.package, str):
            raise BadManifest(f"{where}: package must be a package name or None")
        if not isinstance(self.archetypes, tuple) or not all(
            isinstance(a, Archetype) for a in self.archetypes
        ):
            raise BadManifest(f"{where}: archetypes must be a tuple of Archetype")
        if self.archetypes and self.heuristic is None:
            raise BadManifest(f"{where}: archetypes are built on a heuristic, and there is none")
        names = [a.name for a in self.archetypes]
        if len(set(names)) != len(names):
            raise BadManifest(f"{where}: two archetypes share a name: {', '.join(names)}")
        if len({type(a.weights) for a in self.archetypes}) > 1:
            raise BadManifest(f"{where}: every archetype's weights must be of one class")

    @property
    def id(self) -> str:
        return self.game.spec.id

    def data(self, path: str) -> Traversable:
        """A file or folder of the game's ``package`` (``"data/puzzles"``)."""
        if self.package is None:
            raise BadManifest(f"{self.id} manifest: no package to hold {path}")
        try:
            # a package, not a module: from Python 3.12 resources.files() would take a
            # module and read the folder it lies in
            if not hasattr(importlib.import_module(self.package), "__path__"):
                raise TypeError(f"{self.package!r} is a module, not a package")
            return resources.files(self.package) / path
        except (ImportError, TypeError) as e:
            raise BadManifest(f"{self.id} manifest: package {self.package!r}: {e}") from None

    def player_rules(self, lang: str = "en") -> str:
        """The game's rules in players' words (Markdown), from its package's data: in
        ``lang`` from ``data/player_rules.<lang>.md`` when the game ships one (a document
        of its own, not a catalog of fragments), else in English."""
        if self.package is None:
            return f"# {self.game.spec.name}\n\n{self.game.spec.summary}\n"
        try:
            # a package, not a module: from Python 3.12 resources.files() would take a
            # module and read the folder it lies in
            if not hasattr(importlib.import_module(self.package), "__path__"):
                raise TypeError(f"{self.package!r} is a module, not a package")
            translated = resources.files(self.package) / PLAYER_RULES.replace(".md", f".{lang}.md")
            if lang != "en" and translated.is_file():
                return translated.read_text(encoding="utf-8")
            path = resources.files(self.package) / PLAYER_RULES
            return path.read_text(encoding="utf-8")
        except (ImportError, TypeError, OSError) as e:
            raise BadManifest(
                f"{self.id} manifest: no {PLAYER_RULES} in package {self.package!r}: {e}"
            ) from None

    def load_layout(self) -> object | None:
        """The declared RL layout object, or None when the game opts out."""
        return None if self.layout is None else _resolve(self.id, "layout", self.layout)

    def load_terminal(self) -> object | None:
        """The declared terminal parts (the terminal checks their type), or None when the
        game opts out."""
        return None if self.terminal is None else _resolve(self.id, "terminal", self.terminal)

    def load_position(self) -> object | None:
        """The declared position format (its ``read`` and ``write`` checked here), or None
        when the game has none."""
        if self.position is None:
            return None
        ref = self.position
        codec = (
            _resolve(self.id, "position", ref) if ":" in ref else _import(self.id, "position", ref)
        )
        for name in ("read", "write"):
            if not callable(getattr(codec, name, None)):
                raise BadManifest(f"{self.id} manifest: position {ref} has no {name} function")
        return codec

    def load_game_data(self) -> object | None:
        """The declared module of finished games' data, or None when the game has none."""
        return None if self.game_data is None else _import(self.id, "game_data", self.game_data)

    def browser_board_file(self) -> Traversable | None:
        """The browser board module's file, or None when the game opts out."""
        if self.browser_board is None:
            return None
        package, _, path = self.browser_board.partition(":")
        try:
            if not hasattr(importlib.import_module(package), "__path__"):
                raise TypeError(f"{package!r} is a module, not a package")
        except (ImportError, TypeError) as e:
            raise BadManifest(
                f"{self.id} manifest: browser_board {self.browser_board}: {e}"
            ) from None
        return resources.files(package) / path

    def tutorial_text(self) -> str | None:
        """The tutorial file's text, or None when the game has none."""
        if self.tutorial is None:
            return None
        try:
            return self.data(self.tutorial).read_text(encoding="utf-8")
        except OSError as e:
            raise BadManifest(f"{self.id} manifest: tutorial {self.tutorial}: {e}") from None


def _import(game_id: str, part: str, module_name: str, reference: str = "") -> object:
    try:
        return importlib.import_module(module_name)
    except ImportError as e:
        raise BadManifest(
            f"{game_id} manifest: {part} {reference or module_name}: cannot import: {e}"
        ) from e


def _resolve(game_id: str, part: str, reference: str) -> object:
    module_name, _, attr = reference.partition(":")
    obj = _import(game_id, part, module_name, reference)
    for name in attr.split("."):
        try:
            obj = getattr(obj, name)
        except AttributeError:
            raise BadManifest(
                f"{game_id} manifest: {part} {reference}: {module_name} has no {attr}"
            ) from None
    return obj


# ---------------------------------------------------------------------------- registry

_registered: dict[str, GameManifest] = {}
_installed: dict[str, GameManifest] = {}


def register(m: GameManifest) -> GameManifest:
    """Offer a game on every surface from now on (over an installed one of the same id)."""
    if not isinstance(m, GameManifest):
        raise BadManifest(f"register takes a GameManifest, got {m!r}")
    _registered[m.id] = m
    return m


def unregister(game_id: str) -> None:
    """Forget a manifest added with :func:`register` (an installed one shows again)."""
    _registered.pop(game_id, None)


def registered_manifest(game_id: str) -> GameManifest | None:
    """The manifest :func:`register` added for ``game_id``, or None (an installed game, or
    no such game)."""
    return _registered.get(game_id)


# The installed games' entry points, read once per import path: reading them means opening
# every installed distribution's metadata (a tenth of a second with a hundred packages
# installed), and every make(), spec() and manifest() asks. A game installed while the
# process runs shows once the import path changes, or in the next process.
_entry_point_cache: dict[tuple[str, ...], dict[str, metadata.EntryPoint]] = {}


def _entry_points() -> dict[str, metadata.EntryPoint]:
    path = tuple(sys.path)
    found = _entry_point_cache.get(path)
    if found is None:
        found = {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
        _entry_point_cache.clear()
        _entry_point_cache[path] = found
    return found


def _load(ep: metadata.EntryPoint) -> GameManifest:
    found = _installed.get(ep.name)
    if found is not None:
        return found
    try:
        m = ep.load()
    except Exception as e:
        raise BadManifest(
            f"the {ENTRY_POINT_GROUP} entry point {ep.name} = {ep.value!r} does not load: "
            f"{type(e).__name__}: {e}"
        ) from e
    if not isinstance(m, GameManifest):
        raise BadManifest(
            f"the {ENTRY_POINT_GROUP} entry point {ep.name} = {ep.value!r} "
            f"is not a GameManifest but {type(m).__name__}"
        )
    if m.id != ep.name:
        raise BadManifest(
            f"the {ENTRY_POINT_GROUP} entry point {ep.name} names the game "
            f"{m.id!r}; an entry point is named by its game's id"
        )
    _installed[ep.name] = m
    return m


def manifest(game_id: str) -> GameManifest:
    """The manifest of ``game_id``; UnknownGame lists the ids there are."""
    if isinstance(game_id, str):
        found = _registered.get(game_id)
        if found is not None:
            return found
        ep = _entry_points().get(game_id)
        if ep is not None:
            return _load(ep)
    raise UnknownGame(f"no game {game_id!r}; the games are: {', '.join(game_ids())}")


def game_ids() -> list[str]:
    """Every game's id, installed or registered, in alphabetical order."""
    return sorted(set(_entry_points()) | set(_registered))


def installed_ids() -> list[str]:
    """The ids of the installed games (the entry points), in alphabetical order."""
    return sorted(_entry_points())


def manifests() -> Iterator[GameManifest]:
    """Every game's manifest, in the order of :func:`game_ids`."""
    for game_id in game_ids():
        yield manifest(game_id)


# ---------------------------------------------------------------------- the checks


def check_manifest(game_id: str) -> GameManifest:
    """Load every part ``game_id``'s manifest declares and check it is what it claims:
    the game class under its id, a heuristic that chooses legal actions from views, ISMCTS
    defaults that are plain data, importable layout and terminal board, a browser board
    file that exists, a catalog of JSON data, player rules and features. The checks of
    each surface (that a layout encodes views, a board draws them) are in that surface's
    tests, over every manifest."""
    m = manifest(game_id)
    where = f"{game_id} manifest"
    if m.id != game_id:
        raise BadManifest(f"{where} is for the game {m.id!r}")
    game = m.game()
    state = _check_bots(m, game, where)
    try:
        json.dumps(dict(m.ismcts))
    except (TypeError, ValueError) as e:
        raise BadManifest(f"{where}: ismcts defaults must be plain data: {e}") from None
    layout = m.load_layout()
    if layout is not None and getattr(layout, "game_id", None) != game_id:
        raise BadManifest(f"{where}: layout {m.layout} is not a layout for {game_id}")
    m.load_terminal()
    board = m.browser_board_file()
    if board is not None and not board.is_file():
        raise BadManifest(f"{where}: no browser board {m.browser_board}")
    if m.load_position() is not None:
        # the format writes a game in progress and reads it back
        from_position = state.to_position()
        if not isinstance(from_position, dict):
            raise BadManifest(f"{where}: position {m.position} wrote no dict")
    _check_data(m, game, where)
    if m.puzzles is not None and not m.data(m.puzzles).is_dir():
        raise BadManifest(f"{where}: no puzzles folder {m.puzzles} in {m.package}")
    if m.tutorial is not None and not (m.tutorial_text() or "").strip():
        raise BadManifest(f"{where}: the tutorial {m.tutorial} is empty")
    if not m.player_rules().strip():
        raise BadManifest(f"{where}: the player rules are empty")
    return m


def _check_bots(m: GameManifest, game: Game, where: str) -> State:
    """The heuristic is a Bot that chooses legal actions from views (for up to 40 decisions
    of a game, which is returned, in progress or over), and so is each archetype."""
    state = game.new_game(seed=1)
    rng = random.Random(1)
    if m.heuristic is not None:
        bot = m.heuristic(game)
        if not isinstance(bot, Bot):
            raise BadManifest(f"{where}: heuristic made {bot!r}, not a Bot")
        for _ in range(40):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            choice = bot.choose(state.view(seat), legal, rng)
            if choice not in legal:
                raise BadManifest(f"{where}: the heuristic chose {choice}, not a legal action")
            state.apply(seat, choice)
    for a in m.archetypes:
        assert m.heuristic is not None  # __post_init__ checks it
        bot = m.heuristic(game, weights=a.weights)
        if not isinstance(bot, Bot):
            raise BadManifest(f"{where}: archetype {a.name} made {bot!r}, not a Bot")
        fresh = game.new_game(seed=3)
        seat = fresh.to_act[0]
        legal = fresh.legal_actions(seat)
        if bot.choose(fresh.view(seat), legal, rng) not in legal:
            raise BadManifest(f"{where}: archetype {a.name} chose an illegal action")
    return state


def _check_data(m: GameManifest, game: Game, where: str) -> None:
    """The finished-game data, the component catalog and the position features are what
    the tools that read them expect: plain JSON data and finite numbers."""
    data = m.load_game_data()
    if data is not None and not (
        callable(getattr(data, "features", None))
        and isinstance(getattr(data, "LENGTH", None), tuple)
        and isinstance(getattr(data, "SEAT", None), tuple)
    ):
        raise BadManifest(f"{where}: game_data {m.game_data} lacks features, LENGTH or SEAT")
    if m.catalog is not None:
        catalog = m.catalog(game)
        if not isinstance(catalog, dict):
            raise BadManifest(f"{where}: catalog gave {type(catalog).__name__}, not a dict")
        try:
            json.dumps(catalog, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise BadManifest(f"{where}: catalog is not JSON data: {e}") from None
    if m.features is not None:
        values = m.features(game.new_game(seed=2).view(0))
        if not isinstance(values, Mapping) or not all(
            isinstance(k, str) and isinstance(v, int | float) and math.isfinite(v)
            for k, v in values.items()
        ):
            raise BadManifest(f"{where}: features must map names to finite numbers")
