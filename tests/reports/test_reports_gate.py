"""The release gate (plain Python, no Spark) and the one-line errors of every entry point."""
from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from reports import gate
from reports.synthetic import T0, row, write_run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _cells(outcomes: dict) -> list[dict]:
    """{(property, api_key, version): outcome} -> rows for broker tansu (one check each)."""
    return [row("tansu", p, k, v, o, check=f"test_{p.lower()}") for (p, k, v), o in outcomes.items()]


BASE = {("P1", 19, 0): "pass", ("P1", 19, 1): "pass", ("P2", 19, 0): "fail", ("V1", 19, 0): "pass"}


@pytest.fixture
def base_run(tmp_path):
    return write_run(tmp_path / "base", "run-base", _cells(BASE), start=T0)


def _run(tmp_path, outcomes, name="run-new", extra=None):
    return write_run(tmp_path / "new", name, _cells(outcomes), start=T0 + dt.timedelta(hours=1), extra_lines=extra)


def _gate(capsys, *argv):
    status = gate.main([str(a) for a in argv])
    return status, capsys.readouterr().out


def test_identical_baseline_passes(tmp_path, base_run, capsys):
    status, out = _gate(capsys, base_run, "--baseline", base_run)
    assert status == 0 and "gate: PASS" in out
    # the same through a written baseline file
    path = tmp_path / "baseline.json"
    assert _gate(capsys, base_run, "--write-baseline", path)[0] == 0
    assert json.loads(path.read_text())["format"] == gate.FORMAT
    status, out = _gate(capsys, _run(tmp_path, BASE), "--baseline", path, "--strict")
    assert status == 0 and "4 cells compared, 4 unchanged" in out


def test_pass_to_fail_fails_with_readable_list(tmp_path, base_run, capsys):
    new = _run(tmp_path, {**BASE, ("P1", 19, 1): "fail", ("P2", 19, 0): "pass"})
    status, out = _gate(capsys, new, "--baseline", base_run)
    assert status == 1
    assert "FAIL: 1 cell(s) went from pass to fail:" in out
    assert "tansu CreateTopics(19) v1 P1: pass -> fail" in out
    assert f"--broker tansu --replay {new}/results.jsonl:2" in out
    assert "note: 1 cell(s) went from fail to pass:" in out and "gate: FAIL" in out


def test_new_property_and_new_unsupported_cell_are_notes_failing_only_with_strict(tmp_path, base_run, capsys):
    """A cell absent from the baseline that is unsupported, or of a new property, is no
    regression by default; --strict fails on them."""
    new = _run(tmp_path, {**BASE, ("V1", 19, 1): "unsupported", ("T1", 19, 0): "pass"})
    status, out = _gate(capsys, new, "--baseline", base_run)
    assert status == 0, out
    assert "note: 1 cell(s) are newly unsupported:" in out and "tansu CreateTopics(19) v1 V1: absent -> unsupported" in out
    assert "note: 1 cell(s) belong to properties new since the baseline:" in out and "v0 T1" in out
    status, out = _gate(capsys, new, "--baseline", base_run, "--strict")
    assert status == 1 and "FAIL: 1 cell(s) are newly unsupported" in out
    # --allow-new-unsupported is about cells that passed: it does not take --strict's meaning away
    status, out = _gate(capsys, new, "--baseline", base_run, "--strict", "--allow-new-unsupported")
    assert status == 1 and "FAIL: 1 cell(s) are newly unsupported" in out
    assert "--allow-new-unsupported let 0 cell(s) through" in out


@pytest.mark.parametrize("was, now", [("pass", "unsupported"), ("pass", "skip"), ("partial", "unsupported"),
                                      ("partial", "skip")])
