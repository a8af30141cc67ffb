"""Aggregate result runs into Parquet tables with Spark.

    python -m reports.aggregate [RUN_FOLDER ...] [--results-dir DIR] [--runs-from FILE]
                                --out TABLES_DIR [--master local[2]] [--driver-memory 4g]

Writes TABLES_DIR/<table>/ (Parquet) for each of TABLES; see docs/reports.md.
"""
from __future__ import annotations

import argparse
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from . import load, paths, tables
from .cli import Phases, ReportError, run
from .spark import DEFAULT_MASTER, using

TABLES = ("runs", "matrix", "columns", "scores", "failures", "changes", "flaky", "malformed", "history",
          "family_history")
SHOW_MALFORMED = 10


def add_input_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="*", metavar="RUN_FOLDER",
                   help="run folders (RESULTS_DIR/<run_id>/, holding results.jsonl); any Hadoop URI")
    p.add_argument("--results-dir", action="append", default=[], metavar="DIR",
                   help="a folder holding run folders (repeatable)")
    p.add_argument("--runs-from", metavar="FILE",
                   help="a local text file naming run folders, one a line (tox writes one)")


def add_spark_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--master", default=DEFAULT_MASTER, help="Spark master (default %(default)s)")
    p.add_argument("--driver-memory", metavar="SIZE", help="e.g. 4g (only before Spark has started)")
    p.add_argument("--executor-memory", metavar="SIZE", help="per executor on a cluster, e.g. 2g (docs/reports.md)")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="a Spark setting, e.g. spark.sql.shuffle.partitions=64 (repeatable)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def confs(args) -> dict:
    out = {}
    for kv in args.conf:
        key, eq, value = kv.partition("=")
        if not eq or not key.strip():
            raise ReportError(f"--conf {kv}: give KEY=VALUE, e.g. spark.sql.shuffle.partitions=64")
        out[key.strip()] = value
    return out


def inputs(args) -> tuple[list[str], list[str]]:
    runs = list(args.runs) + (paths.read_runs_from(args.runs_from) if args.runs_from else [])
    paths.precheck(args.results_dir, runs)
    return args.results_dir, runs


def _write(df, path: str) -> None:
    try:
        df.write.mode("overwrite").parquet(path)
    except Exception as e:  # py4j / analysis errors: permission, a file in the way, bad scheme
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ReportError(f"cannot write {path}: {first}") from None


def aggregate(spark: SparkSession, results_dirs: list[str], runs: list[str], out: str,
              quiet: bool = False) -> dict:
    """Read the runs, write every table under ``out``; returns a small summary dict."""
    ph = Phases("aggregate", quiet)
    out = out.rstrip("/")
    files, manifest_files = load.discover(spark, results_dirs, runs)
    ph.done(f"found {len(files)} run folder(s), {len(manifest_files)} manifest(s)")

    # One pass over the lines: Spark's JSON reader parses and marks every line, and
    # tables.line_groups aggregates them into one row per run x cell (plus one per malformed
    # line), staged as Parquet; every later table reads that small table, never the lines.
    stage = f"{out}/_staging"
    try:
        _write(tables.line_groups(load.read_rows(spark, files)), f"{stage}/groups")
        groups = tables.with_columns(spark.read.parquet(f"{stage}/groups"), load.companions(spark, manifest_files))
        file_df = spark.createDataFrame([(f,) for f in files], "results string")  # decoded URIs
        _write(tables.runs(file_df, groups, load.manifests(spark, manifest_files)), f"{out}/runs")
        runs_df = spark.read.parquet(f"{out}/runs")
        totals = runs_df.agg(F.sum("lines"), F.sum("rows"), F.sum("malformed"),
                             F.collect_list(F.when(F.col("malformed") > 0, load.decoded(F.col("file"))))).first()
        n_lines, n_rows, n_bad = (int(x or 0) for x in totals[:3])
        with_bad = sorted(totals[3])
        ph.done(f"read {n_lines:,} lines: {n_rows:,} rows, {n_bad:,} malformed")

        # Only the files holding a malformed line are read again, for line numbers and reasons.
        bad = (load.malformed(spark, with_bad) if with_bad else
               spark.createDataFrame([], "file string, line long, reason string, text string"))
        _write(bad.select(load.shown(load.decoded(F.col("file"))).alias("file"), "line", "reason", "text"),
               f"{out}/malformed")
        if n_bad and not quiet:
            shown_bad = spark.read.parquet(f"{out}/malformed").orderBy("file", "line").limit(SHOW_MALFORMED)
            for r in shown_bad.collect():
                print(f"  malformed {r.file}:{r.line}: {r.reason}", file=sys.stderr)
            if n_bad > SHOW_MALFORMED:
                print(f"  ... and {n_bad - SHOW_MALFORMED:,} more (table {out}/malformed)", file=sys.stderr)

        cells = tables.run_cells(groups, runs_df)
        if not quiet:  # a job only for this line
            ph.done(f"per-run cells: {cells.count():,} (a cell's verdict in one run)")
        _write(tables.matrix(cells), f"{out}/matrix")
        m = spark.read.parquet(f"{out}/matrix")
        _write(tables.columns(m), f"{out}/columns")
        _write(tables.scores(spark.read.parquet(f"{out}/columns")), f"{out}/scores")
        _write(tables.failures(m), f"{out}/failures")
        c = m.agg(F.count("*"), F.count(F.when(F.col("latest_outcome") == "fail", 1))).first()
        n_cells, n_failing = int(c[0]), int(c[1])
        ph.done(f"matrix: {n_cells:,} cells, {n_failing:,} failing; scores")
        _write(tables.changes(cells, runs_df), f"{out}/changes")
        _write(tables.flaky(cells), f"{out}/flaky")
        kinds = dict(spark.read.parquet(f"{out}/changes").groupBy("kind").count().collect())
        n_reg, n_fix = kinds.get("regression", 0), kinds.get("fix", 0)
        n_flaky = spark.read.parquet(f"{out}/flaky").count()
        _write(tables.history(cells), f"{out}/history")
        _write(tables.family_history(cells), f"{out}/family_history")
        if not quiet:
            n_points = spark.read.parquet(f"{out}/history").count()
            ph.done(f"across runs: {n_reg:,} regressions, {n_fix:,} fixes, {n_flaky:,} flaky cells; "
                    f"history: {n_points:,} broker runs")
    finally:
        load.delete(spark, stage)
    return {"runs": len(files), "lines": n_lines, "rows": n_rows, "malformed": n_bad, "cells": n_cells,
            "failing": n_failing, "regressions": n_reg, "fixes": n_fix, "flaky": n_flaky,
            "seconds": ph.total(), "out": out}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m reports.aggregate", description=__doc__.split("\n")[0])
    add_input_args(p)
    p.add_argument("--out", required=True, metavar="TABLES_DIR", help="where the Parquet tables go (any Hadoop URI)")
    add_spark_args(p)
    return p


def main(argv=None, spark: SparkSession | None = None) -> int:
    args = parser().parse_args(argv)
    dirs, runs = inputs(args)
    with using(spark, args.master, args.driver_memory, args.executor_memory, confs(args),
               input_bytes=paths.local_bytes(dirs, runs)) as spark:
        s = aggregate(spark, dirs, runs, args.out, args.quiet)
    print(f"tables: {s['out']} ({s['cells']:,} cells from {s['rows']:,} rows in {s['seconds']:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
