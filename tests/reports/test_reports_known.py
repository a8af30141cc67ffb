"""Known deviations of Apache Kafka: the list is read strictly, a row is known only when
the entry names its build, property, release line, message and request shape, and the
gate reports a known deviation instead of a regression (reports/known.py)."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from reports import gate, known
from reports.cli import ReportError
from reports.synthetic import T0, row, write_run

TIMEOUT = "no valid answer: AlterConfigs v0: timeout (no answer within 15.0s)"


def _alter_configs(names, outcome="fail", version="4.4.0", prop="V1", message=TIMEOUT):
    r = row("kafka:x", prop, 33, 0, outcome, broker_impl="apache-kafka", broker_version=version)
    if outcome == "fail":
        r["message"] = message
        r["counterexample"] = {"steps": [
            {"api_key": 19, "api_version": 7, "request": {"topics": []}},
            {"api_key": 33, "api_version": 0, "request": {"validate_only": True, "resources": [
                {"resource_type": 2, "resource_name": n, "configs": []} for n in names]}}]}
    return r


@pytest.mark.parametrize("changed,is_known", [
    ({}, True),                                              # the defect itself
    ({"names": ["t", "u"]}, False),                          # the same symptom, no duplicate: new
    ({"version": "5.0.0"}, False),                           # a release the entry does not list
    ({"prop": "T2"}, False),                                 # a property the entry does not list
    ({"message": "AlterConfigs v0: answered 42"}, False),    # another symptom
])
def test_a_row_is_known_only_when_every_part_of_the_entry_matches(changed, is_known):
    args = {"names": ["t", "x", "t"], **changed}
    entries = known.read()
    assert (known.classify(_alter_configs(**args), entries) is not None) == is_known


def test_the_checker_passes_known_rows_and_fails_on_a_new_one(tmp_path, capsys):
    ok = write_run(tmp_path / "a", "run-a", [_alter_configs(["t", "t"]), _alter_configs([], "pass")], start=T0)
    assert known.main([ok, "--require-kafka"]) == 0
    assert "known deviation alter-configs-duplicate-resource-never-answered: 1 row(s)" in capsys.readouterr().out
    bad = write_run(tmp_path / "b", "run-b", [_alter_configs(["t", "t"]), _alter_configs(["t", "u"])], start=T0)
    assert known.main([bad]) == 1
    out = capsys.readouterr().out
    assert "NEW: kafka:x AlterConfigs v0 V1 fail" in out and "1 fail/error row(s) not in" in out


def test_require_kafka_fails_a_run_without_kafka_rows(tmp_path, capsys):
    run = write_run(tmp_path / "a", "run-a", [row("tansu", "P1", 19, 0, "pass")], start=T0)
    assert known.main([run]) == 0
    assert known.main([run, "--require-kafka"]) == 1
    assert "no row of an Apache Kafka broker" in capsys.readouterr().out


def test_a_malformed_list_is_one_line(tmp_path):
    bad = tmp_path / "k.json"
    bad.write_text(json.dumps({"format": known.FORMAT, "deviations": [{"id": "x"}]}))
    with pytest.raises(ReportError, match="entry 1 lacks broker_impl"):
        known.read(str(bad))
    bad.write_text("{")
    with pytest.raises(ReportError, match="is not JSON"):
        known.read(str(bad))


def test_the_gate_reports_a_known_deviation_not_a_regression(tmp_path, capsys):
    base = write_run(tmp_path / "base", "run-base", [_alter_configs([], "pass")], start=T0)
    later = T0 + dt.timedelta(hours=1)
    same = write_run(tmp_path / "new1", "run-1", [_alter_configs(["t", "t"])], start=later)
    assert gate.main([same, "--baseline", base]) == 0
    assert "fail as a known deviation of Apache Kafka" in capsys.readouterr().out
    other = write_run(tmp_path / "new2", "run-2", [_alter_configs(["t", "u"])], start=later)
    assert gate.main([other, "--baseline", base]) == 1
    assert "went from pass to fail" in capsys.readouterr().out
    assert gate.main([same, "--baseline", base, "--known-deviations", "none"]) == 1


COLLIDES = ("CreateTopics v7: 'kac-1-pair-3_b': NONE, expected INVALID_TOPIC_EXCEPTION "
            "(collides with 'kac-1-pair-3.b' earlier in the same request ('.' vs '_'))")


def _create_topics(names, prop="T1", message=COLLIDES, version="4.1.0", api_version=7):
    r = row("kafka:x", prop, 19, api_version, "fail", broker_impl="apache-kafka", broker_version=version)
    r["message"] = message
    r["counterexample"] = {"steps": [{"api_key": 19, "api_version": api_version, "request": {
        "timeout_ms": 5000, "validate_only": False, "topics": [
            {"name": n, "num_partitions": 1, "replication_factor": 1, "assignments": [],
             "configs": [{"name": "retention.ms", "value": "3600000"}]} for n in names]}}]}
    return r


@pytest.mark.parametrize("changed,is_known", [
    ({}, True),                                                          # the defect itself
    ({"names": ["kac-1-pair-3_b", "kac-1-pair-3.b"]}, True),            # '_' first
    ({"prop": "S1", "message": "kac-..-x_y: NONE, expected INVALID_TOPIC_EXCEPTION (collides with "
                               "kac-..-x.y earlier in the same request ('.' vs '_'))\n# S1, focus CreateTopics"},
     True),
    ({"api_version": 0, "version": "3.9.2"}, True),
    ({"names": ["kac-1-pair-3.b", "kac-1-pair-3-b"]}, False),           # no '.'/'_' pair in the request
    ({"names": ["kac-1-pair-3.b", "kac-1-pair-4_b"]}, False),           # different stems
    ({"message": "CreateTopics v7: 'kac-1-pair-3_b': INVALID_CONFIG, expected INVALID_TOPIC_EXCEPTION "
                 "(collides with 'kac-1-pair-3.b' earlier in the same request ('.' vs '_'))"}, False),
    ({"message": "CreateTopics v7: 'kac-1-pair-3_b' (collides with 'kac-1-pair-3.b'): answered 0 NONE; "
                 "Kafka answers 17 INVALID_TOPIC_EXCEPTION"}, False),   # the collision with an existing topic
    ({"prop": "V2"}, False),
    ({"version": "3.8.1"}, False),
])
def test_the_batch_collision_entry_matches_only_its_finding(changed, is_known):
    """create-topics-colliding-names-in-one-request-both-created: the property's message for
    that one finding and a CreateTopics naming two names that differ by one '.'/'_'."""
    args = {"names": ["kac-1-pair-3.b", "kac-1-pair-3_b"], **changed}
    k = known.classify(_create_topics(**args), known.read())
    assert (k is not None and k.id == "create-topics-colliding-names-in-one-request-both-created") == is_known


UNKNOWN_OP = ("1 of 10 kinds of invalid input deviate: unknown operation [OP4 compression.type='uncompressed']: "
              "IncrementalAlterConfigs v1 answered -1 UNKNOWN_SERVER_ERROR (None), Kafka means 42 INVALID_REQUEST")


@pytest.mark.parametrize("op,message,is_known", [
    (4, UNKNOWN_OP, True),
    (-3, UNKNOWN_OP, True),
    (2, UNKNOWN_OP, False),                                   # APPEND is an operation: not this shape
    (4, UNKNOWN_OP.replace("-1 UNKNOWN_SERVER_ERROR", "40 INVALID_CONFIG"), False),   # another answer
])
def test_the_unknown_operation_entry_matches_only_its_finding(op, message, is_known):
    r = row("kafka:x", "C4", 44, 1, "fail", broker_impl="apache-kafka", broker_version="4.4.0")
    r["message"] = message
    r["counterexample"] = {"steps": [{"api_key": 44, "api_version": 1, "request": {"validate_only": False, "resources": [
        {"resource_type": 2, "resource_name": "kac-1-c4-3", "configs": [
            {"name": "compression.type", "config_operation": op, "value": "uncompressed"},
            {"name": "retention.ms", "config_operation": 0, "value": "3600000"}]}]}}]}
    k = known.classify(r, known.read())
    assert (k is not None and k.id == "incremental-alter-configs-unknown-operation-fails-the-controller-over") == is_known
