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

import os
import subprocess
import sys
from pathlib import Path

import pytest

from faults.mutants import all_mutants
from faults.mutants.scram_credentials import OVER
from fixtures.results import read_rows
from reference import known_deviations
from tests.replaying import assert_quickest_finding_replays

ROOT = Path(__file__).resolve().parents[1]
PROPS = ("U1", "U2", "U3")
MUTANTS = {n: c for n, c in all_mutants().items() if c.__module__ == "faults.mutants.scram_credentials"}
BASELINE = f"proxy:none@{OVER}"
DEDICATED = known_deviations.entry("scram-upsertion-lost-when-a-deletion-empties-its-mechanism").test


def spec_of(name: str) -> str:
    return f"proxy:{name}@{MUTANTS[name].over}"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """(the matrix run's results.jsonl, its rows by broker and cell, the dedicated check's
    rows left out)."""
    tmp = tmp_path_factory.mktemp("scram-can-fail")
    specs = [BASELINE, *(spec_of(n) for n in MUTANTS)]
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp / "last-run"))
    cmd = [sys.executable, "-m", "pytest", "conformance/test_scram_credentials.py", "-q", "-p", "no:cacheprovider",
           "--profile", "ci", "--seed", "1", "--results-dir", str(tmp / "results"),
           *[a for s in specs for a in ("--broker", s)]]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    run = Path((tmp / "last-run").read_text().strip())
    by_broker: dict[str, dict] = {}      # broker -> cell -> its rows (U2: one per test and kind)
    for r in read_rows(run / "results.jsonl"):
        if not r["check"].startswith(DEDICATED):
            by_broker.setdefault(r["broker"], {}).setdefault((r["property"], r["api_key"], r["api_version"]),
                                                             []).append(r)
    return run / "results.jsonl", by_broker


@pytest.fixture(scope="module")
def rows(run):
    return run[1]


def test_there_is_a_mutant_for_every_scram_property_and_each_runs_over_kafka():
    caught = {p for c in MUTANTS.values() for p in c.catches}
    assert caught >= set(PROPS), f"no mutant for {set(PROPS) - caught}"
    assert {c.over for c in MUTANTS.values()} == {OVER}


def test_kafka_passes_every_scram_property_through_the_transparent_proxy(rows):
    base = rows[BASELINE]
    judged = {cell for cell, rs in base.items() if any(r["outcome"] != "unsupported" for r in rs)}
    assert {cell[0] for cell in judged} == set(PROPS), sorted(judged)
    for cell in judged:
        assert all(r["outcome"] in ("pass", "unsupported") for r in base[cell]), base[cell]


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
    results, by_broker = run
    assert_quickest_finding_replays(name, spec_of(name), by_broker[spec_of(name)], results)
