"""Known deviations of Apache Kafka: the list is read strictly, a row is known only when the
entry matches its whole shape (build, property, its dedicated test, release line, the whole
message, the request shape), a cell is known only when every failing row in it is, and the
gate reports a known deviation instead of a regression but never lets one cover a new
failing row (reports/known.py, reports/gate.py)."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from reports import gate, known
from reports.cli import ReportError
from reports.synthetic import T0, row, write_run

DEDICATED = "test_c4_alter_configs_naming_one_resource_twice_answers_invalid_request_for_both"
C4 = "test_c4_invalid_config_changes_get_kafkas_error_and_change_nothing"
TIMEOUT = ("AlterConfigs v0: expected same resource twice: one entry per requested resource (2), each 42 "
           "INVALID_REQUEST; got timeout (no answer within 15.0s) (the first example the broker left unanswered, "
           "not shrunk: a silent broker costs one request timeout per check)")
NEW_KIND = ("AlterConfigs v0: expected unknown key: one entry per requested resource (1), each 40 INVALID_CONFIG; "
            "got 0 NONE")


def _alter_configs(names, outcome="fail", version="4.4.0", prop="C4", message=TIMEOUT, check=DEDICATED):
    r = row("kafka:x", prop, 33, 0, outcome, broker_impl="apache-kafka", broker_version=version)
    r["check"] = check
    if outcome == "fail":
        r["message"] = message
        r["counterexample"] = {"test": check.split("[")[0], "steps": [
            {"api_key": 19, "api_version": 7, "request": {"topics": []}},
            {"api_key": 33, "api_version": 0, "request": {"validate_only": False, "resources": [
                {"resource_type": 2, "resource_name": n, "configs": []} for n in names]}}]}
    return r


def _second_kind(outcome="fail"):
    """C4's unknown-key kind failing beside the known defect: a new finding."""
    return _alter_configs(["t"], outcome, message=NEW_KIND, check=f"{C4}[kind=unknown key]")


@pytest.mark.parametrize("changed,is_known", [
    ({}, True),                                              # the defect itself
    ({"names": ["t", "u"]}, False),                          # the same symptom, no duplicate: new
    ({"version": "5.0.0"}, False),                           # a release the entry does not list
    ({"prop": "V1"}, False),                                 # a property the entry does not name
    ({"check": C4 + "[kind=unknown topic]"}, False),         # another check than the dedicated one
    ({"message": "AlterConfigs v0: answered 42"}, False),    # another symptom
    ({"message": TIMEOUT + " | unknown key [SET x=1]: answered 0 NONE"}, False),   # a second finding in the row
    ({"message": "V1: " + TIMEOUT}, False),                  # anchored at the start too
    ({"outcome": "error"}, False),                           # an error is no finding
])
def test_a_row_is_known_only_when_every_part_of_the_entry_matches(changed, is_known):
    args = {"names": ["t", "x", "t"], **changed}
    outcome = args.pop("outcome", "fail")
    r = _alter_configs(**args)
    if outcome != "fail":
        r = {**r, "outcome": outcome}
    assert (known.classify(r, known.read()) is not None) == is_known


def test_the_dedicated_test_is_read_from_check_counterexample_or_node_id():
    r = _alter_configs(["t", "t"])
    assert known.classify(r, known.read()) is not None
    del r["check"]
    assert known.classify(r, known.read()) is not None          # counterexample.test
    r["counterexample"].pop("test")
    r["test"] = f"conformance/test_configs.py::{DEDICATED}[kafka:4.4.0-AlterConfigs-v0]"
    assert known.classify(r, known.read()) is not None          # the pytest node id
    r["test"] = f"conformance/test_configs.py::{C4}[kafka:4.4.0-AlterConfigs-v0-unknown-key]"
    assert known.classify(r, known.read()) is None


def test_the_checker_passes_known_rows_and_fails_on_a_new_one(tmp_path, capsys):
    ok = write_run(tmp_path / "a", "run-a", [_alter_configs(["t", "t"]), _alter_configs([], "pass")], start=T0)
    assert known.main([ok, "--require-kafka"]) == 0
    assert "known deviation alter-configs-duplicate-resource-never-answered: 1 row(s)" in capsys.readouterr().out
    bad = write_run(tmp_path / "b", "run-b", [_alter_configs(["t", "t"]), _alter_configs(["t", "u"])], start=T0)
    assert known.main([bad]) == 1
    out = capsys.readouterr().out
    assert "NEW: kafka:x AlterConfigs v0 C4 fail" in out and "1 fail/error row(s) not in" in out


