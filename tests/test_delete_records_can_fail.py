"""R1 can fail: each DeleteRecords mutant (faults/mutants/delete_records.py) makes R1
``fail`` at every DeleteRecords version where R1 passes through the transparent proxy
(``proxy:none@noida``; noida moves the low watermark as Kafka does).

One real suite run (a subprocess, as users run it), the baseline and every mutant side
by side (each ``--broker`` gets its own noida behind its own proxy).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from faults.mutants import all_mutants
from faults.mutation import replay
from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "proxy:none@noida"
MUTANTS = sorted(name for name, cls in all_mutants().items()
                 if cls.__module__.endswith(".delete_records"))


def test_every_delete_records_mutant_fails_r1_where_the_baseline_passes(tmp_path):
    assert len(MUTANTS) >= 7, MUTANTS
    brokers = [BASELINE, *[f"proxy:{m}@noida" for m in MUTANTS]]
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last-run"))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "conformance/test_delete_records.py", "-q", "-p", "no:cacheprovider",
         "--property", "R1", *[a for b in brokers for a in ("--broker", b)],
         "--profile", "ci", "--seed", "1", "--results-dir", str(tmp_path / "results")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    results = Path((tmp_path / "last-run").read_text().strip()) / "results.jsonl"
    rows = read_rows(results)
    cells = {(r["broker"], r["api_version"]): r for r in rows}
    passing = [v for (b, v), r in cells.items() if b == BASELINE and r["outcome"] == "pass"]
    assert sorted(passing) == [0, 1, 2], [r for r in rows if r["broker"] == BASELINE]
    survivors = [(m, v, cells.get((f"proxy:{m}@noida", v), {}).get("outcome"))
                 for m in MUTANTS for v in passing
                 if cells.get((f"proxy:{m}@noida", v), {}).get("outcome") != "fail"]
    assert not survivors, survivors
    # each mutant's R1 row at the lowest version, exported as repro.py, gives the row's verdict
    # against a fresh noida under the mutant (issue 25, item 1: one judge, row and reproducer)
    disagree = [(m, said) for m in MUTANTS
                for agrees, said in [replay(f"proxy:{m}@noida", cells[(f"proxy:{m}@noida", passing[0])], results)]
                if not agrees]
    assert not disagree, disagree
