"""O1-O3: ListOffsets (API 2) as the Admin client's ``listOffsets`` uses it: EARLIEST, LATEST
and MAX_TIMESTAMP agree with what was produced and with DeleteRecords' low watermark.

Each example creates a fresh run-prefixed topic of one partition, appends records with real
Produce requests (acks=-1, each record's CreateTime drawn: ``strategies/list_offsets.py``)
through the same producer R1 uses (``fixtures.admin.Admin.produce``), and asks ListOffsets at
the row's version, one special timestamp per request (a partition listed twice in one
request answers INVALID_REQUEST, ``ReplicaManager.fetchOffset``). A timestamp the row's
version cannot carry is not sent (MAX_TIMESTAMP below v7: ``reference/list_offsets_rules.py``).

* O1: EARLIEST answers the log start offset (0 on a fresh topic) and LATEST the high
  watermark (the records appended), both with timestamp -1, before and after producing.
* O2: MAX_TIMESTAMP (KIP-734, v7+) answers the offset and timestamp of the record with the
  largest timestamp (the first of them, when several hold it); on a partition with no record,
  NONE with offset -1 and timestamp -1.
* O3: after DeleteRecords before offset k (or -1, the high watermark), EARLIEST answers the
  low watermark DeleteRecords returned (k) and LATEST still the high watermark.

Sources: KIP-734 "Improve AdminClient.listOffsets to return timestamp and offset for the
record with the largest timestamp"; apache/kafka ``ListOffsetsRequest.json`` /
``ListOffsetsResponse.json``, ``KafkaApis.handleListOffsetRequest``,
``ReplicaManager.fetchOffset``, ``Partition.fetchOffsetForTimestamp`` and
``UnifiedLog.fetchOffsetByTimestamp`` (storage; core/src/main/scala/kafka/log/UnifiedLog.scala
before 4.0).
"""
from __future__ import annotations

import time

import pytest

from fixtures.admin import Admin
from fixtures.harness import Unsupported, expect_setup
from protocol import ApiKey, Errors, OffsetSpec
from protocol import requests as build
from reference.list_offsets_rules import MIN_VERSION, UNKNOWN_TIMESTAMP, expressible, max_timestamp
from strategies import list_offsets as gen

from .parametrize import every_version
from protocol.kafka_sources import KAFKA as K

MSG = K + "clients/src/main/resources/common/message/"
FETCH = (K + "core/src/main/scala/kafka/server/ReplicaManager.scala fetchOffset (timestampMinSupportedVersion); "
         + K + "core/src/main/scala/kafka/cluster/Partition.scala fetchOffsetForTimestamp; " + K
         + "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java fetchOffsetByTimestamp")
O1_SOURCE = (MSG + "ListOffsetsRequest.json, ListOffsetsResponse.json; " + K + "core/src/main/scala/kafka/server/"
             "KafkaApis.scala handleListOffsetRequest; " + FETCH + " (EARLIEST: log start, LATEST: high watermark)")
O2_SOURCE = ("KIP-734 \"Improve AdminClient.listOffsets to return timestamp and offset for the record with the "
             "largest timestamp\"; " + MSG + "ListOffsetsRequest.json (version 7: max timestamp); " + FETCH
             + " (MAX_TIMESTAMP); " + K + "storage/src/main/java/org/apache/kafka/storage/internals/log/"
             "LogSegment.java append (maxTimestampAndOffsetSoFar)")
O3_SOURCE = ("catalogue R1; " + FETCH + " (EARLIEST: the log start offset); " + K + "core/src/main/scala/kafka/"
             "cluster/Partition.scala deleteRecordsOnLeader; " + K + "storage/src/main/java/org/apache/kafka/"
             "storage/internals/log/UnifiedLog.java maybeIncrementLogStartOffset")

#: DeleteRecordsRequest.HIGH_WATERMARK: delete up to the high watermark.
HIGH_WATERMARK = -1
#: the records' timestamps are drawn as ms after a base this far before now
BASE_BEFORE_NOW_MS = 60_000

