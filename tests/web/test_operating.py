"""Operating the server: ``/metrics`` for Prometheus, the health check's owned tables,
JSON logs with table ids, and the refusals of ``--shard``."""

from __future__ import annotations

import json
import logging
import re

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from dragonlair.cli import app
from dragonlair.web.logs import JsonFormatter
from dragonlair.web.ownership import home, parse_shard


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    assert found, f"{name} is not in /metrics"
    return float(found.group(1))


def test_metrics_an_operator_can_act_on(client: TestClient) -> None:
    """Error answers by code, HTTP answers by status, tables and people per game, the
    process's own figures (prometheus-client's default collectors), and with PostgreSQL
    the ownership events and the heartbeat."""
    text = client.get("/metrics").text
    errors = 'dragonlair_errors_total{code="not_found"}'
    answers = 'dragonlair_http_responses_total{status="404"}'
    had = {name: (metric(text, name) if name in text else 0.0) for name in (errors, answers)}
    assert client.get("/api/tables/nosuchtable").status_code == 404
    r = client.post(
        "/api/tables",
        json={"game": "pebble-auction", "players": 2, "seats": [{"type": "human"}] * 2},
    )
    created = r.json()
    with client.websocket_connect(f"/ws/tables/{created['table']['id']}") as ws:
        ws.send_json({"type": "hello", "token": created["seats"][0]["token"], "since": 0})
        while ws.receive_json()["type"] != "state":
            pass
        text = client.get("/metrics").text
        assert metric(text, 'dragonlair_players{game="pebble-auction"}') == 1
    assert metric(text, errors) == had[errors] + 1
    assert metric(text, answers) == had[answers] + 1
    assert metric(text, 'dragonlair_tables_by_game{game="pebble-auction",status="playing"}') == 1
    assert metric(text, "process_resident_memory_bytes") > 0
    assert "python_gc_collections_total" in text
    if not client.app.state.hub.store.sqlite:  # type: ignore[attr-defined]
        assert metric(text, "dragonlair_heartbeat_ok") == 1
        assert "# TYPE dragonlair_ownership_events_total counter" in text


def test_metrics_and_health_follow_play(client: TestClient) -> None:
    before = client.get("/metrics")
    assert before.status_code == 200
    assert before.headers["content-type"].startswith("text/plain")
    assert metric(before.text, "dragonlair_actions_total") == 0
    r = client.post(
        "/api/tables",
        json={"game": "pebble-auction", "players": 2, "seats": [{"type": "human"}] * 2},
    )
    assert r.status_code == 201
    created = r.json()
    tid = created["table"]["id"]
    status = client.get("/status").json()
    sqlite = client.app.state.hub.store.sqlite  # type: ignore[attr-defined]
    assert status["owns"] == [tid] and status["process"] == (None if sqlite else "1/1")
    assert client.get("/api/health").json() == {"ok": True}  # nothing about any table
    assert client.get("/api/ready").json() == {"ready": True}
    token = created["seats"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": token, "since": 0})
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
        seat0 = created["seats"][1]["token"] if 0 not in state["view"]["to_act"] else token
        assert metric(client.get("/metrics").text, "dragonlair_connections") == 1
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": seat0, "since": 0})
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
        ws.send_json({"type": "act", "move": 0, "action": state["legal"][0], "ref": 1})
        answer = ws.receive_json()
        while answer.get("ref") != 1:
            assert answer["type"] != "error", answer
            answer = ws.receive_json()
    text = client.get("/metrics").text
    assert metric(text, "dragonlair_actions_total") == 1
    assert metric(text, "dragonlair_commits_total") >= 2  # the table, then the action
    assert metric(text, 'dragonlair_tables{status="playing"}') == 1
    assert metric(text, "dragonlair_action_seconds_count") >= 1
    process = "" if client.app.state.hub.store.sqlite else "1/1"  # type: ignore[attr-defined]
    assert f'dragonlair_info{{process="{process}",version=' in text


def test_websocket_counters_and_the_reply_latency(client: TestClient) -> None:
    """Connections opened, refused and closed by code, messages in and out, and the
    action's latency from its receipt to its reply."""

    def figures() -> dict[str, float]:
        text = client.get("/metrics").text
        names = [
            "dragonlair_ws_opened_total",
            'dragonlair_ws_refused_total{code="4401"}',
            'dragonlair_ws_closed_total{code="1000"}',
            'dragonlair_ws_messages_total{direction="in"}',
            'dragonlair_ws_messages_total{direction="out"}',
            "dragonlair_action_reply_seconds_count",
        ]
        return {n: (metric(text, n) if f"\n{n} " in text else 0.0) for n in names}

    before = figures()
    created = client.post(
        "/api/tables",
        json={"game": "pebble-auction", "players": 2, "seats": [{"type": "human"}] * 2},
    ).json()
    tid = created["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token", "since": 0})
        assert ws.receive_json()["code"] == "unauthorized"
    tokens = [s["token"] for s in created["seats"]]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0], "since": 0})
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
        actor = tokens[0] if 0 in state["view"]["to_act"] else tokens[1]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "token": actor, "since": 0})
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
        ws.send_json({"type": "act", "move": 0, "action": state["legal"][0], "ref": 7})
        answer = ws.receive_json()
        while answer.get("ref") != 7:
            answer = ws.receive_json()
        ws.send_json({"type": "act", "move": 0, "action": "no such action", "ref": 8})
        assert ws.receive_json()["type"] == "error"  # refused: answered all the same
        ws.close(1000)
    after = figures()
    grew = {k: after[k] - before[k] for k in after}
    assert grew["dragonlair_ws_opened_total"] == 3
    assert grew['dragonlair_ws_refused_total{code="4401"}'] == 1
    assert grew['dragonlair_ws_closed_total{code="1000"}'] == 2
    assert grew['dragonlair_ws_messages_total{direction="in"}'] == 2  # after the hellos
    assert grew['dragonlair_ws_messages_total{direction="out"}'] >= 4
    assert grew["dragonlair_action_reply_seconds_count"] == 2


