"""U1-U3 can fail: every SCRAM mutant (faults/mutants/scram_credentials.py) fails the properties it
names, where the same broker behind the transparent proxy passes them.

The suite runs as users run it (``python -m pytest conformance/test_scram_credentials.py
--broker proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every SCRAM mutant
and the baseline as brokers of one matrix; the tests below read its rows. The rows of the
dedicated check of Kafka's known deviation (``scram-upsertion-lost-when-a-deletion-empties-
its-mechanism``: it fails on released Kafka by design, ``reports/known.py`` accepts it) are
left out on both sides: no mutant counts as caught by it.
"""
from __future__ import annotations

import pytest

from faults.mutants.scram_credentials import OVER
from reference import known_deviations
from tests.family_matrix import (Family, assert_a_mutant_for_every_property, assert_the_baseline_passes,
                                 assert_the_mutant_fails_every_version, rows_by_spec)
from tests.replaying import assert_quickest_finding_replays

PROPS = ("U1", "U2", "U3")
FAMILY = Family("scram_credentials", "conformance/test_scram_credentials.py", over=OVER)
MUTANTS, BASELINE, spec_of = FAMILY.mutants, FAMILY.baseline, FAMILY.spec_of
DEDICATED = known_deviations.entry("scram-upsertion-lost-when-a-deletion-empties-its-mechanism").test


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Each broker's (results.jsonl, rows by cell), from one matrix run, the dedicated
    check's rows left out."""
    out = FAMILY.run(tmp_path_factory.mktemp("scram-can-fail"))
    return {spec: (results, {cell: kept for cell, rs in cells.items()
                             if (kept := [r for r in rs if not r["check"].startswith(DEDICATED)])})
            for spec, (results, cells) in out.items()}


@pytest.fixture(scope="module")
def rows(run):
    return rows_by_spec(run)


def test_there_is_a_mutant_for_every_scram_property_and_each_runs_over_kafka():
    assert_a_mutant_for_every_property(MUTANTS, PROPS, over=OVER)


def test_kafka_passes_every_scram_property_through_the_transparent_proxy(rows):
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
