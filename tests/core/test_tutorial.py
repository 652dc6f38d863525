"""The tutorials: each shipped one is read, checked and played to its last step by the
engine; a mutated deal or a malformed step is refused with the step and field named."""

from __future__ import annotations

import copy
import random
import tomllib
from typing import Any

import pytest

from dragonlair.bots import make_bot
from dragonlair.bots.base import table_bot_seed
from dragonlair.core import manifest, manifests
from dragonlair.tutorial import (
    BadTutorial,
    Tutorial,
    decision_move,
    from_dict,
    parse,
    tutorial,
)

SHIPPED = [m.id for m in manifests() if m.tutorial is not None]


def _doc(game_id: str) -> dict[str, Any]:
    text = manifest(game_id).tutorial_text()
    assert text is not None
    return tomllib.loads(text)


def test_every_game_ships_a_tutorial() -> None:
    assert {"dragon-stripes", "space-dragons", "dragon-race", "space-race"} <= set(SHIPPED)


@pytest.mark.parametrize("game_id", SHIPPED)
def test_each_tutorial_plays_to_its_last_step(game_id: str) -> None:
    """Follow the steps (the first allowed choice, else the first legal one) with the bots
    as a table plays them: every step is shown in turn and its choices are legal."""
    tut = tutorial(game_id)
    st = tut.start()
    levels = tut.bot_levels()
    shown = []
    while tut.step_index(st) < len(tut.steps):
        assert not st.is_over
        if tut.seat in st.to_act:
            step = tut.step(st)
            assert step is not None
            shown.append(step.text)
            legal = [str(a) for a in st.legal_actions(tut.seat)]
            choice = step.allow[0] if step.allow else legal[0]
            assert choice in legal
            assert tut.refusal(st, tut.seat, choice) is None
            st.apply(tut.seat, st.game.parse_action(choice))
        else:
            seat = st.to_act[0]
            st.apply(seat, st.game.parse_action(tut.bot_action(st, seat, levels[seat])))
    assert shown == [s.text for s in tut.steps]
    info = tut.info(st)
    assert info["text"] is None and info["summary"] == tut.summary


@pytest.mark.parametrize("game_id", SHIPPED)
def test_the_lesson_is_the_same_every_time(game_id: str) -> None:
    a, b = tutorial(game_id), parse(game_id, manifest(game_id).tutorial_text() or "")
    assert a.start().to_position() == b.start().to_position()
    st_a, st_b = a.start(), b.start()
    for seat, level in a.bot_levels().items():
        if seat in st_a.to_act:
            assert a.bot_action(st_a, seat, level) == b.bot_action(st_b, seat, level)


def test_a_restricted_step_refuses_other_choices() -> None:
    tut = tutorial("dragon-stripes")
    st = tut.start()
    for _ in range(1):
        st.apply(tut.seat, st.game.parse_action("draw"))
    # step 2 teaches drawing again; holding is legal but not taught here
    assert "hold" in [str(a) for a in st.legal_actions(tut.seat)]
    why = tut.refusal(st, tut.seat, "hold")
    assert why is not None and "step 2" in why and "draw" in why
    assert tut.refusal(st, tut.seat, "draw") is None
    assert tut.refusal(st, 1, "hold") is None  # the bots are not taught


def test_a_mutated_deal_fails_the_check() -> None:
    """A Stop moved to the top of the deck: the learner's first card sends the knight home,
    and the bots play the game out before the second step can be shown."""
    doc = _doc("dragon-stripes")
    deck = list(doc["position"]["deck"])
    deck.remove("stop")
    doc["position"]["deck"] = ["stop", *deck]
    with pytest.raises(BadTutorial, match=r"step 2: the game ends before it is shown"):
        from_dict("dragon-stripes", doc)


