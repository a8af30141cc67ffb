"""The strategies: every version of every admin API reachable, field presence as the schema
says, domain values on the right side of Kafka's rules, and the run prefix always there."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, find, given, settings, strategies as st

from conformance.config_model import valid_value
from reference import topic_config, topic_names
from reference.request_rules import BROKER_DEFAULT, BROKER_DEFAULTS
from protocol import AlterConfigOp, ConfigResourceType, codec, schema_facts
from protocol.apis import ApiKey
from fixtures import scope
from protocol.apis import Entity
from strategies import domain, schema
from strategies.entities import in_run

PREFIX = "kac-t3st."
CASES = [(k, v) for k in sorted(codec.ADMIN_APIS) for v in schema.versions(k)]
IDS = [f"{codec.APIS[k].name}-v{v}" for k, v in CASES]
FEW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- the reference the strategies draw from, against Kafka's own tests ----------------------

#: apache/kafka clients/src/test/java/org/apache/kafka/common/internals/TopicTest.java
#: shouldAcceptValidTopicNames / shouldThrowOnInvalidTopicNames /
#: shouldRecognizeInvalidCharactersInTopicNames, with the reason Topic.validate gives.
KAFKA_VALID_NAMES = ["valid", "TOPIC", "nAmEs", "ar6", "VaL1d", "_0-9_.", "...", "a" * 249]
KAFKA_INVALID_NAMES = {"": "empty", ".": "dot", "..": "dot", "a" * 250: "too long", "foo bar": "illegal character",
                       "foo:bar": "illegal character", "foo=bar": "illegal character", "\u00e9": "illegal character",
                       "\U0001F600" * 125: "too long"}


def test_topic_name_rules_follow_kafkas_topic_test():
    assert all(topic_names.name_error(n) is None for n in KAFKA_VALID_NAMES)
    assert {n: topic_names.name_error(n) for n in KAFKA_INVALID_NAMES} == KAFKA_INVALID_NAMES
    assert topic_names.collision_key("a.b") == topic_names.collision_key("a_b") != topic_names.collision_key("a-b")


def assert_shape(node, version, body, path=""):
    """Keys are the fields of the version: all untagged ones, tagged ones optionally."""
    here = schema.fields_at(node, version)
    untagged = {n for n, f in here.items() if not f.tagged_field_q(version)}
    assert untagged <= set(body) <= set(here), (path, sorted(body), sorted(here))
    for name, value in body.items():
        f = here[name]
        if value is None:
            assert f.nullable_for_version_q(version) or f.type_str in ("uuid", "bitfield"), path + name
        elif f.is_struct_array():
            for item in value:
                assert_shape(f, version, item, f"{path}{name}.")
        elif f.is_struct():
            assert_shape(f, version, value, f"{path}{name}.")


def topic_names_in(api_key, body, version):
    """Every topic name an admin request body carries (by name, not id)."""
    return [n for n in scope.topic_refs(api_key, version, body)[0] if n is not None]


# -- schema strategies ---------------------------------------------------------------------

def test_versions_are_all_schema_versions():
    for k, a in codec.APIS.items():
        assert schema.versions(k) == range(a.max_version + 1)
    delete = ApiKey.DeleteTopics
    assert 0 in schema.versions(delete) and codec.APIS[delete].kafka_min_version == 1  # removed v0 kept


@pytest.mark.parametrize("api_key,version", CASES, ids=IDS)
@FEW
@given(data=st.data())
def test_schema_bodies_match_field_presence(api_key, version, data):
    for message in (codec.APIS[api_key].request, codec.APIS[api_key].response):
        assert_shape(message, version, data.draw(schema.message_body(message, version)))


@pytest.mark.parametrize("api_key,version", CASES, ids=IDS)
@FEW
@given(data=st.data())
def test_admin_requests_reach_every_version(api_key, version, data):
    body = data.draw(domain.admin_request(api_key, version, PREFIX))
    assert_shape(codec.APIS[api_key].request, version, body)
    frame = codec.encode_request(api_key, version, body, 1)
    assert codec.decode_request(frame[4:])[0]["api_version"] == version
    names = topic_names_in(api_key, body, version)
    assert all(n.startswith(PREFIX) and topic_names.name_error(n) is None for n in names)
    if api_key in domain._ADMIN:          # one list of topics, unique up to '.'/'_'
        assert len({topic_names.collision_key(n) for n in names}) == len(names)
    # every other name is the run's too, and nothing a change names is outside what the
    # external-cluster guard lets through (fixtures/scope.py)
    outside = [(e.value, v) for e, v in scope.entity_refs(api_key, version, body) if not in_run(PREFIX, e, v)
               and not (v is None and (api_key not in scope.MUTATING or e is Entity.ACL_RESOURCE))
               and not (e is Entity.FEATURE and body.get("validate_only"))]
    assert not outside, outside


@pytest.mark.parametrize("version,present,absent", [
    (0, {"topic_names", "timeout_ms"}, {"topics"}),
    (5, {"topic_names", "timeout_ms"}, {"topics"}),
    (6, {"topics", "timeout_ms"}, {"topic_names"}),
])
def test_delete_topics_fields(version, present, absent):
    here = set(schema.fields_at(codec.APIS[ApiKey.DeleteTopics].request, version))
    assert present <= here and not absent & here
    assert set(schema.fields_at(codec.APIS[ApiKey.DeleteTopics].request, 6, "topics")) == {"name", "topic_id"}


def test_field_presence_by_version():
    create = codec.APIS[ApiKey.CreateTopics].request
    assert "validate_only" not in schema.fields_at(create, 0)
    assert "validate_only" in schema.fields_at(create, 1)
    meta = codec.APIS[ApiKey.Metadata].request
    assert "allow_auto_topic_creation" not in schema.fields_at(meta, 3)
    assert "topics.topic_id" in schema.field_paths(meta, 10)
    assert "topics.topic_id" not in schema.field_paths(meta, 9)
    assert "resources.configs.config_operation" in schema.field_paths(
        codec.APIS[ApiKey.IncrementalAlterConfigs].request, 0)


@FEW
@given(data=st.data())
def test_overrides(data):
    body = data.draw(schema.request_body(ApiKey.DeleteTopics, 6, {"timeout_ms": 5000, "topics.name": st.just("x"),
                                                                  "topic_names": ["ignored at v6"]}))
    assert body["timeout_ms"] == 5000 and all(t["name"] == "x" for t in body["topics"])
    body = data.draw(schema.request_body(ApiKey.DeleteTopics, 3, {"timeout_ms": schema.OMIT, "topics.name": "x"}))
    assert set(body) == {"topic_names"}
    with pytest.raises(KeyError):
        schema.request_body(ApiKey.DeleteTopics, 6, {"topics.nmae": "x"})
    with pytest.raises(ValueError):
        schema.request_body(ApiKey.DeleteTopics, 7)


@FEW
@given(body=schema.response_body(ApiKey.ApiVersions, 3))
def test_tagged_fields_are_optional(body):
    assert {"error_code", "api_keys", "throttle_time_ms"} <= set(body)


# -- domain strategies ---------------------------------------------------------------------

@given(domain.valid_topic_names(PREFIX))
def test_valid_topic_names(name):
    assert name.startswith(PREFIX) and topic_names.name_error(name) is None


@given(domain.invalid_topic_names(PREFIX, labelled=True))
def test_invalid_topic_names(case):
    reason, name = case
    assert topic_names.name_error(name) == reason
    if reason in ("too long", "illegal character"):
        assert name.startswith(PREFIX)


@given(domain.invalid_topic_names())
def test_invalid_topic_names_without_prefix(name):
    assert topic_names.name_error(name) is not None


@pytest.mark.parametrize("prefix", ["", ".", "a/b", "x" * 201])
def test_bad_prefixes_are_refused(prefix):
    with pytest.raises(ValueError):
        domain.valid_topic_names(prefix)


def test_topic_names_reach_the_maximum_length():
    assert len(find(domain.valid_topic_names(PREFIX), lambda n: len(n) == 249)) == 249


@given(domain.partition_counts(), domain.invalid_partition_counts(),
       domain.replication_factors(3), domain.invalid_replication_factors(3))
def test_counts(good_p, bad_p, good_rf, bad_rf):
    assert good_p >= 1 and bad_p <= 0 and bad_p != domain.BROKER_DEFAULT
    assert 1 <= good_rf <= 3
    assert (bad_rf <= 0 and bad_rf != domain.BROKER_DEFAULT) or 3 < bad_rf < 1 << 15


@given(domain.topic_config_entries())
def test_valid_config_values(entry):
    name, value = entry
    assert valid_value(name, value) is True, entry


@given(domain.topic_config_entries(valid=False))
def test_invalid_config_values(entry):
    name, value = entry
    assert valid_value(name, value) is False, entry


def test_config_tables_agree():
    assert set(domain.LIST_CONFIGS) == topic_config.LIST_KEYS
    assert set(domain.TOPIC_CONFIGS) | set(domain.LIST_CONFIGS) == set(topic_config.CONFIGS)


@given(domain.list_config_elements())
def test_list_config_elements(entry):
    name, element = entry
    assert name in domain.LIST_CONFIGS and "," not in element and element


@given(domain.unknown_config_keys())
def test_unknown_config_keys(key):
    assert key not in domain.TOPIC_CONFIGS and key not in domain.LIST_CONFIGS


@FEW
@given(data=st.data(), version=st.integers(0, 1))
def test_incremental_alter_configs_semantics(data, version):
    body = data.draw(domain.admin_request(ApiKey.IncrementalAlterConfigs, version, PREFIX))
    for res in body["resources"]:
        assert res["resource_type"] == ConfigResourceType.TOPIC
        assert len({c["name"] for c in res["configs"]}) == len(res["configs"])
        for c in res["configs"]:
            op = c["config_operation"]
            assert op in tuple(AlterConfigOp)
            assert (c["value"] is None) == (op == AlterConfigOp.DELETE)
            if op in (AlterConfigOp.APPEND, AlterConfigOp.SUBTRACT):
                assert c["name"] in domain.LIST_CONFIGS


@FEW
@given(data=st.data(), version=st.integers(0, 7))
def test_create_topics_semantics(data, version):
    body = data.draw(domain.admin_request(ApiKey.CreateTopics, version, PREFIX))
    assert body["timeout_ms"] == domain.TIMEOUT_MS
    assert ("validate_only" in body) == schema_facts.has_field(ApiKey.CreateTopics, version, "validate_only")
    default = BROKER_DEFAULTS.holds_at(version)
    for t in body["topics"]:
        assert t["assignments"] == []
        assert t["num_partitions"] >= 1 or (default and t["num_partitions"] == BROKER_DEFAULT)
        assert t["replication_factor"] >= 1 or (default and t["replication_factor"] == BROKER_DEFAULT)
        assert all(valid_value(c["name"], c["value"]) is True for c in t["configs"])


@FEW
@given(data=st.data())
def test_names_outside_the_prefix_are_refused(data):
    with pytest.raises(ValueError, match="outside the run prefix"):
        data.draw(domain.admin_request(ApiKey.DeleteTopics, 6, PREFIX, names=st.just("someone-elses-topic")))
    body = data.draw(domain.admin_request(ApiKey.DeleteTopics, 6, PREFIX, names=st.sampled_from(["", "."])))
    assert all(t["name"] in ("", ".") for t in body["topics"])


@FEW
@given(data=st.data())
def test_admin_request_overrides_and_unknown_api(data):
    configs = [{"name": "retention.ms", "value": "x"}]
    body = data.draw(domain.admin_request(ApiKey.CreateTopics, 7, PREFIX, overrides={
        "validate_only": True, "topics.num_partitions": 0, "topics.configs": configs}))
    assert body["validate_only"] is True
    assert all(t["num_partitions"] == 0 and t["name"].startswith(PREFIX) for t in body["topics"])
    assert all(t["configs"] == configs for t in body["topics"])
    body = data.draw(domain.admin_request(ApiKey.DeleteRecords, 2, PREFIX, overrides={"topics.partitions.offset": 7}))
    assert all(p["offset"] == 7 for t in body["topics"] for p in t["partitions"])
    with pytest.raises(ValueError):
        domain.admin_request(ApiKey.IncrementalAlterConfigs, 1, PREFIX, overrides={"resources.configs.value": "x"})
    with pytest.raises(ValueError):
        domain.admin_request(ApiKey.DeleteTopics, 6, PREFIX, overrides={"topics.name": "someone-elses-topic"})
    with pytest.raises(KeyError):
        domain.admin_request(ApiKey.Produce, 3, PREFIX)


# -- weights: one_of keeps one of the same object -------------------------------------------

def test_weighed_options_keep_their_weight_in_one_of():
    """``st.one_of([s] * 4)`` is ``s`` once (hypothesis hands out one object for equal
    arguments, and one_of keeps one of each object): S1's focus API was 1 option in 6,
    not 4 in 10, and a focused config pair bad 1 in 2, not 1 in 3."""
    from strategies import stateful as draws
    s = st.sampled_from([1, 2])
    assert len(st.one_of([s] * 4).element_strategies) == 1            # the trap itself
    assert len(st.one_of(draws.weighed(s, 4)).element_strategies) == 4


@pytest.mark.parametrize("focus", [ApiKey.CreateTopics, ApiKey.DeleteRecords, ApiKey.IncrementalAlterConfigs])
def test_s1_steps_draw_the_focus_api_four_times_and_every_other_option_once(focus):
    from types import SimpleNamespace
    from conformance.stateful.steps import OPERATIONS, Strategies
    row = SimpleNamespace(focus=focus, ranges={op.api: (0, 3) for op in OPERATIONS}, watch_logs=True,
                          watch_configs=True, avoided_shapes=frozenset(), families=frozenset(),
                          defaults=SimpleNamespace(brokers=1, partitions=1, replication=1, configs={}))
    listed = 4 + sum(op.support(row) for op in OPERATIONS) + sum(op.enabled(row) for op in OPERATIONS)
    assert len(Strategies(row).steps().element_strategies) == listed
