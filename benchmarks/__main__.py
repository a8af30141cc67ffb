"""Every benchmark, each figure beside its limit measured in the same run (not tests).

    python -m benchmarks [--only overhead,verdict,report,tests,matrix] [--kafka VERSION] [--rows N ...]
                         [--examples N] [--out FILE]
    tox -e bench -- [the same arguments]

* ``overhead`` (benchmarks/bench_overhead.py): per admin API, the suite's request rate
  against a plain loop of pre-encoded requests on the same broker -> ``overhead_ratio``;
* ``verdict`` (benchmarks/bench_verdict.py): the README's main job from a cold start, split
  into its parts, one ``ci``-profile run on ``kafka:VERSION``, and broker starts ->
  ``default_run_s``, ``kafka_ci_run_s``, ``broker_start_s``;
* ``report`` (benchmarks/bench_report.py): aggregation of N rows against Spark's bare read
  of the same files -> ``spark_rows_per_s``, ``spark_vs_read_ratio``;
* ``tests`` (benchmarks/bench_tests.py): the project's fast test tier -> ``tests_fast_s``
  (``bench_tests.py --tier ci`` times every tier -> ``tests_ci_s``);
* ``matrix`` (benchmarks/bench_matrix.py, not in the default set: it runs 19 Kafka targets):
  every line 3.3-4.4 and ZooKeeper mode 3.3-3.9 at the ``ci`` profile, ``--jobs 2`` ->
  ``matrix_s``.

``--out FILE`` collects every figure in one JSON file (each benchmark merges its keys).
"""
from __future__ import annotations

import argparse
import sys

from . import bench_matrix, bench_overhead, bench_report, bench_tests, bench_verdict

ALL = ("overhead", "verdict", "report", "tests", "matrix")
DEFAULT = ("overhead", "verdict", "report", "tests")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    p.add_argument("--only", default=",".join(DEFAULT), help=f"comma-separated, from {', '.join(ALL)}")
    p.add_argument("--kafka", default="4.4.0", help="the Kafka release of the ci-profile run ('' to leave it out)")
    p.add_argument("--rows", nargs="+", type=int, default=[1_000_000, 10_000_000, 50_000_000])
    p.add_argument("--examples", type=int, default=200, help="examples per API in the overhead benchmark")
    p.add_argument("--out", metavar="FILE")
    a = p.parse_args(argv)
    only = [w.strip() for w in a.only.split(",") if w.strip()]
    unknown = sorted(set(only) - set(ALL))
    if unknown:
        p.error(f"--only: unknown benchmark {', '.join(unknown)}; choose from {', '.join(ALL)}")
    out = ["--out", a.out] if a.out else []
    code = 0
    if "overhead" in only:
        code |= bench_overhead.main(["--examples", str(a.examples)] + out)
    if "verdict" in only:
        starts = ["--start", "tansu", "--start", "noida"] + (["--start", f"kafka:{a.kafka}"] if a.kafka else [])
        code |= bench_verdict.main(["--default"] + starts + (["--kafka", a.kafka] if a.kafka else []) + out)
    if "report" in only:
        code |= bench_report.main([str(n) for n in a.rows] + out)
    if "tests" in only:
        code |= bench_tests.main(["--tier", "fast"] + out)
    if "matrix" in only:
        code |= bench_matrix.main(out)
    return code


if __name__ == "__main__":
    sys.exit(main())
