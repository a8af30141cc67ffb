"""The benchmark's Spark generator writes valid run folders in the docs/results.md layout."""
from __future__ import annotations

import json
import os

from reports import row_schema, synthetic


def test_spark_runs_are_valid_run_folders(spark, tmp_path):
    # 2 Spark partitions cut run 1 in two: its parts must be joined in order
    folders = synthetic.spark_runs(spark, tmp_path, n_rows=2_500, rows_per_run=1_000)
    assert [os.path.basename(f) for f in folders] == ["run-0000000", "run-0000001", "run-0000002"]
    assert sorted(os.listdir(tmp_path)) == ["run-0000000", "run-0000001", "run-0000002"]
    outcomes = set()
    for folder, n in zip(folders, (1_000, 1_000, 500)):
        with open(os.path.join(folder, "results.jsonl"), encoding="utf-8") as fh:
            rows = [row_schema.check_line(line) for line in fh]
        assert [reason for _, reason in rows if reason] == []
        assert [r["row_id"] for r, _ in rows] == list(range(1, n + 1))
        assert {r["run_id"] for r, _ in rows} == {os.path.basename(folder)}
        outcomes |= {r["outcome"] for r, _ in rows}
        assert all(r["counterexample"]["steps"] for r, _ in rows if r["outcome"] == "fail")
        with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as fh:
            assert json.load(fh)["rows"] == n
    assert outcomes == set(row_schema.OUTCOMES)
