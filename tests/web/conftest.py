"""Fixtures for the server tests: storage on SQLite, and on PostgreSQL too in the modules
whose point is the database (BOTH_DATABASES, below); the app in-process (TestClient) or
served by uvicorn on a loopback port (real WebSocket clients).

PostgreSQL: a throw-away cluster is started once per test session on a free loopback port
(with ``initdb``/``pg_ctl`` from PATH or Debian's /usr/lib/postgresql/*/bin; as root they
run as the ``postgres`` user), and every test gets a fresh schema in it (cheaper than a
database: no 7 MB copy of a template per test). Set DRAGONLAIR_TEST_POSTGRES to a database
URL (whose user may create schemas) to use that instead.
Without PostgreSQL the PostgreSQL half is skipped, except under CI, where it fails.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from dragonlair.web import create_app  # noqa: E402
from tests.web.serverkit import LiveServer, config, free_port  # noqa: E402


def _pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for path in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return path
    return None


class PostgresCluster:
    """A throw-away PostgreSQL server on a loopback port."""

    def __init__(self, fsync: bool = False) -> None:
        initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise FileNotFoundError("initdb and pg_ctl (PostgreSQL server) are not installed")
        self.pg_ctl = pg_ctl
        self.dir = Path(tempfile.mkdtemp(prefix="dragonlair-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            user = "postgres"
            try:
                pw = pwd.getpwnam(user)
            except KeyError:
                user, pw = "nobody", pwd.getpwnam("nobody")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            self.prefix = ["runuser", "-u", user, "--"]
        subprocess.run(
            [*self.prefix, initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-N"],
            check=True,
            capture_output=True,
        )
        opts = f"{'' if fsync else '-F '}-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        log = str(self.dir / "log")
        subprocess.run(
            [*self.prefix, pg_ctl, "-D", str(self.data), "-l", log, "-o", opts, "-w", "start"],
            check=True,
            capture_output=True,
        )
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self.stopped = False
        atexit.register(self.stop)  # even if the run is interrupted

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        subprocess.run(
            [*self.prefix, self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.dir, ignore_errors=True)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """The URL of a PostgreSQL database that tests may create schemas in."""
    given = os.environ.get("DRAGONLAIR_TEST_POSTGRES")
    if given:
        yield given.rstrip("/")
        return
    # a run ended by SIGTERM (a timeout) unwinds like Ctrl-C, so the cluster is stopped
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        cluster = PostgresCluster()
    except (FileNotFoundError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", b"") or b""
        msg = f"no PostgreSQL to test against: {e} {detail.decode(errors='replace')}"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    try:
        yield cluster.url
    finally:
        cluster.stop()


def fresh_database(database: str) -> str:
    """A URL whose connections see only a new, empty schema of ``database``."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in database else "?"
    return f"{database}{sep}options=-csearch_path%3D{name}"


# The modules whose tests run on both stores: those whose point is the database (what is
# stored and read back, its transactions, locks and failures, what several processes share
# through it, its queries). The rest play, chat, seat and refuse through the same store code
# on SQLite only: the PostgreSQL half of those played the same games again through the same
# calls (the store's SQL is the same for both, but for the dialect's own statements, which
# these modules test). The PostgreSQL half runs a real PostgreSQL server: end to end.
BOTH_DATABASES = {
    "test_accounts",  # accounts, sessions and seats held by an account
    "test_accounts_limits_shared",  # sign-in limits counted in the store, two processes
    "test_concurrency",  # many writers, and storage holding exactly what the tables show
    "test_fairness",  # sealed seeds in the store, a lost key
    "test_hardening",  # a locked database
    "test_profiles",  # the profile and leaderboard queries
    "test_recovery",  # a killed server resumed from the store
    "test_storage",  # the store itself
    "test_waiting_shared",  # the per-address cap on waiting tables, two processes
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_url" in metafunc.fixturenames:
        kinds: list[Any] = ["sqlite"]
        if metafunc.module.__name__.rsplit(".", 1)[-1] in BOTH_DATABASES:
            kinds.append(pytest.param("postgresql", marks=pytest.mark.slow))
        metafunc.parametrize("db_url", kinds, indirect=True)


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh, empty database: an SQLite file (its seal key next to it), or a new
    PostgreSQL database (its seal key in the test's directory)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    monkeypatch.setenv("DRAGONLAIR_SEAL_KEY", str(tmp_path / "seal.key"))
    server = request.getfixturevalue("postgres")
    return fresh_database(server)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """The app in-process with TestClient, on each storage."""
    with TestClient(create_app(config(db_url))) as c:
        yield c


@pytest.fixture
def live(db_url: str) -> Iterator[LiveServer]:
    """A real server on a loopback port, on each storage."""
    server = LiveServer(config(db_url))
    try:
        yield server
    finally:
        server.stop()
