"""The tutorials: each shipped one is read, checked and played to its last step by the
engine; a mutated deal or a malformed step is refused with the step and field named."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest

from dragonlair.core import manifest, manifests
from dragonlair.tutorial import BadTutorial, from_dict, parse, tutorial

SHIPPED = [m.id for m in manifests() if m.tutorial is not None]


def _doc(game_id: str) -> dict[str, Any]:
    text = manifest(game_id).tutorial_text()
    assert text is not None
    return tomllib.loads(text)


def test_dragon_stripes_ships_a_tutorial() -> None:
    assert "dragon-stripes" in SHIPPED


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
