"""A run says whether it went to its end, and every selected check leaves a row (issue 11).

Each case runs the real plugin (``fixtures.plugin``) in a subprocess against the default
broker (tansu, starts in milliseconds), on a small module of checks written here, so a
run can be cut off at a known place: ``pytest.exit``, Ctrl-C (KeyboardInterrupt), ``-x``,
a crash (``os._exit``), a fixture whose setup fails.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.results import read_rows
from reports import gate
from reports.cli import ReportError
from reports.synthetic import row, write_run

ROOT = Path(__file__).resolve().parents[1]

MODULE = '''
import os, time
import pytest

CELLS = pytest.mark.parametrize("api_key,version", [(3, 0)])


def asked(check):
    """One example that judges an answer (a row is pass only then: docs/results.md)."""
    client = check.client()

    def one(_):
        client.answered(18, 0, {})
        check.expect_field(["error_code"], [0], says="ApiVersions v0: NONE")

    check.once(None, one)

@pytest.fixture
def boom():
    raise RuntimeError("the fixture broke")

@pytest.mark.prop("Z1", source="test")
@CELLS
def test_first(check, api_key, version):
    asked(check)
    time.sleep(float(os.environ.get("KAC_T_SLEEP", "0")))

@pytest.mark.prop("Z2", source="test")
@CELLS
def test_second(check, api_key, version):
    asked(check)
    time.sleep(float(os.environ.get("KAC_T_SLEEP", "0")))
    how = os.environ.get("KAC_T_STOP")
    if how == "exit":
        pytest.exit("stopped by the test")
    if how == "sigint":
        raise KeyboardInterrupt
    if how == "sigterm-swallowed":      # a CI job cancelled while hypothesis draws, which swallows it
        import signal
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        except BaseException:
            pass
    if how == "crash":
        os._exit(3)
    if how == "bug":
        raise RuntimeError("a suite bug")

@pytest.mark.prop("Z3", source="test")
@CELLS
def test_third(check, boom, api_key, version):
    pass
'''


def run(tmp_path, *args, stop=None, sleep=0.0):
    (tmp_path / "test_mod.py").write_text(MODULE)
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["fixtures.plugin"]\n')
    env = dict(os.environ, PYTHONPATH=str(ROOT), KAC_LAST_RUN_FILE=str(tmp_path / "last"),
               KAC_T_STOP=stop or "", KAC_T_SLEEP=str(sleep))
    proc = subprocess.run([sys.executable, "-m", "pytest", "test_mod.py", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), "--results-dir", str(tmp_path / "results"), *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    folder = Path((tmp_path / "last").read_text().strip())
    manifest = json.loads((folder / "manifest.json").read_text())
    return proc, folder, read_rows(folder / "results.jsonl"), manifest


def test_a_run_that_goes_to_its_end_is_complete_and_a_failed_setup_leaves_an_error_row(tmp_path):
    proc, _, rows, m = run(tmp_path)
    assert m["complete"] is True and m["incomplete_reason"] is None, proc.stdout[-2000:]
    assert m["checks_selected"] == 3 and m["rows"] == 3
    by = {r["property"]: r for r in rows}
    assert [by[p]["outcome"] for p in ("Z1", "Z2", "Z3")] == ["pass", "pass", "error"]
    assert "setup failed: RuntimeError: the fixture broke" in by["Z3"]["message"]
    assert by["Z3"]["broker"] == "tansu" and by["Z3"]["api_key"] == 3


def test_deselected_checks_leave_no_row_and_the_manifest_counts_them(tmp_path):
    _, _, rows, m = run(tmp_path, "-k", "first")
    assert [r["property"] for r in rows] == ["Z1"]
    assert m["complete"] is True and m["checks_selected"] == 1 and m["checks_deselected"] == 2


def test_pytest_exit_leaves_an_incomplete_run(tmp_path):
    _, _, rows, m = run(tmp_path, stop="exit")
    assert m["complete"] is False and "interrupted" in m["incomplete_reason"]
    assert m["rows"] == len(rows) == 2 and rows[1]["outcome"] == "error"   # no verdict for Z2


def test_ctrl_c_leaves_an_incomplete_run(tmp_path):
    _, _, rows, m = run(tmp_path, stop="sigint")
    assert m["complete"] is False and "interrupted (Ctrl-C or pytest.exit) after 1 of 3 checks" in m["incomplete_reason"]
    assert m["ended_at"] is not None and len(rows) == 1


def test_a_sigterm_something_swallowed_still_stops_the_run_as_incomplete(tmp_path):
    """The SIGTERM handler stops the brokers; had the run gone on, every later check would be
    an error row blaming a broker that died. The interrupted check leaves no row."""
    _, _, rows, m = run(tmp_path, stop="sigterm-swallowed")
    assert m["complete"] is False and "interrupted" in m["incomplete_reason"], m["incomplete_reason"]
    assert [r["property"] for r in rows] == ["Z1"], [(r["property"], r["outcome"], r["message"]) for r in rows]


def test_stopping_at_the_first_failure_leaves_an_incomplete_run(tmp_path):
    _, _, rows, m = run(tmp_path, "-x", stop="bug")
    assert [r["outcome"] for r in rows] == ["pass", "error"]
    assert m["complete"] is False and "stopped after 2 of 3 checks" in m["incomplete_reason"]


def test_after_a_crash_the_manifest_shows_how_far_the_run_got(tmp_path):
    proc, _, rows, m = run(tmp_path, stop="crash", sleep=1.2)
    assert proc.returncode == 3
    assert m["complete"] is False and m["ended_at"] is None
    assert len(rows) == 1 and m["rows"] == 1 and m["counts"]["pass"] == 1


def test_the_gate_refuses_an_interrupted_run_unless_allowed(tmp_path, capsys):
    _, folder, _, _ = run(tmp_path, stop="exit")
    base = write_run(tmp_path / "base", "run-base", [row("tansu", "Z1", 3, 0, "pass")])
    with pytest.raises(ReportError, match=r"is incomplete: its manifest says complete: false "
                                          r"\(interrupted .*--allow-incomplete"):
        gate.main([str(folder), "--baseline", base])
    assert gate.main([str(folder), "--baseline", base, "--allow-incomplete"]) == 0
    assert "1 incomplete run(s) gated as allowed" in capsys.readouterr().out
