"""The report tables as DataFrame transformations (no actions here; aggregate.py runs them).

A *cell* is (broker, api_key, api_version, property); a *build* is (broker, broker_impl,
broker_version). "Latest" orders rows by run start, then started_at, then row_id. A cell's
*state* in a run is what its rows say together (row_schema.cell_state): ``pass`` only when
every test of it was asked and passed, ``partial`` when some were not asked and the others
passed, else fail, error, unsupported or skip.
"""
from __future__ import annotations

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F

from .load import RESULTS, decoded, shown
from .row_schema import CELL_STATES, OUTCOMES, PASSING, SEVERITY

CELL = ["broker", "api_key", "api_version", "property"]
BUILD = ["broker_impl", "broker_version"]
COUNTS = [f"n_{o}" for o in OUTCOMES]
#: how many of a cell's latest runs ``run_states`` keeps (the dashboard's hover text)
RECENT_RUNS = 12
#: Cells per state (scores, history).
STATE_COUNTS = [f"n_{s}" for s in CELL_STATES]


def _count(outcome: str, col: str = "outcome") -> Column:
    return F.sum(F.when(F.col(col) == outcome, 1).otherwise(0)).alias(f"n_{outcome}")


def _sums() -> list[Column]:
    return [F.sum(c).alias(c) for c in COUNTS]


def shell_quote(c: Column) -> Column:
    """POSIX shell quoting, like shlex.quote, as a Column expression."""
    safe = c.rlike(r"^[A-Za-z0-9_./:@%+=,-]+$")
    return F.when(safe, c).otherwise(F.concat(F.lit("'"), F.regexp_replace(c, "'", "'\"'\"'"), F.lit("'")))


def replay(broker: Column, results: Column, row_id: Column) -> Column:
    return F.concat(F.lit("tox -e conformance -- --broker "), shell_quote(broker), F.lit(" --replay "),
                    shell_quote(F.concat(results, F.lit(":"), row_id.cast("string"))))


def state() -> Column:
    """row_schema.cell_state as a Column over the outcome counts ``n_pass`` ... ``n_skip``."""
    n = {o: F.col(f"n_{o}") for o in OUTCOMES}
    return (F.when(n["fail"] > 0, "fail").when(n["error"] > 0, "error")
            .when(n["pass"] > 0, F.when(n["unsupported"] + n["skip"] > 0, "partial").otherwise("pass"))
            .when(n["unsupported"] > 0, "unsupported").otherwise("skip"))


def line_groups(rows: DataFrame) -> DataFrame:
    """The one aggregation over every parsed line (load.read_rows); everything else reads
    its output, which is small: one row per (file, cell, build) of valid lines (a cell's
    verdict in one run), and one row per malformed line (``bad_mid`` set, else null).

    Each group keeps what the later tables need: line count, outcome counts, ``state`` (the
    cell's state in the run), ``last`` (the row explaining it: the most severe
    (row_schema.SEVERITY), the latest among equals), the first started_ts and the largest
    run_id (runs)."""
    ok = ~F.col("bad")
    last = F.when(ok, F.struct(_severity(F.col("outcome")).alias("severity"), "started_ts", "row_id", "outcome",
                                "message", "counterexample", "source", "check"))
    # a malformed line is its own group (bad_mid is unique), whatever its cell columns hold
    return rows.groupBy("file", F.when(~ok, F.col("mid")).alias("bad_mid"), *CELL, *BUILD).agg(
        F.count("*").alias("n"), F.max(F.when(ok, F.col("api_name"))).alias("api_name"),
        *[_count(o) for o in OUTCOMES], F.max(last).alias("last"),
        F.min(F.when(ok, F.col("started_ts"))).alias("first_ts"), F.max(F.when(ok, F.col("run_id"))).alias("run_id")
    ).withColumn("state", F.when(F.col("bad_mid").isNull(), state()))


def with_columns(groups: DataFrame, companions: DataFrame) -> DataFrame:
    """line_groups' output with ``column``: the broker a release manager decides about, the
    base a companion was started for (load.companions), else the row's broker itself. The
    tables stay per broker spec (a cell's latest state, its changes, its replay command are
    those of the configuration that answered) and carry the column; ``columns`` rolls them up."""
    c = companions.select(F.col("run_dir").alias("_rd"), F.col("spec").alias("_spec"), F.col("column").alias("_col"))
    g = groups.withColumn("_rd", F.regexp_replace(decoded(F.col("file")), "/" + RESULTS + "$", ""))
    joined = g.join(F.broadcast(c), (g["_rd"] == c["_rd"]) & (g["broker"] == c["_spec"]), "left")
    return joined.select(*[g[x] for x in groups.columns], F.coalesce(c["_col"], g["broker"]).alias("column"))


