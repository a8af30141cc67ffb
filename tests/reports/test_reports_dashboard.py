"""The generated dashboard, opened from disk in headless Chromium (Debian's chromium and
chromium-driver), checked against the matrix table."""
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

    for broker in {m["broker"] for m in report["tables"]["matrix"]}:
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
        assert got == want, broker


def test_clicking_a_failing_cell_shows_its_counterexample(page, report):
    from selenium.webdriver.common.by import By

    fail = next(f for f in report["tables"]["failures"]
                if (f["broker"], f["api_key"], f["api_version"], f["property"]) == (CRAFTED, 19, 0, "P2"))
    cell = page.find_element(By.ID, "cell-crafted-19-0-P2")
    assert cell.tag_name == "button" and cell.get_attribute("data-outcome") == "fail"
    details = page.find_element(By.ID, "fail-crafted-19-0-P2")
    pre = details.find_element(By.CSS_SELECTOR, "pre.counterexample")
    assert details.get_attribute("open") is None and not pre.is_displayed()
    cell.click()
    assert details.get_attribute("open") is not None and pre.is_displayed()
    assert json.loads(pre.text) == json.loads(fail["counterexample"])
    assert fail["message"] in details.text and fail["source"] in details.text
    assert details.find_element(By.CSS_SELECTOR, "code.replay").text == fail["replay"]
    cell.click()
    assert details.get_attribute("open") is None
    # a passing cell is not a button and opens nothing
    assert page.find_element(By.ID, "cell-crafted-19-1-P1").tag_name == "span"


def test_scores_comparison_and_cross_run_tables_are_shown(page, report):
    from selenium.webdriver.common.by import By

    score = page.find_element(By.CSS_SELECTOR, f'#scores td[data-broker="{CRAFTED}"][data-api="19"]')
    assert score.text.startswith("25.0%")  # 1 of 4 applicable CreateTopics cells pass
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