def test_a_cell_that_passed_and_now_asks_no_test_fails_unless_allowed(tmp_path, capsys, was, now):
    """Issue 55: a verdict the baseline had must not vanish behind "not asked". Without flags
    the gate fails and names the cell; --allow-new-unsupported lets it through, and the
    summary says that it did and how many cells."""
    extra = [row("tansu", "V1", 19, 0, "skip", check="test_v1_other")] if was == "partial" else []
    base = write_run(tmp_path / "base", "run-base", _cells(BASE) + extra, start=T0)
    new = _run(tmp_path, {**BASE, ("V1", 19, 0): now})
    shown = "partial (1 of 2 tests asked)" if was == "partial" else "pass"
    status, out = _gate(capsys, new, "--baseline", base)
    assert status == 1, out
    assert "FAIL: 1 cell(s) went from pass (or partial) to unsupported or skip" in out
    assert f"  tansu CreateTopics(19) v0 V1: {shown} -> {now}  [run-new row 4]" in out
    assert "failing on 1 unasked" in out and "allow" not in out
    status, out = _gate(capsys, new, "--baseline", base, "--allow-new-unsupported")
    assert status == 0, out
    assert "allowed by --allow-new-unsupported: 1 cell(s) went from pass (or partial) to unsupported" in out
    assert f"tansu CreateTopics(19) v0 V1: {shown} -> {now}" in out
    assert out.rstrip().endswith("gate: PASS: 4 cells compared, 3 unchanged (not --strict); --allow-new-unsupported "
                                 "let 1 cell(s) through that went from pass (or partial) to unsupported or skip"), out


def test_allow_new_unsupported_never_covers_pass_to_partial_nor_other_regressions(tmp_path, base_run, capsys):
    rows = _cells({**BASE, ("V1", 19, 0): "unsupported", ("P1", 19, 1): "fail"}) + [row("tansu", "P1", 19, 0, "skip")]
    new = write_run(tmp_path / "new", "run-new", rows, start=T0 + dt.timedelta(hours=1))
    status, out = _gate(capsys, new, "--baseline", base_run, "--allow-new-unsupported")
    assert status == 1, out
    assert "FAIL: 1 cell(s) went from pass to partial" in out and "FAIL: 1 cell(s) went from pass to fail" in out
    assert "allowed by --allow-new-unsupported: 1 cell(s)" in out
    assert "failing on 1 regression, 1 narrowed (not --strict); --allow-new-unsupported let 1 cell(s) through" in out


def test_latest_outcome_decides_and_last_selects_runs(tmp_path, base_run, capsys):
    results = tmp_path / "new"
    _run(tmp_path, {**BASE, ("P1", 19, 0): "fail"}, name="run-1")
    write_run(results, "run-2", _cells(BASE), start=T0 + dt.timedelta(hours=2))  # fixed again later
    assert _gate(capsys, "--results-dir", results, "--baseline", base_run)[0] == 0
    # baseline = latest outcome of the baseline's runs: run-1 (pass->fail) then run-2 (pass)
    assert _gate(capsys, "--results-dir", results, "--baseline", results)[0] == 0
    assert _gate(capsys, results / "run-1", "--baseline", base_run)[0] == 1
    assert _gate(capsys, "--results-dir", results, "--last", "1", "--baseline", base_run)[0] == 0


def test_one_failing_check_of_a_cell_fails_it_whatever_comes_after(tmp_path, base_run, capsys):
    # P1 v1 checked three times in the new run: pass, fail, pass (several tests, one property)
    rows = _cells(BASE) + [row("tansu", "P1", 19, 1, o) for o in ("fail", "pass")]
    new = write_run(tmp_path / "new", "run-new", rows, start=T0 + dt.timedelta(hours=1))
    status, out = _gate(capsys, new, "--baseline", base_run)
    assert status == 1 and "tansu CreateTopics(19) v1 P1: pass -> fail" in out
    assert f"--replay {new}/results.jsonl:5" in out  # the failing row, not the last one


