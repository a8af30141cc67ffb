"""ListOffsets as the Admin client's ``listOffsets`` uses it: the special timestamps
(``OffsetSpec``) and the first version that may carry each, as data (catalogue O1-O2).

* apache/kafka clients/src/main/java/org/apache/kafka/common/requests/ListOffsetsRequest.java:
  EARLIEST_TIMESTAMP -2, LATEST_TIMESTAMP -1, MAX_TIMESTAMP -3.
* apache/kafka clients/src/main/resources/common/message/ListOffsetsRequest.json: "Version 7
  enables listing offsets by max timestamp (KIP-734)"; KIP-734 "Improve
  AdminClient.listOffsets to return timestamp and offset for the record with the largest
  timestamp".
* apache/kafka core/src/main/scala/kafka/server/ReplicaManager.scala
  ``timestampMinSupportedVersion`` (KafkaApis.scala in 3.9): EARLIEST and LATEST from v1,
  MAX_TIMESTAMP from v7; a smaller version answers UNSUPPORTED_VERSION for that partition
  (3.9 and later; the Admin client never sends it: ``ListOffsetsRequest.Builder`` picks v7 as
  the lowest version when any partition asks MAX_TIMESTAMP). The suite does not send a
  timestamp the row's version cannot express. v0 (removed in 4.0) answers a list of
  offsets and no timestamp; the Admin client's ``ListOffsetsHandler`` builds its request with
  ``ListOffsetsRequest.Builder.forConsumer(requireTimestamp=true, ...)``: v1 and later.
* apache/kafka storage's ``UnifiedLog.fetchOffsetByTimestamp`` (core/src/main/scala/kafka/log/
  UnifiedLog.scala before 4.0): EARLIEST answers the log start offset and LATEST the high
  watermark (``Partition.fetchOffsetForTimestamp``: the last fetchable offset of a
  READ_UNCOMMITTED consumer), both with timestamp -1; MAX_TIMESTAMP answers the record with
  the largest timestamp and that timestamp (the first such record: the segment keeps the
  offset where its largest timestamp was first reached, ``LogSegment.append``, and the batch
  the first record holding it, ``RecordBatch.offsetOfMaxTimestamp``); on a partition that
  holds no record, no record: NONE with offset -1 and timestamp -1
  (``ListOffsetsResponse.UNKNOWN_OFFSET``/``UNKNOWN_TIMESTAMP``).
"""
from __future__ import annotations

from protocol import OffsetSpec

#: the first ListOffsets version that may carry each special timestamp
MIN_VERSION: dict[int, int] = {OffsetSpec.EARLIEST: 1, OffsetSpec.LATEST: 1, OffsetSpec.MAX_TIMESTAMP: 7}

#: ListOffsetsResponse.UNKNOWN_TIMESTAMP / UNKNOWN_OFFSET: no timestamp (EARLIEST, LATEST), no record
UNKNOWN_TIMESTAMP = -1
UNKNOWN_OFFSET = -1


def expressible(spec: int, version: int) -> bool:
    """Whether ListOffsets ``version`` may carry ``spec`` (the suite sends it only then)."""
    return version >= MIN_VERSION[spec]


def specs_at(version: int) -> list[int]:
    """The special timestamps ListOffsets ``version`` may carry, in OffsetSpec order."""
    return [s for s in (OffsetSpec.EARLIEST, OffsetSpec.LATEST, OffsetSpec.MAX_TIMESTAMP) if expressible(s, version)]


def max_timestamp(records: list[int]) -> tuple[int, int]:
    """(offset, timestamp) MAX_TIMESTAMP answers for a partition holding records with these
    timestamps from offset 0 (the first record with the largest timestamp); no record:
    (UNKNOWN_OFFSET, UNKNOWN_TIMESTAMP)."""
    if not records:
        return UNKNOWN_OFFSET, UNKNOWN_TIMESTAMP
    top = max(records)
    return records.index(top), top


__all__ = ["MIN_VERSION", "UNKNOWN_OFFSET", "UNKNOWN_TIMESTAMP", "expressible", "max_timestamp", "specs_at"]
