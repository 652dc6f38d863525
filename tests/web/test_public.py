"""What a stranger can read or open: the health answer tells health only (no table, not
even an unlisted one's id), readiness beside it, pages answered to HEAD, FastAPI's /docs
pages off, and WebSockets opened only from this server's own pages (the Origin check)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from dragonlair.web import create_app
from tests.web.serverkit import LiveServer, config


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config(sqlite_url, public_url="https://games.example"))) as c:
        yield c


def _unlisted(c: TestClient) -> dict[str, str]:
    r = c.post(
        "/api/tables",
        json={
            "game": "pebble-auction",
            "players": 2,
            "seats": [{"type": "human"}, {"type": "open"}],
            "listed": False,
        },
    )
    assert r.status_code == 201, r.text
    return {"id": r.json()["table"]["id"], "token": r.json()["seats"][0]["token"]}


def test_health_tells_health_only(web: TestClient) -> None:
    t = _unlisted(web)
    for path in ("/api/health", "/api/ready"):
        r = web.get(path)
        assert r.status_code == 200
        assert t["id"] not in r.text
    assert web.get("/api/health").json() == {"ok": True}
    assert web.get("/api/ready").json() == {"ready": True}
    # the operator's per-process view is elsewhere (the proxy refuses it): the tables it
    # holds, a waiting one once someone came to it
    assert web.get("/status").json()["owns"] == []
    assert web.get(f"/api/tables/{t['id']}").status_code == 200
    assert web.get("/status").json()["owns"] == [t["id"]]


def test_docs_pages_are_off(web: TestClient) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert web.get(path).status_code == 404
    assert web.get("/openapi.json").json()["paths"]["/api/tables"]


def test_websockets_only_from_this_servers_pages(web: TestClient) -> None:
    t = _unlisted(web)
    for origin in (
        "https://evil.example",
        "null",
        "https://games.example.evil.example",
        "http://testserver.evil.example",
    ):
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            web.websocket_connect(f"/ws/tables/{t['id']}", headers={"origin": origin}),
        ):
            pass
        assert denied.value.status_code == 403
        assert denied.value.json()["error"]["code"] == "bad_origin"
    # this server's pages (the host asked, or the public URL behind a proxy) and clients
    # that are not browsers (no Origin) connect
    for headers in ({"origin": "http://testserver"}, {"origin": "https://games.example"}, {}):
        with web.websocket_connect(f"/ws/tables/{t['id']}", headers=headers) as ws:
            ws.send_json({"type": "hello", "token": t["token"], "since": 0})
            msg = ws.receive_json()
            while msg["type"] != "state":
                msg = ws.receive_json()


def test_head_is_answered(sqlite_url: str) -> None:
    """HEAD on the pages (monitors, link checkers), over a real HTTP server."""
    server = LiveServer(config(sqlite_url))
    try:
        for path in ("/", "/play/abc", "/api/health", "/api/ready"):
            got = httpx.head(f"{server.http}{path}", timeout=30)
            assert got.status_code == 200, (path, got.status_code)
            assert got.content == b""
            full = httpx.get(f"{server.http}{path}", timeout=30)
            assert got.headers["content-type"] == full.headers["content-type"]
        assert httpx.head(f"{server.http}/no/such/page", timeout=30).status_code == 404
    finally:
        server.stop()


def _deep_positions() -> list[str]:
    n = 1500  # a few kilobytes, past Python's recursion limit: a traceback per request
    return [
        "title = 'x'\na = " + "[" * n + "]" * n,  # TOML arrays
        "a = " + "{b = " * n + "1" + "}" * n,  # TOML inline tables
        "a" + ".a" * n + " = 1",  # TOML dotted keys: deep without a bracket
        '{"a": ' + "[" * n + "]" * n + "}",  # JSON
    ]


@pytest.mark.parametrize("text", _deep_positions(), ids=["toml", "inline", "dotted", "json"])
def test_deep_positions_are_refused_before_parsing(
    web: TestClient, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    r = web.post(
        "/api/tables",
        json={"game": "dragon-stripes", "players": 3, "position": text},
    )
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == "bad_position"
    assert "deep" in r.json()["error"]["message"]
    assert "Traceback" not in caplog.text
    assert web.get("/status").json()["tables"] == 0


def test_bracket_depth_skips_strings_and_comments() -> None:
    from dragonlair.web.security import _bracket_depth, read_position

    assert _bracket_depth("a = [[1], {b = 2}]", 16) == 2
    assert _bracket_depth('a = \'[[[[[[\' # [[[[[[\nb = "]]\\"[[["', 2) == 0
    assert _bracket_depth('a = """\n[[[[\n"""\nb = [1]', 2) == 1
    assert _bracket_depth("[" * 17, 16) is None
    assert read_position('{"a": [[1]]}', 100) == {"a": [[1]]}
