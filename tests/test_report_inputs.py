"""The report sizes its local input before Spark starts, and a small local report gets the
quick-start JVM (reports/spark.py, QUICK_START_BYTES); remote or large input keeps Spark's
defaults."""
import os

from reports import paths
from reports.spark import QUICK_START_BYTES, quick_start


def _run(root, name, size):
    d = root / name
    d.mkdir(parents=True)
    (d / paths.RESULTS).write_bytes(b"x" * size)
    return d


def test_local_bytes_sums_the_results_files_of_folders_and_runs(tmp_path):
    _run(tmp_path / "results", "r1", 100)
    _run(tmp_path / "results", "r2", 20)
    (tmp_path / "results" / "stray.txt").write_text("not a run")
    other = _run(tmp_path, "r3", 3)
    assert paths.local_bytes([str(tmp_path / "results")], [str(other)]) == 123
    assert paths.local_bytes([], [str(other / paths.RESULTS)]) == 3
    assert paths.local_bytes([], [f"file://{other}"]) == 3


def test_a_remote_input_is_not_sized():
    assert paths.local_bytes(["hdfs://nn:8020/results"], []) is None
    assert paths.local_bytes([], ["s3a://bucket/run"]) is None


def test_only_a_small_report_starts_quick_jvms():
    assert quick_start("local[2]", 1_600_000)
    assert not quick_start("local[2]", QUICK_START_BYTES)
    assert not quick_start("local[2]", None)
    assert quick_start("spark://127.0.0.1:7077", 1_000)            # the executors too
    assert not quick_start("spark://127.0.0.1:7077", None)
