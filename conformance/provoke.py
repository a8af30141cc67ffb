"""Requests that make a broker answer errors, for properties about error codes and
messages (catalogue P5, P6).

``requests(api_key, version, prefix, existing)`` draws, with about equal weight, a
realistic request (``strategies.domain.admin_request``) and one built to provoke an error
Kafka defines for the API: unknown topics, names ``Topic.validate`` rejects, partition
counts and replication factors Kafka refuses, config names no topic has and values their
validators reject, offsets beyond the high watermark, topics that already exist, timeouts
of 0, unknown topic ids (DeleteTopics v6, Metadata v12+). ``existing`` are topics the check
created beforehand, so "already exists", "not an increase" and successes happen too.

Every name is inside the run prefix except ``""``, ``"."`` and ``".."`` (which cannot name
a topic); an unknown ``IncrementalAlterConfigs`` operation byte is never sent (Kafka's
controller fails over on it, docs/reference-semantics.md C4).
"""
from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from fixtures.admin import Admin
from fixtures.harness import Violation
from strategies import domain as d
from strategies.domain import admin_request

from .reference import error_codes as ec

TOPIC = d.TOPIC


def existing_topics(check, api_key: int) -> list[str]:
    """One topic the check creates first (so 'already exists', 'not an increase' and
    successes occur); none when the broker cannot create it (the check then provokes the
    other errors)."""
    if api_key == ec.METADATA and not check.broker.advertised(ec.CREATE_TOPICS):
        return []
    # a '.' in the name: its '_' twin collides with it (Kafka refuses to create the twin)
    name = f"{check.prefix}{check.prop}-{api_key}-{check.api_version}-x.c"
    try:
        Admin(check).create_topic(name, partitions=2)
    except Violation:
        return []
    return [name]


def _twin(name: str) -> str:
    """The name that collides with ``name`` ('.' and '_' swapped, same metric name)."""
    return name.translate(str.maketrans("._", "_."))


def _names(prefix: str, existing: list[str], prefixed_only: bool = False) -> SearchStrategy[str]:
    known = [st.sampled_from(existing), st.sampled_from([_twin(n) for n in existing])] if existing else []
    return st.one_of(*known, d.valid_topic_names(prefix), d.invalid_topic_names(prefix, prefixed_only=prefixed_only))


def _bad_configs() -> SearchStrategy[list[dict]]:
    entry = st.one_of(d.topic_config_entries(valid=False),
                      st.tuples(d.unknown_config_keys(), st.just("1")),
                      d.topic_config_entries())
    return st.lists(entry, min_size=1, max_size=2, unique_by=lambda kv: kv[0]).map(
        lambda kvs: [{"name": k, "value": v} for k, v in kvs])


def _bad_ops() -> SearchStrategy[list[dict]]:
    op = st.one_of(
        d.topic_config_entries(valid=False).map(lambda kv: {"name": kv[0], "config_operation": d.SET, "value": kv[1]}),
        d.unknown_config_keys().map(lambda k: {"name": k, "config_operation": d.SET, "value": "1"}),
        # APPEND/SUBTRACT on a key that is not a LIST: INVALID_CONFIG
        st.sampled_from(["retention.ms", "segment.bytes"]).flatmap(
            lambda k: st.sampled_from([d.APPEND, d.SUBTRACT]).map(
                lambda o: {"name": k, "config_operation": o, "value": "1000"})),
        d.topic_config_entries().map(lambda kv: {"name": kv[0], "config_operation": d.SET, "value": kv[1]}),
    )
    return st.lists(op, min_size=1, max_size=2, unique_by=lambda c: c["name"])


