"""Consumer group faults (catalogue G1-G4): an OffsetFetch that answers each committed offset
one past what was committed, a DescribeGroups
that describes a group it does not have as an empty one, a DeleteGroups that acknowledges
deleting a group it does not have, and an OffsetDelete that does the same. All run over
kafka:4.4.0 (noida serves no group API).
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import Mutant, mutant, recode

KAFKA = "kafka:4.4.0"


def _partitions(topics: list, change) -> list:
    return [{**t, "partitions": [change(p) for p in t.get("partitions") or []]} for t in topics or []]


@mutant
class OffsetFetchOneTooFar(Mutant):
    """OffsetFetch answers each committed offset one past what was committed (a broker that
    answers the position after the committed record instead of the committed offset)."""
    name = "offset-fetch-one-too-far"
    catches = ("G1",)
    apis = (ApiKey.OffsetFetch,)
    over = KAFKA

    def response(self, seen, body):
        def bump(p):
            o = p.get("committed_offset", -1)
            return {**p, "committed_offset": o + 1} if o >= 0 else p
        if "groups" in body and body.get("groups") is not None:
            return {**body, "groups": [{**g, "topics": _partitions(g.get("topics"), bump)} for g in body["groups"]]}
        return {**body, "topics": _partitions(body.get("topics"), bump)}


@mutant
class DescribeGroupsUnknownAsEmpty(Mutant):
    """DescribeGroups describes a group it does not have as an empty one, error NONE (a
    broker that creates a group record on any lookup)."""
    name = "describe-groups-unknown-as-empty"
    catches = ("G2",)
    apis = (ApiKey.DescribeGroups,)
    over = KAFKA

    def response(self, seen, body):
        def empty(d):
            if d.get("group_state") != "Dead" and d.get("error_code") != Errors.GROUP_ID_NOT_FOUND:
                return d
            out = {**d, "group_state": "Empty", "error_code": int(Errors.NONE)}
            if "error_message" in d:
                out["error_message"] = None
            return out
        return {**body, "groups": [empty(d) for d in body.get("groups") or []]}


@mutant
class DeleteGroupsUnknownAccepted(Mutant):
    """DeleteGroups answers NONE for a group it does not have (a broker that deletes by
    writing a tombstone whatever the group's state)."""
    name = "delete-groups-unknown-accepted"
    catches = ("G3",)
    apis = (ApiKey.DeleteGroups,)
    over = KAFKA

    def response(self, seen, body):
        return recode(ApiKey.DeleteGroups, body, Errors.GROUP_ID_NOT_FOUND, Errors.NONE)


@mutant
class OffsetDeleteUnknownGroupAccepted(Mutant):
    """OffsetDelete of a group it does not have answers NONE with a result per partition (a
    broker that deletes offsets without looking the group up)."""
    name = "offset-delete-unknown-group-accepted"
    catches = ("G4",)
    apis = (ApiKey.OffsetDelete,)
    over = KAFKA

    def response(self, seen, body):
        if body.get("error_code") != Errors.GROUP_ID_NOT_FOUND:
            return None
        topics = [{"name": t["name"], "partitions": [{"partition_index": p["partition_index"], "error_code": 0}
                                                      for p in t.get("partitions") or []]}
                  for t in seen.request.get("topics") or []]
        return {**body, "error_code": int(Errors.NONE), "topics": topics}


@mutant
class MembersIgnoredWhenDeleting(Mutant):
    """DeleteGroups and OffsetDelete do not look at a group's members: a group with a member
    answers NONE to DeleteGroups, and a partition of a topic its members subscribe to NONE to
    OffsetDelete (a coordinator that judges deletions by the offsets alone)."""
    name = "members-ignored-when-deleting"
    catches = ("G5",)
    apis = (ApiKey.DeleteGroups, ApiKey.OffsetDelete)
    over = KAFKA

    def response(self, seen, body):
        if seen.api_key == ApiKey.DeleteGroups:
            return recode(ApiKey.DeleteGroups, body, Errors.NON_EMPTY_GROUP, Errors.NONE)
        topics = body.get("topics") or []
        if not any(p.get("error_code") == Errors.GROUP_SUBSCRIBED_TO_TOPIC for t in topics
                   for p in t.get("partitions") or []):
            return None
        return {**body, "topics": _partitions(topics, lambda p: {**p, "error_code": int(Errors.NONE)}
                                              if p.get("error_code") == Errors.GROUP_SUBSCRIBED_TO_TOPIC else p)}
