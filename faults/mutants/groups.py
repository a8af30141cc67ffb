"""Consumer group faults (catalogue G1-G6): an OffsetFetch that answers each committed offset
one past what was committed (G1), a coordinator that takes any group id for an existing
empty group when describing and deleting (G2-G4; G6: ConsumerGroupDescribe too), and one
that ignores a group's members when deleting it and describing it (G5, G6). Three mutants,
so that their matrix stays within the CI budget (one Kafka run each). All run over
kafka:4.4.0 (noida serves no group API).
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import KAFKA_OVER, Mutant, mutant, recode


def _partitions(topics: list, change) -> list:
    return [{**t, "partitions": [change(p) for p in t.get("partitions") or []]} for t in topics or []]


@mutant
class OffsetFetchOneTooFar(Mutant):
    """OffsetFetch answers each committed offset one past what was committed (a broker that
    answers the position after the committed record instead of the committed offset)."""
    name = "offset-fetch-one-too-far"
    catches = ("G1",)
    apis = (ApiKey.OffsetFetch,)
    over = KAFKA_OVER

    def response(self, seen, body):
        def bump(p):
            o = p.get("committed_offset", -1)
            return {**p, "committed_offset": o + 1} if o >= 0 else p
        if "groups" in body and body.get("groups") is not None:
            return {**body, "groups": [{**g, "topics": _partitions(g.get("topics"), bump)} for g in body["groups"]]}
        return {**body, "topics": _partitions(body.get("topics"), bump)}


@mutant
class UnknownGroupAsEmpty(Mutant):
    """The coordinator takes any group id for an existing empty group (a broker that makes a
    group record on every lookup): DescribeGroups describes a group it does not have as
    Empty with error NONE, DeleteGroups answers NONE for it, and OffsetDelete of it answers
    NONE with a result per partition; ConsumerGroupDescribe describes a group it does not
    have, or a classic one, as an Empty consumer group with error NONE."""
    name = "unknown-group-as-empty"
    catches = ("G2", "G3", "G4", "G6")
    apis = (ApiKey.DescribeGroups, ApiKey.DeleteGroups, ApiKey.OffsetDelete, ApiKey.ConsumerGroupDescribe)
    over = KAFKA_OVER

    def response(self, seen, body):
        if seen.api_key in (ApiKey.DescribeGroups, ApiKey.ConsumerGroupDescribe):
            return {**body, "groups": [self._empty(d) for d in body.get("groups") or []]}
        if seen.api_key == ApiKey.DeleteGroups:
            return recode(ApiKey.DeleteGroups, body, Errors.GROUP_ID_NOT_FOUND, Errors.NONE)
        if body.get("error_code") != Errors.GROUP_ID_NOT_FOUND:
            return None
        topics = [{"name": t["name"], "partitions": [{"partition_index": p["partition_index"], "error_code": 0}
                                                      for p in t.get("partitions") or []]}
                  for t in seen.request.get("topics") or []]
        return {**body, "error_code": int(Errors.NONE), "topics": topics}

    @staticmethod
    def _empty(d: dict) -> dict:
        if d.get("group_state") != "Dead" and d.get("error_code") != Errors.GROUP_ID_NOT_FOUND:
            return d
        out = {**d, "group_state": "Empty", "error_code": int(Errors.NONE)}
        if "error_message" in d:
            out["error_message"] = None
        return out


@mutant
class MembersIgnored(Mutant):
    """The coordinator does not look at a group's members: a group with a member answers
    NONE to DeleteGroups, a partition of a topic its members subscribe to NONE to
    OffsetDelete (deletions judged by the offsets alone), and ConsumerGroupDescribe
    describes a consumer group with no member (its state and epochs alone)."""
    name = "members-ignored"
    catches = ("G5", "G6")
    apis = (ApiKey.DeleteGroups, ApiKey.OffsetDelete, ApiKey.ConsumerGroupDescribe)
    over = KAFKA_OVER

    def response(self, seen, body):
        if seen.api_key == ApiKey.ConsumerGroupDescribe:
            return {**body, "groups": [{**g, "members": []} for g in body.get("groups") or []]}
        if seen.api_key == ApiKey.DeleteGroups:
            return recode(ApiKey.DeleteGroups, body, Errors.NON_EMPTY_GROUP, Errors.NONE)
        topics = body.get("topics") or []
        if not any(p.get("error_code") == Errors.GROUP_SUBSCRIBED_TO_TOPIC for t in topics
                   for p in t.get("partitions") or []):
            return None
        return {**body, "topics": _partitions(topics, lambda p: {**p, "error_code": int(Errors.NONE)}
                                              if p.get("error_code") == Errors.GROUP_SUBSCRIBED_TO_TOPIC else p)}
