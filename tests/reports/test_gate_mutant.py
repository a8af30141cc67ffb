"""A mutant run shows the gate's default (issue 55, item 2): tansu, then tansu behind
``proxy:unadvertise=60`` (faults/mutants/advertised.py: its ApiVersions answers stop listing
DescribeCluster, which the broker still serves). The suite rightly calls the mutant's
DescribeCluster cells ``unsupported``, citing the advertised versions; the gate of that run
against the clean one fails without flags, naming exactly the cells that went pass ->
unsupported, and passes with ``--allow-new-unsupported``, saying so.

Both runs ask D1 (DeleteTopics, which the mutant leaves alone: its cells stay as they were)
and P6 at DescribeCluster, with one seed, the ci profile and no shrinking. Rows keep the
full broker spec (docs/mutation.md), so the mutant run's broker is compared as tansu with
``--broker-as``: without it the two runs share no cell. The suite and the gate run as
users run them, in subprocesses."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.brokers import TargetError, make_target

ROOT = Path(__file__).resolve().parents[2]
MUTANT = "proxy:unadvertise=60@tansu"        # 60: DescribeCluster (KIP-700)
#: P6 at DescribeCluster and D1 (the broker spec in the node ids names no API: the key is a number)
SELECT = ("--property", "P6", "--property", "D1", "-k", "DescribeCluster or test_d1")


def suite(tmp_path: Path, broker: str) -> Path:
    """One run of the suite against ``broker``; its run folder."""
    where = tmp_path / broker.replace(":", "_").replace("@", "_").replace("=", "_")
    (where / "scratch").mkdir(parents=True)
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(where / "last-run"), PYTHONPATH=str(ROOT),
               TMPDIR=str(where / "scratch"))
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
                           "--broker", broker, "--profile", "ci", "--seed", "20260501", "--shrink-seconds", "0",
                           "--results-dir", str(where / "results"), *SELECT],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert not list((where / "scratch").glob("kac-*")), "a broker folder was left behind"
    return Path((where / "last-run").read_text().strip())


def rows(run: Path) -> dict:
    with open(run / "results.jsonl", encoding="utf-8") as fh:
        return {(r["property"], r["api_name"], r["api_version"]): r for r in map(json.loads, fh)}


def gate(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reports.gate", *map(str, argv)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def test_a_broker_that_stopped_advertising_an_api_fails_the_gate_unless_allowed(tmp_path):
    clean, mutant = suite(tmp_path, "tansu"), suite(tmp_path, MUTANT)
    before, after = rows(clean), rows(mutant)
    assert before.keys() == after.keys()
    lost = sorted(k for k, r in before.items() if r["outcome"] == "pass" and after[k]["outcome"] == "unsupported")
    assert lost and {k[1] for k in lost} == {"DescribeCluster"}, lost
    assert all(after[k]["message"] == "broker does not advertise DescribeCluster (API 60)" for k in lost)
    assert all(after[k]["outcome"] == r["outcome"] for k, r in before.items() if k[1] != "DescribeCluster")
    assert {k[0] for k in before} == {"D1", "P6"}

    g = gate(mutant, "--baseline", clean, "--broker-as", MUTANT, "tansu")
    assert g.returncode == 1, g.stdout + g.stderr
    named = [line for line in g.stdout.splitlines() if line.startswith(f"  {MUTANT} ")]
    assert named == [f"  {MUTANT} DescribeCluster(60) v{k[2]} P6: pass -> unsupported  [{after[k]['run_id']} "
                     f"row {after[k]['row_id']}]  broker does not advertise DescribeCluster (API 60)"
                     for k in lost], g.stdout
    assert f"FAIL: {len(lost)} cell(s) went from pass (or partial) to unsupported or skip" in g.stdout
    assert f"; failing on {len(lost)} unasked (not --strict)" in g.stdout      # and on nothing else

    g = gate(mutant, "--baseline", clean, "--broker-as", MUTANT, "tansu", "--allow-new-unsupported")
    assert g.returncode == 0, g.stdout + g.stderr
    assert g.stdout.rstrip().endswith(f"--allow-new-unsupported let {len(lost)} cell(s) through that went from "
                                      "pass (or partial) to unsupported or skip"), g.stdout


@pytest.mark.parametrize("spec, says", [
    ("proxy:unadvertise@tansu", "write proxy:unadvertise=API@SPEC"),
    ("proxy:unadvertise=Nope@tansu", "no API is named 'Nope'"),
    ("proxy:unadvertise=99999@tansu", "an API key is an int16"),
    ("proxy:unadvertise=ApiVersions@tansu", "a broker answers ApiVersions"),
])
def test_the_mutants_argument_is_checked_before_any_broker_starts(spec, says):
    with pytest.raises(TargetError, match=says):
        make_target(spec)
    assert make_target("proxy:unadvertise=DescribeCluster@tansu").mutant_cls.name == "unadvertise"
