"""A pytest plugin for tests/test_stateful_shrink_limit.py: hypothesis's shrinking time limit
(``MAX_SHRINKING_SECONDS`` of ``hypothesis.internal.conjecture.engine``) as each check
finds it, as hypothesis's engine reads it while the check runs (when the engine starts and
when it starts shrinking a failure) and as the check leaves it (``--probe-shrink-limit FILE``:
one JSON line for the session, then one per check).

The engine's methods are wrapped only to read the global; they run unchanged, and the
originals are put back when the session ends.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import Phase
from hypothesis.internal.conjecture import engine

LIMIT = "MAX_SHRINKING_SECONDS"
WRAPPED = ("run", "shrink_interesting_test_cases")
_seen: dict[str, list] = {}
_originals: dict[str, object] = {}


def pytest_addoption(parser):
    parser.addoption("--probe-shrink-limit", default=None, metavar="FILE")


def _write(config, record: dict) -> None:
    with open(config.getoption("--probe-shrink-limit"), "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")


def _reading(name, method):
    def wrapper(self, *args, **kwargs):
        _seen.setdefault(name, []).append(getattr(engine, LIMIT, None))
        if name == "shrink_interesting_test_cases":   # may it shrink at all (--shrink-seconds 0)?
            _seen.setdefault("shrink_phase", []).append(Phase.shrink in self.settings.phases)
        return method(self, *args, **kwargs)
    return wrapper


def pytest_configure(config):
    if not config.getoption("--probe-shrink-limit"):
        return
    for name in WRAPPED:
        _originals[name] = getattr(engine.ConjectureRunner, name)
        setattr(engine.ConjectureRunner, name, _reading(name, _originals[name]))
    _write(config, {"session": getattr(engine, LIMIT, None)})


def pytest_unconfigure(config):
    for name, method in _originals.items():
        setattr(engine.ConjectureRunner, name, method)
    _originals.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    if not item.config.getoption("--probe-shrink-limit"):
        yield
        return
    _seen.clear()
    before = getattr(engine, LIMIT, None)
    yield
    _write(item.config, {"test": item.nodeid, "before": before, "after": getattr(engine, LIMIT, None),
                         **{name: list(values) for name, values in _seen.items()}})
