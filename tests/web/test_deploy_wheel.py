"""docs/deploy.md's "Installing", followed on loopback from a wheel built from this source:
the wheel installed with the ``web`` extra into a fresh venv (as ``/opt/dragonlair/.venv``),
the database and its role made as the doc makes them, the seal key made by the doc's own
command, and the server started with the systemd unit's command line and the environment
file's settings; the schema is created once, and an action is played through it.

What the machine cannot do here is left out: no root-owned folders, no system user, no
systemd (the unit's command line runs as this user), no nginx or certificate (the hosting
tests run the shipped nginx files). The venv sees this environment's packages (a ``.pth``
file naming its site-packages), so pip installs the wheel alone, with ``--no-index``: the
``web`` extra's requirements must still be met, or pip fails looking for them, and the
wheel's own files (the migrations, the static files, the catalogs) are the only
dragonlair the server imports."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from dragonlair.web.migrations import head
from dragonlair.web.store import normalize_url
from tests.web.conftest import PostgresCluster, _pg_bin
from tests.web.deploykit import environment, exec_start
from tests.web.serverkit import SeatClient, create_table, free_port

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "deploy.md"

pytestmark = [pytest.mark.slow]


def _installing() -> str:
    """The shell block of deploy.md's "Installing"."""
    section = DOC.read_text().split("## Installing", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```sh\n(.*?)```", section, re.S)
    assert found is not None, "deploy.md's Installing has no shell block"
    return found.group(1)


def _step(block: str, starts: str) -> str:
    """The doc's command beginning with ``starts`` (with its continuation lines)."""
    lines = block.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(starts):
            out = [line]
            while out[-1].endswith("\\"):
                i += 1
                out.append(lines[i])
            return "\n".join(out)
    raise AssertionError(f"deploy.md's Installing no longer has a step {starts!r}")


def _run(
    argv: list[str], timeout: float, cwd: Path | None = None, env: dict[str, str] | None = None
) -> str:
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env, check=False
    )
    assert done.returncode == 0, (argv, done.stdout, done.stderr)
    return done.stdout


