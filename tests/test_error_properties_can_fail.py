"""P4, P5 and P6 can fail: each is run, as users run the suite, against a broker behind the
fault-injecting proxy with a mutant that breaks exactly what the property checks, and its
row for some (API, version) is ``fail`` there while the same cell passes through the
transparent proxy (``proxy:none@BROKER``). One suite run per property holds every broker
spec (the baseline and its mutants), so each is started once. The broker is noida, except
for P5: its rows pass only where the run provoked a gated code, and noida provokes none,
while Apache Kafka answers UNKNOWN_TOPIC_ID to DeleteTopics v6 / Metadata v12 for unknown
ids (so the older versions' cells are judged).

Also: the traffic log folds a finding seen by one check into the P5 row of its cell.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
INNER = {"P4": "noida", "P5": "kafka:4.4.0", "P6": "noida"}
#: P5 asks every admin API (issue 26); its mutants touch these three, so its run asks only
#: them (over all 50 APIs, four Kafka brokers take longer than the run's 600 s)
ONLY = {"P5": ("-k", "CreateTopics or CreatePartitions or DeleteTopics")}

#: property -> (module, mutants that must be killed)
CASES = {
    "P4": ("conformance/test_version_equivalence.py",
           ("old-create-drops-configs", "old-delete-kip4-error", "old-create-partitions-ignores-validate-only")),
    "P5": ("conformance/test_error_codes.py",
           ("throttling-before-kip599", "deletion-disabled-before-v3", "delete-policy-on-released-versions")),
    "P6": ("conformance/test_error_messages.py",
           ("error-message-dropped", "error-message-on-success")),
}


def run_suite(tmp_path: Path, module: str, prop: str, specs) -> list[dict]:
    args = [sys.executable, "-m", "pytest", module, "-q", "-p", "no:cacheprovider",
            "--property", prop, "--profile", "ci", "--seed", "1",
            "--results-dir", str(tmp_path / "results"), *ONLY.get(prop, ())]
    for s in specs:
        args += ["--broker", s]
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    files = sorted((tmp_path / "results").glob("*/results.jsonl"))
    assert files, proc.stdout[-2000:]
    return read_rows(files[-1])


def cells(rows, spec, prop):
    return {(r["api_key"], r["api_version"]): r for r in rows
            if r["broker"] == spec and r["property"] == prop}


@pytest.mark.parametrize("prop", sorted(CASES))
def test_property_fails_through_its_mutants_and_not_through_the_transparent_proxy(tmp_path, prop):
    module, mutants = CASES[prop]
    baseline = f"proxy:none@{INNER[prop]}"
    rows = run_suite(tmp_path, module, prop, [baseline] + [f"proxy:{m}@{INNER[prop]}" for m in mutants])
    base = cells(rows, baseline, prop)
    assert base, f"no {prop} rows for {baseline}"
    assert not [r for r in base.values() if r["outcome"] == "error"], base
    passing = {c for c, r in base.items() if r["outcome"] == "pass"}
    assert passing, f"{prop}: no cell passes through {baseline}"
    for m in mutants:
        mutated = cells(rows, f"proxy:{m}@{INNER[prop]}", prop)
        killed = sorted(c for c in passing if mutated.get(c, {}).get("outcome") == "fail")
        assert killed, (f"{prop} did not fail through mutant {m} on any cell that passes through "
                        f"{baseline}: {[(c, r['outcome'], r['message']) for c, r in sorted(mutated.items())]}")
        for c in killed:
            assert mutated[c]["message"] and mutated[c]["counterexample"]["steps"], mutated[c]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")
def test_a_p5_finding_in_another_checks_traffic_fails_the_p5_row_of_its_cell():
    from types import SimpleNamespace

    from conformance import test_error_codes  # noqa: F401  (registers the P5 screen)
    from fixtures import traffic
    from fixtures.harness import Check, CheckContext, Violation, step
    from fixtures import judge

    log = traffic.TrafficLog()
    context = CheckContext("b", "kac-x-", request_timeout=1.0, traffic=log)
    p2 = Check(context, "P2", "", 19, 3)
    ok = {"throttle_time_ms": 0, "topics": [{"name": "t", "error_code": 0, "error_message": None}]}
    bad = {"throttle_time_ms": 0, "topics": [{"name": "t", "error_code": 89, "error_message": None}]}
    request = {"topics": [{"name": "t"}], "timeout_ms": 1}

    def seen(version, body):      # one answer of P2's, as the client hands it to the screens
        at = p2.record_step(step(19, version, request))
        log.observe(p2, 19, version, request, SimpleNamespace(response=body), judge.Answer("ok", body), at)

    seen(3, ok)
    seen(6, bad)        # 89 is allowed from v6
    p5 = Check(context, "P5", "", 19, 3)
    assert traffic.judge_seen(p5, "P5", 19, 3) == 1
    seen(3, bad)
    with pytest.raises(Violation, match=r"seen by P2 CreateTopics v3: .*THROTTLING_QUOTA_EXCEEDED \(89\) at v3"):
        traffic.judge_seen(p5, "P5", 19, 3)
    assert p5.counterexample.as_dict()["input"] == {"body": request}
    steps = p5.counterexample.as_dict()["steps"]
    # the judged request comes last, after what P2 sent before it (the state it was answered in)
    assert [s["api_version"] for s in steps] == [3, 6, 3]


def test_a_renew_poll_is_judged_on_the_checks_own_answer_and_never_resent_in_process():
    """P5's drain: a reproducer re-sends the drain's last request under fresh topic names
    (``renew``); in-process the check sent those new requests itself, so a failing renew
    expectation is the check's verdict at once, never a resend of the same request (which
    would only answer TOPIC_ALREADY_EXISTS)."""
    from fixtures.harness import Check, CheckContext, Violation, step
    from fixtures import judge

    check, resent = Check(CheckContext("b", "kac-x-", request_timeout=1.0), "P5", "", 19, 7), []
    at = check.record_step(step(19, 7, {}), resend=lambda: resent.append(1) or check.record_step(step(19, 7, {})))
    check.answers[at] = judge.Answer("ok", {"topics": [{"name": "kac-x-d", "error_code": 0}]})
    with pytest.raises(Violation, match="answer 89"):
        check.expect_data({"kind": "field", "path": ["topics", "error_code"], "in": [89], "min_count": 1,
                           "retry_s": 30.0, "renew": {"max": 200, "burst": 22.0, "rate": 2.0, "margin": 1.25},
                           "says": "the quota's strict CreateTopics answer 89"}, step=at)
    assert not resent
