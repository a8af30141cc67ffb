"""A Spark standalone cluster on loopback, from the installed pyspark package's own classes.

    python -m reports.standalone [--workers 2] [--worker-cores 1] [--worker-memory 1g]
                                 [--executor-memory 512m] [--work-dir DIR] -- REPORT_ARGS

Starts a master (org.apache.spark.deploy.master.Master) and N workers
(org.apache.spark.deploy.worker.Worker) with the package's ``bin/spark-class``, every
process bound to 127.0.0.1, runs ``python -m reports --master spark://127.0.0.1:PORT
REPORT_ARGS`` against it, and stops the cluster (its JVMs and their executors) whether the
report succeeds, fails or is interrupted. Its exit status is the report's.

The workers run on this machine, so local run folders are a path every worker sees; on a
real cluster give the report a shared filesystem path or an object-store URI
(docs/reports.md).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from .cli import ReportError, run
from .spark import QUICK_START_JAVA_OPTIONS

LOOPBACK = "127.0.0.1"
MASTER = "org.apache.spark.deploy.master.Master"
WORKER = "org.apache.spark.deploy.worker.Worker"
REGISTERED = "Successfully registered with master"


def spark_home() -> str:
    try:
        import pyspark
    except ImportError:
        raise ReportError("pyspark is not installed: pip install -e .[reports]") from None
    home = os.path.dirname(os.path.abspath(pyspark.__file__))
    if not os.path.isfile(os.path.join(home, "bin", "spark-class")):
        raise ReportError(f"{home} has no bin/spark-class: install pyspark from PyPI (pip install -e .[reports])")
    return home


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def spark_env(home: str) -> dict:
    """What every Spark process of the cluster (and its driver) runs with: loopback only."""
    return {**os.environ, "SPARK_HOME": home, "SPARK_LOCAL_IP": LOOPBACK, "SPARK_LOCAL_HOSTNAME": "localhost",
            "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}


class Cluster:
    """Master + workers as child processes, each in its own process group (so its
    executors, which a worker starts as its children, are stopped with it)."""

    def __init__(self, workers: int = 2, cores: int = 1, memory: str = "1g", work_dir: str | None = None,
                 timeout: float = 120.0):
        self.n_workers, self.cores, self.memory, self.timeout = workers, cores, memory, timeout
        self.own_dir = work_dir is None
        self.dir = work_dir or tempfile.mkdtemp(prefix="reports-standalone-")
        self.home = spark_home()
        self.env = spark_env(self.home)
        self.procs: list[tuple[str, subprocess.Popen, str]] = []  # (name, process, log file)
        self.port = free_port()
        self.url = f"spark://{LOOPBACK}:{self.port}"

    def _spawn(self, name: str, args: list[str]) -> None:
        """A master or worker: a daemon that schedules and never computes, so it runs with the
        client compiler and the serial collector (``SPARK_DAEMON_JAVA_OPTS``, unless set)."""
        log = os.path.join(self.dir, f"{name}.log")
        env = {"SPARK_DAEMON_JAVA_OPTS": QUICK_START_JAVA_OPTIONS, **self.env}
        with open(log, "wb") as fh:
            p = subprocess.Popen([os.path.join(self.home, "bin", "spark-class"), *args], env=env,
                                 stdin=subprocess.DEVNULL, stdout=fh, stderr=subprocess.STDOUT,
                                 start_new_session=True, cwd=self.dir)
        self.procs.append((name, p, log))

    def _log(self, log: str) -> str:
        try:
            with open(log, encoding="utf-8", errors="replace") as fh:
                return fh.read()
        except OSError:
            return ""

    def _last_line(self, log: str) -> str:
        lines = [x for x in self._log(log).splitlines() if x.strip()]
        return lines[-1][:200] if lines else "(no output)"

    def start(self) -> "Cluster":
        os.makedirs(self.dir, exist_ok=True)
        self._spawn("master", [MASTER, "--host", LOOPBACK, "--port", str(self.port),
                               "--webui-port", str(free_port())])
        for i in range(self.n_workers):
            wd = os.path.join(self.dir, f"worker-{i}")
            os.makedirs(wd, exist_ok=True)
            self._spawn(f"worker-{i}", [WORKER, self.url, "--host", LOOPBACK, "--cores", str(self.cores),
                                        "--memory", self.memory, "--work-dir", wd,
                                        "--webui-port", str(free_port())])
        deadline = time.monotonic() + self.timeout
        while True:
            for name, p, log in self.procs:
                if p.poll() is not None:
                    raise ReportError(f"the Spark {name} exited with status {p.returncode}: {self._last_line(log)}")
            if all(REGISTERED in self._log(log) for name, _, log in self.procs if name != "master"):
                return self
            if time.monotonic() > deadline:
                waiting = [n for n, _, log in self.procs if n != "master" and REGISTERED not in self._log(log)]
                raise ReportError(f"the Spark workers {', '.join(waiting)} did not register with {self.url} "
                                  f"in {self.timeout:.0f}s (see {self.dir}/*.log)")
            time.sleep(0.5)

    def pids(self) -> list[int]:
        return [p.pid for _, p, _ in self.procs]

    def alive(self) -> list[int]:
        """Process groups of the cluster that still have a process (a JVM or an executor)."""
        out = []
        for _, p, _ in self.procs:
            try:
                os.killpg(p.pid, 0)
                out.append(p.pid)
            except ProcessLookupError:
                pass
            except PermissionError:
                out.append(p.pid)
        return out

    def stop(self, grace: float = 15.0) -> None:
        """SIGTERM every process group (workers first), then SIGKILL what is left."""
        for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
            for _, p, _ in reversed(self.procs):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, sig)
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                for _, p, _ in self.procs:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        p.wait(timeout=0.1)
                if not self.alive():
                    break
                time.sleep(0.2)
            if not self.alive():
                break
        if self.own_dir and not self.alive():
            shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def cluster(workers: int = 2, cores: int = 1, memory: str = "1g", work_dir: str | None = None):
    """A running cluster for the with-block; stopped on exit, also on an exception."""
    c = Cluster(workers, cores, memory, work_dir)
    try:
        c.start()
        yield c
    finally:
        c.stop()


def report_command(url: str, report_args: list[str], executor_memory: str = "512m",
                   shuffle_partitions: int = 4) -> list[str]:
    """``python -m reports`` on the cluster. Shuffles get a few partitions per core (Spark's
    200 only add task overhead on small clusters); a --conf in report_args overrides it."""
    return [sys.executable, "-m", "reports", "--master", url, "--executor-memory", executor_memory,
            "--conf", f"spark.sql.shuffle.partitions={shuffle_partitions}", *report_args]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m reports.standalone", description=__doc__.split("\n")[0],
                                usage="python -m reports.standalone [options] -- REPORT_ARGS")
    p.add_argument("--workers", type=int, default=2, help="workers to start (default %(default)s)")
    p.add_argument("--worker-cores", type=int, default=1, help="cores each worker offers (default %(default)s)")
    p.add_argument("--worker-memory", default="1g", help="memory each worker offers (default %(default)s)")
    p.add_argument("--executor-memory", default="512m", help="spark.executor.memory (default %(default)s)")
    p.add_argument("--work-dir", help="folder for the cluster's logs and executors' files (default: a temporary one)")
    p.add_argument("report_args", nargs=argparse.REMAINDER, help="arguments of python -m reports (after --)")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    rest = args.report_args[1:] if args.report_args[:1] == ["--"] else args.report_args
    if not rest:
        raise ReportError("no report arguments: give them after --, e.g. -- --results-dir DIR --out OUT")
    if "--master" in rest:
        raise ReportError("--master is this cluster's; leave it out of the report arguments")
    if args.workers < 1:
        raise ReportError("--workers must be at least 1")
    with cluster(args.workers, args.worker_cores, args.worker_memory, args.work_dir) as c:
        print(f"[standalone] master {c.url} and {args.workers} worker(s) up; pids {' '.join(map(str, c.pids()))}",
              flush=True)
        cmd = report_command(c.url, rest, args.executor_memory, 2 * args.workers * args.worker_cores)
        status = subprocess.call(cmd, env=c.env)
    print(f"[standalone] cluster stopped; report exit status {status}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(run(main))
