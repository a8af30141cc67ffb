"""The report on a real Spark standalone cluster: a master and two workers on loopback,
started from the pinned pyspark package's own classes (reports/standalone.py). The tables
it writes must equal the local[2] ones (conftest's ``report``) for the same runs, and no
JVM of the cluster may outlive it, also when the with-block fails."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from reports import aggregate, standalone

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _processes_under(folder: str) -> list[str]:
    """Processes whose command line or working folder names ``folder`` (the master, the
    workers and the executors a worker starts in its work dir)."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if folder in cmd or cwd.startswith(folder):
            out.append(f"{pid}: {cmd[:200]}")
    return out


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as fh:  # a zombie is not a JVM left behind
        return fh.read().rsplit(")", 1)[1].split()[0] != "Z"


def _rows(spark, path: str) -> list[str]:
    return sorted(repr(sorted(r.asDict(recursive=True).items())) for r in spark.read.parquet(path).collect())


@pytest.fixture(scope="module")
def cluster_report(results_dir, tmp_path_factory):
    """``python -m reports.standalone -- --results-dir DIR --out OUT`` as a user types it."""
    base = tmp_path_factory.mktemp("cluster")
    work, out = str(base / "spark"), str(base / "out")
    p = subprocess.run([sys.executable, "-m", "reports.standalone", "--work-dir", work, "--",
                        "--results-dir", results_dir, "--out", out],
                       cwd=ROOT, capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONPATH": ROOT})
    return {"status": p.returncode, "stdout": p.stdout, "stderr": p.stderr, "work": work, "out": out}


def test_cluster_runs_the_report_and_leaves_no_jvm(cluster_report):
    r = cluster_report
    assert r["status"] == 0, r["stderr"][-2000:]
    m = re.search(r"master (spark://127\.0\.0\.1:\d+) and 2 worker\(s\) up; pids ([\d ]+)", r["stdout"])
    assert m, r["stdout"]
    pids = [int(x) for x in m.group(2).split()]
    assert len(pids) == 3
    assert "[aggregate] read " in r["stdout"] and "[standalone] cluster stopped; report exit status 0" in r["stdout"]
    assert not [p for p in pids if _alive(p)]
    assert _processes_under(r["work"]) == []
    # the job really ran on the workers: each started an executor in its work dir
    for i in range(2):
        apps = os.listdir(os.path.join(r["work"], f"worker-{i}"))
        assert any(a.startswith("app-") for a in apps), (i, apps)
        # a small report's executors start quick JVMs (reports/spark.py QUICK_START_JAVA_OPTIONS)
        commands = [line for app in apps if app.startswith("app-")
                    for e in os.listdir(os.path.join(r["work"], f"worker-{i}", app))
                    for line in open(os.path.join(r["work"], f"worker-{i}", app, e, "stderr"), errors="replace")
                    if line.startswith("Spark Executor Command:")]
        assert commands and all("-XX:TieredStopAtLevel=1" in c for c in commands), (i, commands)
    # every Spark process listened on loopback only
    logs = "".join(open(os.path.join(r["work"], f), errors="replace").read()
                   for f in os.listdir(r["work"]) if f.endswith(".log"))
    assert "127.0.0.1" in logs and not re.search(r"\b(?!127\.)\d+\.\d+\.\d+\.\d+:\d{4,5}\b", logs)


def test_cluster_tables_equal_local_tables(cluster_report, report, spark):
    assert cluster_report["status"] == 0
    for name in aggregate.TABLES:
        local = _rows(spark, os.path.join(report["out"], "tables", name))
        remote = _rows(spark, os.path.join(cluster_report["out"], "tables", name))
        assert remote == local, name
        assert local or name in ("flaky",), name  # the comparison is not of empty tables
    page = open(os.path.join(cluster_report["out"], "index.html"), encoding="utf-8").read()
    assert 'class="broker" data-broker="crafted"' in page


def test_cluster_is_stopped_when_the_block_fails(tmp_path):
    work = str(tmp_path / "spark")
    with pytest.raises(RuntimeError, match="job failed"):
        with standalone.cluster(workers=1, work_dir=work) as c:
            pids = c.pids()
            assert all(_alive(p) for p in pids)
            raise RuntimeError("job failed")
    assert not [p for p in pids if _alive(p)]
    assert _processes_under(work) == []


def test_bad_report_arguments_are_one_line_errors():
    p = subprocess.run([sys.executable, "-m", "reports.standalone"], cwd=ROOT, capture_output=True, text=True,
                       timeout=60, env={**os.environ, "PYTHONPATH": ROOT})
    assert p.returncode == 2 and p.stderr.startswith("error: no report arguments") and p.stderr.count("\n") == 1
