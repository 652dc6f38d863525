"""The sign-in limits are counted in the store, so two server processes on one database
share them: wrong passwords spread over both lock the pair on both (and after a restart),
an address's attempts and sign-ups spent on one are spent on the other, and still a
stranger locks only their own address out, never the account's player. Two app instances
on one store stand for the two processes (each with its own memory, as two processes)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from dragonlair.web import create_app
from dragonlair.web.accounts import SignInGuard, limits
from dragonlair.web.accounts.schema import sign_in_events_t
from dragonlair.web.protocol import ProtocolError
from tests.web.serverkit import config
from tests.web.test_accounts import PASSWORD, post, sign_up


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    # on PostgreSQL every process of one database runs as a shard (docs/server.md)
    shards = ("1/2", "2/2") if db_url.startswith("postgresql") else (None, None)
    with (
        TestClient(create_app(config(db_url, shard=shards[0]))) as a,
        TestClient(create_app(config(db_url, shard=shards[1]))) as b,
    ):
        assert a.app is not b.app
        yield a, b


def at(c: TestClient, address: str) -> TestClient:
    """A browser at a client address of its own, on the server process ``c``."""
    return TestClient(c.app, client=(address, 40000))


def sign_in(c: TestClient, name: str, password: str) -> Any:
    return post(c, "/api/account/signin", {"name": name, "password": password})


def code(r: Any) -> str:
    out: str = r.json()["error"]["code"]
    return out


@pytest.mark.timeout(120)
def test_wrong_passwords_over_two_processes_lock_the_pair_on_both_and_after_a_restart(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    sign_up(a, "Owner")
    on_a, on_b = at(a, "198.51.100.2"), at(b, "198.51.100.2")
    for i in range(limits.FAILURES):  # alternately: neither process sees them all
        assert sign_in((on_a, on_b)[i % 2], "Owner", "a wrong guess!").status_code == 401
    for c in (on_a, on_b):  # even the right password, from there, on either process
        r = sign_in(c, "Owner", PASSWORD)
        assert r.status_code == 429 and code(r) == "locked", r.text
        assert "elsewhere is not affected" in r.json()["error"]["message"]
        assert "dl_session" not in r.headers.get("set-cookie", "")
    # a stranger cannot lock the player out: from their own address, on either process
    assert sign_in(at(a, "192.0.2.60"), "Owner", PASSWORD).status_code == 200
    assert sign_in(at(b, "192.0.2.61"), "owner", PASSWORD).status_code == 200
    # another name from the locked address is not locked
    sign_up(at(b, "192.0.2.62"), "Other")
    assert sign_in(on_b, "Other", PASSWORD).status_code == 200
    # a guard with nothing in its memory (a process started later, a restart) holds the
    # same lock
    fresh = SignInGuard(a.app.state.accounts.engine)  # type: ignore[attr-defined]
    with pytest.raises(ProtocolError) as refused:
        fresh.before_sign_in("198.51.100.2", "owner")
    assert refused.value.code == "locked"


@pytest.mark.timeout(120)
def test_an_addresss_budgets_are_spent_on_both_processes(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    sign_up(a, "Victim")
    on = (at(a, "198.51.100.1"), at(b, "198.51.100.1"))
    for i in range(limits.ATTEMPTS):
        r = sign_in(on[i % 2], f"user{i}", f"leaked password {i}")
        assert r.status_code == 401 and code(r) == "bad_credentials", (i, r.text)
    for c in on:
        r = sign_in(c, "Victim", PASSWORD)
        assert r.status_code == 429 and code(r) == "rate_limited"
        assert f"at most {limits.ATTEMPTS}" in r.json()["error"]["message"]
    # the passkeys' sign-in counts against the same budget
    r = post(on[1], "/api/account/passkeys/signin/options")
    assert r.status_code == 429 and code(r) == "rate_limited"
    # the player, from their own address, is not affected
    assert sign_in(at(b, "192.0.2.50"), "Victim", PASSWORD).status_code == 200
    # sign-ups: the hour's budget spent over both processes
    new = (at(a, "198.51.100.9"), at(b, "198.51.100.9"))
    for i in range(limits.SIGNUPS):
        r = post(new[i % 2], "/api/account/signup", {"name": "Victim", "password": PASSWORD})
        assert r.status_code == 409 and code(r) == "name_taken"
    for c, name in zip(new, ("Fresh One", "Fresh Two"), strict=True):
        r = post(c, "/api/account/signup", {"name": name, "password": PASSWORD})
        assert r.status_code == 429 and code(r) == "rate_limited"


def test_racing_guards_let_no_more_than_the_budget_through(sqlite_url: str) -> None:
    """Two guards on one store, many attempts at once from one address: no more pass than
    the budget, and a refused attempt is not counted."""
    with TestClient(create_app(config(sqlite_url))) as c:
        engine = c.app.state.accounts.engine  # type: ignore[attr-defined]
        guards = [SignInGuard(engine, attempts=5), SignInGuard(engine, attempts=5)]

        def attempt(i: int) -> bool:
            try:
                guards[i % 2].before_sign_in("198.51.100.5", f"name{i}")
            except ProtocolError as e:
                assert e.code == "rate_limited"
                return False
            return True

        with ThreadPoolExecutor(8) as pool:
            passed = sum(pool.map(attempt, range(24)))
        assert passed <= 5
        with engine.connect() as conn:
            counted = conn.execute(select(func.count()).select_from(sign_in_events_t)).scalar_one()
        assert counted == passed
        # rows older than the longest window are deleted by the next check (here every
        # row: the windows are empty), and only its own attempt is left
        SignInGuard(engine, window=0.0, signup_window=0.0).before_sign_in("192.0.2.1", "x")
        with engine.connect() as conn:
            left = conn.execute(select(sign_in_events_t.c.kind, sign_in_events_t.c.at)).all()
        assert [kind for kind, _ in left] == ["attempt"] and left[0].at <= time.time()
