"""V1-V3 can fail: each validate_only mutant (faults/mutants/validate_only.py) makes its
property's row ``fail`` through ``proxy:MUTANT@noida``, while the same row through the
transparent ``proxy:none@noida`` is not ``fail``.

One real suite run (a subprocess, as users run it) checks every mutant and the baseline
side by side: each ``--broker`` gets its own noida behind its own proxy.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "proxy:none@noida"

#: mutant -> the cells (property, API, version) whose rows it must turn to fail. Cells
#: where noida itself deviates (CreateTopics v0/v1, duplicate names in V2) are not used.
KILLS = {
    "validate-only-ignored": [("V1", "CreateTopics", 5), ("V1", "CreatePartitions", 3),
                              ("V1", "AlterConfigs", 2), ("V1", "IncrementalAlterConfigs", 1)],
    "validate-only-always-succeeds": [("V2", "CreatePartitions", 3), ("V2", "AlterConfigs", 2),
                                      ("V2", "IncrementalAlterConfigs", 1)],
    "batch-shares-first-error": [("V3", "CreateTopics", 5), ("V3", "CreatePartitions", 3),
                                 ("V3", "IncrementalAlterConfigs", 1)],
}
CELLS = sorted({(api, v) for cells in KILLS.values() for _, api, v in cells})


def spec(mutant: str) -> str:
    return f"proxy:{mutant}@noida"


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("validate-only-mutants")
    brokers = [BASELINE] + [spec(m) for m in KILLS]
    selected = " or ".join(f"noida-{api}-v{v}" for api, v in CELLS)
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp / "last-run"))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "conformance/test_validate_only.py", "-q", "-p", "no:cacheprovider",
         "-k", selected, *[a for b in brokers for a in ("--broker", b)],
         "--profile", "ci", "--seed", "1", "--results-dir", str(tmp / "results")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    run = Path((tmp / "last-run").read_text().strip())
    return {(r["broker"], r["property"], r["api_name"], r["api_version"]): r
            for r in read_rows(run / "results.jsonl")}


@pytest.mark.parametrize("mutant,prop,api,version",
                         [(m, p, a, v) for m, cells in KILLS.items() for p, a, v in cells])
def test_the_mutant_fails_the_property_that_passes_through_the_transparent_proxy(rows, mutant, prop, api, version):
    baseline = rows[(BASELINE, prop, api, version)]
    assert baseline["outcome"] == "pass", baseline
    mutated = rows[(spec(mutant), prop, api, version)]
    assert mutated["outcome"] == "fail", mutated
    assert mutated["counterexample"]["steps"], mutated
