"""Synthetic run folders in the docs/results.md layout, for tests and the benchmark.

- ``write_run`` writes one run from explicit rows (tests pick every outcome);
- ``random_runs`` writes a few runs of plausible, seeded random rows (plain Python);
- ``spark_runs`` writes millions of rows with Spark itself (the benchmark).
"""
from __future__ import annotations

import datetime as dt
import json
import os
import random
import shutil

APIS = {19: ("CreateTopics", 7), 20: ("DeleteTopics", 6), 21: ("DeleteRecords", 2),
        32: ("DescribeConfigs", 4), 33: ("AlterConfigs", 2), 37: ("CreatePartitions", 3),
        44: ("IncrementalAlterConfigs", 1), 3: ("Metadata", 12), 18: ("ApiVersions", 4)}
PROPERTIES = ("P1", "P2", "P3", "P4", "P5", "P6", "V1", "V2", "D1", "C1")
SOURCES = {"P": "clients/src/main/resources/common/message/*.json", "V": "KIP-108",
           "D": "KIP-4", "C": "KIP-339"}
BUILDS = {"tansu": ("tansu", "0.6.0"), "noida": ("noida-db", "0.2.3"),
          "container:kafka": ("apache-kafka", "4.1.0")}
T0 = dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc)


def iso(t: dt.datetime) -> str:
    return t.astimezone(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def row(broker="tansu", property="P1", api_key=19, api_version=0, outcome="pass", **kw) -> dict:
    """A complete, valid row (row_id, run_id and started_at are set by write_run)."""
    impl, version = BUILDS.get(broker, (broker, None))
    r = {"row_id": None, "run_id": None, "started_at": None, "broker": broker,
         "broker_impl": impl, "broker_version": version, "property": property,
         "api_key": api_key, "api_name": APIS[api_key][0] if api_key in APIS else None,
         "api_version": api_version, "outcome": outcome, "examples": 10,
         "counterexample": None, "message": None, "source": SOURCES.get(property[0], "KIP-4"),
         "duration_s": 0.25, "seed": 1}
    if outcome == "fail":
        r["counterexample"] = {"steps": [{"api_key": api_key, "api_version": api_version,
                                          "request": {"topics": [{"name": f"t-{property}-{api_version}"}]}}]}
        r["message"] = f"{property}: expected error 0, got 37 at v{api_version}"
    elif outcome in ("unsupported", "error"):
        r["message"] = f"{outcome}: v{api_version} not advertised"
    r.update(kw)
    return r


def write_run(results_dir, run_id: str, rows: list[dict], start: dt.datetime | None = None,
              manifest: bool = True, complete: bool = True, extra_lines: dict[int, str] | None = None,
              companions: dict[str, str] | None = None) -> str:
    """Write RESULTS_DIR/run_id/{results.jsonl,manifest.json}; returns the run folder.
    ``companions``: spec -> the base the manifest says it is a companion of.

    Rows get row_id (their line number), run_id and started_at (start + i seconds) unless
    given. ``extra_lines`` {line_number: raw text} inserts malformed lines at those lines."""
    start = start or T0
    folder = os.path.join(str(results_dir), run_id)
    os.makedirs(folder, exist_ok=True)
    extra = dict(extra_lines or {})
    out, rows = [], list(rows)
    while rows or extra:
        n = len(out) + 1
        if n in extra:
            out.append(extra.pop(n))
            continue
        if not rows:  # extra lines past the last row
            out.append(extra.pop(min(extra)))
            continue
        r = dict(rows.pop(0))
        r["row_id"] = r["row_id"] or n
        r["run_id"] = r["run_id"] or run_id
        r["started_at"] = r["started_at"] or iso(start + dt.timedelta(seconds=n))
        out.append(json.dumps(r))
    with open(os.path.join(folder, "results.jsonl"), "w", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in out))
    if manifest:
        brokers = sorted({json.loads(x)["broker"] for x in out if _is_row(x)})
        m = {"run_id": run_id, "started_at": iso(start), "ended_at": iso(start + dt.timedelta(seconds=len(out) + 1)),
             "complete": complete, "suite_version": "0.1.0", "dependencies": {}, "hypothesis_profile": "ci",
             "seed": 1, "argv": ["pytest", "conformance"],
             "brokers": [{"spec": b, "impl": BUILDS.get(b, (b, None))[0], "version": BUILDS.get(b, (b, None))[1],
                          "api_versions": {}, "error": None,
                          **({"companion_of": companions[b], "for": b.rpartition(",")[2]}
                             if b in (companions or {}) else {})} for b in brokers], "rows": len(out)}
        with open(os.path.join(folder, "manifest.json"), "w", encoding="utf-8") as fh:
            json.dump(m, fh, indent=2)
    return folder


def _is_row(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict) and "broker" in json.loads(line)
    except ValueError:
        return False


def cells(apis=(19, 20, 37), properties=("P1", "P2", "V1")) -> list[tuple[int, int, str]]:
    return [(k, v, p) for k in apis for v in range(APIS[k][1] + 1) for p in properties]


def random_runs(results_dir, n_runs=4, brokers=("tansu", "noida"), seed=0, flip=0.1,
                apis=(19, 20, 37), properties=("P1", "P2", "V1")) -> list[str]:
    """n_runs runs an hour apart; each tests every broker on every cell, some cells twice.

    Every cell has a stable outcome per broker that flips to pass/fail with probability
    ``flip`` per run, so regressions, fixes and flaky cells all occur."""
    rnd = random.Random(seed)
    base = {(b, c): rnd.choices(["pass", "fail", "error", "unsupported", "skip"], [70, 12, 4, 10, 4])[0]
            for b in brokers for c in cells(apis, properties)}
    folders = []
    for i in range(n_runs):
        rows = []
        for (b, (k, v, p)), o in base.items():
            for _ in range(rnd.choice([1, 1, 1, 2])):
                out = o
                if o in ("pass", "fail") and rnd.random() < flip:
                    out = "fail" if o == "pass" else "pass"
                rows.append(row(b, p, k, v, out))
        rnd.shuffle(rows)
        start = T0 + dt.timedelta(hours=i)
        folders.append(write_run(results_dir, start.strftime("%Y%m%dT%H%M%SZ") + f"-{seed:02x}{i:04x}", rows,
                                 start=start))
    return folders


