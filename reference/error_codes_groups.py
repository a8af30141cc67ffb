"""Error codes of the group and transaction admin APIs (finding a coordinator, listing,
describing and deleting groups, committing, fetching and deleting their offsets, share and
streams groups, describing and listing transactions) in released Apache Kafka (4.x, KRaft):
rows of ``reference/error_codes.py``'s tables, which merges them; read there, never here.

Each row names the place in apache/kafka it was read from. The broker authorizes
(``KafkaApis``) and hands the request to the group coordinator (``GroupCoordinatorService``
-> ``GroupMetadataManager``, ``OffsetMetadataManager``) or the transaction coordinator;
every coordinator operation maps its failures the same way
(``CoordinatorOperationExceptionHelper.handleOperationException``: a partition that is not
loaded, not led here or not writable becomes COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR or
COORDINATOR_LOAD_IN_PROGRESS, anything unexpected UNKNOWN_SERVER_ERROR).
"""
from __future__ import annotations

from protocol import ApiKey, Errors

from .error_codes import HANDLE_ERROR, KAFKA_APIS, MSG, _src, ErrorRule

SERVICE = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupCoordinatorService.java"
GROUPS = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupMetadataManager.java"
OFFSETS = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/OffsetMetadataManager.java"
CLASSIC = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/classic/ClassicGroup.java"
HELPER = "coordinator-common/src/main/java/org/apache/kafka/coordinator/common/runtime/CoordinatorOperationExceptionHelper.java"
TXN = "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala"


#: What every group coordinator operation may answer (the coordinator is not there, not
#: loaded, the group id is empty, the principal may not use the group).
COORDINATED: dict[int, str] = {
    Errors.COORDINATOR_NOT_AVAILABLE: _src(SERVICE, "!isActive -> COORDINATOR_NOT_AVAILABLE") + "; "
        + _src(HELPER, "UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, REQUEST_TIMED_OUT -> COORDINATOR_NOT_AVAILABLE"),
    Errors.NOT_COORDINATOR: _src(HELPER, "NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> NOT_COORDINATOR"),
    Errors.COORDINATOR_LOAD_IN_PROGRESS: _src(HELPER, "the partition still loading; NETWORK_EXCEPTION -> "
                                                      "COORDINATOR_LOAD_IN_PROGRESS"),
    Errors.INVALID_GROUP_ID: _src(SERVICE, "isGroupIdNotEmpty false -> INVALID_GROUP_ID"),
    Errors.GROUP_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "authHelper.authorize(request.context, _, GROUP, groupId) "
                                                        "refused -> GROUP_AUTHORIZATION_FAILED"),
    Errors.UNKNOWN_SERVER_ERROR: _src(HELPER, "an unexpected exception, MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE -> "
                                              "UNKNOWN_SERVER_ERROR") + "; " + HANDLE_ERROR,
}

_TOPIC_REFUSED = {
    Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(KAFKA_APIS, "a topic or partition the metadata cache does not have -> "
                                                        "UNKNOWN_TOPIC_OR_PARTITION"),
    Errors.TOPIC_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "a topic the principal may not read -> TOPIC_AUTHORIZATION_FAILED"),
}