_NAMES = {OffsetSpec.EARLIEST: "EARLIEST", OffsetSpec.LATEST: "LATEST", OffsetSpec.MAX_TIMESTAMP: "MAX_TIMESTAMP"}


class Partition:
    """One fresh topic of one partition, what was appended to it and its log start."""

    def __init__(self, check, hint: str):
        self.check, self.admin = check, Admin(check)
        self.client = check.client()
        self.topic = check.topic(hint)
        self.admin.create_topic(self.topic)         # waits until the partition serves ListOffsets
        self.stamps: list[int] = []                 # every record's timestamp, by offset
        self.low = 0

    def produce(self, batches: list[list[int]]) -> None:
        base = int(time.time() * 1000) - BASE_BEFORE_NOW_MS
        for batch in batches:
            stamps = [base + d for d in batch]
            at = self.admin.produce(self.topic, 0, len(stamps), timestamps=stamps)
            expect_setup(at == len(self.stamps), f"setup: Produce of {len(stamps)} records to {self.topic}-0 "
                                                 f"answered base offset {at}, expected {len(self.stamps)}")
            self.stamps += stamps

    def ask(self, version: int, spec: int, offset: int, timestamp: int, why: str) -> None:
        """ListOffsets ``spec`` at ``version``: NONE, ``offset`` and ``timestamp``."""
        name = f"ListOffsets v{version} {_NAMES[spec]} of {self.topic}-0"
        self.client.answered(ApiKey.ListOffsets, version, build.list_offsets(version, [(self.topic, [0])], spec))
        at = ["topics", {"name": self.topic}, "partitions", {"partition_index": 0}]
        self.check.expect_field(at + ["error_code"], [Errors.NONE], count=1, says=f"{name}: one result, 0 NONE")
        self.check.expect_field(at + ["offset"], [offset], count=1, says=f"{name}: offset {offset} ({why})")
        self.check.expect_field(at + ["timestamp"], [timestamp], count=1,
                                says=f"{name}: timestamp {timestamp}" + (" (none: EARLIEST and LATEST carry no "
                                                                         "timestamp)" if spec != OffsetSpec.MAX_TIMESTAMP
                                                                         else f" ({why})"))

    def earliest_and_latest(self, version: int, when: str) -> None:
        high = len(self.stamps)
        self.ask(version, OffsetSpec.EARLIEST, self.low, UNKNOWN_TIMESTAMP, f"{when}: the log start offset")
        self.ask(version, OffsetSpec.LATEST, high, UNKNOWN_TIMESTAMP,
                 f"{when}: the high watermark, {high} record(s) appended")

    def before_and_after(self, batches, look) -> None:
        """``look(when)`` of the fresh topic, then, if there are ``batches``, again after
        producing them."""
        look("a fresh topic")
        if batches:
            self.produce(batches)
            look(f"after {len(batches)} Produce batch(es)")

    def largest(self, version: int, when: str) -> None:
        offset, stamp = max_timestamp(self.stamps)
        why = (f"{when}: no record" if not self.stamps else
               f"{when}: the first of the {len(self.stamps)} record(s) with the largest timestamp")
        self.ask(version, OffsetSpec.MAX_TIMESTAMP, offset, stamp, why)


def _require(check, version: int, spec: int) -> None:
    check.require(ApiKey.ListOffsets, version)
    if not expressible(spec, version):
        raise Unsupported(f"ListOffsets v{version} cannot carry {_NAMES[spec]} ({int(spec)}): from "
                          f"v{MIN_VERSION[spec]} (ListOffsetsRequest.json); the suite does not send it")
    check.require(ApiKey.Produce)


def _carrying(spec: int):
    """ListOffsets' versions that can carry ``spec`` (EARLIEST and LATEST: v1+, MAX_TIMESTAMP:
    v7+); the others are not asked it, as the Admin client never sends it there."""
    return [p for p in every_version([ApiKey.ListOffsets]) if expressible(spec, p.values[1])]