def test_json_access_lines_carry_their_parts_as_fields() -> None:
    fmt = JsonFormatter("1/2")
    args = ("127.0.0.9:52114", "POST", "/api/tables/q3J9xW7a/seats/1", "1.1", 409)
    rec = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d', args, None
    )
    got = json.loads(fmt.format(rec))
    assert got["client"] == "127.0.0.9:52114" and got["method"] == "POST"
    assert got["path"] == "/api/tables/q3J9xW7a/seats/1" and got["status"] == 409
    assert got["http"] == "1.1" and got["table"] == "q3J9xW7a" and got["process"] == "1/2"
    other = logging.LogRecord(
        "dragonlair.web", logging.INFO, __file__, 1, "%s %s", ("a", "b"), None
    )
    assert "status" not in json.loads(fmt.format(other))


def test_routing_answers_are_logged_at_debug() -> None:
    from dragonlair.web.logs import RoutingAtDebug

    routing = RoutingAtDebug()
    access = '%s - "%s %s HTTP/%s" %d'

    def rec(name: str, msg: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord(name, logging.INFO, __file__, 1, msg, args, None)

    logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    logging.getLogger("uvicorn.error").setLevel(logging.INFO)
    try:
        # "not this process's table": down to debug, so not shown at info
        moved = rec(
            "uvicorn.access", access, "127.0.0.1:5", "GET", "/api/tables/q3J9xW7a", "1.1", 503
        )
        assert routing.filter(moved) is False and moved.levelname == "DEBUG"
        ws = rec(
            "uvicorn.error", '%s - "WebSocket %s" %d', "127.0.0.1:5", "/ws/tables/q3J9xW7a", 503
        )
        assert routing.filter(ws) is False
        # everything else as it was: the lobby's 503 (storage), a table's other answers
        for kept in (
            rec("uvicorn.access", access, "127.0.0.1:5", "POST", "/api/tables", "1.1", 503),
            rec("uvicorn.access", access, "127.0.0.1:5", "GET", "/api/tables/q3J9xW7a", "1.1", 200),
            rec("uvicorn.error", '%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/ws/tables/x"),
        ):
            assert routing.filter(kept) is True and kept.levelname == "INFO"
        # at --log-level debug the routing lines are shown, as DEBUG
        logging.getLogger("uvicorn.access").setLevel(logging.DEBUG)
        again = rec(
            "uvicorn.access", access, "127.0.0.1:5", "GET", "/api/tables/q3J9xW7a", "1.1", 503
        )
        assert routing.filter(again) is True and again.levelname == "DEBUG"
    finally:
        logging.getLogger("uvicorn.access").setLevel(logging.NOTSET)
        logging.getLogger("uvicorn.error").setLevel(logging.NOTSET)


def test_json_logs_name_the_table() -> None:
    fmt = JsonFormatter("2/3")

    def line(msg: str, *args: object, **extra: object) -> dict[str, object]:
        rec = logging.LogRecord("dragonlair.web", logging.INFO, __file__, 1, msg, args, None)
        for k, v in extra.items():
            setattr(rec, k, v)
        out: dict[str, object] = json.loads(fmt.format(rec))
        return out

    got = line("table %s: seat %d has a new token", "q3J9xW7a", 0)
    assert got["table"] == "q3J9xW7a" and got["process"] == "2/3"
    assert got["message"] == "table q3J9xW7a: seat 0 has a new token"
    got = line('%s - "%s %s HTTP/%s" %d', "1.2.3.4:5", "GET", "/ws/tables/Ab_-9x", "1.1", 101)
    assert got["table"] == "Ab_-9x"
    assert "table" not in line("storage sqlite:///x; resumed 3 tables")
    assert line("anything", table="zz")["table"] == "zz"


def test_shards_and_homes() -> None:
    assert parse_shard("2/3") == (2, 3)
    for bad in ("0/3", "4/3", "3", "a/b", "1/0", "-1/2"):
        with pytest.raises(ValueError, match="K/N"):
            parse_shard(bad)
    assert {home(f"t{i}", 3) for i in range(100)} == {1, 2, 3}


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--shard", "4/3", "--db", "postgresql://h/db"], "1 <= K <= N"),
        (["--shard", "two", "--db", "postgresql://h/db"], "a shard is K/N"),
        (["--shard", "1/2"], "PostgreSQL database"),
        (["--log-format", "xml"], "text or json"),
    ],
)
def test_bad_hosting_options(args: list[str], says: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert says in text, text