def _described(api: str, feature: str) -> dict[int, str]:
    """A Consumer/Share/StreamsGroupDescribe: per group, from the coordinator."""
    return {
        Errors.NONE: _src(GROUPS, f"{api}: the group"),
        Errors.GROUP_ID_NOT_FOUND: _src(GROUPS, f"{api}: GroupIdNotFoundException -> GROUP_ID_NOT_FOUND (a group "
                                                "that does not exist, or of another type)"),
        Errors.UNSUPPORTED_VERSION: _src(KAFKA_APIS, f"handle{api[0].upper()}{api[1:]}: {feature} not enabled -> "
                                                     "UNSUPPORTED_VERSION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "a member subscribed to a topic the principal may not "
                                                            "describe -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.INVALID_REQUEST: _src(MSG + f"{api[0].upper()}{api[1:]}Response.json", "INVALID_REQUEST (version 0+)"),
        **COORDINATED,
    }


ANY_VERSION: dict[int, dict[int, str]] = {
    ApiKey.FindCoordinator: {
        Errors.NONE: _src(KAFKA_APIS, "getCoordinator: the coordinator's endpoint"),
        Errors.COORDINATOR_NOT_AVAILABLE: _src(KAFKA_APIS, "getCoordinator: the internal topic cannot be created or "
                                                           "has no leader yet -> COORDINATOR_NOT_AVAILABLE"),
        Errors.GROUP_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "getCoordinator: no DESCRIBE on the group"),
        Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "getCoordinator: no DESCRIBE on the "
                                                                       "transactional id"),
        Errors.INVALID_REQUEST: _src(KAFKA_APIS, "getCoordinator: an empty key, an unknown key type, a share key "
                                                 "that is not group:topicId:partition -> INVALID_REQUEST"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "getCoordinator: a SHARE key without CLUSTER_ACTION"),
        Errors.UNSUPPORTED_VERSION: _src(KAFKA_APIS, "handleFindCoordinatorRequest: several keys below v4 / a "
                                                     "SHARE key type the version lacks"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.OffsetCommit: {
        Errors.NONE: _src(OFFSETS, "commitOffset"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        Errors.ILLEGAL_GENERATION: _src(OFFSETS, "validateOffsetCommit: a generation the group does not have (or no "
                                                 "group, below v9)"),
        Errors.UNKNOWN_MEMBER_ID: _src(CLASSIC, "validateOffsetCommit: a member the group does not have"),
        Errors.FENCED_INSTANCE_ID: _src(CLASSIC, "validateOffsetCommit: another member holds the instance id"),
        Errors.REBALANCE_IN_PROGRESS: _src(CLASSIC, "validateOffsetCommit: the group is rebalancing"),
        Errors.STALE_MEMBER_EPOCH: _src(MSG + "OffsetCommitResponse.json", "STALE_MEMBER_EPOCH (version 9+): a "
                                                                            "consumer group member's old epoch"),
        Errors.FENCED_MEMBER_EPOCH: _src(MSG + "OffsetCommitResponse.json", "FENCED_MEMBER_EPOCH (version 7+)"),
        Errors.OFFSET_METADATA_TOO_LARGE: _src(OFFSETS, "commitOffset: metadata over offset.metadata.max.bytes"),
        Errors.INVALID_COMMIT_OFFSET_SIZE: _src(MSG + "OffsetCommitResponse.json", "INVALID_COMMIT_OFFSET_SIZE (version 0+)"),
        Errors.GROUP_ID_NOT_FOUND: _src(OFFSETS, "validateOffsetCommit: no group and generation >= 0, v9+"),
        Errors.UNKNOWN_TOPIC_ID: _src(KAFKA_APIS, "handleOffsetCommitRequest: a topic id no topic has (v10+)"),
        Errors.UNSUPPORTED_VERSION: _src(KAFKA_APIS, "handleOffsetCommitRequest: version 0 (ZooKeeper offsets)"),
        Errors.INVALID_REQUEST: _src(OFFSETS, "commitOffset: a negative committed leader epoch other than -1 / a "
                                              "generation without a member"),
        Errors.GROUP_MAX_SIZE_REACHED: _src(GROUPS, "getOrMaybeCreateClassicGroup: group.max.size reached"),
    },
    ApiKey.OffsetFetch: {
        Errors.NONE: _src(OFFSETS, "fetchOffsets: the committed offsets (-1 where none)"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        Errors.GROUP_ID_NOT_FOUND: _src(OFFSETS, "validateOffsetFetch: GroupIdNotFoundException (a consumer group "
                                                 "member asking for a group that does not exist)"),
        Errors.UNSTABLE_OFFSET_COMMIT: _src(OFFSETS, "fetchOffsets: require_stable and a pending transactional commit"),
        Errors.UNKNOWN_MEMBER_ID: _src(MSG + "OffsetFetchResponse.json", "UNKNOWN_MEMBER_ID (version 9+)"),
        Errors.STALE_MEMBER_EPOCH: _src(MSG + "OffsetFetchResponse.json", "STALE_MEMBER_EPOCH (version 9+)"),
        Errors.UNKNOWN_TOPIC_ID: _src(MSG + "OffsetFetchResponse.json", "UNKNOWN_TOPIC_ID (version 10+)"),
        Errors.UNSUPPORTED_VERSION: _src(KAFKA_APIS, "handleOffsetFetchRequest: version 0 (ZooKeeper offsets; a 3.x "
                                                     "KRaft broker: requireZkOrThrow 'Version 0 offset fetch requests')"),
    },
    ApiKey.DescribeGroups: {
        Errors.NONE: _src(GROUPS, "describeGroups: the group (state Dead below v6 for an unknown one)"),
        Errors.GROUP_ID_NOT_FOUND: _src(GROUPS, "describeGroups: an unknown group, v6+ (KIP-1043)"),
        **COORDINATED,
    },
    ApiKey.ListGroups: {
        Errors.NONE: _src(GROUPS, "listGroups"),
        Errors.COORDINATOR_NOT_AVAILABLE: COORDINATED[Errors.COORDINATOR_NOT_AVAILABLE],
        Errors.COORDINATOR_LOAD_IN_PROGRESS: COORDINATED[Errors.COORDINATOR_LOAD_IN_PROGRESS],
        Errors.NOT_COORDINATOR: COORDINATED[Errors.NOT_COORDINATOR],
        Errors.INVALID_REQUEST: _src(SERVICE, "listGroups: an unknown group type in types_filter -> INVALID_REQUEST"),
        Errors.UNKNOWN_SERVER_ERROR: COORDINATED[Errors.UNKNOWN_SERVER_ERROR],
    },
    ApiKey.DeleteGroups: {
        Errors.NONE: _src(GROUPS, "deleteGroups: the group and its offsets removed"),
        **COORDINATED,
        Errors.GROUP_ID_NOT_FOUND: _src(GROUPS, "validateDeleteGroup: no such group"),
        Errors.NON_EMPTY_GROUP: _src(GROUPS, "validateDeleteGroup: the group has members"),
    },
    ApiKey.OffsetDelete: {
        Errors.NONE: _src(OFFSETS, "deleteOffsets"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        Errors.GROUP_ID_NOT_FOUND: _src(OFFSETS, "validateOffsetDelete: no such group"),
        Errors.NON_EMPTY_GROUP: _src(OFFSETS, "validateOffsetDelete: a classic group with members"),
        Errors.GROUP_SUBSCRIBED_TO_TOPIC: _src(OFFSETS, "deleteOffsets: the group is subscribed to the topic"),
    },
    ApiKey.ConsumerGroupDescribe: _described("consumerGroupDescribe", "the consumer group protocol (KIP-848)"),
    ApiKey.ShareGroupDescribe: _described("shareGroupDescribe", "share groups (KIP-932)"),
    ApiKey.StreamsGroupDescribe: _described("streamsGroupDescribe", "streams groups (KIP-1071)"),
    ApiKey.DescribeShareGroupOffsets: {
        Errors.NONE: _src(SERVICE, "describeShareGroupOffsets: the start offsets from the share coordinator's state"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        Errors.GROUP_ID_NOT_FOUND: _src(MSG + "DescribeShareGroupOffsetsResponse.json", "GROUP_ID_NOT_FOUND (version 0+)"),
        Errors.INVALID_REQUEST: _src(MSG + "DescribeShareGroupOffsetsResponse.json", "INVALID_REQUEST (version 0+)"),
        Errors.UNSUPPORTED_VERSION: _src(KAFKA_APIS, "handleDescribeShareGroupOffsetsRequest: share groups not enabled"),
    },
    ApiKey.AlterShareGroupOffsets: {
        Errors.NONE: _src(SERVICE, "alterShareGroupOffsets"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        Errors.GROUP_ID_NOT_FOUND: _src(MSG + "AlterShareGroupOffsetsResponse.json", "GROUP_ID_NOT_FOUND (version 0+)"),
        Errors.NON_EMPTY_GROUP: _src(MSG + "AlterShareGroupOffsetsResponse.json", "NON_EMPTY_GROUP (version 0+)"),
        Errors.KAFKA_STORAGE_ERROR: _src(MSG + "AlterShareGroupOffsetsResponse.json", "KAFKA_STORAGE_ERROR (version 0+)"),
        Errors.INVALID_REQUEST: _src(MSG + "AlterShareGroupOffsetsResponse.json", "INVALID_REQUEST (version 0+)"),
        Errors.UNSUPPORTED_VERSION: _src(KAFKA_APIS, "handleAlterShareGroupOffsetsRequest: share groups not enabled"),
    },
    ApiKey.DeleteShareGroupOffsets: {
        Errors.NONE: _src(SERVICE, "deleteShareGroupOffsets"),
        **COORDINATED,
        **_TOPIC_REFUSED,
        Errors.GROUP_ID_NOT_FOUND: _src(MSG + "DeleteShareGroupOffsetsResponse.json", "GROUP_ID_NOT_FOUND (version 0+)"),
        Errors.NON_EMPTY_GROUP: _src(MSG + "DeleteShareGroupOffsetsResponse.json", "NON_EMPTY_GROUP (version 0+)"),
        Errors.KAFKA_STORAGE_ERROR: _src(MSG + "DeleteShareGroupOffsetsResponse.json", "KAFKA_STORAGE_ERROR (version 0+)"),
        Errors.INVALID_REQUEST: _src(MSG + "DeleteShareGroupOffsetsResponse.json", "INVALID_REQUEST (version 0+)"),
        Errors.UNSUPPORTED_VERSION: _src(KAFKA_APIS, "handleDeleteShareGroupOffsetsRequest: share groups not enabled"),
    },
    ApiKey.DescribeTransactions: {
        Errors.NONE: _src(TXN, "handleDescribeTransactions: the transaction's state"),
        Errors.TRANSACTIONAL_ID_NOT_FOUND: _src(TXN, "handleDescribeTransactions: no such transactional id"),
        Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "handleDescribeTransactionsRequest: no "
                                                                       "DESCRIBE on the transactional id"),
        Errors.COORDINATOR_NOT_AVAILABLE: _src(TXN, "handleDescribeTransactions: the coordinator is not active"),
        Errors.NOT_COORDINATOR: _src(TXN, "handleDescribeTransactions: the id's partition is not led here"),
        Errors.COORDINATOR_LOAD_IN_PROGRESS: _src(TXN, "handleDescribeTransactions: the partition is loading"),
        Errors.INVALID_REQUEST: _src(TXN, "handleDescribeTransactions: an empty transactional id"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.ListTransactions: {
        Errors.NONE: _src(TXN, "handleListTransactions"),
        Errors.COORDINATOR_LOAD_IN_PROGRESS: _src(TXN, "handleListTransactions: a partition loading"),
        Errors.COORDINATOR_NOT_AVAILABLE: _src(TXN, "handleListTransactions: the coordinator is not active"),
        Errors.INVALID_REQUEST: _src(TXN, "handleListTransactions: a transactional_id_pattern that is not a regular "
                                          "expression / a negative duration filter"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
}

RULES: list[ErrorRule] = [
    ErrorRule(ApiKey.DescribeGroups, Errors.GROUP_ID_NOT_FOUND, 6, "downgraded_to:NONE",
              _src(GROUPS, "describeGroups: an unknown group -> GROUP_ID_NOT_FOUND from v6, a Dead group (NONE) below")
              + "; " + _src(MSG + "DescribeGroupsResponse.json", '"Version 6 returns error code GROUP_ID_NOT_FOUND if the '
                                                                 'group ID is not found (KIP-1043)"')),
    ErrorRule(ApiKey.OffsetCommit, Errors.GROUP_ID_NOT_FOUND, 9, "downgraded_to:ILLEGAL_GENERATION",
              _src(OFFSETS, 'validateOffsetCommit: "Starting from version 9 of the OffsetCommit API, we return '
                            'GROUP_ID_NOT_FOUND ... For older version, we return ILLEGAL_GENERATION"'), scope="request"),
    ErrorRule(ApiKey.OffsetCommit, Errors.STALE_MEMBER_EPOCH, 9, "downgraded_to:ILLEGAL_GENERATION",
              _src(MSG + "OffsetCommitResponse.json", "STALE_MEMBER_EPOCH (version 9+)"), scope="request"),
    ErrorRule(ApiKey.OffsetCommit, Errors.UNKNOWN_TOPIC_ID, 10, "forbidden",
              _src(MSG + "OffsetCommitResponse.json", "UNKNOWN_TOPIC_ID (version 10+): topics by id only from v10"),
              scope="partition"),
    ErrorRule(ApiKey.OffsetFetch, Errors.UNSTABLE_OFFSET_COMMIT, 7, "forbidden",
              _src(MSG + "OffsetFetchResponse.json", "UNSTABLE_OFFSET_COMMIT (version 7+): require_stable from v7"),
              scope="partition"),
    ErrorRule(ApiKey.OffsetFetch, Errors.STALE_MEMBER_EPOCH, 9, "forbidden",
              _src(MSG + "OffsetFetchResponse.json", "STALE_MEMBER_EPOCH (version 9+): member epochs from v9")),
    ErrorRule(ApiKey.OffsetFetch, Errors.UNKNOWN_TOPIC_ID, 10, "forbidden",
              _src(MSG + "OffsetFetchResponse.json", "UNKNOWN_TOPIC_ID (version 10+): topics by id only from v10"),
              scope="partition"),
]


def _message(api: str, note: str) -> str:
    return _src(MSG + f"{api}Response.json", "ErrorMessage") + "; " + note


#: api -> (null on success, note): what Kafka puts in error_message.
ERROR_MESSAGE_KAFKA: dict[int, tuple[bool, str]] = {
    ApiKey.FindCoordinator: (True, _message("FindCoordinator", _src(KAFKA_APIS, "getCoordinator: NONE -> null"))),
    ApiKey.DescribeGroups: (True, _message("DescribeGroups", "v6+, default null")),
    ApiKey.DeleteGroups: (True, _message("DeleteGroups", "v3+, default null")),
    ApiKey.ConsumerGroupDescribe: (True, _message("ConsumerGroupDescribe", "default null")),
    ApiKey.ShareGroupDescribe: (True, _message("ShareGroupDescribe", "default null")),
    ApiKey.StreamsGroupDescribe: (True, _message("StreamsGroupDescribe", "default null")),
    ApiKey.DescribeShareGroupOffsets: (True, _message("DescribeShareGroupOffsets", "default null")),
    ApiKey.AlterShareGroupOffsets: (True, _message("AlterShareGroupOffsets", "default null")),
    ApiKey.DeleteShareGroupOffsets: (True, _message("DeleteShareGroupOffsets", "default null")),
}

__all__ = ["ANY_VERSION", "COORDINATED", "ERROR_MESSAGE_KAFKA", "RULES"]
