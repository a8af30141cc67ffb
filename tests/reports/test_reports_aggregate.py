"""The Spark tables against a plain-Python recomputation from the jsonl rows, plus the
hand-made "crafted" runs whose regressions, fixes, flaky cells and scores are known."""
from __future__ import annotations

import json
import os
import shlex
from collections import defaultdict
from datetime import timezone

import pytest

from reports_scenario import BLANK, CRAFTED, MALFORMED, PARTIAL
from reports import row_schema, tables

OUTCOMES = row_schema.OUTCOMES


def _runs(results_dir):
    """[(run_start, run_id, results path, [valid rows], [(line, reason)])] from the files."""
    out = []
    for name in sorted(os.listdir(results_dir)):
        path = os.path.join(results_dir, name, "results.jsonl")
        rows, bad = [], []
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                r, reason = row_schema.check_line(line)
                if reason:
                    bad.append((n, reason))
                elif r is not None:  # None: a blank line
                    rows.append(r)
        start = None
        mpath = os.path.join(results_dir, name, "manifest.json")
        if os.path.exists(mpath):
            with open(mpath) as fh:
                start = row_schema.parse_time(json.load(fh)["started_at"])
        start = start or min(row_schema.parse_time(r["started_at"]) for r in rows)
        out.append((start, rows[0]["run_id"], path, rows, bad))
    return out


def _cell(r):
    return (r["broker"], r["api_key"], r["api_version"], r["property"])


def _state(outcomes: list[str]) -> str:
    """A cell's state from its rows' outcomes, written out here apart from row_schema:
    any fail; else any error; else pass when every row passed, partial when some passed and
    the others were not asked; else unsupported or skip."""
    seen = set(outcomes)
    for o in ("fail", "error"):
        if o in seen:
            return o
    if "pass" in seen:
        return "pass" if seen == {"pass"} else "partial"
    return "unsupported" if "unsupported" in seen else "skip"


PASSING = ("pass", "partial")


@pytest.fixture(scope="module")
def py(results_dir):
    """The matrix, changes and flaky cells recomputed in plain Python.

    Within a run a cell's state is what its rows say together (:func:`_state`); the most
    severe row explains it (fail > error > unsupported > skip > pass, the latest among
    equals); the latest run's state is the cell's latest outcome."""
    runs = _runs(results_dir)
    matrix = defaultdict(lambda: {"rows": 0, **{f"n_{o}": 0 for o in OUTCOMES}, "builds": set(),
                                  "latest": None, "first_fail": None})
    per_run = defaultdict(dict)  # (broker, run order) -> cell -> [rank, the row explaining it, outcomes]
    rank = {"pass": 0, "skip": 1, "unsupported": 2, "error": 3, "fail": 4}
    for start, run_id, path, rows, _ in runs:
        for r in rows:
            m = matrix[_cell(r)]
            m["rows"] += 1
            m[f"n_{r['outcome']}"] += 1
            m["builds"].add((path, r["broker_impl"], r["broker_version"]))
            if r["outcome"] == "fail" and (m["first_fail"] is None or (start, run_id) < m["first_fail"]):
                m["first_fail"] = (start, run_id)
            pr = per_run[(r["broker"], (start, run_id, path))]
            decides = (rank[r["outcome"]], row_schema.parse_time(r["started_at"]), r["row_id"])
            if _cell(r) not in pr:
                pr[_cell(r)] = [decides, r, []]
            elif decides > pr[_cell(r)][0]:
                pr[_cell(r)][:2] = [decides, r]
            pr[_cell(r)][2].append(r["outcome"])
    for cells in per_run.values():      # -> (rank, row, state, outcomes)
        for cell, (d, r, outcomes) in list(cells.items()):
            cells[cell] = (d, r, _state(outcomes), outcomes)
    flaky = defaultdict(set)  # cell and build -> the states of its runs
    for (broker, (start, run_id, path)), cells in per_run.items():
        for cell, (_, r, state, outcomes) in cells.items():
            m = matrix[cell]
            if m["latest"] is None or (start, run_id) > m["latest"][0]:
                m["latest"] = ((start, run_id), r, path, state, outcomes)
            flaky[(broker, r["broker_impl"], r["broker_version"], *cell[1:])].add(
                "pass" if state in PASSING else state)
    changes = set()
    for broker in {b for b, _ in per_run}:
        seq = sorted(o for b, o in per_run if b == broker)
        for prev, cur in zip(seq, seq[1:]):
            p, c = per_run[(broker, prev)], per_run[(broker, cur)]
            for cell in set(p) & set(c):
                was, now = p[cell][2], c[cell][2]
                if (was in PASSING and now == "fail") or (was == "fail" and now in PASSING):
                    changes.add(("regression" if now == "fail" else "fix", *cell, prev[1], cur[1]))
    flaky_keys = {k for k, v in flaky.items() if {"pass", "fail"} <= v}
    return {"runs": runs, "matrix": dict(matrix), "changes": changes, "flaky": flaky_keys, "per_run": per_run}