def test_a_second_c4_kind_failing_beside_the_known_one_is_new(tmp_path, capsys):
    """The rule the issue names: C4's cell holds the known row and a second kind's failing
    row; the second is a finding of its own, so the checker fails."""
    run = write_run(tmp_path / "a", "run-a", [_alter_configs(["t", "t"]), _second_kind()], start=T0)
    assert known.main([run]) == 1
    out = capsys.readouterr().out
    assert "known deviation alter-configs-duplicate-resource-never-answered: 1 row(s)" in out
    assert "NEW: kafka:x AlterConfigs v0 C4 fail" in out and "unknown key" in out


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
    bad.write_text(json.dumps({"format": "kafka-admin-conformance/known-deviations/1", "deviations": []}))
    with pytest.raises(ReportError, match="not a known-deviations file"):
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


def test_a_known_row_never_covers_a_new_one_in_its_cell(tmp_path, capsys):
    """A C4 cell: the dedicated check's known row and the unknown-key kind's row. Whether the
    baseline cell passed or already failed as known, the new row fails the gate."""
    later = T0 + dt.timedelta(hours=1)
    both = write_run(tmp_path / "new", "run-new", [_alter_configs(["t", "t"]), _second_kind()], start=later)
    passed = write_run(tmp_path / "b1", "run-b1", [_alter_configs([], "pass"), _second_kind("pass")], start=T0)
    assert gate.main([both, "--baseline", passed]) == 1
    assert "went from pass to fail" in capsys.readouterr().out
    was_known = write_run(tmp_path / "b2", "run-b2", [_alter_configs(["t", "t"]), _second_kind("pass")], start=T0)
    assert gate.main([both, "--baseline", was_known]) == 1
    out = capsys.readouterr().out
    assert "FAIL: 1 cell(s) gained a failing row the baseline did not have" in out
    assert "new failing row 2 (test_c4_invalid_config_changes_get_kafkas_error_and_change_nothing[kind=unknown key])" \
        in out
    # through a baseline file too
    path = tmp_path / "baseline.json"
    assert gate.main([was_known, "--write-baseline", str(path)]) == 0
    assert gate.main([both, "--baseline", str(path)]) == 1
    # the same two failing rows in the baseline: nothing new, the gate passes
    assert gate.main([both, "--baseline", both]) == 0


T1_DEDICATED = "test_t1_a_name_colliding_with_an_earlier_name_of_the_same_request_answers_invalid_topic_exception"
#: T1's verdict on a colliding pair, either way round (one answers NONE, the other 17)
COLLIDES = ("CreateTopics v7: expected 'kac-1-pair-3.b' / 'kac-1-pair-3_b': exactly one answers 0 NONE (the one "
            "created keeps the other out, whichever it is); got 2 value(s) 0 NONE, 0 NONE, expected 1")


def _create_topics(names, prop="T1", message=COLLIDES, version="4.1.0", api_version=7, check=T1_DEDICATED):
    r = row("kafka:x", prop, 19, api_version, "fail", broker_impl="apache-kafka", broker_version=version)
    r["message"], r["check"] = message, check
    r["counterexample"] = {"steps": [{"api_key": 19, "api_version": api_version, "request": {
        "timeout_ms": 5000, "validate_only": False, "topics": [
            {"name": n, "num_partitions": 1, "replication_factor": 1, "assignments": [],
             "configs": [{"name": "retention.ms", "value": "3600000"}]} for n in names]}}]}
    return r


