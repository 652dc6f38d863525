"""Held decisions (dragonlair.core.confirm): at every kind of decision of every game, a
decision held for confirmation is taken back to exactly the state before it, shows the
deciding seat nothing it could not see before (a decision that would is held unseen), and
once confirmed is played as if it had never been held."""

from __future__ import annotations

import random

import pytest

import dragonlair
from dragonlair.core.confirm import Hold, reveals_to_actor

GAMES = ["dragon-race", "dragon-stripes", "space-dragons", "space-race"]


def kind(action: object) -> str:
    return str(action).split()[0]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", GAMES)
def test_every_kind_of_decision_can_be_held_and_taken_back(game: str) -> None:
    g = dragonlair.make(game)
    every_kind = {kind(a) for a in g.actions}
    tried: set[str] = set()
    unseen: set[str] = set()
    for seed in range(6):
        st = g.new_game(seed)
        rng = random.Random(seed)
        while not st.is_over:
            seat = st.to_act[0]
            legal = st.legal_actions(seat)
            action = rng.choice(legal)
            k = kind(action)
            if k not in tried or rng.random() < 0.05:
                before = st.to_json()
                hold = Hold(seat, st)
                shows = reveals_to_actor(st, seat, action)
                hold.push(action, shows)
                assert hold and len(hold) == 1
                if shows:
                    unseen.add(k)
                    assert hold.state is st and hold.unseen == action
                    with pytest.raises(ValueError):
                        hold.push(legal[0])
                else:
                    assert hold.state.move == st.move + 1 and st.to_json() == before
                assert hold.pop() == action and not hold
                assert hold.state.to_json() == before and st.to_json() == before
                # held again and confirmed: the same game as playing it at once
                hold.push(action, shows)
                confirmed = st.clone()
                while (a := hold.take_first()) is not None:
                    confirmed.apply(seat, a)
                played = st.clone()
                played.apply(seat, action)
                assert confirmed.to_json() == played.to_json()
                tried.add(k)
            st.apply(seat, action)
        if tried >= every_kind:
            break
    # every kind of decision the game has was held and taken back
    assert tried == every_kind, f"{game}: never tried {sorted(every_kind - tried)}"


def test_a_decision_that_shows_a_card_is_held_unseen() -> None:
    # Dragon Stripes: a draw turns a card over, so it is held without being applied
    g = dragonlair.make("dragon-stripes")
    st = g.new_game(3)
    seat = st.to_act[0]
    draw = next(a for a in st.legal_actions(seat) if kind(a) == "draw")
    assert reveals_to_actor(st, seat, draw)
    hold = Hold(seat, st)
    hold.push(draw, shows=True)
    assert hold.state.view(seat) == st.view(seat)


def test_a_sealed_choice_is_held_and_rebased_on_the_others_choices() -> None:
    # Space Race: my secret pick held while a bot makes its own; the held pick is then
    # applied to the new committed state (both still secret)
    g = dragonlair.make("space-race")
    st = g.new_game(5)
    assert st.in_sealed_choice and len(st.to_act) >= 2
    me, other = st.to_act[0], st.to_act[1]
    mine = st.legal_actions(me)[0]
    hold = Hold(me, st)
    hold.push(mine, reveals_to_actor(st, me, mine))
    committed = st.clone()
    committed.apply(other, committed.legal_actions(other)[0])
    assert hold.rebase(committed)
    assert hold.base is committed
    if hold.actions:
        assert hold.state.move == committed.move + 1