def _key(r):
    return (r["broker"], r["api_key"], r["api_version"], r["property"])


def test_matrix_equals_python_recomputation(report, py):
    spark_m = {_key(r): r for r in report["tables"]["matrix"]}
    assert set(spark_m) == set(py["matrix"])
    for cell, want in py["matrix"].items():
        got = spark_m[cell]
        assert got["rows"] == want["rows"], cell
        assert {o: got[f"n_{o}"] for o in OUTCOMES} == {o: want[f"n_{o}"] for o in OUTCOMES}, cell
        assert got["runs"] == len(want["builds"]), cell
        _, latest, path, state, outcomes = want["latest"]
        assert got["latest_outcome"] == state, cell
        assert (got["latest_tests"], got["latest_asked"]) == (len(outcomes), outcomes.count("pass")
                                                              + outcomes.count("fail")), cell
        assert (got["latest_run_id"], got["latest_row_id"]) == (latest["run_id"], latest["row_id"]), cell
        assert got["latest_results"] == path, cell
        assert got["latest_message"] == latest["message"] and got["latest_source"] == latest["source"]
        assert (json.loads(got["latest_counterexample"]) if got["latest_counterexample"] else None) \
            == latest["counterexample"], cell
        assert got["first_fail_run_id"] == (want["first_fail"][1] if want["first_fail"] else None), cell


def test_malformed_lines_counted_with_file_and_line(report, py, results_dir):
    path = os.path.join(results_dir, "aa-b", "results.jsonl")
    got = {(m["file"], m["line"]): m["reason"] for m in report["tables"]["malformed"]}
    want = {(path, n): reason for n, (_, reason) in MALFORMED.items()}
    last = sum(1 for _ in open(path, encoding="utf-8"))  # the cut-off line is the file's last
    want[(path, last)] = "not a JSON object (or a cut-off line)"
    assert got == want
    # the plain-Python reader (the gate's) gives the same lines and reasons
    assert {(p, n): reason for _, _, p, _, bad in py["runs"] for n, reason in bad} == want
    run_b = next(r for r in report["tables"]["runs"] if r["run_id"] == "aa-b")
    # "lines" counts the non-blank ones
    assert run_b["malformed"] == len(want) and run_b["lines"] == last - len(BLANK)
    assert run_b["rows"] == last - len(BLANK) - len(want)
    texts = {m["line"]: m["text"] for m in report["tables"]["malformed"]}
    assert texts[last] == PARTIAL and texts[3] == "not json at all"


def test_runs_start_from_manifest_or_first_row(report):
    runs = {r["run_id"]: r for r in report["tables"]["runs"]}
    assert len(runs) == 7
    assert runs["zz-a"]["run_start"] < runs["aa-b"]["run_start"] < runs["mm-c"]["run_start"]
    assert runs["mm-c"]["complete"] is None and runs["zz-a"]["complete"] is True  # mm-c has no manifest
    assert runs["aa-b"]["brokers"] == [CRAFTED]


