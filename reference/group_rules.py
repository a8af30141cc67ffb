"""Kafka's rules for consumer groups and their committed offsets (catalogue G1-G4, G6), as
data and small functions.

Sources (apache/kafka):

* ``group-coordinator/src/main/java/org/apache/kafka/coordinator/group/OffsetMetadataManager.java``
  (``validateOffsetCommit``: a commit with generation -1 and no member to a group that does
  not exist creates a simple classic group, ``getOrMaybeCreateClassicGroup(groupId, true)``;
  ``fetchOffsets``: every partition asked is answered, a partition the group holds no offset
  for with offset -1 (``INVALID_OFFSET``), leader epoch -1 and metadata ""; ``deleteOffsets``:
  a partition of a topic the group is not subscribed to answers NONE and its offset goes,
  the others stay; ``deleteAllOffsets``: a deleted group's offsets go with it).
* ``group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupMetadataManager.java``
  (``describeGroups``: a group the coordinator does not have is described as ``Dead``, with
  no member; ``validateDeleteGroup`` / ``deleteGroup``; ``listGroups``).
* ``group-coordinator/src/main/java/org/apache/kafka/coordinator/group/classic/ClassicGroup.java``
  (``validateDeleteGroup``: a Dead group answers GROUP_ID_NOT_FOUND, a Stable or rebalancing
  one NON_EMPTY_GROUP, an Empty one is deleted; ``validateOffsetDelete``; the states' names
  "Empty", "Dead", ...).
* ``clients/src/main/resources/common/message/DescribeGroupsResponse.json``: "Version 6
  returns error code GROUP_ID_NOT_FOUND if the group ID is not found (KIP-1043)" (KIP-1043
  "Administration of groups"); below v6 an unknown group answers NONE.
* ``group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupMetadataManager.java``
  (``consumerGroupDescribe``, ``consumerGroup(groupId, committedOffset)``; KIP-848 "The Next
  Generation of the Consumer Rebalance Protocol"): each group id of a ConsumerGroupDescribe
  is answered on its own; a consumer group (one made by ConsumerGroupHeartbeat) is described
  (``ConsumerGroup.asDescribedGroup``: its state, its members with their subscribed topic
  names and current assignment); a group the coordinator does not have answers
  GROUP_ID_NOT_FOUND ("Group G not found."), and so does a classic group ("Group G is not a
  consumer group."). The message is the exception's from Kafka 4.0; Kafka 3.9 sets none
  (null). Every version (v0, v1: v1 adds the member's ``MemberType``) answers alike.
"""
from __future__ import annotations

from protocol import Errors

#: ClassicGroupState's names as DescribeGroups and ListGroups (v4+) spell them
EMPTY, DEAD = "Empty", "Dead"
#: ConsumerGroupState's names (``modern/consumer/ConsumerGroup.java``): a group whose every
#: member has reached the target assignment is ``Stable``; before, ``Assigning`` or ``Reconciling``
STABLE, ASSIGNING, RECONCILING = "Stable", "Assigning", "Reconciling"
#: OffsetFetch's answer for a partition the group holds no offset for (``INVALID_OFFSET``)
NO_OFFSET = -1
#: DescribeGroups answers an unknown group GROUP_ID_NOT_FOUND from this version (KIP-1043)
DESCRIBE_NOT_FOUND_FROM = 6
#: OffsetFetch lists groups (``groups[]``) from v8; OffsetCommit and OffsetFetch name topics by id from v10
FETCH_GROUPS_FROM = 8
BY_TOPIC_ID_FROM = 10

#: a partition's committed offset and metadata
Committed = tuple[int, str]


def describe_unknown_code(version: int) -> int:
    """The code DescribeGroups answers for a group the coordinator does not have."""
    return int(Errors.GROUP_ID_NOT_FOUND) if version >= DESCRIBE_NOT_FOUND_FROM else int(Errors.NONE)


def consumer_describe_answer(group: str, kind: str) -> tuple[int, list]:
    """ConsumerGroupDescribe's code for ``group`` and the messages it may carry: ``kind``
    "consumer" (a consumer group: NONE, no message), "classic" or "unknown" (GROUP_ID_NOT_FOUND,
    null before Kafka 4.0, the exception's message from it)."""
    if kind == "consumer":
        return int(Errors.NONE), [None]
    said = f"Group {group} is not a consumer group." if kind == "classic" else f"Group {group} not found."
    return int(Errors.GROUP_ID_NOT_FOUND), [None, said]


def delete_group_code(known: bool) -> int:
    """DeleteGroups' code for an empty group (``known``) or one the coordinator does not have."""
    return int(Errors.NONE) if known else int(Errors.GROUP_ID_NOT_FOUND)


def offset_delete_code(known: bool) -> int:
    """OffsetDelete's top-level code for a group the coordinator has (``known``, not
    subscribed to the topic) or does not have."""
    return int(Errors.NONE) if known else int(Errors.GROUP_ID_NOT_FOUND)


def fetched(held: dict[tuple[str, int], Committed], asked: list[tuple[str, int]]) -> dict[tuple[str, int], Committed]:
    """What OffsetFetch answers for each partition asked: what the group holds, or
    ``(NO_OFFSET, "")``."""
    return {tp: held.get(tp, (NO_OFFSET, "")) for tp in asked}


__all__ = ["ASSIGNING", "BY_TOPIC_ID_FROM", "DEAD", "DESCRIBE_NOT_FOUND_FROM", "EMPTY", "FETCH_GROUPS_FROM",
           "NO_OFFSET", "RECONCILING", "STABLE", "consumer_describe_answer", "delete_group_code", "describe_unknown_code", "fetched", "offset_delete_code"]
