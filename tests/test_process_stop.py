"""fixtures/brokers/process.py: when a local broker's stop() returns, none of its processes
runs and its scratch folder is gone. noida-db's command is a Python wrapper around the broker
binary; the wrapper exits on SIGTERM at once and the binary writes ``data/kafka.json`` a moment
later, which brought a removed folder back (a ``kac-noida-db-*`` folder left in TMPDIR, which
tests/test_conformance_run.py's matrix test found in CI). Without the wait for the whole
process group, the binary outlived stop() 3 times in 5 here."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from fixtures.brokers import make_target, scratch
from fixtures.brokers.process import _group_alive
from fixtures.waiting import eventually

ROOT = Path(__file__).resolve().parents[1]


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


CRASH = ("import os\n"
         "from fixtures.brokers import make_target\n"
         "target = make_target({spec!r}); target.start()\n"
         "print(target.workdir, flush=True)\n"
         "os._exit(3)\n")


@pytest.mark.parametrize("spec", ["noida", "tansu"])
def test_the_folder_of_a_run_killed_outright_goes_at_the_next_start_and_no_other(spec, tmp_path):
    """A run that dies without its ``stop()`` (``os._exit`` here; SIGKILL, the OOM killer)
    leaves its broker's folder: the broker dies with it, the folder cannot. The next start
    removes it (``fixtures/brokers/scratch.py``), and keeps a folder whose owner runs and one
    that carries no owner stamp (another tool's)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path))
    crashed = subprocess.run([sys.executable, "-c", CRASH.format(spec=spec)], env=env, cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert crashed.returncode == 3, crashed.stderr[-2000:]
    left = Path(crashed.stdout.strip())
    assert left.parent == tmp_path and (left / scratch.STAMP).is_file()
    assert eventually(lambda: not _group_alive_in(left), within=10)[0], "the broker outlived its run"
    assert left.exists(), "nothing to remove: the crash left no folder"
    unstamped = tmp_path / f"kac-{spec}-other-tool"
    unstamped.mkdir()
    live = scratch.make(spec, tmp_path)
    target = make_target(spec)
    old = tempfile.tempdir
    tempfile.tempdir = str(tmp_path)
    try:
        target.start()
    finally:
        tempfile.tempdir = old
    try:
        assert not left.exists(), f"{spec}: the killed run's {left.name} is still there"
        assert unstamped.is_dir() and live.is_dir() and target.workdir.is_dir()
    finally:
        target.stop()


def test_a_gone_owners_folder_stays_while_a_folder_inside_it_has_an_owner_that_runs(tmp_path):
    """A test's folder of Kafka folders (tests/test_kafka_target.py ``kafka_scratch``) whose
    test worker was killed goes only when no run it started still uses a folder inside it."""
    gone = subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                           "from fixtures.brokers import scratch; scratch.stamp(Path(sys.argv[1]))",
                           str(tmp_path / "kac-test-x")], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=60, check=False,
                          preexec_fn=lambda: (tmp_path / "kac-test-x").mkdir())
    assert gone.returncode == 0, gone.stderr
    outer = tmp_path / "kac-test-x"
    inner = scratch.make("kafka", outer)           # this process's: it runs
    assert scratch.sweep(tmp_path) == [] and inner.is_dir()
    (inner / scratch.STAMP).unlink()               # no owner inside any more
    assert scratch.sweep(tmp_path) == [outer] and not outer.exists()


def _group_alive_in(folder: Path) -> bool:
    """Does a process run whose working folder is ``folder`` (the broker's cwd)?"""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/cwd") == str(folder):
                return True
        except OSError:
            continue
    return False
