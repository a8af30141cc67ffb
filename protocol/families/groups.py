"""The group APIs an administrator sends (finding a coordinator; listing, describing and
deleting groups of every type; committing, fetching and deleting their offsets; a share
group's offsets): their declarations, request builders, Kafka's error codes and the safe
values of generated requests.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker authorizes (``KafkaApis``) and hands the request
to the group coordinator (``GroupCoordinatorService`` -> ``GroupMetadataManager``,
``OffsetMetadataManager``); every coordinator operation maps its failures the same way
(``CoordinatorOperationExceptionHelper.handleOperationException``: a partition that is not
loaded, not led here or not writable becomes COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR or
COORDINATOR_LOAD_IN_PROGRESS, anything unexpected UNKNOWN_SERVER_ERROR). A group member's
own requests (JoinGroup, SyncGroup, LeaveGroup, the heartbeats) are ``participants.py``'s.
"""
from __future__ import annotations

import uuid
from typing import Iterable, Mapping, Sequence

from ..building import Inexpressible, builds
from ..declaring import ADMIN, RUN_PARTITION, RUN_PARTITIONS, ApiKey, ApiSpec, Choice, Distinct, Entity, ErrorRule, Family, Range, Safe, \
    from_kafka_clients
from ..errors import Errors
from ..kafka_sources import HANDLE_ERROR, KAFKA_APIS, MSG, message_source, src

_GROUPS = "groups[group_id]"
_KEY = {"key": Entity.COORDINATOR_KEY, "coordinator_keys": Entity.COORDINATOR_KEY}

DECLARATIONS = (
    ApiSpec(ApiKey.FindCoordinator, ADMIN, "coordinators[key]", "coordinator_keys[]", names=_KEY),
    ApiSpec(ApiKey.ListGroups, ADMIN, identity={"groups": ("group_id",)}),
    ApiSpec(ApiKey.DescribeGroups, ADMIN, _GROUPS, "groups[]", identity={"groups.members": ("member_id",)}),
    ApiSpec(ApiKey.ConsumerGroupDescribe, ADMIN, _GROUPS, "group_ids[]",
            schemas=from_kafka_clients("ConsumerGroupDescribe"), identity={
                "groups.members": ("member_id",),
                "groups.members.assignment.topic_partitions": ("topic_id",),
                "groups.members.target_assignment.topic_partitions": ("topic_id",)}),
    ApiSpec(ApiKey.ShareGroupDescribe, ADMIN, _GROUPS, "group_ids[]", schemas=from_kafka_clients("ShareGroupDescribe"),
            identity={"groups.members": ("member_id",),
                      "groups.members.assignment.topic_partitions": ("topic_id",)}),
    ApiSpec(ApiKey.StreamsGroupDescribe, ADMIN, _GROUPS, "group_ids[]",
            schemas=from_kafka_clients("StreamsGroupDescribe"), identity={
                "groups.members": ("member_id",),
                "groups.topology.subtopologies": ("subtopology_id",),
                "groups.topology_description.subtopologies": ("subtopology_id",),
                "groups.topology_description.subtopologies.nodes": ("name",)}),
    ApiSpec(ApiKey.DeleteGroups, ADMIN, "results[group_id]", "groups_names[]", mutates="deletes groups",
            schemas=from_kafka_clients("DeleteGroups")),
    ApiSpec(ApiKey.OffsetFetch, ADMIN, (_GROUPS, "topics[name].partitions[partition_index]"),
            (_GROUPS, "topics[name].partition_indexes[]")),
    ApiSpec(ApiKey.OffsetCommit, ADMIN, "topics[name|topic_id].partitions[partition_index]",
            "topics[name|topic_id].partitions[partition_index]", mutates="commits group offsets"),
    ApiSpec(ApiKey.OffsetDelete, ADMIN, "topics[name].partitions[partition_index]",
            "topics[name].partitions[partition_index]", mutates="deletes group offsets"),
    ApiSpec(ApiKey.DescribeShareGroupOffsets, ADMIN, _GROUPS, _GROUPS,
            schemas=from_kafka_clients("DescribeShareGroupOffsets"),
            identity={"groups.topics": ("topic_name",), "groups.topics.partitions": ("partition_index",)}),
    ApiSpec(ApiKey.AlterShareGroupOffsets, ADMIN, "responses[topic_name].partitions[partition_index]",
            "topics[topic_name].partitions[partition_index]", mutates="alters share group offsets",
            schemas=from_kafka_clients("AlterShareGroupOffsets")),
    ApiSpec(ApiKey.DeleteShareGroupOffsets, ADMIN, "responses[topic_name]", "topics[topic_name]",
            mutates="deletes share group offsets", schemas=from_kafka_clients("DeleteShareGroupOffsets")),
)


