"""S4 can fail: the crash mutant (faults/mutants/node_faults.py: the topic config keys SET
since the broker's start are gone once its process is another one) fails S4 where the same
Kafka behind the transparent proxy passes, and the failing row's message shows the smallest
failing sub-history: an acknowledged write and a closing read after the faults that misses it.

The suite runs as users run it (``python -m pytest conformance/test_node_faults.py
--broker proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), each broker a run of its own: the
nemesis crashes and pauses the Kafka behind each proxy, never a broker another run uses.
"""
from __future__ import annotations

import pytest

from faults.nemesis import KINDS, Fault
from strategies import node_faults
from tests.family_matrix import (assert_the_baseline_passes, assert_the_mutant_fails_every_version, family_mutants,
                                 family_run, rows_by_spec)

MUTANTS = family_mutants("node_faults")
BASELINE = "proxy:none@kafka:4.4.0"


def spec_of(name: str) -> str:
    return f"proxy:{name}@{MUTANTS[name].over}"


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    specs = [BASELINE, *(spec_of(n) for n in MUTANTS)]
    return rows_by_spec(family_run(tmp_path_factory.mktemp("s4-can-fail"), "conformance/test_node_faults.py",
                                   specs, props_of={spec_of(n): c.catches for n, c in MUTANTS.items()}))


def test_the_strategy_draws_the_faults_the_nemesis_strikes():
    assert node_faults.KINDS == KINDS
    with pytest.raises(ValueError, match="a fault is one of"):
        Fault.of({"kind": "partition", "node": 1, "at_s": 0, "down_s": 1})


def test_the_crash_mutant_is_here_and_caught_by_s4_over_kafka():
    assert set(MUTANTS) == {"forgets-writes-in-a-crash"}
    assert all(c.catches == ("S4",) and c.over.startswith("kafka:") for c in MUTANTS.values())


def test_kafka_passes_s4_through_the_transparent_proxy(rows):
    assert_the_baseline_passes(rows[BASELINE], ("S4",))


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_mutant_fails_s4_with_a_write_the_closing_read_misses(rows, name):
    assert_the_mutant_fails_every_version(name, MUTANTS[name], rows[spec_of(name)], rows[BASELINE], BASELINE)
    [row] = [r for rs in rows[spec_of(name)].values() for r in rs if r["outcome"] == "fail"]
    message = row["message"]
    assert "every node shows a value the writes allow" in message and "crash node 1" in message, message
    assert "'op': 'write'" in message and "(closing read)" in message, message
