"""The installed package, used as a broker project's CI uses it (docs/ci.md, "The CI
recipe"): the wheel built from this checkout, installed with its ``reports`` extra into a
fresh virtual environment (no system site-packages; pip may use its cache), and run from a
folder that is not the checkout, so only what the wheel carries is there.

Slow (it builds a wheel, installs pyspark and runs the suite and Spark): not in the fast tier.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "kafka-admin-conformance"


def _env(venv: Path) -> dict:
    """The environment of a CI job that installed the package: the venv first on PATH, none
    of the checkout's or tox's settings (KAC_*, PYTHONPATH)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("KAC_") and k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    # -v: pip shows the build backend's own output, and its warnings, only then
    p = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-v", "-w", str(dist)],
                       cwd=dist, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    warned = [ln.strip() for ln in (p.stdout + p.stderr).splitlines() if "Warning:" in ln or "deprecated" in ln]
    assert not warned, warned          # e.g. setuptools' "`project.license` as a TOML table is deprecated"
    wheel = next(dist.glob("kafka_admin_conformance-*.whl"))
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    f"{wheel}[reports]", "-c", str(ROOT / "requirements" / "ci.txt")],
                   check=True, cwd=dist, env=_env(venv))
    return venv


@pytest.fixture
def job(tmp_path, venv):
    """Runs a command of the installed package in a folder outside the checkout."""
    work = tmp_path / "ci-job"
    work.mkdir()

    def run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
        return subprocess.run([*args], cwd=work, env=_env(venv), capture_output=True, text=True, timeout=timeout)
    run.cwd = work
    return run


def _one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


def test_the_suite_is_the_installed_one(job, venv):
    p = job("python", "-c", "import conformance, fixtures; print(conformance.__file__); print(fixtures.__file__)")
    assert p.returncode == 0, p.stderr
    for line in p.stdout.split():
        assert Path(line).is_relative_to(venv) and not Path(line).is_relative_to(ROOT), p.stdout


def test_help_and_bad_input_are_one_line(job):
    p = job(COMMAND, "--help")
    assert p.returncode == 0 and "run" in p.stdout and "gate" in p.stdout, p.stdout + p.stderr
    for sub in ("run", "report", "gate", "repro", "known"):
        p = job(COMMAND, sub, "--help")
        assert p.returncode == 0 and "usage:" in p.stdout, (sub, p.stdout, p.stderr)
    p = job(COMMAND, "run", "--broker", "nope")
    assert p.returncode == 4
    assert _one_line(p.stderr).startswith("ERROR: unknown broker spec 'nope'")
    assert not (job.cwd / "report").exists()
    p = job(COMMAND, "frobnicate")
    assert p.returncode == 2 and "unknown command 'frobnicate'" in _one_line(p.stderr)
    p = job(COMMAND, "gate")
    assert p.returncode == 2 and _one_line(p.stderr).startswith("error: nothing to do")


def test_the_recipe_writes_results_dashboard_summary_and_reproducers(job):
    """The CI recipe's run step (docs/ci.md) against tansu, narrowed to two properties, in
    a broker project's folder with a pytest configuration of its own (which the suite's
    run does not take: ``-c conformance/suite.ini``)."""
    (job.cwd / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "--a-broker-projects-own-option"\n')
    start = time.monotonic()
    p = job(COMMAND, "run", "--broker", "tansu", "--profile", "ci", "--property", "P1", "--property", "D1",
            "--out", "report")
    took = time.monotonic() - start
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    runs = sorted((job.cwd / "results").glob("*/results.jsonl"))
    assert len(runs) == 1, p.stdout[-2000:]
    rows = runs[0].read_text(encoding="utf-8").splitlines()
    report = job.cwd / "report"
    assert (report / "index.html").is_file(), p.stdout[-2000:]
    summary = (report / "SUMMARY.md").read_text(encoding="utf-8")
    assert "## Per API" in summary and runs[0].parent.name in summary
    assert len(summary.encode()) < 64_000           # small enough for a CI job summary
    fails = sum('"outcome": "fail"' in r or '"outcome":"fail"' in r for r in rows)
    if fails:        # every failing row gets a reproducer, linked from the summary
        repros = list((report / "repro" / runs[0].parent.name).glob("*/repro.py"))
        assert repros, p.stdout[-2000:]
        assert "](repro/" in summary
    print(f"run: {len(rows)} rows ({fails} fail) in {took:.0f}s")


def test_pytest_pyargs_runs_the_suite_and_no_other_run_loads_it(job):
    """``pytest --pyargs conformance`` from another folder runs the suite (the pytest11
    entry point loads its plugins); a project's own pytest run in the same environment
    does not get them."""
    p = job("pytest", "--pyargs", "conformance", "--broker", "tansu", "--profile", "ci", "--property", "D1",
            "-q", "-p", "no:cacheprovider")
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert list((job.cwd / "results").glob("*/results.jsonl")), p.stdout[-2000:]
    (job.cwd / "test_own.py").write_text("def test_own():\n    pass\n")
    p = job("pytest", "test_own.py", "-q", "-p", "no:cacheprovider")
    assert p.returncode == 0 and "1 passed" in p.stdout, p.stdout + p.stderr
    p = job("pytest", "test_own.py", "--broker", "tansu", "-q", "-p", "no:cacheprovider")
    assert p.returncode == 4 and "--broker" in p.stderr, p.stdout + p.stderr