def test_scores_are_share_of_applicable_cells_passing(report):
    scores = {(s["broker"], s["scope"], s["api_key"]): s for s in report["tables"]["scores"]}
    # crafted, latest: CreateTopics P1v0 fail, P1v1 pass, P2v0 fail, T1v0 fail (pass, fail,
    # pass in one run), V1v0 unsupported, P5v0 partial (one test not asked); IncrementalAlterConfigs
    # C1 v0, v1 pass; whole-broker S1 pass.
    ct = scores[(CRAFTED, "api", 19)]
    assert (ct["cells"], ct["applicable"], ct["passing"], ct["n_unsupported"], ct["n_partial"], ct["n_pass"]) \
        == (6, 5, 2, 1, 1, 1)
    assert ct["score"] == pytest.approx(2 / 5)
    assert scores[(CRAFTED, "api", 44)]["score"] == 1.0
    assert scores[(CRAFTED, "api", None)]["score"] == 1.0
    overall = scores[(CRAFTED, "overall", None)]
    assert (overall["cells"], overall["applicable"], overall["passing"]) == (9, 8, 5)
    # every broker: recompute from the matrix's latest outcomes
    for (broker, scope, api), s in scores.items():
        cells = [m for m in report["tables"]["matrix"] if m["broker"] == broker
                 and (scope == "overall" or m["api_key"] == api)]
        app = [m for m in cells if m["latest_outcome"] in ("pass", "partial", "fail")]
        passing = sum(m["latest_outcome"] in PASSING for m in app)
        assert (s["cells"], s["applicable"], s["passing"]) == (len(cells), len(app), passing)
        assert s["score"] == (pytest.approx(passing / len(app)) if app else None)


def test_regressions_and_fixes_between_consecutive_runs(report, py):
    got = {(c["kind"], c["broker"], c["api_key"], c["api_version"], c["property"], c["from_run_id"],
            c["to_run_id"]) for c in report["tables"]["changes"]}
    assert got == py["changes"]
    crafted = {g for g in got if g[1] == CRAFTED}
    # aa-b has P1 v1 fail then pass: one failing check fails the cell, so no fix from zz-a
    # (fail) to aa-b, and a fix from aa-b to mm-c (pass)
    assert crafted == {("regression", CRAFTED, 19, 0, "P1", "zz-a", "aa-b"),
                       ("fix", CRAFTED, 19, 1, "P1", "aa-b", "mm-c"),
                       ("regression", CRAFTED, 19, 0, "P2", "aa-b", "mm-c")}
    reg = next(c for c in report["tables"]["changes"] if c["kind"] == "regression" and c["to_run_id"] == "mm-c")
    assert reg["replay"].startswith(f"tox -e conformance -- --broker {CRAFTED} --replay ")


def test_flaky_cells_share_a_broker_build(report, py):
    got = {(f["broker"], f["broker_impl"], f["broker_version"], f["api_key"], f["api_version"], f["property"])
           for f in report["tables"]["flaky"]}
    assert got == py["flaky"]
    # P2 v0 passed under 1.0 and failed under 2.0: a regression, not flaky; P1 v1 failed in
    # both 1.0 runs (in aa-b one check failed, another passed): failing, not flaky
    assert {g for g in got if g[0] == CRAFTED} == {(CRAFTED, "craft", "1.0", 19, 0, "P1")}
    p1 = next(f for f in report["tables"]["flaky"] if f["broker"] == CRAFTED)
    assert (p1["runs"], p1["runs_pass"], p1["runs_fail"]) == (2, 1, 1)


def test_failures_carry_counterexample_and_replay(report):
    failures = report["tables"]["failures"]
    assert {_key(f) for f in failures} == {_key(m) for m in report["tables"]["matrix"]
                                           if m["latest_outcome"] == "fail"}
    for f in failures:
        words = shlex.split(f["replay"])
        assert words[:6] == ["tox", "-e", "conformance", "--", "--broker", f["broker"]]
        assert words[6] == "--replay"
        path, _, row_id = words[7].rpartition(":")
        with open(path, encoding="utf-8") as fh:
            row = json.loads(fh.readlines()[int(row_id) - 1])
        assert row["row_id"] == int(row_id) and row["outcome"] == "fail" and _key(row) == _key(f)
        assert json.loads(f["counterexample"]) == row["counterexample"]
        assert f["message"] == row["message"] and f["source"] == row["source"]
    # mm-c checked T1 v0 three times: pass, fail, pass; the failing row is the cell's
    t1 = next(f for f in failures if f["broker"] == CRAFTED and f["property"] == "T1")
    assert (t1["run_id"], t1["row_id"], t1["n_pass"], t1["n_fail"]) == ("mm-c", 5, 2, 1)


def test_runs_with_only_malformed_lines_give_empty_tables_and_a_page(spark, tmp_path):
    from reports.__main__ import main
    from reports.synthetic import write_run

    write_run(tmp_path / "res", "r1", [], extra_lines={1: "garbage", 2: '{"row_id": 1}'})
    out = tmp_path / "out"
    assert main(["--results-dir", str(tmp_path / "res"), "--out", str(out), "--quiet"], spark=spark) == 0
    assert spark.read.parquet(str(out / "tables" / "matrix")).count() == 0
    assert [(m.line, m.reason) for m in spark.read.parquet(str(out / "tables" / "malformed")).orderBy("line")
            .collect()] == [(1, "not a JSON object (or a cut-off line)"), (2, "missing field run_id")]
    assert not (out / "tables" / "_staging").exists()
    assert "2 malformed lines" in (out / "index.html").read_text(encoding="utf-8")


