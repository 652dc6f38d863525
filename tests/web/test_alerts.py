"""deploy/prometheus's alert rules and deploy/grafana's dashboard: each rule well formed,
each rule and panel reading only metrics that /metrics exposes (a renamed metric would
leave an alert that never fires or an empty panel), and the rules valid for promtool where
Debian's prometheus package provides it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

RULES = Path(__file__).resolve().parents[2] / "deploy" / "prometheus" / "dragonlair-alerts.yml"
# the failures the rules must cover, by the metric each reads
COVERED = {
    "up",
    "dragonlair_heartbeat_ok",
    "dragonlair_errors_total",
    "dragonlair_http_responses_total",
    "dragonlair_ownership_events_total",
    "dragonlair_action_seconds_bucket",
    "dragonlair_bot_queue",
    "dragonlair_ws_refused_total",
}


def rules() -> list[dict[str, Any]]:
    doc = yaml.safe_load(RULES.read_text())
    [group] = doc["groups"]
    found: list[dict[str, Any]] = group["rules"]
    return found


def test_every_rule_is_well_formed_and_the_failures_are_covered() -> None:
    names = set()
    read = set()
    for rule in rules():
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}, rule
        assert re.fullmatch(r"Dragonlair[A-Z][A-Za-z]+", rule["alert"]), rule
        assert rule["alert"] not in names
        names.add(rule["alert"])
        assert rule["labels"]["severity"] in ("warning", "critical")
        assert rule["annotations"]["summary"]
        if "for" in rule:
            assert re.fullmatch(r"\d+[smh]", rule["for"])
        read |= set(re.findall(r"\b(up|dragonlair_[a-z_]+)\b", rule["expr"]))
    assert read == COVERED


def test_the_rules_read_only_what_metrics_exposes(client: TestClient) -> None:
    text = client.get("/metrics").text
    shared = not client.app.state.hub.store.sqlite  # type: ignore[attr-defined]
    for rule in rules():
        for name in re.findall(r"\bdragonlair_[a-z_]+\b", rule["expr"]):
            if name == "dragonlair_heartbeat_ok" and not shared:
                continue  # only processes sharing a PostgreSQL database renew a heartbeat
            family = re.sub(r"_(total|bucket)$", "", name)
            exposed = f"# TYPE {name} " in text or f"# TYPE {family} " in text
            assert exposed, f"{rule['alert']} reads {name}, which /metrics does not expose"


@pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool is not installed")
def test_promtool_accepts_the_rules() -> None:
    promtool = shutil.which("promtool")
    assert promtool is not None
    out = subprocess.run(
        [promtool, "check", "rules", str(RULES)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"SUCCESS: {len(rules())} rules found" in out.stdout


DASHBOARD = RULES.parents[1] / "grafana" / "dragonlair-dashboard.json"


def test_the_dashboard_plots_only_what_metrics_exposes(client: TestClient) -> None:
    """Every panel of deploy/grafana's dashboard queries Prometheus for metrics that
    /metrics exposes (or prometheus-client's process metrics): a renamed metric would
    leave a panel empty."""
    dashboard = json.loads(DASHBOARD.read_text())
    text = client.get("/metrics").text
    shared = not client.app.state.hub.store.sqlite  # type: ignore[attr-defined]
    plotted = set()
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dashboard["panels"]:
        assert panel["title"] and panel["targets"], panel
        for target in panel["targets"]:
            for name in re.findall(r"\b(?:dragonlair|process)_[a-z_]+\b", target["expr"]):
                plotted.add(name)
                if name == "dragonlair_heartbeat_ok" and not shared:
                    continue
                family = re.sub(r"_(total|bucket)$", "", name)
                exposed = f"# TYPE {name} " in text or f"# TYPE {family} " in text
                assert exposed, f"{panel['title']!r} plots {name}, which /metrics does not expose"
    # what an operator reads first: errors, latency from receipt, ownership, the bots
    assert {
        "dragonlair_errors_total",
        "dragonlair_action_reply_seconds_bucket",
        "dragonlair_ownership_events_total",
        "dragonlair_heartbeat_ok",
        "dragonlair_bot_queue",
        "dragonlair_ws_closed_total",
    } <= plotted
