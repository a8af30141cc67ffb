"""T1-T2 can fail: each topic mutant (faults/mutants/topics.py) makes the row of the test
written for it ``fail`` through ``proxy:MUTANT@noida``, while the same row through the
transparent ``proxy:none@noida`` is not ``fail``.

One real suite run (a subprocess, as users run it) per test, with the mutant and the
baseline side by side (each ``--broker`` gets its own noida behind its own proxy).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "proxy:none@noida"

#: mutant -> (the test that must catch it, property, API, version). Versions where noida
#: itself deviates (CreateTopics v0/v1 close the connection) are not used.
KILLS = {
    "invalid-topic-name-wrong-code":
        ("test_t1_names_kafka_rejects_answer_invalid_topic_exception", "T1", "CreateTopics", 5),
    "existing-topic-answered-success":
        ("test_t1_an_existing_topic_answers_topic_already_exists", "T1", "CreateTopics", 7),
    "replication-factor-unchecked":
        ("test_t1_replication_factors_kafka_rejects_answer_invalid_replication_factor", "T1", "CreateTopics", 4),
    "create-partitions-accepts-lower-count":
        ("test_t2_the_same_or_a_lower_count_answers_invalid_partitions_and_changes_nothing", "T2",
         "CreatePartitions", 3),
}


def run_suite(tmp: Path, test: str, api: str, version: int, brokers: list[str]) -> dict:
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp / "last-run"))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "conformance/test_topics.py", "conformance/test_create_partitions.py", "-q",
         "-p", "no:cacheprovider",
         "-k", f"{test} and noida-{api}-v{version}", *[a for b in brokers for a in ("--broker", b)],
         "--profile", "ci", "--seed", "1", "--results-dir", str(tmp / "results")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    run = Path((tmp / "last-run").read_text().strip())
    return {r["broker"]: r for r in read_rows(run / "results.jsonl")}


@pytest.mark.parametrize("mutant", list(KILLS))
def test_the_mutant_fails_the_property_that_passes_through_the_transparent_proxy(tmp_path, mutant):
    test, prop, api, version = KILLS[mutant]
    mutated_spec = f"proxy:{mutant}@noida"
    rows = run_suite(tmp_path, test, api, version, [BASELINE, mutated_spec])
    for row in rows.values():
        assert (row["property"], row["api_name"], row["api_version"]) == (prop, api, version), row
    assert rows[BASELINE]["outcome"] == "pass", rows[BASELINE]
    assert rows[mutated_spec]["outcome"] == "fail", rows[mutated_spec]
    assert rows[mutated_spec]["counterexample"]["steps"], rows[mutated_spec]
