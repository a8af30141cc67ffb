"""``unsupported`` only with evidence, on Apache Kafka (issue 55; the tansu and noida cases are
``tests/test_unsupported_evidence.py``).

* G6's consumer (ConsumerGroupHeartbeat): Kafka 4.4 serves the consumer protocol
  (``group.version`` 1), so a proxy that refuses it makes G6 ``fail``; Kafka 3.9 shows
  ``group.coordinator.rebalance.protocols=classic`` and refuses it, which is ``unsupported``
  citing that setting.
* H2's token (CreateDelegationToken) and the ACL family's DescribeAcls on
  ``kafka:4.4.0,preset=acl``: refused by the proxy although the broker's metadata.version has
  tokens and it shows an authorizer: ``fail``.
* M8 and M9 on a cluster the suite did not start: never sent, the suite's choice: ``skip``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from fixtures.brokers import make_target

from tests.test_unsupported_evidence import asked, rows_of


def test_a_refused_consumer_heartbeat_fails_g6_on_kafka_4_4(tmp_path):
    asked(rows_of(tmp_path, "proxy:refuse-advertised@kafka:4.4.0", "--property", "G6"), "fail",
          ": served, the API advertised and nothing the broker shows turning the consumer rebalance protocol "
          "(KIP-848) off")


def test_kafka_3_9_without_the_consumer_protocol_is_unsupported_citing_its_setting(tmp_path):
    asked(rows_of(tmp_path, "kafka:3.9.2", "--property", "G6"), "unsupported",
          "the broker answered UNSUPPORTED_VERSION, and it shows group.coordinator.rebalance.protocols=classic, "
          "without 'consumer'")


def test_refused_tokens_and_acls_fail_on_a_broker_that_has_them(tmp_path):
    rows = rows_of(tmp_path, "proxy:refuse-advertised=CreateDelegationToken,DescribeAcls:SECURITY_DISABLED"
                             "@kafka:4.4.0,preset=acl", "--property", "H2", "--property", "L1")
    asked = [r for r in rows if "not v" not in r["message"]]
    assert {r["property"] for r in asked} == {"H2", "L1"}, rows
    for r in asked:
        assert r["outcome"] == "fail", r
        if r["property"] == "H2":
            assert "served, the API advertised and nothing the broker shows turning delegation tokens in KRaft " \
                   "(KIP-900) off" in r["message"], r
        else:
            assert "no SECURITY_DISABLED, the broker shows authorizer.class.name=org.apache.kafka.metadata." \
                   "authorizer.StandardAuthorizer; got 54 SECURITY_DISABLED" in r["message"], r


@pytest.fixture(scope="module")
def kafka():
    target = make_target("kafka:4.4.0")
    info = target.start()
    try:
        yield info.host, info.port
    finally:
        target.stop()


def test_membership_changes_the_suite_never_sends_to_a_cluster_it_did_not_start_are_skips(tmp_path, kafka):
    rows = rows_of(tmp_path, f"bootstrap:{kafka[0]}:{kafka[1]}", "--property", "M8", "--property", "M9",
                   "--allow-destructive")
    asked = [r for r in rows if "not v" not in r["message"]]
    assert {r["property"] for r in asked} >= {"M8", "M9"}, rows
    for r in asked:
        assert r["outcome"] == "skip" and "never sent to an external cluster (the suite's choice" in r["message"], r


def test_the_gate_of_a_run_through_a_refusing_broker_fails_without_flags(tmp_path):
    """Issue 55's "done when": a run through a proxy that refuses one advertised API has fail
    rows, and the gate of it against the clean run exits 1 with no flag (the run's broker is
    compared as the clean one's: ``--broker-as``)."""
    import json
    import os
    import subprocess
    import sys

    from tests.test_unsupported_evidence import ROOT

    def run(where, broker):
        where.mkdir()
        rows_of(where, broker, "--property", "G6")
        return Path((where / "last").read_text().strip())

    clean = run(tmp_path / "clean", "kafka:4.4.0")
    refused = run(tmp_path / "refused", "proxy:refuse-advertised@kafka:4.4.0")
    outcomes = [json.loads(line)["outcome"] for line in open(refused / "results.jsonl", encoding="utf-8")]
    assert "fail" in outcomes, outcomes
    gate = subprocess.run([sys.executable, "-m", "reports.gate", str(refused), "--baseline", str(clean),
                           "--broker-as", "proxy:refuse-advertised@kafka:4.4.0", "kafka:4.4.0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert gate.returncode == 1, gate.stdout + gate.stderr
    assert "pass -> fail" in gate.stdout and "ConsumerGroupDescribe(69)" in gate.stdout, gate.stdout
