"""``GET /metrics``: the process's figures for Prometheus (``prometheus-client``).

- ``dragonlair_actions_total``: actions applied (committed, then sent);
- ``dragonlair_commits_total``, ``dragonlair_writes_total``: storage transactions, and the
  writes they held (group commit: writes per commit);
- ``dragonlair_action_seconds`` (histogram): an accepted action, from taking its table's
  lock to being sent, its commit included; ``dragonlair_commit_seconds``: its commit;
- ``dragonlair_action_reply_seconds`` (histogram): an action message, from its receipt to
  its reply (the update carrying its ``ref``, or the refusal) being queued for sending:
  the latency a client sees less the network, waits for the table's lock included (an
  answer in a reaction window waits for the window's end too);
- ``dragonlair_ws_opened_total``, ``dragonlair_ws_closed_total{code}``: WebSocket
  connections accepted, and closed after their hello by close code (1000 the client's
  or the server's normal close, 1001 going away, 1006 dropped, 1008 a limit, 1013 made
  room for a newcomer at the connection cap, 4408 idle);
  ``dragonlair_ws_refused_total{code}``: connections refused before or at their hello
  (4400 no hello, 4401 bad token, 4404 no such table, 4409 broken, 1008 per-address limits,
  1013 the process holds ``--max-websockets``);
  ``dragonlair_ws_messages_total{direction}``: messages received (``in``) and queued for
  sending (``out``);
- ``dragonlair_tables{status}``: tables this process holds, by status;
- ``dragonlair_connections``: open WebSocket connections (seats and spectators);
- ``dragonlair_bot_queue``, ``dragonlair_bots_thinking``: bot decisions and hints waiting
  for a worker, and being worked out; ``dragonlair_bot_wait_seconds{kind}`` (histogram):
  how long a ``bot`` decision or a ``hint`` waited for its worker, and
  ``dragonlair_bot_seconds{kind}`` how long it took from then to its answer;
- ``dragonlair_info{version, process}``: always 1; ``process`` is ``K/N`` with ``--shard``;
- ``dragonlair_http_responses_total{status}``: HTTP answers by status code (not counting
  WebSocket handshakes);
- ``dragonlair_errors_total{code}``: the lobby's error answers by error code
  (``storage_error``, ``not_owner``, ``rate_limited``, ``bad_position``...);
- ``dragonlair_ownership_events_total{event}``: several processes: tables ``taken`` (on a
  request or as orphans), ``dropped`` (another process took them), ``refused_writes``
  (fenced out), ``heartbeat_failures``; ``dragonlair_heartbeat_ok``: 1 while the process
  renews its heartbeat;
- ``dragonlair_tables_by_game{game, status}``, ``dragonlair_players{game}``: tables this
  process holds and people connected to them (seats with an open connection), per game;
- ``process_*``, ``python_gc_*``, ``python_info``: prometheus-client's default collectors
  (CPU seconds, resident memory, open file descriptors, garbage collections).

Each process has its own figures: scrape every process directly (the proxy refuses
``/metrics``). The histograms are this module's; the rest is read from the lobby service
at each scrape, so counting costs nothing on the action path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Histogram,
    generate_latest,
)
from prometheus_client import (
    Counter as CounterMetric,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .. import __version__

if TYPE_CHECKING:
    from .lobby import Hub

REGISTRY = CollectorRegistry()
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
ACTION_SECONDS = Histogram(
    "dragonlair_action_seconds",
    "An accepted action, from taking its table's lock to being sent (commit included)",
    buckets=BUCKETS,
    registry=REGISTRY,
)
for _default in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
    REGISTRY.register(_default)
HTTP_RESPONSES = CounterMetric(
    "dragonlair_http_responses", "HTTP answers by status code", ["status"], registry=REGISTRY
)
ERRORS = CounterMetric(
    "dragonlair_errors", "The lobby's error answers by error code", ["code"], registry=REGISTRY
)
OWNERSHIP = CounterMetric(
    "dragonlair_ownership_events",
    "Tables taken and dropped, writes refused by a fence, heartbeats failed",
    ["event"],
    registry=REGISTRY,
)
ACTION_REPLY_SECONDS = Histogram(
    "dragonlair_action_reply_seconds",
    "An action message, from its receipt to its reply being queued (lock waits included)",
    buckets=BUCKETS,
    registry=REGISTRY,
)
WS_OPENED = CounterMetric(
    "dragonlair_ws_opened", "WebSocket connections accepted", registry=REGISTRY
)
WS_CLOSED = CounterMetric(
    "dragonlair_ws_closed",
    "WebSocket connections closed after their hello, by close code",
    ["code"],
    registry=REGISTRY,
)
WS_REFUSED = CounterMetric(
    "dragonlair_ws_refused",
    "WebSocket connections refused before or at their hello, by close code",
    ["code"],
    registry=REGISTRY,
)
WS_MESSAGES = CounterMetric(
    "dragonlair_ws_messages",
    "WebSocket messages received (in) and queued for sending (out)",
    ["direction"],
    registry=REGISTRY,
)
WS_IN = WS_MESSAGES.labels("in")
WS_OUT = WS_MESSAGES.labels("out")
COMMIT_SECONDS = Histogram(
    "dragonlair_commit_seconds",
    "Waiting for an action's commit",
    buckets=BUCKETS,
    registry=REGISTRY,
)


BOT_WAIT_SECONDS = Histogram(
    "dragonlair_bot_wait_seconds",
    "How long a bot decision or a hint waited for a worker of the bot pool",
    ["kind"],
    buckets=BUCKETS,
    registry=REGISTRY,
)


BOT_SECONDS = Histogram(
    "dragonlair_bot_seconds",
    "How long a bot decision or a hint took once it had a worker, to its answer",
    ["kind"],
    buckets=BUCKETS,
    registry=REGISTRY,
)


def observe_bot_wait(kind: str, seconds: float) -> None:
    """The bot pool's report of one job's wait for a worker (``kind``: bot or hint)."""
    BOT_WAIT_SECONDS.labels(kind).observe(seconds)


def observe_bot_time(kind: str, seconds: float) -> None:
    """The bot pool's report of one job's time from getting a worker to its answer."""
    BOT_SECONDS.labels(kind).observe(seconds)


class HubCollector(Collector):
    """The lobby service's counters and gauges, read at each scrape."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def collect(self) -> Iterator[Metric]:
        hub = self.hub
        yield CounterMetricFamily(
            "dragonlair_actions", "Actions applied (committed, then sent)", value=hub.actions
        )
        yield CounterMetricFamily(
            "dragonlair_commits", "Storage transactions committed", value=hub.store.commits
        )
        yield CounterMetricFamily(
            "dragonlair_writes", "Writes committed (many share a commit)", value=hub.store.writes
        )
        tables = GaugeMetricFamily(
            "dragonlair_tables", "Tables this process holds, by status", labels=["status"]
        )
        counts = Counter(t.status for t in hub.tables.values())
        counts["playing"] += len(getattr(hub, "parked", {}))  # at rest, not in memory
        for status in ("waiting", "playing", "over", "broken", "expired", "abandoned"):
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        yield GaugeMetricFamily(
            "dragonlair_connections",
            "Open WebSocket connections",
            value=sum(len(t.connections()) for t in hub.tables.values()),
        )
        bots = hub.bots
        yield GaugeMetricFamily(
            "dragonlair_bot_queue",
            "Bot decisions and hints waiting for a worker",
            value=bots.queued,
        )
        yield GaugeMetricFamily(
            "dragonlair_bots_thinking",
            "Bot decisions and hints being worked out",
            value=bots.thinking,
        )
        by_game = GaugeMetricFamily(
            "dragonlair_tables_by_game",
            "Tables this process holds, by game and status",
            labels=["game", "status"],
        )
        players = GaugeMetricFamily(
            "dragonlair_players",
            "People connected to this process's tables (seats with a connection), by game",
            labels=["game"],
        )
        per_game: Counter[tuple[str, str]] = Counter()
        people: Counter[str] = Counter()
        for t in hub.tables.values():
            per_game[(t.game_id, t.status)] += 1
            people[t.game_id] += sum(1 for s in t.seats if s.kind == "human" and s.conns)
        for (game, status), n in sorted(per_game.items()):
            by_game.add_metric([game, status], n)
        for game, n in sorted(people.items()):
            players.add_metric([game], n)
        yield by_game
        yield players
        silent = getattr(hub, "silent_since", None)
        if getattr(hub, "shared", False):
            yield GaugeMetricFamily(
                "dragonlair_heartbeat_ok",
                "1 while this process renews its heartbeat in the database",
                value=0 if silent is not None else 1,
            )
        info = GaugeMetricFamily(
            "dragonlair_info", "The server's version and process", labels=["version", "process"]
        )
        info.add_metric([__version__, str(getattr(hub, "name", "") or "")], 1)
        yield info


def exposition(hub: Hub) -> bytes:
    """The text format Prometheus scrapes."""
    registry = CollectorRegistry()
    registry.register(HubCollector(hub))
    return generate_latest(REGISTRY) + generate_latest(registry)
