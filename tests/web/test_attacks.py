"""scripts/attacks.py's quickest attacks against the layout it starts (PostgreSQL, three
processes, nginx with the shipped files): the health scrape, the smaller ones (nested
TOML, a near-limit position's rematch, an old seat link, a foreign Origin, /docs) and
the stacked deck each hold, and the script says so in numbers. The full run stays a
script (docs/server.md, *Security*)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.clusterkit import NGINX
from tests.web.conftest import _pg_bin

ROOT = Path(__file__).resolve().parents[2]
ATTACKS = ROOT / "scripts" / "attacks.py"


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_the_quickest_attacks_all_hold() -> None:
    if not os.access(NGINX, os.X_OK) or _pg_bin("initdb") is None:
        msg = "the attacks need nginx and PostgreSQL's server"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    run = subprocess.run(
        [sys.executable, str(ATTACKS), "--only", "health,small,stacked"],
        capture_output=True,
        text=True,
        timeout=380,
        check=False,
        cwd=ROOT,
    )
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert "BROKEN" not in out
    for name in ("health", "small", "stacked"):
        assert f"\n{name:8} held" in out, out
    # the figures it prints
    assert "the unlisted table's id in 0" in out
    assert "nesting 3,000 deep: 400 bad_position" in out
    assert "Origin https://evil.example: 403" in out
    assert "chosen=('position', 'position', 'position')" in out
