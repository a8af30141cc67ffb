"""The mutation score counts honest kills (issue 11): per test, over a test that passed two
baseline runs (flaky tests left out), and a mutant run that exceeds its time is a survivor,
not a crash."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faults import mutation
from protocol.apis import ApiKey

ROOT = Path(__file__).resolve().parents[1]


def r(test, outcome, broker="proxy:none@noida", prop="P2", api_key=ApiKey.CreateTopics, version=3):
    node = f"conformance/test_x.py::{test}[{broker}-CreateTopics-v{version}]"
    return {"test": node, "broker": broker, "property": prop, "api_key": api_key,
            "api_version": version, "outcome": outcome}


def test_a_kill_is_per_test_not_per_cell():
    # two tests check P2 at CreateTopics v3: one passes, one already fails in the baseline
    base = [r("test_a", "pass"), r("test_b", "fail")]
    passing, flaky = mutation.stable_passes([base, base])
    assert not flaky
    mutant = [r("test_a", "pass", "proxy:m@noida"), r("test_b", "fail", "proxy:m@noida")]
    assert [x for x in mutant if mutation.test_key(x) in passing and x["outcome"] == "fail"] == []
    # the test that passed in the baseline and fails under the mutant is the kill
    mutant[0]["outcome"] = "fail"
    kills = [x for x in mutant if mutation.test_key(x) in passing and x["outcome"] == "fail"]
    assert [mutation.test_key(x)[0] for x in kills] == ["conformance/test_x.py::test_a[<broker>-CreateTopics-v3]"]


def test_a_test_whose_baseline_outcome_varies_is_left_out():
    one = [r("test_a", "pass"), r("test_c", "pass")]
    two = [r("test_a", "fail"), r("test_c", "pass")]
    passing, flaky = mutation.stable_passes([one, two])
    assert {k[0].split("::")[1][:6] for k in flaky} == {"test_a"}
    assert {k[0].split("::")[1][:6] for k in passing} == {"test_c"}
    # a test missing from one baseline run varies too
    passing, flaky = mutation.stable_passes([one, one[1:]])
    assert len(flaky) == 1 and len(passing) == 1


def test_mutants_over_one_broker_share_one_baseline_asking_all_their_properties():
    """One baseline per (broker, options) asks every property its mutants name; different
    options, or P5 (it judges every answer of its run), keep their own; and the scoring
    order starts with mutants of different baselines."""
    from argparse import Namespace
    args = Namespace(broker=None)
    names = mutation.scored_mutants()
    baselines = mutation.Baselines(names, args)
    keys = {}
    for name in names:
        spec, props, extra = mutation.baseline_key(name, args)
        base = baselines.properties(spec, props, extra)
        assert set(props) <= set(base), name
        if "P5" in props:
            assert base == props, (name, base)
        keys.setdefault((spec, extra), set()).add(base)
    # every (broker, options) has one baseline, besides the P5 ones of its own
    for (spec, extra), bases in keys.items():
        assert len([b for b in bases if "P5" not in b]) <= 1, (spec, extra, bases)
    noida = {b for b in keys[("noida", ())] if "P5" not in b}
    assert len(next(iter(noida))) > 5, noida           # many property sets, one baseline
    order = mutation.interleaved(names, args)
    assert sorted(order) == sorted(names)
    first = [mutation.baseline_key(n, args)[::2] for n in order[:len(keys)]]
    assert len(set(first)) == len(keys)


def test_a_mutant_run_past_its_time_survives_with_the_reason():
    proc = subprocess.run([sys.executable, "-m", "faults.mutation", "--mutant", "result-missing",
                           "--timeout", "2", "--broker", "tansu"],
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == 1, proc.stdout + proc.stderr[-2000:]
    assert "result-missing" in proc.stdout and "SURVIVED" in proc.stdout
    assert "timed out after 2 s" in proc.stdout


def test_one_ctrl_c_stops_the_score_and_every_run_under_way(tmp_path):
    """The runs go in sessions of their own (a terminal's Ctrl-C does not reach them): one
    SIGINT to the score's group stops them, with their brokers, and the score says so in
    one line (it used to wait for the run under way and need a second Ctrl-C).

    The score starts with SIGINT at its default, as a terminal's foreground job does: a test
    run started in the background by a script inherits SIGINT *ignored* (POSIX, for an
    asynchronous list without job control), Python then leaves it ignored, and the score
    rightly ran to its end (a CI rehearsal started with ``&`` failed so, on whichever worker
    had not yet installed a SIGINT handler of its own)."""
    keep = tmp_path / "keep"
    proc = subprocess.Popen([sys.executable, "-m", "faults.mutation", "--mutant", "result-missing",
                             "--mutant", "results-emptied", "--broker", "tansu", "--jobs", "2",
                             "--profile", "release", "--keep", str(keep)],
                            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 240
        while not any(f.stat().st_size for f in keep.glob("*/results.jsonl")):   # a run is checking
            assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()[1][-2000:]
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)             # what Ctrl-C in a terminal does
        out, err = proc.communicate(timeout=150)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "interrupted" in err.splitlines()[-1], err[-2000:]
    ps = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    left = [line for line in ps.splitlines() if str(keep) in line]
    assert not left, left
    for manifest in keep.glob("*/manifest.json"):   # each run stopped as Ctrl-C stops one
        assert json.loads(manifest.read_text())["complete"] is False, manifest


@pytest.mark.slow
def test_a_kill_after_one_baseline_run_stands_only_when_its_test_passes_once_more():
    """After a single whole baseline run, a mutant's quickest kills are asked again, alone,
    through the transparent proxy (faults.mutation.confirm_kills): through ``proxy:none`` the
    killing tests pass and the kills stand; asked through the mutant itself they fail, as a
    flaky test would, and none stands."""
    from argparse import Namespace
    args = Namespace(broker=None, profile="ci", seed=mutation.DEFAULT_SEED, keep=None, timeout=300.0)
    baselines = mutation.Baselines(["result-missing"], args)
    run = mutation.mutant_run("result-missing", args, baselines)
    try:
        assert run.whole == 1 and "its killing tests twice" in run.which, run.which
        keys = {mutation.test_key(r) for r in mutation.leading(run.kills())}
        assert keys and all(k[0] for k in keys), run.note
        assert mutation.confirm_kills(run.base, keys, args) == keys
        spec, props, extra = run.base
        mutant = f"proxy:result-missing@{spec}"
        through = f"proxy:none@{mutant}"
        rows, _ = mutation.run_suite(through, props, args, extra, tests=[k[0].replace("<broker>", through) for k in keys])
        assert [r["outcome"] for r in rows] == ["fail"] * len(keys), rows     # each asked alone, each failed
        assert mutation.confirm_kills((mutant, props, extra), keys, args) == set()
    finally:
        run.folder.cleanup()


# a whole score (a baseline run, the mutant's run, its kills again, 30 s): the slow tier, with the
# project's mutant scoring (tests/test_proxy.py), whose every run stops at its first kill
@pytest.mark.slow
def test_a_mutant_run_stops_at_its_first_kill(tmp_path):
    """The mutant's run ends at the first baseline-pass test that fails (faults/stop_at_kill.py):
    the rest could only kill the same mutant again. Its last row is that kill, and its
    manifest says the run was stopped for it, never that it is complete."""
    keep = tmp_path / "keep"
    proc = subprocess.run([sys.executable, "-m", "faults.mutation", "--mutant", "result-missing", "--keep", str(keep)],
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "killed" in proc.stdout, proc.stdout + proc.stderr[-2000:]
    run = next((keep / "result-missing").glob("*/manifest.json")).parent
    manifest = json.loads((run / "manifest.json").read_text())
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    assert manifest["complete"] is False and "faults.stop_at_kill" in manifest["incomplete_reason"], manifest
    assert rows[-1]["outcome"] == "fail" and manifest["checks_selected"] > len(rows), (manifest, rows[-1])


def test_a_mutant_run_asks_the_tests_of_the_apis_it_touches_first(tmp_path):
    """``faults.stop_at_kill`` orders a mutant's run: the tests of its ``apis`` first, each
    module's own, those modules first (collected only: no broker starts); a mutant that
    touches every API keeps the suite's order."""
    keys = tmp_path / "keys"
    keys.write_text("", encoding="utf-8")

    def collected(spec, prop):
        proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "--collect-only", "-q",
                               "-p", "no:cacheprovider", "-p", "faults.stop_at_kill", f"--stop-at-kill={keys}",
                               "--broker", spec, "--property", prop, "--results-dir", str(tmp_path / "r")],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        return [line for line in proc.stdout.splitlines() if "::" in line]
    first = collected("proxy:stale-correlation-id-describe-cluster@noida", "P1")
    touched = [i for i, t in enumerate(first) if "-DescribeCluster-v" in t]
    assert touched and touched == list(range(len(touched))), first[:5]
    assert len(first) > len(touched) + 100          # the rest is still asked, after them
    plain = collected("proxy:mute@noida", "P1")     # mute touches every API
    assert [t.replace("mute", "x") for t in plain] != [t.replace("stale-correlation-id-describe-cluster", "x")
                                                       for t in first]
    assert sorted(t.replace("mute", "x") for t in plain) == sorted(
        t.replace("stale-correlation-id-describe-cluster", "x") for t in first)
    assert not any("-DescribeCluster-v" in t for t in plain[:3]), plain[:3]


