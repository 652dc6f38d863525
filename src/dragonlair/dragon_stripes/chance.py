"""The draw as an explicit chance event, for solvers that enumerate chance.

The engine shuffles the whole deck at the start (:meth:`DragonStripesState._setup`) and a
draw turns over the next card. Nobody sees the order of the cards not yet drawn, so
choosing the next card at the moment of the draw, each kind with the share of it in the
hidden rest of the deck, gives every game the same chance as the shuffle: this is how a
solver such as counterfactual regret minimisation (``dragonlair.rl.solve``) walks every
deal without enumerating whole deck orders.

Chance outcomes are numbered by the game's ``card_kinds`` (footprint steps in the order of
the data file, then Stop, then Danger), so the numbering is fixed per data file.
"""

from __future__ import annotations

from collections import Counter

from .rules import DragonStripesState


def draw_outcomes(state: DragonStripesState) -> list[tuple[int, float]]:
    """The outcomes of the next draw: (index in ``card_kinds``, probability) for each kind
    of card in the hidden rest of the deck, in the order of ``card_kinds``."""
    rest = state.deck[state.top :]
    if not rest:
        raise ValueError("the deck has no card left to draw")
    counts = Counter(rest)
    n = len(rest)
    kinds = state.game.card_kinds
    return [(i, counts[card] / n) for i, card in enumerate(kinds) if counts[card]]


def put_on_top(state: DragonStripesState, outcome: int) -> None:
    """Make the next draw turn over a card of kind ``card_kinds[outcome]``: a card of that
    kind from the hidden rest of the deck trades places with the top one."""
    kinds = state.game.card_kinds
    if not 0 <= outcome < len(kinds):
        raise ValueError(f"no card kind number {outcome}; there are {len(kinds)}")
    card = kinds[outcome]
    deck = list(state.deck)
    try:
        i = deck.index(card, state.top)
    except ValueError:
        raise ValueError(f"no card of kind {outcome} is left in the deck") from None
    deck[state.top], deck[i] = deck[i], deck[state.top]
    state.deck = tuple(deck)