def runs(files: DataFrame, groups: DataFrame, manifests: DataFrame) -> DataFrame:
    """One row per run folder: where, when it started, how many lines, rows, malformed.

    ``files`` has one column ``results`` (decoded URIs of the results.jsonl files);
    ``groups`` is line_groups' output. A run starts at its manifest's started_at, else at
    its first row's."""
    ok = F.col("bad_mid").isNull()
    stats = groups.groupBy("file").agg(
        F.sum("n").alias("lines"), F.count("bad_mid").alias("malformed"),
        F.min(F.when(ok, F.col("first_ts"))).alias("first_row_ts"),
        F.max(F.when(ok, F.col("run_id"))).alias("row_run_id"),
        F.array_sort(F.collect_set(F.when(ok, F.col("broker")))).alias("brokers"),
    ).withColumn("results", decoded(F.col("file")))
    m = manifests.select("run_dir", F.col("started_ts").alias("m_started"), F.col("run_id").alias("m_run_id"),
                         "ended_at", "complete", "suite_version", "hypothesis_profile", "seed")
    folder = F.regexp_replace("results", "/" + RESULTS + "$", "")
    return (files.join(stats, "results", "left").withColumn("run_dir", folder).join(m, "run_dir", "left")
            .select("file", shown(F.col("results")).alias("results"), shown(F.col("run_dir")).alias("run_dir"),
                    F.coalesce("row_run_id", "m_run_id", F.regexp_extract("run_dir", "([^/]*)$", 1)).alias("run_id"),
                    F.coalesce("m_started", "first_row_ts").alias("run_start"),
                    "complete", "ended_at", "suite_version", "hypothesis_profile", "seed",
                    F.coalesce("lines", F.lit(0)).alias("lines"),
                    (F.coalesce("lines", F.lit(0)) - F.coalesce("malformed", F.lit(0))).alias("rows"),
                    F.coalesce("malformed", F.lit(0)).alias("malformed"),
                    F.coalesce("brokers", F.array().cast("array<string>")).alias("brokers")))


def _severity(c: Column) -> Column:
    return F.coalesce(*[F.when(c == o, F.lit(i)) for i, o in enumerate(SEVERITY)])


def run_cells(groups: DataFrame, runs_df: DataFrame) -> DataFrame:
    """One row per (run, build, cell): outcome counts and ``last``, the row that decides
    the cell in that run (line_groups' valid groups, with the run's id and start).

    A run tests one build of a broker, so counting these rows counts runs."""
    return groups.where(F.col("bad_mid").isNull()).drop("bad_mid", "run_id", "first_ts").join(
        runs_df.select("file", "run_id", "run_start"), "file")


def _last_runs(entries: Column) -> Column:
    """A cell's states in its latest runs: its entries ``"<run start> <run id>: <state>"`` (text that sorts by
    time) oldest first, the latest RECENT_RUNS of them."""
    ordered = F.array_sort(entries)
    return F.slice(ordered, F.greatest(F.size(ordered) - (RECENT_RUNS - 1), F.lit(1)), F.lit(RECENT_RUNS))