def test_swapped_cards_fail_the_check() -> None:
    """Two of the learner's footprints swapped with the Stop that the bot on the left
    draws: the lesson no longer arrives where the steps say."""
    doc = _doc("dragon-stripes")
    deck = list(doc["position"]["deck"])
    i = deck.index("stop")
    deck[1], deck[i] = deck[i], deck[1]
    doc["position"]["deck"] = deck
    with pytest.raises(BadTutorial, match=r"step \d+"):
        from_dict("dragon-stripes", doc)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["steps"][2].update(allow=["fly"]), r"step 3, field 'allow': 'fly'"),
        (lambda d: d["steps"][4].pop("text"), r"step 5, field 'text'"),
        (lambda d: d["steps"][0].update(color="red"), r"step 1, field 'color'"),
        (lambda d: d["steps"][1].update(look="pot"), r"step 2, field 'look'"),
        (lambda d: d["steps"][1].update(look=["Pot!"]), r"step 2, field 'look'"),
        (lambda d: d["steps"][0].update(allow=["draw", "draw"]), r"step 1, field 'allow'"),
        (lambda d: d.update(bots=["ismcts", "heuristic"]), r"bots\[0\]: ismcts searches"),
        (lambda d: d.update(bots=["heuristic"]), r"bots: should name 2 levels"),
        (lambda d: d.update(bots=["genius", "heuristic"]), r"bots\[0\]: no level 'genius'"),
        (lambda d: d.update(seat=3), r"seat: should be a seat from 0 to 2"),
        (lambda d: d.pop("summary"), r"summary: is missing"),
        (lambda d: d.update(steps=[]), r"steps: should be a list"),
        (lambda d: d["position"].update(pot=5), r"position\.pot"),
        (lambda d: d["position"].update(game="space-race"), r"position\.game"),
        (
            lambda d: d["steps"].extend(d["steps"][:8]),
            r"step \d+, field 'allow': '\w+' is not a legal",
        ),
    ],
)
def test_malformed_tutorials_name_the_step_and_field(change: Any, message: str) -> None:
    doc = copy.deepcopy(_doc("dragon-stripes"))
    change(doc)
    with pytest.raises(BadTutorial, match=message):
        from_dict("dragon-stripes", doc)


def test_not_toml_is_refused() -> None:
    with pytest.raises(BadTutorial, match="not TOML"):
        parse("dragon-stripes", "title = ")


def _play_lesson(tut: Tutorial, learner_at: int, seed_rule: Any = None) -> Any:
    """A lesson to its end, the learner choosing at place ``learner_at`` among the seats
    of each simultaneous choice (0: first; 1: between the bots; 2: last), its first
    allowed (else, or where that is not legal, its first legal) choice; the bots seeded by
    ``seed_rule`` (default: the lesson's)."""
    levels = tut.bot_levels()
    st = tut.start()
    while not st.is_over:
        asked = list(st.to_act)
        chosen = len(st.view(None).get("choosing", asked)) - len(asked)
        if tut.seat in asked and (chosen >= learner_at or asked == [tut.seat]):
            step = tut.step(st)
            legal = [str(a) for a in st.legal_actions(tut.seat)]
            taught = step.allow[0] if step is not None and step.allow else None
            choice = taught if taught in legal else legal[0]
            st.apply(tut.seat, st.game.parse_action(choice))
            continue
        seat = next(s for s in asked if s != tut.seat)
        if seed_rule is None:
            text = tut.bot_action(st, seat, levels[seat])
        else:
            bot = make_bot(levels[seat], st.game)
            rng = random.Random(seed_rule(tut, st, seat))
            text = str(bot.choose(st.view(seat), st.legal_actions(seat), rng))
        st.apply(seat, st.game.parse_action(text))
    return st


def _by_seat(st: Any) -> list[list[str]]:
    return [[str(a) for s, a in st.record.actions if s == seat] for seat in range(3)]


@pytest.mark.parametrize("game_id", ["space-race", "space-dragons"])
def test_a_lesson_is_the_same_whenever_the_learner_chooses(game_id: str) -> None:
    """Space Race's picks and bids and Space Dragons' Hiring Crew are simultaneous choices:
    whether the learner chooses before, between or after the bots, they make the same
    choices and the game ends the same."""
    games = [_play_lesson(tutorial(game_id), at) for at in (0, 1, 2)]
    first = games[0]
    assert first.result is not None
    for other in games[1:]:
        assert _by_seat(other) == _by_seat(first)
        assert other.result is not None
        assert other.result.to_dict() == first.result.to_dict()


def test_seeded_by_the_move_itself_the_lesson_would_depend_on_the_learner() -> None:
    """What the rule above prevents: seeded by the move at which each bot decides (as an
    ordinary table's bots are), the bots break ties otherwise when the learner chose
    first, and the game is another."""

    def by_move(tut: Any, st: Any, seat: int) -> int:
        return table_bot_seed(tut.seed, seat, st.move)

    early = _play_lesson(tutorial("space-race"), 0, by_move)
    late = _play_lesson(tutorial("space-race"), 2, by_move)
    assert _by_seat(early) != _by_seat(late)


