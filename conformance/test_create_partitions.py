"""T2: CreatePartitions only ever grows a topic.

The codes are released Apache Kafka 4.x's (KRaft), read in
``metadata/.../controller/ReplicationControlManager.java`` (``createPartitions``) and
``core/.../server/ControllerApis.scala`` (duplicates), and shown by Kafka's own
``ReplicationControlManagerTest``; the summary with every source is
``docs/reference-semantics.md`` (T2). Topics are created and checked with T1's driver
(``test_topics.py``).

Versions: every CreatePartitions version the broker advertises (released Kafka 4.x serves
v0-v3).
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from protocol import requests
from protocol.apis import ApiKey
from protocol.errors import Errors
from reference.kips import KIP_694
from strategies import domain

from .batch_model import World, asked, create_partitions_items, set_up, settle
from .parametrize import every_version
from .test_topics import CAPIS, RCM, RCM_TEST, _fresh_unique, expect_absent, expect_codes, expect_kept, expect_present

CREATE_PARTITIONS_VERSIONS = every_version((ApiKey.CreatePartitions,))


def _grow(ctx, version, counts, validate_only=False):
    """CreatePartitions of ``counts``: ``[(topic, new count), ...]``."""
    return ctx.client.answered(ApiKey.CreatePartitions, version,
                               requests.create_partitions(version, counts, timeout_ms=domain.TIMEOUT_MS,
                                                          validate_only=validate_only))


def _partition_items(kind):
    return st.lists(create_partitions_items({kind})[kind], min_size=1, max_size=3)


def _counts(body):
    return [(t["name"], t["count"]) for t in body["topics"]]


def _partitions_world(ctx, check, items):
    w = World(check, "p")
    body = w.create_partitions(items, validate_only=False)
    set_up(ctx.admin, [w])
    return w, body


@pytest.mark.prop("T2", source=f"catalogue T2; {RCM} createPartitions; {RCM_TEST} testCreatePartitions ('foo': "
                               "3 -> 6 partitions, NONE)")
@pytest.mark.parametrize("api_key,version", CREATE_PARTITIONS_VERSIONS)
def test_t2_a_higher_count_adds_partitions(check, api_key, version):
    """A count above the topic's current one answers NONE and Metadata then shows the new
    count."""
    ctx = asked(check, api_key, version)

    def grown(items):
        w, body = _partitions_world(ctx, check, items)
        resp = _grow(ctx, version, _counts(body))
        expect_codes(ctx, api_key, resp, {n: (Errors.NONE, f"{it['current']} -> {it['count']} partitions")
                                          for n, it in zip(w.names, items)})
        expect_present(ctx, {n: it["count"] for n, it in zip(w.names, items)})

    check.given(_partition_items("grow"), grown)


@pytest.mark.prop("T2", source=f"catalogue T2; {KIP_694.cite('partition deletion, never released')}; {RCM} "
                               "createPartitions ('Topic already has N partition(s).', "
                               f"'The topic T currently has N partition(s); M would not be an increase.'); {RCM_TEST} "
                               "testCreatePartitions ('bar', 'quux' -> INVALID_PARTITIONS)")
@pytest.mark.parametrize("api_key,version", CREATE_PARTITIONS_VERSIONS)
def test_t2_the_same_or_a_lower_count_answers_invalid_partitions_and_changes_nothing(check, api_key, version):
    """A count equal to or below the topic's current one (zero and negatives included)
    answers INVALID_PARTITIONS (37) and the topic keeps its partitions. KIP-694 proposed
    deleting partitions; that was never released, so Kafka only ever grows a topic (the
    proposal's API is K2's)."""
    ctx = asked(check, api_key, version)
    sentinels: set[str] = set()
    items = st.lists(st.one_of(*create_partitions_items({"same", "shrink"}).values()), min_size=1, max_size=3)

    def refused(its):
        w, body = _partitions_world(ctx, check, its)
        resp = _grow(ctx, version, _counts(body))
        expect_codes(ctx, api_key, resp, {n: (Errors.INVALID_PARTITIONS, f"{it['current']} partitions, count {it['count']}")
                                          for n, it in zip(w.names, its)})
        settle(ctx.admin, sentinels)
        expect_kept(ctx, {n: it["current"] for n, it in zip(w.names, its)})

    check.given(items, refused)


@pytest.mark.prop("T2", source=f"catalogue T2; {RCM} createPartitions (new UnknownTopicOrPartitionException()); "
                               f"{RCM_TEST} testCreatePartitions ('baz' -> UNKNOWN_TOPIC_OR_PARTITION)")
@pytest.mark.parametrize("api_key,version", CREATE_PARTITIONS_VERSIONS)
def test_t2_an_unknown_topic_answers_unknown_topic_or_partition(check, api_key, version):
    """Partitions for a topic that does not exist: UNKNOWN_TOPIC_OR_PARTITION (3), and no
    topic is created."""
    ctx = asked(check, api_key, version)

    def refused(its):
        names = _fresh_unique(check, "nosuch", len(its))
        resp = _grow(ctx, version, [(n, it["count"]) for n, it in zip(names, its)])
        expect_codes(ctx, api_key, resp, {n: (Errors.UNKNOWN_TOPIC_OR_PARTITION, "no such topic") for n in names})
        expect_absent(ctx, names)

    check.given(_partition_items("unknown"), refused)


@pytest.mark.prop("T2", source=f"catalogue T2; {CAPIS} createPartitions (duplicate names -> INVALID_REQUEST "
                               "'Duplicate topic name.'); docs/reference-semantics.md T2")
@pytest.mark.parametrize("api_key,version", CREATE_PARTITIONS_VERSIONS)
def test_t2_a_topic_named_twice_answers_invalid_request_and_keeps_its_partitions(check, api_key, version):
    """A topic named twice in one CreatePartitions request (with any counts) answers
    INVALID_REQUEST (42) and keeps its partitions."""
    ctx = asked(check, api_key, version)
    sentinels: set[str] = set()

    def refused(its):
        w, body = _partitions_world(ctx, check, its)
        resp = _grow(ctx, version, _counts(body))
        expect_codes(ctx, api_key, resp, {n: (Errors.INVALID_REQUEST, "named twice") for n in w.names})
        settle(ctx.admin, sentinels)
        expect_kept(ctx, {n: it["current"] for n, it in zip(w.names, its)})

    check.given(_partition_items("duplicate"), refused)
