"""Memory of the report on a standalone cluster, measured (not a test).

    python benchmarks/cluster_memory.py [N ...] [--executor-memory 512m] [--workers 2] [--tmp DIR]

For each N: Spark (local[2]) writes N synthetic rows as run folders (as bench_report.py),
then ``python -m reports.standalone --workers W --executor-memory M -- --results-dir ...``
runs the report on a fresh master + W workers on loopback, while this script samples the
resident memory (VmRSS in /proc, every 0.2 s) of every JVM it started: the driver
(SparkSubmit), the executors (CoarseGrainedExecutorBackend), the master and the workers.
Prints the peak per process kind and the report's exit status and time.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from reports import synthetic  # noqa: E402
from reports.spark import session  # noqa: E402

KINDS = {"CoarseGrainedExecutorBackend": "executor", "org.apache.spark.deploy.SparkSubmit": "driver",
         "org.apache.spark.deploy.master.Master": "master", "org.apache.spark.deploy.worker.Worker": "worker"}


def sample(marker: str, peaks: dict, stop: threading.Event) -> None:
    """peaks[(kind, pid)] = max VmRSS (KiB) of JVMs whose command line names ``marker``
    (the work dir: master, workers, executors) or that are the report's driver."""
    while not stop.is_set():
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    cmd = fh.read().replace(b"\0", b" ").decode(errors="replace")
                cwd = os.readlink(f"/proc/{pid}/cwd")
                kind = next((k for m, k in KINDS.items() if m in cmd), None)
                if kind is None or not (marker in cmd or cwd.startswith(marker)):
                    continue
                with open(f"/proc/{pid}/status") as fh:
                    rss = next(int(x.split()[1]) for x in fh if x.startswith("VmRSS:"))
            except (OSError, StopIteration, ValueError):
                continue
            peaks[(kind, pid)] = max(peaks.get((kind, pid), 0), rss)
        stop.wait(0.2)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("rows", nargs="*", type=int, default=[1_000_000])
    p.add_argument("--rows-per-run", type=int, default=10_000)
    p.add_argument("--executor-memory", default="512m")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--tmp")
    args = p.parse_args()
    for n in args.rows:
        work = tempfile.mkdtemp(prefix=f"cluster-mem-{n}-", dir=args.tmp)
        try:
            spark = session(log_level="ERROR")
            synthetic.spark_runs(spark, os.path.join(work, "results"), n, args.rows_per_run)
            spark.stop()
            peaks, stop = {}, threading.Event()
            t = threading.Thread(target=sample, args=(work, peaks, stop), daemon=True)
            t.start()
            start = time.monotonic()
            # the driver's cwd is the work dir, so the sampler finds it too
            status = subprocess.call(
                [sys.executable, "-m", "reports.standalone", "--workers", str(args.workers),
                 "--executor-memory", args.executor_memory, "--work-dir", os.path.join(work, "spark"), "--",
                 "--results-dir", os.path.join(work, "results"), "--out", os.path.join(work, "out"), "--quiet"],
                cwd=work, env={**os.environ, "PYTHONPATH": ROOT}, stdout=subprocess.DEVNULL)
            took = time.monotonic() - start
            stop.set()
            t.join()
            by = {}
            for (kind, _), rss in peaks.items():
                by.setdefault(kind, []).append(rss)
            text = ", ".join(f"{k} {'/'.join(f'{v / 1024:.0f}' for v in sorted(vs))} MiB"
                             for k, vs in sorted(by.items()))
            print(f"{n:>12,} rows, {args.workers} workers, executor memory {args.executor_memory}: "
                  f"exit {status} in {took:.0f}s; peak RSS: {text}", flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
