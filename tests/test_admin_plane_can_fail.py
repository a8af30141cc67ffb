"""S2 can fail: every admin-plane mutant (faults/mutants/admin_plane.py), a fault that only a
sequence crossing two admin families shows, fails S2 at the step that crosses them, where
the same broker behind the transparent proxy passes; the failing row's exported repro.py
fails again under the mutant and passes without it.

The suite runs as users run it (``python -m pytest conformance/test_admin_plane.py --broker
proxy:MUTANT@kafka:4.4.0,preset=acl --profile ci --seed 4``), the baseline and each mutant a
run of its own; a mutant's failure is not shrunk (``--shrink-seconds=0``, as the mutation
score runs it), so its script is the example as drawn, and what this test reads of it is
the step just before the failing invariant (the invariants are looked at after every step:
that step is the one that made the broker differ from the model) and the step of the other
family before it.

The seed is fixed at 4: S2's ci profile (8 examples of 40 steps) hits the cross-family rules
a mutant breaks at that seed (``coverage_by_check`` of a kafka:4.4.0 run with the tokens,
share and group config families, 2026-12-04: topic deletion among offsets 3, among ACLs 4,
among share group start offsets 4, a re-created topic 3, a SCRAM deletion among quotas 4 and
among tokens 4, a group deletion among its configs 4); before the tokens family, at seeds
1-3 no example of the ci profile deleted a user's credential while it held a quota, and at
seeds 1 and 3 none deleted a topic an ACL named (docs/mutation.md, "S2").
"""
from __future__ import annotations

import pytest

from faults.mutants.admin_plane import OVER
from fixtures.brokers import make_target
from fixtures.repro.__main__ import run_repro
from fixtures.repro.export import export_row
from fixtures.results import read_rows
from tests.family_matrix import (assert_the_baseline_passes, assert_the_mutant_fails_every_version, family_mutants,
                                 family_run, rows_by_spec)
from tests.replaying import assert_quickest_finding_replays

SEED = 4
BASELINE = f"proxy:none@{OVER}"
MUTANTS = family_mutants("admin_plane")
#: mutant -> (the failing invariant, the step just before it, a step of the other family before that)
SHOWN = {
    "offsets-kept-after-topic-deletion": ("(invariant) OffsetFetch", "DeleteTopics", "OffsetCommit"),
    "recreated-topic-inherits-configs": ("(invariant) DescribeConfigs", "CreateTopics", "DeleteTopics"),
    "acls-dropped-with-their-topic": ("(invariant) DescribeAcls", "DeleteTopics", "CreateAcls"),
    "quota-lost-with-scram-deletion": ("(invariant) DescribeClientQuotas", "AlterUserScramCredentials",
                                       "AlterClientQuotas"),
    "feature-update-resets-group-state": ("(invariant) OffsetFetch", "UpdateFeatures", "OffsetCommit"),
    "tokens-lost-with-scram-deletion": ("(invariant) DescribeDelegationToken", "AlterUserScramCredentials",
                                        "CreateDelegationToken"),
    "share-offsets-kept-after-topic-deletion": ("(invariant) DescribeShareGroupOffsets", "DeleteTopics",
                                                "AlterShareGroupOffsets"),
    "group-configs-dropped-with-their-group": ("(invariant) DescribeConfigs of groups", "DeleteGroups",
                                               "IncrementalAlterConfigs(GROUP)"),
}


def spec_of(name: str) -> str:
    return f"proxy:{name}@{MUTANTS[name].over}"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Each broker's (results.jsonl, rows by cell), from its run."""
    specs = [BASELINE, *(spec_of(n) for n in MUTANTS)]
    return family_run(tmp_path_factory.mktemp("s2-can-fail"), "conformance/test_admin_plane.py", specs,
                      f"--seed={SEED}", props_of={spec_of(n): c.catches for n, c in MUTANTS.items()})


@pytest.fixture(scope="module")
def rows(run):
    return rows_by_spec(run)


def failing_row(rows, name) -> dict:
    [row] = [r for rs in rows[spec_of(name)].values() for r in rs if r["outcome"] == "fail"]
    return row


def test_every_mutant_of_the_module_is_shown_here_and_each_runs_over_the_acl_preset():
    assert set(MUTANTS) == set(SHOWN)
    assert all(c.catches == ("S2",) and c.over == OVER for c in MUTANTS.values())


def test_the_broker_passes_s2_through_the_transparent_proxy(rows):
    assert_the_baseline_passes(rows[BASELINE], ("S2",))


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_the_mutant_fails_s2_at_the_step_that_crosses_two_families(rows, name):
    assert_the_mutant_fails_every_version(name, MUTANTS[name], rows[spec_of(name)], rows[BASELINE], BASELINE)
    row = failing_row(rows, name)
    invariant, trigger, before = SHOWN[name]
    script = row["counterexample"]["script"]
    assert script[0].startswith("# S2, the admin plane"), script
    text = "\n".join(script)
    at = next((i for i, line in enumerate(script) if line == f"{invariant} -> differs from the model"), None)
    assert at is not None and script[at + 1].startswith("   !! "), text
    # the step the invariant was looked at after is the one that crossed the families ...
    assert script[at - 1].startswith(trigger + " ") and script[at - 1].endswith("NONE"), text
    # ... and the other family's step it crossed came before it
    assert any(line.startswith(before + " ") for line in script[1:at - 1]), text
    assert row["message"].splitlines()[0] == script[at + 1].strip()[3:], row["message"]


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_the_failing_rows_repro_fails_again_under_the_mutant(run, name):
    results, cells = run[spec_of(name)]
    assert_quickest_finding_replays(name, spec_of(name), cells, results)


def test_each_failing_rows_repro_passes_against_the_broker_without_the_fault(run, tmp_path):
    """The reproducers are about the fault: against the transparent proxy each exits 0."""
    folders = {}
    for name in sorted(SHOWN):
        results, cells = run[spec_of(name)]
        row = failing_row({spec_of(name): cells}, name)
        folders[name] = export_row(row, results, tmp_path / name, read_rows(results))
    said = {}
    with make_target(BASELINE) as info:
        for name, folder in folders.items():
            code, text = run_repro(folder, f"{info.host}:{info.port}")
            said[name] = (code, text.strip().splitlines()[-3:] if code == 0 else text.strip().splitlines()[-40:])
    assert all(code == 0 for code, _ in said.values()), {n: s for n, s in said.items() if s[0] != 0}
