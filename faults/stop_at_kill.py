"""A pytest plugin for mutant runs: stop the run at the first kill.

``pytest conformance -p faults.stop_at_kill --stop-at-kill FILE --broker SPEC`` ends the
session (``session.shouldstop``) right after a test that FILE lists fails. FILE holds the
node ids, one per line with the broker spec written ``<broker>`` (``faults.mutation.test_key``), of the tests that passed
in every ``proxy:none`` baseline run (``faults.mutation.stable_passes``): the first of them
to fail on its first generated example kills the mutant with a self-contained row, and the
rest of the run could only find more kills of it. A kill that needed more examples does not
stop the run: its failing example may stand on what an earlier one left (measured:
``error-message-dropped`` first failed P6 on a second CreateTopics of a name the first
example had made, and that row's repro.py, sent to a fresh broker, conforms), so the run goes
on to find a row that needs no history, as the score's quickest kill always was. A failure of
any other test (flaky in the baselines, or never passing) does not stop the run.

The tests of the APIs the mutant touches (its ``apis``) run first, each module's own, the
modules that have such tests first: the run then reaches a kill before the checks of APIs
whose answers pass through unchanged (``stale-correlation-id-describe-cluster`` asked 164
other P1 cells before its first DescribeCluster one). Only the order changes, so the same
tests are asked whenever no kill stops the run.

The suite mirrors a row's outcome in pytest: a ``fail`` row is an xfail whose reason starts
``fail:`` (``fixtures/plugin/rows.py``), so that is what is read here; the row itself is written
before the report, and the session, stopped, still closes the run (incomplete).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .mutation import test_key
from .select_apis import api_key


def pytest_addoption(parser):
    parser.addoption("--stop-at-kill", default=None, metavar="FILE",
                     help="stop the run when a test listed in FILE (node ids, broker as <broker>) fails")


class StopAtKill:
    def __init__(self, keys: set[str]):
        self.keys, self.session = keys, None

    def pytest_sessionstart(self, session):
        self.session = session

    @pytest.hookimpl(trylast=True)       # after the suite's own selection (--property, -k)
    def pytest_collection_modifyitems(self, config, items):
        apis = touched_apis(config.getoption("--broker"))
        if apis:
            items[:] = touched_first(items, apis)

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report):
        if report.when != "call" or not getattr(report, "wasxfail", "").startswith("fail:"):
            return
        row = _row(report.nodeid)
        if (row is not None and test_key(row)[0] in self.keys and (row.get("examples") or 0) <= 1
                and self.session is not None):
            self.session.shouldstop = f"killed by {report.nodeid} (faults.stop_at_kill)"


def touched_apis(specs) -> frozenset:
    """The API keys the mutants of ``specs`` (``proxy:NAME[=ARG]@SPEC``) touch; empty when
    one of them touches every API (or is not a mutant)."""
    from .mutants import all_mutants, parse_proxy
    apis = set()
    for spec in specs or ():
        kind, _, rest = spec.partition(":")
        cls = all_mutants().get(parse_proxy(rest)[0]) if kind == "proxy" else None
        if cls is None or not cls.apis:
            return frozenset()
        apis |= set(cls.apis)
    return frozenset(apis)


def touched_first(items: list, apis: frozenset) -> list:
    """``items`` with the tests whose ``api_key`` parameter is in ``apis`` first within their
    module, and the modules holding such tests first; otherwise in their order."""
    modules: dict = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    ordered = [sorted(group, key=lambda i: api_key(i) not in apis) for group in modules.values()]
    return [i for group in sorted(ordered, key=lambda g: api_key(g[0]) not in apis) for i in group]


def _row(nodeid: str) -> dict | None:
    """The row of test ``nodeid`` (written before its report; the run's folder is in
    ``KAC_LAST_RUN_FILE``), None if it cannot be read."""
    try:
        run = Path(Path(os.environ["KAC_LAST_RUN_FILE"]).read_text(encoding="utf-8").strip())
        lines = (run / "results.jsonl").read_text(encoding="utf-8").splitlines()[-50:]
    except (OSError, KeyError):
        return None
    for line in reversed(lines):
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if row.get("test") == nodeid:
            return row
    return None


def pytest_configure(config):
    path = config.getoption("--stop-at-kill")
    if path:
        keys = set(Path(path).read_text(encoding="utf-8").splitlines()) - {""}
        config.pluginmanager.register(StopAtKill(keys), "kac-stop-at-kill")