@pytest.mark.parametrize("changed,is_known", [
    ({}, True),                                                          # the defect itself
    ({"names": ["kac-1-pair-3_b", "kac-1-pair-3.b"]}, True),            # '_' first
    ({"names": ["kac-1-pair-3_b", "kac-1-pair-3.b"],
      "message": COLLIDES.replace("'kac-1-pair-3.b' / 'kac-1-pair-3_b'", "'kac-1-pair-3_b' / 'kac-1-pair-3.b'")}, True),
    ({"message": COLLIDES.replace("_b': exactly", "_b' (validate_only): exactly")}, True),   # validate_only
    ({"message": COLLIDES.replace("'kac-1-pair-3.b' /", "'kac-1-pair-4.b' /")}, False),   # not one pair
    ({"api_version": 0, "version": "3.9.2", "message": COLLIDES.replace("v7", "v0")}, True),
    ({"names": ["kac-1-pair-3.b", "kac-1-pair-3-b"]}, False),           # no '.'/'_' pair in the request
    ({"names": ["kac-1-pair-3.b", "kac-1-pair-4_b"]}, False),           # different stems
    ({"message": COLLIDES.replace("0 NONE, 0 NONE", "0 NONE, 40 INVALID_CONFIG")}, False),
    ({"message": "CreateTopics v7: 'kac-1-pair-3_b' (collides with 'kac-1-pair-3.b'): answered 0 NONE; "
                 "Kafka answers 17 INVALID_TOPIC_EXCEPTION"}, False),   # the collision with an existing topic
    # S1 meeting the same shape is not the entry's dedicated check: on the brokers the entry
    # names S1 never draws it, so such a row is a finding of its own
    ({"prop": "S1", "check": "test_s1_random_admin_sequences_keep_the_broker_equal_to_the_model",
      "message": "kac-..-x_y: NONE, expected INVALID_TOPIC_EXCEPTION (collides with kac-..-x.y earlier in the "
                 "same request ('.' vs '_'))"}, False),
    ({"prop": "V2"}, False),
    ({"version": "3.2.3"}, False),                                       # a line the entry does not list
])
def test_the_batch_collision_entry_matches_only_its_finding(changed, is_known):
    """create-topics-colliding-names-in-one-request-both-created: its dedicated T1 check's
    whole message for that one finding and a CreateTopics naming two names that differ by one
    '.'/'_'."""
    args = {"names": ["kac-1-pair-3.b", "kac-1-pair-3_b"], **changed}
    k = known.classify(_create_topics(**args), known.read())
    assert (k is not None and k.id == "create-topics-colliding-names-in-one-request-both-created") == is_known


UNKNOWN_OP = ("IncrementalAlterConfigs v1: expected unknown operation: one entry per requested resource (1), each "
              "42 INVALID_REQUEST; got -1 UNKNOWN_SERVER_ERROR")


@pytest.mark.parametrize("op,message,check,is_known", [
    (4, UNKNOWN_OP, "[kind=unknown operation]", True),
    (-3, UNKNOWN_OP, "[kind=unknown operation]", True),
    (2, UNKNOWN_OP, "[kind=unknown operation]", False),        # APPEND is an operation: not this shape
    (4, UNKNOWN_OP.replace("-1 UNKNOWN_SERVER_ERROR", "40 INVALID_CONFIG"), "[kind=unknown operation]", False),
    (4, "1 of 10 kinds of invalid input deviate: " + UNKNOWN_OP, "[kind=unknown operation]", False),   # anchored
    (4, UNKNOWN_OP, "[kind=unknown key]", False),              # another kind's row
])
def test_the_unknown_operation_entry_matches_only_its_finding(op, message, check, is_known):
    r = row("kafka:x", "C4", 44, 1, "fail", broker_impl="apache-kafka", broker_version="4.4.0")
    r["message"], r["check"] = message, C4 + check
    r["counterexample"] = {"steps": [{"api_key": 44, "api_version": 1, "request": {"validate_only": False, "resources": [
        {"resource_type": 2, "resource_name": "kac-1-c4-3", "configs": [
            {"name": "compression.type", "config_operation": op, "value": "uncompressed"},
            {"name": "retention.ms", "config_operation": 0, "value": "3600000"}]}]}}]}
    k = known.classify(r, known.read())
    assert (k is not None and k.id == "incremental-alter-configs-unknown-operation-fails-the-controller-over") == is_known


D6_NEITHER = "test_d6_an_entry_naming_neither_name_nor_id_answers_invalid_request"


def _neither(spec="kafka:3.9.2,mode=zk", version="3.9.2", check=D6_NEITHER):
    """D6's dedicated row for a DeleteTopics v6 entry naming nothing, as a ZooKeeper-mode
    broker answers it."""
    r = row(spec, "D6", 20, 6, "fail", broker_impl="apache-kafka", broker_version=version)
    r["check"] = check
    r["message"] = ("DeleteTopics v6: expected one entry with neither name nor id: 42 INVALID_REQUEST; "
                    "got 29 TOPIC_AUTHORIZATION_FAILED")
    r["counterexample"] = {"steps": [{"api_key": 20, "api_version": 6, "request": {"timeout_ms": 30000, "topics": [
        {"name": None, "topic_id": {"$uuid": "00000000-0000-0000-0000-000000000000"}}]}}]}
    return r