def matrix(cells: DataFrame) -> DataFrame:
    """broker x api x version x property -> row outcome counts, latest outcome (the cell's
    state in the latest run, with its tests and how many were asked, and the row explaining
    it), first failing run."""
    latest = F.struct("run_start", "run_id", F.col("last.started_ts").alias("started_ts"),
                      F.col("last.row_id").alias("row_id"), F.col("state").alias("outcome"),
                      F.col("last.message").alias("message"), F.col("last.counterexample").alias("counterexample"),
                      F.col("last.source").alias("source"), F.col("last.check").alias("check"), "file", "column", *BUILD, F.col("n").alias("tests"),
                      (F.col("n_pass") + F.col("n_fail")).alias("asked"))
    first_fail = F.when(F.col("n_fail") > 0, F.struct("run_start", "run_id"))
    # last change: the latest run whose state differs from the cell's previous run's
    by_run = Window.partitionBy(*CELL).orderBy("run_start", "run_id", "file")
    prev = F.lag("state").over(by_run)
    cells = cells.withColumn("_prev", prev)
    change = F.when(F.col("_prev").isNotNull() & (F.col("_prev") != F.col("state")),
                    F.struct("run_start", "run_id", F.col("_prev").alias("from_outcome")))
    m = cells.groupBy(*CELL).agg(
        F.max("api_name").alias("api_name"), F.sum("n").alias("rows"), *_sums(),
        F.count("*").alias("runs"), F.max(latest).alias("l"), F.min(first_fail).alias("ff"),
        F.max(change).alias("lc"),
        _last_runs(F.collect_list(F.concat(F.date_format("run_start", "yyyy-MM-dd HH:mm:ss"), F.lit(" "),
                                           "run_id", F.lit(": "), "state"))).alias("run_states"))
    return m.select(
        *CELL, "api_name", "rows", *COUNTS, "runs",
        F.col("l.outcome").alias("latest_outcome"), F.col("l.tests").alias("latest_tests"),
        F.col("l.asked").alias("latest_asked"), F.col("l.run_id").alias("latest_run_id"),
        F.col("l.run_start").alias("latest_run_start"), F.col("l.started_ts").alias("latest_started_at"),
        F.col("l.row_id").alias("latest_row_id"), F.col("l.message").alias("latest_message"),
        F.col("l.counterexample").alias("latest_counterexample"), F.col("l.source").alias("latest_source"),
        F.col("l.check").alias("latest_check"), F.col("l.column").alias("column"),
        shown(decoded(F.col("l.file"))).alias("latest_results"),
        F.col("l.broker_impl").alias("latest_broker_impl"), F.col("l.broker_version").alias("latest_broker_version"),
        F.col("ff.run_id").alias("first_fail_run_id"), F.col("ff.run_start").alias("first_fail_run_start"),
        F.col("lc.run_id").alias("last_change_run_id"), F.col("lc.run_start").alias("last_change_run_start"),
        F.col("lc.from_outcome").alias("last_change_from"), "run_states")


APPLICABLE = PASSING + ("fail",)


def _passing(c: Column) -> Column:
    return F.sum(F.when(c.isin(*PASSING), 1).otherwise(0)).alias("passing")


def history(cells: DataFrame) -> DataFrame:
    """Per broker and run: the run's score (its cells' states in that run, scored as the
    latest states are: pass-or-partial / pass-partial-or-fail), with the build the run tested."""
    o = F.col("state")
    h = cells.groupBy("broker", "file", "run_id", "run_start").agg(
        F.max("broker_impl").alias("broker_impl"), F.max("broker_version").alias("broker_version"),
        F.max("column").alias("column"),
        F.count("*").alias("cells"), F.sum(F.when(o.isin(*APPLICABLE), 1).otherwise(0)).alias("applicable"),
        _passing(o), *[_count(x, "state") for x in CELL_STATES])
    return h.select("broker", "column", "run_id", "run_start", "broker_impl", "broker_version", "cells", "applicable",
                    "passing", *STATE_COUNTS,
                    F.when(F.col("applicable") > 0, F.col("passing") / F.col("applicable")).alias("score"),
                    shown(decoded(F.col("file"))).alias("results"))


def family_history(cells: DataFrame) -> DataFrame:
    """Per broker, run and family of properties (the letters of a property id): the family's
    score in that run, counted as ``history`` counts a run's."""
    o = F.col("state")
    fam = F.regexp_extract("property", r"^([A-Za-z]+)", 1)
    h = cells.withColumn("family", F.when(fam == "", F.col("property")).otherwise(fam)).groupBy(
        "broker", "file", "run_id", "run_start", "family").agg(
        F.max("column").alias("column"), F.count("*").alias("cells"),
        F.sum(F.when(o.isin(*APPLICABLE), 1).otherwise(0)).alias("applicable"), _passing(o))
    return h.select("broker", "column", "run_id", "run_start", "family", "cells", "applicable", "passing",
                    F.when(F.col("applicable") > 0, F.col("passing") / F.col("applicable")).alias("score"))


def failures(m: DataFrame) -> DataFrame:
    """Cells whose latest outcome is fail, with that row's counterexample and replay command."""
    return m.where(F.col("latest_outcome") == "fail").select(
        *CELL, "api_name", F.col("latest_run_id").alias("run_id"), F.col("latest_run_start").alias("run_start"),
        F.col("latest_started_at").alias("started_at"), F.col("latest_counterexample").alias("counterexample"),
        F.col("latest_message").alias("message"), F.col("latest_source").alias("source"),
        F.col("latest_check").alias("check"), "column",
        F.col("latest_results").alias("results"), F.col("latest_row_id").alias("row_id"),
        replay(F.col("broker"), F.col("latest_results"), F.col("latest_row_id")).alias("replay"),
        "first_fail_run_id", "n_pass", "n_fail",
        F.col("latest_broker_impl").alias("broker_impl"), F.col("latest_broker_version").alias("broker_version"))


