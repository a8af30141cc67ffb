"""The installed package, used as a broker project's CI uses it (docs/ci.md, "The CI
recipe"): the wheel built from this checkout, installed with its ``reports`` extra into a
fresh virtual environment (no system site-packages; pip may use its cache), and run from a
folder that is not the checkout, so only what the wheel carries is there. The recipe's own
lines (read from docs/ci.md) run against tansu and against kafka:4.4.0, each narrowed to a
property or two; the wheel and the venv are built once for the module.

Slow (it builds a wheel, installs pyspark and runs the suite and Spark): not in the fast tier.
"""
from __future__ import annotations

import json
import os
import re
import shlex
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


def test_the_wheel_carries_the_broker_plugins_sources(job, venv):
    """The policy preset compiles the suite's broker plugins when a Kafka broker starts
    (fixtures/brokers/kafka.py ``build_plugins``) from Java sources the wheel carries as
    package data of ``fixtures.brokers`` (pyproject.toml); the recipe's runs start no such broker."""
    p = job("python", "-c", "from fixtures.brokers.kafka import PLUGIN_SOURCES as s; "
                            "print(s); print(*sorted(p.name for p in s.glob('*.java')))")
    assert p.returncode == 0, p.stderr
    folder, names = p.stdout.splitlines()
    assert Path(folder).is_relative_to(venv), folder
    assert names.split() == sorted(s.name for s in (ROOT / "fixtures" / "brokers" / "plugins").glob("*.java"))
    assert len(names.split()) == 4          # the two policies, their base class and their log


def test_help_and_bad_input_are_one_line(job):
    p = job(COMMAND, "--help")
    assert p.returncode == 0 and "run" in p.stdout and "gate" in p.stdout, p.stdout + p.stderr
    for sub in ("run", "report", "gate", "repro", "known"):
        p = job(COMMAND, sub, "--help")
        assert p.returncode == 0 and "usage:" in p.stdout, (sub, p.stdout, p.stderr)
    p = job(COMMAND, "run", "--broker", "nope")          # refused by run itself, before the suite starts
    assert p.returncode == 2
    assert _one_line(p.stderr).startswith("kafka-admin-conformance: error: unknown broker spec 'nope'")
    assert not (job.cwd / "report").exists()
    p = job(COMMAND, "frobnicate")
    assert p.returncode == 2 and "unknown command 'frobnicate'" in _one_line(p.stderr)
    p = job(COMMAND, "gate")
    assert p.returncode == 2 and _one_line(p.stderr).startswith("error: nothing to do")


#: The broker of docs/ci.md's recipe, which a leg of the test replaces with its own spec.
RECIPE_BROKER = "bootstrap:localhost:9092"
#: spec -> the narrow selection each leg appends to the recipe's run line (docs/ci.md says
#: so): tansu's two properties give failing rows, hence reproducers; kafka:4.4.0 (the
#: reference, started from Maven Central's jars) gets one property, to keep CI's cost low.
LEGS = {
    "tansu": ("--property", "P1", "--property", "D1"),
    "kafka:4.4.0": ("--property", "D1"),
}


def recipe() -> list[list[str]]:
    """The suite's commands in docs/ci.md's recipe, as written there: the first code block
    of "The CI recipe", continuation lines joined, without the lines of other tools (python,
    pip, cat) and the comments."""
    section = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8").split("## The CI recipe", 1)[1]
    block: list[str] = []
    for line in section.splitlines():
        if line.startswith("    "):
            block.append(line[4:])
        elif line.strip() and block:
            break
    text = "\n".join(b for b in block if not b.lstrip().startswith("#")).replace("\\\n", " ")
    return [shlex.split(line) for line in text.splitlines() if line.startswith(COMMAND + " ")]


def test_the_recipe_is_what_the_test_runs():
    """The two commands of the suite the recipe has, its broker the one a leg replaces."""
    run, gate = recipe()
    assert run[:2] == [COMMAND, "run"] and RECIPE_BROKER in run and "--junitxml" in run, run
    assert gate[:2] == [COMMAND, "gate"] and "--baseline" in gate, gate


@pytest.mark.parametrize("spec", LEGS)
def test_the_recipe_writes_results_dashboard_summary_and_reproducers(job, spec):
    """docs/ci.md's recipe, its two commands as written there, against ``spec`` instead of
    an external broker, narrowed to LEGS[spec]; in a broker project's folder with a pytest
    configuration of its own (which the suite's run does not take: ``-c
    conformance/suite.ini``). The gate compares the run with a baseline written from it, as
    a release's run writes it (``gate --write-baseline``)."""
    from conformance import catalogue      # the checkout's, to compare with what the wheel wrote
    (job.cwd / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "--a-broker-projects-own-option"\n')
    run_line, gate_line = recipe()
    start = time.monotonic()
    p = job(*[spec if a == RECIPE_BROKER else a for a in run_line], *LEGS[spec])
    took = time.monotonic() - start
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    runs = sorted((job.cwd / "results").glob("*/results.jsonl"))
    assert len(runs) == 1, p.stdout[-2000:]
    rows = [json.loads(r) for r in runs[0].read_text(encoding="utf-8").splitlines()]
    assert rows and {r["property"] for r in rows} <= set(LEGS[spec][1::2]), {r["property"] for r in rows}
    report = job.cwd / "report"
    assert (report / "index.html").is_file(), p.stdout[-2000:]
    junit = (report / "junit.xml").read_text(encoding="utf-8")
    assert "<testcase" in junit
    summary = (report / "SUMMARY.md").read_text(encoding="utf-8")
    assert "## Per API" in summary and runs[0].parent.name in summary
    assert len(summary.encode()) < 64_000           # small enough for a CI job summary
    fails = [r for r in rows if r["outcome"] == "fail"]
    if spec == "tansu":
        assert fails, "tansu's P1 and D1 rows give the reproducers something to export"
    if fails:        # every failing row gets a reproducer, linked from the summary
        repros = list((report / "repro" / runs[0].parent.name).glob("*/repro.py"))
        assert repros, p.stdout[-2000:]
        assert "](repro/" in summary
        # REPORT.md says what the property checks (the catalogue's column, which the wheel
        # reads from its property modules: docs/properties.md is not packaged)
        what = {t: w.replace("\\|", "|") for _, _, t, w in catalogue.rows()}
        for r in repros[:5]:
            text = r.with_name("REPORT.md").read_text(encoding="utf-8")
            line = next(ln for ln in text.splitlines() if ln.startswith("- property "))
            test = next(ln for ln in text.splitlines() if "found by kafka-admin-conformance" in ln)
            name = re.search(r"\(`(test_\w+)`\)", test).group(1)
            assert line.endswith(f": {what[name]}"), (line, what[name])
    # the gate, as the recipe runs it, against a baseline written from this run
    p = job(COMMAND, "gate", "--results-dir", "results", "--write-baseline", "baseline.json")
    assert p.returncode == 0 and (job.cwd / "baseline.json").is_file(), p.stdout[-2000:] + p.stderr[-2000:]
    p = job(*gate_line)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "<testsuite" in (report / "gate.xml").read_text(encoding="utf-8")
    print(f"{spec}: run: {len(rows)} rows ({len(fails)} fail) in {took:.0f}s")


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
