"""ListOffsets faults (catalogue O1-O3): the offsets the Admin client's ``listOffsets`` reads.

Each is a way an implementation of ``UnifiedLog.fetchOffsetByTimestamp`` /
``Partition.fetchOffsetForTimestamp`` can go wrong: LATEST answering the last record's
offset instead of the high watermark (the offset after it), MAX_TIMESTAMP (KIP-734) served as
LATEST (a broker that takes an unknown special timestamp for the newest), and EARLIEST
answering the first offset its log still holds on disk instead of the log start offset
DeleteRecords moved (a broker that forgets the log start until a segment is deleted). All run
over noida, which answers ListOffsets as Kafka does for O1-O3 (measured: 18 pass).
"""
from __future__ import annotations

from protocol import OffsetSpec
from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import Mutant, mutant

OVER = "noida"


def _asked(seen) -> dict[tuple[str, int], int]:
    """(topic, partition) -> the timestamp the request asked for it."""
    return {(t["name"], p["partition_index"]): p["timestamp"]
            for t in seen.request.get("topics") or [] for p in t.get("partitions") or []}


def _map_answers(seen, body, spec: int, change) -> dict:
    """The answer with ``change(partition result)`` applied to each NONE result asked ``spec``."""
    asked = _asked(seen)

    def one(t, p):
        if asked.get((t, p["partition_index"])) == spec and p.get("error_code") == Errors.NONE:
            return change(p)
        return p
    return {**body, "topics": [{**t, "partitions": [one(t["name"], p) for p in t.get("partitions") or []]}
                               for t in body.get("topics") or []]}


@mutant
class LatestOneShort(Mutant):
    """ListOffsets LATEST answers the offset of the last record (high watermark - 1) instead
    of the high watermark, wherever the partition holds a record."""
    name = "list-offsets-latest-one-short"
    catches = ("O1", "O3")
    apis = (ApiKey.ListOffsets,)
    over = OVER

    def response(self, seen, body):
        return _map_answers(seen, body, OffsetSpec.LATEST,
                            lambda p: {**p, "offset": p["offset"] - 1} if p.get("offset", 0) > 0 else p)


@mutant
class MaxTimestampAsLatest(Mutant):
    """ListOffsets MAX_TIMESTAMP (-3) is served as LATEST (-1): the high watermark and no
    timestamp, instead of the record with the largest timestamp."""
    name = "list-offsets-max-timestamp-as-latest"
    catches = ("O2",)
    apis = (ApiKey.ListOffsets,)
    over = OVER

    def request(self, seen):
        if OffsetSpec.MAX_TIMESTAMP not in _asked(seen).values():
            return None
        return {**seen.request, "topics": [
            {**t, "partitions": [{**p, "timestamp": OffsetSpec.LATEST if p["timestamp"] == OffsetSpec.MAX_TIMESTAMP
                                  else p["timestamp"]} for p in t.get("partitions") or []]}
            for t in seen.request.get("topics") or []]}


@mutant
class EarliestIgnoresDeletions(Mutant):
    """ListOffsets EARLIEST answers offset 0, the first offset of the log's first segment,
    whatever DeleteRecords moved the log start offset to."""
    name = "list-offsets-earliest-ignores-deletions"
    catches = ("O3",)
    apis = (ApiKey.ListOffsets,)
    over = OVER

    def response(self, seen, body):
        return _map_answers(seen, body, OffsetSpec.EARLIEST, lambda p: {**p, "offset": 0})
