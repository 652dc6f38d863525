"""The training example on the batched engine, end to end at a small size: it trains,
writes an ONNX model that onnxruntime runs, and evaluates it in the Python environment."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")
pytest.importorskip("onnxruntime")
pytest.importorskip("statsmodels")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_dragon_stripes_jax.py"


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_the_example_trains_exports_and_evaluates(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_dragon_stripes_jax", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out = tmp_path / "policy.onnx"
    figures = module.main(
        ["--updates", "2", "--tables", "64", "--steps", "8", "--games", "6", "--out", str(out)]
    )
    assert out.stat().st_size > 10_000  # the weights are in it
    assert set(figures) == {
        f"{who} vs {bot}"
        for who in ("trained", "untrained", "random play")
        for bot in ("heuristic", "random")
    }
    assert all(0.0 <= share <= 1.0 for share in figures.values())
