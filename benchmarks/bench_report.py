"""Report scale: aggregation time for N synthetic result rows against Spark's bare read of
the same files, in the same run (not a test).

    python benchmarks/bench_report.py [N ...] [--rows-per-run 10000] [--master local[2]]
                                      [--driver-memory SIZE] [--tmp DIR] [--out FILE]
    tox -e bench -- [the same arguments]

Default N: 1000000 10000000 50000000. For each N, Spark itself writes N rows as run
folders (N / rows-per-run runs of results.jsonl + manifest.json, about 330 bytes a row)
into a temporary folder (deleted afterwards), then times

  (a) the bare read: spark.read.schema(<reports.row_schema.spark_schema()>).json(files).count()
  (p) the full parse: the same read with every field converted (the rows written to
      Spark's "noop" sink): what any report that checks every field of every line pays
  (b) the aggregation: reports.aggregate.aggregate (every table, malformed-line check included)

and prints rows per second of (b) and the ratios (b) / (a), the issue's figure, and
(b) / (p), since all three move together with the machine's load. For a count, Spark's
reader converts no field (the required schema is empty), so (a) is a floor no report that
reads the fields can reach; (p) / (a) shows how far below the aggregation it is. Before the first N, both run once on 100,000 rows,
untimed, so neither pays the JIT warm-up. ``--out FILE`` writes
{"spark_rows_per_s": {N: ...}, "spark_vs_read_ratio": {N: ...},
"report_vs_full_parse": {N: ...} (issue 29's figure, limit 1.5), ...} into FILE, keeping
the other keys (and other Ns) already there.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from reports import row_schema, synthetic  # noqa: E402
from reports.aggregate import aggregate  # noqa: E402
from reports.spark import DEFAULT_MASTER, session  # noqa: E402

WARM_UP_ROWS = 100_000


def du(path: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def bare_read(spark, results: str) -> tuple[int, float]:
    """Rows and seconds of Spark reading and parsing every results.jsonl with the explicit schema."""
    files = sorted(os.path.join(results, r, "results.jsonl") for r in os.listdir(results))
    t = time.monotonic()
    n = spark.read.schema(row_schema.spark_schema()).json(files).count()
    return n, time.monotonic() - t


def full_parse(spark, results: str) -> float:
    """Seconds of the same read with every field of every line converted (noop sink)."""
    files = sorted(os.path.join(results, r, "results.jsonl") for r in os.listdir(results))
    t = time.monotonic()
    (spark.read.schema(row_schema.spark_schema()).option("mode", "PERMISSIVE")
     .option("columnNameOfCorruptRecord", row_schema.CORRUPT).json(files)
     .write.format("noop").mode("overwrite").save())
    return time.monotonic() - t


def measure(spark, n: int, rows_per_run: int, tmp: str | None, show: bool = True) -> dict:
    work = tempfile.mkdtemp(prefix=f"bench-{n}-", dir=tmp)
    results = os.path.join(work, "results")
    say = (lambda s: print(s, flush=True)) if show else (lambda s: None)
    try:
        t = time.monotonic()
        folders = synthetic.spark_runs(spark, results, n, rows_per_run)
        gen = time.monotonic() - t
        size = du(results)
        say(f"{n:>12,} rows: generated {len(folders):,} runs, {size / 2**20:,.0f} MiB in {gen:.1f}s")
        read_rows, read = bare_read(spark, results)
        assert read_rows == n, (read_rows, n)
        say(f"{n:>12,} rows: bare read in {read:.1f}s ({n / read:,.0f} rows/s)")
        parse = full_parse(spark, results)
        say(f"{n:>12,} rows: full parse in {parse:.1f}s ({n / parse:,.0f} rows/s), {parse / read:.2f}x the bare read")
        t = time.monotonic()
        s = aggregate(spark, [results], [], os.path.join(work, "tables"), quiet=True)
        agg = time.monotonic() - t
        assert s["rows"] == n, (s["rows"], n)
        say(f"{n:>12,} rows: aggregated in {agg:.1f}s ({n / agg:,.0f} rows/s), {agg / read:.2f}x the bare read, "
            f"{agg / parse:.2f}x the full parse: "
            f"{s['cells']:,} cells, {s['failing']:,} failing, {s['regressions']:,} regressions, "
            f"{s['fixes']:,} fixes, {s['flaky']:,} flaky")
        return {"runs": len(folders), "mib": size / 2**20, "generate_s": gen, "read_s": read, "parse_s": parse,
                "aggregate_s": agg}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write_out(path: str, figures: dict[int, dict]) -> None:
    """Merge this run's figures into the JSON file (other keys and other Ns stay)."""
    data = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    for key, value in (("spark_rows_per_s", lambda f, n: round(n / f["aggregate_s"])),
                       ("spark_vs_read_ratio", lambda f, n: round(f["aggregate_s"] / f["read_s"], 3)),
                       ("spark_aggregate_s", lambda f, n: round(f["aggregate_s"], 1)),
                       ("report_vs_full_parse", lambda f, n: round(f["aggregate_s"] / f["parse_s"], 3)),
                       ("spark_read_s", lambda f, n: round(f["read_s"], 1)),
                       ("spark_parse_s", lambda f, n: round(f["parse_s"], 1))):
        data.setdefault(key, {}).update({str(n): value(f, n) for n, f in figures.items()})
    with open(path + ".tmp", "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, sort_keys=True)
        fh.write("\n")
    os.replace(path + ".tmp", path)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("rows", nargs="*", type=int, default=[1_000_000, 10_000_000, 50_000_000])
    p.add_argument("--rows-per-run", type=int, default=10_000)
    p.add_argument("--master", default=DEFAULT_MASTER)
    p.add_argument("--driver-memory", help="e.g. 4g (Spark's default is 1g)")
    p.add_argument("--tmp", help="where the synthetic runs go (default: the system temp folder)")
    p.add_argument("--out", metavar="FILE", help="merge the figures into this JSON file")
    args = p.parse_args(argv)
    spark = session(args.master, args.driver_memory, log_level="ERROR")
    try:
        conf = spark.sparkContext.getConf()
        print(f"master {args.master}, driver memory {conf.get('spark.driver.memory', '1g (default)')}, "
              f"{os.cpu_count()} CPUs, Spark {spark.version}", flush=True)
        measure(spark, WARM_UP_ROWS, args.rows_per_run, args.tmp, show=False)
        figures = {}
        for n in args.rows:
            figures[n] = measure(spark, n, args.rows_per_run, args.tmp)
            if args.out:  # after each N, so a long run keeps what it measured
                write_out(args.out, figures)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