def test_history_is_each_runs_score_per_broker(report, py):
    want = {}
    for (broker, (start, run_id, path)), cells in py["per_run"].items():
        outcomes = [state for _, _, state, _ in cells.values()]
        app = [o for o in outcomes if o in ("pass", "partial", "fail")]
        passing = sum(o in PASSING for o in app)
        want[(broker, run_id)] = (len(outcomes), len(app), passing, passing / len(app) if app else None, path)
    got = {(h["broker"], h["run_id"]): (h["cells"], h["applicable"], h["passing"], h["score"], h["results"])
           for h in report["tables"]["history"]}
    assert set(got) == set(want)
    for k, w in want.items():
        assert got[k][:3] == w[:3] and got[k][4] == w[4], k
        assert got[k][3] == (pytest.approx(w[3]) if w[3] is not None else None), k
    # crafted: zz-a 4 of 5 applicable pass (V1 unsupported), aa-b 5 of 7 (P1 v0 and P1 v1 fail;
    # P5 partial passes what was asked), mm-c 1 of 4 (P2, P1 v0 and T1 fail)
    crafted = {h["run_id"]: (h["passing"], h["applicable"], h["n_partial"]) for h in report["tables"]["history"]
               if h["broker"] == CRAFTED}
    assert crafted == {"zz-a": (4, 5, 0), "aa-b": (5, 7, 1), "mm-c": (1, 4, 0)}


def test_each_cell_keeps_its_states_in_its_latest_runs_oldest_first(report, py):
    seqs = defaultdict(list)  # cell -> [(run start, run id, state)]
    for (broker, (start, run_id, path)), cells in py["per_run"].items():
        for cell, (_, _, state, _) in cells.items():
            seqs[cell].append((start, run_id, state))
    longest = 0
    for m in report["tables"]["matrix"]:
        seq = sorted(seqs[_key(m)])[-tables.RECENT_RUNS:]
        want = [f"{start.astimezone(timezone.utc):%Y-%m-%d %H:%M:%S} {run_id}: {state}" for start, run_id, state in seq]
        assert list(m["run_states"]) == want, _key(m)
        longest = max(longest, len(want))
    assert longest > 1   # the scenario has cells asked in several runs


def test_each_cell_knows_when_it_last_changed(report, py):
    seqs = defaultdict(list)  # cell -> [(run order, outcome)]
    for (broker, order), cells in py["per_run"].items():
        for cell, (_, _, state, _) in cells.items():
            seqs[cell].append((order, state))
    for m in report["tables"]["matrix"]:
        seq = sorted(seqs[_key(m)])
        flips = [(seq[i][0][1], seq[i - 1][1]) for i in range(1, len(seq)) if seq[i][1] != seq[i - 1][1]]
        want = flips[-1] if flips else (None, None)
        assert (m["last_change_run_id"], m["last_change_from"]) == want, _key(m)
    m = {(c["property"], c["api_key"], c["api_version"]): c for c in report["tables"]["matrix"]
         if c["broker"] == CRAFTED}
    assert (m[("P1", 19, 0)]["last_change_run_id"], m[("P1", 19, 0)]["last_change_from"]) == ("aa-b", "pass")
    assert (m[("P2", 19, 0)]["last_change_run_id"], m[("P2", 19, 0)]["last_change_from"]) == ("mm-c", "pass")
    assert m[("V1", 19, 0)]["last_change_run_id"] is None  # unsupported in both runs that had it
    # P5: pass in zz-a (both tests asked), partial in aa-b (one not asked): a cell never says
    # more than was asked, whatever order its rows came in
    p5 = m[("P5", 19, 0)]
    assert (p5["latest_outcome"], p5["latest_asked"], p5["latest_tests"]) == ("partial", 1, 2)
    assert (p5["last_change_run_id"], p5["last_change_from"]) == ("aa-b", "pass")
    assert p5["latest_message"] == "unsupported: v0 not advertised"   # the row explaining it: the unasked one
