"""A pytest plugin for the reliability tests: kill the run's brokers mid-run.

``pytest conformance -p tests.broker_killer --kill-broker-after N`` kills every broker of
the run (``Target.kill()``: SIGKILL to the process group, or to the container) right after
the N-th check finished, the way a broker crashes between two checks. The suite is
expected to record every later check as an ``error`` row and still end the run cleanly.

``--swallow-ctrl-c-in N`` sends the run itself SIGINT during check N and swallows the
KeyboardInterrupt there, as hypothesis does when the signal lands inside a draw (it reports
FlakyStrategyDefinition and goes on): the run must still stop as Ctrl-C asked.
"""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest


def run_of(config):
    """The run of this session (imported late: fixtures.plugin is registered by the
    suite's conftest, and importing it earlier would keep pytest from rewriting it)."""
    from fixtures.plugin import run_of
    return run_of(config)


def pytest_addoption(parser):
    parser.addoption("--kill-broker-after", type=int, default=None, metavar="N",
                     help="kill the run's brokers after the N-th check (reliability tests)")
    parser.addoption("--pause-broker-after", type=int, default=None, metavar="N",
                     help="freeze the run's local broker processes (SIGSTOP) after the N-th check, "
                          "as a long GC pause does, for --pause-seconds")
    parser.addoption("--pause-seconds", type=float, default=9.0)
    parser.addoption("--swallow-ctrl-c-in", type=int, default=None, metavar="N",
                     help="SIGINT the run during check N and swallow the KeyboardInterrupt there")
    parser.addoption("--kill-broker-during", type=int, default=None, metavar="N",
                     help="kill the run's brokers while check N+1 waits for an answer (frozen, "
                          "then SIGKILLed 1 s later): a broker stopped from outside mid-check")


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    config = item.config
    after = config.getoption("--kill-broker-after")
    run = run_of(config)
    if after is None or run is None:
        return
    config._kac_checks_done = getattr(config, "_kac_checks_done", 0) + 1
    if config._kac_checks_done == after:
        for target in run.pool.targets.values():
            target.kill()


def _pause(config) -> None:
    """SIGSTOP every local broker process group now, SIGCONT after --pause-seconds."""
    run = run_of(config)
    groups = [t.proc.pid for t in run.pool.targets.values() if getattr(t, "proc", None) is not None]
    for pid in groups:
        os.killpg(pid, signal.SIGSTOP)
    timer = threading.Timer(config.getoption("--pause-seconds"),
                            lambda: [os.killpg(pid, signal.SIGCONT) for pid in groups])
    timer.daemon = True
    timer.start()


@pytest.hookimpl(trylast=True)
def pytest_runtest_setup(item):
    config = item.config
    pause, kill = config.getoption("--pause-broker-after"), config.getoption("--kill-broker-during")
    run = run_of(config)
    if (pause is None and kill is None) or run is None:
        return
    config._kac_checks_started = getattr(config, "_kac_checks_started", 0) + 1
    if config._kac_checks_started == (pause or 0) + 1 and pause is not None:
        _pause(config)
    if config._kac_checks_started == (kill or 0) + 1 and kill is not None:
        _pause(config)
        timer = threading.Timer(1.0, lambda: [t.kill() for t in run.pool.targets.values()])
        timer.daemon = True
        timer.start()


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem):
    config = pyfuncitem.config
    n = config.getoption("--swallow-ctrl-c-in")
    if n is not None:
        config._kac_calls = getattr(config, "_kac_calls", 0) + 1
        if config._kac_calls == n:
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(1)            # the handler runs at the next bytecode boundary
            except KeyboardInterrupt:
                pass                     # swallowed, as inside hypothesis's draw
    return (yield)
