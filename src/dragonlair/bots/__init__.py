"""Bots: ``random``, ``heuristic`` (one per game, in the game's package) and ``ismcts``.

Every bot has the one interface of :class:`~dragonlair.core.bot.Bot`: it is asked, for one
seat at a time, to choose among that seat's legal actions given only that seat's view and a
generator of its own. It never sees the true state.

:func:`make_bot` is how every surface (simulate, tournaments, the terminal, the server)
gets a bot by its level name; :func:`parse_bot` and :func:`parse_bots` read the bot
specifications the command line takes (``ismcts:time=0.1``, ``heuristic,random``).

A game's heuristic is the bot factory its manifest declares
(:class:`~dragonlair.core.manifest.GameManifest`); a game without one has the levels
random and ismcts only. A game's archetypes (the manifest's ``archetypes``: the heuristic
with other declared weights, such as Space Race's ``fuel-heavy``) are levels of that game
too; :func:`levels` lists a game's levels. A heuristic or an archetype also takes its
weights as parameters (``fuel-heavy:set_progress=3``), each replacing that one weight.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from ..core import Game, manifest
from ..core.bot import Bot, RandomBot
from ..core.manifest import Archetype
from .base import UnknownBot, heuristic_class

LEVELS = ("random", "heuristic", "ismcts")
# Levels that packages above the bots provide, declared under this entry-point group as
# ``name = "module:factory"``, a factory taking (game, params): found by name, so that the
# bots import nothing above them. dragonlair itself declares ``trained`` (a policy trained
# by reinforcement learning, run with ONNX Runtime: dragonlair.rl.policy, the rl extra).
BOT_LEVELS_GROUP = "dragonlair.bots"
TRAINED = "trained"


@functools.cache
def _plugins() -> dict[str, metadata.EntryPoint]:
    """The levels declared under :data:`BOT_LEVELS_GROUP`, by name (read once)."""
    return {ep.name: ep for ep in metadata.entry_points(group=BOT_LEVELS_GROUP)}


def plugin_levels() -> tuple[str, ...]:
    """The levels other packages provide (:data:`BOT_LEVELS_GROUP`), sorted."""
    return tuple(sorted(_plugins()))


def archetypes(game_id: str) -> dict[str, Archetype]:
    """The archetypes ``game_id``'s manifest declares, by name."""
    found = {a.name: a for a in manifest(game_id).archetypes}
    clash = set(found) & {*LEVELS, *plugin_levels()}
    if clash:
        raise UnknownBot(
            f"{game_id} declares an archetype named like a bot level: {', '.join(sorted(clash))}"
        )
    return found


def levels(game_id: str) -> tuple[str, ...]:
    """Every bot level of ``game_id``: LEVELS, then the game's archetypes, then the levels
    other packages provide (trained, which can only be made where a policy is shipped or
    given, with the rl extra)."""
    return (*LEVELS, *archetypes(game_id), *plugin_levels())


def make_bot(level: str, game: Game, **params: Any) -> Bot:
    """A bot of ``level`` (one of :func:`levels` of the game) for ``game``; ``params`` set
    its budget, or for a heuristic or an archetype its weights."""
    if level == "random":
        if params:
            raise UnknownBot(f"the random bot takes no parameters, not {_show(params)}")
        return RandomBot(game)
    if level == "ismcts":
        from .ismcts import ISMCTSBot  # imported when first used: the search is large

        return construct("ismcts", ISMCTSBot, game, params)
    if level in _plugins():
        return _plugin(level, game, params)
    styles = archetypes(game.spec.id)
    if level == "heuristic" and not styles:
        return construct("heuristic", heuristic_class(game), game, params)
    if level == "heuristic" or level in styles:
        return _weighted(level, game, styles, params)
    raise UnknownBot(f"no bot level {level!r}; the levels are: {', '.join(levels(game.spec.id))}")


def _weighted(
    level: str, game: Game, styles: Mapping[str, Archetype], params: Mapping[str, Any]
) -> Bot:
    """The heuristic with the weights of archetype ``level`` (the defaults for
    ``heuristic``), each weight ``params`` names replaced."""
    base = next(iter(styles.values())).weights
    weights = styles[level].weights if level in styles else type(base)()
    names = [f.name for f in dataclasses.fields(weights)]
    unknown = [k for k in params if k not in names]
    if unknown:
        raise UnknownBot(
            f"the {level} bot does not take {', '.join(map(repr, unknown))}; "
            f"its weights are: {', '.join(names)}"
        )
    for k, v in params.items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise UnknownBot(f"the {level} bot's weight {k} is a number, not {v!r}")
    if params:
        weights = dataclasses.replace(weights, **params)
    return heuristic_class(game)(game, weights=weights)


