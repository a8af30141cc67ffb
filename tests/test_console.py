"""The installed command and plugin without installing anything (fast): which command lines
load the suite's plugins (conformance/entry.py), the command's usage and one-line errors
(fixtures/console.py), and the Markdown summary of runs (reports/summary.py). The package
itself, built and installed, is tests/test_package.py."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conformance import entry
from fixtures import console
from reports import summary, synthetic

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("paths, pyargs, loads", [
    (["conformance"], True, True),
    (["conformance.test_topics"], True, True),
    (["conformance::x"], True, True),
    (["conformance"], False, True),                     # the checkout's folder, by path
    (["conformance/test_topics.py::test_x"], False, True),
    (["tests"], False, False),
    (["tests/test_layout.py"], False, False),
    (["conformance_other"], True, False),
    ([], False, False),
])
def test_the_plugin_loads_only_for_the_suite(paths, pyargs, loads):
    assert entry.names_the_suite(paths, pyargs, ROOT) is loads


def test_conftest_names_the_entry_points_plugins():
    """One list of the suite's plugins: conftest.py takes entry.SUITE_PLUGINS (pytest
    registers each by module name once, whichever loads it first)."""
    tree = ast.parse((ROOT / "conformance" / "conftest.py").read_text(encoding="utf-8"))
    imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "conformance.entry"
                for a in n.names]
    assert imported == ["SUITE_PLUGINS"]


def test_usage_and_one_line_errors(capfd):
    assert console.main(["--help"]) == 0
    out = capfd.readouterr().out
    assert all(c in out for c in ("run", "report", "gate", "repro", "known"))
    assert console.main([]) == 2
    capfd.readouterr()
    assert console.main(["frobnicate"]) == 2
    err = capfd.readouterr().err.strip()
    assert err.count("\n") == 0 and "unknown command 'frobnicate'" in err
    assert console.main(["gate"]) == 2                       # reports.gate's own one-line error
    err = capfd.readouterr().err.strip()
    assert err == "error: nothing to do: give --baseline BASELINE (and/or --write-baseline FILE)"
    with pytest.raises(SystemExit) as exc:
        console.run_parser().parse_args(["--help"])
    assert exc.value.code == 0


def test_summary_counts_per_api_and_links_new_findings(tmp_path):
    rows = [synthetic.row(api_key=19, outcome="pass"), synthetic.row(api_key=19, outcome="fail", message="boom | x"),
            synthetic.row(api_key=20, outcome="unsupported"), synthetic.row(api_key=20, outcome="error")]
    run = synthetic.write_run(tmp_path / "results", "20261101T000000Z-aaaaaa", rows)
    out = tmp_path / "report"
    report = out / "repro" / Path(run).name / "2" / "REPORT.md"
    report.parent.mkdir(parents=True)
    report.write_text("x")
    assert summary.main([run, "--out", str(out), "--known", "none"]) == 0
    text = (out / "SUMMARY.md").read_text(encoding="utf-8")
    assert "**1 new finding(s)**; 4 rows: 1 pass, 1 fail, 1 error, 1 unsupported." in text
    assert "| CreateTopics | 1 | 1 | 0 | 0 | 0 |" in text
    assert "| DeleteTopics | 0 | 0 | 1 | 1 | 0 |" in text
    assert f"[repro](repro/{Path(run).name}/2/REPORT.md)" in text
    assert "boom \\| x" in text                                  # a pipe cannot break the table


def test_summary_of_no_run_is_one_line(tmp_path, capsys):
    from reports.cli import run
    assert run(summary.main, ["--results-dir", str(tmp_path), "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err.startswith("error: no run folders under")


def test_run_asks_as_many_workers_as_cpus_unless_told():
    """``run`` (tox -e conformance) gives the suite ``--jobs`` twice the CPUs, so ``--broker
    kafka:VERSION`` runs its companions and shards side by side; not where the user chose
    ``--jobs``, nor with ``--junitxml`` (one file, which every worker would write)."""
    import os
    cpus = str(console.JOBS_PER_CPU * len(os.sched_getaffinity(0)))
    assert console.default_jobs(["--broker", "kafka:4.4.0"]) == ["--jobs", cpus]
    assert console.default_jobs([]) == ["--jobs", cpus]
    for given in (["--jobs", "1"], ["--jobs=3"], ["--junitxml", "x.xml"], ["--junitxml=x.xml"]):
        assert console.default_jobs(["--broker", "kafka:4.4.0", *given]) == [], given


def test_ctrl_c_on_run_lets_the_suite_close_its_run_as_interrupted(tmp_path):
    """Ctrl-C reaches ``run`` and the suite (one process group): ``run`` waits for the suite
    to close its run (``complete: false``, why and when it ended) and stop its broker, then
    exits 130 and writes no report."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time
    results, out = tmp_path / "results", tmp_path / "report"
    proc = subprocess.Popen([sys.executable, "-m", "fixtures.console", "run", "--broker", "tansu", "--profile", "ci",
                             "--results-dir", str(results), "--out", str(out)], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        for line in proc.stdout:                    # until the suite asks its checks
            if line.startswith("[conformance] tansu: "):
                break
        time.sleep(1)
        os.killpg(proc.pid, signal.SIGINT)
        rest, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130 and err.strip().splitlines()[-1] == "kafka-admin-conformance: error: interrupted", err
    manifest = json.loads(next(results.glob("*/manifest.json")).read_text())
    assert manifest["complete"] is False and manifest["ended_at"], manifest
    assert manifest["incomplete_reason"].startswith("interrupted (Ctrl-C or pytest.exit) after "), manifest
    assert not out.exists()
