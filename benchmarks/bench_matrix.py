"""The release matrix, timed against its limit (issue 27 item 4, issue 29 items 3 and 6).

    python benchmarks/bench_matrix.py [--jobs N] [--profile ci] [--seed S] [--results-dir DIR] [--out FILE]

Runs the suite on every Apache Kafka target the suite knows the rules of, in one command as
a release manager runs it: the newest release of each line from 3.3 to 4.4 in KRaft mode, and
3.3-3.9 in ZooKeeper mode (``fixtures.known_replay.every_target``, the same 19 targets
``python -m fixtures.known_replay --every-line`` asks), ``--jobs N`` brokers side by side, then
``python -m reports.known`` on every run folder. Prints ``matrix_s`` beside its limit (1,200 s),
each target's seconds and rows, and how many failing rows are not reviewed known deviations
(each target's run must have none). ``--out FILE`` merges ``matrix_s`` and ``matrix_parts``.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.limits import LIMIT  # noqa: E402

LIMIT_S = LIMIT["matrix_s"]


def _seconds(manifest: dict) -> float:
    start, end = (dt.datetime.fromisoformat(manifest[k].replace("Z", "+00:00")) for k in ("started_at", "ended_at"))
    return (end - start).total_seconds()


def main(argv=None) -> int:
    from fixtures.known_replay import every_target

    p = argparse.ArgumentParser(prog="python benchmarks/bench_matrix.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--jobs", type=int, default=None,
                   help="workers side by side (default: tox -e conformance's, twice the CPUs)")
    p.add_argument("--profile", default="ci")
    p.add_argument("--seed", default="27")
    p.add_argument("--results-dir", help="keep the runs here (default: a folder removed afterwards)")
    p.add_argument("--out", metavar="FILE")
    a = p.parse_args(argv)
    if a.jobs is None:
        from fixtures.console import default_job_count
        a.jobs = default_job_count()
    specs = [spec for spec, _, _ in every_target()]
    results = a.results_dir or tempfile.mkdtemp(prefix="bench-matrix-")
    cmd = [sys.executable, "-m", "pytest", "--pyargs", "conformance", "-c", os.path.join(ROOT, "conformance", "suite.ini"),
           "--rootdir", ROOT, "-q", "-p", "no:cacheprovider", "--profile", a.profile, "--seed", a.seed,
           "--jobs", str(a.jobs), "--results-dir", results, *[x for s in specs for x in ("--broker", s)]]
    load, t0 = os.getloadavg()[0], time.monotonic()
    code = subprocess.call(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = round(time.monotonic() - t0, 1)
    parts, new = {}, 0
    for run in sorted(os.listdir(results)):
        folder = os.path.join(results, run)
        manifest_path = os.path.join(folder, "manifest.json")
        if not os.path.isfile(manifest_path):
            continue
        manifest = json.load(open(manifest_path, encoding="utf-8"))
        rows = [json.loads(line) for line in open(os.path.join(folder, "results.jsonl"), encoding="utf-8")]
        known = subprocess.run([sys.executable, "-m", "reports.known", folder], cwd=ROOT, capture_output=True, text=True)
        unknown = sum(1 for line in known.stdout.splitlines() if line.startswith("NEW"))
        new += unknown
        spec = manifest["brokers"][0]["spec"]
        parts[spec] = {"seconds": round(_seconds(manifest)), "complete": manifest.get("complete"),
                       "rows": dict(Counter(r["outcome"] for r in rows)), "new_findings": unknown}
    for spec in specs:
        f = parts.get(spec)
        print(f"  {spec:28} " + (f"{f['seconds']:5d} s  {f['rows']}  new findings: {f['new_findings']}" if f else "no run"))
    verdict = "within" if seconds <= LIMIT_S else "OVER"
    print(f"matrix_s: {seconds:.1f} s for {len(specs)} targets with --jobs {a.jobs}, limit {LIMIT_S:.0f} s, ratio "
          f"{seconds / LIMIT_S:.2f} ({verdict}; pytest exit {code}, load {load:.1f} at start; {new} failing rows "
          "not reviewed known deviations)")
    if a.out:
        data = json.load(open(a.out)) if os.path.exists(a.out) else {}
        data.update({"matrix_s": seconds, "matrix_parts": {"jobs": a.jobs, "limit_s": LIMIT_S, "targets": parts}})
        with open(a.out, "w") as fh:
            json.dump(data, fh, indent=2, sort_keys=True)
    return 0 if code == 0 and new == 0 and len(parts) == len(specs) else 1


if __name__ == "__main__":
    sys.exit(main())
