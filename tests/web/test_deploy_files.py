"""The files in deploy/ as docs/deploy.md installs them: the database URL of the shipped
environment file works with Debian's PostgreSQL, whose pg_hba.conf lets a local role in
without a password only over the Unix socket (``local all all peer``; TCP to 127.0.0.1
asks for a password)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from dragonlair.web.store import Store
from tests.web.conftest import PostgresCluster
from tests.web.deploykit import ENV_FILE, environment, exec_start


def shipped(name: str) -> str:
    found = environment().get(name)
    assert found is not None, f"{name} is not in {ENV_FILE}"
    return found


def test_the_shipped_database_url_goes_through_the_unix_socket() -> None:
    url = make_url(shipped("DRAGONLAIR_DB"))
    assert url.host is None and url.password is None, url
    assert str(url.query["host"]).startswith("/"), url  # the socket's folder
    assert url.username == "dragonlair" and url.database == "dragonlair"


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_url_of_that_form_creates_the_schema_and_serves(tmp_path: Path) -> None:
    pg = PostgresCluster()
    try:
        form = make_url(shipped("DRAGONLAIR_DB"))
        # the same form, pointed at this run's server: its socket folder and port
        url = form.set(username="postgres", database="postgres").update_query_dict(
            {"host": str(pg.dir), "port": str(pg.port)}
        )
        store = Store(url.render_as_string(hide_password=False), "NORMAL", None, 5.0)
        try:
            assert store.load("nothing") is None
        finally:
            store.close()
    finally:
        pg.stop()


def test_the_per_address_limits_come_from_the_environment_file(tmp_path: Path) -> None:
    """The unit passes no per-address limits: ``serve`` reads them from the environment
    file, whose values are sized for players behind one NAT address and are valid."""
    from typer.testing import CliRunner

    from dragonlair.cli import app as cli_app
    from dragonlair.web.security import parse_rate

    assert int(shipped("DRAGONLAIR_MAX_CONNECTIONS_PER_ADDRESS")) >= 512
    count, _per = parse_rate(shipped("DRAGONLAIR_HTTP_RATE"))
    assert count >= 1000
    runner = CliRunner()
    db = f"sqlite:///{tmp_path}/x.sqlite3"
    for name, bad, says in (
        ("DRAGONLAIR_HTTP_RATE", "lots", "--http-rate"),
        ("DRAGONLAIR_MAX_CONNECTIONS_PER_ADDRESS", "0", "max-connections-per-address"),
    ):
        # a short admin token is refused after the limits: never a server started here
        args = ["serve", "--db", db, "--admin-token", "short"]
        r = runner.invoke(cli_app, args, env={"COLUMNS": "200", name: bad})
        assert r.exit_code == 2 and says in r.output, (name, r.output)


def test_the_units_command_line_is_one_serve_accepts() -> None:
    """The unit's ExecStart, as systemd expands it for instance 2 with the environment
    file's values, parses as ``dragonlair serve`` options (a renamed or removed option,
    or a value of the wrong type, would stop every process at its start)."""
    import typer

    from dragonlair.cli import app as cli_app

    argv = exec_start("2", environment())  # every variable the unit uses is in the file
    assert argv[0] == "/opt/dragonlair/.venv/bin/dragonlair" and argv[1] == "serve", argv
    group = typer.main.get_command(cli_app)
    serve = group.commands["serve"]  # type: ignore[attr-defined]
    ctx = serve.make_context("serve", argv[2:], resilient_parsing=False)
    assert ctx.params["port"] == 8002 and ctx.params["shard"] == "2/3", ctx.params
    assert ctx.params["db"] == shipped("DRAGONLAIR_DB")
