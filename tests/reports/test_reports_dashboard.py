"""The generated dashboard, opened from disk in headless Chromium (Debian's chromium and
chromium-driver), checked against the matrix table. Without them the tests skip, and in CI
(``CI=true``, where .ci/setup installs them) they fail."""
from __future__ import annotations

import json
import os
import shutil
import tempfile

import pytest

from reports_scenario import CRAFTED

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000"]


@pytest.fixture(scope="module")
def browser():
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if os.environ.get("CI") == "true":      # .ci/setup installs both: in CI their absence is a failure
            pytest.fail(f"CI=true but {CHROMIUM} or {CHROMEDRIVER} is missing (.ci/setup installs chromium and "
                        "chromium-driver)")
        pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="reports-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def page(browser, report):
    browser.get("file://" + report["index"])
    return browser


def test_page_is_self_contained(report):
    text = open(report["index"], encoding="utf-8").read()
    assert "http://" not in text and "https://" not in text  # no CDN, no fetch


def test_heatmap_has_every_cell_with_its_latest_outcome(page, report):
    from selenium.webdriver.common.by import By

    brokers = {m["broker"] for m in report["tables"]["matrix"]}
    assert len(brokers) >= 3 and len(report["tables"]["matrix"]) > 20, "too few cells to compare"
    for broker in brokers:
        want = {(m["api_key"], m["api_version"], m["property"]): m["latest_outcome"]
                for m in report["tables"]["matrix"] if m["broker"] == broker}
        section = page.find_element(By.CSS_SELECTOR, f'section.broker[data-broker="{broker}"]')
        got = {}
        for el in section.find_elements(By.CSS_SELECTOR, ".cell"):
            num = lambda a: int(a) if a else None  # noqa: E731
            key = (num(el.get_attribute("data-api")), num(el.get_attribute("data-version")),
                   el.get_attribute("data-property"))
            outcome = el.get_attribute("data-outcome")
            assert f"o-{outcome}" in el.get_attribute("class").split()
            assert el.get_attribute("data-broker") == broker
            got[key] = outcome
        assert got and got == want, broker


def test_a_partial_cell_shows_how_many_of_its_tests_were_asked(page):
    from selenium.webdriver.common.by import By

    p5 = page.find_element(By.ID, "cell-crafted-19-0-P5")    # pass in zz-a, one test unasked in aa-b
    assert p5.get_attribute("data-outcome") == "partial" and "o-partial" in p5.get_attribute("class").split()
    assert "latest partial (1 of 2 tests asked)" in p5.get_attribute("title")
    legend = page.find_element(By.CSS_SELECTOR, "p.legend").text
    assert "partial" in legend and "pass" in legend


def test_clicking_a_failing_cell_shows_its_counterexample(page, report):
    from selenium.webdriver.common.by import By

    fail = next(f for f in report["tables"]["failures"]
                if (f["broker"], f["api_key"], f["api_version"], f["property"]) == (CRAFTED, 19, 0, "P2"))
    cell = page.find_element(By.ID, "cell-crafted-19-0-P2")
    assert cell.tag_name == "button" and cell.get_attribute("data-outcome") == "fail"
    details = page.find_element(By.ID, "fail-crafted-19-0-P2")
    pre = details.find_element(By.CSS_SELECTOR, "pre.counterexample")
    assert details.get_attribute("open") is None and not pre.is_displayed()
    # clear of the sticky table headers, which would take a click at the window's top edge
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
    cell.click()
    assert details.get_attribute("open") is not None and pre.is_displayed()
    assert json.loads(pre.text) == json.loads(fail["counterexample"])
    assert fail["message"] in details.text and fail["source"] in details.text
    assert details.find_element(By.CSS_SELECTOR, "code.replay").text == fail["replay"]
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
    cell.click()
    assert details.get_attribute("open") is None
    # a passing cell is not a button and opens nothing
    assert page.find_element(By.ID, "cell-crafted-19-1-P1").tag_name == "span"


