"""Requests that make a broker answer errors, for properties about error codes and
messages (catalogue P5, P6).

``requests(api_key, version, prefix, existing)`` draws, with about equal weight, a
realistic request (``strategies.domain.admin_request``) and one built to provoke an error
Kafka defines for the API: unknown topics, names ``Topic.validate`` rejects, partition
counts and replication factors Kafka refuses, config names no topic has and values their
validators reject, offsets beyond the high watermark, topics that already exist, timeouts
of 0, unknown topic ids (DeleteTopics v6, Metadata v12+). ``existing`` are topics the check
created beforehand (``conformance/provoked_topics.py``), so "already exists", "not an increase" and
successes happen too.

Every name is inside the run prefix except ``""``, ``"."`` and ``".."`` (which cannot name
a topic); an unknown ``IncrementalAlterConfigs`` operation byte is never sent (Kafka's
controller fails over on it, docs/reference-semantics.md C4).
"""
from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from protocol import AlterConfigOp, ApiKey, Errors, schema_facts
from protocol import requests as build
from reference import error_codes

from . import domain as d
from .domain import admin_request

SET, APPEND, SUBTRACT = int(AlterConfigOp.SET), int(AlterConfigOp.APPEND), int(AlterConfigOp.SUBTRACT)
#: KRaft's metadata log (apache/kafka raft/.../KafkaRaftClient.java: the quorum's one topic partition)
METADATA_TOPIC = "__cluster_metadata"


def _twin(name: str) -> str:
    """The name that collides with ``name`` ('.' and '_' swapped, same metric name)."""
    return name.translate(str.maketrans("._", "_."))


def _names(prefix: str, existing: list[str], prefixed_only: bool = False) -> SearchStrategy[str]:
    known = [st.sampled_from(existing), st.sampled_from([_twin(n) for n in existing])] if existing else []
    return st.one_of(*known, d.valid_topic_names(prefix), d.invalid_topic_names(prefix, prefixed_only=prefixed_only))


def bad_configs() -> SearchStrategy[list[dict]]:
    """1-2 config entries: invalid values, unknown keys, valid ones mixed in."""
    entry = st.one_of(d.topic_config_entries(valid=False),
                      st.tuples(d.unknown_config_keys(), st.just("1")),
                      d.topic_config_entries())
    return st.lists(entry, min_size=1, max_size=2, unique_by=lambda kv: kv[0]).map(
        lambda kvs: [{"name": k, "value": v} for k, v in kvs])


def bad_ops() -> SearchStrategy[list[dict]]:
    """1-2 IncrementalAlterConfigs operations: invalid values, unknown keys, APPEND/SUBTRACT
    on a key that is not a list, valid SETs mixed in."""
    op = st.one_of(
        d.topic_config_entries(valid=False).map(lambda kv: {"name": kv[0], "config_operation": SET, "value": kv[1]}),
        d.unknown_config_keys().map(lambda k: {"name": k, "config_operation": SET, "value": "1"}),
        # APPEND/SUBTRACT on a key that is not a LIST: INVALID_CONFIG
        st.sampled_from(["retention.ms", "segment.bytes"]).flatmap(
            lambda k: st.sampled_from([APPEND, SUBTRACT]).map(
                lambda o: {"name": k, "config_operation": o, "value": "1000"})),
        d.topic_config_entries().map(lambda kv: {"name": kv[0], "config_operation": SET, "value": kv[1]}),
    )
    return st.lists(op, min_size=1, max_size=2, unique_by=lambda c: c["name"])


def _provoking(api_key: int, version: int, prefix: str, existing: list[str],
               prefixed_only: bool = False) -> SearchStrategy[dict]:
    names = _names(prefix, existing, prefixed_only)
    if api_key == ApiKey.Metadata:
        # ids only from where Kafka answers them UNKNOWN_TOPIC_ID (below: the whole request is refused)
        if error_codes.may_answer(api_key, Errors.UNKNOWN_TOPIC_ID, version):
            return st.one_of(
                admin_request(api_key, version, prefix, names=names),
                st.uuids().map(lambda u: build.metadata(version, ids=[u])))
        return admin_request(api_key, version, prefix, names=names, overrides={})
    if api_key == ApiKey.CreateTopics:
        return admin_request(api_key, version, prefix, names=names, overrides={
            "topics.num_partitions": st.one_of(d.partition_counts(3), d.invalid_partition_counts()),
            "topics.replication_factor": st.one_of(st.just(1), d.invalid_replication_factors(1)),
            "topics.configs": st.one_of(st.just([]), bad_configs()),
            "timeout_ms": st.sampled_from([d.TIMEOUT_MS, d.TIMEOUT_MS, 0])})
    if api_key == ApiKey.DeleteTopics:
        if schema_facts.has_field(api_key, version, "topics.topic_id"):
            by_id = st.lists(st.uuids(), min_size=1, max_size=2, unique=True).map(
                lambda ids: build.delete_topics(version, ids=ids, timeout_ms=d.TIMEOUT_MS))
            return st.one_of(by_id, admin_request(api_key, version, prefix, names=names))
        return admin_request(api_key, version, prefix, names=names,
                             overrides={"timeout_ms": st.sampled_from([d.TIMEOUT_MS, d.TIMEOUT_MS, 0])})
    if api_key == ApiKey.DeleteRecords:
        return admin_request(api_key, version, prefix, names=names, overrides={
            "topics.partitions.partition_index": st.sampled_from([0, 0, 1, 99]),
            "topics.partitions.offset": st.sampled_from([d.HIGH_WATERMARK, 0, 5, 1 << 40, -7])})
    if api_key == ApiKey.DescribeConfigs:
        return admin_request(api_key, version, prefix, names=names, overrides={
            "resources.configuration_keys": st.one_of(st.none(), st.lists(
                st.one_of(st.sampled_from(sorted(d.TOPIC_CONFIGS)), d.unknown_config_keys()),
                max_size=2, unique=True))})
    if api_key == ApiKey.AlterConfigs:
        return admin_request(api_key, version, prefix, names=names,
                             overrides={"resources.configs": st.one_of(st.just([]), bad_configs())})
    if api_key == ApiKey.CreatePartitions:
        return admin_request(api_key, version, prefix, names=names, overrides={
            "topics.count": st.sampled_from([-1, 0, 1, 2, 3]),
            "timeout_ms": st.sampled_from([d.TIMEOUT_MS, d.TIMEOUT_MS, 0])})
    if api_key == ApiKey.IncrementalAlterConfigs:
        return admin_request(api_key, version, prefix, names=names, overrides={"resources.configs": bad_ops()})
    if api_key == ApiKey.DescribeQuorum and not prefixed_only:
        # the one partition Kafka's quorum answers for (KafkaRaftClient: __cluster_metadata-0)
        return admin_request(api_key, version, prefix, names=names,
                             overrides={"topics.topic_name": st.one_of(names, st.just(METADATA_TOPIC))})
    # any other admin API: its schema's body with these topic names (strategies/bodies.py)
    return admin_request(api_key, version, prefix, names=names)


def requests(api_key: int, version: int, prefix: str, existing: list[str] = (),
             prefixed_only: bool = False) -> SearchStrategy[dict]:
    """Request bodies for ``api_key`` at ``version``: half realistic, half error-provoking
    (``prefixed_only``: no invalid name that cannot carry the prefix, for external clusters)."""
    return st.one_of(admin_request(api_key, version, prefix),
                     _provoking(api_key, version, prefix, list(existing), prefixed_only))