def _by_move(tut: Tutorial, st: Any, seat: int) -> int:
    return table_bot_seed(tut.seed, seat, st.move)


def test_space_dragons_hiring_is_the_same_whenever_the_learner_picks_at_any_bot() -> None:
    """The heuristic's hiring values have no ties, so the lesson's bots would pick the same
    however they were seeded; bots that pick at random show that the lesson's seeding
    makes Hiring Crew the same whenever the learner picks (and seeded by the move itself,
    it would not be)."""
    doc = copy.deepcopy(_doc("space-dragons"))
    doc["bots"] = ["random", "random"]
    doc["steps"] = [{"text": "Hire a card.", "look": ["hand"]} for _ in range(3)]
    tut = from_dict("space-dragons", doc)
    games = [_play_lesson(tut, at) for at in (0, 1, 2)]
    assert _by_seat(games[1]) == _by_seat(games[0]) == _by_seat(games[2])
    assert _by_seat(_play_lesson(tut, 0, _by_move)) != _by_seat(_play_lesson(tut, 2, _by_move))


# What the Space Dragons lesson's texts say at each step (the bots' hires, the learner's
# hand, the cards of the round so far, shields, damage and dragons), as its deal plays.
SPACE_DRAGONS_SEEN: list[dict[str, Any]] = [
    {"hand": [2, 10, 34], "picks": [74, 49, 13, 33, 5, 36]},
    {"hand": [9, 50]},
    {"hand": [80]},
    {"hand": [2, 5, 9, 13, 33, 36, 49, 74, 80], "this_round": []},
    {"damage": [2, 0, 0], "shields": [0, 1, 1], "claimed": [[9], [], []]},
    {"damage": [0, 0, 0], "this_round": [[2, 34]]},
    {"shields": [3, 0, 2], "claimed": [[9], [13], [5]], "this_round": [[1, 77], [2, 56]]},
    {"damage": [0, 1, 0], "this_round": [[1, 30], [2, 75]]},
    {"shields": [2, 0, 0], "damage": [0, 1, 2], "claimed": [[9], [13, 2], [5, 17]]},
    {},
]


def test_the_space_dragons_lesson_plays_as_its_texts_tell() -> None:
    """The bots hire what the texts say they are passed and take (20, 10, 50; 56, 75, 34),
    and the hunt comes out as each step tells it: a change of the deal, the seed or the
    heuristic that would make a text wrong fails here."""
    tut = tutorial("space-dragons")
    levels = tut.bot_levels()
    st = tut.start()
    seen = []
    while tut.step_index(st) < len(tut.steps):
        if tut.seat in st.to_act:
            step = tut.step(st)
            assert step is not None
            view = st.view(tut.seat)
            want = SPACE_DRAGONS_SEEN[tut.step_index(st)]
            seen.append({k: view[k] for k in want})
            legal = [str(a) for a in st.legal_actions(tut.seat)]
            choice = step.allow[0] if step.allow else legal[0]
            st.apply(tut.seat, st.game.parse_action(choice))
        else:
            seat = st.to_act[0]
            st.apply(seat, st.game.parse_action(tut.bot_action(st, seat, levels[seat])))
    assert seen == SPACE_DRAGONS_SEEN
    hires = [[str(a) for s, a in st.record.actions if s == seat][:3] for seat in (1, 2)]
    assert hires == [["hire 20", "hire 10", "hire 50"], ["hire 56", "hire 75", "hire 34"]]


def test_outside_a_simultaneous_choice_a_lesson_bot_is_seeded_as_at_any_table() -> None:
    """Outside a simultaneous choice (the other lessons, Space Dragons' hunt) a lesson's
    bots are seeded as a table's are."""
    for game_id in SHIPPED:
        tut = tutorial(game_id)
        st = tut.start()
        levels = tut.bot_levels()
        while tut.step_index(st) < len(tut.steps):
            seat = st.to_act[0]
            if st.in_sealed_choice:
                chosen = len(st.view(None)["choosing"]) - len(st.to_act)
                assert decision_move(st) == st.move - chosen
            else:
                assert decision_move(st) == st.move
                assert tut.bot_seed(st, seat) == table_bot_seed(tut.seed, seat, st.move)
            if seat == tut.seat:
                step = tut.step(st)
                assert step is not None
                legal = [str(a) for a in st.legal_actions(seat)]
                st.apply(seat, st.game.parse_action(step.allow[0] if step.allow else legal[0]))
            else:
                st.apply(seat, st.game.parse_action(tut.bot_action(st, seat, levels[seat])))
