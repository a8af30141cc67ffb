"""Bad input of ``kafka-admin-conformance run`` (issue 55, item 6): one line on stderr, exit
2, within seconds, before any worker, JVM, broker or Spark job starts, and no run folder or
report left (fixtures/console.py ``check_run``, which calls the plugin's own checks,
fixtures/plugin/options.py ``check_options``, and each target's, ``Target.check``).

Each case runs the command as a user does and counts stderr's non-empty lines. That nothing
started is what stdout (empty: no worker, pytest or Spark said anything) and the results and
report folders (none) show; the wall time is printed (``-s``) and, where nothing in the case
waits, held under ``BOUND_S``, a bound loose enough for a loaded CI worker: the figure itself
(under 10 s on a quiet machine) is measured by ``benchmarks/bench_bad_input.py``
(benchmarks/README.md, ``bad_input_run_s``). No case starts a JVM except the network-less one
(Maven runs there), which is marked slow."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fixtures import console, plugin
from fixtures.brokers.kafka import NEWEST_RELEASE

ROOT = Path(__file__).resolve().parent.parent
PREFIX = "kafka-admin-conformance: error: "
#: a refusal's wall time on a loaded machine (CI runs three test modules at once beside Kafka
#: JVMs): 10-13 s was seen at load 7 where a quiet machine takes 1-2 s
BOUND_S = 45.0


def command(tmp_path, *args) -> list[str]:
    return [sys.executable, "-m", "fixtures.console", "run", "--results-dir", str(tmp_path / "results"),
            "--out", str(tmp_path / "report"), *args]


def refused(tmp_path, *args, expect: str, env=None, cheap=True) -> str:
    """Run ``run ARGS``: exit 2, one line naming ``expect``, nothing made; the line."""
    t0 = time.monotonic()
    proc = subprocess.run(command(tmp_path, *args), cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})
    seconds = time.monotonic() - t0
    print(f"\nrun {' '.join(args)}: exit {proc.returncode} in {seconds:.2f} s")
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith(PREFIX), proc.stderr[-2000:]
    assert expect in lines[0], lines[0]
    assert proc.stdout == "", proc.stdout[-2000:]               # no worker, pytest or Spark said anything
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").iterdir())
    assert not (tmp_path / "report").exists()
    if cheap:
        assert seconds < BOUND_S, f"{seconds:.1f} s"
    return lines[0]


# -- broker specs ---------------------------------------------------------------------------

@pytest.mark.parametrize("spec, expect", [
    (f"kafka:{NEWEST_RELEASE},preset=nosuch", "unknown preset 'nosuch'; the presets are policy, nodelete, quota, acl"),
    (f"kafka:{NEWEST_RELEASE},foo=bar", "unknown option 'foo'; the options are nodes=N"),
    ("kafka:2.8.0", "kafka:2.8.0: releases from 3.3.0 on run here"),
    (f"kafka:{NEWEST_RELEASE},mode=zk", "has no ZooKeeper mode (4.0 removed it, KIP-833); mode=zk runs 3.x releases"),
    ("kafka:4.4", "kafka:4.4: write a release number, e.g. kafka:"),
    ("nosuch", "unknown broker spec 'nosuch'; use one of: tansu, noida, kafka:VERSION"),
])
def test_a_spec_that_cannot_run_is_one_line(tmp_path, spec, expect):
    refused(tmp_path, "--broker", spec, expect=expect)


def test_a_release_maven_central_does_not_serve_names_those_it_serves(tmp_path):
    """Decided once, in the parent, from Central's list (not by nine workers each running
    Maven); nothing of it is left in the release cache."""
    cache = tmp_path / "cache"
    line = refused(tmp_path, "--broker", "kafka:9.9.9", env={"KAC_KAFKA_CACHE": str(cache)},
                   expect="kafka:9.9.9: no such Apache Kafka release on Maven Central; releases found: ")
    assert "3.9.0..3.9." in line and NEWEST_RELEASE in line, line
    assert not cache.exists() or not any(cache.iterdir())


def _network_less() -> bool:
    return shutil.which("unshare") is not None and subprocess.run(
        ["unshare", "-n", "true"], capture_output=True).returncode == 0


@pytest.mark.slow           # Maven (a JVM) decides where Central does not answer
@pytest.mark.skipif(not _network_less(), reason="needs `unshare -n` (a network namespace) to take the network away")
def test_without_a_network_an_uncached_release_says_so_and_names_the_cached_ones(tmp_path):
    cache = tmp_path / "cache"
    (cache / "3.9.2").mkdir(parents=True)
    (cache / "3.9.2" / "complete").write_text("2026-01-01T00:00:00Z\n")
    t0 = time.monotonic()
    proc = subprocess.run(["unshare", "-n", *command(tmp_path, "--broker", "kafka:9.9.9")], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, env={**os.environ, "KAC_KAFKA_CACHE": str(cache)})
    print(f"\nrun --broker kafka:9.9.9 without a network: exit {proc.returncode} in {time.monotonic() - t0:.2f} s")
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr[-2000:]
    assert lines[0].startswith(PREFIX + "kafka:9.9.9: not in the cache, and neither Maven nor this check reach "
                                        "Maven Central ("), lines[0]
    assert lines[0].endswith("or run a release in the cache: 3.9.2"), lines[0]
    assert not (tmp_path / "results").exists() and not (tmp_path / "report").exists()


# -- bootstrap clusters ---------------------------------------------------------------------

def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_refused_bootstrap_port_is_one_line(tmp_path):
    refused(tmp_path, "--broker", "bootstrap:127.0.0.1:1",
            expect="bootstrap:127.0.0.1:1: nothing answers ApiVersions at 127.0.0.1:1 (connection refused at 127.0.0.1:1); "
                   "check the address and that the cluster is up")
    port = _closed_port()
    refused(tmp_path, "--broker", f"bootstrap:127.0.0.1:{port}", expect="connection refused at 127.0.0.1:")


def test_a_bootstrap_address_where_nothing_answers_is_one_line_after_the_connect_timeout(tmp_path):
    """A loopback listener that never accepts: the kernel completes the connection, and
    nothing ever answers ApiVersions; offline and quick to set up, where a black-holed
    address (a connect that never completes) is bounded by the same timeout at connect."""
    from fixtures.brokers.external import CHECK_TIMEOUT
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        port = silent.getsockname()[1]
        refused(tmp_path, "--broker", f"bootstrap:127.0.0.1:{port}", cheap=False,
                expect=f"nothing answers ApiVersions at 127.0.0.1:{port} (connected, no answer within {CHECK_TIMEOUT:g} s)")


def test_a_bootstrap_host_that_does_not_resolve_is_one_line(tmp_path):
    refused(tmp_path, "--broker", "bootstrap:nosuch.invalid:9092", expect="nothing answers ApiVersions at nosuch.invalid:9092 (cannot resolve nosuch.invalid")


def test_ctrl_c_while_the_parent_checks_ends_it_at_once(tmp_path):
    """SIGINT to the command while it waits on a cluster that does not answer: exit 130, one
    line, nothing started or left."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        proc = subprocess.Popen(command(tmp_path, "--broker", f"bootstrap:127.0.0.1:{silent.getsockname()[1]}"),
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60      # until it has connected: the listener's backlog holds it
        while time.monotonic() < deadline and proc.poll() is None and not _queued(silent):
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert proc.returncode == 130 and lines == [PREFIX + "interrupted"], (proc.returncode, err[-2000:])
    assert not (tmp_path / "results").exists() and not (tmp_path / "report").exists()


