"""A pytest plugin for tests/test_tidy.py: before each check, count the run's topics on its
broker (``--probe-topics FILE``: one count a line)."""
from __future__ import annotations

import pytest


def pytest_addoption(parser):
    parser.addoption("--probe-topics", default=None, metavar="FILE")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    path = item.config.getoption("--probe-topics")
    from fixtures.plugin import run_of
    run = run_of(item.config)
    if not path or run is None:
        return
    from fixtures import scope
    from protocol import wire
    for info in run.pool.infos.values():
        conn = wire.Connection(info.host, info.port, timeout=10)
        try:
            names = [n for n in scope.existing_topics(conn, info) if n.startswith(run.prefix)]
        finally:
            conn.close()
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"{len(names)}\n")