def _provoking(api_key: int, version: int, prefix: str, existing: list[str],
               prefixed_only: bool = False) -> SearchStrategy[dict]:
    names = _names(prefix, existing, prefixed_only)
    if api_key == 3:
        ov = {}
        if version >= 12:   # ids are only expressible (and UNKNOWN_TOPIC_ID defined) from v12
            return st.one_of(
                admin_request(3, version, prefix, names=names),
                st.uuids().map(lambda u: {"topics": [{"name": None, "topic_id": u}],
                                          "allow_auto_topic_creation": False,
                                          "include_topic_authorized_operations": False}))
        return admin_request(3, version, prefix, names=names, overrides=ov)
    if api_key == 19:
        return admin_request(19, version, prefix, names=names, overrides={
            "topics.num_partitions": st.one_of(d.partition_counts(3), d.invalid_partition_counts()),
            "topics.replication_factor": st.one_of(st.just(1), d.invalid_replication_factors(1)),
            "topics.configs": st.one_of(st.just([]), _bad_configs()),
            "timeout_ms": st.sampled_from([d.TIMEOUT_MS, d.TIMEOUT_MS, 0])})
    if api_key == 20:
        if version >= 6:
            by_id = st.lists(st.uuids(), min_size=1, max_size=2, unique=True).map(
                lambda ids: {"topics": [{"name": None, "topic_id": u} for u in ids], "timeout_ms": d.TIMEOUT_MS})
            return st.one_of(by_id, admin_request(20, version, prefix, names=names))
        return admin_request(20, version, prefix, names=names,
                             overrides={"timeout_ms": st.sampled_from([d.TIMEOUT_MS, d.TIMEOUT_MS, 0])})
    if api_key == 21:
        return admin_request(21, version, prefix, names=names, overrides={
            "topics.partitions.partition_index": st.sampled_from([0, 0, 1, 99]),
            "topics.partitions.offset": st.sampled_from([d.HIGH_WATERMARK, 0, 5, 1 << 40, -7])})
    if api_key == 32:
        return admin_request(32, version, prefix, names=names, overrides={
            "resources.configuration_keys": st.one_of(st.none(), st.lists(
                st.one_of(st.sampled_from(sorted(d.TOPIC_CONFIGS)), d.unknown_config_keys()),
                max_size=2, unique=True))})
    if api_key == 33:
        return admin_request(33, version, prefix, names=names,
                             overrides={"resources.configs": st.one_of(st.just([]), _bad_configs())})
    if api_key == 37:
        return admin_request(37, version, prefix, names=names, overrides={
            "topics.count": st.sampled_from([-1, 0, 1, 2, 3]),
            "timeout_ms": st.sampled_from([d.TIMEOUT_MS, d.TIMEOUT_MS, 0])})
    if api_key == 44:
        return admin_request(44, version, prefix, names=names, overrides={"resources.configs": _bad_ops()})
    return admin_request(api_key, version, prefix)


def requests(api_key: int, version: int, prefix: str, existing: list[str] = (),
             prefixed_only: bool = False) -> SearchStrategy[dict]:
    """Request bodies for ``api_key`` at ``version``: half realistic, half error-provoking
    (``prefixed_only``: no invalid name that cannot carry the prefix, for external clusters)."""
    return st.one_of(admin_request(api_key, version, prefix),
                     _provoking(api_key, version, prefix, list(existing), prefixed_only))


#: Where each API's response keeps its per-item results, and how to read the item's key.
RESULTS = {19: "topics", 20: "responses", 21: "topics", 32: "results", 33: "responses",
           37: "results", 44: "responses"}


def items(api_key: int, response: dict) -> list[dict]:
    """The result dicts of a response that carry a per-item ``error_code`` (and, where the
    version has one, ``error_message``); DeleteRecords' are its partitions."""
    results = response.get(RESULTS.get(api_key, ""), None) or []
    if api_key == 21:
        return [p for t in results for p in t.get("partitions") or []]
    return list(results)


def item_name(api_key: int, item: dict):
    if api_key in (32, 33, 44):
        return item.get("resource_name")
    if api_key == 20 and item.get("name") is None:
        return ("id", str(item.get("topic_id")))
    return item.get("name")
