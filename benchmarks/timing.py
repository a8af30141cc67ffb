"""A pytest plugin that times a conformance run (benchmarks only, never part of a verdict).

    pytest conformance -p benchmarks.timing ...      (KAC_BENCH_TIMING=FILE.json)

It splits the run's wall time into collection, broker start and checks, and for every
check records its wall time, the seconds spent in ``protocol.wire`` waiting for the
broker (every exchange's send + receive, ``Exchange.seconds``), the exchanges and the
examples hypothesis ran. Wrapping ``Connection._roundtrip`` is instrumentation, not a
stand-in: every request still goes to the broker. The JSON written at the end of the
session:

    {"session_s", "collection_s", "broker_start_s", "checks_s", "checks": [
        {"nodeid", "property", "api", "version", "outcome", "wall_s", "wire_s",
         "sleep_s", "exchanges", "examples"}, ...]}
"""
from __future__ import annotations

import json
import os
import time

import pytest

from protocol import wire

_state = {"current": None, "items": [], "t0": time.monotonic(), "collected": None,
          "loop": None, "first_check": None, "loop_end": None}


def _instrument():
    original = wire.Connection._roundtrip
    if getattr(original, "_kac_timed", False):
        return

    def timed(self, *args, **kwargs):
        ex = original(self, *args, **kwargs)
        cur = _state["current"]
        if cur is not None:
            cur["wire_s"] += ex.seconds
            cur["exchanges"] += 1
        return ex

    timed._kac_timed = True
    wire.Connection._roundtrip = timed

    sleep = time.sleep

    def counted_sleep(seconds):
        """Pauses between polls (fixtures.waiting, settle loops): waiting, not computing."""
        cur = _state["current"]
        if cur is not None:
            cur["sleep_s"] += seconds
        return sleep(seconds)

    time.sleep = counted_sleep


_instrument()


def pytest_collection_finish(session):
    _state["collected"] = time.monotonic()


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session):
    _state["loop"] = time.monotonic()
    try:
        return (yield)
    finally:
        _state["loop_end"] = time.monotonic()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    now = time.monotonic()
    if _state["first_check"] is None:
        _state["first_check"] = now
    marker = item.get_closest_marker("prop")
    params = getattr(item, "callspec", None)
    params = params.params if params else {}
    _state["current"] = {"nodeid": item.nodeid, "property": marker.args[0] if marker else None,
                         "api": int(params["api_key"]) if "api_key" in params else None,
                         "version": params.get("version"), "outcome": None, "t": now,
                         "wire_s": 0.0, "sleep_s": 0.0, "exchanges": 0, "examples": 0}


def pytest_runtest_logreport(report):
    cur = _state["current"]
    if cur is not None and report.nodeid == cur["nodeid"] and (report.when == "call" or report.outcome != "passed"):
        # the suite mirrors a fail/error row as an xfail, unsupported/skip as a skip
        cur["outcome"] = cur["outcome"] or ("fail/error" if hasattr(report, "wasxfail") else report.outcome)


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    cur = _state["current"]
    if cur is None:
        return
    from fixtures.plugin import CHECK_KEY      # late: the suite's plugin is registered by its conftest
    check = item.stash.get(CHECK_KEY, None)
    cur["examples"] = getattr(check, "examples", 0) if check is not None else 0
    cur["wall_s"] = round(time.monotonic() - cur.pop("t"), 4)
    cur["wire_s"] = round(cur["wire_s"], 4)
    cur["sleep_s"] = round(cur["sleep_s"], 4)
    _state["items"].append(cur)
    _state["current"] = None


def pytest_sessionfinish(session):
    path = os.environ.get("KAC_BENCH_TIMING")
    if not path:
        return
    s = _state
    end = time.monotonic()
    loop, first = s["loop"], s["first_check"]
    figures = {
        "session_s": round(end - s["t0"], 3),
        "collection_s": round((s["collected"] or end) - s["t0"], 3),
        "broker_start_s": round(first - loop, 3) if loop and first else None,
        "checks_s": round((s["loop_end"] or end) - (first or end), 3),
        "checks": s["items"],
    }
    with open(path, "w") as f:
        json.dump(figures, f)