def _queued(listener: socket.socket) -> bool:
    """Has a connection arrived at ``listener`` (readable: one waits to be accepted)?"""
    import select
    return bool(select.select([listener], [], [], 0)[0])


# -- the suite's other options --------------------------------------------------------------

@pytest.mark.parametrize("args, expect", [
    (["--property", "NOSUCH", "--broker", f"kafka:{NEWEST_RELEASE}"], "--property: unknown NOSUCH; known: A1, "),
    (["--property", "P2,NOSUCH"], "--property: unknown NOSUCH; known: "),
    (["--jobs", "0"], "--jobs 0: give at least 1"),
    (["--jobs", "abc"], "argument --jobs: invalid int value: 'abc'"),
    (["--profile", "nosuch"], "argument --profile: invalid choice: 'nosuch' (choose from 'ci', 'dev', 'release')"),
    (["--replay", "/nonexistent/results.jsonl:1"], "--replay: no results file at /nonexistent/results.jsonl"),
    (["--kafka-release", "2.0"], "--kafka-release 2.0: the suite knows the rules of Kafka"),
    (["--baseline", "/nonexistent/baseline.json"], "--baseline /nonexistent/baseline.json: no such file or folder; "),
])
def test_a_bad_option_is_one_line(tmp_path, args, expect):
    refused(tmp_path, *args, expect=expect)


