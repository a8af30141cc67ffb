"""`pass` only where the property was asked (issue 11): real runs against tansu."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from protocol.codec import APIS
from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]


def run(tmp_path, *args):
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last"))
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
                           "--results-dir", str(tmp_path / "r"), "--profile", "ci", "--seed", "11", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]
    folder = Path((tmp_path / "last").read_text().strip())
    return read_rows(folder / "results.jsonl"), json.loads((folder / "manifest.json").read_text())


def test_p6_at_a_version_without_error_message_is_unsupported_not_pass(tmp_path):
    rows, _ = run(tmp_path, "--property", "P6", "-k", "CreateTopics-v0 or DeleteTopics-v0")
    assert len(rows) == 2
    for r in rows:
        assert r["outcome"] == "unsupported" and "has no error_message field" in r["message"], r


def test_p4_at_the_newest_version_the_broker_supports_is_asked(tmp_path):
    rows, manifest = run(tmp_path, "--property", "P4", "-k", "CreateTopics")
    newest = min(manifest["brokers"][0]["api_versions"]["19"][1], APIS[19].max_version)
    row = next(r for r in rows if r["api_version"] == newest)
    assert row["outcome"] in ("pass", "fail"), row
    assert row["examples"] > 0 and "sent twice" in (row["message"] or ""), row


def test_a_failed_setup_step_is_an_error_row_not_a_fail(tmp_path):
    """Issue 11: a check whose helper topic cannot be created asked no question of the
    property, so its row is ``error`` (the mutation score counts only ``fail`` rows).
    ``results-emptied`` answers every CreateTopics without its results."""
    rows, _ = run(tmp_path, "--broker", "proxy:results-emptied@tansu", "--property", "R1")
    assert rows, "no R1 row"
    for r in rows:
        assert r["outcome"] == "error" and r["message"].startswith("setup failed"), r
        assert "the check needs is created; got no such value" in r["message"], r   # no result for the topic


#: checks of a made-up property module: one that sends and states nothing, one that
#: returns before any example, one that judges only a set-up step, and one that judges
_NOTHING_JUDGED = '''
import pytest
from hypothesis import strategies as st
from protocol import ApiKey, Errors

pytestmark = pytest.mark.parametrize("api_key,version", [(int(ApiKey.ApiVersions), 0)])


@pytest.mark.prop("P1", source="tests/test_outcomes_mean_it.py")
def test_sends_and_states_nothing(check, api_key, version):
    client = check.client()
    check.given(st.just(None), lambda _: client.send(api_key, version, {}))


@pytest.mark.prop("P1", source="tests/test_outcomes_mean_it.py")
def test_returns_before_any_example(check, api_key, version):
    check.require(api_key, version)


@pytest.mark.prop("P1", source="tests/test_outcomes_mean_it.py")
def test_judges_only_its_setup(check, api_key, version):
    client = check.client()

    def setup_only(_):
        client.answered(api_key, version, {})
        check.expect_field(["error_code"], [Errors.NONE], setup=True, says="set-up: NONE")

    check.given(st.just(None), setup_only)


@pytest.mark.prop("P1", source="tests/test_outcomes_mean_it.py")
def test_judges_the_answer(check, api_key, version):
    client = check.client()

    def judged(_):
        client.answered(api_key, version, {})
        check.expect_field(["error_code"], [Errors.NONE], says="NONE")

    check.given(st.just(None), judged)
'''


def test_a_check_that_judges_nothing_of_the_broker_is_no_pass(tmp_path):
    """Issue 55: ``pass`` only when an example ran and an expectation beyond set-up was
    judged on a broker answer; otherwise ``error`` ("no verdict: ..."), and the manifest
    counts what each check judged."""
    (tmp_path / "conftest.py").write_text("from conformance.entry import SUITE_PLUGINS\n"
                                          "pytest_plugins = list(SUITE_PLUGINS)\n")
    (tmp_path / "test_made_up.py").write_text(_NOTHING_JUDGED)
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last"), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "pytest", str(tmp_path / "test_made_up.py"), "-q",
                           "-p", "no:cacheprovider", "--rootdir", str(tmp_path), "--broker", "tansu",
                           "--results-dir", str(tmp_path / "r"), "--profile", "ci"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    folder = Path((tmp_path / "last").read_text().strip())
    rows = {r["check"]: r for r in read_rows(folder / "results.jsonl")}
    assert set(rows) == {"test_sends_and_states_nothing", "test_returns_before_any_example",
                         "test_judges_only_its_setup", "test_judges_the_answer"}, sorted(rows)
    for name, what in (("test_sends_and_states_nothing", "1 example(s) ran and no expectation beyond set-up"),
                       ("test_returns_before_any_example", "no example ran"),
                       ("test_judges_only_its_setup", "1 example(s) ran and no expectation beyond set-up")):
        r = rows[name]
        assert r["outcome"] == "error" and r["message"].startswith(f"no verdict: {what}"), r
        assert r["judged"] == 0, r
    good = rows["test_judges_the_answer"]
    assert good["outcome"] == "pass" and good["judged"] == 1, good
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["expectations_judged"] == 1
    assert sorted(manifest["judged_by_check"].values()) == [0, 0, 0, 1], manifest["judged_by_check"]


def test_every_pass_row_of_a_run_judged_something(tmp_path):
    rows, manifest = run(tmp_path, "--property", "P2", "--property", "C1", "--property", "S1", "-k", "CreateTopics")
    passed = [r for r in rows if r["outcome"] == "pass"]
    assert passed, [(r["property"], r["outcome"], r["message"]) for r in rows]
    assert all(r["judged"] >= 1 and r["examples"] >= 1 for r in passed), [r for r in passed if not r["judged"]]
    assert manifest["expectations_judged"] == sum(r["judged"] for r in rows)