def _plugin(level: str, game: Game, params: Mapping[str, Any]) -> Bot:
    """A bot of a level another package provides (:data:`BOT_LEVELS_GROUP`)."""
    ep = _plugins()[level]
    try:
        factory = ep.load()
    except ImportError as e:
        raise UnknownBot(
            f"the {level} bot cannot be made in this install: it needs {e.name or ep.module}"
            " (for trained: pip install 'dragonlair[rl]')"
        ) from None
    bot: Bot = factory(game, params)
    return bot


def reads_view(level: str, game: Game) -> bool:
    """Whether the bot of ``level`` for ``game`` reads the view (``Bot.reads_view``), so
    a caller that hands decisions elsewhere knows whether to build one."""
    if level == "random":
        return RandomBot.reads_view
    if level == "heuristic":
        return bool(getattr(heuristic_class(game), "reads_view", True))
    return True


def construct(level: str, cls: Callable[..., Bot], game: Game, params: Mapping[str, Any]) -> Bot:
    """``cls(game, **params)``, or :class:`UnknownBot` naming the parameters it does not take."""
    try:
        inspect.signature(cls).bind(game, **params)
    except TypeError as e:
        raise UnknownBot(f"the {level} bot does not take {_show(params)}: {e}") from None
    return cls(game, **params)


def _show(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


@dataclass(frozen=True)
class BotSpec:
    """A bot level with its parameters, as written on the command line
    (``ismcts:time=0.1:rollout=heuristic``); ``text`` is its label in reports."""

    level: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return ":".join([self.level, *(f"{k}={_text(v)}" for k, v in self.params.items())])

    def make(self, game: Game) -> Bot:
        """The bot this spec describes, for ``game``."""
        return make_bot(self.level, game, **self.params)

    def __str__(self) -> str:
        return self.text


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool | None) else str(value)


def _value(text: str) -> Any:
    low = text.lower()
    if low == "none":
        return None
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_bot(text: str, game: str | None = None) -> BotSpec:
    """``level`` or ``level:key=value:key=value`` as a :class:`BotSpec`; numbers,
    true/false and none are converted, the bot itself checks the values. The level is one
    of LEVELS, or with ``game`` (a game id) one of that game's :func:`levels`."""
    if not isinstance(text, str):
        raise UnknownBot(f"a bot is written as level[:key=value...], not {text!r}")
    level, *parts = [p.strip() for p in text.strip().split(":")]
    known = LEVELS if game is None else levels(game)
    if level not in known:
        raise UnknownBot(f"no bot level {level!r}; the levels are: {', '.join(known)}")
    params: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key.isidentifier() or not value:
            raise UnknownBot(
                f"bot parameters are written key=value after the level, "
                f"as in ismcts:time=0.1; {part!r} in {text!r} is not"
            )
        if key in params:
            raise UnknownBot(f"bot parameter {key!r} is given twice in {text!r}")
        params[key] = _value(value)
    return BotSpec(level, params)


def parse_bots(text: str, players: int, game: str | None = None) -> list[BotSpec]:
    """Comma-separated bot specs, one per seat in order; the last one fills the remaining
    seats. More bots than seats is an error. With ``game``, its archetypes are levels too.
    Every command that takes ``--bots`` reads it here."""
    items = [t.strip() for t in text.split(",")] if isinstance(text, str) else []
    if not items or any(not t for t in items):
        known = LEVELS if game is None else levels(game)
        raise UnknownBot(
            f"bots are comma-separated levels ({', '.join(known)}), one per seat, not {text!r}"
        )
    specs = [parse_bot(t, game) for t in items]
    if len(specs) > players:
        raise UnknownBot(f"{len(specs)} bots given for {players} seats: {text!r}")
    return specs + [specs[-1]] * (players - len(specs))


__all__ = [
    "LEVELS",
    "Bot",
    "BotSpec",
    "RandomBot",
    "UnknownBot",
    "archetypes",
    "heuristic_class",
    "levels",
    "make_bot",
    "parse_bot",
    "parse_bots",
    "reads_view",
]
