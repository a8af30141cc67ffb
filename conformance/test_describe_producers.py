"""W1: DescribeProducers (API 61, KIP-664) lists the idempotent producer that wrote to a
partition, with the id, epoch and last sequence it wrote with.

The letter W: the producers DescribeProducers lists are a partition's writers (P, the
protocol, is taken). Each example creates a fresh run-prefixed topic of two partitions,
asks InitProducerId with no transactional id (an idempotent producer's id and epoch, as the
producer does before its first idempotent Produce) and appends 1-3 batches to partition 0
through the suite's one producer (``fixtures.admin.Admin.produce``), each batch carrying
that producer id and epoch and consecutive sequences from 0 (each record's CreateTime drawn:
``strategies/describe_producers.py``). Then one DescribeProducers names partitions 0, 1 and
2 (which the topic lacks) of the topic and partition 0 of a topic that does not exist.

Kafka: ``KafkaApis.handleDescribeProducersRequest`` answers a topic absent from the metadata
cache UNKNOWN_TOPIC_OR_PARTITION for each partition named, the others through
``ReplicaManager.activeProducerState`` (``getPartitionOrError``: a partition neither hosted
nor in the metadata cache, UNKNOWN_TOPIC_OR_PARTITION) -> ``Partition.activeProducerState`` (NONE) ->
``UnifiedLog.activeProducers``: one entry per producer ``ProducerStateManager`` holds, with
``ProducerStateEntry``'s epoch, ``lastSeq`` (the last batch's base sequence + records - 1),
``lastTimestamp`` (the last batch's max timestamp, ``ProducerAppendInfo.appendDataBatch``),
``coordinatorEpoch`` (-1 for a producer that never wrote a transaction marker) and
``currentTxnFirstOffset`` (-1: no open transaction). DescribeProducers has version 0 only
(``DescribeProducersRequest.json``).

Sources: KIP-664 "Provide tooling to detect and abort hanging transactions"; apache/kafka
``DescribeProducersRequest.json`` / ``DescribeProducersResponse.json``,
``KafkaApis.handleDescribeProducersRequest``, ``ReplicaManager.activeProducerState``,
``Partition.activeProducerState``, ``UnifiedLog.activeProducers`` and storage's
``ProducerStateManager`` / ``ProducerStateEntry`` / ``ProducerAppendInfo``.
"""
from __future__ import annotations

import time

import pytest

from fixtures.admin import Admin
from fixtures.harness import expect_setup
from protocol import ApiKey, Errors
from protocol import requests as build
from strategies import describe_producers as gen

from .parametrize import every_version
from protocol.kafka_sources import KAFKA as K

MSG = K + "clients/src/main/resources/common/message/"
STORAGE = K + "storage/src/main/java/org/apache/kafka/storage/internals/log/"
W1_SOURCE = ("KIP-664 \"Provide tooling to detect and abort hanging transactions\"; " + MSG
             + "DescribeProducersRequest.json, DescribeProducersResponse.json; " + K + "core/src/main/scala/kafka/"
             "server/KafkaApis.scala handleDescribeProducersRequest (a topic not in the metadata cache: "
             "UNKNOWN_TOPIC_OR_PARTITION); " + K + "core/src/main/scala/kafka/server/ReplicaManager.scala "
             "activeProducerState, getPartitionOrError; " + K + "core/src/main/scala/kafka/cluster/Partition.scala "
             "activeProducerState; "
             + K + "core/src/main/scala/kafka/log/UnifiedLog.scala activeProducers (storage's UnifiedLog.java from "
             "4.0); " + STORAGE + "ProducerStateManager.java activeProducers; " + STORAGE + "ProducerStateEntry.java "
             "lastSeq, lastTimestamp; " + STORAGE + "ProducerAppendInfo.java appendDataBatch (maxTimestamp)")

#: the records' timestamps are drawn as ms after a base this far before now
BASE_BEFORE_NOW_MS = 60_000
#: what DescribeProducers lists for a producer outside any transaction
NO_COORDINATOR_EPOCH, NO_TXN_START_OFFSET = -1, -1


