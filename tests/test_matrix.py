"""``--jobs N`` (fixtures/matrix.py): a matrix of brokers checked side by side, one worker
process per broker, each with its own complete run; Ctrl-C ends every run as incomplete and
leaves no broker; a bad spec is one line before anything starts."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parent.parent
BROKERS = ["--broker", "tansu", "--broker", "noida"]


def cmd(tmp_path, *args):
    return [sys.executable, "-m", "pytest", "conformance/test_protocol.py", "-q", "-p", "no:cacheprovider",
            "--results-dir", str(tmp_path / "results"), "--profile", "ci", "--seed", "7", *args]


def env(tmp_path):
    """The run's temporary folders under ``tmp_path/scratch`` (TMPDIR), so what it leaves is seen."""
    (tmp_path / "scratch").mkdir(exist_ok=True)
    return dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last-run"), PYTHONPATH=str(ROOT),
                TMPDIR=str(tmp_path / "scratch"))


def nothing_left(tmp_path) -> None:
    """No broker folder and no folder of the matrix (its workers' last-run files) is left."""
    left = sorted(p.name for p in (tmp_path / "scratch").glob("kac-*"))
    assert not left, left


def runs(tmp_path) -> list[Path]:
    return [Path(line) for line in (tmp_path / "last-run").read_text().split()]


def test_two_brokers_side_by_side_each_get_a_complete_run_of_every_selected_check(tmp_path):
    proc = subprocess.run(cmd(tmp_path, *BROKERS, "--jobs", "2", "-k", "p3"), cwd=ROOT, env=env(tmp_path),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    folders = runs(tmp_path)
    assert len(folders) == 2, folders
    seen = {}
    for folder in folders:
        manifest = json.loads((folder / "manifest.json").read_text())
        rows = read_rows(folder / "results.jsonl")
        assert manifest["complete"] is True, manifest
        assert len({r["broker"] for r in rows}) == 1, "a worker checked more than its one broker"
        broker = rows[0]["broker"]
        seen[broker] = sorted(r["test"].replace(f"[{broker}-", "[") for r in rows)
    assert set(seen) == {"tansu", "noida"}
    # the same checks for each broker: the P3 tests, every one of them
    assert seen["tansu"] == seen["noida"] and len(seen["tansu"]) >= 10
    # output of both workers, each line labelled with its broker
    assert "[tansu] " in proc.stdout and "[noida] " in proc.stdout
    nothing_left(tmp_path)


def test_ctrl_c_ends_every_workers_run_as_incomplete_and_leaves_no_broker(tmp_path):
    proc = subprocess.Popen(cmd(tmp_path, *BROKERS, "--jobs", "2", "--profile", "release"), cwd=ROOT,
                            env=env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:   # both workers are checking
            found = list((tmp_path / "results").glob("*/results.jsonl"))
            if len(found) == 2 and all(f.stat().st_size for f in found):
                break
            assert proc.poll() is None, proc.stdout.read().decode()[-2000:]
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)                 # what Ctrl-C in a terminal does
        out = proc.communicate(timeout=180)[0].decode()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 2, out[-2000:]
    folders = runs(tmp_path)
    assert len(folders) == 2, out[-2000:]
    for folder in folders:
        manifest = json.loads((folder / "manifest.json").read_text())
        assert manifest["complete"] is False and "interrupted" in manifest["incomplete_reason"], manifest
        assert manifest["rows"] == len(read_rows(folder / "results.jsonl"))
    ps = subprocess.run(["ps", "-eo", "pid,pgid,args"], capture_output=True, text=True).stdout
    left = [line for line in ps.splitlines() if line.split()[1:2] == [str(proc.pid)]]
    assert not left, left
    nothing_left(tmp_path)


def test_a_bad_spec_is_one_line_before_any_worker_starts(tmp_path):
    proc = subprocess.run(cmd(tmp_path, "--broker", "tansu", "--broker", "kafka:9.9.9,colour=blue", "--jobs", "2"),
                          cwd=ROOT, env=env(tmp_path), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "colour" in proc.stderr and not (tmp_path / "results").exists()
