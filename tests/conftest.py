"""Fixtures shared by the project's tests."""
from __future__ import annotations

import pytest

from fixtures.targets import make_target


@pytest.fixture(scope="module")
def tansu():
    """A tansu broker of the module's own (started once per module, stopped after it)."""
    target = make_target("tansu")
    info = target.start()
    yield info
    target.stop()


@pytest.fixture(scope="module")
def noida():
    """A noida-db broker of the module's own (started once per module, stopped after it)."""
    target = make_target("noida")
    info = target.start()
    yield info
    target.stop()
