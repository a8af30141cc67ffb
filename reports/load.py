"""Find run folders and read their results.jsonl lines into a validated Spark DataFrame.

The lines are read once, by Spark's JSON reader with the explicit schema in PERMISSIVE
mode: a line that is not JSON or has a wrongly typed field is kept in the corrupt-record
column, so a malformed line is marked (never dropped, never a crash) in the same pass that
converts the fields. Line numbers and the detailed reason of each malformed line are
worked out afterwards by reading again, as text, only the files that hold one (none, in
a normal run), so no second pass over all the lines is paid and nothing goes through
Python.
"""
from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from . import row_schema
from .cli import ReportError
from .paths import HINT, MANIFEST, RESULTS


def discover(spark: SparkSession, results_dirs: list[str], runs: list[str]) -> tuple[list[str], list[str]]:
    """Qualified URIs of every results.jsonl and of the manifests beside them, through
    Hadoop's FileSystem (so any scheme Spark can read works)."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    Path = jvm.org.apache.hadoop.fs.Path

    def fs_of(p):
        try:
            return p.getFileSystem(conf)
        except Exception as e:  # py4j error: unknown scheme, unreachable namenode, ...
            raise ReportError(f"cannot open {p.toString()}: {str(e).splitlines()[0]}") from None

    def glob(fs, p, name):
        return {fs.makeQualified(h.getPath()).getParent().toString()
                for h in (fs.globStatus(Path(p, "*/" + name)) or [])}

    found: dict[str, bool] = {}  # run folder -> has a manifest
    for d in results_dirs:
        p = Path(d.rstrip("/"))
        fs = fs_of(p)
        if not fs.exists(p):
            raise ReportError(f"no such folder: {d} ({HINT})")
        with_results = glob(fs, p, RESULTS)
        if not with_results:
            raise ReportError(f"no run folders under {d}: expected {d}/<run_id>/{RESULTS} ({HINT})")
        with_manifest = glob(fs, p, MANIFEST)
        found.update((r, r in with_manifest) for r in sorted(with_results))
    for r in runs:
        p = Path(r.rstrip("/"))
        fs = fs_of(p)
        folder = p.getParent() if p.getName() == RESULTS else p
        if not fs.exists(Path(folder, RESULTS)):
            what = "no such run folder" if not fs.exists(folder) else f"not a run folder (no {RESULTS})"
            raise ReportError(f"{what}: {r} ({HINT})")
        folder = fs.makeQualified(folder)
        found[folder.toString()] = bool(fs.exists(Path(folder, MANIFEST)))
    return ([f"{r}/{RESULTS}" for r in found], [f"{r}/{MANIFEST}" for r, m in found.items() if m])


def delete(spark: SparkSession, uri: str) -> None:
    """Remove a folder (any Hadoop URI); missing is fine."""
    p = spark.sparkContext._jvm.org.apache.hadoop.fs.Path(uri)
    p.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).delete(p, True)


def decoded(col):
    """Spark's file_path is URI-encoded; give the plain path (``+`` is a literal there)."""
    return F.url_decode(F.regexp_replace(col, r"\+", "%2B"))


def shown(col):
    """A path as a person types it: ``file:`` dropped for local files."""
    return F.regexp_replace(col, r"^file:(//(?=/))?", "")


def _detailed_reason():
    """Why a line breaks the contract, over the columns of load._text_lines (the line as
    text, from_json of it as ``j.*``, the corrupt-record column). Only ever evaluated on
    the few lines the main pass found malformed."""
    value, corrupt, parsed = F.col("value"), F.col(row_schema.CORRUPT), F.col("_parsed")
    c = F.when(~parsed | (corrupt.isNotNull() & F.json_object_keys(value).isNull()),
               F.lit("not a JSON object (or a cut-off line)"))
    for name, kind, nullable in row_schema.FIELDS:
        f = F.col(name)
        if name not in row_schema.TIMESTAMPS:  # a text field: any value is its text, never the wrong type
            c = c.when(corrupt.isNotNull() & f.isNull() & F.get_json_object(value, f"$.{name}").isNotNull(),
                       F.lit(f"field {name} has the wrong type"))
        if kind == "object":
            c = c.when(f.isNotNull() & F.json_object_keys(f).isNull(), F.lit(f"field {name} has the wrong type"))
        if not nullable:
            c = c.when(f.isNull() & F.get_json_object(value, f"$.{name}").isNull(), F.lit(f"missing field {name}"))
    not_time = F.greatest(F.lit(False), *[F.col(n).isNull() & F.get_json_object(value, f"$.{n}").isNotNull()
                                          for n in row_schema.TIMESTAMPS])
    c = c.when(corrupt.isNotNull() & ~not_time, F.lit("a field has the wrong type"))
    c = c.when(~F.col("outcome").isin(*row_schema.OUTCOMES),
               F.concat(F.lit("outcome '"), F.col("outcome"), F.lit("' is not one of " + ", ".join(row_schema.OUTCOMES))))
    c = c.when(not_time, F.lit("started_at is not an ISO-8601 time"))
    c = c.when(F.col("row_id") < 1, F.lit("row_id is not positive"))
    return c


def _malformed():
    """True when a line read by read_rows breaks the contract: a cheap test of columns the
    reader already converted (the reader marks a line that is not JSON or has a wrongly
    typed field, started_at included, in the corrupt-record column)."""
    obj = [F.col(n) for n, kind, _ in row_schema.FIELDS if kind == "object"]
    return (F.col(row_schema.CORRUPT).isNotNull() | ~F.col("outcome").isin(*row_schema.OUTCOMES)
            | (F.col("row_id") < 1)
            | F.greatest(*[F.col(n).isNull() for n in row_schema.REQUIRED])
            | F.greatest(F.lit(False), *[f.isNotNull() & F.json_object_keys(f).isNull() for f in obj]))


