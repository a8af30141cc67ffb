"""The suite under faults, against real brokers: a broker killed mid-run, Ctrl-C, a cut-off
results file, and connections that drop, truncate or stall (through the fault proxy).

Each run is the suite as users run it (``pytest conformance ...`` in a subprocess), so the
plugin's session start, row writing and teardown are what is exercised.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
KILL_AFTER = 10


SPECS = ["tansu", "container:tansu"]


def need_engine(spec: str) -> None:
    """container:tansu needs a Docker engine: skip without one, unless CI requires it
    (KAC_REQUIRE_DOCKER=1, set by .ci/dockerd.sh), where its absence fails the test."""
    if not spec.startswith("container:"):
        return
    try:
        from fixtures.brokers.container import docker_client
        docker_client("tests").close()
    except Exception as exc:
        if os.environ.get("KAC_REQUIRE_DOCKER") == "1":
            pytest.fail(f"KAC_REQUIRE_DOCKER=1 but no Docker engine answers ({exc})")
        pytest.skip(f"no Docker engine answers ({exc}); in CI source .ci/dockerd.sh")


def suite_cmd(tmp_path, *args):
    return [sys.executable, "-m", "pytest", "conformance/test_protocol.py", "-q", "-p", "no:cacheprovider",
            "--results-dir", str(tmp_path / "results"), "--profile", "ci", "--seed", "7", *args]


def suite_env(tmp_path):
    return dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last-run"), PYTHONPATH=str(ROOT))


def run_suite(tmp_path, *args, timeout=600):
    proc = subprocess.Popen(suite_cmd(tmp_path, *args), cwd=ROOT, env=suite_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    proc.stdout_text = proc.communicate(timeout=timeout)[0]
    run = Path((tmp_path / "last-run").read_text().strip())
    return proc, read_rows(run / "results.jsonl"), json.loads((run / "manifest.json").read_text())


def accepts(address: str) -> bool:
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
        return True
    except OSError:
        return False


def leftovers(run_pid: int, address: str) -> list[str]:
    """Broker processes (listening on the run's ``address``) or containers (labelled with
    the run's pid) still there after the run."""
    port = address.rpartition(":")[2]
    ps = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    left = [line for line in ps.splitlines() if f"127.0.0.1:{port}" in line
            or f"--kafka-port {port} " in line]
    if accepts(address):
        left.append(f"something still accepts connections at {address}")
    try:
        from fixtures.brokers.container import RUN_LABEL, docker_client
        client = docker_client("tests")
    except Exception:
        return left
    try:
        left += [c.name for c in client.containers.list(all=True, filters={"label": f"{RUN_LABEL}={run_pid}"})]
    finally:
        client.close()
    return left


@pytest.mark.parametrize("spec", SPECS)
def test_a_broker_killed_mid_run_turns_the_remaining_checks_into_errors(tmp_path, spec):
    need_engine(spec)
    proc, rows, manifest = run_suite(tmp_path, "--broker", spec, "--property", "P1",
                                     "-p", "tests.broker_killer", f"--kill-broker-after={KILL_AFTER}")
    assert proc.returncode == 0, proc.stdout_text[-3000:]
    before, after = rows[:KILL_AFTER], rows[KILL_AFTER:]
    assert after, "no check ran after the kill"
    assert all(r["outcome"] in ("pass", "fail", "unsupported") for r in before), before
    for r in after:
        assert r["outcome"] == "error", r
        assert "exited" in r["message"] or "no longer" in r["message"] or "gone" in r["message"], r
    assert manifest["complete"] and manifest["ended_at"] and manifest["rows"] == len(rows)
    assert "died during the run" in manifest["brokers"][0]["error"]
    assert not leftovers(proc.pid, manifest["brokers"][0]["address"])


@pytest.mark.parametrize("spec", SPECS)
def test_ctrl_c_leaves_no_broker_and_a_readable_run(tmp_path, spec):
    need_engine(spec)
    # the deepest profile: the run must still be checking when Ctrl-C comes, also on a
    # loaded machine (with --profile dev a starved test process once sent it after the last check)
    proc = subprocess.Popen(suite_cmd(tmp_path, "--broker", spec, "--profile", "release"), cwd=ROOT,
                            env=suite_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        rows_file = _wait_for_rows(tmp_path, proc)
        os.killpg(proc.pid, signal.SIGINT)             # what Ctrl-C in a terminal does
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    manifest = json.loads((rows_file.parent / "manifest.json").read_text())
    # cut short: never complete (the gate refuses it), but its rows are all counted
    assert manifest["complete"] is False and "interrupted" in manifest["incomplete_reason"], manifest
    assert manifest["rows"] == len(read_rows(rows_file)), manifest
    assert not leftovers(proc.pid, manifest["brokers"][0]["address"])
    assert read_rows(rows_file), "the rows written before Ctrl-C are not readable"


def test_a_swallowed_ctrl_c_still_stops_the_run(tmp_path):
    """A Ctrl-C that something inside a check swallows (hypothesis turns one that lands in a
    draw into FlakyStrategyDefinition and goes on) still ends the run, incomplete, and the
    check it cut short leaves no row: its outcome is not a verdict."""
    proc, rows, manifest = run_suite(tmp_path, "--broker", "tansu", "--property", "P1",
                                     "-p", "tests.broker_killer", "--swallow-ctrl-c-in=3")
    assert "KeyboardInterrupt" in proc.stdout_text, proc.stdout_text[-3000:]
    assert manifest["complete"] is False and "interrupted" in manifest["incomplete_reason"], manifest
    assert len(rows) == 2 and manifest["rows"] == 2, (rows, manifest)
    assert not leftovers(proc.pid, manifest["brokers"][0]["address"])


def _wait_for_rows(tmp_path, proc, timeout=240) -> Path:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        last = tmp_path / "last-run"
        if last.exists():
            rows = Path(last.read_text().strip()) / "results.jsonl"
            if rows.exists() and rows.stat().st_size and read_rows(rows):
                return rows
        assert proc.poll() is None, proc.stdout.read().decode()[-2000:]
        time.sleep(0.2)
    raise AssertionError("the run wrote no row in time")


def test_a_cut_off_results_file_is_readable_up_to_its_last_complete_line(tmp_path):
    proc, rows, _ = run_suite(tmp_path, "--broker", "tansu", "-k", "Metadata")
    assert proc.returncode == 0 and len(rows) >= 3
    whole = Path((tmp_path / "last-run").read_text().strip(), "results.jsonl").read_text()
    lines = whole.splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:2]) + lines[2][: len(lines[2]) // 2])
    assert read_rows(cut) == rows[:2]
    cut.write_text("".join(lines[:2]))
    assert read_rows(cut) == rows[:2]


@pytest.mark.parametrize("fault,expect,args", [
    ("conn-drop=2", "closed (connection closed by the broker)", ()),
    ("conn-truncate=2", "closed (connection closed by the broker after", ()),
    ("conn-delay=1500,2", "timeout (no answer within 1.0s)", ("--request-timeout", "1")),
])
def test_a_connection_fault_fails_one_check_and_the_run_goes_on(tmp_path, fault, expect, args):
    proc, rows, manifest = run_suite(tmp_path, "--broker", f"proxy:{fault}@tansu", "--property", "P1",
                                     "-k", "Metadata", *args)
    assert proc.returncode == 0, proc.stdout_text[-3000:]
    failed = [r for r in rows if r["outcome"] == "fail"]
    assert len(failed) == 1 and expect in failed[0]["message"], failed
    assert failed[0]["counterexample"]["steps"], failed[0]
    assert all(r["outcome"] in ("pass", "unsupported") for r in rows if r is not failed[0])
    assert manifest["complete"] and manifest["brokers"][0]["error"] is None
    assert manifest["brokers"][0]["impl"] == "tansu"


def test_a_long_pause_of_the_broker_is_not_its_death(tmp_path):
    """A broker frozen for 9 s (SIGSTOP, as a long GC pause or a failover looks from
    outside) misses one answer; it is probed over a longer window, not condemned by one
    5 s probe, and the checks after the pause get verdicts, not errors."""
    proc, rows, manifest = run_suite(tmp_path, "--broker", "tansu", "--property", "P1", "-k", "Metadata",
                                     "--request-timeout", "2", "-p", "tests.broker_killer",
                                     "--pause-broker-after", "2", "--pause-seconds", "9")
    assert proc.returncode == 0, proc.stdout_text[-3000:]
    assert len(rows) > 4 and manifest["complete"]
    assert [r["outcome"] for r in rows[:2]] == ["pass", "pass"]
    assert not [r for r in rows if r["outcome"] == "error"], [r["message"] for r in rows]
    assert manifest["brokers"][0]["error"] is None


def test_a_broker_killed_from_outside_mid_check_is_no_verdict(tmp_path):
    """The broker is killed while a check waits for its answer: that check cannot tell it
    from a broker its own request killed, so the suite sends the same request to a fresh
    broker; that one answers, so the row is an error (no verdict), not a fail."""
    proc, rows, manifest = run_suite(tmp_path, "--broker", "tansu", "--property", "P1", "-k", "Metadata",
                                     "--request-timeout", "3", "-p", "tests.broker_killer",
                                     "--kill-broker-during", "2")
    assert proc.returncode == 0, proc.stdout_text[-3000:]
    assert [r["outcome"] for r in rows[:2]] == ["pass", "pass"]
    assert rows[2]["outcome"] == "error" and "died during" in rows[2]["message"], rows[2]
    assert "a fresh broker answered the same request" in rows[2]["message"], rows[2]
    assert "stopped from outside?" in rows[2]["message"], rows[2]
    assert all(r["outcome"] == "error" for r in rows[2:]), [r["outcome"] for r in rows]
    assert not leftovers(proc.pid, manifest["brokers"][0]["address"])


def test_a_request_that_kills_a_fresh_broker_again_is_a_fail_with_the_evidence(tmp_path):
    """A broker that dies on the check's own request (proxy:crash-on-delete-topics kills
    the broker behind it on every DeleteTopics) is started afresh and sent the same
    request; it dies again, so that check is a ``fail`` with the request as its
    counterexample and the evidence in its message. The dead broker's later checks stay
    ``error`` rows, and neither broker is left running."""
    proc, rows, manifest = run_suite(tmp_path, "--broker", "proxy:crash-on-delete-topics@tansu",
                                     "--property", "P1", "-k", "DeleteTopics")
    assert proc.returncode == 0, proc.stdout_text[-3000:]
    assert len(rows) >= 2, rows
    first, later = rows[0], rows[1:]
    assert first["outcome"] == "fail", first
    assert "died during DeleteTopics" in first["message"], first
    assert "the same request killed a fresh broker again" in first["message"], first
    steps = first["counterexample"]["steps"]
    assert steps and steps[-1]["api_name"] == "DeleteTopics", first["counterexample"]
    assert all(r["outcome"] == "error" and "unavailable" in r["message"] for r in later), later
    assert not leftovers(proc.pid, manifest["brokers"][0]["address"])


def test_an_external_cluster_is_not_restarted_to_replay(tmp_path):
    """On a cluster the suite did not start there is nothing to restart: a broker that died
    mid-check stays an error row, with the reason no replay was made."""
    from fixtures.pool import BrokerPool
    from fixtures.brokers import BrokerInfo
    pool = BrokerPool(["bootstrap:127.0.0.1:1"])
    pool.infos["bootstrap:127.0.0.1:1"] = BrokerInfo("bootstrap:127.0.0.1:1", "127.0.0.1", 1, external=True)
    killed, why = pool.retry_on_fresh("bootstrap:127.0.0.1:1", [{"api_key": 3}], 1.0)
    assert killed is None and "external cluster" in why
