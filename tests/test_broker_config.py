"""The broker settings that decide answers: the rules of reference/broker_config.py, the model's
use of them, and what the suite reads from real brokers (fixtures/brokers/configuration.py).

Kafka targets (the read values agree with the spec; a cluster started by hand with
``delete.topic.enable=false`` answers as ``preset=nodelete``) are in tests/test_kafka_target.py
and tests/test_config_follows_broker.py."""
from __future__ import annotations

import uuid

import pytest

from conformance import cluster_model as cm
from fixtures import judge
from fixtures.brokers import make_target
from protocol import ApiKey, Errors
from reference import broker_config as bc


@pytest.fixture(autouse=True)
def _defaults():
    """Every test starts and ends with a broker that shows nothing (Kafka's defaults)."""
    bc.use(None)
    yield
    bc.use(None)


def test_a_setting_not_shown_is_kafkas_default_and_a_shown_one_is_typed():
    assert bc.DELETE_TOPIC_ENABLE.now() is True and bc.DELETE_TOPIC_ENABLE.shown() is None
    assert bc.NUM_PARTITIONS.now() == 1 and bc.CREATE_TOPIC_POLICY.now() is None
    bc.use({"delete.topic.enable": "FALSE", "num.partitions": "3", "create.topic.policy.class.name": "x.P"})
    assert bc.DELETE_TOPIC_ENABLE.now() is False and bc.DELETE_TOPIC_ENABLE.shown() is False
    assert bc.NUM_PARTITIONS.now() == 3 and bc.CREATE_TOPIC_POLICY.now() == "x.P"
    assert bc.differing(bc.current()) == {"delete.topic.enable": False, "num.partitions": 3,
                                          "create.topic.policy.class.name": "x.P"}


def test_deletion_refused_only_where_the_broker_disables_it_with_kafkas_code_per_version():
    assert bc.DELETION_REFUSED.now() is None
    bc.use({"delete.topic.enable": "true"})
    assert bc.DELETION_REFUSED.now() is None
    bc.use({"delete.topic.enable": "false"})
    refusal = bc.DELETION_REFUSED.now()
    assert refusal is not None and refusal.api_key == ApiKey.DeleteTopics
    # ControllerApis.deleteTopics: InvalidRequestException below v3, TopicDeletionDisabledException from v3
    assert [refusal.code_at(v) for v in range(7)] == [Errors.INVALID_REQUEST] * 3 + [Errors.TOPIC_DELETION_DISABLED] * 4
    assert bc.DELETION_REFUSED.why() == "delete.topic.enable=false"


def test_auto_creation_and_the_default_counts_follow_their_settings():
    assert bc.METADATA_AUTO_CREATES.now() is True
    assert bc.DEFAULT_PARTITIONS.now() == 1 and bc.DEFAULT_PARTITIONS.shown() is None
    bc.use({"auto.create.topics.enable": "false", "num.partitions": "3", "default.replication.factor": "2"})
    assert bc.METADATA_AUTO_CREATES.now() is False
    assert bc.DEFAULT_PARTITIONS.shown() == 3 and bc.DEFAULT_REPLICATION.shown() == 2


def test_every_setting_and_rule_names_its_kafka_source():
    for s in bc.SETTINGS:
        assert "apache/kafka " in s.source and s.decides, s.key
    for r in bc.RULES:
        assert "apache/kafka " in r.source and r.setting in bc.SETTINGS, r.name
    assert len(bc.KEYS) == len(set(bc.KEYS))


def _model(brokers: int = 1) -> cm.Model:
    defaults = cm.Defaults()
    defaults.brokers = brokers
    return cm.Model("kac-000000-s1-1", defaults)


def test_the_model_predicts_the_refusal_of_every_entry_as_sent_and_deletes_nothing():
    m = _model()
    m.topics[m.name("a")] = cm.Topic(None, {})
    tid = uuid.uuid4()
    items = [{"name": m.name("a")}, {"name": m.name("a")}, {"name": m.name("gone")}, {"id": tid}]
    kafka = m.delete_topics(items, 6)
    assert [sorted(e.allowed) for e in kafka] == [[Errors.INVALID_REQUEST], [Errors.UNKNOWN_TOPIC_OR_PARTITION],
                                                 [Errors.UNKNOWN_TOPIC_ID]]      # deletion enabled
    bc.use({"delete.topic.enable": "false"})
    for version, code in ((2, Errors.INVALID_REQUEST), (6, Errors.TOPIC_DELETION_DISABLED)):
        refused = m.delete_topics(items, version)
        assert [e.key for e in refused] == [("name", m.name("a")), ("name", m.name("a")), ("name", m.name("gone")),
                                            ("id", tid)]
        assert all(e.allowed == {code} and e.effect is None for e in refused)
    assert m.name("a") in m.topics


def test_the_model_takes_the_default_replication_factor_the_broker_shows():
    m = _model(brokers=1)
    item = {"name": m.name("d"), "partitions": -1, "rf": -1, "configs": []}
    assert m._create_one(item, False, 5).allowed == {Errors.NONE, Errors.INVALID_REPLICATION_FACTOR}
    bc.use({"default.replication.factor": "1", "num.partitions": "3"})
    e = m._create_one(item, False, 5)
    assert e.allowed == {Errors.NONE}
    # the model states what the entry must hold; the judge (the reproducer's) decides it
    def holds(entry):
        answers = {0: judge.Answer("ok", entry, 0.1, sent_at=0.0)}
        return all(judge.judge({**x, "step": 0}, answers) is None for x in e.verify(entry))
    assert not holds({"num_partitions": 1}) and holds({"num_partitions": 3})
    bc.use({"default.replication.factor": "2"})
    assert m._create_one(item, False, 5).allowed == {Errors.INVALID_REPLICATION_FACTOR}


@pytest.mark.parametrize("spec", ["noida", "tansu"])
def test_what_a_broker_shows_of_its_configuration_is_read_once_and_recorded(spec):
    """noida-db answers DescribeConfigs for its BROKER resource; tansu closes the connection
    on it: recorded with the reason, Kafka's defaults assumed, and the broker still up."""
    target = make_target(spec)
    info = target.start()
    try:
        cfg = info.config.manifest()
        assert cfg["cluster"].get("brokers"), cfg
        if spec == "noida":
            assert cfg["error"] is None and cfg["values"].get("num.partitions") == "1", cfg
            assert "DescribeConfigs" in cfg["read"] and "BROKER" in cfg["read"]
            assert info.settings == cfg["values"]
        else:
            assert cfg["values"] == {} and "Kafka's defaults are assumed" in cfg["error"], cfg
            assert info.settings == {}
        assert target.alive()
    finally:
        target.stop()
