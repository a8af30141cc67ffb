"""Kafka's rules by release line and mode (reference/release_lines.py, reference/modes.py):
each has its values, the Kafka change behind it and the targets it was measured on."""
from __future__ import annotations

import re

from protocol.errors import Errors
from reference import modes, release_lines as rl


def test_each_line_rule_names_its_kafka_change_and_where_it_was_measured():
    for rule in rl.RULES:
        assert re.search(r"KAFKA-\d+|KIP-\d+", rule.source), rule.name
        assert rule.measured and all(m.startswith("kafka:") for m in rule.measured), rule.name
        assert rl.OLDEST <= rule.since <= rl.NEWEST, rule.name


def test_the_rules_found_by_running_every_line_hold_where_they_were_measured():
    cm, quota = rl.CLUSTER_METADATA_CREATE_ERROR, rl.MUTATION_QUOTA_ENFORCED
    assert [cm.at(line) for line in ((3, 3), (3, 8), (3, 9), (4, 4))] == [
        Errors.TOPIC_AUTHORIZATION_FAILED, Errors.TOPIC_AUTHORIZATION_FAILED, Errors.INVALID_REQUEST,
        Errors.INVALID_REQUEST]
    assert cm.at((3, 8), rl.ZK) == Errors.TOPIC_AUTHORIZATION_FAILED        # KafkaApis changed with it
    assert [quota.at(line) for line in ((3, 3), (3, 4), (3, 5))] == [False, False, True]
    assert quota.at((3, 3), rl.ZK) is True                                   # ZooKeeper mode always had it


def test_the_broker_under_check_decides_a_rules_value():
    try:
        rl.use((3, 4), rl.ZK)
        assert (rl.current(), rl.current_mode(), rl.zookeeper_mode()) == ((3, 4), "zk", True)
        assert rl.MUTATION_QUOTA_ENFORCED.now() is True and modes.DELETE_TOPICS_EXPLAINED.now() is False
        rl.use((3, 4))
        assert rl.MUTATION_QUOTA_ENFORCED.now() is False and modes.DELETE_TOPICS_EXPLAINED.now() is True
    finally:
        rl.use(None)
    assert (rl.current(), rl.current_mode()) == (rl.NEWEST, rl.KRAFT)
    assert rl.mode_of("apache-kafka", "zk") == "zk" and rl.mode_of("tansu", "zk") == "kraft"
