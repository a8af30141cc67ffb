"""Bad input of the two commands a user types, timed against its limit (issue 55, item 6).

    python benchmarks/bench_bad_input.py [--out FILE]

``bad_input_run_s``: per case, the wall seconds ``kafka-admin-conformance run`` (or ``gate``)
takes to refuse it with one line on stderr and exit 2, limit 10 s (a case whose refusal waits
on the network by design, a loopback port that accepts and never answers, is left out: it
waits the 5 s answer timeout of ``Target.check``). Each case runs once as a user runs it, in a
scratch folder; a case that does not end in exactly one stderr line and exit 2 is printed as
such and its figure is not counted as within. The tests (``tests/test_bad_input.py``,
``tests/reports/test_gate_bad_input.py``) check the one line and that nothing started; this
measures how long it took.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.limits import LIMIT  # noqa: E402

LIMIT_S = LIMIT["bad_input_run_s"]


def _refused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]          # closed again: nothing listens there


def cases(scratch: str) -> dict[str, list[str]]:
    a_file = os.path.join(scratch, "a-file")
    open(a_file, "w").close()
    run = ["-m", "fixtures.console", "run", "--out", os.path.join(scratch, "report")]
    results = ["--results-dir", os.path.join(scratch, "results")]
    gate = ["-m", "reports.gate"]
    return {
        "unknown release (kafka:9.9.9)": run + results + ["--broker", "kafka:9.9.9"],
        "release below 3.3 (kafka:2.8.0)": run + results + ["--broker", "kafka:2.8.0"],
        "unknown preset": run + results + ["--broker", "kafka:4.4.0,preset=nosuch"],
        "refused bootstrap": run + results + ["--broker", f"bootstrap:127.0.0.1:{_refused_port()}"],
        "unresolvable bootstrap": run + results + ["--broker", "bootstrap:nosuch.invalid:9092"],
        "--results-dir a file": run + ["--results-dir", a_file, "--broker", "tansu"],
        "unknown property": run + results + ["--property", "NOSUCH"],
        "gate: missing baseline": gate + ["--results-dir", scratch, "--baseline", os.path.join(scratch, "none")],
        "gate: no run in --results-dir": gate + ["--results-dir", os.path.join(scratch, "empty"), "--baseline", a_file],
    }


def measure() -> dict:
    out = {}
    with tempfile.TemporaryDirectory(prefix="bench-bad-input-") as scratch:
        os.mkdir(os.path.join(scratch, "empty"))
        for name, args in cases(scratch).items():
            t0 = time.monotonic()
            proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                                  env=dict(os.environ, PYTHONPATH=ROOT))
            seconds = time.monotonic() - t0
            lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
            one_line = proc.returncode == 2 and len(lines) == 1
            print(f"{name:<34} {seconds:6.2f} s  limit {LIMIT_S:g} s: ratio {seconds / LIMIT_S:.2f}"
                  + ("" if one_line else f"  NOT one line and exit 2 (exit {proc.returncode}, {len(lines)} lines)"))
            out[name] = round(seconds, 2) if one_line else None
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", metavar="FILE", help="merge the figures into this JSON file")
    a = p.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    figures = measure()
    if a.out:
        data = {}
        if os.path.exists(a.out):
            with open(a.out, encoding="utf-8") as fh:
                data = json.load(fh)
        data["bad_input_run_s"] = figures
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
    return 0 if all(v is not None and v <= LIMIT_S for v in figures.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
