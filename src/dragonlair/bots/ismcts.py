"""Information-set Monte Carlo tree search (ISMCTS), generic over every game on the core.

The bot gets what every bot gets: one seat's view, that seat's legal actions and a seeded
generator. It searches one tree per decision (Cowling, Powley and Whitehouse 2012,
"single-observer" ISMCTS) and each iteration:

1. **Determinizes**: ``game.sample_state(view, rng)`` draws a full state consistent with
   the view: unseen cards, secret amounts, other seats' sealed choices and future chance
   are all redrawn. The bot never holds the true state; the sampler is its only way to a
   state, and it only ever passes it the view.
2. **Selects** down the tree, **expands** one new node, **rolls out** to the end of the
   game (uniformly random moves, or the game's heuristic, which like any bot is given only
   views of the sampled state) and **backs up** a reward per seat: each edge is credited
   with the reward of the seat that took it, so every seat plays for itself.

How the tree treats the engine's kinds of decision:

- **Sequential turns, offers and reaction windows** (one seat in ``to_act``): a node for
  that seat, whose edges are keyed by seat and action, so a node where different seats act
  in different determinizations keeps them apart. Selection is UCB1 over the *available*
  actions: an action's exploration term counts the visits in which it was legal, since a
  seat's legal actions change from one determinization to the next. A seat with a single
  legal action (a window question for someone without a HALT! card) takes it without a
  node. Sequential actions are public in our games, so the tree branches on them.
- **Simultaneous sealed choices** (a choice open in the state): every choosing seat
  selects from its *own* statistics at the same node, without seeing the others' picks of
  the round (decoupled search). When two or more seats search the round, selection is
  Exp3 (importance-weighted exponential weights, the bandit for adversarial rounds used in
  simultaneous-move MCTS by Teytaud and Flory 2011 and Lanctot et al. 2013): deterministic
  UCB would let the seats' selections fall into step with each other, which in a guessing
  round lets one seat's pick follow the other's. A sealed round searched that way at the
  root is played as the mixed strategy its visits describe. The next node is keyed by the
  searching seat's own pick only: the others' picks are hidden from it, so none of its
  later decisions in the tree is conditioned on them, and no choice is ever made with
  knowledge the seat could not have. (Picks that are revealed later are averaged over
  too, which costs some precision deep in the tree but never lends it information.)
- **Chance** is not in the tree: it is drawn by the state's own generator, which the
  sampler reseeds every iteration, so nodes average over chance ("open loop"). The real
  decision always gets a fresh search from the real view.

**Opponents.** How the other seats choose in the tree:

- ``opponents="search"``: every seat searches for itself, as in the paper;
- ``opponents="heuristic"``: the other seats play the game's heuristic in the tree, while
  the rollouts after the tree keep their own policy (random by default), and only the
  bot's own decisions are searched;
- ``opponents="rollout"``: the other seats play the rollout policy in the tree too (with
  ``rollout="heuristic"`` the search is then a rollout-based improvement on the heuristic).

At the budgets a bot gets (a few hundred iterations, 0.1 s a move), searching opponents'
nodes are visited too rarely to play sensibly, so the other seats look nearly random and
the search is over-optimistic against sensible players. Letting them play the heuristic
in the tree models their next moves well, which is where the tactics of a decision lie
(who takes this trick, who halts this play), and random rollouts after it keep each
iteration cheap, so the budget buys many of them; heuristic rollouts model the whole game
better but cost ten times as much in some games. In seeded tournaments of one ISMCTS
seat among heuristic seats (docs/bots.md has the figures and commands) this was the
strongest configuration: in Space Dragons at 0.1 s a move it won 43% of the games at
three players where heuristic rollouts and opponents won 21% and searching opponents 18%.
So the defaults are ``rollout="random"`` with ``opponents="heuristic"`` when the game has
a heuristic, and ``opponents="search"`` when it has not.

**Cut-off rollouts** (``depth=D``): for games whose rollouts are long, rollouts stop
after D decisions beyond the tree and the game's heuristic scores the unfinished game
(``Heuristic.evaluate(view)``: each seat's expected reward, on the scale below); with
``depth=0`` every new leaf of the tree is scored at once and nothing is rolled out. The
evaluation gets the view of the *searching* seat in the sampled state, not a spectator's:
what a position is worth to a seat depends on its own hidden cards (in The Great Dragon
Race, the HALT! cards it keeps for the end), which the search knows of itself and must
see valued, while the other seats' cards are only sampled guesses, best averaged from
what the seat can see. Only games whose heuristic offers ``evaluate`` take ``depth``.

**Paired evaluation** (``paired=True``): a flat search for games whose decisions move the
outcome only a little against their luck. Every root action is played on every sampled
state with the same random numbers afterwards (common random numbers), the heuristic
playing every seat from there (to the end, or ``depth`` decisions and the evaluation);
the heuristic's own move is kept unless another beats it by more than
:data:`PAIRED_Z` standard errors of the paired difference.

**Each game's defaults.** A game declares the configuration that measured best for it as
``ismcts`` in its manifest (``{"depth": 0}`` for The Great Dragon Race,
``{"paired": True}`` for Dragon Stripes), rather than this module keeping a table of
games. :func:`configure` merges the caller's parameters over the game's over the generic
ones, so plain ``ismcts`` in the terminal, on the server and in ``simulate`` plays the
game's best configuration; a declared default that contradicts a parameter the caller
gives (``paired`` against ``rollout`` or ``opponents``) yields to it, and ``none`` on the
command line lifts one (``ismcts:depth=none`` plays rollouts out).

**What a seat maximises** is the core's reward scale (``Result.rewards()``, defined in
:mod:`dragonlair.core.result`), chosen for multiplayer games with shared wins:
``0.85 × win share + 0.10 × rank score + 0.05 × points score``, where the win share is
what simulations and tournaments count (``Result.win_share(seat)``). Rewards in [0, 1]
keep the exploration constant ``c`` meaningful for every game (default 0.7, about 1/√2).

**Budget**: ``iterations`` (simulations; reproducible: the same view and generator give
the same move) or ``time`` in seconds per move (not reproducible, as the count depends on
the machine), or both (whichever ends first). Without either it runs
:data:`DEFAULT_ITERATIONS`. The move is the root action with the most visits (ties: the
better mean, then the first legal). A seat with one legal action gets it at once,
without a search.

**Speed** (profiled with cProfile, measured with ``dragonlair bench``): a fifth of a
random rollout's time went to the checks of ``apply_id`` and to the Action lists that
``legal_action_ids`` caches for them, so the search uses the core's documented unchecked
protocol: ``State.legal_ids_unchecked`` and ``State.apply_unchecked`` (the ids came from
the rules a moment before); the sampler gets a generator whose
``randrange`` is ``int(random() * n)`` (:class:`_QuickDraws`); the tree is small slotted
objects. Together they made random rollouts 40% to twice as fast.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from time import perf_counter
from typing import Any

from ..core import Action, Bot, DragonlairError, Game, State, manifest
from ..core.bot import view_for
from .base import UnknownBot, heuristic_class

DEFAULT_ITERATIONS = 500
ROLLOUTS = ("random", "heuristic")
OPPONENTS = ("search", "rollout", "heuristic")
EXP3_GAMMA = 0.1
PAIRED_Z = 1.0


class _Edge:
    """One action of one seat at a node: visits, reward total, availability, child, and
    the importance-weighted reward total that Exp3 uses at sealed rounds."""

    __slots__ = ("aid", "avail", "child", "g", "n", "w")

    def __init__(self, aid: int) -> None:
        self.aid = aid
        self.n = 0
        self.w = 0.0
        self.g = 0.0
        self.avail = 0
        self.child: _Node | None = None


class _Node:
    """A tree node: edges keyed by ``seat * num_actions + action id``; ``child`` is the
    next node after a sealed round in which the searching seat had no choice to make."""

    __slots__ = ("child", "edges")

    def __init__(self) -> None:
        self.edges: dict[int, _Edge] = {}
        self.child: _Node | None = None


@dataclass
class RootStat:
    """How the search rated one of the root actions."""

    action: Action
    visits: int
    mean: float


@dataclass
class Search:
    """The outcome of one search: the move, the work done and the root statistics."""

    action: Action
    iterations: int
    seconds: float
    nodes: int
    stats: list[RootStat] = field(default_factory=list)
    mixed: bool = False

    @property
    def per_second(self) -> float:
        """Simulations (iterations) per second."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


