"""A malformed answer is the broker's ``fail``, never a suite ``error`` (issue 11).

The codec decodes strictly, so what can be wrong in an answer that decodes is its content
shape: no per-item results, an entry dropped, repeated, or named for an item never asked,
a nested partition/config list left empty. Each is a mutant of the fault proxy
(``faults/mutants/malformed.py``, and ``result-missing`` / ``result-duplicated`` /
``result-extra`` of ``faults/mutants/protocol.py``); under each, the properties that read
per-item results run against a real broker and must give verdicts: at least one ``fail``
and not one ``error`` row (a KeyError/IndexError of a check would be one, with the
message "suite error: ...", and a red pytest test, so the run's exit status too).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from faults.mutants import all_mutants
from fixtures.admin import one_partition, one_result
from fixtures.harness import Check, CheckContext, Violation, step
from fixtures import judge
from fixtures.results import read_rows
from protocol.apis import ApiKey

ROOT = Path(__file__).resolve().parents[1]

#: each malformed mutant, and properties whose checks read one item's result out of the
#: answers it breaks (setup through fixtures/admin.py, DeleteTopics/DeleteRecords/config
#: verdicts) and fail fast under it on tansu (a check whose setup waits for a topic to
#: appear in Metadata waits 10 s per example when Metadata answers no name)
READERS = {
    "results-emptied": "D1,D2,R1,C1",
    "results-renamed": "D1,D2,R1,C1",
    "results-unnamed": "D1",
    "nested-emptied": "D1,R1,C1",
    "result-missing": "D1,D2,D3,R1,C1",
    "result-duplicated": "D1,D2,D3,R1,C1",
    "result-extra": "D1,D2,D3,R1,C1",
}
MALFORMED = list(READERS)


def run_through(tmp_path, mutant: str, props: str):
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last"), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
                           "--results-dir", str(tmp_path / "r"), "--profile", "ci", "--seed", "20260501",
                           "--broker", f"proxy:{mutant}@tansu", "--property", props],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    folder = Path((tmp_path / "last").read_text().strip())
    return proc, read_rows(folder / "results.jsonl")


def test_the_malformed_mutants_are_registered_and_caught_by_p2():
    known = all_mutants()
    for name in MALFORMED:
        assert name in known, name
        assert "P2" in known[name].catches, name


@pytest.mark.parametrize("mutant", MALFORMED)
def test_a_malformed_answer_is_a_fail_never_a_suite_error(tmp_path, mutant):
    proc, rows = run_through(tmp_path, mutant, READERS[mutant])
    # a malformed answer to the check's own question is a fail; one to a set-up step it needs
    # (its helper topic's CreateTopics) is an error row saying so; never a suite error
    errors = [(r["property"], r["api_name"], r["api_version"], r["message"]) for r in rows
              if r["outcome"] == "error" and not r["message"].startswith("setup failed")]
    assert not errors, errors[:5]
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert any(r["outcome"] == "fail" for r in rows), [(r["property"], r["outcome"]) for r in rows]


# -- the validating reader itself -------------------------------------------------------------

def _answer(*names):
    return {"throttle_time_ms": 0,
            "responses": [{"name": n, "topic_id": None, "error_code": 0, "error_message": None} for n in names]}


def _answered(api_key, version, body) -> Check:
    """A check whose one step (``api_key`` at ``version``) got ``body`` as its answer, as the
    judge reads answers (no broker: the reader and the judge alone)."""
    check = Check(CheckContext("offline", "kac-x-", request_timeout=1.0), "P2", "", api_key, version)
    at = check.record_step(step(api_key, version, {}))
    check.answers[at] = judge.Answer("ok", body)
    return check


def test_one_result_reads_the_entry_for_the_name():
    answer = _answer("a", "b")
    assert one_result(_answered(ApiKey.DeleteTopics, 6, answer), ApiKey.DeleteTopics, 6, answer, "b")["name"] == "b"


@pytest.mark.parametrize("answer,says", [
    (_answer(), "DeleteTopics v6: expected one result for topic a; got 0 values, expected 1"),
    (_answer("b"), "DeleteTopics v6: expected one result for topic a; got 0 values, expected 1"),
    (_answer("a", "a"), "DeleteTopics v6: expected one result for topic a; got 2 value(s)"),
])
def test_one_result_of_a_malformed_answer_is_the_judges_violation(answer, says):
    with pytest.raises(Violation) as exc:
        one_result(_answered(ApiKey.DeleteTopics, 6, answer), ApiKey.DeleteTopics, 6, answer, "a")
    assert str(exc.value).startswith(says)
    assert exc.value.expectation["count"] == 1


def test_one_partition_of_an_emptied_partition_list_is_a_violation():
    answer = {"throttle_time_ms": 0, "topics": [{"name": "a", "partitions": []}]}
    with pytest.raises(Violation, match="DeleteRecords v2: expected one result for partition a-0; got 0 values"):
        one_partition(_answered(ApiKey.DeleteRecords, 2, answer), ApiKey.DeleteRecords, 2, answer, "a", 0)
    answer["topics"][0]["partitions"] = [{"partition_index": 0, "low_watermark": 0, "error_code": 0}]
    assert one_partition(_answered(ApiKey.DeleteRecords, 2, answer), ApiKey.DeleteRecords, 2, answer, "a",
                         0)["error_code"] == 0


def test_one_result_names_a_config_resource_as_a_resource():
    answer = {"throttle_time_ms": 0, "results": []}
    with pytest.raises(Violation, match="DescribeConfigs v4: expected one result for resource t; got 0 values"):
        one_result(_answered(ApiKey.DescribeConfigs, 4, answer), ApiKey.DescribeConfigs, 4, answer, "t")