def test_a_single_baseline_asks_only_the_tests_of_the_apis_its_mutants_touch(tmp_path):
    """``Baselines.apis``: the APIs the mutants sharing a baseline touch, when every one names
    them (not ``mute``'s, which touches every API; P5's baselines ask every test);
    ``faults.select_apis`` then leaves only those APIs' tests (collected only)."""
    from argparse import Namespace
    args = Namespace(broker=None)
    names = mutation.scored_mutants()
    baselines = mutation.Baselines(names, args)
    kafka = [n for n in names if mutation.baseline_key(n, args)[0] == "kafka:4.4.0"
             and "P5" not in mutation.baseline_key(n, args)[1]]
    apis = {baselines.apis(*mutation.baseline_key(n, args)) for n in kafka}
    assert len(apis) == 1 and ApiKey.DescribeCluster in next(iter(apis)), apis
    assert baselines.apis(*mutation.baseline_key("mute", args)) == ()
    assert baselines.apis(*mutation.baseline_key("quota-never-enforced", args)) == ()
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance/test_protocol.py", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "-p", "faults.select_apis",
                           f"--only-apis={ApiKey.DescribeCluster},{ApiKey.ListGroups}", "--broker", "proxy:none@noida",
                           "--property", "P1", "--results-dir", str(tmp_path / "r")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    asked = [line for line in proc.stdout.splitlines() if "::" in line]
    assert proc.returncode == 0 and asked, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert {t.rsplit("-", 2)[1] for t in asked} == {"DescribeCluster", "ListGroups"}, asked