def test_scores_comparison_and_cross_run_tables_are_shown(page, report):
    from selenium.webdriver.common.by import By

    score = page.find_element(By.CSS_SELECTOR, f'#scores td[data-broker="{CRAFTED}"][data-api="19"]')
    assert score.text.startswith("40.0%")  # 2 of 5 applicable CreateTopics cells pass (one of them partial)
    rows = page.find_elements(By.CSS_SELECTOR, "#compare tbody tr")
    differ = [r for r in rows if r.get_attribute("data-differs") == "1"]
    assert differ and all(r.is_displayed() for r in differ)
    assert not any(r.is_displayed() for r in rows if r.get_attribute("data-differs") == "0")
    page.find_element(By.ID, "only-diffs").click()
    assert all(r.is_displayed() for r in rows[:20])
    changes = page.find_element(By.ID, "changes").text
    assert "regression" in changes and "fix" in changes and "mm-c" in changes
    assert "craft" in page.find_element(By.ID, "flaky").text
    assert "not json at all" in page.find_element(By.ID, "malformed").text


def _broker_runs(report, broker):
    """The broker's run ids, oldest first, from the runs table (not the history table)."""
    runs = [r for r in report["tables"]["runs"] if broker in (r["brokers"] or [])]
    return [r["run_id"] for r in sorted(runs, key=lambda r: (r["run_start"], r["run_id"]))]


def test_history_chart_shows_every_run_of_each_broker(page, report):
    from selenium.webdriver.common.by import By

    brokers = {m["broker"] for m in report["tables"]["matrix"]}
    assert len(brokers) >= 2
    scores = {(h["broker"], h["run_id"]): h["score"] for h in report["tables"]["history"]}
    for broker in brokers:
        want = _broker_runs(report, broker)
        assert len(want) >= 3, broker
        fig = page.find_element(By.ID, f"history-{broker}")
        assert fig.is_displayed() and fig.find_element(By.TAG_NAME, "figcaption").text == broker
        points = fig.find_elements(By.CSS_SELECTOR, "svg a.point")
        assert [p.get_attribute("data-run") for p in points] == want, broker
        labels = [t.get_attribute("textContent") for t in fig.find_elements(By.CSS_SELECTOR, "svg text.run-label")]
        assert labels == want, broker
        svg = fig.find_element(By.TAG_NAME, "svg").rect
        xs, ys = [], []
        for p, run_id in zip(points, want):
            c = p.find_element(By.TAG_NAME, "circle").rect
            assert c["width"] > 0 and svg["x"] <= c["x"] <= svg["x"] + svg["width"], (broker, run_id)
            xs.append(c["x"])
            ys.append(c["y"])
            score = scores[(broker, run_id)]
            assert (p.get_attribute("data-score") or None) == (None if score is None else str(score))
        assert xs == sorted(xs) and len(set(xs)) == len(xs)  # one point per run, oldest left
        # a higher score is drawn higher
        scored = [(scores[(broker, r)], y) for r, y in zip(want, ys) if scores[(broker, r)] is not None]
        for (s1, y1), (s2, y2) in zip(scored, scored[1:]):
            assert (s1 > s2) == (y1 < y2) or s1 == s2, broker


def test_history_point_links_to_its_run(page, report):
    from selenium.webdriver.common.by import By

    run_id = _broker_runs(report, CRAFTED)[1]
    point = page.find_element(By.CSS_SELECTOR, f'#history-{CRAFTED} a.point[data-run="{run_id}"]')
    point.find_element(By.TAG_NAME, "circle").click()
    assert page.execute_script("return location.hash") == f"#run-{run_id}"
    row = page.find_element(By.ID, f"run-{run_id}")
    assert row.tag_name == "tr" and row.find_element(By.XPATH, "..").find_element(By.XPATH, "..") \
        .get_attribute("id") == "runs"
    assert row.find_elements(By.TAG_NAME, "td")[0].text == run_id
    page.execute_script("history.back()")


def test_cells_say_when_they_last_changed(page, report):
    from selenium.webdriver.common.by import By

    cell = page.find_element(By.ID, "cell-crafted-19-0-P1")  # pass in zz-a, fail in aa-b and mm-c
    assert cell.get_attribute("data-last-change") == "aa-b"
    assert "last changed in run aa-b" in cell.get_attribute("title") and "from pass" in cell.get_attribute("title")
    # hovering shows the cell's state in each of its runs, oldest first
    [states] = [line for line in cell.get_attribute("title").splitlines() if line.startswith("latest 3 run(s)")]
    assert [e.split(" ", 2)[2] for e in states.split(": ", 1)[1].split("; ")] == \
        ["zz-a: pass", "aa-b: fail", "mm-c: fail"], states
    v1 = page.find_element(By.ID, "cell-crafted-19-0-V1")
    assert v1.get_attribute("data-last-change") == "" and "unchanged in its 2 run(s)" in v1.get_attribute("title")