# -- request builders ------------------------------------------------------------------------

@builds(ApiKey.FindCoordinator)
def find_coordinator(v: int, key: str, key_type: int = 0) -> dict:
    """The coordinator of group ``key`` (``key_type`` 0) or transaction ``key`` (1): one key
    until v3, ``coordinator_keys`` from v4 (FindCoordinatorRequest.json)."""
    if v >= 4:
        return {"key_type": key_type, "coordinator_keys": [key]}
    return {"key": key, **({"key_type": key_type} if v >= 1 else {})}


@builds(ApiKey.ListGroups)
def list_groups(v: int) -> dict:
    """Every group, of every state and type (filters from v4 and v5: ListGroupsRequest.json)."""
    body = {}
    if v >= 4:
        body["states_filter"] = []
    if v >= 5:
        body["types_filter"] = []
    return body


@builds(ApiKey.DeleteGroups)
def delete_groups(v: int, names: Sequence[str]) -> dict:
    """Same fields at every version 0-3 (DeleteGroupsRequest.json)."""
    return {"groups_names": list(names)}


@builds(ApiKey.DescribeGroups)
def describe_groups(v: int, names: Sequence[str]) -> dict:
    """The groups ``names``; authorized operations (v3+) not asked for (DescribeGroupsRequest.json)."""
    body = {"groups": list(names)}
    if v >= 3:
        body["include_authorized_operations"] = False
    return body


@builds(ApiKey.ConsumerGroupDescribe)
def consumer_group_describe(v: int, groups: Sequence[str]) -> dict:
    """Describe ``groups`` as consumer groups, without authorized operations
    (ConsumerGroupDescribeRequest.json)."""
    return {"group_ids": list(groups), "include_authorized_operations": False}


@builds(ApiKey.ShareGroupDescribe)
def share_group_describe(v: int, names: Sequence[str]) -> dict:
    """The groups ``names``, authorized operations not asked for (ShareGroupDescribeRequest.json)."""
    return {"group_ids": list(names), "include_authorized_operations": False}


@builds(ApiKey.StreamsGroupDescribe)
def streams_group_describe(v: int, names: Sequence[str]) -> dict:
    """The groups ``names``, no authorized operations nor (v1+) topology description
    (StreamsGroupDescribeRequest.json)."""
    body = {"group_ids": list(names), "include_authorized_operations": False}
    if v >= 1:
        body["include_topology_description"] = False
    return body


#: a committed offset: ``(partition, offset, metadata)``
Commit = tuple[int, int, str]


def _offsets_topic(api: str, v: int, name: str, ids: Mapping[str, uuid.UUID] | None) -> dict:
    """How OffsetCommit and OffsetFetch name a topic: by name until v9, by id from v10 (``ids``
    gives each topic's id)."""
    if v < 10:
        return {"name": name}
    if not ids or name not in ids:
        raise Inexpressible(f"{api} v{v} names topics by id (v10+); no id for {name!r}")
    return {"topic_id": ids[name]}