def _heuristic_playout(s: State, stop: int, heuristic: Bot, rng: random.Random) -> None:
    """Play ``s`` on with ``heuristic`` in every seat (a seat with one legal action takes
    it without asking) until the game ends or reaches move ``stop``."""
    table = s.game.table
    ids, actions = table.ids, table.actions
    while not s.is_over and s.move < stop:
        p = s.to_act[0]
        options = s.legal_ids_unchecked(p)
        if len(options) > 1:
            acts = [actions[a] for a in options]
            options[0] = ids[heuristic.choose(view_for(heuristic, s, p), acts, rng)]
        s.apply_unchecked(p, options[0])


class _QuickDraws:
    """The generator handed to the hidden-state sampler: ``randrange`` as
    ``int(random() * n)``, several times faster than ``random.Random.randrange``, whose
    exactness (a bias below 2**-50 here) a sampled deal does not need."""

    __slots__ = ("random",)

    def __init__(self, rng: random.Random) -> None:
        self.random = rng.random

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            return int(self.random() * start)
        return start + step * int(self.random() * ((stop - start + step - 1) // step))


def _at_root(options: list[int], allowed: frozenset[int], game: Game) -> list[int]:
    """The searching seat's options in a sampled state, kept to the legal actions it was
    given; a sampler that leaves it none of them is a bug in the game."""
    kept = [a for a in options if a in allowed]
    if not kept:
        raise DragonlairError(
            f"{game.spec.name}'s hidden-state sampler gave a state in which the searching "
            "seat has none of the legal actions of its view"
        )
    return kept


@dataclass(frozen=True)
class Config:
    """The parameters of a search (see the module docstring), after a game's declared
    defaults and the caller's parameters are merged and checked."""

    iterations: int | None = None
    time: float | None = None
    c: float = 0.7
    rollout: str = "random"
    opponents: str = "heuristic"
    paired: bool = False
    depth: int | None = None


PARAMETERS = tuple(f.name for f in fields(Config))
# A game's default yields to a parameter the caller gives that contradicts it.
_CONFLICTS = {"paired": ("rollout", "opponents"), "rollout": ("paired",), "opponents": ("paired",)}


def game_defaults(game: Game) -> dict[str, Any]:
    """The ISMCTS parameters ``game`` declares as its own defaults (``ismcts`` in its
    manifest)."""
    return dict(manifest(game.spec.id).ismcts)


def configure(game: Game, params: Mapping[str, Any], has_heuristic: bool) -> Config:
    """The search's parameters: ``params`` over the game's declared defaults over the
    generic ones, checked; :class:`~dragonlair.bots.UnknownBot` says what is wrong."""
    for key, value in params.items():
        if key not in PARAMETERS:
            raise UnknownBot(
                f"the ismcts bot does not take {key}={value!r}; "
                f"its parameters are {', '.join(PARAMETERS)}"
            )
    declared = game_defaults(game)
    for key, value in declared.items():
        if key not in PARAMETERS:
            raise UnknownBot(
                f"{game.spec.name} declares an ismcts default {key}={value!r} that the bot "
                f"does not take; its parameters are {', '.join(PARAMETERS)}"
            )
    merged = {
        k: v
        for k, v in declared.items()
        if k not in params and not any(o in params for o in _CONFLICTS.get(k, ()))
    }
    merged.update(params)
    iterations = merged.get("iterations")
    time = merged.get("time")
    c = merged.get("c", Config.c)
    rollout = merged.get("rollout")
    opponents = merged.get("opponents")
    paired = merged.get("paired", False)
    depth = merged.get("depth")
    if iterations is not None and (
        isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
    ):
        raise UnknownBot(f"ismcts iterations must be a whole number >= 1, not {iterations!r}")
    if time is not None and (
        isinstance(time, bool) or not isinstance(time, int | float) or not 0 < time <= 3600
    ):
        raise UnknownBot(f"ismcts time must be seconds per move in (0, 3600], not {time!r}")
    if isinstance(c, bool) or not isinstance(c, int | float) or not 0 <= c <= 100:
        raise UnknownBot(f"ismcts c must be a number from 0 to 100, not {c!r}")
    if rollout is not None and rollout not in ROLLOUTS:
        raise UnknownBot(f"ismcts rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
    if opponents is not None and opponents not in OPPONENTS:
        raise UnknownBot(
            f"ismcts opponents must be one of {', '.join(OPPONENTS)}, not {opponents!r}"
        )
    if not isinstance(paired, bool):
        raise UnknownBot(f"ismcts paired must be true or false, not {paired!r}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise UnknownBot(
            f"ismcts depth must be a whole number >= 0 (or none: play rollouts out), not {depth!r}"
        )
    if not has_heuristic and (paired or rollout == "heuristic" or opponents == "heuristic"):
        raise UnknownBot(f"{game.spec.name} has no heuristic bot")
    if paired:
        if rollout == "random" or opponents == "search":
            raise UnknownBot(
                "ismcts paired plays every seat with the heuristic, so it takes "
                "neither rollout=random nor opponents=search"
            )
        rollout, opponents = "heuristic", "rollout"
    if iterations is None and time is None:
        iterations = DEFAULT_ITERATIONS
    return Config(
        iterations=iterations,
        time=None if time is None else float(time),
        c=float(c),
        rollout=rollout or "random",
        opponents=opponents or ("heuristic" if has_heuristic else "search"),
        paired=paired,
        depth=depth,
    )


class ISMCTSBot(Bot):
    """Information-set MCTS over views: see the module docstring for the design."""

    level = "ismcts"

    def __init__(self, game: Game, **params: Any) -> None:
        super().__init__(game)
        try:
            self._heuristic: Bot | None = heuristic_class(game)(game)
        except UnknownBot:
            self._heuristic = None
        config = configure(game, params, self._heuristic is not None)
        self._evaluate: Any = None
        if config.depth is not None:
            self._evaluate = getattr(self._heuristic, "evaluate", None)
            if self._evaluate is None:
                raise UnknownBot(
                    f"ismcts depth needs {game.spec.name}'s heuristic to score unfinished "
                    "games (an evaluate(view) method); it has none"
                )
        self.config = config
        self.iterations = config.iterations
        self.time = config.time
        self.c = config.c
        self.rollout = config.rollout
        self.opponents = config.opponents
        self.paired = config.paired
        self.depth = config.depth

    def __repr__(self) -> str:
        shown = " ".join(f"{k}={v}" for k, v in asdict(self.config).items() if v is not None)
        return f"<ISMCTSBot for {self.game.spec.id} {shown}>"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.search(view, legal, rng).action

    def search(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Search:
        """Search from ``view`` within the budget and return the move with its statistics:
        each iteration samples a state from the view, descends the tree (``_Tree``),
        plays the rest out and backs the rewards up the path it took."""
        seat = view.get("seat")
        if seat is None or seat not in view.get("to_act", ()):
            raise DragonlairError(
                f"ismcts was asked to move for seat {seat!r}, which is not to act"
            )
        if not legal:
            raise DragonlairError(f"ismcts was given no legal actions for seat {seat}")
        if self.paired:
            return self._paired(view, legal, rng, seat)
        tree = _Tree(self, view, legal, rng, seat)
        limit = self.iterations if self.iterations is not None else 1 << 62
        start = perf_counter()
        deadline = start + self.time if self.time is not None else math.inf
        sample = self.game.sample_state
        draws = _QuickDraws(rng)
        descend, play_out, back_up = tree.descend, tree.play_out, tree.back_up
        done = 0
        while done < limit:
            if perf_counter() >= deadline:
                break
            s = sample(view, draws)
            path = descend(s)
            back_up(path, play_out(s))
            done += 1
        elapsed = perf_counter() - start
        stats = tree.root_stats()
        best = tree.pick(stats, done)
        return Search(stats[best].action, done, elapsed, tree.nodes, stats, tree.mixed)

    def _paired(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random, seat: int
    ) -> Search:
        """Every root action on every sampled state, with common random numbers."""
        game = self.game
        heuristic = self._heuristic
        assert heuristic is not None
        depth = self.depth
        ids = game.table.ids
        root_ids = [ids[a] for a in legal]
        k = len(root_ids)
        limit = self.iterations if self.iterations is not None else 1 << 62
        start = perf_counter()
        deadline = start + self.time if self.time is not None else math.inf
        default = heuristic.choose(view, legal, random.Random(rng.getrandbits(64)))
        h = legal.index(default) if default in legal else 0
        sums = [0.0] * k
        diff = [0.0] * k
        diff2 = [0.0] * k
        samples = sims = 0
        draws = _QuickDraws(rng)
        while samples == 0 or sims + k <= limit:
            d = game.sample_state(view, draws)
            others = []
            if d.in_sealed_choice:
                for p in d.to_act:
                    if p != seat:
                        acts = d.legal_actions(p)
                        pick = (
                            acts[0]
                            if len(acts) == 1
                            else heuristic.choose(view_for(heuristic, d, p), acts, rng)
                        )
                        others.append((p, ids[pick]))
            seed = rng.getrandbits(64)
            values = []
            for aid in root_ids:
                if perf_counter() >= deadline:
                    break
                s = d.clone()
                rr = random.Random(seed)
                s.apply_id(seat, aid)
                for p, o in others:
                    s.apply_id(p, o)
                stop = s.move + depth if depth is not None else 1 << 62
                _heuristic_playout(s, stop, heuristic, rr)
                result = s.result
                if result is not None:
                    values.append(result.rewards()[seat])
                else:
                    values.append(self._evaluate(s.view(seat))[seat])
            if len(values) < k:
                break
            base = values[h]
            for i, v in enumerate(values):
                sums[i] += v
                diff[i] += v - base
                diff2[i] += (v - base) ** 2
            samples += 1
            sims += k
            if perf_counter() >= deadline:
                break
        elapsed = perf_counter() - start
        best = h
        if samples > 1:
            gain = 0.0
            for i in range(k):
                mean = diff[i] / samples
                var = max(0.0, diff2[i] / samples - mean * mean)
                se = math.sqrt(var / (samples - 1))
                if mean > PAIRED_Z * se and mean > gain:
                    best, gain = i, mean
        stats = [
            RootStat(legal[i], samples, sums[i] / samples if samples else 0.0) for i in range(k)
        ]
        return Search(legal[best], sims, elapsed, 1, stats)


class _Tree:
    """One search's tree, and what each of its iterations does with a sampled state:
    :meth:`descend` (selection and expansion: UCB at the seats that search, Exp3 where
    several of them choose at once in a sealed round, the opponents' model elsewhere),
    :meth:`play_out` (to the end, or to the depth limit and the heuristic's estimate) and
    :meth:`back_up` (the rewards along the path). After the iterations, :meth:`root_stats`
    and :meth:`pick` give the move."""

    __slots__ = (
        "actions",
        "allowed",
        "c",
        "depth",
        "evaluate",
        "game",
        "heuristic",
        "ids",
        "legal",
        "mixed",
        "model",
        "modelled",
        "nodes",
        "num_actions",
        "rnd",
        "rng",
        "root",
        "root_ids",
        "seat",
        "view",
    )

    def __init__(
        self,
        bot: ISMCTSBot,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: random.Random,
        seat: int,
    ) -> None:
        game = bot.game
        table = game.table
        self.game = game
        self.view = view
        self.legal = legal
        self.rng = rng
        self.rnd = rng.random
        self.seat = seat
        self.ids = table.ids
        self.actions = table.actions
        self.root_ids = [self.ids[a] for a in legal]
        self.allowed = frozenset(self.root_ids)
        self.num_actions = game.num_actions
        self.c = bot.c
        self.heuristic = bot._heuristic if bot.rollout == "heuristic" else None
        self.depth = bot.depth
        self.evaluate = bot._evaluate
        self.modelled = bot.opponents != "search"
        self.model = (
            bot._heuristic
            if bot.opponents != "search"
            and (bot.opponents == "heuristic" or bot.rollout == "heuristic")
            else None
        )
        self.root = _Node()
        self.nodes = 1
        self.mixed = False  # whether the root was a sealed round searched by several seats

    # ------------------------------------------------------------------ choosing at a node

    def ucb(self, node: _Node, p: int, options: list[int]) -> _Edge:
        """Seat ``p``'s edge by UCB1 over its available options (an untried one first)."""
        edges = node.edges
        base = p * self.num_actions
        untried = []
        seen = []
        for aid in options:
            e = edges.get(base + aid)
            if e is None:
                e = edges[base + aid] = _Edge(aid)
            e.avail += 1
            if e.n == 0:
                untried.append(e)
            else:
                seen.append(e)
        if untried:
            return untried[int(self.rnd() * len(untried))]
        c, log, sqrt = self.c, math.log, math.sqrt
        best = seen[0]
        best_v = -math.inf
        for e in seen:
            v = e.w / e.n + c * sqrt(log(e.avail) / e.n)
            if v > best_v:
                best, best_v = e, v
        return best

    def exp3(self, node: _Node, p: int, options: list[int]) -> tuple[_Edge, float]:
        """Seat ``p``'s edge drawn by Exp3 at a sealed round, with its probability."""
        edges = node.edges
        base = p * self.num_actions
        found = []
        for aid in options:
            e = edges.get(base + aid)
            if e is None:
                e = edges[base + aid] = _Edge(aid)
            e.avail += 1
            found.append(e)
        k = len(found)
        eta = EXP3_GAMMA / k
        top = max(e.g for e in found)
        exp = math.exp
        weights = [exp(eta * (e.g - top)) for e in found]
        total = sum(weights)
        x = self.rnd()
        for e, w in zip(found, weights, strict=True):
            prob = (1.0 - EXP3_GAMMA) * w / total + EXP3_GAMMA / k
            if x < prob:
                return e, prob
            x -= prob
        return found[-1], prob

    def policy(self, s: State, node: _Node, p: int, options: list[int]) -> _Edge:
        """An opponent's edge as the model plays it (uniformly at random without one)."""
        model = self.model
        if model is None:
            aid = options[int(self.rnd() * len(options))]
        else:
            acts = [self.actions[a] for a in options]
            aid = self.ids[model.choose(view_for(model, s, p), acts, self.rng)]
        key = p * self.num_actions + aid
        e = node.edges.get(key)
        if e is None:
            e = node.edges[key] = _Edge(aid)
        return e

    # ------------------------------------------------------------------ one iteration

    def descend(self, s: State) -> list[tuple[_Edge, int, float]]:
        """Walk the sampled state ``s`` down the tree, applying each choice to it, until a
        new node or the end: the path of searched edges (edge, seat, Exp3 probability or
        0)."""
        seat = self.seat
        modelled = self.modelled
        path: list[tuple[_Edge, int, float]] = []
        node: _Node | None = self.root
        at_root = True
        while node is not None and not s.is_over:
            to_act = s.to_act
            if len(to_act) == 1 and not s.in_sealed_choice:
                p = to_act[0]
                options = s.legal_ids_unchecked(p)
                if at_root and p == seat:
                    options = _at_root(options, self.allowed, self.game)
                at_root = False
                if len(options) == 1:
                    s.apply_unchecked(p, options[0])
                    continue
                if p != seat and modelled:
                    edge = self.policy(s, node, p, options)
                else:
                    edge = self.ucb(node, p, options)
                    path.append((edge, p, 0.0))
                s.apply_unchecked(p, edge.aid)
                nxt = edge.child
                if nxt is None:
                    edge.child = _Node()
                    self.nodes += 1
                node = nxt
                continue
            node = self._sealed_round(s, node, path, at_root)
            at_root = False
        return path

    def _sealed_round(
        self, s: State, node: _Node, path: list[tuple[_Edge, int, float]], at_root: bool
    ) -> _Node | None:
        """A sealed round: every searching seat picks without the others' picks (Exp3
        when several search, UCB when one does); the picks are applied together, and the
        node after the round (None: a new one was made) is returned."""
        seat = self.seat
        picks = []
        choosers = []
        for p in s.to_act:
            options = s.legal_ids_unchecked(p)
            if at_root and p == seat:
                options = _at_root(options, self.allowed, self.game)
            if len(options) == 1:
                picks.append((p, options[0]))
            elif p != seat and self.modelled:
                picks.append((p, self.policy(s, node, p, options).aid))
            else:
                choosers.append((p, options))
        mine: _Edge | None = None
        if len(choosers) > 1:
            self.mixed = self.mixed or at_root
            for p, options in choosers:
                edge, prob = self.exp3(node, p, options)
                path.append((edge, p, prob))
                picks.append((p, edge.aid))
                if p == seat:
                    mine = edge
        else:
            for p, options in choosers:
                edge = self.ucb(node, p, options)
                path.append((edge, p, 0.0))
                picks.append((p, edge.aid))
                if p == seat:
                    mine = edge
        for p, aid in picks:
            s.apply_unchecked(p, aid)
        holder: _Edge | _Node = node if mine is None else mine
        nxt = holder.child
        if nxt is None:
            holder.child = _Node()
            self.nodes += 1
        return nxt

    def play_out(self, s: State) -> list[float]:
        """Play ``s`` on (random or heuristic rollouts) to the end or the depth limit;
        every seat's reward, or the heuristic's estimate of an unfinished game."""
        depth = self.depth
        stop = s.move + depth if depth is not None else 1 << 62
        heuristic = self.heuristic
        if heuristic is None:
            rnd = self.rnd
            while not s.is_over and s.move < stop:
                p = s.to_act[0]
                options = s.legal_ids_unchecked(p)
                s.apply_unchecked(p, options[int(rnd() * len(options))])
        else:
            _heuristic_playout(s, stop, heuristic, self.rng)
        result = s.result
        return result.rewards() if result is not None else list(self.evaluate(s.view(self.seat)))

    @staticmethod
    def back_up(path: list[tuple[_Edge, int, float]], r: list[float]) -> None:
        """Add each seat's reward to the edges it chose on the path."""
        for edge, p, prob in path:
            edge.n += 1
            edge.w += r[p]
            if prob:
                edge.g += r[p] / prob

    # ------------------------------------------------------------------ the move

    def root_stats(self) -> list[RootStat]:
        """Visits and mean reward of each root action, in the order given."""
        edges = self.root.edges
        base = self.seat * self.num_actions
        stats = []
        for a, aid in zip(self.legal, self.root_ids, strict=True):
            e = edges.get(base + aid)
            visits = e.n if e is not None else 0
            mean = e.w / e.n if e is not None and e.n else 0.0
            stats.append(RootStat(a, visits, mean))
        return stats

    def pick(self, stats: list[RootStat], done: int) -> int:
        """The index of the move: the most visited (then the best mean, then the first),
        or at a guessing round a draw from the mixed strategy the visits describe."""
        if not self.mixed:
            return max(range(len(stats)), key=lambda i: (stats[i].visits, stats[i].mean, -i))
        # Without the share that exploration spent evenly on every action.
        even = EXP3_GAMMA * done / len(stats)
        weights = [max(0.0, st.visits - even) for st in stats]
        if not any(weights):
            weights = [float(st.visits) for st in stats]
        x = self.rnd() * sum(weights)
        best = len(stats) - 1
        for i, w in enumerate(weights):
            if x < w:
                best = i
                break
            x -= w
        return best
