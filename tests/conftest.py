"""Fixtures shared by the project's tests."""
from __future__ import annotations

import pytest

from fixtures.targets import make_target


def _started(spec: str):
    target = make_target(spec)
    info = target.start()
    yield info
    target.stop()


@pytest.fixture(scope="module")
def tansu():
    """A tansu broker of the module's own (started once per module, stopped after it)."""
    yield from _started("tansu")


@pytest.fixture(scope="module")
def noida():
    """A noida-db broker of the module's own (started once per module, stopped after it)."""
    yield from _started("noida")