@builds(ApiKey.OffsetCommit)
def offset_commit(v: int, group: str, offsets: Iterable[tuple[str, Iterable[Commit]]], *,
                  ids: Mapping[str, uuid.UUID] | None = None) -> dict:
    """Commit ``offsets`` (``(topic, [(partition, offset, metadata), ...])``) for ``group``
    as the Admin client's ``alterConsumerGroupOffsets`` does: a simple group, no member
    (generation -1, member id ""), no instance id (v7+), no leader epoch (-1, v6+), the
    broker's retention (-1, v2-v4). Topics by name until v9, by id from v10 (``ids``
    gives each topic's id; OffsetCommitRequest.json)."""
    def topic(name, parts):
        return {**_offsets_topic("OffsetCommit", v, name, ids),
                "partitions": [{"partition_index": p, "committed_offset": o, "committed_metadata": m,
                                **({"committed_leader_epoch": -1} if v >= 6 else {})} for p, o, m in parts]}
    body = {"group_id": group, "generation_id_or_member_epoch": -1, "member_id": "",
            "topics": [topic(n, ps) for n, ps in offsets]}
    if v >= 7:
        body["group_instance_id"] = None
    if 2 <= v <= 4:
        body["retention_time_ms"] = -1
    return body


@builds(ApiKey.OffsetFetch)
def offset_fetch(v: int, group: str, topics: Iterable[tuple[str, Iterable[int]]] | None, *,
                 ids: Mapping[str, uuid.UUID] | None = None) -> dict:
    """The committed offsets of ``group`` for ``topics`` (``(topic, [partition, ...])``;
    None: every topic, v2+), as the Admin client's ``listConsumerGroupOffsets`` does: one
    group until v7, a ``groups`` list from v8 (no member, epoch -1, v9+), topics by id from
    v10 (``ids``), ``require_stable`` from v7 (OffsetFetchRequest.json)."""
    def topic(name, parts):
        return {**_offsets_topic("OffsetFetch", v, name, ids), "partition_indexes": list(parts)}
    if topics is None and v < 2:
        raise Inexpressible(f"OffsetFetch v{v}: every topic (a null topic list) from v2")
    listed = None if topics is None else [topic(n, ps) for n, ps in topics]
    if v >= 8:
        group_entry = {"group_id": group, "topics": listed}
        if v >= 9:
            group_entry.update(member_id=None, member_epoch=-1)
        return {"groups": [group_entry], "require_stable": False}
    body = {"group_id": group, "topics": listed}
    if v >= 7:
        body["require_stable"] = False
    return body


@builds(ApiKey.OffsetDelete)
def offset_delete(v: int, group: str, partitions: Iterable[tuple[str, Iterable[int]]]) -> dict:
    """Delete ``group``'s committed offsets of ``partitions`` (``(topic, [partition, ...])``;
    OffsetDeleteRequest.json)."""
    return {"group_id": group, "topics": [{"name": n, "partitions": [{"partition_index": p} for p in ps]}
                                          for n, ps in partitions]}


@builds(ApiKey.DescribeShareGroupOffsets)
def describe_share_group_offsets(v: int, group: str, topics: Iterable[tuple[str, Iterable[int]]] | None) -> dict:
    """One group's start offsets of ``topics`` ((name, partitions)), or all with None
    (DescribeShareGroupOffsetsRequest.json)."""
    asked = None if topics is None else [{"topic_name": t, "partitions": list(ps)} for t, ps in topics]
    return {"groups": [{"group_id": group, "topics": asked}]}


@builds(ApiKey.AlterShareGroupOffsets)
def alter_share_group_offsets(v: int, group: str, offsets: Iterable[tuple[str, Iterable[tuple[int, int]]]]) -> dict:
    """Set ``group``'s start offsets: (topic, [(partition, start offset)])
    (AlterShareGroupOffsetsRequest.json)."""
    return {"group_id": group, "topics": [
        {"topic_name": t, "partitions": [{"partition_index": p, "start_offset": o} for p, o in ps]}
        for t, ps in offsets]}


