"""Every test here leaves the language as it found it (the CLI sets it for the run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dragonlair.i18n import set_language


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language("en")
