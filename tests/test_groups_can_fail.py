"""G1-G4 can fail: every consumer group mutant (faults/mutants/groups.py) fails the properties
it names, where the same broker behind the transparent proxy passes them.

The suite runs as users run it (``python -m pytest conformance/test_groups.py
--broker proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every group mutant and
the baseline as brokers of one matrix; the tests below read its rows. The mutants are
measured over Apache Kafka: noida serves no group API.
"""
from __future__ import annotations

import pytest

from faults.mutants import all_mutants
from faults.mutants.groups import KAFKA
from tests.family_matrix import family_run
from tests.replaying import assert_quickest_finding_replays

PROPS = ("G1", "G2", "G3", "G4", "G5")
MUTANTS = {n: c for n, c in all_mutants().items() if c.__module__ == "faults.mutants.groups"}
BASELINE = f"proxy:none@{KAFKA}"


def spec_of(name: str) -> str:
    return f"proxy:{name}@{MUTANTS[name].over}"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Each broker's (results.jsonl, rows by cell), from one matrix run."""
    return family_run(tmp_path_factory.mktemp("groups-can-fail"), "conformance/test_groups.py",
                      [BASELINE, *(spec_of(n) for n in MUTANTS)])


@pytest.fixture(scope="module")
def rows(run):
    return {spec: cells for spec, (_, cells) in run.items()}


def test_there_is_a_mutant_for_every_group_property_and_each_runs_over_kafka():
    caught = {p for c in MUTANTS.values() for p in c.catches}
    assert caught >= set(PROPS), f"no mutant for {set(PROPS) - caught}"
    assert {c.over for c in MUTANTS.values()} == {KAFKA}


def test_kafka_passes_every_group_property_through_the_transparent_proxy(rows):
    base = rows[BASELINE]
    judged = {cell for cell, rs in base.items() if any(r["outcome"] != "unsupported" for r in rs)}
    assert {cell[0] for cell in judged} == set(PROPS), sorted(judged)
    for cell in judged:
        assert all(r["outcome"] == "pass" for r in base[cell]), base[cell]


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_mutant_fails_every_version_of_its_properties(rows, name):
    cls = MUTANTS[name]
    mutated, base = rows[spec_of(name)], rows[BASELINE]
    for prop in cls.catches:
        cells = sorted(c for c in base if c[0] == prop and any(r["outcome"] == "pass" for r in base[c]))
        assert cells, f"{name}: no {prop} row passes over {BASELINE}"
        for cell in cells:
            failing = [r for r in mutated[cell] if r["outcome"] == "fail"]
            assert failing, f"{name} ({cls.describe()}) survived {cell}: " + "; ".join(
                f"{r['outcome']} {r['message']}" for r in mutated[cell])
            assert all(r["counterexample"] is not None for r in failing), failing


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_the_mutants_first_finding_gives_its_verdict_through_its_repro(run, name):
    """The mutant's quickest failing row, exported as a standalone repro.py, gives the same
    verdict against a fresh broker under the mutant (issue 25, item 1)."""
    results, cells = run[spec_of(name)]
    assert_quickest_finding_replays(name, spec_of(name), cells, results)
