"""Players' words: typed forms that parse back, cards by what is printed on them, seats
from 1, and sentences that read right for "You" and for counts."""

from __future__ import annotations

import random
import re

import pytest

import dragonlair
from dragonlair.core import DragonlairError
from dragonlair.tui.words import Words, grammar

GAMES = dragonlair.games()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("You is dealt 2, 4", "You are dealt 2, 4"),
        ("You hires 33", "You hire 33"),
        ("You's tool repairs a damage (1 damage)", "Your tool repairs a damage (1 damage)"),
        ("Di calls HALT!: You's turn is cancelled", "Di calls HALT!: Your turn is cancelled"),
        (
            "Cy tucks a card under their ship (1 shields)",
            "Cy tucks a card under their ship (1 shield)",
        ),
        ("the crosshairs hit it 1 time(s)", "the crosshairs hit it 1 time"),
        ("You draws 1 card(s)", "You draw 1 card"),
        ("Di steals Bolts! from You", "Di steals Bolts! from you"),
        ("You played their own insignia", "You played your own insignia"),
        ("You, ranked 1, removes 0 Damage", "You, ranked 1, remove 0 Damage"),
        ("You flies the shortcut", "You fly the shortcut"),
        ("Player 1 draws footprint 1", "Player 1 draws footprint 1"),
        ("Heuristic 3 has 2 cards", "Heuristic 3 has 2 cards"),
        ("HALT! 1 as a number: move ahead 1", "HALT! 1 as a number: move ahead 1"),
        (
            "You tucks a draw-pile card under their ship as a shield (1 shields)",
            "You tuck a draw-pile card under your ship as a shield (1 shield)",
        ),
        (
            "You wins the round with 33 and claims dragon (9 pts; mood 1)",
            "You win the round with 33 and claim dragon (9 pts; mood 1)",
        ),
        ("Di steals 3 from You; You plays their 4", "Di steals 3 from you; You play your 4"),
    ],
)
def test_grammar(text: str, expected: str) -> None:
    assert grammar(text) == expected


def _play(game_id: str, players: int, seed: int):  # type: ignore[no-untyped-def]
    state = dragonlair.make(game_id, players=players).new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        yield state, seat
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    yield state, None


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_choice_typed_as_shown_is_that_choice(game_id: str) -> None:
    spec = dragonlair.spec(game_id)
    for players in (spec.min_players, spec.max_players):
        names = ["You"] + [f"Player {i + 1}" for i in range(1, players)]
        for state, seat in _play(game_id, players, 3):
            if seat is None:
                break
            words = Words(state.game, names, seat)
            legal = state.legal_actions(seat)
            for a in legal:
                typed = words.typed(a, legal)
                found = words.parse(typed, legal)
                assert words.label(found) == words.label(a), (typed, a, found)
                assert found.kind == a.kind


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "pebble-auction"])
def test_logs_and_choices_speak_players_words(game_id: str) -> None:
    spec = dragonlair.spec(game_id)
    for players in (spec.min_players, spec.max_players):
        names = ["You"] + [f"Heuristic {i + 1}" for i in range(1, players)]
        final = None
        for state, seat in _play(game_id, players, 5):
            final = state
            if seat is None:
                break
            words = Words(state.game, names, seat)
            for a in state.legal_actions(seat):
                line = f"{words.typed(a)} {words.label(a)}"
                assert not re.search(r"\bseat \d|#\d|\(card", line), line
        assert final is not None
        words = Words(final.game, names, 0)
        for event in final.events_since(0, 0):
            line = words.event(event)
            assert not re.search(r"\bYou (is|has|was)\b|You's|\bseats?\(?s?\)? \d", line), line
            assert not re.search(r"\(card|\bcards \d|#\d|\b1 cards\b|\(1 shields\)", line), line


def test_cards_by_their_printed_number_in_the_great_dragon_race() -> None:
    game = dragonlair.make("dragon-race", players=4)
    g: object = game
    words = Words(game, ["You", "B", "C", "D"], 0)
    cards = g.components.cards  # type: ignore[attr-defined]
    two_b = next(c.id for c in cards if c.kind == "number" and c.value == 2 and c.insignia == "B")
    plain_two = next(c.id for c in cards if c.kind == "number" and c.value == 2 and not c.insignia)
    five = next(c.id for c in cards if c.kind == "number" and c.value == 5 and not c.insignia)
    legal = [game.parse_action(f"play {c}") for c in (two_b, plain_two, five)]
    assert str(words.parse("play 2", legal)) == f"play {plain_two}"
    assert str(words.parse("play 2b", legal)) == f"play {two_b}"
    assert str(words.parse("5", legal)) == f"play {five}"
    with pytest.raises(DragonlairError, match="you cannot play a 3 now"):
        words.parse("3", legal)
    tornado = next(c.id for c in cards if c.kind == "tornado")
    blow = next(a for a in game.actions if a.kind == "blow" and a.args == (tornado, 2))
    assert words.typed(blow) == "blow tornado 3"  # Player 3, the seat counted from 1
    assert words.parse("blow tornado 3", [blow]) == blow


def test_a_bare_number_is_a_menu_number_where_cards_carry_none() -> None:
    game = dragonlair.make("dragon-stripes", players=3)
    words = Words(game, ["You", "B", "C"], 0)
    legal = [game.parse_action("draw"), game.parse_action("hold")]
    assert words.parse("2", legal) == legal[1]
    with pytest.raises(DragonlairError, match="there is no choice 3"):
        words.parse("3", legal)
    with pytest.raises(DragonlairError, match="you cannot take now"):
        words.parse("take", legal)
