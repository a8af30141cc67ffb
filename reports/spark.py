"""A quiet Spark session: UI off, no progress bars, log level WARN (or ERROR)."""
from __future__ import annotations

import contextlib
import os
import tempfile

DEFAULT_MASTER = "local[2]"
#: Below this much input a report is a few short jobs, where the JVM's start and its
#: optimising JIT compiler cost more than they save: the driver (and on a cluster each
#: executor) then runs with the client compiler only and the serial collector (the default
#: run's local report: 43-49 s -> 31 s on 1.6 MB, benchmarks/README.md). Long jobs keep the
#: JVM's defaults.
QUICK_START_BYTES = 64 << 20
QUICK_START_JAVA_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

_LOG4J = """\
rootLogger.level = {level}
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{{HH:mm:ss}} %p %c{{1}}: %m%n
logger.native.name = org.apache.hadoop.util.NativeCodeLoader
logger.native.level = ERROR
"""


def _log4j_file(level: str) -> str:
    path = os.path.join(tempfile.gettempdir(), f"reports-log4j2-{level.lower()}.properties")
    if not os.path.exists(path):
        with open(path + ".tmp", "w", encoding="utf-8") as fh:
            fh.write(_LOG4J.format(level=level))
        os.replace(path + ".tmp", path)
    return path


def quick_start(master: str, input_bytes: int | None) -> bool:
    """A session over less than QUICK_START_BYTES of input starts quick JVMs: its driver, and
    on a cluster its executors."""
    return input_bytes is not None and input_bytes < QUICK_START_BYTES


def session(master: str | None = None, driver_memory: str | None = None,
            log_level: str = "WARN", app: str = "kafka-admin-conformance-reports",
            executor_memory: str | None = None, conf: dict | None = None, input_bytes: int | None = None):
    """Get (or reuse) a SparkSession. ``master`` defaults to local[2]. ``input_bytes``: the
    size of what the session will read, when known (a small local job starts quicker JVMs).

    In local mode shuffles use 8 partitions (adaptive execution merges small ones);
    200, Spark's default, only adds task overhead on one machine; and input paths are
    listed by the driver, not by a Spark job."""
    from pyspark.sql import SparkSession

    level = log_level.upper()
    master = master or DEFAULT_MASTER
    quick = quick_start(master, input_bytes)
    if master.startswith("local"):  # no "hostname resolves to a loopback address" warning
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    b = (SparkSession.builder.master(master).appName(app)
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.session.timeZone", "UTC")
         # the report's one pass over the lines is a sort aggregation (its deciding-row struct
         # holds strings): generated code for it, as hash aggregations have by default
         .config("spark.sql.codegen.aggregate.sortAggregate.enabled", "true")
         # the one pass's plan has more fields than Spark prints by default: no warning for it
         .config("spark.sql.debug.maxToStringFields", "200")
         .config("spark.driver.extraJavaOptions",
                 f"-Dlog4j2.configurationFile=file:{_log4j_file(level)}"
                 + (f" {QUICK_START_JAVA_OPTIONS}" if quick else "")))
    if quick and not master.startswith("local"):
        b = b.config("spark.executor.extraJavaOptions", QUICK_START_JAVA_OPTIONS)
    if master.startswith("local"):
        b = b.config("spark.sql.shuffle.partitions", "8")
        # Spark lists more than 32 input paths with a distributed job (seconds on one
        # machine: the report names each run's results.jsonl and manifest.json, a thousand
        # runs are 2,000 paths); on a local file system the driver lists them in milliseconds.
        b = b.config("spark.sql.sources.parallelPartitionDiscovery.threshold", "1000000")
    if driver_memory:
        b = b.config("spark.driver.memory", driver_memory)
    if executor_memory:
        b = b.config("spark.executor.memory", executor_memory)
    for key, value in (conf or {}).items():
        b = b.config(key, value)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel(level)
    return spark


@contextlib.contextmanager
def using(spark=None, master: str | None = None, driver_memory: str | None = None,
          executor_memory: str | None = None, conf: dict | None = None, input_bytes: int | None = None):
    """The caller's session when given (left running), else a new one stopped on exit."""
    if spark is not None:
        yield spark
        return
    spark = session(master, driver_memory, executor_memory=executor_memory, conf=conf, input_bytes=input_bytes)
    try:
        yield spark
    finally:
        spark.stop()
