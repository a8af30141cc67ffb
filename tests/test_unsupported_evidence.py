"""``unsupported`` only with evidence that the broker lacks the feature (issue 55).

A broker that advertises an API and then refuses it is a finding (``fail``); a refused set-up
step is an ``error``; ``unsupported`` cites what shows the feature missing: the advertised
versions, a release rule, a setting the broker showed, a finalized feature level
(``reference/switches.py``). Each place that used to call a broker's refusal ``unsupported``
is asked here through a proxy fault that refuses what the broker advertises
(``faults/mutants/refused.py``), on tansu and noida; the Kafka cases are in
``tests/test_unsupported_evidence_kafka.py``.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.results import read_rows
from fixtures.brokers import TargetError, make_target
from reference import switches

ROOT = Path(__file__).resolve().parents[1]


def rows_of(tmp_path, broker: str, *args: str) -> list[dict]:
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last"), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
                           "--broker", broker, "--results-dir", str(tmp_path / "r"), "--profile", "ci",
                           "--seed", "1", "--shrink-seconds", "0", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    rows = read_rows(Path((tmp_path / "last").read_text().strip()) / "results.jsonl")
    assert rows, proc.stdout[-2000:]
    return rows


def asked(rows: list[dict], outcome: str, says: str) -> None:
    """Every row of a version the broker advertises has ``outcome`` and a message holding ``says``."""
    at = [r for r in rows if "not v" not in (r["message"] or "")]
    assert at, rows
    for r in at:
        assert r["outcome"] == outcome and says in r["message"], r


# -- the switches, as data -------------------------------------------------------------------

CONSUMER = switches.CONSUMER_GROUPS
PROTOCOLS = "group.coordinator.rebalance.protocols"


@pytest.mark.parametrize("finalized,shown,line,off", [
    ({"metadata.version": 27, "group.version": 1}, {PROTOCOLS: "classic,consumer"}, (4, 4), None),
    ({"metadata.version": 27, "group.version": 1}, {}, (4, 4), None),     # shows no setting: 4.x's default
    ({}, {}, (4, 4), None),                     # a broker that shows nothing (tansu): nothing turns it off
    ({"metadata.version": 27, "group.version": 0}, {}, (4, 4), "group.version at level 0"),
    ({"metadata.version": 27}, {}, (4, 4), "no group.version"),
    ({"metadata.version": 27, "group.version": 1}, {PROTOCOLS: "classic"}, (4, 4), "=classic, without 'consumer'"),
    ({"metadata.version": 21}, {}, (3, 9), "Kafka 3.9's default leaves"),
    ({"metadata.version": 21}, {PROTOCOLS: "classic,consumer"}, (3, 9), None),
    ({"metadata.version": 21}, {PROTOCOLS: "classic"}, (3, 9), "=classic"),
])
def test_the_consumer_protocol_is_off_only_with_evidence(finalized, shown, line, off):
    why = CONSUMER.off(finalized, shown, line, "kraft")
    assert (why is None) == (off is None), why
    if off is not None:
        assert off in why, why


def test_delegation_tokens_are_off_below_metadata_version_3_6_iv2_in_kraft_only():
    tokens = switches.DELEGATION_TOKENS
    assert "metadata.version at level 13" in tokens.off({"metadata.version": 13}, {}, (3, 6), "kraft")
    assert tokens.off({"metadata.version": 14}, {}, (3, 6), "kraft") is None
    assert tokens.off({}, {}, (3, 9), "zk") is None           # ZooKeeper mode: no metadata.version
    assert tokens.off({}, {}, (4, 4), "kraft") is None        # no finalized features read: no evidence


@pytest.mark.parametrize("arg,says", [("Nonsense", "'Nonsense' is no API"), ("DescribeAcls:NOPE", "'NOPE' is no error"),
                                      ("DescribeConfigs", "no top-level error code"), ("", "names no API")])
def test_a_bad_refusal_argument_is_one_line(arg, says):
    with pytest.raises(TargetError) as e:
        make_target(f"proxy:refuse-advertised={arg}@tansu")
    assert says in str(e.value) and "\n" not in str(e.value)


# -- the places, through a broker that refuses what it advertises -----------------------------

def test_an_unanswered_apiversions_is_a_setup_error_not_a_missing_feature(tmp_path):
    """conformance/capabilities.py: K1 reads the broker's declared features from ApiVersions
    v3+; a broker that refuses the ApiVersions it advertises declares nothing either way."""
    rows = rows_of(tmp_path, "proxy:refuse-advertised=ApiVersions@tansu", "--property", "K1")
    for r in rows:
        assert r["outcome"] == "error", r
        assert "ApiVersions v" in r["message"] and "answered 35, so the broker's supported_features could not be read" \
            in r["message"], r


def test_a_deletion_refused_by_a_broker_showing_it_enabled_fails_s1(tmp_path):
    """conformance/stateful/row.py: noida shows no delete.topic.enable (Kafka's default, true),
    so refusing to delete the topic S1 just created is a finding, not a broker without deletion."""
    rows = rows_of(tmp_path, "proxy:refuse-advertised=DeleteTopics:TOPIC_DELETION_DISABLED@noida",
                   "--property", "S1", "-k", "Metadata")
    (r,) = rows
    assert r["outcome"] == "fail", r
    assert "is deleted: NONE (the broker shows no delete.topic.enable, Kafka default true" in r["message"], r
    assert "got 73 TOPIC_DELETION_DISABLED" in r["message"], r


def test_a_refused_compacted_topic_is_a_setup_error_of_r1(tmp_path):
    """conformance/test_delete_records.py: R1 asks DeleteRecords of a cleanup.policy=compact
    topic; a broker that will not create one gives R1 no verdict on that part (error), it does
    not show a broker without DeleteRecords."""
    rows = rows_of(tmp_path, "proxy:compaction-refused@noida", "--property", "R1")
    for r in rows:
        assert r["outcome"] == "error", r
        assert "did not create a cleanup.policy=compact topic (CreateTopics answered 40" in r["message"], r


def test_security_disabled_from_a_broker_that_shows_no_authorizer_cites_it(tmp_path):
    """conformance/test_acls.py: SECURITY_DISABLED is Kafka's answer without an authorizer;
    the row says what the broker showed (noida shows no authorizer.class.name). The broker
    that shows one and answers it is tests/test_unsupported_evidence_kafka.py's."""
    asked(rows_of(tmp_path, "noida", "--property", "L1"), "unsupported",
          "answers SECURITY_DISABLED, Kafka's answer without an authorizer, and the broker shows no "
          "authorizer.class.name")
