"""E4 can fail: the election mutant that needs a cluster of several brokers
(faults/mutants/reassignments_cluster.py) fails E4, where the same three-node cluster behind
the transparent proxy passes it.

As tests/test_reassignments_can_fail.py, with E4 alone selected (``--property E4``) and the
brokers ``proxy:MUTANT@kafka:4.4.0,nodes=3``: E4 needs a partition of two replicas, so a
preferred replica that does not lead (E1-E3 are measured on one node there).
"""
from __future__ import annotations

import pytest

from faults.mutants.reassignments_cluster import OVER
from tests.family_matrix import (Family, assert_a_mutant_for_every_property, assert_the_baseline_passes,
                                 assert_the_mutant_fails_every_version, rows_by_spec)
from tests.replaying import assert_quickest_finding_replays

PROPS = ("E4",)
FAMILY = Family("reassignments_cluster", "conformance/test_reassignments.py", over=OVER, extra=("--property", "E4"))
MUTANTS, BASELINE, spec_of = FAMILY.mutants, FAMILY.baseline, FAMILY.spec_of


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Each broker's (results.jsonl, rows by cell), from one matrix run."""
    return FAMILY.run(tmp_path_factory.mktemp("reassignments-cluster-can-fail"))


@pytest.fixture(scope="module")
def rows(run):
    return rows_by_spec(run)


def test_there_is_a_mutant_for_every_cluster_election_property_and_each_runs_over_three_kafka_nodes():
    assert_a_mutant_for_every_property(MUTANTS, PROPS, over=OVER)


def test_three_kafka_nodes_pass_e4_through_the_transparent_proxy(rows):
    assert_the_baseline_passes(rows[BASELINE], PROPS)


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_mutant_fails_every_version_of_its_properties(rows, name):
    assert_the_mutant_fails_every_version(name, MUTANTS[name], rows[spec_of(name)], rows[BASELINE], BASELINE)


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_mutants_first_finding_gives_its_verdict_through_its_repro(run, name):
    """The mutant's quickest failing row, exported as a standalone repro.py, gives the same
    verdict against a fresh cluster under the mutant (issue 25, item 1)."""
    results, cells = run[spec_of(name)]
    assert_quickest_finding_replays(name, spec_of(name), cells, results)
