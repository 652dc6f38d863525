"""Tutorial tables: the lobby says which games have one, a tutorial table is set up by its
tutorial alone, each step's text reaches the learner with the state, the learner plays it
to its end, and a choice the step does not teach is refused and changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from dragonlair.bots.base import table_bot_seed
from dragonlair.core import manifests
from dragonlair.tutorial import tutorial
from dragonlair.web.table.botseats import Player
from tests.web.serverkit import LiveServer, SeatClient, config, create_table


@pytest.fixture
def server(sqlite_url: str) -> Iterator[LiveServer]:
    s = LiveServer(config(sqlite_url))
    yield s
    s.stop()


def test_the_lobby_lists_which_games_have_a_tutorial(server: LiveServer) -> None:
    games = {g["id"]: g for g in httpx.get(f"{server.http}/api/games").json()}
    assert games["dragon-stripes"]["tutorial"] is True
    assert all(isinstance(g["tutorial"], bool) for g in games.values())


SHIPPED = [m.id for m in manifests() if m.tutorial is not None]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("game_id", SHIPPED)
def test_each_tutorial_is_played_to_its_end(server: LiveServer, game_id: str) -> None:
    tut = tutorial(game_id)
    created = create_table(server.http, game=game_id, tutorial=True)
    table = created["table"]
    s = table["settings"]
    assert s["tutorial"] and not s["hints"] and not s["undo"] and not s["listed"]
    kinds = ["human" if i == tut.seat else "bot" for i in range(len(table["seats"]))]
    assert [seat["kind"] for seat in table["seats"]] == kinds
    levels = tut.bot_levels()
    assert {i: seat["level"] for i, seat in enumerate(table["seats"]) if i != tut.seat} == levels
    (mine,) = created["seats"]
    assert mine["seat"] == tut.seat

    async def main() -> list[str]:
        c = await SeatClient.open(server.ws, table["id"], mine["token"], mine["seat"])
        shown: list[str] = []
        refused = False
        while True:
            await c.wait(
                lambda: bool(c.latest["legal"]) or c.latest["tutorial"]["text"] is None,
                "the learner's decision",
            )
            lesson = c.latest["tutorial"]
            if lesson["text"] is None:
                break
            assert lesson["step"] == len(shown) + 1 and lesson["steps"] == len(tut.steps)
            shown.append(lesson["text"])
            legal = c.latest["legal"]
            allow = lesson["allow"]
            move = c.latest["move"]
            if allow is not None and not refused:
                wrong = [a for a in legal if a not in allow]
                if wrong:
                    errors = len(c.errors)
                    await c.act(move, wrong[0])
                    err = await c.next_error(errors)
                    assert err["code"] == "not_taught"
                    assert f"step {lesson['step']}" in err["message"]
                    await c.settle()
                    # nothing changed: the same lesson step, still the learner's decision
                    # (and the same move, but in a simultaneous choice, where the bots may
                    # choose meanwhile)
                    st = server.hub.tables[table["id"]].state
                    assert c.latest["tutorial"] == lesson
                    assert tut.step_index(st) == len(shown) - 1 and tut.seat in st.to_act
                    if not st.in_sealed_choice:
                        assert c.latest["move"] == move and st.move == move
                    refused = True
            choice = allow[0] if allow else legal[0]
            await c.act(c.latest["move"], choice)
            # the step's choice is played (in a simultaneous choice a bot's pick may come
            # first, so the move alone does not say it)
            done = len(shown)
            await c.wait(
                lambda done=done: c.latest["tutorial"]["step"] > done, "the step's choice played"
            )
        assert refused, "no step restricted a legal choice"
        assert c.latest["tutorial"]["summary"] == tut.summary
        if c.latest["status"] == "over":
            # the lesson's rematch is the lesson again
            await c.send({"type": "rematch"})
            await c.wait(lambda: any(m["type"] == "rematch" for m in c.messages), "a rematch")
            again = [m for m in c.messages if m["type"] == "rematch"][-1]
            new = server.hub.tables[again["table"]]
            assert new.settings.tutorial and new.tutorial is not None
            # the game it began with (its bots may already have picked in a simultaneous
            # choice, as Space Dragons' lesson opens with one)
            assert new.initial_state().to_position() == tut.start().to_position()
        await c.close()
        return shown

    shown = asyncio.run(main())
    assert shown == [step.text for step in tut.steps]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "dragon-stripes", "tutorial": True, "seed": 3}, "bad_request"),
        ({"game": "dragon-stripes", "tutorial": True, "players": 4}, "bad_request"),
        ({"game": "dragon-stripes", "tutorial": True, "puzzle": "x"}, "bad_request"),
        ({"game": "no-such-game", "tutorial": True}, "unknown_game"),
    ],
)
def test_a_tutorial_request_asking_for_more_is_refused(
    server: LiveServer, body: dict[str, object], code: str
) -> None:
    before = len(server.hub.tables)
    r = httpx.post(f"{server.http}/api/tables", json=body, timeout=30)
    assert r.status_code >= 400 and r.json()["error"]["code"] == code, r.text
    assert len(server.hub.tables) == before


def test_a_game_without_a_tutorial_says_so(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every shipped game has one, so a game's manifest is made to leave it out."""
    from dragonlair.web import lobby

    monkeypatch.setattr(lobby, "has_tutorial", lambda game_id: game_id != "space-race")
    before = len(server.hub.tables)
    r = httpx.post(
        f"{server.http}/api/tables", json={"game": "space-race", "tutorial": True}, timeout=30
    )
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_tutorial"
    assert len(server.hub.tables) == before


def test_a_lesson_table_seeds_its_bots_by_the_choice_they_answer(server: LiveServer) -> None:
    """At Space Race's lesson every pick is a simultaneous choice: the table's bot is seeded
    by the move at which the choice opened, so its seed is the same whether the learner
    has chosen before it or not (dragonlair.tutorial.decision_move); at an ordinary table
    it is the move itself."""
    tut = tutorial("space-race")
    created = create_table(server.http, game="space-race", tutorial=True)
    table = server.hub.tables[created["table"]["id"]]
    # the lesson as it began: the table's bots may have picked already
    before = table.initial_state()
    after = before.clone()
    after.apply(tut.seat, after.game.parse_action("up 22"))  # the learner chose first
    bot = Player("heuristic", {})
    seed = table.bots.job(before, 1, bot).seed
    assert table.bots.job(after, 1, bot).seed == seed == tut.bot_seed(before, 1)
    assert after.move != before.move
    assert table_bot_seed(table.seed, 1, after.move) != seed  # what an ordinary table uses