def test_kafka_releases_get_their_own_history(browser, tmp_path):
    """History rows of Apache Kafka brokers (broker_impl apache-kafka): one chart per release
    and mode (a ZooKeeper-mode run, kafka:VERSION,mode=zk, is charted apart from KRaft),
    whichever broker spec ran it, releases in version order."""
    from selenium.webdriver.common.by import By

    from reports import html

    def h(broker, run_id, start, version, score):
        return {"broker": broker, "run_id": run_id, "run_start": start, "broker_impl": "apache-kafka",
                "broker_version": version, "cells": 4, "applicable": 4, "passing": int(4 * score), "score": score}

    history = [h("kafka:4.1.0", "r3", "2026-11-03", "4.1.0", 0.75), h("kafka:4.1.0", "r1", "2026-11-01", "4.1.0", 1.0),
               h("container:kafka", "r2", "2026-11-02", "4.1.0", 0.5), h("kafka:4.0.0", "r1", "2026-11-01", "4.0.0", 1.0),
               h("kafka:4.10.0", "r4", "2026-11-04", "4.10.0", 1.0),
               h("kafka:3.9.2,mode=zk", "r2", "2026-11-02", "3.9.2", 0.5),
               h("proxy:none@kafka:3.9.2,mode=zk,preset=acl", "r3", "2026-11-03", "3.9.2", 0.25),
               h("kafka:3.9.2", "r1", "2026-11-01", "3.9.2", 1.0),
               {**h("tansu", "r1", "2026-11-01", "0.6.0", 0.5), "broker_impl": "tansu"}]
    runs = [{"run_id": r, "run_start": s, "rows": 4, "malformed": 0} for r, s in
            (("r1", "2026-11-01"), ("r2", "2026-11-02"), ("r3", "2026-11-03"), ("r4", "2026-11-04"))]
    d = {"matrix": [], "scores": [], "failures": [], "changes": [], "flaky": [], "malformed": [],
         "runs": runs, "history": history, "generated": "now"}
    path = tmp_path / "index.html"
    path.write_text(html.page(d), encoding="utf-8")
    browser.get(f"file://{path}")
    charts = browser.find_elements(By.CSS_SELECTOR, "#history-sec figure.history")
    titles = [c.get_attribute("data-title") for c in charts]
    assert titles[-5:] == ["Apache Kafka 3.9.2", "Apache Kafka 3.9.2 (ZooKeeper mode)", "Apache Kafka 4.0.0",
                           "Apache Kafka 4.1.0", "Apache Kafka 4.10.0"]
    zk = browser.find_element(By.ID, "history-kafka-3_9_2-zk")
    assert [p.get_attribute("data-broker") for p in zk.find_elements(By.CSS_SELECTOR, "a.point")] == [
        "kafka:3.9.2,mode=zk", "proxy:none@kafka:3.9.2,mode=zk,preset=acl"]
    assert "tansu" in titles and "Apache Kafka 0.6.0" not in titles
    k41 = browser.find_element(By.ID, "history-kafka-4_1_0")
    assert [(p.get_attribute("data-run"), p.get_attribute("data-broker"))
            for p in k41.find_elements(By.CSS_SELECTOR, "a.point")] == [
        ("r1", "kafka:4.1.0"), ("r2", "container:kafka"), ("r3", "kafka:4.1.0")]


def _latest_run(report, broker):
    return _broker_runs(report, broker)[-1]