@builds(ApiKey.DeleteShareGroupOffsets)
def delete_share_group_offsets(v: int, group: str, topics: Sequence[str]) -> dict:
    """Delete ``group``'s offsets of ``topics`` (DeleteShareGroupOffsetsRequest.json)."""
    return {"group_id": group, "topics": [{"topic_name": t} for t in topics]}


# -- error codes -----------------------------------------------------------------------------

SERVICE = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupCoordinatorService.java"
GROUPS = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupMetadataManager.java"
OFFSETS = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/OffsetMetadataManager.java"
CLASSIC = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/classic/ClassicGroup.java"
HELPER = "coordinator-common/src/main/java/org/apache/kafka/coordinator/common/runtime/CoordinatorOperationExceptionHelper.java"

#: What every group coordinator operation may answer (the coordinator is not there, not
#: loaded, the group id is empty, the principal may not use the group).
COORDINATED: dict[int, str] = {
    Errors.COORDINATOR_NOT_AVAILABLE: src(SERVICE, "!isActive -> COORDINATOR_NOT_AVAILABLE") + "; "
        + src(HELPER, "UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, REQUEST_TIMED_OUT -> COORDINATOR_NOT_AVAILABLE"),
    Errors.NOT_COORDINATOR: src(HELPER, "NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> NOT_COORDINATOR"),
    Errors.COORDINATOR_LOAD_IN_PROGRESS: src(HELPER, "the partition still loading; NETWORK_EXCEPTION -> "
                                                      "COORDINATOR_LOAD_IN_PROGRESS"),
    Errors.INVALID_GROUP_ID: src(SERVICE, "isGroupIdNotEmpty false -> INVALID_GROUP_ID"),
    Errors.GROUP_AUTHORIZATION_FAILED: src(KAFKA_APIS, "authHelper.authorize(request.context, _, GROUP, groupId) "
                                                        "refused -> GROUP_AUTHORIZATION_FAILED"),
    Errors.UNKNOWN_SERVER_ERROR: src(HELPER, "an unexpected exception, MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE -> "
                                              "UNKNOWN_SERVER_ERROR") + "; " + HANDLE_ERROR,
}

_TOPIC_REFUSED = {
    Errors.UNKNOWN_TOPIC_OR_PARTITION: src(KAFKA_APIS, "a topic or partition the metadata cache does not have -> "
                                                        "UNKNOWN_TOPIC_OR_PARTITION"),
    Errors.TOPIC_AUTHORIZATION_FAILED: src(KAFKA_APIS, "a topic the principal may not read -> TOPIC_AUTHORIZATION_FAILED"),
}