@pytest.mark.parametrize("spec,version,is_known", [
    ("kafka:3.9.2,mode=zk", "3.9.2", True),                     # ZooKeeper mode, where it was measured
    ("proxy:none@kafka:3.7.2,mode=zk,preset=acl", "3.7.2", True),
    ("kafka:3.9.2", "3.9.2", False),                             # the same line in KRaft mode: new
    ("kafka:4.0.2", "4.0.2", False),
    ("kafka:3.2.3,mode=zk", "3.2.3", False),                    # a line it was not measured on
])
def test_an_entry_matches_only_the_modes_and_lines_it_was_reproduced_on(spec, version, is_known):
    assert (known.classify(_neither(spec, version), known.read()) is not None) == is_known


def test_a_zookeeper_mode_entry_matches_only_its_dedicated_check():
    """D6's generic check meeting the same shape is not the entry's dedicated check (it leaves
    the shape out on the brokers the entry names)."""
    generic = "test_d6_topics_can_be_deleted_by_id_and_unknown_ids_answer_unknown_topic_id"
    assert known.classify(_neither(check=generic), known.read()) is None


@pytest.mark.parametrize("spec,version,is_known", [
    ("kafka:3.3.2", "3.3.2", True),                  # KRaft, the oldest line measured
    ("kafka:3.3.2,mode=zk", "3.3.2", True),          # the entry lists no modes: ZooKeeper mode too
    ("kafka:4.4.0", "4.4.0", True),
    ("kafka:3.2.3", "3.2.3", False),
])
def test_the_alter_configs_entry_covers_the_lines_and_modes_measured(spec, version, is_known):
    r = _alter_configs(["t", "t"])
    r["broker"], r["broker_version"] = spec, version
    assert (known.classify(r, known.read()) is not None) == is_known


C2_DEDICATED = "test_c2_concurrent_incremental_writers_on_disjoint_keys_lose_no_update"
C2_HISTORY = ("DescribeConfigs v4: expected every read shows each key's initial value or a write sent before it "
              "was answered, never an older write than a read answered before it was sent, and every write "
              "acknowledged 1s before it was sent; got 1 read(s) broke the history: ")
UNDONE = ("the read of step 9 shows retention.ms='604800000', older than '2000000' that the read of step 7 "
          "(answered before it was sent) showed: a write was undone (lost update)")
UNSEEN = ("the read of step 20 shows retention.ms='604800000', but retention.ms='2000000' was acknowledged "
          "1.018s before it was sent: a lost update")
INVENTED = ("the read of step 20 shows retention.ms='5': neither its initial value '604800000' nor a value "
            "written to it by then")


def _concurrent_writers(message, broker="kafka:3.9.2,mode=zk", version="3.9.2"):
    r = row(broker, "C2", 44, 1, "fail", broker_impl="apache-kafka", broker_version=version)
    r["message"], r["check"] = message, C2_DEDICATED
    r["counterexample"] = {"input": {"clients": [[1, 1, 1], [1, 1, 1]]}, "steps": [
        {"api_key": 44, "api_version": 1, "request": {"resources": [
            {"resource_type": 2, "resource_name": "kac-1-t", "configs": [
                {"name": "retention.ms", "config_operation": 0, "value": "2000000"}]}], "validate_only": False}}]}
    return r


@pytest.mark.parametrize("message,broker,is_known", [
    (C2_HISTORY + UNDONE, "kafka:3.9.2,mode=zk", True),          # a later read shows an older write
    (C2_HISTORY + UNSEEN, "kafka:3.9.2,mode=zk", True),          # a read misses an acknowledged write
    (C2_HISTORY + UNSEEN + " (intermittent: the same input passed when sent again)", "kafka:3.9.2,mode=zk", True),
    (C2_HISTORY + UNDONE + "; " + UNSEEN, "kafka:3.9.2,mode=zk", True),
    (C2_HISTORY + INVENTED, "kafka:3.9.2,mode=zk", False),       # a value nobody wrote: not the race
    (C2_HISTORY + UNSEEN + "; " + INVENTED, "kafka:3.9.2,mode=zk", False),
    (C2_HISTORY + UNSEEN, "kafka:3.9.2", False),                 # KRaft serialises the writes: new
])
def test_the_concurrent_writers_entry_matches_each_form_of_a_lost_update_in_zookeeper_mode(message, broker, is_known):
    """incremental-alter-configs-concurrent-writers-lose-updates: the history check's two forms
    of a lost write (a read going back, a read missing a write acknowledged before it), seen on
    ZooKeeper-mode 3.x (the 2026-11-27 matrix: the second on kafka:3.9.2,mode=zk), and nothing
    else: a value never written is another finding, and KRaft mode is not listed."""
    k = known.classify(_concurrent_writers(message, broker), known.read())
    assert (k is not None and k.id == "incremental-alter-configs-concurrent-writers-lose-updates") == is_known
