"""Find run folders and read their results.jsonl lines into a validated Spark DataFrame.

Lines are read as text and parsed with ``from_json`` against the explicit schema, so a
malformed line is kept (with a reason) instead of being dropped or crashing the job.
Line numbers come from each line's position inside its file split (the split sizes are a
tiny table joined back, computed in the same pass as the aggregation), so no whole table
ever goes to the driver and no second pass over the lines is needed.
"""
from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from . import schema
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


def _reason():
    """Why a parsed line breaks the contract (null when it does not), over the columns of
    the parsed line. A cheap test runs first; the detailed CASE only for bad lines."""
    value, corrupt, parsed = F.col("value"), F.col(schema.CORRUPT), F.col("_parsed")
    obj = [F.col(n) for n, kind, _ in schema.FIELDS if kind == "object"]
    bad = (~parsed | corrupt.isNotNull() | ~F.col("outcome").isin(*schema.OUTCOMES)
           | F.col("started_ts").isNull() | (F.col("row_id") < 1)
           | F.greatest(*[F.col(n).isNull() for n in schema.REQUIRED])
           | F.greatest(F.lit(False), *[f.isNotNull() & F.json_object_keys(f).isNull() for f in obj]))
    c = F.when(~parsed & (F.trim(value) == ""), F.lit("empty line"))
    c = c.when(~parsed | (corrupt.isNotNull() & F.json_object_keys(value).isNull()),
               F.lit("not a JSON object (or a cut-off line)"))
    for name, kind, nullable in schema.FIELDS:
        f = F.col(name)
        c = c.when(corrupt.isNotNull() & f.isNull() & F.get_json_object(value, f"$.{name}").isNotNull(),
                   F.lit(f"field {name} has the wrong type"))
        if kind == "object":
            c = c.when(f.isNotNull() & F.json_object_keys(f).isNull(), F.lit(f"field {name} has the wrong type"))
        if not nullable:
            c = c.when(f.isNull(), F.lit(f"missing field {name}"))
    c = c.when(corrupt.isNotNull(), F.lit("a field has the wrong type"))
    c = c.when(~F.col("outcome").isin(*schema.OUTCOMES),
               F.concat(F.lit("outcome '"), F.col("outcome"), F.lit("' is not one of " + ", ".join(schema.OUTCOMES))))
    c = c.when(F.col("started_ts").isNull(), F.lit("started_at is not an ISO-8601 time"))
    c = c.when(F.col("row_id") < 1, F.lit("row_id is not positive"))
    return F.when(bad, c)


def _no_glob(path: str) -> str:
    """Spark expands glob characters in paths; a folder name may hold them literally."""
    return "".join("\\" + ch if ch in "{}[]*?\\" else ch for ch in path)


def read_lines(spark: SparkSession, files: list[str]) -> DataFrame:
    """Every line, parsed: file, block, mid, the schema's fields, started_ts, reason, text.

    ``text`` (the raw line, cut to 300 characters) is kept for malformed lines only."""
    opts = {"mode": "PERMISSIVE", "columnNameOfCorruptRecord": schema.CORRUPT}
    raw = spark.read.text([_no_glob(f) for f in files]).select(
        "value",
        F.col("_metadata.file_path").alias("file"),
        F.col("_metadata.file_block_start").alias("block"),
        F.monotonically_increasing_id().alias("mid"))
    j = F.from_json("value", schema.spark_schema(), opts)
    parsed = raw.select("file", "block", "mid", "value", j.alias("j")).select(
        "file", "block", "mid", "value", F.col("j").isNotNull().alias("_parsed"), "j.*",
        F.col("j.started_at").try_cast("timestamp").alias("started_ts"))
    reason = _reason()
    return parsed.select(
        "file", "block", "mid", *schema.FIELD_NAMES, "started_ts", reason.alias("reason"),
        F.when(reason.isNotNull(), F.substring("value", 1, 300)).alias("text"))


def malformed(groups: DataFrame) -> DataFrame:
    """file, line (1-based), reason, text of every malformed line, from tables.line_groups.

    A line's number = lines in the earlier splits of its file + its place in its split
    (monotonically_increasing_id is consecutive within a split). The groups hold each
    split's line count and first mid, so this never touches the lines again."""
    blocks = groups.groupBy("file", "block").agg(F.sum("n").alias("n"), F.min("first").alias("first"))
    before = Window.partitionBy("file").orderBy("block").rowsBetween(Window.unboundedPreceding, -1)
    blocks = blocks.select("file", "block", "first",
                           F.coalesce(F.sum("n").over(before), F.lit(0)).alias("offset"))
    bad = groups.where(F.col("reason").isNotNull()).select("file", "block", "bad_mid", "reason", "text")
    return bad.join(F.broadcast(blocks), ["file", "block"]).select(
        "file", (F.col("offset") + F.col("bad_mid") - F.col("first") + 1).alias("line"), "reason", "text")


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