def _described(api: str, feature: str) -> dict[int, str]:
    """A Consumer/Share/StreamsGroupDescribe: per group, from the coordinator."""
    return {
        Errors.NONE: src(GROUPS, f"{api}: the group"),
        Errors.GROUP_ID_NOT_FOUND: src(GROUPS, f"{api}: GroupIdNotFoundException -> GROUP_ID_NOT_FOUND (a group "
                                                "that does not exist, or of another type)"),
        Errors.UNSUPPORTED_VERSION: src(KAFKA_APIS, f"handle{api[0].upper()}{api[1:]}: {feature} not enabled -> "
                                                     "UNSUPPORTED_VERSION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: src(KAFKA_APIS, "a member subscribed to a topic the principal may not "
                                                            "describe -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.INVALID_REQUEST: src(MSG + f"{api[0].upper()}{api[1:]}Response.json", "INVALID_REQUEST (version 0+)"),
        **COORDINATED,
    }


def _share_group_offsets(api: str, what: str | None, listed: tuple[Errors, ...]) -> dict[int, str]:
    """Describe/Alter/DeleteShareGroupOffsets: from the share coordinator (``what`` it
    answers with NONE), the codes the response schema lists (``listed``), refused where
    share groups are not enabled."""
    name = api[0].upper() + api[1:]
    return {
        Errors.NONE: src(SERVICE, api if what is None else f"{api}: {what}"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        **{code: src(MSG + f"{name}Response.json", f"{code.name} (version 0+)") for code in listed},
        Errors.UNSUPPORTED_VERSION: src(KAFKA_APIS, f"handle{name}Request: share groups not enabled"),
    }


ANY_VERSION = {
    ApiKey.FindCoordinator: {
        Errors.NONE: src(KAFKA_APIS, "getCoordinator: the coordinator's endpoint"),
        Errors.COORDINATOR_NOT_AVAILABLE: src(KAFKA_APIS, "getCoordinator: the internal topic cannot be created or "
                                                           "has no leader yet -> COORDINATOR_NOT_AVAILABLE"),
        Errors.GROUP_AUTHORIZATION_FAILED: src(KAFKA_APIS, "getCoordinator: no DESCRIBE on the group"),
        Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED: src(KAFKA_APIS, "getCoordinator: no DESCRIBE on the "
                                                                       "transactional id"),
        Errors.INVALID_REQUEST: src(KAFKA_APIS, "getCoordinator: an empty key, an unknown key type, a share key "
                                                 "that is not group:topicId:partition -> INVALID_REQUEST"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(KAFKA_APIS, "getCoordinator: a SHARE key without CLUSTER_ACTION"),
        Errors.UNSUPPORTED_VERSION: src(KAFKA_APIS, "handleFindCoordinatorRequest: several keys below v4 / a "
                                                     "SHARE key type the version lacks"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.OffsetCommit: {
        Errors.NONE: src(OFFSETS, "commitOffset"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        Errors.ILLEGAL_GENERATION: src(OFFSETS, "validateOffsetCommit: a generation the group does not have (or no "
                                                 "group, below v9)"),
        Errors.UNKNOWN_MEMBER_ID: src(CLASSIC, "validateOffsetCommit: a member the group does not have"),
        Errors.FENCED_INSTANCE_ID: src(CLASSIC, "validateOffsetCommit: another member holds the instance id"),
        Errors.REBALANCE_IN_PROGRESS: src(CLASSIC, "validateOffsetCommit: the group is rebalancing"),
        Errors.STALE_MEMBER_EPOCH: src(MSG + "OffsetCommitResponse.json", "STALE_MEMBER_EPOCH (version 9+): a "
                                                                            "consumer group member's old epoch"),
        Errors.FENCED_MEMBER_EPOCH: src(MSG + "OffsetCommitResponse.json", "FENCED_MEMBER_EPOCH (version 7+)"),
        Errors.OFFSET_METADATA_TOO_LARGE: src(OFFSETS, "commitOffset: metadata over offset.metadata.max.bytes"),
        Errors.INVALID_COMMIT_OFFSET_SIZE: src(MSG + "OffsetCommitResponse.json", "INVALID_COMMIT_OFFSET_SIZE (version 0+)"),
        Errors.GROUP_ID_NOT_FOUND: src(OFFSETS, "validateOffsetCommit: no group and generation >= 0, v9+"),
        Errors.UNKNOWN_TOPIC_ID: src(KAFKA_APIS, "handleOffsetCommitRequest: a topic id no topic has (v10+)"),
        Errors.UNSUPPORTED_VERSION: src(KAFKA_APIS, "handleOffsetCommitRequest: version 0 (ZooKeeper offsets)"),
        Errors.INVALID_REQUEST: src(OFFSETS, "commitOffset: a negative committed leader epoch other than -1 / a "
                                              "generation without a member"),
        Errors.GROUP_MAX_SIZE_REACHED: src(GROUPS, "getOrMaybeCreateClassicGroup: group.max.size reached"),
    },
    ApiKey.OffsetFetch: {
        Errors.NONE: src(OFFSETS, "fetchOffsets: the committed offsets (-1 where none)"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        Errors.GROUP_ID_NOT_FOUND: src(OFFSETS, "validateOffsetFetch: GroupIdNotFoundException (a consumer group "
                                                 "member asking for a group that does not exist)"),
        Errors.UNSTABLE_OFFSET_COMMIT: src(OFFSETS, "fetchOffsets: require_stable and a pending transactional commit"),
        Errors.UNKNOWN_MEMBER_ID: src(MSG + "OffsetFetchResponse.json", "UNKNOWN_MEMBER_ID (version 9+)"),
        Errors.STALE_MEMBER_EPOCH: src(MSG + "OffsetFetchResponse.json", "STALE_MEMBER_EPOCH (version 9+)"),
        Errors.UNKNOWN_TOPIC_ID: src(MSG + "OffsetFetchResponse.json", "UNKNOWN_TOPIC_ID (version 10+)"),
        Errors.UNSUPPORTED_VERSION: src(KAFKA_APIS, "handleOffsetFetchRequest: version 0 (ZooKeeper offsets; a 3.x "
                                                     "KRaft broker: requireZkOrThrow 'Version 0 offset fetch requests')"),
    },
    ApiKey.DescribeGroups: {
        Errors.NONE: src(GROUPS, "describeGroups: the group (state Dead below v6 for an unknown one)"),
        Errors.GROUP_ID_NOT_FOUND: src(GROUPS, "describeGroups: an unknown group, v6+ (KIP-1043)"),
        **COORDINATED,
    },
    ApiKey.ListGroups: {
        Errors.NONE: src(GROUPS, "listGroups"),
        Errors.COORDINATOR_NOT_AVAILABLE: COORDINATED[Errors.COORDINATOR_NOT_AVAILABLE],
        Errors.COORDINATOR_LOAD_IN_PROGRESS: COORDINATED[Errors.COORDINATOR_LOAD_IN_PROGRESS],
        Errors.NOT_COORDINATOR: COORDINATED[Errors.NOT_COORDINATOR],
        Errors.INVALID_REQUEST: src(SERVICE, "listGroups: an unknown group type in types_filter -> INVALID_REQUEST"),
        Errors.UNKNOWN_SERVER_ERROR: COORDINATED[Errors.UNKNOWN_SERVER_ERROR],
    },
    ApiKey.DeleteGroups: {
        Errors.NONE: src(GROUPS, "deleteGroups: the group and its offsets removed"),
        **COORDINATED,
        Errors.GROUP_ID_NOT_FOUND: src(GROUPS, "validateDeleteGroup: no such group"),
        Errors.NON_EMPTY_GROUP: src(GROUPS, "validateDeleteGroup: the group has members"),
    },
    ApiKey.OffsetDelete: {
        Errors.NONE: src(OFFSETS, "deleteOffsets"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        Errors.GROUP_ID_NOT_FOUND: src(OFFSETS, "validateOffsetDelete: no such group"),
        Errors.NON_EMPTY_GROUP: src(OFFSETS, "validateOffsetDelete: a classic group with members"),
        Errors.GROUP_SUBSCRIBED_TO_TOPIC: src(OFFSETS, "deleteOffsets: the group is subscribed to the topic"),
    },
    ApiKey.ConsumerGroupDescribe: _described("consumerGroupDescribe", "the consumer group protocol (KIP-848)"),
    ApiKey.ShareGroupDescribe: _described("shareGroupDescribe", "share groups (KIP-932)"),
    ApiKey.StreamsGroupDescribe: _described("streamsGroupDescribe", "streams groups (KIP-1071)"),
    ApiKey.DescribeShareGroupOffsets: _share_group_offsets(
        "describeShareGroupOffsets", "the start offsets from the share coordinator's state",
        (Errors.GROUP_ID_NOT_FOUND, Errors.INVALID_REQUEST)),
    ApiKey.AlterShareGroupOffsets: _share_group_offsets(
        "alterShareGroupOffsets", None,
        (Errors.GROUP_ID_NOT_FOUND, Errors.NON_EMPTY_GROUP, Errors.KAFKA_STORAGE_ERROR, Errors.INVALID_REQUEST)),
    ApiKey.DeleteShareGroupOffsets: _share_group_offsets(
        "deleteShareGroupOffsets", None,
        (Errors.GROUP_ID_NOT_FOUND, Errors.NON_EMPTY_GROUP, Errors.KAFKA_STORAGE_ERROR, Errors.INVALID_REQUEST)),
}

RULES = (
    ErrorRule(ApiKey.DescribeGroups, Errors.GROUP_ID_NOT_FOUND, 6, "downgraded_to:NONE",
              src(GROUPS, "describeGroups: an unknown group -> GROUP_ID_NOT_FOUND from v6, a Dead group (NONE) below")
              + "; " + src(MSG + "DescribeGroupsResponse.json", '"Version 6 returns error code GROUP_ID_NOT_FOUND if the '
                                                                 'group ID is not found (KIP-1043)"')),
    ErrorRule(ApiKey.OffsetCommit, Errors.GROUP_ID_NOT_FOUND, 9, "downgraded_to:ILLEGAL_GENERATION",
              src(OFFSETS, 'validateOffsetCommit: "Starting from version 9 of the OffsetCommit API, we return '
                            'GROUP_ID_NOT_FOUND ... For older version, we return ILLEGAL_GENERATION"'), scope="request"),
    ErrorRule(ApiKey.OffsetCommit, Errors.STALE_MEMBER_EPOCH, 9, "downgraded_to:ILLEGAL_GENERATION",
              src(MSG + "OffsetCommitResponse.json", "STALE_MEMBER_EPOCH (version 9+)"), scope="request"),
    ErrorRule(ApiKey.OffsetCommit, Errors.UNKNOWN_TOPIC_ID, 10, "forbidden",
              src(MSG + "OffsetCommitResponse.json", "UNKNOWN_TOPIC_ID (version 10+): topics by id only from v10"),
              scope="partition"),
    ErrorRule(ApiKey.OffsetFetch, Errors.UNSTABLE_OFFSET_COMMIT, 7, "forbidden",
              src(MSG + "OffsetFetchResponse.json", "UNSTABLE_OFFSET_COMMIT (version 7+): require_stable from v7"),
              scope="partition"),
    ErrorRule(ApiKey.OffsetFetch, Errors.STALE_MEMBER_EPOCH, 9, "forbidden",
              src(MSG + "OffsetFetchResponse.json", "STALE_MEMBER_EPOCH (version 9+): member epochs from v9")),
    ErrorRule(ApiKey.OffsetFetch, Errors.UNKNOWN_TOPIC_ID, 10, "forbidden",
              src(MSG + "OffsetFetchResponse.json", "UNKNOWN_TOPIC_ID (version 10+): topics by id only from v10"),
              scope="partition"),
)

#: api -> (null on success, note): what Kafka puts in error_message.
ERROR_MESSAGE_KAFKA = {
    ApiKey.FindCoordinator: (True, message_source("FindCoordinator", src(KAFKA_APIS, "getCoordinator: NONE -> null"))),
    ApiKey.DescribeGroups: (True, message_source("DescribeGroups", "v6+, default null")),
    ApiKey.DeleteGroups: (True, message_source("DeleteGroups", "v3+, default null")),
    ApiKey.ConsumerGroupDescribe: (True, message_source("ConsumerGroupDescribe", "default null")),
    ApiKey.ShareGroupDescribe: (True, message_source("ShareGroupDescribe", "default null")),
    ApiKey.StreamsGroupDescribe: (True, message_source("StreamsGroupDescribe", "default null")),
    ApiKey.DescribeShareGroupOffsets: (True, message_source("DescribeShareGroupOffsets", "default null")),
    ApiKey.AlterShareGroupOffsets: (True, message_source("AlterShareGroupOffsets", "default null")),
    ApiKey.DeleteShareGroupOffsets: (True, message_source("DeleteShareGroupOffsets", "default null")),
}

# -- safe values -----------------------------------------------------------------------------

#: apache/kafka clients/src/main/java/org/apache/kafka/common/GroupState.java, GroupType.java
GROUP_STATES = ("PreparingRebalance", "CompletingRebalance", "Stable", "Dead", "Empty", "Assigning",
                "Reconciling", "NotReady")
GROUP_TYPES = ("classic", "consumer", "share", "streams")

_SHARE_GROUPS_WHY = ("the run's share groups, named apart from the groups offsets are committed to "
                     "(reference/known_deviations.py)")
_SHARE_GROUP = Safe(lambda n, v: n.share_groups, _SHARE_GROUPS_WHY)
_NO_MEMBER_EPOCH = Safe(-1, "as the Admin client: no member, a simple group (alterConsumerGroupOffsets)")

SAFE = {
    ApiKey.OffsetCommit: {
        "generation_id_or_member_epoch": _NO_MEMBER_EPOCH,
        "member_id": Safe("", "no member (alterConsumerGroupOffsets)"),
        "group_instance_id": Safe(None, "no static member"),
        "retention_time_ms": Safe(-1, "the broker's retention"),
        "topics.partitions.partition_index": RUN_PARTITION,
        "topics.partitions.committed_offset": Safe(Range(-1, 1000), "small offsets (-1: none)"),
        "topics.partitions.committed_leader_epoch": Safe(-1, "unknown"),
    },
    ApiKey.OffsetFetch: {
        "groups.member_id": Safe(None, "no member, as the Admin client"),
        "groups.member_epoch": _NO_MEMBER_EPOCH,
        "topics.partition_indexes": RUN_PARTITIONS,
        "groups.topics.partition_indexes": RUN_PARTITIONS,
    },
    ApiKey.FindCoordinator: {
        "key_type": Safe(Choice((0, 1, 2)), "GROUP, TRANSACTION, SHARE (FindCoordinatorRequest.CoordinatorType)"),
    },
    ApiKey.ListGroups: {
        "states_filter": Safe(Distinct(Choice(GROUP_STATES), max_size=2), "Kafka's group states"),
        "types_filter": Safe(Distinct(Choice(GROUP_TYPES), max_size=2), "Kafka's group types"),
    },
    ApiKey.OffsetDelete: {"topics.partitions.partition_index": RUN_PARTITION},
    ApiKey.ShareGroupDescribe: {
        "group_ids": Safe(lambda n, v: Distinct(n.share_groups, min_size=1, max_size=3), _SHARE_GROUPS_WHY),
    },
    ApiKey.DescribeShareGroupOffsets: {
        "groups.group_id": _SHARE_GROUP,
        "groups.topics.partitions": Safe(Distinct(Range(0, 1), min_size=1),
                                         "partitions 0 and 1, which the check's topics have: a higher one is the "
                                         "shape of a known deviation of Kafka 4.4 (reference/known_deviations.py), "
                                         "its own check"),
    },
    ApiKey.DeleteShareGroupOffsets: {"group_id": _SHARE_GROUP},
    ApiKey.AlterShareGroupOffsets: {
        "group_id": _SHARE_GROUP,
        "topics.partitions.partition_index": RUN_PARTITION,
        "topics.partitions.start_offset": Safe(Range(-1, 1000), "small offsets (-1: latest)"),
    },
}

FAMILY = Family("groups and their offsets", __name__, DECLARATIONS, codes=ANY_VERSION, gated=RULES,
                messages=ERROR_MESSAGE_KAFKA, safe=SAFE)