def test_junit_xml_one_testcase_per_compared_cell(tmp_path, base_run, capsys):
    new = _run(tmp_path, {**BASE, ("P1", 19, 1): "fail", ("V1", 19, 0): "unsupported", ("P2", 19, 0): "skip"},
               extra={2: "not json"})
    xml = tmp_path / "gate.xml"
    status, out = _gate(capsys, new, "--baseline", base_run, "--junit", xml)
    assert status == 1 and f"junit: {xml}" in out
    suite = ET.parse(xml).getroot().find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == len(BASE) == int(suite.get("tests"))
    failed = [c for c in cases if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["CreateTopics(19) v0 V1", "CreateTopics(19) v1 P1"]
    assert "pass to fail" in failed[1].find("failure").get("message")
    assert failed[1].get("classname") == "conformance.tansu.CreateTopics"  # CI shows classname.name
    assert f"--broker tansu --replay {new}/results.jsonl:3" in failed[1].find("failure").text  # line 2 is malformed
    assert failed[0].find("failure").get("message").startswith("unasked: went from pass")
    assert [c.get("name") for c in cases if c.find("skipped") is not None] == ["CreateTopics(19) v0 P2"]  # fail -> skip
    assert suite.get("failures") == "2" and suite.get("skipped") == "1" and suite.find("properties") is None
    # let through: a skipped case that says by what, and the suite says the option was used
    status, out = _gate(capsys, new, "--baseline", base_run, "--junit", xml, "--allow-new-unsupported")
    suite = ET.parse(xml).getroot().find("testsuite")
    assert status == 1 and suite.get("failures") == "1" and suite.get("skipped") == "2"
    v1 = next(c for c in suite.findall("testcase") if c.get("name") == "CreateTopics(19) v0 V1")
    assert v1.find("skipped").get("message").endswith("let through by --allow-new-unsupported")
    assert [(p.get("name"), p.get("value")) for p in suite.find("properties")] == [
        ("allow-new-unsupported", "1 cell(s) let through")]


def test_broker_as_compares_a_run_of_another_spec_with_the_baseline(tmp_path, base_run, capsys):
    """A run of ``proxy:none@tansu`` (or kafka-dist:PATH against kafka:4.4.0) shares no cell
    with tansu's baseline; --broker-as compares them, and the lines name what ran."""
    spec = "proxy:none@tansu"
    rows = [row(spec, p, k, v, o, check=f"test_{p.lower()}") for (p, k, v), o in {**BASE, ("P1", 19, 1): "fail"}.items()]
    new = write_run(tmp_path / "new", "run-new", rows, start=T0 + dt.timedelta(hours=1))
    status, out = _gate(capsys, new, "--baseline", base_run)
    assert status == 1 and "share no cell" in out
    status, out = _gate(capsys, new, "--baseline", base_run, "--broker-as", spec, "tansu")
    assert status == 1 and "4 cells compared, 3 unchanged; failing on 1 regression" in out, out
    assert f"the runs' broker {spec} compared as the baseline's tansu (--broker-as)" in out
    assert f"  {spec} CreateTopics(19) v1 P1: pass -> fail" in out and f"--broker {spec} --replay" in out
    both = write_run(tmp_path / "new", "run-both", rows + _cells(BASE), start=T0 + dt.timedelta(hours=2))
    with pytest.raises(gate.ReportError, match="hold cells of both"):
        gate.main([both, "--baseline", base_run, "--broker-as", spec, "tansu"])


def _cli(*argv):
    p = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": ROOT})
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("argv", [
    ["-m", "reports.aggregate", "--results-dir", "/nonexistent/results", "--out", "/tmp/x"],
    ["-m", "reports", "--results-dir", "/nonexistent/results", "--out", "/tmp/x"],
    ["-m", "reports", "/nonexistent/results/run-1", "--out", "/tmp/x"],
    ["-m", "reports.gate", "--results-dir", "/nonexistent/results", "--baseline", "/nonexistent/b.json"],
    ["-m", "reports.dashboard", "--tables", "/nonexistent/tables", "--out", "/tmp/x"],
])
def test_missing_folder_is_a_one_line_error(argv):
    status, out, err = _cli(*argv)
    assert status == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert "/nonexistent/" in err


def test_folder_without_runs_and_bad_baseline_are_one_line_errors(tmp_path, base_run):
    status, _, err = _cli("-m", "reports.aggregate", "--results-dir", str(tmp_path / "base" / "run-base"),
                          "--out", str(tmp_path / "t"))
    assert status == 2 and "no run folders under" in err and err.count("\n") == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    status, _, err = _cli("-m", "reports.gate", base_run, "--baseline", str(bad))
    assert status == 2 and "is not a baseline file" in err and err.count("\n") == 1


def test_an_incomplete_run_is_refused_in_one_line_unless_allowed(tmp_path, base_run, capsys):
    new = write_run(tmp_path / "new", "run-cut", _cells(BASE), start=T0 + dt.timedelta(hours=1), complete=False)
    status, _, err = _cli("-m", "reports.gate", new, "--baseline", base_run)
    assert status == 2 and err.count("\n") == 1 and "is incomplete" in err and "--allow-incomplete" in err
    assert _gate(capsys, new, "--baseline", base_run, "--allow-incomplete")[0] == 0
    nomanifest = write_run(tmp_path / "new", "run-bare", _cells(BASE), start=T0, manifest=False)
    with pytest.raises(gate.ReportError, match="has no manifest.json"):
        gate.main([nomanifest, "--baseline", base_run])


def test_cells_of_the_baseline_missing_from_the_run_fail_the_gate(tmp_path, base_run, capsys):
    part = {k: v for k, v in BASE.items() if k != ("P1", 19, 1)}
    status, out = _gate(capsys, _run(tmp_path, part), "--baseline", base_run)
    assert status == 1 and "FAIL: 1 cell(s) of the baseline were not run:" in out
    assert "tansu CreateTopics(19) v1 P1: pass -> not run" in out


def test_pass_to_error_fails_the_gate(tmp_path, base_run, capsys):
    status, out = _gate(capsys, _run(tmp_path, {**BASE, ("P1", 19, 0): "error"}), "--baseline", base_run)
    assert status == 1 and "FAIL: 1 cell(s) went from pass to error:" in out


def test_no_shared_cell_fails_the_gate(tmp_path, base_run, capsys):
    other = [row("noida", p, k, v, o) for (p, k, v), o in BASE.items()]
    new = write_run(tmp_path / "new", "run-other", other, start=T0 + dt.timedelta(hours=1))
    base = write_run(tmp_path / "b2", "run-b2", other[:0] + [row("tansu", "P9", 19, 0, "pass")], start=T0)
    status, out = _gate(capsys, new, "--baseline", base)
    assert status == 1 and "share no cell" in out and "gate: FAIL: 0 cells compared" in out


def test_a_cell_with_a_test_not_asked_is_partial_not_pass(tmp_path, base_run, capsys):
    """P1 v0 gets a second test that was not asked (unsupported): the cell is partial, never
    pass, whatever order its rows came in, and pass -> partial fails the gate."""
    for unasked in ("unsupported", "skip"):
        rows = _cells(BASE) + [row("tansu", "P1", 19, 0, unasked)]
        new = write_run(tmp_path / unasked, "run-new", rows[::-1], start=T0 + dt.timedelta(hours=1))
        status, out = _gate(capsys, new, "--baseline", base_run)
        assert status == 1, out
        assert "FAIL: 1 cell(s) went from pass to partial" in out
        assert "tansu CreateTopics(19) v0 P1: pass -> partial (1 of 2 tests asked)" in out
    # the same cell asked in full is pass again
    full = write_run(tmp_path / "full", "run-full", _cells(BASE) + [row("tansu", "P1", 19, 0, "pass")],
                     start=T0 + dt.timedelta(hours=2))
    assert _gate(capsys, full, "--baseline", base_run)[0] == 0


def test_a_new_failing_row_inside_a_failing_cell_fails_the_gate(tmp_path, base_run, capsys):
    """P2 v0 failed in the baseline; a second test of it failing now is a new finding."""
    second = row("tansu", "P2", 19, 0, "fail", check="test_p2_other", message="P2: a second finding")
    new = write_run(tmp_path / "new", "run-new", _cells(BASE) + [second], start=T0 + dt.timedelta(hours=1))
    status, out = _gate(capsys, new, "--baseline", base_run)
    assert status == 1 and "FAIL: 1 cell(s) gained a failing row the baseline did not have" in out
    assert "new failing row 5 (test_p2_other): P2: a second finding" in out
    # the baseline's own failing row alone, again: unchanged
    assert _gate(capsys, _run(tmp_path, BASE, name="run-same"), "--baseline", base_run)[0] == 0


def test_failing_rows_without_a_check_are_not_told_apart_and_say_so(tmp_path, capsys):
    """Rows written before the suite wrote ``check``: their messages name each run's topics,
    so a new failing row cannot be told from an old one; the gate says so instead of failing."""
    old = [{k: v for k, v in r.items() if k != "check"} for r in _cells(BASE)]
    base = write_run(tmp_path / "old", "run-old", old, start=T0)
    second = row("tansu", "P2", 19, 0, "fail", check="test_p2_other", message="P2: a second finding")
    new = write_run(tmp_path / "new", "run-new", _cells(BASE) + [second], start=T0 + dt.timedelta(hours=1))
    status, out = _gate(capsys, new, "--baseline", base)
    assert status == 0 and "1 failing cell(s) of the baseline have rows that name no check" in out


def test_a_format_1_baseline_is_read_with_a_note(tmp_path, base_run, capsys):
    path = tmp_path / "old.json"
    assert _gate(capsys, base_run, "--write-baseline", path)[0] == 0
    doc = json.loads(path.read_text())
    doc["format"] = gate.FORMAT_1
    for c in doc["cells"]:
        del c["counts"], c["failing"]
    path.write_text(json.dumps(doc))
    status, out = _gate(capsys, base_run, "--baseline", path)
    assert status == 0 and "format 1" in out and "rewrite it with --write-baseline" in out