def spark_runs(spark, results_dir, n_rows: int, rows_per_run: int = 10_000,
               brokers=("tansu", "noida", "container:kafka"), seed: int = 7) -> list[str]:
    """Write ``n_rows`` rows as ceil(n_rows / rows_per_run) run folders, with Spark.

    Each run tests one broker; a cell's outcome is a hash of (broker, cell), flipped
    between pass and fail for 2% of rows, so every table has content."""
    from pyspark.sql import functions as F

    cs = cells(tuple(APIS), PROPERTIES)
    n_runs = -(-n_rows // rows_per_run)
    lit_arr = lambda xs: F.array(*[F.lit(x) for x in xs])  # noqa: E731
    staging = os.path.join(str(results_dir), "_staging")
    ids = spark.range(0, n_rows, 1, max(2, n_rows // 250_000))
    run = (F.col("id") / rows_per_run).cast("long")
    pos = F.col("id") % rows_per_run
    cell = (pos % len(cs)).cast("int") + 1
    broker_i = (run % len(brokers)).cast("int") + 1
    h = F.abs(F.xxhash64(F.lit(seed), broker_i, cell)) % 100
    flip = F.abs(F.xxhash64(F.lit(seed + 1), F.col("id"))) % 100 < 2
    base = (F.when(h < 75, "pass").when(h < 85, "fail").when(h < 88, "error")
            .when(h < 96, "unsupported").otherwise("skip"))
    outcome = (F.when(flip & (base == "pass"), "fail").when(flip & (base == "fail"), "pass")
               .otherwise(base))
    start = F.lit(T0.replace(tzinfo=None)).cast("timestamp") + F.make_interval(
        hours=run.cast("int"), secs=(pos / 10).cast("decimal(18,6)"))
    broker = F.element_at(lit_arr(brokers), broker_i)
    df = ids.select(
        F.concat(F.lit("run-"), F.lpad(run.cast("string"), 7, "0")).alias("run_dir"),
        (pos + 1).alias("row_id"), start.alias("ts"), broker.alias("broker"),
        F.element_at(lit_arr([BUILDS[b][0] for b in brokers]), broker_i).alias("broker_impl"),
        F.element_at(lit_arr([BUILDS[b][1] for b in brokers]), broker_i).alias("broker_version"),
        F.element_at(lit_arr([p for _, _, p in cs]), cell).alias("property"),
        F.element_at(lit_arr([k for k, _, _ in cs]), cell).alias("api_key"),
        F.element_at(lit_arr([APIS[k][0] for k, _, _ in cs]), cell).alias("api_name"),
        F.element_at(lit_arr([v for _, v, _ in cs]), cell).alias("api_version"),
        outcome.alias("outcome"))
    fail = F.col("outcome") == "fail"
    counterexample = F.when(fail, F.struct(F.array(F.struct(
        "api_key", "api_version", F.struct(F.array(F.struct(
            F.concat(F.lit("t-"), F.col("row_id").cast("string")).alias("name"))).alias("topics")).alias("request")
    )).alias("steps")))
    line = F.to_json(F.struct(
        "row_id", F.col("run_dir").alias("run_id"),
        F.date_format("ts", "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").alias("started_at"),
        "broker", "broker_impl", "broker_version", "property", "api_key", "api_name", "api_version", "outcome",
        F.lit(25).alias("examples"), counterexample.alias("counterexample"),
        F.when(fail, F.concat(F.lit("expected error 0, got 37 for row "), F.col("row_id").cast("string")))
        .alias("message"),
        F.lit("KIP-4").alias("source"), (F.col("row_id") % 100 / 100.0).alias("duration_s"),
        F.lit(seed).alias("seed")), {"ignoreNullFields": "false"})
    (df.select("run_dir", "row_id", line.alias("value")).sortWithinPartitions("run_dir", "row_id")
     .drop("row_id").write.mode("overwrite").partitionBy("run_dir").text(staging))
    folders = []
    for r in range(n_runs):
        run_id = f"run-{r:07d}"
        src = os.path.join(staging, f"run_dir={run_id}")
        dst = os.path.join(str(results_dir), run_id)
        os.makedirs(dst, exist_ok=True)
        parts = sorted(p for p in os.listdir(src) if p.startswith("part-"))
        if len(parts) == 1:
            os.replace(os.path.join(src, parts[0]), os.path.join(dst, "results.jsonl"))
        else:  # a run cut across two Spark partitions: its parts, in partition order
            with open(os.path.join(dst, "results.jsonl"), "wb") as out:
                for p in parts:
                    with open(os.path.join(src, p), "rb") as fh:
                        shutil.copyfileobj(fh, out)
        n = min(rows_per_run, n_rows - r * rows_per_run)
        with open(os.path.join(dst, "manifest.json"), "w", encoding="utf-8") as fh:
            json.dump({"run_id": run_id, "started_at": iso(T0 + dt.timedelta(hours=r)), "ended_at": None,
                       "complete": True, "suite_version": "0.1.0", "rows": n}, fh)
        folders.append(dst)
    shutil.rmtree(staging)
    return folders
