"""A check every bot of every game passes: it plays legally from views alone.

Called from a game's tests in one line, for each of its bots::

    from dragonlair.bots.checks import check_bot
    def test_heuristic_sees_only_views(): check_bot("dragon-stripes", "heuristic")

It plays seeded games in which the bot holds every seat, and at each decision with a
choice:

- the **true state is poisoned** while the bot thinks: its class is swapped for one whose
  every attribute read raises :class:`PeekedAtState`, so a bot that reaches for the state
  by any route (a reference kept from elsewhere, the caller's frame, the garbage
  collector) fails loudly instead of quietly reading hands it should not see;
- the **view is poisoned around its edges**: the bot gets a read-only mapping of the real
  view plus decoy entries for hidden things (``hands``, ``deck``, ``state``, ...) whose
  values raise on any use, and that refuses writes, so a bot that reads or changes
  anything beyond what its seat may know fails too;
- the action must be one of the legal actions given;
- the same view and seed must give the same action, so the bot is reproducible (bots with
  a time budget are checked with an iteration budget instead).

Failures raise :class:`BotCheckError` with the game, seed and move.

:func:`check_ismcts_defaults` is the one-line check that the ISMCTS configuration a game
declares for itself (``ismcts`` in its manifest) is made of parameters the bot
takes, with values it accepts, and is what plain ``ismcts`` plays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NoReturn

from ..core import Action, State, derive_seed, make
from ..core.bot import view_for
from ..core.views import View
from . import make_bot
from .ismcts import ISMCTSBot, game_defaults

DECOYS = ("hands", "deck", "hidden", "secret", "state", "_state", "true_state", "others")


class BotCheckError(AssertionError):
    """A bot broke the rules every bot keeps."""


class PeekedAtState(AssertionError):
    """A bot read the true state while choosing."""


class _Poison:
    """A value that raises on any use."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def _peek(self, *args: object, **kwargs: object) -> NoReturn:
        raise PeekedAtState(
            f"the bot used view[{object.__getattribute__(self, 'name')!r}], "
            "which is not part of any view"
        )

    __getattr__ = __setattr__ = __call__ = __iter__ = __len__ = __bool__ = _peek
    __getitem__ = __contains__ = __eq__ = __lt__ = __hash__ = __str__ = __int__ = _peek
    __index__ = __float__ = __add__ = __radd__ = __format__ = _peek


class PoisonedView(Mapping[str, Any]):
    """A read-only view with decoy entries for hidden things that raise when used."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self._view = dict(view)
        self._decoys = {k: _Poison(k) for k in DECOYS if k not in view}

    def __getitem__(self, key: str) -> Any:
        if key in self._view:
            return self._view[key]
        if key in self._decoys:
            return self._decoys[key]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        yield from self._view
        yield from self._decoys

    def __len__(self) -> int:
        return len(self._view) + len(self._decoys)


_poisoned_classes: dict[type[State], type[State]] = {}


def _peek_state(self: State, name: str) -> NoReturn:
    raise PeekedAtState(f"the bot read the true state ({type(self).__name__}.{name})")


def _poisoned_class(cls: type[State]) -> type[State]:
    found = _poisoned_classes.get(cls)
    if found is None:
        found = type(
            f"Poisoned{cls.__name__}", (cls,), {"__slots__": (), "__getattribute__": _peek_state}
        )
        _poisoned_classes[cls] = found
    return found


@contextmanager
def poisoned(state: State) -> Iterator[None]:
    """While inside, any attribute read of ``state`` raises :class:`PeekedAtState` (for
    checking that other services, such as analysis, read views only)."""
    cls = type(state)
    object.__setattr__(state, "__class__", _poisoned_class(cls))
    try:
        yield
    finally:
        object.__setattr__(state, "__class__", cls)


def poisoned_view(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """``view`` with decoys (:class:`PoisonedView`); a typed view stays typed and is
    decoyed itself (views are not copied), its mapping side decoyed and its JSON form
    built first (so nothing it holds is read later)."""
    if isinstance(view, View):
        whole = view.json()  # every key built, so the view now reads only its mapping
        object.__setattr__(view, "_got", PoisonedView(whole))
        return view
    return PoisonedView(view)


def choose_blind(bot: Any, state: State, seat: int, rng: random.Random) -> Action:
    """``bot``'s choice for ``seat``, with the true state poisoned and the view decoyed
    (the view it is handed anywhere else: ``view_for``, a typed view where the game has
    one)."""
    view = poisoned_view(view_for(bot, state, seat))
    legal = state.legal_actions(seat)
    cls = type(state)
    object.__setattr__(state, "__class__", _poisoned_class(cls))
    try:
        action: Action = bot.choose(view, legal, rng)
    finally:
        object.__setattr__(state, "__class__", cls)
    return action


def check_bot(
    game_id: str,
    level: str,
    players: int | None = None,
    games: int = 2,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    **params: Any,
) -> int:
    """Play ``games`` seeded games with a ``level`` bot in every seat under the poisoned
    conditions above; returns the number of decisions checked. ``params`` go to the bot
    (give ismcts a small ``iterations`` budget to keep it quick)."""
    game = make(game_id, players=players, options=options)
    bot = make_bot(level, game, **params)
    checked = 0
    for g in range(games):
        game_seed = derive_seed(seed, g)
        state = game.new_game(seed=game_seed)
        where = f"{game_id} {game.players}p {level} seed={game_seed}"
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                state.apply(seat, legal[0])
                continue
            bot_seed = derive_seed(game_seed, state.move)
            try:
                action = choose_blind(bot, state, seat, random.Random(bot_seed))
            except PeekedAtState as e:
                raise BotCheckError(f"{where} move {state.move}: {e}") from None
            if action not in legal:
                raise BotCheckError(
                    f"{where} move {state.move}: {action!r} is not among the legal actions "
                    f"{[str(a) for a in legal]}"
                )
            again = bot.choose(state.view(seat), legal, random.Random(bot_seed))
            if again != action:
                raise BotCheckError(
                    f"{where} move {state.move}: the same view and seed gave {action} "
                    f"and then {again}"
                )
            state.apply(seat, action)
            checked += 1
    return checked


def check_ismcts_defaults(game_id: str, players: int | None = None) -> dict[str, Any]:
    """Check that the ISMCTS defaults ``game_id`` declares are valid and applied to plain
    ``ismcts`` (with or without a budget); returns them. A default the bot does not take
    or a bad value raises :class:`~dragonlair.bots.UnknownBot`."""
    game = make(game_id, players=players)
    declared = game_defaults(game)
    plain = make_bot("ismcts", game)
    explicit = make_bot("ismcts", game, **declared)
    timed = make_bot("ismcts", game, time=0.1)
    assert isinstance(plain, ISMCTSBot) and isinstance(explicit, ISMCTSBot)
    assert isinstance(timed, ISMCTSBot)
    if plain.config != explicit.config:
        raise BotCheckError(
            f"{game_id}: plain ismcts plays {plain.config}, not the declared defaults "
            f"{declared} ({explicit.config})"
        )
    for key, value in declared.items():
        if key in ("iterations", "time"):
            continue
        if getattr(timed.config, key) != value:
            raise BotCheckError(
                f"{game_id}: ismcts with a time budget plays {key}="
                f"{getattr(timed.config, key)!r}, not the declared default {value!r}"
            )
    return declared