@pytest.mark.prop("W1", source=W1_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.DescribeProducers]))
def test_w1_describe_producers_lists_the_idempotent_producer_that_wrote_to_a_partition(check, api_key, version):
    """After InitProducerId (no transactional id) gave an idempotent producer id p and epoch
    e, and 1-3 Produce batches carrying p, e and consecutive sequences from 0 appended n
    records to partition 0 of a fresh topic of two partitions: DescribeProducers of
    partitions 0, 1 and 2 and of partition 0 of a topic that does not exist answers partition 0
    NONE with exactly one active producer, producer_id p, producer_epoch e, last_sequence
    n - 1, last_timestamp the last batch's largest CreateTime, coordinator_epoch -1 and
    current_txn_start_offset -1; partition 1 (never written) NONE and no producer; partition 2
    (the topic lacks it: ``ReplicaManager.getPartitionOrError``) and the unknown topic's
    partition UNKNOWN_TOPIC_OR_PARTITION (``handleDescribeProducersRequest``), each alone,
    without changing the others' answers."""
    check.require(ApiKey.DescribeProducers, version)
    check.require(ApiKey.InitProducerId)
    check.require(ApiKey.Produce)
    check.require_mutations()
    client = check.client()

    def lists(batches):
        admin = Admin(check)
        topic, unknown = check.topic("w1"), check.topic("w1-none")
        admin.create_topic(topic, partitions=2)
        pid, epoch = admin.init_producer_id()
        base = int(time.time() * 1000) - BASE_BEFORE_NOW_MS
        sequence = 0
        for n, batch in enumerate(batches):
            at = admin.produce(topic, 0, len(batch), timestamps=[base + d for d in batch],
                               producer=(pid, epoch, sequence))
            expect_setup(at == sequence, f"setup: idempotent Produce of {len(batch)} records to {topic}-0 "
                                         f"(batch {n}, base sequence {sequence}) answered base offset {at}, "
                                         f"expected {sequence}")
            sequence += len(batch)
        last, stamp = sequence - 1, base + max(batches[-1])
        client.answered(ApiKey.DescribeProducers, version,
                        build.describe_producers(version, [(topic, [0, 1, 2]), (unknown, [0])]))
        name = f"DescribeProducers v{version}"
        at = ["topics", {"name": topic}, "partitions", {"partition_index": 0}]
        check.expect_field(at + ["error_code"], [Errors.NONE], count=1, says=f"{name} of {topic}-0: one result, NONE")
        producer = at + ["active_producers"]
        wrote = f"producer {pid} (epoch {epoch}) appended {sequence} record(s) in {len(batches)} batch(es)"
        check.expect_field(producer + ["producer_id"], [pid], count=1,
                           says=f"{name} of {topic}-0: exactly one active producer, {wrote}")
        for field, want, why in (("producer_epoch", epoch, "the epoch InitProducerId gave"),
                                 ("last_sequence", last, "the last batch's base sequence + its records - 1"),
                                 ("last_timestamp", stamp, "the last batch's max timestamp"),
                                 ("coordinator_epoch", NO_COORDINATOR_EPOCH, "no transaction marker written"),
                                 ("current_txn_start_offset", NO_TXN_START_OFFSET, "no open transaction")):
            check.expect_field(producer + [field], [want], count=1, says=f"{name} of {topic}-0: {field} {want} ({why})")
        other = ["topics", {"name": topic}, "partitions", {"partition_index": 1}]
        check.expect_field(other + ["error_code"], [Errors.NONE], count=1,
                           says=f"{name} of {topic}-1: one result, NONE")
        check.expect_field(other + ["active_producers", "producer_id"], [], count=0,
                           says=f"{name} of {topic}-1 (never written): no active producer")
        beyond = ["topics", {"name": topic}, "partitions", {"partition_index": 2}, "error_code"]
        check.expect_field(beyond, [Errors.UNKNOWN_TOPIC_OR_PARTITION], count=1,
                           says=f"{name} of {topic}-2 (the topic has partitions 0 and 1): one result, "
                                "UNKNOWN_TOPIC_OR_PARTITION")
        none = ["topics", {"name": unknown}, "partitions", {"partition_index": 0}, "error_code"]
        check.expect_field(none, [Errors.UNKNOWN_TOPIC_OR_PARTITION], count=1,
                           says=f"{name} of {unknown}-0 (no such topic): one result, UNKNOWN_TOPIC_OR_PARTITION")

    check.given(gen.batches(), lists, first=gen.FIRST)
