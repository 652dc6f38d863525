"""``GET /metrics``: the process's figures for Prometheus (``prometheus-client``).

- ``dragonlair_actions_total``: actions applied (committed, then sent);
- ``dragonlair_commits_total``, ``dragonlair_writes_total``: storage transactions, and the
  writes they held (group commit: writes per commit);
- ``dragonlair_action_seconds`` (histogram): an accepted action, from taking its table's
  lock to being sent, its commit included; ``dragonlair_commit_seconds``: its commit;
- ``dragonlair_tables{status}``: tables this process holds, by status;
- ``dragonlair_connections``: open WebSocket connections (seats and spectators);
- ``dragonlair_bot_queue``, ``dragonlair_bots_thinking``: bot decisions waiting for a
  worker, and being thought;
- ``dragonlair_info{version, process}``: always 1; ``process`` is ``K/N`` with ``--shard``.

Each process has its own figures: scrape every process directly (the proxy refuses
``/metrics``). The histograms are this module's; the rest is read from the lobby service
at each scrape, so counting costs nothing on the action path.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Histogram, generate_latest
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
COMMIT_SECONDS = Histogram(
    "dragonlair_commit_seconds",
    "Waiting for an action's commit",
    buckets=BUCKETS,
    registry=REGISTRY,
)


def _waiting(sem: asyncio.Semaphore) -> int:
    waiters = getattr(sem, "_waiters", None)
    return len(waiters) if waiters else 0


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
        for status in ("waiting", "playing", "over", "broken", "expired"):
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        yield GaugeMetricFamily(
            "dragonlair_connections",
            "Open WebSocket connections",
            value=sum(len(t.connections()) for t in hub.tables.values()),
        )
        bots = hub.bots
        slots = (bots._thread_slots, bots._process_slots)
        yield GaugeMetricFamily(
            "dragonlair_bot_queue",
            "Bot decisions waiting for a worker",
            value=sum(_waiting(s) for s in slots),
        )
        workers = bots.threads._max_workers
        yield GaugeMetricFamily(
            "dragonlair_bots_thinking",
            "Bot decisions being thought",
            value=sum(max(0, workers - s._value) for s in slots),
        )
        info = GaugeMetricFamily(
            "dragonlair_info", "The server's version and process", labels=["version", "process"]
        )
        info.add_metric([__version__, hub.config.shard or ""], 1)
        yield info


def exposition(hub: Hub) -> bytes:
    """The text format Prometheus scrapes."""
    registry = CollectorRegistry()
    registry.register(HubCollector(hub))
    return generate_latest(REGISTRY) + generate_latest(registry)
