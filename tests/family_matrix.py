"""One matrix run the family can-fail tests share: a property module over the transparent
proxy's baseline and every mutant of the family, side by side (``--jobs``), as users run a
matrix (``python -m pytest conformance/test_X.py --broker proxy:M@SPEC ... --jobs 2``).

Each broker's run is its own results folder (``KAC_LAST_RUN_FILE`` lists them in the order of
the specs): a mutant's finding replays from its own run's results.jsonl.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
#: brokers checked side by side: the runs wait on Kafka more than on the CPU (issue 29)
JOBS = int(os.environ.get("KAC_FAMILY_JOBS", "2"))


def family_run(tmp: Path, module: str, specs: list[str], *extra: str, timeout: float = 1800
               ) -> dict[str, tuple[Path, dict]]:
    """Run ``module`` against every spec; for each: (its results.jsonl, its rows by cell
    ``(property, api_key, api_version)``, a list per cell)."""
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp / "last-run"))
    cmd = [sys.executable, "-m", "pytest", module, "-q", "-p", "no:cacheprovider", "--profile", "ci",
           "--seed", "1", "--results-dir", str(tmp / "results"), "--jobs", str(JOBS), *extra,
           *[a for s in specs for a in ("--broker", s)]]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out: dict[str, tuple[Path, dict]] = {}
    for line in (tmp / "last-run").read_text().split():
        results = Path(line) / "results.jsonl"
        for r in read_rows(results):
            cells = out.setdefault(r["broker"], (results, {}))[1]
            cells.setdefault((r["property"], r["api_key"], r["api_version"]), []).append(r)
    missing = [s for s in specs if s not in out]
    assert not missing, f"no rows for {missing}: " + proc.stdout[-2000:]
    return out
