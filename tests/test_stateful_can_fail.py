"""S1 can fail: through a fault-injecting proxy the state machine finds the fault, shrinks
it to a short script of requests, stores it in the row, and ``--replay`` of that row fails
again (and passes against the transparent proxy, so the script is about the fault).

Baseline: ``proxy:none@proxy:kafka-s1-shim@noida``. noida answers S1's Metadata and
CreatePartitions rows as Kafka does but for two single-request points the shim corrects
(faults/mutants/stateful.py), so those rows pass there; each mutant sits in front of the
same shimmed noida. The suite runs as users run it, in a subprocess.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
SHIMMED = "proxy:kafka-s1-shim@noida"
BASELINE = f"proxy:none@{SHIMMED}"
SELECT = "noida-Metadata or noida-CreatePartitions"

#: mutant -> (rows (focus API) of which at least one must fail, text the failing script shows)
MUTANTS = {
    # S1's own: a stale per-name cache shows only after delete + create of the same name
    "metadata-stale-after-recreate": (("Metadata", "CreatePartitions"), ("DeleteTopics", "CreateTopics")),
    # DeleteTopics success-but-stays: the invariant after the step sees the topic
    "delete-topics-answer-without-deleting": (("Metadata", "CreatePartitions"), ("DeleteTopics",)),
    # validate_only executed: partitions appear that the model did not add
    "validate-only-ignored": (("CreatePartitions",), ("validate_only",)),
}


def run_suite(tmp: Path, *args, timeout=900) -> tuple[Path, list[dict]]:
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp / "last-run"))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "conformance/test_stateful.py", "-q", "-p", "no:cacheprovider",
         "--property", "S1", "--profile", "ci", "--results-dir", str(tmp / "results"), *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    path = Path((tmp / "last-run").read_text().strip()) / "results.jsonl"
    return path, read_rows(path)


@pytest.fixture(scope="module")
def mutated_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("s1")
    brokers = [BASELINE] + [f"proxy:{m}@{SHIMMED}" for m in MUTANTS]
    return run_suite(tmp, "-k", SELECT, "--seed", "1", *[a for b in brokers for a in ("--broker", b)])


def rows_of(rows, spec):
    return {r["api_name"]: r for r in rows if r["broker"] == spec and r["property"] == "S1"}


def test_the_baseline_passes_the_rows_the_mutants_are_measured_on(mutated_run):
    _, rows = mutated_run
    base = rows_of(rows, BASELINE)
    assert set(base) == {"Metadata", "CreatePartitions"}, base
    for row in base.values():
        assert row["outcome"] == "pass", row
        assert row["examples"] >= 1 and row["api_version"] is None


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_each_mutant_fails_s1_with_a_short_replayable_script(mutated_run, mutant):
    _, rows = mutated_run
    focus, shown = MUTANTS[mutant]
    mine = rows_of(rows, f"proxy:{mutant}@{SHIMMED}")
    failing = [mine[f] for f in focus if mine.get(f, {}).get("outcome") == "fail"]
    assert failing, {f: (r["outcome"], r["message"]) for f, r in mine.items()}
    for row in failing:
        ce = row["counterexample"]
        assert ce["steps"], row                     # the requests sent
        ops = ce["input"]["steps"]                  # the operations --replay re-runs
        assert 1 <= len(ops) <= 6, ce["script"]     # shrunk
        assert ce["input"]["sub"].startswith(ce["prefix"])
        script = "\n".join(ce["script"])
        assert "   !! " in script and all(text in script for text in shown), script
        assert row["message"].splitlines()[1].startswith("# S1, focus"), row["message"]


def test_replay_of_a_failing_row_fails_again_and_passes_without_the_fault(mutated_run, tmp_path):
    path, rows = mutated_run
    row = rows_of(rows, f"proxy:metadata-stale-after-recreate@{SHIMMED}")
    row = next(r for r in row.values() if r["outcome"] == "fail")
    ref = f"{path}:{row['row_id']}"

    _, again = run_suite(tmp_path / "same", "--replay", ref)
    assert len(again) == 1
    replayed = again[0]
    assert (replayed["broker"], replayed["api_key"], replayed["outcome"], replayed["examples"]) == \
        (row["broker"], row["api_key"], "fail", 1)
    old, new = row["counterexample"], replayed["counterexample"]
    assert new["input"]["steps"] == old["input"]["steps"]
    assert new["input"]["sub"] != old["input"]["sub"] and new["input"]["sub"].startswith(new["prefix"])
    assert new["script"][1:] == old["script"][1:]      # the same script, under the new prefix

    _, clean = run_suite(tmp_path / "clean", "--replay", ref, "--broker", BASELINE)
    assert [(r["broker"], r["outcome"], r["examples"]) for r in clean] == [(BASELINE, "pass", 1)]