def scores(m: DataFrame) -> DataFrame:
    """Per broker, per API and overall: share of applicable cells whose asked tests all passed.

    Applicable = the cell's latest state is pass, partial or fail; passing = pass or
    partial (every test asked passed; ``n_partial`` says how many cells had tests not
    asked). Error, unsupported and skip cells are counted but left out of the score."""
    o = F.col("latest_outcome")
    aggs = [F.count("*").alias("cells"),
            F.sum(F.when(o.isin(*APPLICABLE), 1).otherwise(0)).alias("applicable"),
            _passing(o), *[_count(x, "latest_outcome") for x in CELL_STATES]]

    def finish(df: DataFrame, scope: str) -> DataFrame:
        return df.select("broker", F.lit(scope).alias("scope"), "api_key", "api_name", "cells", "applicable",
                         "passing", *STATE_COUNTS,
                         F.when(F.col("applicable") > 0, F.col("passing") / F.col("applicable")).alias("score"))

    per_api = m.groupBy("broker", "api_key").agg(F.max("api_name").alias("api_name"), *aggs)
    overall = m.groupBy("broker").agg(*aggs).select(
        "*", F.lit(None).cast("long").alias("api_key"), F.lit(None).cast("string").alias("api_name"))
    return finish(per_api, "api").unionByName(finish(overall, "overall"))


def changes(cells: DataFrame, runs_df: DataFrame) -> DataFrame:
    """Regressions (pass or partial -> fail) and fixes (fail -> pass or partial) between
    consecutive runs of a broker.

    Consecutive = adjacent in the broker's runs ordered by run start; a cell compares its
    outcome in run N-1 with its outcome in run N (both runs must have it). Each cell's runs
    are read in order once (a window), not joined with themselves; the broker's runs are
    numbered from the runs table (one row per run folder, listing its brokers)."""
    per_run = cells.groupBy("broker", "file", "run_id", "run_start", "api_key", "api_version", "property").agg(
        F.max("api_name").alias("api_name"), F.max("last").alias("last"), F.max("state").alias("state"),
        F.max("column").alias("column"))
    order = Window.partitionBy("broker").orderBy("run_start", "run_id", "file")
    seq = (runs_df.select(F.explode("brokers").alias("broker"), "file", "run_id", "run_start")
           .select("broker", "file", F.row_number().over(order).alias("seq")))
    by_cell = Window.partitionBy("broker", "api_key", "api_version", "property").orderBy("seq")
    prev = lambda c: F.lag(c).over(by_cell)  # noqa: E731
    runs = per_run.join(F.broadcast(seq), ["broker", "file"]).select(
        "*", prev("seq").alias("p_seq"), prev("state").alias("was"), prev("run_id").alias("from_run_id"),
        prev("run_start").alias("from_run_start"))
    was, now = F.col("was"), F.col("state")
    flips = runs.where((F.col("p_seq") == F.col("seq") - 1)
                       & ((was.isin(*PASSING) & (now == "fail")) | ((was == "fail") & now.isin(*PASSING))))
    results = shown(decoded(F.col("file")))
    return flips.select(
        F.when(now == "fail", "regression").otherwise("fix").alias("kind"),
        "broker", "column", "api_key", "api_name", "api_version", "property", "from_run_id", "from_run_start",
        F.col("run_id").alias("to_run_id"), F.col("run_start").alias("to_run_start"),
        was.alias("from_outcome"), now.alias("to_outcome"), F.col("last.message").alias("message"),
        results.alias("results"), F.col("last.row_id").alias("row_id"),
        F.when(now == "fail", replay(F.col("broker"), results, F.col("last.row_id"))).alias("replay"))


