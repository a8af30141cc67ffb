"""D1-D6 can fail: each DeleteTopics mutant (faults/mutants/delete_topics.py) makes the
property it breaks ``fail`` at every version where the same property passes through the
transparent proxy.

One real suite run (a subprocess, as users run it) per property, the baseline and the
mutants side by side (each ``--broker`` gets its own broker behind its own proxy).

Baselines: ``proxy:none@noida`` where noida behaves as Kafka (D1, D3-D5 at v1-v6; noida
closes the connection on v0, which it advertises). Neither local broker answers
duplicates (D2) or topic ids (D6) as Kafka does, so there the baseline is
``proxy:none@proxy:kafka-delete-topics@tansu``: tansu behind a model of Kafka 4's
``ControllerApis.deleteTopics``; that it passes D1-D6 also shows the oracles accept what
Kafka answers (including D5's REQUEST_TIMED_OUT with the topics kept).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
NOIDA = "proxy:none@noida"
KAFKA_MODEL = "proxy:kafka-delete-topics@tansu"

#: (property, baseline inner spec, mutants, -k selection, extra options). Mutants whose
#: failure costs a wait per example run at one version only.
CASES = {
    "D1": ("noida", ["delete-unknown-topic-invalid-topic"], None, ()),
    "D2": (KAFKA_MODEL, ["delete-duplicates-collapsed"], None, ()),
    "D3": ("noida", ["delete-batch-all-or-nothing"], None, ()),
    "D4": ("noida", ["delete-topics-answer-without-deleting"], "DeleteTopics-v3", ("--request-timeout", "3")),
    "D5": ("noida", ["delete-timeout-nonpositive-refused", "delete-topics-answer-without-deleting"],
           "DeleteTopics-v3", ("--request-timeout", "3")),
    "D5-slow": ("noida", ["delete-timeout-nonpositive-waits"], "DeleteTopics-v5", ()),
    # D6's known deviation's dedicated check (an entry naming nothing) is not what these
    # mutants break: the main D6 check only
    "D6": (KAFKA_MODEL, ["delete-name-and-id-by-id", "delete-unknown-id-unknown-topic"],
           "not neither_name_nor_id", ()),
}


def run_suite(tmp: Path, prop: str, brokers: list[str], select: str | None, extra) -> list[dict]:
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp / "last-run"))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "conformance/test_delete_topics.py", "conformance/test_delete_topics_by_id.py",
         "-q", "-p", "no:cacheprovider",
         "--property", prop, *(["-k", select] if select else []),
         *[a for b in brokers for a in ("--broker", b)],
         "--profile", "ci", "--seed", "1", "--results-dir", str(tmp / "results"), *extra],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    run = Path((tmp / "last-run").read_text().strip())
    return read_rows(run / "results.jsonl")


def assert_killed(rows: list[dict], prop: str, baseline: str, mutated: list[str]) -> None:
    cells = {(r["broker"], r["api_version"]): r for r in rows}
    assert all(r["property"] == prop for r in rows), {r["property"] for r in rows}
    passing = [v for (b, v), r in cells.items() if b == baseline and r["outcome"] == "pass"]
    assert passing, [r for r in rows if r["broker"] == baseline]
    for spec in mutated:
        for v in passing:
            row = cells.get((spec, v))
            assert row is not None, f"{spec}: no {prop} row at v{v}"
            assert row["outcome"] == "fail", row
            assert row["counterexample"]["steps"], row


@pytest.mark.parametrize("case", list(CASES))
def test_each_delete_topics_mutant_fails_its_property_where_the_baseline_passes(tmp_path, case):
    inner, mutants, select, extra = CASES[case]
    prop = case.split("-")[0]
    baseline = f"proxy:none@{inner}"
    mutated = [f"proxy:{m}@{inner}" for m in mutants]
    rows = run_suite(tmp_path, prop, [baseline, *mutated], select, extra)
    assert_killed(rows, prop, baseline, mutated)


def test_the_kafka_model_passes_every_delete_topics_property(tmp_path):
    """The model of Kafka 4's answers passes D1-D6 at every version: the oracles accept
    the reference's behaviour (duplicates refused, ids, REQUEST_TIMED_OUT for timeout <= 0)."""
    rows = run_suite(tmp_path, "D1,D2,D3,D4,D5,D6", [f"proxy:none@{KAFKA_MODEL}"], None, ())
    # D1-D5 at v0-v6 (7 x 5), D6 at v6, and the check of an entry naming nothing at v6
    assert len(rows) == 7 * 5 + 2, len(rows)
    bad = [r for r in rows if r["outcome"] != "pass"]
    assert not bad, bad
    d5 = [r["message"] for r in rows if r["property"] == "D5"]
    assert all("REQUEST_TIMED_OUT and were kept" in m for m in d5), d5
