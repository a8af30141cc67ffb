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