@pytest.mark.timeout(420)
def test_the_wheel_installs_and_serves_as_the_unit_runs_it(tmp_path: Path) -> None:
    block = _installing()
    opt = tmp_path / "opt" / "dragonlair" / ".venv"  # the doc's /opt/dragonlair/.venv
    etc = tmp_path / "etc" / "dragonlair"  # the doc's /etc/dragonlair

    # the wheel, built from a copy of the source (nothing written into the checkout); the
    # doc builds it with `python -m build --wheel`, which is pip's wheel build in a venv
    # of its own; this one uses the test's setuptools instead of installing one
    assert "-m build --wheel" in _step(block, "/tmp/build/bin/python -m build")
    source = tmp_path / "source"
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so", "*.pyc")
    for folder in ("src", "build_backend"):
        shutil.copytree(ROOT / folder, source / folder, ignore=skip)
    for name in ("pyproject.toml", "setup.py", "README.md", "MANIFEST.in"):
        shutil.copy2(ROOT / name, source / name)
    dist = tmp_path / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    build = ["wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist)]
    _run([*pip, *build, str(source)], timeout=240)
    (wheel,) = dist.glob("dragonlair-*-py3-none-any.whl")

    # the venv and the doc's install line, the wheel with the web extra
    _step(block, "python3 -m venv /opt/dragonlair/.venv")
    install = _step(block, "/opt/dragonlair/.venv/bin/pip install")
    assert '"$(ls dist/dragonlair-*.whl)[web]"' in install, install
    _run(
        [getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", str(opt)],
        timeout=60,
    )
    python = opt / "bin" / "python"
    purelib = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            timeout=60,
        ).strip()
    )
    (purelib / "dragonlair-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run(
        [*pip, "--python", str(python), "install", "-q", "--no-index", f"{wheel}[web]"], timeout=120
    )
    imported = _run(
        [str(python), "-c", "import dragonlair.web; print(dragonlair.web.__file__)"],
        timeout=60, cwd=tmp_path, env={"PATH": os.environ.get("PATH", "")},
    )  # fmt: skip
    assert Path(imported.strip()).is_relative_to(purelib), imported  # the wheel's, not src/

    # the database and its role, as the doc makes them (here on the test's own cluster,
    # whose socket folder and port stand for Debian's /var/run/postgresql)
    pg = PostgresCluster()
    try:
        at = ["-h", str(pg.dir), "-p", str(pg.port), "-U", "postgres"]
        for doc_step, binary in (
            ("runuser -u postgres -- createuser dragonlair", ["createuser", *at, "dragonlair"]),
            (
                "runuser -u postgres -- createdb -O dragonlair dragonlair",
                ["createdb", *at, "-O", "dragonlair", "dragonlair"],
            ),
        ):
            _step(block, doc_step)
            found = _pg_bin(binary[0])
            assert found is not None, f"{binary[0]} (PostgreSQL's client) is not installed"
            _run([found, *binary[1:]], timeout=60)

        # the settings, and the seal key made by the doc's own command
        etc.mkdir(parents=True)
        make_key = (
            _step(block, "key=$(/opt/dragonlair/.venv/bin/python")
            .replace("/opt/dragonlair/.venv", str(opt))
            .replace("/etc/dragonlair", str(etc))
            .replace(" -o dragonlair", "")  # no such user here: the key is this user's
        )
        _run(["bash", "-c", make_key], timeout=60)
        key = etc / "seal.key"
        assert len(key.read_text().strip()) == 44, "the seal key is not a Fernet key"
        env = environment()
        shipped = make_url(env["DRAGONLAIR_DB"])
        url = shipped.update_query_dict({"host": str(pg.dir), "port": str(pg.port)})
        env |= {
            "DRAGONLAIR_DB": url.render_as_string(hide_password=False),
            "DRAGONLAIR_SEAL_KEY": str(key),
            "DRAGONLAIR_PROCESSES": "1",  # one process: the schema is made by it
        }

        # the unit's command line for instance 1, with the environment file's settings
        # as its whole environment (as systemd gives it), on a free port instead of 8001
        argv = exec_start("1", env)
        assert argv[0] == "/opt/dragonlair/.venv/bin/dragonlair", argv
        argv[0] = str(opt / "bin" / "dragonlair")
        port = free_port()
        assert argv[argv.index("--port") + 1] == "8001", argv
        argv[argv.index("--port") + 1] = str(port)
        log = (tmp_path / "serve.log").open("wb")
        server = subprocess.Popen(
            argv,
            cwd=tmp_path,
            env={"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), **env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            http = f"http://127.0.0.1:{port}"
            _wait_ready(http, server, tmp_path / "serve.log")
            engine = create_engine(normalize_url(env["DRAGONLAIR_DB"]))
            try:
                with engine.connect() as conn:
                    stored = conn.execute(text("SELECT version_num FROM alembic_version")).all()
            finally:
                engine.dispose()
            assert stored == [(head(),)], stored  # the schema, made once, at the head
            page = httpx.get(f"{http}/", timeout=30)
            # the front end is in the wheel (without it the page is a placeholder)
            assert (
                page.status_code == 200
                and '<link rel="stylesheet" href="/static/app.css">' in page.text
            )
            assert httpx.get(f"{http}/static/app.css", timeout=30).status_code == 200
            asyncio.run(_play(http))
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(30)
            log.close()
        # stopped as systemd stops it (its KillSignal, which systemd counts as a clean end)
        stopped = (tmp_path / "serve.log").read_text()
        assert server.returncode in (0, -signal.SIGTERM), stopped[-3000:]
        assert "Application shutdown complete" in stopped, stopped[-3000:]
    finally:
        pg.stop()


def _wait_ready(http: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """Until /api/ready answers, the server exits (failing with its log) or 120 s pass."""
    deadline = 120.0
    with httpx.Client(timeout=2) as client:
        for _ in range(int(deadline / 0.25)):
            if server.poll() is not None:
                raise AssertionError(f"the server exited: {log.read_text()[-3000:]}")
            try:
                if client.get(f"{http}/api/ready").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(0.25)  # a pause that ends at once if the server exits
    raise AssertionError(f"not ready within {deadline:g} s: {log.read_text()[-3000:]}")


async def _play(http: str) -> None:
    """A practice table, a bot in the first seat: the person is asked only once the bot
    (in a worker process the wheel's server started) has moved; their action is played."""
    created = await asyncio.to_thread(
        create_table,
        http,
        game="dragon-stripes",
        players=2,
        seats=[{"type": "bot", "level": "heuristic"}, {"type": "human"}],
        listed=False,
        undo=False,  # a decision is played at once, not held for confirmation
        hints=False,
    )
    person = next(p for p in created["seats"] if p.get("token"))
    c = await SeatClient.open(
        "ws" + http[4:], created["table"]["id"], person["token"], person["seat"]
    )
    try:
        await c.wait(lambda: bool(c.latest.get("legal")), "the person to be asked")
        st = c.latest
        assert st["move"] >= 1, st  # the bot moved first
        await c.act(st["move"], st["legal"][0], ref=1)
        await c.wait(
            lambda: any(s.get("ref") == 1 for s in c.states) or bool(c.errors), "the answer"
        )
        assert not c.errors, c.errors
        answer = next(s for s in c.states if s.get("ref") == 1)
        assert answer["move"] == st["move"] + 1 and not answer.get("held"), answer
    finally:
        await c.close()