def flaky(cells: DataFrame) -> DataFrame:
    """Cells that passed (pass or partial) in one run and failed in another of the same
    broker build (broker, impl, version). Several checks of one cell disagreeing within a
    run is not flakiness: that run's state is fail (run_cells)."""
    st = F.col("state")
    when_run = lambda c: F.max(F.when(c, F.struct("run_start", "run_id")))  # noqa: E731
    f = cells.groupBy("broker", *BUILD, "api_key", "api_version", "property").agg(
        F.max("api_name").alias("api_name"), F.max("column").alias("column"), F.sum("n").alias("rows"), *_sums(),
        F.count("*").alias("runs"), F.sum(F.when(st.isin(*PASSING), 1).otherwise(0)).alias("runs_pass"),
        _count("fail", "state").alias("runs_fail"),
        when_run(st.isin(*PASSING)).alias("lp"), when_run(st == "fail").alias("lf"))
    return f.where((F.col("runs_pass") > 0) & (F.col("runs_fail") > 0)).select(
        "broker", "column", *BUILD, "api_key", "api_name", "api_version", "property", "rows", *COUNTS, "runs",
        "runs_pass", "runs_fail",
        F.col("lp.run_id").alias("last_pass_run_id"), F.col("lf.run_id").alias("last_fail_run_id"))


#: a cell state's weight when the parts of a column are rolled up: the worst part explains the cell
STATE_SEVERITY = ("pass", "skip", "unsupported", "partial", "error", "fail")


def columns(m: DataFrame) -> DataFrame:
    """The matrix rolled up to columns (with_columns): one row per (column, api, version,
    property), ``broker`` the column. Its parts are the specs that asked the cell (a Kafka
    release's own checks and its companions': P5 of DeleteTopics is asked on the base, on
    ``preset=nodelete`` and on ``preset=quota``); its state is what their latest states say
    together, as a cell's rows do (row_schema.cell_state: a failing part fails it, a part not
    asked beside a passing one makes it partial), and the worst part, the latest among equals,
    explains it (message, run, row). Where every column has one part, the rows equal the
    matrix's."""
    st = F.col("latest_outcome")
    weight = F.coalesce(*[F.when(st == s, F.lit(i)) for i, s in enumerate(STATE_SEVERITY)])
    worst = F.struct(weight.alias("w"), "latest_run_start", "latest_run_id", "latest_started_at", "latest_row_id",
                     "latest_message", "latest_counterexample", "latest_source", "latest_results",
                     "latest_broker_impl", "latest_broker_version", "latest_check")
    change = F.when(F.col("last_change_run_id").isNotNull(),
                    F.struct("last_change_run_start", "last_change_run_id", "last_change_from"))
    said = {"pass": st.isin(*PASSING), "fail": st == "fail", "error": st == "error",
            "unsupported": st.isin("partial", "unsupported"), "skip": st == "skip"}
    c = m.groupBy("column", "api_key", "api_version", "property").agg(
        F.max("api_name").alias("api_name"), F.sum("rows").alias("rows"), *_sums(), F.sum("runs").alias("runs"),
        *[F.sum(F.when(cond, 1).otherwise(0)).alias(f"s_{o}") for o, cond in said.items()],
        F.max(worst).alias("l"), F.sum("latest_tests").alias("latest_tests"), F.sum("latest_asked").alias("latest_asked"),
        F.min(F.when(F.col("first_fail_run_id").isNotNull(),
                     F.struct("first_fail_run_start", "first_fail_run_id"))).alias("ff"),
        F.max(change).alias("lc"),
        F.array_sort(F.collect_list(F.concat_ws(": ", "broker", st))).alias("parts"),
        _last_runs(F.flatten(F.collect_list("run_states"))).alias("run_states"))
    n = {o: F.col(f"s_{o}") for o in OUTCOMES}
    state_ = (F.when(n["fail"] > 0, "fail").when(n["error"] > 0, "error")
              .when(n["pass"] > 0, F.when(n["unsupported"] + n["skip"] > 0, "partial").otherwise("pass"))
              .when(n["unsupported"] > 0, "unsupported").otherwise("skip"))
    return c.select(
        F.col("column").alias("broker"), "api_key", "api_version", "property", "api_name", "rows", *COUNTS, "runs",
        state_.alias("latest_outcome"), "latest_tests", "latest_asked",
        *[F.col(f"l.{x}").alias(x) for x in ("latest_run_id", "latest_run_start", "latest_started_at",
                                             "latest_row_id", "latest_message", "latest_counterexample",
                                             "latest_source", "latest_results", "latest_broker_impl",
                                             "latest_broker_version", "latest_check")],
        F.col("ff.first_fail_run_id").alias("first_fail_run_id"),
        F.col("ff.first_fail_run_start").alias("first_fail_run_start"),
        F.col("lc.last_change_run_id").alias("last_change_run_id"),
        F.col("lc.last_change_run_start").alias("last_change_run_start"),
        F.col("lc.last_change_from").alias("last_change_from"), "parts", "run_states")
