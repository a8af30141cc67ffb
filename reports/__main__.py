"""Aggregate runs and write the dashboard in one go.

    python -m reports [RUN_FOLDER ...] [--results-dir DIR] [--runs-from FILE] --out OUT
                      [--tables URI] [--master local[2]] [--driver-memory 4g] [--quiet]

Tables go to OUT/tables (or --tables, any Hadoop URI); the page to OUT/index.html.
"""
from __future__ import annotations

import argparse
import os
import sys

from . import aggregate, dashboard, paths
from .cli import run
from .spark import using


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m reports", description=__doc__.split("\n")[0])
    aggregate.add_input_args(p)
    p.add_argument("--out", required=True, metavar="OUT", help="local folder: OUT/index.html, OUT/tables/")
    p.add_argument("--tables", metavar="URI", help="where the Parquet tables go (default OUT/tables)")
    aggregate.add_spark_args(p)
    return p


def main(argv=None, spark=None) -> int:
    args = parser().parse_args(argv)
    dirs, runs = aggregate.inputs(args)
    tables = args.tables or os.path.join(args.out, "tables")
    with using(spark, args.master, args.driver_memory, args.executor_memory, aggregate.confs(args),
               input_bytes=paths.local_bytes(dirs, runs)) as spark:
        s = aggregate.aggregate(spark, dirs, runs, tables, args.quiet)
        page = dashboard.dashboard(spark, tables, args.out, args.quiet)
    print(f"{s['cells']:,} cells ({s['failing']:,} failing) from {s['rows']:,} rows in {s['runs']:,} runs; "
          f"{s['malformed']:,} malformed lines")
    print(f"dashboard: {page}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
