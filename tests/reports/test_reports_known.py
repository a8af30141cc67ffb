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


def _neither(spec="kafka:3.9.2,mode=zk", version="3.9.2"):
    """D6's row for a DeleteTopics v6 entry naming nothing, as a ZooKeeper-mode broker answers it."""
    r = row(spec, "D6", 20, 6, "fail", broker_impl="apache-kafka", broker_version=version)
    r["message"] = ("v6: an entry with neither name nor id answered 29 TOPIC_AUTHORIZATION_FAILED, "
                    "expected 42 INVALID_REQUEST")
    r["counterexample"] = {"steps": [{"api_key": 20, "api_version": 6, "request": {"timeout_ms": 30000, "topics": [
        {"name": None, "topic_id": {"$uuid": "00000000-0000-0000-0000-000000000000"}}]}}]}
    return r


@pytest.mark.parametrize("spec,version,is_known", [
    ("kafka:3.9.2,mode=zk", "3.9.2", True),                     # ZooKeeper mode, where it was measured
    ("proxy:none@kafka:3.7.2,mode=zk,preset=acl", "3.7.2", True),
    ("kafka:3.9.2", "3.9.2", False),                             # the same line in KRaft mode: new
    ("kafka:4.0.2", "4.0.2", False),
])
def test_an_entry_matches_only_the_modes_and_lines_it_was_reproduced_on(spec, version, is_known):
    assert (known.classify(_neither(spec, version), known.read()) is not None) == is_known


def test_every_entry_lists_exactly_the_lines_of_the_targets_it_was_measured_on():
    """``releases`` (KRaft) and ``zk_releases`` are the lines of ``measured``, nothing more,
    and every entry says how it reproduces (python -m fixtures.known)."""
    for e in known.read():
        d = e.doc
        kraft = sorted({known.release_line(s.split(":")[1]) for s in d["measured"] if ",mode=zk" not in s})
        zk = sorted({known.release_line(s.split(":")[1]) for s in d["measured"] if ",mode=zk" in s})
        assert (sorted(d["releases"]), sorted(d.get("zk_releases", []))) == (kraft, zk), d["id"]
        assert d.get("reproduce", "no-answer") in ("no-answer", "error-code", "lost-update"), d["id"]
