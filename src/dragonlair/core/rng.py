"""Seeded randomness that is the same on every machine and every Python version.

Games keep the generator's state (one 64-bit integer) inside the game state, so cloning a
state copies one int and a saved game resumes the exact sequence. The generator is
SplitMix64; ``randbelow`` maps a 64-bit draw onto ``range(n)`` by multiply-shift, whose bias
(at most n / 2**64) is far below anything a game could notice.

We do not use :mod:`random` for the games: its ``shuffle`` and ``randrange`` are not
promised to stay the same across Python versions, and records must replay bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import Protocol, TypeVar

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def mix64(z: int) -> int:
    """The SplitMix64 output function: a 64-bit integer to a well-mixed 64-bit integer."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class RandomLike(Protocol):
    """What samplers and bots need of a generator; both :class:`Rng` and
    :class:`random.Random` provide it."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int: ...

    def random(self) -> float: ...


DRAW_LIMIT = 1 << 32  # a batched draw stays below this, so its bias is below 2**-32
_PLANS: dict[int, tuple[tuple[int, int], ...]] = {}


def shuffle_plan(size: int) -> tuple[tuple[int, int], ...]:
    """How Fisher-Yates shuffles ``size`` items in few draws: (radix, count) per draw.

    The swap positions for indices i, i-1, ... are the digits, in mixed radix, of one
    uniform number below radix = (i+1)*i*...; each radix stays under ``DRAW_LIMIT``. A draw
    costs far more than the arithmetic, so an 80-card deck needs 17 draws instead of 79,
    with the same distribution (up to a bias below 2**-32)."""
    plan = _PLANS.get(size)
    if plan is None:
        steps = []
        i = size - 1
        while i > 0:
            radix, count = 1, 0
            while i - count > 0 and radix * (i - count + 1) < DRAW_LIMIT:
                radix *= i - count + 1
                count += 1
            steps.append((radix, count))
            i -= count
        plan = _PLANS[size] = tuple(steps)
    return plan


_STEPS: dict[int, tuple[tuple[int, tuple[tuple[int, int], ...]], ...]] = {}


def shuffle_steps(size: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """``shuffle_plan(size)`` spelled out for the loop that follows it: per draw, its
    radix and the (index, index + 1) of each swap it decides, the highest index first."""
    steps = _STEPS.get(size)
    if steps is None:
        out = []
        i = size - 1
        for radix, count in shuffle_plan(size):
            out.append((radix, tuple((k, k + 1) for k in range(i, i - count, -1))))
            i -= count
        steps = _STEPS[size] = tuple(out)
    return steps


def shuffle_with(rng: RandomLike, items: MutableSequence[T]) -> None:
    """Fisher-Yates driven by any generator with ``randrange`` (samplers and bots use
    their own generators, never a state's)."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]


def derive_seed(seed: int, *path: int) -> int:
    """A 63-bit seed derived from ``seed`` and a path of integers (e.g. a game's index)."""
    return _walk(seed, path) >> 1


def derive_seeds(seed: int, path: Sequence[int], last: Iterable[int]) -> list[int]:
    """``[derive_seed(seed, *path, p) for p in last]``, with the work on the shared
    ``path`` done once (simulate derives every seat's bot seed from its game's path)."""
    z = _walk(seed, path)
    return [_step(z, p) >> 1 for p in last]


def _walk(seed: int, path: Sequence[int]) -> int:
    z = mix64((seed + GOLDEN) & MASK64)
    for p in path:
        z = _step(z, p)
    return z


def _step(z: int, p: int) -> int:
    """One step along a path: ``z`` and the path's next integer ``p`` mixed."""
    mixed = _SMALL_STEPS[p] if 0 <= p < SMALL_STEPS else mix64((p + GOLDEN) & MASK64)
    return mix64(((z ^ mixed) + GOLDEN) & MASK64)


# the mixed path integers below SMALL_STEPS (seats, streams, early moves), worked out once
SMALL_STEPS = 256
_SMALL_STEPS = tuple(mix64((p + GOLDEN) & MASK64) for p in range(SMALL_STEPS))


class Rng:
    """A small seeded generator with the same algorithm as the one inside game states."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = mix64(seed & MASK64)

    def next64(self) -> int:
        s = (self.state + GOLDEN) & MASK64
        self.state = s
        return mix64(s)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)``; ``n`` must be positive."""
        return (self.next64() * n) >> 64

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        width = (stop - start + step - 1) // step
        if width <= 0:
            raise ValueError(f"empty range for randrange({start}, {stop}, {step})")
        return start + step * self.randbelow(width)

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        shuffle_with(self, items)

    def spawn(self) -> Rng:
        """An independent generator seeded from this one."""
        return Rng(self.next64())
