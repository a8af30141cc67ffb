"""Shared fixtures for the report tests: one Spark session, one aggregated data set.

The data set = seeded random runs of two brokers + hand-made runs of broker "crafted"
whose regressions, fixes, flaky cells, scores and malformed lines are known exactly.
Spark starts once (about 10 s) and the data set is aggregated once, through
``python -m reports``'s main, which also writes the dashboard the browser test opens.
"""
from __future__ import annotations

import os

import pytest

from reports import synthetic
from reports_scenario import write_crafted

@pytest.fixture(scope="session")
def spark():
    from reports.spark import session

    # the data sets here are a few MB: the quick JVM a report of that size gets from the
    # command line (reports.spark.QUICK_START_BYTES), not the JVM defaults a long report keeps
    s = session(log_level="ERROR", input_bytes=0)
    # Small splits, so line numbers are checked across several blocks of one file.
    s.conf.set("spark.sql.files.maxPartitionBytes", str(16 * 1024))
    s.conf.set("spark.sql.files.openCostInBytes", str(4 * 1024))
    yield s
    s.stop()


@pytest.fixture(scope="session")
def results_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("results")
    synthetic.random_runs(d, n_runs=4, seed=3)
    write_crafted(d)
    return str(d)


@pytest.fixture(scope="session")
def report(spark, results_dir, tmp_path_factory):
    """``python -m reports --results-dir DIR --out OUT`` (in-process, shared Spark)."""
    from reports.__main__ import main

    out = str(tmp_path_factory.mktemp("report"))
    assert main(["--results-dir", results_dir, "--out", out, "--quiet"], spark=spark) == 0
    tables = {}
    for name in ("runs", "matrix", "scores", "failures", "changes", "flaky", "malformed", "history", "family_history"):
        tables[name] = [r.asDict() for r in spark.read.parquet(os.path.join(out, "tables", name)).collect()]
    return {"out": out, "index": os.path.join(out, "index.html"), "tables": tables}
