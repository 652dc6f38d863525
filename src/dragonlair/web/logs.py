"""Structured logs: ``dragonlair serve --log-format json`` writes one JSON object a line,
for a log collector (journald, Loki, ...) to index:

```json
{"time": "2026-12-01T11:52:03.114Z", "level": "INFO", "logger": "dragonlair.web",
 "message": "table q3J9xW7a: seat 0 has a new token", "table": "q3J9xW7a", "process": "2/3"}
```

An access line (logger ``uvicorn.access``) also carries its parts as fields: ``client``,
``method``, ``path``, ``http`` and ``status`` (a number), so a collector can count and
filter answers without parsing the message.

``table`` is the table a line is about: the ``table`` attribute a call passes in
``extra``, else the id in a ``table <id>`` phrase of the message, else the one in an access
line's path (``/api/tables/<id>``, ``/ws/tables/<id>``). No token is ever logged: tokens
travel only in WebSocket messages and after the ``#`` of links, which no request line
carries (the recovery test reads a whole log to check).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
import time
from typing import Any

TABLE_IN_TEXT = re.compile(r"\btables? ([A-Za-z0-9_-]{6,32})\b")
TABLE_IN_PATH = re.compile(r"/(?:api|ws)/tables/([A-Za-z0-9_-]{1,32})")


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ms), level, logger, message, table, process."""

    def __init__(self, process_name: str | None = None) -> None:
        super().__init__()
        self.process_name = process_name

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": message,
        }
        table = getattr(record, "table", None)
        if table is None:
            found = TABLE_IN_PATH.search(message) or TABLE_IN_TEXT.search(message)
            table = found.group(1) if found else None
        if table is not None:
            out["table"] = table
        if self.process_name is not None:
            out["process"] = self.process_name
        if record.name == "uvicorn.access" and isinstance(record.args, tuple):
            out.update(_access_fields(record.args))
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def _access_fields(args: tuple[Any, ...]) -> dict[str, Any]:
    """An access line's parts as fields of their own (uvicorn passes client, method, path,
    HTTP version and status as the record's arguments), for a collector to filter on."""
    if len(args) != 5:
        return {}
    client, method, path, version, status = args
    fields: dict[str, Any] = {"client": str(client), "method": str(method), "path": str(path)}
    fields["http"] = str(version)
    with contextlib.suppress(TypeError, ValueError):
        fields["status"] = int(status)
    return fields


def json_logging(log_config: dict[str, Any], process_name: str | None) -> dict[str, Any]:
    """uvicorn's logging configuration with every formatter writing JSON."""
    for name in list(log_config.get("formatters", {})):
        log_config["formatters"][name] = {
            "()": f"{__name__}.JsonFormatter",
            "process_name": process_name,
        }
    return log_config


class RoutingAtDebug(logging.Filter):
    """Routing noise down to DEBUG. With several processes behind the proxy, a request
    for a table reaches the process its id hashes to first, and one that does not own the
    table answers 503 ``not_owner`` so that the proxy tries the next: in steady state about
    half of the access lines were these. A 503 on a table's path (an access line, or a
    WebSocket handshake's line of ``uvicorn.error``) is logged at DEBUG (shown with
    ``--log-level debug``); a storage failure there has its own ERROR line
    (:data:`storage_outage`) and its count in ``/metrics``."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if not isinstance(args, tuple) or len(args) not in (3, 5) or args[-1] != 503:
            return True
        path = args[2] if len(args) == 5 else args[1]
        if not isinstance(path, str) or TABLE_IN_PATH.search(path) is None:
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def routing_at_debug(log_config: dict[str, Any]) -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RoutingAtDebug` on its access and
    error loggers."""
    log_config.setdefault("filters", {})["routing"] = {"()": f"{__name__}.RoutingAtDebug"}
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = log_config.setdefault("loggers", {}).setdefault(name, {})
        logger["filters"] = [*logger.get("filters", []), "routing"]
    return log_config


class Outage:
    """One log line per outage of something the server depends on (storage), not one per
    failed request: the first failure is an ERROR naming the cause, the ones after it are
    counted (at DEBUG), and the first success after them is one INFO line saying how long
    it lasted and how many failed meanwhile. Thread-safe (storage's writer thread and the
    event loop both report)."""

    def __init__(self, what: str, logger: logging.Logger) -> None:
        self.what = what
        self.log = logger
        self._lock = threading.Lock()
        self.since: float | None = None  # when the current outage began (None: none)
        self.failures = 0

    def failed(self, detail: str, error: object) -> None:
        """Something failed: ``detail`` (what was being done) and ``error`` (why)."""
        with self._lock:
            first = self.since is None
            if first:
                self.since = time.monotonic()
                self.failures = 0
            self.failures += 1
        if first:
            self.log.error(
                "%s is failing (%s: %s); further failures are counted until it recovers",
                self.what,
                detail,
                error,
            )
        else:
            self.log.debug("%s still failing (%s: %s)", self.what, detail, error)

    def ok(self) -> None:
        """Something succeeded: the end of the outage, if there was one."""
        if self.since is None:  # the common case: no lock taken
            return
        with self._lock:
            since, failures = self.since, self.failures
            self.since, self.failures = None, 0
        if since is not None:
            self.log.info(
                "%s is back after %.1f s; %d operations failed meanwhile",
                self.what,
                time.monotonic() - since,
                failures,
            )


# the server's storage: its writer thread, the tables and the lobby report to it
storage_outage = Outage("storage", logging.getLogger("dragonlair.web"))