def _no_glob(path: str) -> str:
    """Spark expands glob characters in paths; a folder name may hold them literally."""
    return "".join("\\" + ch if ch in "{}[]*?\\" else ch for ch in path)


def read_rows(spark: SparkSession, files: list[str]) -> DataFrame:
    """Every non-blank line, parsed once by Spark's JSON reader with the explicit schema:
    file, mid, the schema's fields (started_at as ``started_ts``, a timestamp), and ``bad``
    (the line breaks the contract; mid tells malformed lines apart). Blank lines are
    skipped by the reader, as they are by row_schema.check_line."""
    df = (spark.read.schema(row_schema.spark_schema()).option("mode", "PERMISSIVE")
          .option("columnNameOfCorruptRecord", row_schema.CORRUPT).json([_no_glob(f) for f in files]))
    fields = [F.col(n).alias("started_ts") if n == "started_at" else F.col(n)
              for n in row_schema.FIELD_NAMES + row_schema.SPARK_EXTRAS]
    return df.select(F.col("_metadata.file_path").alias("file"), F.monotonically_increasing_id().alias("mid"),
                     *fields, _malformed().alias("bad"))


def malformed(spark: SparkSession, files: list[str]) -> DataFrame:
    """file, line (1-based), reason, text (first 300 characters) of every malformed line of
    ``files``: only the files the main pass found malformed lines in are read again, as
    text, for the line numbers (blank lines count as lines) and the detailed reasons.

    A line's number = lines in the earlier splits of its file + its place in its split
    (monotonically_increasing_id is consecutive within a split)."""
    opts = {"mode": "PERMISSIVE", "columnNameOfCorruptRecord": row_schema.CORRUPT}
    lines = spark.read.text([_no_glob(f) for f in files]).select(
        "value", F.col("_metadata.file_path").alias("file"), F.col("_metadata.file_block_start").alias("block"),
        F.monotonically_increasing_id().alias("mid"))
    blocks = lines.groupBy("file", "block").agg(F.count("*").alias("n"), F.min("mid").alias("first"))
    before = Window.partitionBy("file").orderBy("block").rowsBetween(Window.unboundedPreceding, -1)
    blocks = blocks.select("file", "block", "first", F.coalesce(F.sum("n").over(before), F.lit(0)).alias("offset"))
    j = F.from_json("value", row_schema.spark_schema(), opts)  # the main pass's schema: the same verdicts
    parsed = lines.select("file", "block", "mid", "value", j.alias("j")).select(
        "file", "block", "mid", "value", F.col("j").isNotNull().alias("_parsed"), "j.*")
    # the malformed lines only (a few), materialised, so the detailed reason below is worked
    # out on them alone and the optimizer does not copy from_json into each of its branches
    bad = parsed.where((F.trim("value") != "") & (~F.col("_parsed") | _malformed())).localCheckpoint()
    return bad.join(F.broadcast(blocks), ["file", "block"]).select(
        "file", (F.col("offset") + F.col("mid") - F.col("first") + 1).alias("line"),
        _detailed_reason().alias("reason"), F.substring("value", 1, 300).alias("text"))


MANIFEST_SCHEMA = ("run_id string, started_at string, ended_at string, complete boolean, "
                   "suite_version string, hypothesis_profile string, seed long, rows long")


def manifests(spark: SparkSession, paths: list[str]) -> DataFrame:
    """run_dir (decoded URI) -> the manifest's fields (started_ts parsed).

    A manifest that does not parse gives nulls; the run then starts at its first row."""
    cols = [c.split()[0] for c in MANIFEST_SCHEMA.split(", ")]
    if not paths:
        return spark.createDataFrame([], "run_dir string, started_ts timestamp, " + MANIFEST_SCHEMA)
    df = (spark.read.schema(MANIFEST_SCHEMA).option("multiLine", True).option("mode", "PERMISSIVE")
          .json([_no_glob(p) for p in paths]))
    return df.select(
        F.regexp_replace(decoded(F.col("_metadata.file_path")), "/" + MANIFEST + "$", "").alias("run_dir"),
        F.col("started_at").try_cast("timestamp").alias("started_ts"), *cols)


COMPANION_SCHEMA = "brokers array<struct<spec: string, companion_of: string>>"


def companions(spark: SparkSession, paths: list[str]) -> DataFrame:
    """run_dir (decoded URI), spec, column: each broker a run's manifest names as the companion
    of another (fixtures/companions.py: ``kafka:4.4.0,preset=acl`` started for the checks that
    need it, ``companion_of`` its base), which answers in its base's column."""
    empty = "run_dir string, spec string, column string"
    if not paths:
        return spark.createDataFrame([], empty)
    df = (spark.read.schema(COMPANION_SCHEMA).option("multiLine", True).option("mode", "PERMISSIVE")
          .json([_no_glob(p) for p in paths]))
    run_dir = F.regexp_replace(decoded(F.col("_metadata.file_path")), "/" + MANIFEST + "$", "")
    return (df.select(run_dir.alias("run_dir"), F.explode_outer("brokers").alias("b"))
            .where(F.col("b.companion_of").isNotNull())
            .select("run_dir", F.col("b.spec").alias("spec"), F.col("b.companion_of").alias("column")))
