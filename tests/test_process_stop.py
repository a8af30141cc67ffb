"""fixtures/targets/process.py: when a local broker's stop() returns, none of its processes
runs and its scratch folder is gone. noida-db's command is a Python wrapper around the broker
binary; the wrapper exits on SIGTERM at once and the binary writes ``data/kafka.json`` a moment
later, which brought a removed folder back (a ``kac-noida-db-*`` folder left in TMPDIR, which
tests/test_conformance_run.py's matrix test found in CI). Without the wait for the whole
process group, the binary outlived stop() 3 times in 5 here."""
from __future__ import annotations

import time

import pytest

from fixtures.targets import make_target
from fixtures.targets.process import _group_alive


@pytest.mark.parametrize("spec", ["noida", "tansu"])
def test_stop_returns_when_no_process_of_the_broker_runs_and_its_folder_stays_gone(spec):
    for _ in range(5):
        target = make_target(spec)
        target.start()
        group, folder = target.proc.pid, target.workdir
        target.stop()
        assert not _group_alive(group), f"{spec}: a process of the broker runs after stop()"
        time.sleep(0.3)          # what a late writer would need to bring the folder back
        assert not folder.exists(), f"{spec}: {folder} is back after stop()"
