"""Every benchmark, each figure beside its limit measured in the same run (not tests).

    python -m benchmarks [--only overhead,verdict,report,tests,bad-input,admin-plane,tests-ci,matrix | --only all]
                         [--kafka VERSION[,VERSION...]] [--rows N ...] [--examples N] [--out FILE]
    tox -e bench -- [the same arguments]

* ``overhead`` (benchmarks/bench_overhead.py): per admin API, the suite's request rate
  against a plain loop of pre-encoded requests on the same broker -> ``overhead_ratio``;
* ``verdict`` (benchmarks/bench_verdict.py): the README's main job from a cold start, split
  into its parts, one ``ci``-profile run on each ``kafka:VERSION``, the same release with
  every property asked (companions, ``--jobs 2``), and broker starts -> ``default_run_s``,
  ``kafka_ci_run_s``, ``kafka_all_properties_s``, ``broker_start_s``;
* ``report`` (benchmarks/bench_report.py): aggregation of N rows against Spark's bare read
  of the same files and its full parse -> ``spark_rows_per_s``, ``spark_vs_read_ratio``,
  ``report_vs_full_parse``;
* ``tests`` (benchmarks/bench_tests.py): the project's fast test tier -> ``tests_fast_s``;
* ``bad-input`` (benchmarks/bench_bad_input.py): each bad input of ``run`` and ``gate``, refused
  in one line -> ``bad_input_run_s``;
* ``tests-ci`` (not in the default set: about an hour): every tier -> ``tests_ci_s``;
* ``admin-plane`` (benchmarks/bench_admin_plane.py, not in the default set): S2's steps per
  second on tansu and kafka:4.4.0,preset=acl, and its request rate against a plain loop of
  the same requests -> ``s2_steps_per_s``, ``s2_vs_plain_loop``.
* ``matrix`` (benchmarks/bench_matrix.py, not in the default set: it runs 19 Kafka targets):
  every line 3.3-4.4 and ZooKeeper mode 3.3-3.9 at the ``ci`` profile, ``--jobs 2`` ->
  ``matrix_s``.

``--only all`` runs every one of them (hours). ``--out FILE`` collects every figure in one
JSON file (each benchmark merges its keys); at the end the run prints every figure issue 29
names beside its limit (benchmarks/limits.py), "not measured" for those it did not run.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile

from . import bench_admin_plane, bench_bad_input, bench_matrix, bench_overhead, bench_report, bench_tests, bench_verdict, limits

ALL = ("overhead", "verdict", "report", "tests", "bad-input", "admin-plane", "tests-ci", "matrix")
DEFAULT = ("overhead", "verdict", "report", "tests", "bad-input")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    p.add_argument("--only", default=",".join(DEFAULT), help=f"comma-separated, from {', '.join(ALL)}")
    p.add_argument("--kafka", default="4.4.0",
                   help="the Kafka releases of the ci-profile runs, comma-separated; the first is also run with "
                        "every property asked ('' to leave Kafka out)")
    p.add_argument("--rows", nargs="+", type=int, default=[1_000_000, 10_000_000, 50_000_000])
    p.add_argument("--examples", type=int, default=200, help="examples per API in the overhead benchmark")
    p.add_argument("--out", metavar="FILE")
    a = p.parse_args(argv)
    only = [w.strip() for w in a.only.split(",") if w.strip()]
    if only == ["all"]:
        only = list(ALL)
    unknown = sorted(set(only) - set(ALL))
    if unknown:
        p.error(f"--only: unknown benchmark {', '.join(unknown)}; choose from {', '.join(ALL)}")
    scratch = None if a.out else tempfile.mkdtemp(prefix="bench-figures-")  # only this run's figures
    out_file = a.out or os.path.join(scratch, "figures.json")
    out = ["--out", out_file]
    releases = bench_verdict.versions([a.kafka])
    code = 0
    if "overhead" in only:
        code |= bench_overhead.main(["--examples", str(a.examples)] + out)
    if "verdict" in only:
        starts = ["--start", "tansu", "--start", "noida"] + (["--start", f"kafka:{releases[0]}"] if releases else [])
        kafka = [x for v in releases for x in ("--kafka", v)] + (["--all-properties", releases[0]] if releases else [])
        code |= bench_verdict.main(["--default"] + starts + kafka + out)
    if "report" in only:
        code |= bench_report.main([str(n) for n in a.rows] + out)
    if "tests" in only:
        code |= bench_tests.main(["--tier", "fast"] + out)
    if "bad-input" in only:
        code |= bench_bad_input.main(out)
    if "admin-plane" in only:
        code |= bench_admin_plane.main(out)
    if "tests-ci" in only:
        code |= bench_tests.main(["--tier", "ci"] + out)
    if "matrix" in only:
        code |= bench_matrix.main(out)
    data = {}
    if os.path.exists(out_file):
        with open(out_file, encoding="utf-8") as fh:
            data = json.load(fh)
    limits.print_table(data)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
