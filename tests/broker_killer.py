"""A pytest plugin for the reliability tests: kill the run's brokers mid-run.

``pytest conformance -p tests.broker_killer --kill-broker-after N`` kills every broker of
the run (``Target.kill()``: SIGKILL to the process group, or to the container) right after
the N-th check finished, the way a broker crashes between two checks. The suite is
expected to record every later check as an ``error`` row and still end the run cleanly.
"""
from __future__ import annotations

import pytest


def pytest_addoption(parser):
    parser.addoption("--kill-broker-after", type=int, default=None, metavar="N",
                     help="kill the run's brokers after the N-th check (reliability tests)")


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    config = item.config
    after = config.getoption("--kill-broker-after")
    run = getattr(config, "_kac", None)
    if after is None or run is None:
        return
    config._kac_checks_done = getattr(config, "_kac_checks_done", 0) + 1
    if config._kac_checks_done == after:
        for target in run.pool.targets.values():
            target.kill()
