"""The acting seat's total and the gain of one more card, as the heuristic works them out,
agree with the full scoring of every ship."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.space_race.cards import NSTACK, S_DAMAGE
from dragonlair.space_race.scoring import SeatGain, score_ships, seat_total, totals


def row_of(ships: list[list[tuple[int, ...]]]) -> list[tuple[int, ...]]:
    """Every ship's stacks in one flat row, as the state and the typed view keep them."""
    return [stack for ship in ships for stack in ship]


@pytest.mark.parametrize("options", [{}, {"every_power_source": True}])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_total_and_gain_agree_with_score_ships(players: int, options: dict[str, bool]) -> None:
    game = dragonlair.make("space-race", players=players, options=options)
    t, eps = game.tables, game.every_power_source  # type: ignore[attr-defined]
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_over:
            ships = [list(ship) for ship in state.ship_stacks()]  # type: ignore[attr-defined]
            full = score_ships(ships, t, eps)
            assert totals(ships, t, eps) == [sum(b.values()) for b in full]
            for seat in range(players):
                total = seat_total(ships, seat, t, eps)
                assert total == sum(full[seat].values())
                gain = SeatGain(row_of(ships), seat, t, eps)
                for stack in range(NSTACK):
                    card = rng.choice(t.damage_ids if stack == S_DAMAGE else t.space_ids)
                    old = ships[seat][stack]
                    ships[seat][stack] = (*old, card)
                    after = seat_total(ships, seat, t, eps)
                    ships[seat][stack] = old
                    assert gain.gain(stack, card) == after - total, (seed, seat, stack, card)
                    checked += 1
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 1000


@pytest.mark.parametrize("players", [2, 4])
def test_a_bid_leaves_the_total_seat_total_gives(players: int) -> None:
    from dragonlair.space_race.cards import S_CREW, S_FUEL

    game = dragonlair.make("space-race", players=players)
    t = game.tables  # type: ignore[attr-defined]
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_over:
            ships = [list(ship) for ship in state.ship_stacks()]  # type: ignore[attr-defined]
            for seat in range(players):
                gain = SeatGain(row_of(ships), seat, t, False)
                for stack in (S_FUEL, S_CREW):
                    old = ships[seat][stack]
                    every = gain.bid_totals(stack)
                    assert len(every) == len(old) + 1
                    for b in range(len(old) + 1):
                        ships[seat][stack] = old[b:]
                        expected = seat_total(ships, seat, t, False)
                        ships[seat][stack] = old
                        assert gain.total_with(stack, old[b:]) == expected, (seed, seat, b)
                        assert every[b] == expected, (seed, seat, b)
                        checked += 1
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 1000
    with pytest.raises(ValueError, match="Fuel or Crew"):
        SeatGain(row_of(ships), 0, t, False).total_with(S_DAMAGE, ())
    with pytest.raises(ValueError, match="Fuel or Crew"):
        SeatGain(row_of(ships), 0, t, False).bid_totals(S_DAMAGE)
