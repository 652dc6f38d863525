"""``dragonlair serve`` refuses bad options before starting anything."""

from __future__ import annotations

import re
from ipaddress import ip_network
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonlair.cli import app


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--db", "mysql://h/db"], "unsupported database"),
        (["--db", "sqlite://"], "must be a file"),
        (["--ws-rate", "lots"], "a rate is a count per period"),
        (["--http-rate", "0/second"], "a rate is a count per period"),
        (["--bot-pool", "gpu"], "'thread' or 'process'"),
        (["--sqlite-sync", "sometimes"], "FULL, NORMAL or EXTRA"),
        (["--log-level", "chatty"], "debug, info, warning or error"),
        (["--port", "70000"], "65535"),
        (["--deadline", "0"], "0"),
        (["--forwarded-allow-ips", "10.0.0.1,not-an-address"], "not an address or network"),
        (["--bot-max-seconds", "0"], "Invalid value for '--bot-max-seconds'"),
        (["--bot-max-iterations", "0"], "Invalid value for '--bot-max-iterations'"),
        (["--db-lock-timeout", "0"], "Invalid value for '--db-lock-timeout'"),
        (["--waiting-ttl", "0"], "Invalid value for '--waiting-ttl'"),
        (
            ["--max-connections-per-address", "0"],
            "Invalid value for '--max-connections-per-address'",
        ),
        (["--limit-concurrency", "0"], "Invalid value for '--limit-concurrency'"),
        (["--max-websockets", "1000"], "must be below --limit-concurrency"),
        (["--ws-idle-timeout", "0"], "Invalid value for '--ws-idle-timeout'"),
        (["--admin-token", "short"], "at least 16 characters"),
        (["--admin-token", " " * 20], "at least 16 characters"),
        (["--log-format", "xml"], "text or json"),
        (["--shard", "3/2"], "1 <= K <= N"),
        (["--shard", "1/2"], "one PostgreSQL database"),
    ],
)
def test_bad_serve_options(args: list[str], says: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert says in text


def test_serve_hands_its_settings_to_uvicorn(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import uvicorn

    seen: dict[str, Any] = {}

    def run(self: uvicorn.Server) -> None:
        seen["config"] = self.config

    monkeypatch.setattr(uvicorn.Server, "run", run)
    # uvicorn would apply serve's log configuration with logging.config.dictConfig, which
    # closes every handler in the process, pytest's own among them (its later writes then
    # fail with "I/O operation on closed file"); the configuration is checked instead
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    args = ["serve", "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}", "--header-timeout", "3"]
    args += ["--idle-timeout", "4", "--limit-concurrency", "200", "--ws-idle-timeout", "90"]
    args += ["--forwarded-allow-ips", "10.1.0.0/16, 10.2.0.5", "--bot-max-seconds", "1.5"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    uc = seen["config"]
    assert uc.proxy_headers is True and uc.forwarded_allow_ips == "10.1.0.0/16,10.2.0.5"
    assert uc.timeout_keep_alive == 4 and uc.limit_concurrency <= 200
    assert uc.http.header_timeout == 3
    assert uc.http.proxies == (ip_network("10.1.0.0/16"), ip_network("10.2.0.5"))
    cfg = uc.app.state.config
    assert cfg.bot_max_seconds == 1.5 and cfg.header_timeout == 3
    assert cfg.ws_idle_timeout == 90
    assert uc.app.state.limits.cap == 150  # three quarters of --limit-concurrency
    # routing answers (503 not_owner on a table's path) at debug
    assert "routing" in uc.log_config["loggers"]["uvicorn.access"]["filters"]
    assert "routing" in uc.log_config["loggers"]["uvicorn.error"]["filters"]
    # our own log lines go where uvicorn's go
    assert uc.log_config["loggers"]["dragonlair"] == {
        "handlers": ["default"],
        "level": "INFO",
        "propagate": False,
    }


def test_an_unusable_seal_key_is_refused_before_starting(tmp_path) -> None:  # type: ignore[no-untyped-def]
    key = tmp_path / "seal.key"
    key.write_text("not a key\n")
    args = ["serve", "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}", "--seal-key", str(key)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "not a Fernet key" in " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
