"""One log line per outage of storage, not one per refused action: the first failure is
an ERROR, the rest are counted, and the recovery is one INFO line with the count."""

from __future__ import annotations

import asyncio
import logging

import pytest

from dragonlair.web.logs import Outage, storage_outage
from tests.web.serverkit import LiveServer, SeatClient, config, create_table

pytestmark = pytest.mark.timeout(60)


def test_an_outage_is_one_error_and_one_recovery(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("dragonlair.test-outage")
    outage = Outage("storage", log)
    caplog.set_level(logging.INFO, logger=log.name)
    for i in range(50):
        outage.failed(f"storing move {i}", OSError("No space left on device"))
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "No space left on device" in errors[0].getMessage()
    assert "storing move 0" in errors[0].getMessage()
    outage.ok()
    outage.ok()  # nothing more: the outage ended once
    infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert len(infos) == 1 and "50 operations failed meanwhile" in infos[0]
    outage.failed("storing move 51", OSError("again"))  # a new outage: a new line
    assert len([r for r in caplog.records if r.levelno == logging.ERROR]) == 2


def test_refused_actions_during_an_outage_log_one_error(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    storage_outage.ok()  # whatever an earlier test left
    live = LiveServer(config(sqlite_url))
    try:
        created = create_table(live.http, players=2, seats=[{"type": "human"}] * 2, seed=5)
        tid = created["table"]["id"]
        caplog.set_level(logging.DEBUG, logger="dragonlair")

        async def main() -> None:
            me = await SeatClient.open(live.ws, tid, created["seats"][0]["token"], 0)
            st = me.latest
            live.hub.store.close()  # storage goes away under the server
            for i in range(12):
                await me.act(st["move"], st["legal"][0])
                err = await me.next_error(i)
                assert err["code"] == "storage_error"
            await me.close()

        asyncio.run(main())
    finally:
        live.stop()
        storage_outage.ok()
    mine = [r for r in caplog.records if r.name.startswith("dragonlair")]
    errors = [r.getMessage() for r in mine if r.levelno >= logging.ERROR]
    assert len(errors) == 1, errors
    assert "storage is failing" in errors[0] and "storage is closed" in errors[0]
    assert sum("still failing" in r.getMessage() for r in mine) == 11
