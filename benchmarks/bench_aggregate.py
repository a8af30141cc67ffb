"""Aggregation time for N synthetic result rows on one machine (not a test).

    python benchmarks/bench_aggregate.py [N ...] [--rows-per-run 10000] [--master local[2]]
                                         [--driver-memory SIZE] [--tmp DIR]

Default N: 1000000 10000000 50000000. For each N, Spark itself writes N rows as run
folders (N / rows-per-run runs of results.jsonl + manifest.json) into a temporary
folder, then reports.aggregate reads them and writes every table; only the second part
is the figure. The folder is deleted afterwards (about 350 bytes a row on disk).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from reports import synthetic  # noqa: E402
from reports.aggregate import aggregate  # noqa: E402
from reports.spark import DEFAULT_MASTER, session  # noqa: E402


def du(path: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("rows", nargs="*", type=int, default=[1_000_000, 10_000_000, 50_000_000])
    p.add_argument("--rows-per-run", type=int, default=10_000)
    p.add_argument("--master", default=DEFAULT_MASTER)
    p.add_argument("--driver-memory", help="e.g. 4g (Spark's default is 1g)")
    p.add_argument("--tmp", help="where the synthetic runs go (default: the system temp folder)")
    args = p.parse_args()
    spark = session(args.master, args.driver_memory, log_level="ERROR")
    conf = spark.sparkContext.getConf()
    print(f"master {args.master}, driver memory {conf.get('spark.driver.memory', '1g (default)')}, "
          f"{os.cpu_count()} CPUs, Spark {spark.version}", flush=True)
    for n in args.rows:
        work = tempfile.mkdtemp(prefix=f"bench-{n}-", dir=args.tmp)
        try:
            t = time.monotonic()
            folders = synthetic.spark_runs(spark, os.path.join(work, "results"), n, args.rows_per_run)
            gen = time.monotonic() - t
            size = du(os.path.join(work, "results"))
            print(f"{n:>12,} rows: generated {len(folders):,} runs, {size / 2**20:,.0f} MiB in {gen:.1f}s",
                  flush=True)
            t = time.monotonic()
            s = aggregate(spark, [os.path.join(work, "results")], [], os.path.join(work, "tables"), quiet=True)
            agg = time.monotonic() - t
            print(f"{n:>12,} rows: aggregated in {agg:.1f}s ({n / agg:,.0f} rows/s): {s['cells']:,} cells, "
                  f"{s['failing']:,} failing, {s['regressions']:,} regressions, {s['fixes']:,} fixes, "
                  f"{s['flaky']:,} flaky", flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    spark.stop()


if __name__ == "__main__":
    main()
