"""diff.html (issue 60, item 2): between two runs, exactly the cells whose state changed,
recounted here from the rows, grouped by family and API, each with both sides' state and
message and a link to each side's reproducer; by default against each broker's previous run."""
from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from reports import diff, row_schema
from reports.cli import run as cli
from reports.synthetic import T0, row, write_run

HOUR = dt.timedelta(hours=1)
BEFORE = [row("tansu", "P1", 19, 0, "pass"), row("tansu", "P1", 19, 1, "fail"), row("tansu", "P2", 19, 0, "pass"),
          row("tansu", "V1", 20, 0, "pass"), row("tansu", "V1", 20, 0, "unsupported"),
          row("noida", "P1", 19, 0, "pass")]
AFTER = [row("tansu", "P1", 19, 0, "fail"), row("tansu", "P1", 19, 1, "pass"), row("tansu", "P2", 19, 0, "pass"),
         row("tansu", "V1", 20, 0, "pass"), row("tansu", "D1", 20, 0, "pass")]


class _Rows(HTMLParser):
    """The changed cells the page lists: (category, broker, api, version, property)."""

    def __init__(self):
        super().__init__()
        self.rows = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-category" in a:
            self.rows.append((a["data-category"], a["data-broker"], a["data-api"], a["data-version"], a["data-property"]))


def _states(rows) -> dict:
    counts = {}
    for r in rows:
        key = (r["broker"], str(r["api_key"]), str(r["api_version"]), r["property"])
        counts.setdefault(key, {}).setdefault(r["outcome"], 0)
        counts[key][r["outcome"]] += 1
    return {k: row_schema.cell_state(c) for k, c in counts.items()}


@pytest.fixture
def runs(tmp_path):
    before = write_run(tmp_path / "results", "r1", BEFORE, start=T0)
    after = write_run(tmp_path / "results", "r2", AFTER, start=T0 + HOUR)
    return tmp_path, before, after


def _page(tmp_path, *args) -> str:
    assert diff.main([*args, "--out", str(tmp_path / "report"), "--known", "none"]) == 0
    return (tmp_path / "report" / "diff.html").read_text(encoding="utf-8")


def test_the_page_lists_exactly_the_cells_that_changed_against_the_previous_run(runs):
    tmp_path, before, after = runs
    text = _page(tmp_path, after)
    p = _Rows()
    p.feed(text)
    was, now = _states(BEFORE), _states(AFTER)
    # tansu's cells whose state differs (noida is not in the after run: not its diff)
    want = {k for k in set(was) | set(now) if k[0] == "tansu" and was.get(k) != now.get(k)}
    got = {r[1:] for r in p.rows}
    assert got == want, (got, want)
    cats = {r[1:]: r[0] for r in p.rows}
    assert cats[("tansu", "19", "0", "P1")] == "regression" and cats[("tansu", "19", "1", "P1")] == "fixed"
    assert cats[("tansu", "20", "0", "V1")] == "changed" and cats[("tansu", "20", "0", "D1")] == "new_property"
    assert "Before: the previous run of each broker (r1)" in text
    # grouped by family, then API
    heads = re.findall(r"<h2 id=\"[^\"]*\">([^<]*)</h2>", text)
    assert heads == sorted(heads, key=lambda h: h.split(":")[0]) and "P: CreateTopics (19)" in heads


def test_each_side_links_its_reproducer_where_one_was_exported(runs):
    tmp_path, before, after = runs
    report = tmp_path / "report" / "repro" / "r2" / "1" / "REPORT.md"      # AFTER's row 1: P1 v0 fail
    report.parent.mkdir(parents=True)
    report.write_text("x")
    text = _page(tmp_path, after)
    assert 'href="repro/r2/1/REPORT.md"' in text
    assert "P1: expected error 0, got 37 at v0" in text             # the failing side's message


def test_against_a_baseline_and_with_nothing_earlier(runs, capsys):
    tmp_path, before, after = runs
    text = _page(tmp_path, after, "--baseline", before)
    assert f"Before: {before}" in text
    # nothing before the first run: one line, or with --if-earlier a skip that writes nothing
    assert cli(diff.main, [before, "--out", str(tmp_path / "r1-report")]) == 2
    assert "no earlier run of noida, tansu in " in capsys.readouterr().err
    assert diff.main([before, "--out", str(tmp_path / "r1-report"), "--if-earlier"]) == 0
    assert not Path(tmp_path / "r1-report" / "diff.html").exists()
