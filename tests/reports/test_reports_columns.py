"""One broker is one column (issue 60, item 3): a Kafka release asked with its companions
(``kafka:4.4.0,preset=nodelete``, its manifest entry saying ``companion_of``), each in a run
folder of its own as ``--jobs`` writes them, is one broker on the page and in the scores; the
tables stay per spec beside it (the latest state, changes and replay command are the
configuration's that answered), and a cell asked on several parts (P5 of DeleteTopics: on the
base, on ``preset=nodelete``) is what their states say together."""
from __future__ import annotations

import datetime as dt
import os

import pytest

from reports import synthetic
from reports.synthetic import row, write_run

KAFKA = "kafka:4.4.0"
NODELETE, ACL = f"{KAFKA},preset=nodelete", f"{KAFKA},preset=acl"
DAY = dt.timedelta(days=1)


def _k(spec, prop, api_key, version, outcome):
    return row(spec, prop, api_key, version, outcome, broker_impl="apache-kafka", broker_version="4.4.0")


def _release(d, day: int, nodelete_p5: str):
    """One ``--jobs`` invocation of kafka:4.4.0: its base's folder and two companions'."""
    t = synthetic.T0 + day * DAY
    write_run(d, f"d{day}-base", [_k(KAFKA, "P1", 19, 0, "pass"), _k(KAFKA, "P5", 20, 5, "pass")], start=t)
    write_run(d, f"d{day}-nodelete", [_k(NODELETE, "P5", 20, 5, nodelete_p5)], start=t + dt.timedelta(minutes=1),
              companions={NODELETE: KAFKA})
    write_run(d, f"d{day}-acl", [_k(ACL, "A2", 19, 0, "pass")], start=t + dt.timedelta(minutes=2),
              companions={ACL: KAFKA})


@pytest.fixture(scope="module")
def out(spark, tmp_path_factory):
    from reports.__main__ import main

    d = tmp_path_factory.mktemp("results")
    _release(d, 0, "pass")
    _release(d, 1, "fail")
    # the same spec given as a broker of its own (no companion_of): a column of its own
    write_run(d, "alone", [_k(ACL, "A2", 19, 1, "pass")], start=synthetic.T0 + 3 * DAY)
    o = str(tmp_path_factory.mktemp("report"))
    assert main(["--results-dir", str(d), "--out", o, "--quiet"], spark=spark) == 0
    read = lambda name: [r.asDict() for r in spark.read.parquet(os.path.join(o, "tables", name)).collect()]  # noqa: E731
    return {"out": o, "tables": {n: read(n) for n in ("matrix", "columns", "scores", "failures", "changes")}}


def test_the_columns_table_rolls_a_release_and_its_companions_into_one_broker(out):
    cols = {(c["broker"], c["api_key"], c["api_version"], c["property"]): c for c in out["tables"]["columns"]}
    # the companions answer in their release's column; the spec asked alone is a broker of its own
    assert {k[:2] for k in cols} == {(KAFKA, 19), (KAFKA, 20), (ACL, 19)}, sorted(cols)
    p5 = cols[(KAFKA, 20, 5, "P5")]
    assert p5["latest_outcome"] == "fail" and p5["parts"] == sorted([f"{KAFKA}: pass", f"{NODELETE}: fail"])
    assert p5["latest_run_id"] == "d1-nodelete"                # the failing part explains the cell
    assert cols[(KAFKA, 19, 0, "A2")]["parts"] == [f"{ACL}: pass"]
    # the matrix keeps every spec, each with its column
    specs = {(m["broker"], m["column"]) for m in out["tables"]["matrix"]}
    assert specs == {(KAFKA, KAFKA), (NODELETE, KAFKA), (ACL, KAFKA)} | {(ACL, ACL)}, specs


def test_scores_are_per_column(out):
    overall = {s["broker"]: s for s in out["tables"]["scores"] if s["scope"] == "overall"}
    assert set(overall) == {KAFKA, ACL}
    assert (overall[KAFKA]["applicable"], overall[KAFKA]["passing"]) == (3, 2)


def test_failures_and_changes_stay_with_the_spec_that_answered(out):
    [f] = out["tables"]["failures"]
    assert (f["broker"], f["column"]) == (NODELETE, KAFKA) and f"--broker {NODELETE} " in f["replay"]
    # the nodelete companion regressed between the two invocations; the base's pass and the
    # companion's fail of the same cell, in neighbouring folders, are no change
    changes = [(c["kind"], c["broker"], c["column"], c["from_run_id"], c["to_run_id"]) for c in out["tables"]["changes"]]
    assert changes == [("regression", NODELETE, KAFKA, "d0-nodelete", "d1-nodelete")], changes


def test_the_page_shows_the_release_as_one_broker(out):
    page = open(os.path.join(out["out"], "index.html"), encoding="utf-8").read()
    sections = [s.split('"', 1)[0] for s in page.split('class="broker" data-broker="')[1:]]
    assert sections == [KAFKA, ACL], sections
    verdict = page.split('<section id="verdict">')[1].split("</section>")[0]
    assert verdict.count("<tr data-broker=") == 2
    assert f'data-broker="{KAFKA}" data-verdict="fail" data-own="1"' in verdict
    assert 'data-regressions="1"' in verdict
    detail = "fail-kafka_4_4_0-20-5-P5-as-kafka_4_4_0_preset_nodelete"
    assert f'<details class="failure" id="{detail}"' in page and f'data-detail="{detail}"' in page
    assert f"(asked on {NODELETE})" in page
    assert f"asked on {NODELETE}: fail; {KAFKA}: pass" in page      # the cell's tooltip names its parts
