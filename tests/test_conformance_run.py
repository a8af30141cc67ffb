"""A real conformance run, end to end, against real brokers: the rows it writes are
well-formed and complete, bad input gets one line, replay works, nothing is left running.

The suite is run as users run it (``pytest conformance ...`` in a subprocess) so the
plugin's option parsing, session start and teardown are exercised for real.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.codec import ADMIN_APIS
from fixtures.results import OUTCOMES, ROW_FIELDS, read_rows

ROOT = Path(__file__).resolve().parents[1]
REQUIRED_APIS = (18, 19, 20, 21, 32, 44)      # issue 2: rows at every advertised version
WHERE_ADVERTISED = (33, 37)

TYPES = {"row_id": int, "run_id": str, "started_at": str, "broker": str, "property": str,
         "outcome": str, "examples": int, "source": str, "duration_s": (int, float), "seed": int}


def run_suite(tmp_path, *args, timeout=900):
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last-run"))
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
                           "--results-dir", str(tmp_path / "results"), *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    return proc


def the_run(tmp_path) -> Path:
    return Path((tmp_path / "last-run").read_text().strip())


def docker_available() -> bool:
    try:
        from fixtures.targets.container import docker_client
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


@pytest.fixture(scope="module")
def matrix_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("matrix")
    specs = brokers_for_matrix()
    args = [a for s in specs for a in ("--broker", s)]
    proc = run_suite(tmp, *args, "--profile", "ci", "--seed", "1234")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    run = the_run(tmp)
    return specs, run, read_rows(run / "results.jsonl"), json.loads((run / "manifest.json").read_text())


def test_every_row_is_well_formed(matrix_run):
    _, run, rows, _ = matrix_run
    assert rows, "the run wrote no rows"
    for i, row in enumerate(rows, 1):
        assert tuple(row) == ROW_FIELDS
        assert row["row_id"] == i and row["run_id"] == run.name
        assert row["outcome"] in OUTCOMES
        for field, kind in TYPES.items():
            assert isinstance(row[field], kind), (field, row)
        assert row["source"], row
        if row["outcome"] == "fail":
            assert row["message"] and row["counterexample"]["steps"], row
        if row["outcome"] in ("unsupported", "error", "skip"):
            assert row["message"], row


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
    for row in rows:
        if row["property"] != "P1":
            continue
        rng = by_spec[row["broker"]]["api_versions"].get(str(row["api_key"]))
        inside = rng is not None and rng[0] <= row["api_version"] <= rng[1]
        assert (row["outcome"] == "unsupported") == (not inside), row


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
    assert "kac-tansu-" not in ps and "kac-noida-db-" not in ps, ps
    if docker_available():
        from fixtures.targets.container import RUN_LABEL, docker_client
        client = docker_client("tests")
        try:
            left = client.containers.list(all=True, filters={"label": RUN_LABEL})
            assert not left, [c.name for c in left]
        finally:
            client.close()


def test_a_failing_row_replays_to_the_same_verdict(matrix_run, tmp_path):
    _, run, rows, _ = matrix_run
    failing = [r for r in rows if r["outcome"] == "fail" and r["broker"] != "container:tansu"]
    if not failing:
        pytest.skip("no broker deviation found in this run, nothing to replay")
    row = failing[0]
    proc = run_suite(tmp_path, "--replay", f"{run / 'results.jsonl'}:{row['row_id']}")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    replayed = read_rows(the_run(tmp_path) / "results.jsonl")
    assert len(replayed) == 1
    assert (replayed[0]["property"], replayed[0]["api_key"], replayed[0]["outcome"]) == \
        (row["property"], row["api_key"], "fail")
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


def test_an_unreachable_cluster_is_one_line_and_leaves_a_manifest(tmp_path):
    proc = run_suite(tmp_path, "--broker", "bootstrap:127.0.0.1:1", timeout=120)
    assert proc.returncode == 2
    out = proc.stdout + proc.stderr
    assert "nothing answers ApiVersions at 127.0.0.1:1" in out and "Traceback" not in out, out
    manifest = json.loads((the_run(tmp_path) / "manifest.json").read_text())
    # no check ran: the run did not go to its end (the gate refuses it)
    assert manifest["complete"] is False and manifest["incomplete_reason"] == "no broker could be started"
    assert "could not start" in manifest["brokers"][0]["error"]


def test_an_external_cluster_gets_no_mutations_without_consent(tmp_path):
    from fixtures.targets import make_target
    with make_target("tansu") as info:
        proc = run_suite(tmp_path, "--broker", f"bootstrap:{info.host}:{info.port}", "--profile", "ci",
                         "-k", "p1 and (CreateTopics-v7 or DeleteTopics-v6 or Metadata-v12)")
    assert proc.returncode == 0, proc.stdout[-2000:]
    rows = {r["api_name"]: r for r in read_rows(the_run(tmp_path) / "results.jsonl")}
    assert rows["CreateTopics"]["outcome"] == "skip" and "--allow-destructive" in rows["CreateTopics"]["message"]
    assert rows["DeleteTopics"]["outcome"] == "skip"
    assert rows["Metadata"]["outcome"] in ("pass", "fail")
