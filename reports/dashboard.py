"""Write the static dashboard (one index.html, opens from disk) from the aggregate tables.

    python -m reports.dashboard --tables TABLES_DIR --out SITE_DIR [--master local[2]]

Only the small tables the page shows are collected, each capped (CAPS); the page says
"showing N of M" when a cap cut a table.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import sys

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from . import html
from . import known as known_list
from .cli import Phases, ReportError, run
from .paths import is_local
from .spark import using

CAPS = {"matrix": 20_000, "failures": 2_000, "scores": 5_000, "changes": 300, "flaky": 300,
        "runs": 300, "malformed": 100, "history": 5_000, "family_history": 20_000}
OPTIONAL = ("history", "family_history")  # tables an older aggregate did not write: the page goes without them
#: what the page calls a table -> the tables it is read from, the first one there: the page's
#: matrix is one column per broker (reports/tables.py ``columns``; an older aggregate has only
#: the matrix per broker spec)
SOURCES = {"matrix": ("columns", "matrix")}
ORDER = {"matrix": ["broker", "api_key", "api_version", "property"],
         "failures": ["broker", "api_key", "api_version", "property"],
         "scores": ["broker", "scope", "api_key"],
         "changes": ["-to_run_start", "broker", "api_key", "api_version", "property"],
         "flaky": ["-runs_fail", "broker", "api_key", "api_version", "property"],
         "runs": ["-run_start", "run_id"], "malformed": ["file", "line"],
         "history": ["-run_start", "-run_id", "broker"],
         "family_history": ["-run_start", "-run_id", "broker", "family"]}  # "-": descending


def _plain(df: DataFrame) -> DataFrame:
    """Timestamps as UTC text and arrays as comma lists, before they reach Python."""
    cols = []
    for f in df.schema.fields:
        c = F.col(f.name)
        if isinstance(f.dataType, T.TimestampType):
            c = F.date_format(c, "yyyy-MM-dd HH:mm:ss'Z'")
        elif isinstance(f.dataType, T.ArrayType):
            c = F.array_join(c, ", ")
        cols.append(c.alias(f.name))
    return df.select(*cols)


def _table(spark: SparkSession, path: str) -> DataFrame | None:
    try:
        return spark.read.parquet(path)
    except Exception:  # AnalysisException: path does not exist
        return None


def read_tables(spark: SparkSession, tables: str) -> dict:
    tables = tables.rstrip("/")
    data, totals = {}, {}
    for name, cap in CAPS.items():
        *newer, oldest = SOURCES.get(name, (name,))
        df = next((d for d in (_table(spark, f"{tables}/{n}") for n in newer) if d is not None), None)
        try:
            df = df if df is not None else spark.read.parquet(f"{tables}/{oldest}")
        except Exception as e:  # AnalysisException: path does not exist
            if name in OPTIONAL:
                data[name] = []
                continue
            raise ReportError(f"no table {tables}/{oldest} ({str(e).strip().splitlines()[0][:200]}); "
                              "run python -m reports.aggregate --out TABLES_DIR first") from None
        rows = [r.asDict() for r in _plain(df.orderBy(*[F.desc(c[1:]) if c[0] == "-" else F.asc(c) for c in ORDER[name]]).limit(cap + 1)).collect()]
        if len(rows) > cap:
            rows, totals[name] = rows[:cap], df.count()
        data[name] = rows
    data["totals"] = totals
    return data


def write_site(data: dict, out: str) -> str:
    """Write OUT/index.html (a local folder); returns its path."""
    try:
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, "index.html")
        with open(path + ".tmp", "w", encoding="utf-8") as fh:
            fh.write(html.page(data))
        os.replace(path + ".tmp", path)
    except OSError as e:
        raise ReportError(f"cannot write the dashboard into {out}: {e.strerror}") from None
    return os.path.abspath(path)


def label_known(failures: list[dict], entries: list) -> dict:
    """Mark each failing cell whose row standing for it (its latest failing row) is a reviewed
    known deviation of Apache Kafka (reports/known.py ``classify``): ``known`` = the entry's
    id; returns id -> what the page says of the entry (title, evidence, releases)."""
    shown = {}
    for f in failures:
        k = known_list.classify({**f, "outcome": "fail"}, entries)
        f["known"] = None if k is None else k.id
        if k is not None:
            shown[k.id] = {"title": k.doc.get("title"), "evidence": k.doc.get("evidence"),
                           "releases": ", ".join(k.releases), "modes": ", ".join(k.modes or ())}
    return shown


def dashboard(spark: SparkSession, tables: str, out: str, quiet: bool = False, known: str | None = None) -> str:
    ph = Phases("dashboard", quiet)
    entries = known_list.entries_of(known)
    data = read_tables(spark, tables)
    data["known"] = label_known(data["failures"], entries)
    data["generated"] = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%SZ")
    ph.done(f"read {len(data['matrix']):,} cells, {len(data['failures']):,} failing")
    path = write_site(data, out)
    ph.done(f"wrote {path}")
    return path


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m reports.dashboard", description=__doc__.split("\n")[0])
    p.add_argument("--tables", required=True, metavar="TABLES_DIR", help="what reports.aggregate wrote (--out)")
    p.add_argument("--out", required=True, metavar="SITE_DIR", help="local folder for index.html")
    p.add_argument("--master", default=None, help="Spark master (default local[2])")
    p.add_argument("--known", metavar="FILE", help="the known-deviations list (default: the suite's; 'none' for no list)")
    p.add_argument("--quiet", action="store_true")
    return p


def main(argv=None, spark: SparkSession | None = None) -> int:
    args = parser().parse_args(argv)
    if is_local(args.tables) and not os.path.isdir(args.tables.removeprefix("file:")):
        raise ReportError(f"no such folder: {args.tables}; run python -m reports.aggregate --out TABLES_DIR first")
    with using(spark, args.master) as spark:
        path = dashboard(spark, args.tables, args.out, args.quiet, args.known)
    print(f"dashboard: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