def test_the_verdict_comes_first_and_each_count_is_the_tables(browser, report):
    """Issue 60, item 1: the page opens on the verdict per broker, each figure as the tables
    have it: failing cells of its own, regressions and fixes in its latest run, incomplete runs
    (mm-c has no manifest: nothing says it went to its end)."""
    from selenium.webdriver.common.by import By

    page = browser
    page.get("file://" + report["index"])      # an earlier test may have opened another page

    first = page.find_element(By.CSS_SELECTOR, "main > section")
    assert first.get_attribute("id") == "verdict" and first.is_displayed()
    t = report["tables"]
    brokers = sorted({m["broker"] for m in t["matrix"]})
    rows = {r.get_attribute("data-broker"): r for r in first.find_elements(By.CSS_SELECTOR, "#verdicts tbody tr")}
    assert sorted(rows) == brokers
    for b in brokers:
        r = rows[b]
        own = sum(1 for f in t["failures"] if f["broker"] == b)     # no known deviation in these runs
        latest = _latest_run(report, b)
        regs = sum(1 for c in t["changes"] if c["broker"] == b and c["to_run_id"] == latest and c["kind"] == "regression")
        fixes = sum(1 for c in t["changes"] if c["broker"] == b and c["to_run_id"] == latest and c["kind"] == "fix")
        bad = sum(1 for x in t["runs"] if b in (x["brokers"] or []) and x["complete"] is not True)
        got = {k: int(r.get_attribute(f"data-{k}")) for k in ("own", "known", "regressions", "fixes", "incomplete")}
        assert got == {"own": own, "known": 0, "regressions": regs, "fixes": fixes, "incomplete": bad}, b
        word = "fail" if own or regs else ("incomplete" if bad else "pass")
        assert r.get_attribute("data-verdict") == word, b
    crafted = rows[CRAFTED]
    assert crafted.get_attribute("data-verdict") == "fail" and int(crafted.get_attribute("data-incomplete")) == 1
    assert int(crafted.get_attribute("data-regressions")) >= 1          # P2 v0: pass in aa-b, fail in mm-c
    crafted.find_elements(By.TAG_NAME, "a")[1].click()                  # its failing cells
    assert page.execute_script("return location.hash") == f"#own-{CRAFTED}"
    assert page.find_element(By.ID, f"own-{CRAFTED}").text.startswith("Failing cells (")
    page.execute_script("history.back()")


def test_a_score_with_no_applicable_cell_is_neutral_not_a_red_bar(browser, tmp_path):
    from selenium.webdriver.common.by import By

    from reports import html

    def score(api_key, applicable, passing):
        return {"broker": "tansu", "scope": "api", "api_key": api_key, "api_name": f"api{api_key}", "cells": 3,
                "applicable": applicable, "passing": passing, "n_partial": 0, "n_unsupported": 3 - applicable,
                "n_error": 0, "n_skip": 0, "score": passing / applicable if applicable else None}
    d = {"matrix": [], "scores": [score(19, 0, 0), score(20, 2, 1)], "failures": [], "changes": [], "flaky": [],
         "malformed": [], "runs": [], "history": [], "generated": "now"}
    path = tmp_path / "index.html"
    path.write_text(html.page(d), encoding="utf-8")
    browser.get(f"file://{path}")
    red = "rgba(239, 154, 154, 1)"
    na = browser.find_element(By.CSS_SELECTOR, '#scores td[data-api="19"]')
    assert na.text.startswith("n/a") and "na" in na.get_attribute("class").split()
    bar = na.find_element(By.CSS_SELECTOR, ".bar")
    assert bar.value_of_css_property("background-color") != red and not bar.find_elements(By.TAG_NAME, "i")
    half = browser.find_element(By.CSS_SELECTOR, '#scores td[data-api="20"] .bar')
    assert half.value_of_css_property("background-color") == red   # a real score keeps its red remainder


def test_the_family_matrix_counts_the_matrix_tables_cells(browser, report):
    """Issue 60, item 4: family x broker, the share of applicable cells passing, and per family
    the cells passing on every broker, each figure recounted here from the matrix table."""
    from selenium.webdriver.common.by import By

    browser.get("file://" + report["index"])
    t = report["tables"]["matrix"]
    brokers = sorted({m["broker"] for m in t})
    fam = lambda p: p.rstrip("0123456789")  # noqa: E731
    table = browser.find_element(By.ID, "families")
    rows = {r.get_attribute("data-family"): r for r in table.find_elements(By.CSS_SELECTOR, "tbody tr")}
    assert set(rows) == {fam(m["property"]) for m in t}
    for f, tr in rows.items():
        tds = tr.find_elements(By.CSS_SELECTOR, "td")
        assert [td.get_attribute("data-broker") for td in tds] == brokers + ["every broker"]
        states = {b: {(m["api_key"], m["api_version"], m["property"]): m["latest_outcome"]
                      for m in t if m["broker"] == b and fam(m["property"]) == f} for b in brokers}
        for b, td in zip(brokers, tds):
            applicable = [s for s in states[b].values() if s in ("pass", "partial", "fail")]
            want = (sum(1 for s in applicable if s != "fail"), len(applicable))
            assert (int(td.get_attribute("data-passing")), int(td.get_attribute("data-applicable"))) == want, (f, b)
        common = set.intersection(*[{c for c, s in states[b].items() if s in ("pass", "partial", "fail")}
                                    for b in brokers])
        every = sum(1 for c in common if all(states[b][c] != "fail" for b in brokers))
        assert (int(tds[-1].get_attribute("data-passing")), int(tds[-1].get_attribute("data-applicable"))) == \
            (every, len(common)), f


