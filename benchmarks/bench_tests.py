"""The project's own tests, timed per tier against their limits (issue 29, items 4 and 6).

    python benchmarks/bench_tests.py [--tier fast] [--tier ci] [--out FILE]
    python benchmarks/bench_tests.py --cpu FILE [--top N]

* ``tests_fast_s``: ``pytest tests -m fast`` (the tier a developer runs on every change,
  README "Run the project's tests"), limit 180 s;
* ``tests_ci_s``: ``pytest tests`` (every tier, what CI runs after its set-up), limit 1,200 s.

``--cpu FILE`` prints, per test module, the CPU seconds a run with ``KAC_TEST_CPU_FILE=FILE``
wrote (tests/conftest.py: each test's own and its stopped children's, e.g. ``CI=true
KAC_TEST_CPU_FILE=/tmp/cpu.jsonl bash .ci/run``): CI is CPU-bound on 2 CPUs, so its wall
follows these.

Each figure is printed beside its limit with the machine's load average when it started
(a loaded machine is up to about 3x slower; say so beside a figure). The pytest run's exit
code is printed too: a figure of a run that failed is not a figure of the tier.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.limits import LIMIT  # noqa: E402

LIMITS_S = {tier: LIMIT[f"tests_{tier}_s"] for tier in ("fast", "ci")}
SELECT = {"fast": ["-m", "fast"], "ci": []}


def time_tier(tier: str) -> dict:
    load = os.getloadavg()[0]
    cmd = [sys.executable, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider", *SELECT[tier]]
    t0 = time.monotonic()
    code = subprocess.call(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.monotonic() - t0
    return {"seconds": round(seconds, 1), "limit_s": LIMITS_S[tier], "exit": code, "load_at_start": round(load, 1)}


def cpu_by_module(path: str) -> list[tuple[str, float]]:
    """(module, CPU seconds) from a KAC_TEST_CPU_FILE, most first."""
    totals: dict[str, float] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            module = r["test"].split("::")[0]
            totals[module] = totals.get(module, 0.0) + r["cpu_s"]
    return sorted(totals.items(), key=lambda kv: -kv[1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python benchmarks/bench_tests.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--tier", action="append", choices=sorted(LIMITS_S), help="fast (default), ci; repeatable")
    p.add_argument("--out", metavar="FILE")
    p.add_argument("--cpu", metavar="FILE", help="sum a KAC_TEST_CPU_FILE per module instead of running a tier")
    p.add_argument("--top", type=int, default=25, help="modules shown with --cpu (default %(default)s)")
    a = p.parse_args(argv)
    if a.cpu:
        if not os.path.exists(a.cpu):
            p.error(f"no such file: {a.cpu} (write one: KAC_TEST_CPU_FILE={a.cpu} tox -e tests)")
        rows = cpu_by_module(a.cpu)
        print(f"tests' CPU: {sum(v for _, v in rows):,.1f} s in {len(rows)} modules")
        for module, seconds in rows[:a.top]:
            print(f"{seconds:9.1f} s  {module}")
        return 0
    figures = {}
    for tier in a.tier or ["fast"]:
        f = time_tier(tier)
        figures[f"tests_{tier}_s"] = f["seconds"]
        figures[f"tests_{tier}_parts"] = f
        verdict = "within" if f["seconds"] <= f["limit_s"] and f["exit"] == 0 else "OVER" if f["exit"] == 0 else "FAILED"
        print(f"tests_{tier}_s: {f['seconds']:.1f} s, limit {f['limit_s']:.0f} s, ratio "
              f"{f['seconds'] / f['limit_s']:.2f} ({verdict}; pytest exit {f['exit']}, load {f['load_at_start']} at start)")
    if a.out:
        data = json.load(open(a.out)) if os.path.exists(a.out) else {}
        data.update(figures)
        with open(a.out, "w") as fh:
            json.dump(data, fh, indent=2, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
