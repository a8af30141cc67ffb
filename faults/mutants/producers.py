"""DescribeProducers faults (catalogue W1): what KIP-664's tooling reads of a partition's
producers. A broker that reports, as a producer's last sequence, the sequence it expects next
(``ProducerStateEntry.lastSeq`` + 1: the number the duplicate check compares a new batch
with) instead of the last one written; one that answers a partition of a topic it does not
have as an empty one (NONE, no producer) instead of UNKNOWN_TOPIC_OR_PARTITION. Measured
over ``kafka:4.4.0`` (tansu does not serve DescribeProducers; noida serves it but lists no
producer, catalogue W1 fails there).
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import KAFKA_OVER, Mutant, mutant

OVER = KAFKA_OVER


@mutant
class LastSequenceIsTheNext(Mutant):
    """DescribeProducers answers each active producer's last_sequence + 1 (the next sequence
    the partition expects of it) instead of the last sequence it appended."""
    name = "describe-producers-last-sequence-is-the-next"
    catches = ("W1",)
    apis = (ApiKey.DescribeProducers,)
    over = OVER

    def response(self, seen, body):
        return {**body, "topics": [
            {**t, "partitions": [{**p, "active_producers": [{**a, "last_sequence": a["last_sequence"] + 1}
                                                            for a in p.get("active_producers") or []]}
                                 for p in t.get("partitions") or []]}
            for t in body.get("topics") or []]}


@mutant
class UnknownTopicHasNoProducers(Mutant):
    """DescribeProducers answers a partition of a topic that does not exist NONE with no
    active producer (as if it were an empty partition), instead of UNKNOWN_TOPIC_OR_PARTITION."""
    name = "describe-producers-unknown-topic-has-no-producers"
    catches = ("W1",)
    apis = (ApiKey.DescribeProducers,)
    over = OVER

    def response(self, seen, body):
        def one(p):
            if p.get("error_code") == Errors.UNKNOWN_TOPIC_OR_PARTITION:
                return {**p, "error_code": Errors.NONE, "error_message": None, "active_producers": []}
            return p
        return {**body, "topics": [{**t, "partitions": [one(p) for p in t.get("partitions") or []]}
                                   for t in body.get("topics") or []]}