def test_an_option_of_run_itself_without_its_value_is_one_line(tmp_path):
    refused(tmp_path, "--out", expect="argument --out: expected one argument")


def test_a_results_dir_or_out_that_is_a_file_is_one_line(tmp_path):
    file = tmp_path / "a-file"
    file.write_text("")
    for option in ("--results-dir", "--out"):
        refused(tmp_path, option, str(file), expect=f"{option} {file}: is a file, not a folder; name a writable folder")
        refused(tmp_path, option, str(file / "sub"), expect=f"{option} {file / 'sub'}: cannot be made: {file} is a file")


def test_a_results_dir_that_is_not_writable_is_one_line(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() == 0:     # root passes permission checks: an immutable folder refuses even root
        if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
            pytest.skip("running as root where chattr +i does not work: no folder root cannot write")
    else:
        folder.chmod(0o500)
    try:
        refused(tmp_path, "--results-dir", str(folder),
                expect=f"--results-dir {folder}: cannot be written (")
    finally:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
        folder.chmod(0o700)


def test_a_results_dir_whose_parents_do_not_exist_is_made_as_pytest_conformance_makes_it(tmp_path):
    """Not bad input: the results folder is made, parents and all, when the run opens, as
    ``pytest conformance --results-dir`` does; the check before it leaves nothing behind."""
    plugin.check_folder("--results-dir", str(tmp_path / "a" / "b" / "c"))
    assert not (tmp_path / "a").exists()


# -- the parent's reading of the options agrees with the suite's --------------------------

def test_the_properties_the_command_knows_are_those_the_suite_collects():
    """``run`` refuses an unknown --property from the markers it reads in the source; the
    plugin, from the tests it collects: the same set, or a run would pass one and a worker
    refuse it (or the other way round)."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
                           "--collect-only", "--property", "NOSUCH"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    line = next((ln for ln in proc.stderr.splitlines() if "--property: unknown NOSUCH; known: " in ln), None)
    assert line is not None, proc.stdout[-2000:] + proc.stderr[-2000:]
    collected = set(line.split("known: ", 1)[1].split(", "))
    assert console.declared_properties(console.suite_package()) == collected


def test_the_command_reads_the_suites_options_as_pytest_does(tmp_path, monkeypatch):
    """Defaults from the environment, repeated and ``=`` forms, PYTEST_ADDOPTS, and the
    options it does not know left alone."""
    monkeypatch.setenv("PYTEST_ADDOPTS", "--jobs 0")
    assert console.check_run(["--broker=tansu", "-k", "p3"], str(tmp_path / "r"), console.suite_package()) \
        == "--jobs 0: give at least 1"
    monkeypatch.delenv("PYTEST_ADDOPTS")
    monkeypatch.setenv("KAC_RESULTS_DIR", str(tmp_path / "file"))
    (tmp_path / "file").write_text("")
    assert "--results-dir " + str(tmp_path / "file") in console.check_run(["-x", "--lf"], str(tmp_path / "r"),
                                                                          console.suite_package())
    monkeypatch.delenv("KAC_RESULTS_DIR")
    assert console.check_run(["--broker", "tansu", "--broker", "noida", "--property", "P2", "--property", "P3,P4",
                              "--results-dir", str(tmp_path / "results")], str(tmp_path / "r"),
                             console.suite_package()) is None
    assert not (tmp_path / "results").exists() and not (tmp_path / "r").exists()
