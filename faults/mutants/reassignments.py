"""Reassignment and election faults (catalogue E1-E3): what KIP-455's and KIP-460's admin
calls read of the controller. A controller that accepts the cancellation of a reassignment
that is not in progress; one that refuses a whole AlterPartitionReassignments batch when one
partition's target is invalid (instead of answering that partition alone); a
ListPartitionReassignments that lists every partition it is asked about as reassigning (a
completed or refused reassignment still listed); an ElectLeaders that answers NONE where the
preferred replica already leads (instead of ELECTION_NOT_NEEDED). Measured over
``kafka:4.4.0`` (tansu and noida advertise none of the three APIs).
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import KAFKA_OVER, Mutant, declared, mutant

OVER = KAFKA_OVER
#: each API's per-topic results and, in each, its per-partition ones
LEVELS = {ApiKey.AlterPartitionReassignments: ("responses", "partitions"),
          ApiKey.ElectLeaders: ("replica_election_results", "partition_result")}


def partitions(api_key: int, body: dict) -> list[dict]:
    """Every per-partition result of the answer."""
    outer, inner = LEVELS[api_key]
    return [p for t in body.get(outer) or [] for p in t.get(inner) or []]


def with_partitions(api_key: int, body: dict, change) -> dict:
    """The answer with each per-partition result replaced by ``change(result)``."""
    outer, inner = LEVELS[api_key]
    return {**body, outer: [{**t, inner: [change(p) for p in t.get(inner) or []]} for t in body.get(outer) or []]}


class PartitionRecoding(Mutant):
    """Answers ``recodes[1]`` for every partition the broker answered ``recodes[0]``."""
    recodes: tuple[int, int]

    def response(self, seen, body):
        old, new = self.recodes
        if not any(p["error_code"] == old for p in partitions(seen.api_key, body)):
            return None
        return with_partitions(seen.api_key, body, lambda p: p if p["error_code"] != old else
                               {**p, "error_code": new, "error_message": None})


declared(PartitionRecoding, "reassignment-cancel-without-one-accepted",
         """AlterPartitionReassignments answers the cancellation (null replicas) of a partition with
         no reassignment in progress NONE instead of NO_REASSIGNMENT_IN_PROGRESS.""",
         catches=("E1",), apis=(ApiKey.AlterPartitionReassignments,), over=OVER,
         recodes=(Errors.NO_REASSIGNMENT_IN_PROGRESS, Errors.NONE))


@mutant
class InvalidReassignmentFailsTheBatch(Mutant):
    """AlterPartitionReassignments answers every partition of the request
    INVALID_REPLICA_ASSIGNMENT when one of them is, instead of that partition alone."""
    name = "reassignment-invalid-fails-the-batch"
    catches = ("E1",)
    apis = (ApiKey.AlterPartitionReassignments,)
    over = OVER

    def response(self, seen, body):
        bad = Errors.INVALID_REPLICA_ASSIGNMENT
        if not any(p["error_code"] == bad for p in partitions(seen.api_key, body)):
            return None
        return with_partitions(seen.api_key, body, lambda p: {**p, "error_code": bad,
                                                              "error_message": p.get("error_message") or bad.name})


@mutant
class ListsEveryNamedPartition(Mutant):
    """ListPartitionReassignments lists every partition it names as reassigning (with no
    replica adding or removing), whether or not a reassignment is in progress."""
    name = "list-reassignments-lists-every-named-partition"
    catches = ("E1", "E2")
    apis = (ApiKey.ListPartitionReassignments,)
    over = OVER

    def response(self, seen, body):
        asked = seen.request.get("topics")
        if not asked:
            return None
        return {**body, "topics": [
            {"name": t["name"], "partitions": [{"partition_index": p, "replicas": [], "adding_replicas": [],
                                                "removing_replicas": []} for p in t["partition_indexes"]]}
            for t in asked]}


declared(PartitionRecoding, "elect-leaders-not-needed-answers-none",
         """ElectLeaders answers a partition whose preferred replica already leads NONE (as if
         elected) instead of ELECTION_NOT_NEEDED.""",
         catches=("E3",), apis=(ApiKey.ElectLeaders,), over=OVER, recodes=(Errors.ELECTION_NOT_NEEDED, Errors.NONE))
