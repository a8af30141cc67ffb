"""A real conformance run, end to end, against real brokers: the rows it writes are
well-formed and complete, bad input gets one line, replay works, nothing is left running.

The suite is run as users run it (``pytest conformance ...`` in a subprocess) so the
plugin's option parsing, session start and teardown are exercised for real.
"""
from __future__ import annotations

import json
import re
import os
import subprocess
import sys
from pathlib import Path

import pytest

from protocol.codec import ADMIN_APIS
from fixtures.results import read_rows
from tests.row_checks import assert_well_formed

ROOT = Path(__file__).resolve().parents[1]
REQUIRED_APIS = (18, 19, 20, 21, 32, 44)      # issue 2: rows at every advertised version
WHERE_ADVERTISED = (33, 37)

def run_suite(tmp_path, *args, timeout=900):
    """The suite in a subprocess; its brokers' scratch folders under ``tmp_path/scratch``
    (TMPDIR), so what it leaves behind is told apart from other tests' brokers (the test
    modules run side by side: pytest-xdist). The result carries the run's ``pid`` (the label
    of the containers it starts)."""
    scratch = tmp_path / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last-run"), TMPDIR=str(scratch))
    with subprocess.Popen([sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
                           "--results-dir", str(tmp_path / "results"), *args],
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as p:
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            raise
    proc = subprocess.CompletedProcess(p.args, p.returncode, out, err)
    proc.pid, proc.scratch = p.pid, scratch
    return proc


def the_run(tmp_path) -> Path:
    return Path((tmp_path / "last-run").read_text().strip())


def docker_available() -> bool:
    try:
        from fixtures.brokers.container import docker_client
        docker_client("tests").close()
        return True
    except Exception:
        return False


def brokers_for_matrix():
    specs = ["tansu", "noida"]
    if docker_available():
        specs.append("container:tansu")
    elif os.environ.get("KAC_REQUIRE_DOCKER") == "1":
        pytest.fail("KAC_REQUIRE_DOCKER=1 but no Docker engine answers")
    return specs


#: The properties the matrix asks: the rows of every advertised version (P1, P2) and of the
#: versions above (P3) are what its tests check on each broker. A run of every property on
#: three brokers took 750 s of CI; the rows of every property are checked on the Kafka ci run
#: (tests/test_kafka_target.py), the shared-cluster runs and the fixed-seed tansu run.
MATRIX_PROPERTIES = ("P1", "P2", "P3")


@pytest.fixture(scope="module")
def matrix_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("matrix")
    specs = brokers_for_matrix()
    args = [a for s in specs for a in ("--broker", s)]
    # the rows' presence and shape are checked, not their examples' size: failures are not
    # shrunk (tansu's and noida's P1-P3 findings shrinking: 26 -> 15 CPU s without)
    proc = run_suite(tmp, *args, "--profile", "ci", "--seed", "1234", "--property", ",".join(MATRIX_PROPERTIES),
                     "--shrink-seconds", "0")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    run = the_run(tmp)
    MATRIX_PROCESS.update(pid=proc.pid, scratch=str(proc.scratch))
    return specs, run, read_rows(run / "results.jsonl"), json.loads((run / "manifest.json").read_text())


#: the matrix run's process id and scratch folder (what test_no_broker_process_or_container_is_left looks for)
MATRIX_PROCESS: dict = {}


def test_every_row_is_well_formed(matrix_run):
    _, run, rows, _ = matrix_run
    assert_well_formed(rows, run.name)
    assert {r["property"] for r in rows} == set(MATRIX_PROPERTIES)


def test_every_advertised_version_of_every_admin_api_has_p1_to_p3_rows(matrix_run):
    specs, _, rows, manifest = matrix_run
    by_spec = {b["spec"]: b for b in manifest["brokers"]}
    for spec in specs:
        advertised = {int(k): v for k, v in by_spec[spec]["api_versions"].items()}
        for key in REQUIRED_APIS + WHERE_ADVERTISED:
            if key not in advertised:
                assert key in WHERE_ADVERTISED, f"{spec} does not advertise API {key}"
                continue
            low, high = advertised[key]
            for version in range(low, min(high, ADMIN_APIS[key].max_version) + 1):
                for prop in ("P1", "P2"):
                    got = [r for r in rows if (r["broker"], r["property"], r["api_key"], r["api_version"])
                           == (spec, prop, key, version)]
                    assert len(got) == 1, (spec, prop, key, version, got)
                    assert got[0]["outcome"] in ("pass", "fail"), got[0]
            assert any(r["property"] == "P3" and r["api_key"] == key and r["broker"] == spec for r in rows)


def test_versions_a_broker_does_not_advertise_are_unsupported_not_pass(matrix_run):
    specs, _, rows, manifest = matrix_run
    by_spec = {b["spec"]: b for b in manifest["brokers"]}
    p1 = [row for row in rows if row["property"] == "P1"]
    inside_seen = outside_seen = 0
    for row in p1:
        rng = by_spec[row["broker"]]["api_versions"].get(str(row["api_key"]))
        inside = rng is not None and rng[0] <= row["api_version"] <= rng[1]
        assert (row["outcome"] == "unsupported") == (not inside), row
        inside_seen += inside
        outside_seen += not inside
    # both sides of the rule were seen: the brokers advertise some versions and not others
    assert inside_seen and outside_seen, (len(p1), inside_seen, outside_seen)


def test_manifest_records_the_run(matrix_run):
    specs, run, rows, manifest = matrix_run
    assert manifest["complete"] and manifest["ended_at"] and manifest["rows"] == len(rows)
    assert manifest["hypothesis_profile"] == "ci" and manifest["seed"] == 1234
    assert [b["spec"] for b in manifest["brokers"]] == specs
    for b in manifest["brokers"]:
        assert b["error"] is None and b["impl"] and b["api_versions"]
    assert manifest["dependencies"]["kafka-python"] and manifest["dependencies"]["hypothesis"]


def test_no_broker_process_or_container_is_left(matrix_run):
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    mine = [line for line in ps.splitlines() if MATRIX_PROCESS["scratch"] in line]
    assert not any("kac-tansu-" in line or "kac-noida-db-" in line for line in mine), mine
    assert not list(Path(MATRIX_PROCESS["scratch"]).glob("kac-*")), "broker scratch folders left"
    if docker_available():
        from fixtures.brokers.container import RUN_LABEL, docker_client
        client = docker_client("tests")
        try:
            left = client.containers.list(all=True, filters={"label": f"{RUN_LABEL}={MATRIX_PROCESS['pid']}"})
            assert not left, [c.name for c in left]
        finally:
            client.close()


#: A fault that always makes a row fail, so the replay test never depends on what a real
#: broker happens to get wrong: config errors answered as success (faults/mutants/configs.py),
#: over noida answering C4 as Kafka does (the config shim), so only the fault fails the row.
REPLAY_SPEC = "proxy:config-errors-hidden@proxy:kafka-config-shim@noida"


def test_a_failing_row_replays_to_the_same_verdict(tmp_path, kind="bad value"):
    """A mutant makes C4's rows of ``kind`` fail (its errors answered NONE), so there is
    always a failing row; its replay (one kind of one cell, selected by the row's check)
    runs the stored input once and fails the same way."""
    first = tmp_path / "first"
    first.mkdir()
    proc = run_suite(first, "--broker", REPLAY_SPEC, "--property", "C4", "-k",
                     f"IncrementalAlterConfigs-v0-{kind.replace(' ', '-')}", "--profile", "ci", "--seed", "1234")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    run = the_run(first)
    rows = read_rows(run / "results.jsonl")
    failing = [r for r in rows if r["outcome"] == "fail"]
    assert len(rows) == 1 and len(failing) == 1, [(r["check"], r["outcome"], r["message"]) for r in rows]
    row = failing[0]
    assert row["counterexample"]["params"] == {"kind": kind}
    again = tmp_path / "again"
    again.mkdir()
    proc = run_suite(again, "--replay", f"{run / 'results.jsonl'}:{row['row_id']}")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    replayed = read_rows(the_run(again) / "results.jsonl")
    assert len(replayed) == 1, [(r["check"], r["outcome"]) for r in replayed]
    assert (replayed[0]["property"], replayed[0]["api_key"], replayed[0]["check"], replayed[0]["outcome"]) == \
        (row["property"], row["api_key"], row["check"], "fail")
    assert replayed[0]["examples"] == 1


@pytest.mark.parametrize("spec,expect", [
    ("nonsense", "unknown broker spec 'nonsense'"),
    ("bootstrap:nowhere", "write bootstrap:HOST:PORT"),
])
def test_a_bad_broker_spec_is_one_line_not_a_traceback(tmp_path, spec, expect):
    proc = run_suite(tmp_path, "--broker", spec, timeout=120)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert expect in out and "Traceback" not in out, out


def test_a_broker_that_cannot_start_leaves_a_manifest_saying_so(tmp_path):
    """A broker that passes every check before the run (fixtures/brokers ``Target.check``:
    a distribution folder with a kafka jar, a java) and still does not start: the run folder
    says so, incomplete, and the exit is 2."""
    dist = tmp_path / "dist"
    (dist / "libs").mkdir(parents=True)
    (dist / "libs" / "kafka_2.13-0.0.1.jar").write_bytes(b"")          # no classes: the storage tool fails
    proc = run_suite(tmp_path, "--broker", f"kafka-dist:{dist}", "--property", "P1", timeout=300)
    assert proc.returncode == 2
    out = proc.stdout + proc.stderr
    assert "no broker could be started" in out and "Traceback" not in out, out
    manifest = json.loads((the_run(tmp_path) / "manifest.json").read_text())
    # no check ran: the run did not go to its end (the gate refuses it)
    assert manifest["complete"] is False and manifest["incomplete_reason"] == "no broker could be started"
    assert "could not start" in manifest["brokers"][0]["error"]


def test_an_external_cluster_gets_no_mutations_without_consent(tmp_path):
    from fixtures.brokers import make_target
    with make_target("tansu") as info:
        proc = run_suite(tmp_path, "--broker", f"bootstrap:{info.host}:{info.port}", "--profile", "ci",
                         "-k", "p1 and (CreateTopics-v7 or DeleteTopics-v6 or Metadata-v12)")
    assert proc.returncode == 0, proc.stdout[-2000:]
    rows = {r["api_name"]: r for r in read_rows(the_run(tmp_path) / "results.jsonl")}
    assert rows["CreateTopics"]["outcome"] == "skip" and "--allow-destructive" in rows["CreateTopics"]["message"]
    assert rows["DeleteTopics"]["outcome"] == "skip"
    assert rows["Metadata"]["outcome"] in ("pass", "fail")


# -- bad input: one line, a non-zero exit, nothing started, no run folder -----------------
PYTEST_SUMMARY = __import__("re").compile(r"^(no tests ran|\d+ \w+(, \d+ \w+)*) in [\d.]+s$")

def _one_line_error(proc, expect: str, tmp_path, results=None):
    out = proc.stdout + proc.stderr
    assert proc.returncode not in (0, None), out
    assert "Traceback" not in out and "INTERNALERROR" not in out, out
    # one line says what is wrong; pytest may add its own "no tests ran" summary
    lines = [line for line in out.splitlines() if line.strip() and not PYTEST_SUMMARY.match(line)]
    assert len(lines) == 1 and expect in lines[0], out
    results = results or tmp_path / "results"
    assert not results.exists() or not any(results.iterdir()), list(results.iterdir())
    assert not (tmp_path / "last-run").exists()


def _row(**over):
    row = {"row_id": 1, "run_id": "20260101T000000Z-abcdef", "started_at": "2026-01-01T00:00:00.000Z",
           "broker": "tansu", "broker_impl": "tansu", "broker_version": "0.6.0", "property": "P1",
           "api_key": 18, "api_name": "ApiVersions", "api_version": 0, "outcome": "fail", "examples": 1,
           "counterexample": {"input": None, "steps": [], "prefix": "kac-abcdef-"}, "message": "x",
           "source": "x", "duration_s": 0.1, "seed": 1}
    row.update(over)
    return row


def test_a_results_dir_that_is_a_file_is_one_line(tmp_path):
    f = tmp_path / "afile"
    f.write_text("")
    proc = run_suite(tmp_path, "--results-dir", str(f), timeout=120)
    _one_line_error(proc, f"--results-dir {f}: is a file, not a folder", tmp_path)
    proc = run_suite(tmp_path, "--results-dir", str(f / "sub"), timeout=120)
    _one_line_error(proc, f"--results-dir {f / 'sub'}: cannot be made: {f} is a file", tmp_path)


def test_a_results_dir_that_cannot_be_written_is_one_line(tmp_path):
    proc = run_suite(tmp_path, "--results-dir", "/proc/kac-results", timeout=120)
    _one_line_error(proc, "--results-dir /proc/kac-results: cannot be written", tmp_path)


def test_an_unknown_property_lists_the_known_ones(tmp_path):
    proc = run_suite(tmp_path, "--property", "P1,P99", timeout=120)
    _one_line_error(proc, "--property: unknown P99; known: A1, A2, C1, C2", tmp_path)
    assert "P1, P2, P3" in proc.stderr


def test_a_replay_file_with_a_malformed_line_names_the_file_and_line(tmp_path):
    f = tmp_path / "edited.jsonl"
    f.write_text(json.dumps(_row()) + "\n" + "{not json\n" + json.dumps(_row(row_id=3)) + "\n")
    proc = run_suite(tmp_path, "--replay", f"{f}:3", timeout=120)
    _one_line_error(proc, f"--replay: {f} line 2 is not a result row", tmp_path)


@pytest.mark.parametrize("edit,expect", [
    ({"api_key": "nineteen"}, "has api_key='nineteen'"),
    ({"property": None}, "has property=None"),
    ({"counterexample": {"input": {"$uuid": "not-a-uuid"}, "steps": []}}, "has a counterexample that does not load"),
    ({"counterexample": ["steps"]}, "has a counterexample that is not one the suite writes"),
])
def test_a_hand_edited_replay_row_is_one_line(tmp_path, edit, expect):
    f = tmp_path / "edited.jsonl"
    f.write_text(json.dumps(_row()) + "\n" + json.dumps(_row(row_id=2, **edit)) + "\n")
    proc = run_suite(tmp_path, "--replay", f"{f}:2", timeout=120)
    _one_line_error(proc, f"--replay: {f} line 2 (row 2) {expect}", tmp_path)


@pytest.mark.parametrize("args,expect", [
    (("-k", "CreateTopics"), "is deselected by -k/-m; drop them"),
    (("--property", "P2"), "--property P2 leaves out; drop --property"),
])
def test_a_replay_target_deselected_by_another_filter_is_one_line(tmp_path, args, expect):
    f = tmp_path / "results.jsonl"
    f.write_text(json.dumps(_row()) + "\n")
    proc = run_suite(tmp_path, "--replay", f"{f}:1", *args, timeout=120)
    _one_line_error(proc, expect, tmp_path)


def test_a_refused_bootstrap_port_is_reported_at_once(tmp_path):
    """A refused port is said from the one connection attempt made before anything starts
    (fixtures/brokers/external.py ``check``): the reason ``connection refused at HOST:PORT``,
    one line, no run folder. No wall-clock bound: on a loaded CI machine starting pytest
    alone varied by more than any margin."""
    import socket
    with socket.socket() as s:          # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = run_suite(tmp_path, "--broker", f"bootstrap:127.0.0.1:{port}", timeout=120)
    _one_line_error(proc, f"nothing answers ApiVersions at 127.0.0.1:{port} (connection refused at 127.0.0.1:{port})",
                    tmp_path)


@pytest.mark.parametrize("spec", ["bootstrap:127.0.0.1:99999", "bootstrap:127.0.0.1:0"])
def test_a_bootstrap_port_out_of_range_is_a_spec_error(tmp_path, spec):
    proc = run_suite(tmp_path, "--broker", spec, timeout=120)
    _one_line_error(proc, "write bootstrap:HOST:PORT", tmp_path)


def test_terminal_colours_never_reach_a_row_or_the_manifest(tmp_path):
    from fixtures.pool import BrokerPool
    from fixtures.results import ResultWriter
    from fixtures.brokers.target import _tail
    red = "\x1b[31mERROR\x1b[0m \x1b[1mdisk\x1b[22m full\x1b]8;;http://x\x07link\x1b]8;;\x07"
    assert _tail(red) == "; broker said: ERROR disk fulllink"
    w = ResultWriter(tmp_path)
    row = w.write(broker="tansu", property="P1", outcome="error", message=f"broker gone; last log line: {red}",
                  source="x", examples=0)
    w.set_broker({"spec": "tansu", "error": f"could not start: {red}"})
    w.close()
    text = (w.path.read_text() + w.manifest_path.read_text())
    assert "\x1b" not in text and "\\u001b" not in text, text
    assert row["message"].endswith("ERROR disk fulllink")
    pool = BrokerPool(["tansu"])
    pool.validate()
    pool.targets["tansu"].diagnostics = lambda: red
    assert pool.last_words("tansu") == "; last log line: ERROR disk fulllink"


def test_progress_lines_say_broker_property_and_checks_left(tmp_path):
    proc = run_suite(tmp_path, "--broker", "tansu", "--profile", "ci", "--property", "P1,P2", timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    lines = re.findall(r"^\[conformance\] tansu: (\w+) \((\d+) checks of it; (\d+) checks left for tansu\)$",
                       proc.stdout, re.M)
    assert {p for p, _, _ in lines} == {"P1", "P2"}, proc.stdout[-3000:]
    left = [int(n) for _, _, n in lines]
    rows = read_rows(the_run(tmp_path) / "results.jsonl")
    assert left[0] == len(rows)  # every check of the run is still to come at the first line
    assert left == sorted(set(left), reverse=True)  # strictly fewer at each change of property
    for (_, n, here), after in zip(lines, left[1:] + [0]):
        assert 0 < int(here) - after <= int(n)  # the checks run in between are of that property
