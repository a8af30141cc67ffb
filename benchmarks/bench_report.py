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
(b) / (p), since all three move together with the machine's load.

``--floor`` also times, against the same (p), what any aggregation of this report pays
before it writes a table: (r) its own read of the lines (reports.load.read_rows: every
field converted, each line's file, the malformed-line test; ``noop`` sink) and (g) the
least work one grouping of them into per-run cells can do (numbers only, so a hash
aggregation: counts, first start, and the deciding row as one DECIMAL(38,0) rank of
severity, start and row_id, with api_name and run_id in the key). Neither is a report; (g)
/ (p) is the floor the issue's 1.5x limit is measured against. For a count, Spark's
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

from reports import load, row_schema, synthetic, tables  # noqa: E402
from reports.aggregate import aggregate  # noqa: E402
from reports.spark import DEFAULT_MASTER, session  # noqa: E402

WARM_UP_ROWS = 100_000


def du(path: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def jsonl_files(results: str) -> list[str]:
    """Every run folder's results.jsonl under ``results``, in name order."""
    return sorted(os.path.join(results, r, "results.jsonl") for r in os.listdir(results))


def _noop(frame) -> float:
    """Seconds of building ``frame()`` (its files listed) and writing it to Spark's noop
    sink: every row computed, none kept."""
    t = time.monotonic()
    frame().write.format("noop").mode("overwrite").save()
    return time.monotonic() - t


def bare_read(spark, results: str) -> tuple[int, float]:
    """Rows and seconds of Spark reading and parsing every results.jsonl with the explicit schema."""
    files = jsonl_files(results)
    t = time.monotonic()
    n = spark.read.schema(row_schema.spark_schema()).json(files).count()
    return n, time.monotonic() - t


def full_parse(spark, results: str) -> float:
    """Seconds of the same read with every field of every line converted (noop sink)."""
    return _noop(lambda: spark.read.schema(row_schema.spark_schema()).option("mode", "PERMISSIVE")
                 .option("columnNameOfCorruptRecord", row_schema.CORRUPT).json(jsonl_files(results)))


def own_read(spark, results: str) -> float:
    """(r): the aggregation's own read of every line, written nowhere."""
    return _noop(lambda: load.read_rows(spark, jsonl_files(results)))


def least_grouping(spark, results: str) -> float:
    """(g): the lines grouped into per-run cells with numbers only (a hash aggregation)."""
    from pyspark.sql import functions as F

    ok = ~F.col("bad")
    # severity (3 bits), start in microseconds (shifted to be positive: 59 bits), row_id
    # (19 digits): one number whose maximum is the deciding row
    first = (tables._severity(F.col("outcome")).cast("long") * F.lit(1 << 59)
             + F.unix_micros(F.col("started_ts")) + F.lit(1 << 58))
    rank = (first.cast("decimal(38,0)") * F.lit("10000000000000000000").cast("decimal(20,0)")
            + F.col("row_id").cast("decimal(20,0)"))
    return _noop(lambda: load.read_rows(spark, jsonl_files(results)).groupBy(
        "file", F.when(~ok, F.col("mid")).alias("bad_mid"), *tables.CELL, *tables.BUILD, "api_name", "run_id").agg(
        F.count("*").alias("n"), *[tables._count(o) for o in row_schema.OUTCOMES],
        F.max(F.when(ok, rank)).alias("rank"), F.min(F.when(ok, F.col("started_ts"))).alias("first_ts")))


def measure(spark, n: int, rows_per_run: int, tmp: str | None, show: bool = True, floor: bool = False) -> dict:
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
        extra = {}
        if floor:
            extra["own_read_s"] = own_read(spark, results)
            say(f"{n:>12,} rows: the aggregation's own read (noop) in {extra['own_read_s']:.1f}s, "
                f"{extra['own_read_s'] / parse:.2f}x the full parse")
            extra["least_grouping_s"] = least_grouping(spark, results)
            say(f"{n:>12,} rows: the least grouping into per-run cells (noop) in {extra['least_grouping_s']:.1f}s, "
                f"{extra['least_grouping_s'] / parse:.2f}x the full parse")
        t = time.monotonic()
        s = aggregate(spark, [results], [], os.path.join(work, "tables"), quiet=True)
        agg = time.monotonic() - t
        assert s["rows"] == n, (s["rows"], n)
        say(f"{n:>12,} rows: aggregated in {agg:.1f}s ({n / agg:,.0f} rows/s), {agg / read:.2f}x the bare read, "
            f"{agg / parse:.2f}x the full parse: "
            f"{s['cells']:,} cells, {s['failing']:,} failing, {s['regressions']:,} regressions, "
            f"{s['fixes']:,} fixes, {s['flaky']:,} flaky")
        return {"runs": len(folders), "mib": size / 2**20, "generate_s": gen, "read_s": read, "parse_s": parse,
                "aggregate_s": agg, **extra}
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
                       ("spark_parse_s", lambda f, n: round(f["parse_s"], 1)),
                       # --floor only
                       ("report_read_vs_full_parse", lambda f, n: round(f["own_read_s"] / f["parse_s"], 3)),
                       ("report_floor_vs_full_parse", lambda f, n: round(f["least_grouping_s"] / f["parse_s"], 3))):
        got = {}
        for n, f in figures.items():
            try:
                got[str(n)] = value(f, n)
            except KeyError:  # a figure of --floor, measured without it
                pass
        if got:
            data.setdefault(key, {}).update(got)
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
    p.add_argument("--floor", action="store_true",
                   help="also time the aggregation's own read and the least grouping against the full parse")
    args = p.parse_args(argv)
    spark = session(args.master, args.driver_memory, log_level="ERROR")
    try:
        conf = spark.sparkContext.getConf()
        print(f"master {args.master}, driver memory {conf.get('spark.driver.memory', '1g (default)')}, "
              f"{os.cpu_count()} CPUs, Spark {spark.version}", flush=True)
        measure(spark, WARM_UP_ROWS, args.rows_per_run, args.tmp, show=False)
        figures = {}
        for n in args.rows:
            figures[n] = measure(spark, n, args.rows_per_run, args.tmp, floor=args.floor)
            if args.out:  # after each N, so a long run keeps what it measured
                write_out(args.out, figures)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