@pytest.mark.prop("O1", source=O1_SOURCE)
@pytest.mark.parametrize("api_key,version", _carrying(OffsetSpec.LATEST))
def test_o1_earliest_answers_the_log_start_and_latest_the_records_produced(check, api_key, version):
    """On a fresh topic, before any record and after 0-3 Produce batches of 1-5 records:
    ListOffsets EARLIEST (-2) answers NONE, offset 0 (the log start offset) and LATEST (-1)
    NONE, offset n (the high watermark: the n records appended), both with timestamp -1
    (``UnifiedLog.fetchOffsetByTimestamp``: "For the earliest and latest, we do not need to
    return the timestamp")."""
    _require(check, version, OffsetSpec.LATEST)
    check.require_mutations()

    def agrees(batches):
        part = Partition(check, "o1")
        part.before_and_after(batches, lambda when: part.earliest_and_latest(version, when))

    check.given(gen.batches(), agrees)


@pytest.mark.prop("O2", source=O2_SOURCE)
@pytest.mark.parametrize("api_key,version", _carrying(OffsetSpec.MAX_TIMESTAMP))
@pytest.mark.known_deviation("list-offsets-max-timestamp-answers-the-batchs-last-offset")
def test_o2_max_timestamp_answers_the_record_with_the_largest_timestamp(check, api_key, version):
    """KIP-734, ListOffsets v7+: MAX_TIMESTAMP (-3) of a partition holding records answers
    NONE, the offset of the record with the largest timestamp (the first of them when several
    hold it) and that timestamp; of a partition holding none, NONE with offset -1 and
    timestamp -1. Below v7 the version cannot carry it: those versions are not asked. Every
    check first asks records where three share the largest timestamp (``gen.TIED``)."""
    _require(check, version, OffsetSpec.MAX_TIMESTAMP)
    check.require_mutations()

    def largest(batches):
        part = Partition(check, "o2")
        part.before_and_after(batches, lambda when: part.largest(version, when))

    check.given(gen.batches(), largest, first=gen.TIED)


@pytest.mark.prop("O3", source=O3_SOURCE)
@pytest.mark.parametrize("api_key,version", _carrying(OffsetSpec.LATEST))
def test_o3_after_delete_records_earliest_answers_the_low_watermark_it_returned(check, api_key, version):
    """After n records were produced and DeleteRecords (the newest version the broker
    advertises) deleted before offset k (0 <= k <= n, or -1: the high watermark n), which
    answers NONE and low_watermark k: ListOffsets EARLIEST answers k, the low watermark
    DeleteRecords returned, and LATEST still n (``Partition.deleteRecordsOnLeader`` moves the
    log start, never the high watermark)."""
    _require(check, version, OffsetSpec.EARLIEST)
    check.require(ApiKey.DeleteRecords)
    check.require_mutations()

    def follows(value):
        batches, k = value
        part = Partition(check, "o3")
        part.produce(batches)
        high = len(part.stamps)
        want = high if k == HIGH_WATERMARK else k
        part.admin.delete_records(part.topic, {0: k})
        at = ["topics", {"name": part.topic}, "partitions", {"partition_index": 0}]
        what = "-1 (the high watermark)" if k == HIGH_WATERMARK else str(k)
        check.expect_field(at + ["error_code"], [Errors.NONE], count=1,
                           says=f"DeleteRecords of {part.topic}-0 before {what}, {high} record(s): 0 NONE")
        check.expect_field(at + ["low_watermark"], [want], count=1,
                           says=f"DeleteRecords of {part.topic}-0 before {what}: low_watermark {want}")
        part.low = want
        part.earliest_and_latest(version, f"after DeleteRecords before {what} answered low_watermark {want}")

    check.given(gen.with_deletion(), follows)
