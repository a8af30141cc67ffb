"""S1 bounds hypothesis's shrinking by setting the engine's ``MAX_SHRINKING_SECONDS`` (a module
global hypothesis leaves monkeypatchable, ``conformance/stateful/driver.py``) and puts it
back after every check: after a passing one, after a failing one, and when the block
raises. A second property, or a second run in the same process, shrinks with hypothesis's
own limit again, or with its own: a ``check.given`` check shrinks under its profile's
GIVEN_SHRINK_SECONDS (``fixtures/shrinking.py``), also put back after it.

The S1 checks run as users run them, in a subprocess, with ``tests/shrink_limit_probe.py``
reading the global before each check, while hypothesis's engine runs and shrinks, and after
it. The passing row is S1's baseline from tests/test_stateful_can_fail.py
(``proxy:none@proxy:kafka-s1-shim@noida``, Metadata); the failing one is tansu's Metadata row
(tansu answers Metadata with topics that were not asked).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis.internal.conjecture import engine

from conformance.stateful.driver import SHRINK_SECONDS
from fixtures.shrinking import GIVEN_SHRINK_SECONDS, SHRINK_LIMIT, shrinking_limited_to
from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
PASSING = "proxy:none@proxy:kafka-s1-shim@noida"
FAILING = "tansu"


def test_the_limit_is_set_inside_and_restored_after_the_block_also_when_it_raises():
    before = getattr(engine, SHRINK_LIMIT)
    with shrinking_limited_to(before + 7):
        assert getattr(engine, SHRINK_LIMIT) == before + 7
    assert getattr(engine, SHRINK_LIMIT) == before
    with pytest.raises(KeyError):
        with shrinking_limited_to(before + 8):
            assert getattr(engine, SHRINK_LIMIT) == before + 8
            raise KeyError("a check that fails")
    assert getattr(engine, SHRINK_LIMIT) == before


def test_a_limit_that_was_absent_is_absent_again():
    before = getattr(engine, SHRINK_LIMIT)
    delattr(engine, SHRINK_LIMIT)
    try:
        with shrinking_limited_to(5):
            assert getattr(engine, SHRINK_LIMIT) == 5
        assert not hasattr(engine, SHRINK_LIMIT)
    finally:
        setattr(engine, SHRINK_LIMIT, before)


def _probed_run(tmp: Path, module: str, prop: str, selection: str, specs: list[str],
                *extra: str) -> tuple[list, list]:
    """Run ``module``'s ``prop`` checks selected by ``selection`` (``-k``) against ``specs``
    at the ci profile with the probe: (the rows, the probe's records: the session's, then
    one per check)."""
    probe = tmp / "probe.jsonl"
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp / "last-run"))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", module, "-q", "-p", "no:cacheprovider",
         "-p", "tests.shrink_limit_probe", "--probe-shrink-limit", str(probe),
         "--property", prop, "--profile", "ci", "--seed", "1", "-k", selection,
         *[a for spec in specs for a in ("--broker", spec)], "--results-dir", str(tmp / "results"), *extra],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = read_rows(Path((tmp / "last-run").read_text().strip()) / "results.jsonl")
    return rows, [json.loads(line) for line in probe.read_text().splitlines()]


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
    rows, records = _probed_run(tmp_path_factory.mktemp("s1-limit"), "conformance/test_stateful.py", "S1",
                                "Metadata", [FAILING, PASSING])
    return {r["broker"]: r for r in rows}, records[0]["session"], {
        next(spec for spec in (PASSING, FAILING) if f"[{spec}-" in r["test"]): r for r in records[1:]}


@pytest.mark.parametrize("spec,outcome", [(PASSING, "pass"), (FAILING, "fail")])
def test_after_an_s1_check_hypothesis_has_its_own_limit_again(probed, spec, outcome):
    rows, session, checks = probed
    assert rows[spec]["outcome"] == outcome, rows[spec]
    limit = SHRINK_SECONDS["ci"]
    assert session != limit, session                 # else restoring could not be told from not
    check = checks[spec]
    assert check["before"] == session, check          # the check before it left it as it was
    assert check["run"] and set(check["run"]) == {limit}, check     # the engine ran under S1's limit
    if outcome == "fail":
        assert check["shrink_interesting_test_cases"] == [limit], check
    assert check["after"] == session, check


def test_no_limit_leaves_the_engine_alone():
    before = getattr(engine, SHRINK_LIMIT)
    with shrinking_limited_to(None):
        assert getattr(engine, SHRINK_LIMIT) == before
    assert getattr(engine, SHRINK_LIMIT) == before


def test_a_given_check_shrinks_within_its_profiles_limit_and_restores_it(tmp_path):
    """A ``check.given`` failure shrinks under ``GIVEN_SHRINK_SECONDS`` of the profile
    (fixtures/shrinking.py) and leaves the engine's limit as it found it: C1 on tansu, which
    fails (tansu accepts values Kafka refuses), at the ci profile."""
    rows, records = _probed_run(tmp_path, "conformance/test_configs.py", "C1", "v1", [FAILING])
    assert [r["outcome"] for r in rows] == ["fail"], rows
    session, (check,) = records[0]["session"], records[1:]
    limit = GIVEN_SHRINK_SECONDS["ci"]
    assert session != limit, session
    assert check["before"] == session and check["after"] == session, check
    assert set(check["run"]) == {limit} and check["shrink_interesting_test_cases"] == [limit], check
    assert check["shrink_phase"] == [True], check


@pytest.mark.parametrize("module,prop,selection", [("conformance/test_configs.py", "C1", "v1"),
                                                   ("conformance/test_stateful.py", "S1", "Metadata")])
def test_with_shrink_seconds_0_a_failure_is_reported_unshrunk(tmp_path, module, prop, selection):
    """``--shrink-seconds 0`` (mutant runs: faults/mutation.py, tests/family_matrix.py): the
    engine reaches its shrink step without the shrink phase, so hypothesis reports its first
    failing example (S1's own minimising pass still runs after it); the check still fails,
    with its counterexample."""
    rows, records = _probed_run(tmp_path, module, prop, selection, [FAILING], "--shrink-seconds", "0")
    assert [r["outcome"] for r in rows] == ["fail"] and rows[0]["counterexample"], rows
    (check,) = records[1:]
    assert check["shrink_phase"] == [False], check


def test_a_negative_shrink_limit_is_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
                           "--shrink-seconds", "-1", "--results-dir", str(tmp_path / "results")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    err = proc.stderr.strip()
    assert proc.returncode == 4 and err == "ERROR: --shrink-seconds -1: give 0 or more seconds (0: no shrinking)", \
        proc.stdout + proc.stderr
