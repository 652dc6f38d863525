"""Pages a person opens by address: an unknown one gets an HTML page with a way back to the
lobby (the API keeps its JSON errors); ``make play``'s port check finds a port at once."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_page_is_html_with_a_way_back(client: TestClient) -> None:
    for path in ("/nothing-here", "/play", "/tables/abc/extra"):
        r = client.get(path)
        assert r.status_code == 404
        assert r.headers["content-type"].startswith("text/html")
        assert 'href="/"' in r.text and "Back to the lobby" in r.text
    # the API, its WebSocket and its files keep answering in their own way
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert client.get("/static/nope.js").status_code == 404
    assert "Back to the lobby" not in client.get("/static/nope.js").text


def port_check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "free_port.py"), *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_make_plays_port_check_reuses_a_port_just_closed() -> None:
    # a server that just stopped leaves its port in TIME_WAIT: the check still takes it
    with socket.socket() as srv:
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", 0))
        srv.listen()
        port = srv.getsockname()[1]
        cli = socket.create_connection(("127.0.0.1", port))
        conn, _ = srv.accept()
        conn.close()  # the server side closes first: its end waits in TIME_WAIT
        cli.close()
    r = port_check(str(port))
    assert r.returncode == 0 and r.stdout.strip() == str(port), r.stderr
    # a port in use gives another one, said so, and never an empty one
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        r = port_check(str(taken))
        assert r.returncode == 0 and r.stdout.strip().isdigit()
        assert int(r.stdout) != taken and "busy" in r.stderr
    r = port_check("eighty")
    assert r.returncode == 1 and r.stdout == "" and "PORT must be a number" in r.stderr