def test_screenshots_of_each_part_of_the_page_are_written(browser, report, tmp_path):
    """Screenshots for CI to keep (``KAC_ARTIFACTS``, else a temporary folder): the verdict,
    the families, a broker's heatmap, the known deviations, at 1280 px wide."""
    from selenium.webdriver.common.by import By

    where = os.path.join(os.environ.get("KAC_ARTIFACTS") or str(tmp_path), "dashboard")
    os.makedirs(where, exist_ok=True)
    browser.set_window_size(1280, 1000)
    browser.get("file://" + report["index"])
    shots = {}
    for name, css in (("verdict", "#verdict"), ("families", "#families-sec"), ("heatmap", "section.broker"),
                      ("known", "#known-sec")):
        el = browser.find_element(By.CSS_SELECTOR, css)
        browser.execute_script("arguments[0].scrollIntoView()", el)
        shots[name] = os.path.join(where, f"{name}.png")
        assert el.screenshot(shots[name]), name
    assert all(os.path.getsize(p) > 1000 for p in shots.values()), shots
    # readable at 1280 px: the verdict table is no wider than the window
    assert browser.find_element(By.ID, "verdicts").rect["width"] <= 1280
    browser.set_window_size(1400, 1000)


def test_the_diff_page_opens_and_lists_the_cells_that_changed(browser, results_dir, tmp_path):
    """diff.html of the crafted run aa-b against its previous run zz-a, in Chromium: one row per
    cell whose state changed, as reports.cells reads the two runs."""
    from selenium.webdriver.common.by import By

    from reports import cells, diff

    a, b = (os.path.join(results_dir, r) for r in ("zz-a", "aa-b"))
    assert diff.main([b, "--out", str(tmp_path), "--known", "none"]) == 0
    was, now = (cells.read_run(os.path.join(r, "results.jsonl"), [])[3] for r in (a, b))
    want = {(str(k[1]), str(k[2]), k[3]) for k in set(was) | set(now)
            if (was.get(k) and was[k].outcome) != (now.get(k) and now[k].outcome)}
    browser.get(f"file://{tmp_path}/diff.html")
    rows = browser.find_elements(By.CSS_SELECTOR, "tr[data-category]")
    got = {(r.get_attribute("data-api"), r.get_attribute("data-version"), r.get_attribute("data-property"))
           for r in rows if r.is_displayed()}
    assert got == want and len(rows) == len(want), (got, want)
    assert "zz-a" in browser.find_element(By.TAG_NAME, "body").text


def test_each_broker_shows_its_families_score_over_its_runs(browser, report):
    """Issue 60, item 6: per broker and family, the score of each of its runs, oldest first;
    the crafted runs' P family by hand: zz-a 3 of 4 applicable cells pass (P1 v1 fails), aa-b
    2 of 4 (P1 v0 and v1 fail, P5 partial passes), mm-c 1 of 3 (P1 v1 passes)."""
    from selenium.webdriver.common.by import By

    browser.get("file://" + report["index"])
    table = browser.find_element(By.CSS_SELECTOR, f'table.family-history[data-broker="{CRAFTED}"]')
    p = table.find_element(By.CSS_SELECTOR, 'tr[data-family="P"]')
    cells = p.find_elements(By.CSS_SELECTOR, "td")
    assert [c.get_attribute("data-run") for c in cells] == ["zz-a", "aa-b", "mm-c"]
    assert [round(float(c.get_attribute("data-score")), 3) for c in cells] == [0.75, 0.5, 0.333]
    assert "2 of 4 applicable cells pass" in cells[1].get_attribute("title")
    # every point is the table's
    table_scores = {(h["broker"], h["run_id"], h["family"]): h["score"] for h in report["tables"]["family_history"]}
    for tr in table.find_elements(By.CSS_SELECTOR, "tbody tr"):
        for c in tr.find_elements(By.CSS_SELECTOR, "td"):
            want = table_scores[(CRAFTED, c.get_attribute("data-run"), tr.get_attribute("data-family"))]
            assert (c.get_attribute("data-score") or None) == (None if want is None else str(want))
