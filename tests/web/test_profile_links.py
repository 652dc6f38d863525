"""A seat an account plays names that account (``profile`` in the seat's public info), so
the pages link its name to /players/{name}: at the table, in the lobby's listing, after a
restart (read back with the seat), once a guest seat is claimed; never for a guest, a bot,
an open seat, or a deleted account."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dragonlair.web import create_app
from tests.web.conftest import fresh_database
from tests.web.serverkit import config
from tests.web.test_accounts import PASSWORD, post, sign_up


def profiles(info: dict[str, Any]) -> list[str | None]:
    return [s["profile"] for s in info["seats"]]


def listed(c: TestClient, table: str) -> dict[str, Any]:
    (info,) = [t for t in c.get("/api/tables").json() if t["id"] == table]
    out: dict[str, Any] = info
    return out


def test_an_accounts_seat_names_its_profile_and_a_guests_does_not(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url))) as anna:
        sign_up(anna, "Anna Berg")
        r = post(
            anna,
            "/api/tables",
            {
                "game": "pebble-auction",
                "players": 4,
                "seats": [
                    {"type": "human", "name": "Anna"},  # a seat's name is its own
                    {"type": "open"},
                    {"type": "open"},
                    {"type": "bot", "level": "random"},
                ],
            },
        )
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
        assert profiles(r.json()["table"]) == ["Anna Berg", None, None, None]
        guest = TestClient(anna.app)
        r = post(guest, f"/api/tables/{table}/join", {"name": "Gus"})
        assert r.status_code == 200, r.text
        guest_token = r.json()["seat"]["token"]
        assert profiles(listed(anna, table)) == ["Anna Berg", None, None, None]
        bob = TestClient(anna.app)
        sign_up(bob, "Bob Stone")
        r = post(bob, f"/api/tables/{table}/join", {"name": "B."})
        assert r.status_code == 200, r.text
        info = anna.get(f"/api/tables/{table}").json()
        assert [s["name"] for s in info["seats"]][:3] == ["Anna", "Gus", "B."]
        assert profiles(info) == ["Anna Berg", None, "Bob Stone", None]
        assert profiles(listed(anna, table)) == ["Anna Berg", None, "Bob Stone", None]
        # the guest signs up at their seat: it names their new account from then on
        gus = TestClient(anna.app)
        sign_up(gus, "Gus Green", seats=[{"table": table, "token": guest_token}])
        assert profiles(anna.get(f"/api/tables/{table}").json()) == [
            "Anna Berg",
            "Gus Green",
            "Bob Stone",
            None,
        ]
        # a deleted account has no profile: its seat is "deleted player", plain text
        r = post(bob, "/api/account/delete", {"password": PASSWORD})
        assert r.status_code == 200, r.text
        info = anna.get(f"/api/tables/{table}").json()
        assert info["seats"][2]["name"] == "deleted player"
        assert profiles(info) == ["Anna Berg", "Gus Green", None, None]
    # started again: the seats are read back with their accounts' names
    with TestClient(create_app(config(sqlite_url))) as again:
        info = again.get(f"/api/tables/{table}").json()
        assert profiles(info) == ["Anna Berg", "Gus Green", None, None]


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_another_processs_listing_names_the_profiles_from_the_database(
    postgres: str, tmp_path: Path
) -> None:
    db = fresh_database(postgres)
    key = str(tmp_path / "seal.key")
    with (
        TestClient(create_app(config(db, shard="1/2", seal_key=key))) as a,
        TestClient(create_app(config(db, shard="2/2", seal_key=key))) as b,
    ):
        sign_up(a, "Anna Berg")
        r = post(
            a,
            "/api/tables",
            {
                "game": "pebble-auction",
                "players": 2,
                "seats": [{"type": "human", "name": "Anna"}, {"type": "open"}],
            },
        )
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
        assert a.get("/status").json()["owns"] == [table]
        # b owns nothing: its listing describes a's table from the database
        assert profiles(listed(b, table)) == ["Anna Berg", None]
