"""Share and streams group faults (catalogue Y1-Y2, KIP-932, KIP-1071): a coordinator that
describes a group it does not have (or one of another type) as a dead group, as classic
DescribeGroups did below v6, instead of GROUP_ID_NOT_FOUND; one that takes any group for a
share group in the share group offsets APIs (deleting and altering a classic group's share
offsets, and answering start offset 0 where no share-partition state is held). Measured over
``kafka:4.4.0`` (kafka:3.9.2 does not serve these APIs; tansu and noida do not advertise them).
"""
from __future__ import annotations

from protocol import ZERO_UUID
from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import KAFKA_OVER, Mutant, Reply, mutant

OVER = KAFKA_OVER


@mutant
class DescribedDead(Mutant):
    """ShareGroupDescribe and StreamsGroupDescribe answer each group they do not find NONE,
    state Dead, no member (DescribeGroups' answer below v6), instead of GROUP_ID_NOT_FOUND."""
    name = "share-streams-describe-unknown-group-dead"
    catches = ("Y1",)
    apis = (ApiKey.ShareGroupDescribe, ApiKey.StreamsGroupDescribe)
    over = OVER

    def response(self, seen, body):
        def one(g):
            if g.get("error_code") == Errors.GROUP_ID_NOT_FOUND:
                return {**g, "error_code": Errors.NONE, "error_message": None, "group_state": "Dead"}
            return g
        return {**body, "groups": [one(g) for g in body.get("groups") or []]}


@mutant
class AnyGroupIsAShareGroup(Mutant):
    """AlterShareGroupOffsets and DeleteShareGroupOffsets answer NONE where Kafka answers
    GROUP_ID_NOT_FOUND (a classic or unknown group taken for a share group), and
    DescribeShareGroupOffsets answers start offset 0 for a partition without share-partition
    state (-1)."""
    name = "share-offsets-any-group-is-a-share-group"
    catches = ("Y2",)
    apis = (ApiKey.DescribeShareGroupOffsets, ApiKey.AlterShareGroupOffsets, ApiKey.DeleteShareGroupOffsets)
    over = OVER

    def response(self, seen, body):
        if seen.api_key == ApiKey.DescribeShareGroupOffsets:
            return {**body, "groups": [
                {**g, "topics": [{**t, "partitions": [{**p, "start_offset": 0 if p["start_offset"] == -1
                                                       else p["start_offset"]} for p in t.get("partitions") or []]}
                                 for t in g.get("topics") or []]}
                for g in body.get("groups") or []]}
        if body.get("error_code") == Errors.GROUP_ID_NOT_FOUND:
            return {**body, "error_code": Errors.NONE, "error_message": None}
        return body


@mutant
class DeleteKeepsTheOffsets(Mutant):
    """DeleteShareGroupOffsets answers NONE for the group and each topic named without
    forwarding the request: the start offsets stay."""
    name = "share-offsets-delete-keeps-them"
    catches = ("Y3",)
    apis = (ApiKey.DeleteShareGroupOffsets,)
    over = OVER

    def request(self, seen):
        return Reply({"throttle_time_ms": 0, "error_code": Errors.NONE, "error_message": None, "responses": [
            {"topic_name": t["topic_name"], "topic_id": ZERO_UUID, "error_code": Errors.NONE, "error_message": None}
            for t in seen.request.get("topics") or []]})


@mutant
class MemberSubscribesToNothing(Mutant):
    """ShareGroupDescribe lists every member with no subscribed topic."""
    name = "share-describe-member-subscribes-to-nothing"
    catches = ("Y4",)
    apis = (ApiKey.ShareGroupDescribe,)
    over = OVER

    def response(self, seen, body):
        return {**body, "groups": [{**g, "members": [{**m, "subscribed_topic_names": []}
                                                     for m in g.get("members") or []]}
                                   for g in body.get("groups") or []]}
