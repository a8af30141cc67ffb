"""S3 can fail: each history mutant (faults/mutants/histories.py: an acknowledged write
dropped, a stale describe after an acknowledged write, a whole-object last-writer-wins
read-modify-write) fails S3 where the same broker behind the transparent proxy passes, and
the failing row's message shows the smallest failing sub-history (its operations, with
their times) and the key it is of.

The suite runs as users run it (``python -m pytest conformance/test_concurrent_histories.py
--broker proxy:MUTANT@noida --profile ci --seed 1``), each broker a run of its own; a
mutant's failure is not shrunk by hypothesis (``--shrink-seconds=0``); the checker still
shrinks the history it failed on to the operations that matter.
"""
from __future__ import annotations

import pytest

from tests.family_matrix import (assert_the_baseline_passes, assert_the_mutant_fails_every_version, family_mutants,
                                 family_run, rows_by_spec)

MUTANTS = family_mutants("histories")
BASELINE = "proxy:none@noida"


def spec_of(name: str) -> str:
    return f"proxy:{name}@{MUTANTS[name].over or 'noida'}"   # a mutant without ``over`` runs over noida


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    specs = [BASELINE, *(spec_of(n) for n in MUTANTS)]
    return rows_by_spec(family_run(tmp_path_factory.mktemp("s3-can-fail"), "conformance/test_concurrent_histories.py",
                                   specs, props_of={spec_of(n): c.catches for n, c in MUTANTS.items()}))


def test_the_three_mutants_of_the_issue_are_here_and_each_is_caught_by_s3():
    assert set(MUTANTS) == {"write-acknowledged-then-dropped", "stale-describe-after-write",
                            "whole-object-last-writer-wins"}
    assert all(c.catches == ("S3",) for c in MUTANTS.values())


def test_the_broker_passes_s3_through_the_transparent_proxy(rows):
    assert_the_baseline_passes(rows[BASELINE], ("S3",))


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_mutant_fails_s3_with_the_smallest_failing_sub_history(rows, name):
    assert_the_mutant_fails_every_version(name, MUTANTS[name], rows[spec_of(name)], rows[BASELINE], BASELINE)
    [row] = [r for rs in rows[spec_of(name)].values() for r in rs if r["outcome"] == "fail"]
    message = row["message"]
    assert "no lost update, stale read or value from nowhere" in message, message
    assert "'op': 'write'" in message and "'op': 'read'" in message, message
    assert "('config', " in message or "('quota', " in message, message     # the key it is of
