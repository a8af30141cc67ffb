"""Y1-Y4 can fail: every share and streams group mutant (faults/mutants/share_groups.py)
fails the property it names, where the same broker behind the transparent proxy passes it.

The suite runs as users run it (``python -m pytest conformance/test_share_groups.py
--broker proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every mutant and the
baseline as brokers of one matrix; the tests below read its rows. The mutants are measured
over kafka:4.4.0: kafka:3.9.2 does not serve these APIs, nor do tansu and noida.
"""
from __future__ import annotations

import pytest

from faults.mutants.share_groups import OVER
from tests.family_matrix import (Family, assert_a_mutant_for_every_property, assert_the_baseline_passes,
                                 assert_the_mutant_fails_every_version, rows_by_spec)
from tests.replaying import assert_quickest_finding_replays

PROPS = ("Y1", "Y2", "Y3", "Y4")
FAMILY = Family("share_groups", "conformance/test_share_groups.py", over=OVER)
MUTANTS, BASELINE, spec_of = FAMILY.mutants, FAMILY.baseline, FAMILY.spec_of


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Each broker's (results.jsonl, rows by cell), from one matrix run."""
    return FAMILY.run(tmp_path_factory.mktemp("share-groups-can-fail"))


@pytest.fixture(scope="module")
def rows(run):
    return rows_by_spec(run)


def test_there_is_a_mutant_for_every_share_group_property_and_each_runs_over_kafka():
    assert_a_mutant_for_every_property(MUTANTS, PROPS, over=OVER)


def test_kafka_passes_every_share_group_property_through_the_transparent_proxy(rows):
    assert_the_baseline_passes(rows[BASELINE], PROPS)


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_mutant_fails_every_version_of_its_properties(rows, name):
    assert_the_mutant_fails_every_version(name, MUTANTS[name], rows[spec_of(name)], rows[BASELINE], BASELINE)


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_mutants_first_finding_gives_its_verdict_through_its_repro(run, name):
    """The mutant's quickest failing row, exported as a standalone repro.py, gives the same
    verdict against a fresh broker under the mutant (issue 25, item 1)."""
    results, cells = run[spec_of(name)]
    assert_quickest_finding_replays(name, spec_of(name), cells, results)
