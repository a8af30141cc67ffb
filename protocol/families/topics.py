"""The topic APIs (Metadata, CreateTopics, DeleteTopics, CreatePartitions, DeleteRecords,
ListOffsets, DescribeTopicPartitions): their declarations, request builders, Kafka's error
codes and the safe values of generated requests.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker answers Metadata, DeleteRecords, ListOffsets and
DescribeTopicPartitions itself (``KafkaApis``, ``ReplicaManager``); it forwards CreateTopics,
DeleteTopics and CreatePartitions to the controller (``ControllerApis`` ->
``ReplicationControlManager``), whose deadline and forwarding add a timeout.
"""
from __future__ import annotations

import uuid
from enum import IntEnum
from typing import Iterable, Sequence

from ..building import TIMEOUT_MS, ZERO_UUID, Inexpressible, builds, pairs
from ..declaring import (ADMIN, RUN_PARTITION, SUITE_TIMEOUT, ApiKey, ApiSpec, Choice, ErrorRule, Family, OneOf, Range,
                         Safe)
from ..errors import Errors
from ..kafka_sources import (CONTROLLER_APIS, CONTROLLER_CATCH_ALL, EVENT_EXCEPTION_INFO, FORWARDED_ENVELOPE,
                             FORWARDED_TIMEOUT, HANDLE_ERROR, KAFKA_APIS, MSG, PARTITION_LEADER, REPLICA_MANAGER, REPLICATION_CONTROL, src)

_TOPIC_PARTS = "topics[name].partitions[partition_index]"
_REPLICAS_IN_ORDER = ("the replica assignment in order: its first replica is the preferred leader (apache/kafka "
                      "metadata/src/main/java/org/apache/kafka/metadata/PartitionRegistration.java preferredReplica; "
                      "KIP-183 preferred leader election)")

DECLARATIONS = (
    ApiSpec(ApiKey.Metadata, ADMIN, "topics[name|topic_id]", "topics[name|topic_id]",
            ordered={"topics.partitions.replica_nodes": _REPLICAS_IN_ORDER},
            identity={"topics": ("name",), "topics.partitions": ("partition_index",)}),
    ApiSpec(ApiKey.CreateTopics, ADMIN, "topics[name]", "topics[name]", mutates="creates topics",
            identity={"topics.configs": ("name",)}),
    ApiSpec(ApiKey.DeleteTopics, ADMIN, "responses[name|topic_id]", ("topics[name|topic_id]", "topic_names[]"),
            mutates="deletes topics"),
    ApiSpec(ApiKey.CreatePartitions, ADMIN, "results[name]", "topics[name]", mutates="adds partitions"),
    ApiSpec(ApiKey.DeleteRecords, ADMIN, _TOPIC_PARTS, _TOPIC_PARTS, mutates="deletes records"),
    ApiSpec(ApiKey.ListOffsets, ADMIN, _TOPIC_PARTS, _TOPIC_PARTS, ordered={
        "topics.partitions.old_style_offsets":
            "v0's offsets before a timestamp, newest first: a v0 client takes the first (apache/kafka "
            "core/src/main/scala/kafka/log/UnifiedLog.scala legacyFetchOffsetsBefore, 3.x)"}),
    ApiSpec(ApiKey.DescribeTopicPartitions, ADMIN, "topics[name]", "topics[name]", ordered={
        "topics.partitions.replica_nodes":
            "the replica assignment in order, as Metadata's (the first is the preferred leader, KIP-966 "
            "answers the same partition fields)",
        "topics":
            "sorted by topic name: the cursor pages through topics in name order (KIP-966; apache/kafka "
            "core/src/main/java/kafka/server/handlers/DescribeTopicPartitionsRequestHandler.java sorts them)",
        "topics.partitions":
            "in partition order from the cursor's partition on: the cursor resumes at a (topic, partition) "
            "(KIP-966, KRaftMetadataCache.getTopicMetadataForDescribeTopicResponse)"}),
)


class OffsetSpec(IntEnum):
    """ListOffsets special timestamps: apache/kafka
    clients/src/main/java/org/apache/kafka/common/requests/ListOffsetsRequest.java"""
    LATEST = -1
    EARLIEST = -2
    MAX_TIMESTAMP = -3   # KIP-734, ListOffsets v7+


# -- request builders ------------------------------------------------------------------------

@builds(ApiKey.Metadata)
def metadata(v: int, names: Sequence[str] | None = None, *, ids: Sequence[uuid.UUID] = (),
             allow_auto_topic_creation: bool = False) -> dict:
    """Metadata for ``names`` (None: every topic). v0 lists every topic with ``[]`` and
    cannot say "no auto-creation" (field from v4); topic ids from v10 (MetadataRequest.json)."""
    if names is None and not ids:
        topics = None if v >= 1 else []
    else:
        if ids and v < 10:
            raise Inexpressible(f"Metadata v{v} cannot name topics by id (v10+)")
        topics = [({"name": n, "topic_id": ZERO_UUID} if v >= 10 else {"name": n}) for n in names or ()]
        topics += [{"name": None, "topic_id": i} for i in ids]
    body = {"topics": topics}
    if v >= 4:
        body["allow_auto_topic_creation"] = allow_auto_topic_creation
    return body


@builds(ApiKey.CreateTopics)
def topic(name: str, partitions: int = 1, replication_factor: int = 1, configs=None,
          assignments: list | None = None) -> dict:
    """One CreateTopics entry; ``configs`` is ``{k: v}`` or ``[(k, v), ...]``."""
    return {"name": name, "num_partitions": partitions, "replication_factor": replication_factor,
            "assignments": assignments or [],
            "configs": [{"name": k, "value": val} for k, val in pairs(configs)]}


@builds(ApiKey.CreateTopics)
def create_topics(v: int, topics: Iterable[dict], *, timeout_ms: int = TIMEOUT_MS,
                  validate_only: bool = False) -> dict:
    """``topics``: entries from :func:`topic`. ``validate_only`` exists from v1; at v0 a
    validate-only request is inexpressible."""
    body = {"topics": list(topics), "timeout_ms": timeout_ms}
    if v >= 1:
        body["validate_only"] = validate_only
    elif validate_only:
        raise Inexpressible("CreateTopics v0 has no validate_only (v1+)")
    return body


@builds(ApiKey.DeleteTopics)
def delete_topics(v: int, names: Sequence[str | None] = (), *, ids: Sequence[uuid.UUID] = (),
                  timeout_ms: int = TIMEOUT_MS) -> dict:
    """By name (every version) and by id (v6+, KIP-516): v6 lists ``topics`` of
    ``{name, topic_id}`` (ZERO_UUID for a name, null name for an id), older versions
    ``topic_names`` (DeleteTopicsRequest.json)."""
    return delete_topics_entries(v, [(n, None) for n in names] + [(None, i) for i in ids],
                                 timeout_ms=timeout_ms)


@builds(ApiKey.DeleteTopics)
def delete_topics_entries(v: int, entries: Sequence[tuple[str | None, uuid.UUID | None]], *,
                          timeout_ms: int = TIMEOUT_MS) -> dict:
    """DeleteTopics with entries in a given order, each ``(name, id)`` (one of them None):
    the order a request lists names and ids in is part of what is sent."""
    if v >= 6:
        return {"topics": [{"name": n, "topic_id": i if i is not None else ZERO_UUID} for n, i in entries],
                "timeout_ms": timeout_ms}
    if any(i is not None for _, i in entries):
        raise Inexpressible(f"DeleteTopics v{v} cannot name topics by id (v6+)")
    return {"topic_names": [n for n, _ in entries], "timeout_ms": timeout_ms}


@builds(ApiKey.CreatePartitions)
def create_partitions(v: int, counts: Iterable[tuple[str, int]], *, timeout_ms: int = TIMEOUT_MS,
                      validate_only: bool = False) -> dict:
    """``counts``: ``(topic, new total count)``; the broker assigns replicas (null
    assignments). Same fields at every version 0-3 (CreatePartitionsRequest.json)."""
    return {"topics": [{"name": n, "count": c, "assignments": None} for n, c in counts],
            "timeout_ms": timeout_ms, "validate_only": validate_only}


@builds(ApiKey.DeleteRecords)
def delete_records(v: int, offsets: Iterable[tuple[str, Iterable[tuple[int, int]]]], *,
                   timeout_ms: int = TIMEOUT_MS) -> dict:
    """``offsets``: ``(topic, [(partition, offset), ...])``; offset -1 means the high
    watermark. Same fields at every version 0-2 (DeleteRecordsRequest.json)."""
    return {"topics": [{"name": n, "partitions": [{"partition_index": p, "offset": o} for p, o in parts]}
                       for n, parts in offsets], "timeout_ms": timeout_ms}


@builds(ApiKey.ListOffsets)
def list_offsets(v: int, partitions: Iterable[tuple[str, Iterable[int]]], timestamp: int, *,
                 isolation_level: int = 0, timeout_ms: int = TIMEOUT_MS) -> dict:
    """The offset at ``timestamp`` (an ``OffsetSpec``: LATEST, EARLIEST) of every partition
    in ``partitions`` (``(topic, [index, ...])``), as a consumer (replica -1).
    ``isolation_level`` from v2, ``current_leader_epoch`` (-1: unknown) from v4,
    ``max_num_offsets`` at v0 only, ``timeout_ms`` from v10 (ListOffsetsRequest.json)."""
    def part(p):
        entry = {"partition_index": p, "timestamp": int(timestamp)}
        if v >= 4:
            entry["current_leader_epoch"] = -1
        if v == 0:
            entry["max_num_offsets"] = 1
        return entry
    body = {"replica_id": -1, "topics": [{"name": n, "partitions": [part(p) for p in ps]} for n, ps in partitions]}
    if v >= 2:
        body["isolation_level"] = isolation_level
    if v >= 10:
        body["timeout_ms"] = timeout_ms
    return body


# -- error codes -----------------------------------------------------------------------------

MUTATION_QUOTA = "core/src/main/scala/kafka/server/ControllerMutationQuotaManager.scala"
PARTITION = "core/src/main/scala/kafka/cluster/Partition.scala"
UNIFIED_LOG = "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java"
EVENT_QUEUE = "server-common/src/main/java/org/apache/kafka/queue/KafkaEventQueue.java"
TOPIC_PARTITIONS = "core/src/main/scala/kafka/server/handlers/DescribeTopicPartitionsRequestHandler.java"


def _strict_quota(api: ApiKey, since: int, permissive: str, below: str, raised_from: str) -> ErrorRule:
    """THROTTLING_QUOTA_EXCEEDED from ``since`` on (KIP-599: the controller's strict mutation
    quota); ``below`` says what an older request gets instead (the permissive quota,
    ``permissive`` in the quota manager), ``raised_from`` where the controller raises it."""
    return ErrorRule(
        api, Errors.THROTTLING_QUOTA_EXCEEDED, since, "downgraded_to:NONE",
        src(CONTROLLER_APIS, f"handle{api.name} newQuotaFor(request, strictSinceVersion = {since})")
        + "; " + src(MSG + f"{api.name}Request.json", f'"Version {since} ... may return a THROTTLING_QUOTA_EXCEEDED"')
        + "; " + src(MUTATION_QUOTA, permissive),
        note=f"below v{since} {below}. Raised from " + src(REPLICATION_CONTROL, raised_from),
    )


RULES = (
    # --- THROTTLING_QUOTA_EXCEEDED (KIP-599): strict quota only from these versions -------
    _strict_quota(ApiKey.CreateTopics, 6, "newQuotaFor / PermissiveControllerMutationQuota.record (never throws)",
                  "the quota is permissive: the topic is created and the response is only throttled "
                  "(throttle_time_ms > 0, channel muted)", "createTopic context.applyPartitionChangeQuota"),
    _strict_quota(ApiKey.DeleteTopics, 5, "PermissiveControllerMutationQuota",
                  "the topic is deleted and the response only throttled", "deleteTopic context.applyPartitionChangeQuota"),
    _strict_quota(ApiKey.CreatePartitions, 3, "PermissiveControllerMutationQuota",
                  "the partitions are created and the response only throttled",
                  "createPartitions context.applyPartitionChangeQuota"),
    # --- TOPIC_DELETION_DISABLED: delete.topic.enable=false on the controller ----------------
    ErrorRule(
        ApiKey.DeleteTopics, Errors.TOPIC_DELETION_DISABLED, 3, "downgraded_to:INVALID_REQUEST",
        src(CONTROLLER_APIS, 'deleteTopics: if (!config.deleteTopicEnable) { if (apiVersion < 3) throw new '
             'InvalidRequestException("Topic deletion is disabled.") else throw new TopicDeletionDisabledException() }')
        + "; " + src(MSG + "DeleteTopicsResponse.json", '"Starting in version 3, a TOPIC_DELETION_DISABLED error code may be returned"')
        + "; " + src("core/src/test/scala/unit/kafka/server/DeleteTopicsRequestWithDeletionDisabledTest.scala",
                      "testDeleteRecordsRequest (latest -> TOPIC_DELETION_DISABLED, v2 -> INVALID_REQUEST)"),
        scope="request",
        note="whole request: every requested topic gets the code (DeleteTopicsRequest.getErrorResponse); "
             "error_message is not set (null) even at v5+.",
    ),
    # --- Topic ids -----------------------------------------------------------------------
    ErrorRule(
        ApiKey.DeleteTopics, Errors.UNKNOWN_TOPIC_ID, 6, "forbidden",
        src(REPLICATION_CONTROL, "findTopicNames: unknown id -> new ApiError(UNKNOWN_TOPIC_ID)")
        + "; " + src(MSG + "DeleteTopicsResponse.json", '"Version 6 adds topic ID ... UNKNOWN_TOPIC_ID error code will be returned"')
        + "; " + src(MSG + "DeleteTopicsRequest.json", 'Topics[].TopicId "versions": "6+"'),
        note="ids can only be sent from v6; the response entry has name null and the requested id.",
    ),
    ErrorRule(
        ApiKey.Metadata, Errors.UNKNOWN_TOPIC_ID, 12, "forbidden",
        src(KAFKA_APIS, "handleTopicMetadataRequest: unknownTopicIds -> metadataResponseTopic(Errors.UNKNOWN_TOPIC_ID, null, topicId, ...)")
        + "; " + src(MSG + "MetadataRequest.json", '"Version 12 supports topic Id"'),
        note="v10/v11 requests carrying a topic id or a null name are refused as a whole with "
             "INVALID_REQUEST ('Topic IDs are not supported in requests for version N'); ids are "
             "not expressible below v10.",
    ),
    # --- Metadata partition-level -----------------------------------------------------------
    ErrorRule(
        ApiKey.Metadata, Errors.LISTENER_NOT_FOUND, 6, "downgraded_to:LEADER_NOT_AVAILABLE",
        src(KAFKA_APIS, 'handleTopicMetadataRequest: errorUnavailableListeners = requestVersion >= 6 '
             '("In versions 5 and below, we returned LEADER_NOT_AVAILABLE ...")'),
        scope="partition",
        note="partition-level error when the leader has no endpoint on the request's listener.",
    ),
    ErrorRule(
        ApiKey.Metadata, Errors.REPLICA_NOT_AVAILABLE, 0, "n/a",
        src(KAFKA_APIS, "handleTopicMetadataRequest: errorUnavailableEndpoints = requestVersion == 0"),
        scope="partition",
        note="only v0 reports unavailable replica endpoints as an error; v1+ just omits the broker.",
    ),
    ErrorRule(ApiKey.ListOffsets, Errors.OFFSET_NOT_AVAILABLE, 5, "downgraded_to:LEADER_NOT_AVAILABLE",
              src(REPLICA_MANAGER, "fetchOffset: OffsetNotAvailableException -> the error from v5, "
                                    "LEADER_NOT_AVAILABLE below")
              + "; " + src(MSG + "ListOffsetsResponse.json", '"Version 5 adds a new error code, OFFSET_NOT_AVAILABLE"'),
              scope="partition"),
)

_DEADLINE = (src(EVENT_QUEUE, "EventHandler.handleEvents: deadline passed -> new TimeoutException(), event not run")
             + "; " + src("metadata/src/main/java/org/apache/kafka/controller/ControllerRequestContext.java",
                           "requestTimeoutMsToDeadlineNs(time, timeoutMs)"))
_BATCH_TOO_LARGE = src(EVENT_EXCEPTION_INFO, 'BoundedListTooLongException -> PolicyViolationException('
                        '"Unable to perform excessively large batch operation.") (more than '
                        'QuorumController.MAX_RECORDS_PER_USER_OP = 10000 records)')

ANY_VERSION = {
    ApiKey.Metadata: {
        Errors.NONE: src(KAFKA_APIS, "handleTopicMetadataRequest"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(KAFKA_APIS, "getTopicMetadata: non-existing topic, no auto-create -> UNKNOWN_TOPIC_OR_PARTITION"),
        Errors.LEADER_NOT_AVAILABLE: src("core/src/main/scala/kafka/server/AutoTopicCreationManager.scala", "createTopics -> LEADER_NOT_AVAILABLE while auto-creating")
           + " (also partition-level when a partition has no leader)",
        Errors.INVALID_TOPIC_EXCEPTION: src(KAFKA_APIS, "getTopicMetadata: Topic.validate fails -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: src(KAFKA_APIS, "handleTopicMetadataRequest: unauthorizedForDescribeTopics / unauthorizedForCreateTopics -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.INVALID_REQUEST: src(KAFKA_APIS, 'handleTopicMetadataRequest: topic id / null name below v12 -> InvalidRequestException (whole request)'),
        Errors.UNKNOWN_SERVER_ERROR: src(KAFKA_APIS, "handle: handleError"),
    },
    ApiKey.CreateTopics: {
        Errors.NONE: src(REPLICATION_CONTROL, "createTopic success result setErrorCode(NONE)"),
        Errors.REQUEST_TIMED_OUT: _DEADLINE + "; " + FORWARDED_TIMEOUT,
        Errors.INVALID_TOPIC_EXCEPTION: src(REPLICATION_CONTROL, "validateNewTopicNames: Topic.validate / collision chars -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, 'createTopics: not authorized -> TOPIC_AUTHORIZATION_FAILED "Authorization failed."'),
        Errors.TOPIC_ALREADY_EXISTS: src(REPLICATION_CONTROL, "createTopics: topicsByName.containsKey -> TOPIC_ALREADY_EXISTS"),
        Errors.INVALID_PARTITIONS: src(REPLICATION_CONTROL, "createTopic: numPartitions < -1 || == 0 -> INVALID_PARTITIONS"),
        Errors.INVALID_REPLICATION_FACTOR: src(REPLICATION_CONTROL, "createTopic: replicationFactor < -1 || == 0, or placer -> INVALID_REPLICATION_FACTOR"),
        Errors.INVALID_REPLICA_ASSIGNMENT: src(REPLICATION_CONTROL, "createTopic/validateManualPartitionAssignment -> INVALID_REPLICA_ASSIGNMENT"),
        Errors.INVALID_CONFIG: src(REPLICATION_CONTROL, "computeConfigChanges (null value) / configurationControl.incrementalAlterConfig -> INVALID_CONFIG"),
        Errors.NOT_CONTROLLER: src(EVENT_EXCEPTION_INFO, "NotLeaderException -> NotControllerException (normally retried by the forwarding broker)"),
        Errors.INVALID_REQUEST: src(CONTROLLER_APIS, 'createTopics: duplicate names -> INVALID_REQUEST "Duplicate topic name."')
            + "; " + src(REPLICATION_CONTROL, "createTopic: assignments with numPartitions/replicationFactor != -1 -> INVALID_REQUEST"),
        Errors.POLICY_VIOLATION: src(REPLICATION_CONTROL, "maybeCheckCreateTopicPolicy -> POLICY_VIOLATION (create.topic.policy.class.name)")
            + "; " + _BATCH_TOO_LARGE,
        Errors.UNKNOWN_SERVER_ERROR: FORWARDED_ENVELOPE + "; " + CONTROLLER_CATCH_ALL,
    },
    ApiKey.DeleteTopics: {
        Errors.NONE: src(CONTROLLER_APIS, "deleteTopics: appendResponse(name, id, ApiError.NONE)"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(REPLICATION_CONTROL, "findTopicIds: unknown name -> new ApiError(UNKNOWN_TOPIC_OR_PARTITION)"),
        Errors.REQUEST_TIMED_OUT: _DEADLINE + "; " + FORWARDED_TIMEOUT
           + "; " + src("core/src/test/scala/unit/kafka/server/DeleteTopicsRequestTest.scala",
                         "testErrorDeleteTopicRequests is ZK-only: 'The KRaft controller doesn't perform operations that have timed out.'"),
        Errors.TOPIC_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, "deleteTopics: not describable / not deletable -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.NOT_CONTROLLER: src(EVENT_EXCEPTION_INFO, "NotLeaderException -> NotControllerException (normally retried by the forwarding broker)"),
        Errors.INVALID_REQUEST: src(CONTROLLER_APIS, 'deleteTopics: "Duplicate topic name." / "Duplicate topic id." / '
                 '"You may not specify both topic name and topic id." / "Neither topic name nor id were specified." / '
                 '"The provided topic name maps to an ID that was already supplied."'),
        Errors.POLICY_VIOLATION: _BATCH_TOO_LARGE + " (only with > 10000 topics in one request)",
        Errors.UNKNOWN_SERVER_ERROR: FORWARDED_ENVELOPE + "; " + CONTROLLER_CATCH_ALL,
    },
    ApiKey.CreatePartitions: {
        Errors.NONE: src(REPLICATION_CONTROL, "createPartitions -> ApiError.NONE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(REPLICATION_CONTROL, "createPartitions: unknown topic -> new UnknownTopicOrPartitionException() (error_message null)"),
        Errors.REQUEST_TIMED_OUT: _DEADLINE + "; " + FORWARDED_TIMEOUT,
        Errors.TOPIC_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, "createPartitions: no ALTER on topic -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.INVALID_PARTITIONS: src(REPLICATION_CONTROL, 'createPartitions: count == current "Topic already has N partition(s)." / count < current "... would not be an increase."'),
        Errors.INVALID_REPLICATION_FACTOR: src(REPLICATION_CONTROL, "createPartitions: all brokers fenced -> InvalidReplicationFactorException / replica placer"),
        Errors.INVALID_REPLICA_ASSIGNMENT: src(REPLICATION_CONTROL, "createPartitions: assignments().size() != additional, validateManualPartitionAssignment -> INVALID_REPLICA_ASSIGNMENT"),
        Errors.NOT_CONTROLLER: src(EVENT_EXCEPTION_INFO, "NotLeaderException -> NotControllerException (normally retried by the forwarding broker)"),
        Errors.INVALID_REQUEST: src(CONTROLLER_APIS, 'createPartitions: duplicate names -> INVALID_REQUEST "Duplicate topic name."'),
        Errors.POLICY_VIOLATION: _BATCH_TOO_LARGE + " (adding more than 10000 partitions at once)",
        Errors.UNKNOWN_SERVER_ERROR: FORWARDED_ENVELOPE + "; " + CONTROLLER_CATCH_ALL,
    },
    ApiKey.DeleteRecords: {
        Errors.NONE: src(REPLICA_MANAGER, "deleteRecords / DelayedDeleteRecords: low watermark reached"),
        Errors.OFFSET_OUT_OF_RANGE: src(UNIFIED_LOG, 'maybeIncrementLogStartOffset: offset > highWatermark -> OffsetOutOfRangeException '
                '"Cannot increment the log start offset to X ... since it is larger than the high watermark H"')
           + "; " + src(PARTITION, 'deleteRecordsOnLeader: offset < 0 (other than -1) -> "The offset X for partition P is not valid"'),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(KAFKA_APIS, "handleDeleteRecordsRequest: !metadataCache.contains(tp) -> UNKNOWN_TOPIC_OR_PARTITION (low_watermark -1)"),
        Errors.NOT_LEADER_OR_FOLLOWER: src(REPLICA_MANAGER, "deleteRecordsOnLocalLog: getPartitionOrException -> NotLeaderOrFollowerException"),
        Errors.REQUEST_TIMED_OUT: src("core/src/main/scala/kafka/server/DelayedDeleteRecords.scala", "onExpiration -> REQUEST_TIMED_OUT (followers' log start offset did not reach the offset in time)"),
        Errors.INVALID_TOPIC_EXCEPTION: src(REPLICA_MANAGER, 'deleteRecordsOnLocalLog: internal topic -> InvalidTopicException("Cannot delete records of internal topic ...")'),
        Errors.TOPIC_AUTHORIZATION_FAILED: src(KAFKA_APIS, "handleDeleteRecordsRequest: no DELETE on topic -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.POLICY_VIOLATION: src(PARTITION, 'deleteRecordsOnLeader: !leaderLog.config.delete -> PolicyViolationException("Records of partition P can not be deleted due to the configured policy")'),
        Errors.KAFKA_STORAGE_ERROR: src(REPLICA_MANAGER, "deleteRecordsOnLocalLog: KafkaStorageException"),
        Errors.UNKNOWN_SERVER_ERROR: src(REPLICA_MANAGER, "deleteRecordsOnLocalLog: case t: Throwable"),
    },
    ApiKey.ListOffsets: {
        Errors.NONE: src(REPLICA_MANAGER, "fetchOffset: the offset found (or none, -1)"),
        **PARTITION_LEADER,
        Errors.TOPIC_AUTHORIZATION_FAILED: src(KAFKA_APIS, "handleListOffsetRequestV1AndAbove: no DESCRIBE on the topic"),
        Errors.INVALID_REQUEST: src(REPLICA_MANAGER, "fetchOffset: a partition listed twice -> INVALID_REQUEST"),
        Errors.UNSUPPORTED_VERSION: src(REPLICA_MANAGER, "fetchOffset: an OffsetSpec the request's version does not "
                                                          "have (max timestamp below v7, ...) -> UNSUPPORTED_VERSION"),
        Errors.UNKNOWN_LEADER_EPOCH: src(REPLICA_MANAGER, "fetchOffset: current_leader_epoch above the leader's"),
        Errors.FENCED_LEADER_EPOCH: src(REPLICA_MANAGER, "fetchOffset: current_leader_epoch below the leader's"),
        Errors.LEADER_NOT_AVAILABLE: src(REPLICA_MANAGER, "fetchOffset: OffsetNotAvailableException below v5 -> "
                                                           "LEADER_NOT_AVAILABLE"),
        Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT: src(REPLICA_MANAGER, "fetchOffset: UnsupportedForMessageFormatException"),
        Errors.REQUEST_TIMED_OUT: src(REPLICA_MANAGER, "fetchOffset: a remote (tiered) offset lookup past timeout_ms"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.DescribeTopicPartitions: {
        Errors.NONE: src(TOPIC_PARTITIONS, "handleDescribeTopicPartitionsRequest"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(TOPIC_PARTITIONS, "a name no topic has"),
        Errors.TOPIC_AUTHORIZATION_FAILED: src(TOPIC_PARTITIONS, "a topic the principal may not describe"),
        Errors.INVALID_TOPIC_EXCEPTION: src(TOPIC_PARTITIONS, "a name Topic.validate refuses"),
        Errors.INVALID_REQUEST: src(TOPIC_PARTITIONS, "a cursor naming a topic not requested"),
        Errors.UNSUPPORTED_VERSION: src(KAFKA_APIS, "handleDescribeTopicPartitionsRequest: not a KRaft broker"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
}

#: api_key -> (null_on_success (False: Kafka sends ""), note with sources)
ERROR_MESSAGE_KAFKA = {
    ApiKey.Metadata: (True, src(MSG + "MetadataResponse.json", "no ErrorMessage field (v13 adds only a top-level ErrorCode)")),
    ApiKey.CreateTopics: (
        True,
        src(MSG + "CreateTopicsResponse.json", 'ErrorMessage "versions": "1+" ("or null if there was no error")')
        + "; success: " + src(REPLICATION_CONTROL, "createTopic setErrorMessage(null)")
        + "; whole-request errors (timeout, ...): " + src("clients/src/main/java/org/apache/kafka/common/requests/CreateTopicsRequest.java",
                                                          "getErrorResponse setErrorMessage(ApiError.fromThrowable(e).message()) -> null for generic messages")
        + ". All 4.x versions (2-7) carry it.",
    ),
    ApiKey.DeleteTopics: (
        True,
        src(MSG + "DeleteTopicsResponse.json", 'ErrorMessage "versions": "5+", "default": "null"')
        + "; success: " + src(CONTROLLER_APIS, "deleteTopics appendResponse(..., ApiError.NONE) (message null)")
        + "; NOT always set on error: " + src("clients/src/main/java/org/apache/kafka/common/requests/DeleteTopicsRequest.java",
                                              "getErrorResponse sets only setErrorCode (REQUEST_TIMED_OUT, TOPIC_DELETION_DISABLED -> message null)"),
    ),
    ApiKey.CreatePartitions: (
        True,
        src(MSG + "CreatePartitionsResponse.json", 'ErrorMessage "versions": "0+", "default": "null"')
        + "; NOT always set on error: " + src(REPLICATION_CONTROL, "createPartitions: new UnknownTopicOrPartitionException() -> message null")
        + "; " + src(CONTROLLER_APIS, "createPartitions: TOPIC_AUTHORIZATION_FAILED without message"),
    ),
    ApiKey.DeleteRecords: (True, src(MSG + "DeleteRecordsResponse.json", "no ErrorMessage field in any version")),
}

#: Codes released KRaft Kafka does NOT produce for these APIs through a broker (so a finding
#: can cite why it is unexpected).
NOT_PRODUCED = {
    (ApiKey.CreatePartitions, Errors.REASSIGNMENT_IN_PROGRESS): "REASSIGNMENT_IN_PROGRESS: only the removed ZK AdminManager checked for a reassignment; "
                             + src(REPLICATION_CONTROL, "createPartitions has no reassignment check"),
    (ApiKey.DeleteTopics, Errors.POLICY_VIOLATION): "no delete-topic policy exists in released Kafka (KIP-201 never shipped); 44 only for >10000 topics",
    (ApiKey.DeleteRecords, Errors.INVALID_REQUEST): "DeleteRecords has no validate_only / policy in released Kafka (KIP-201 never shipped)",
}

# -- safe values -----------------------------------------------------------------------------

#: ListOffsets' special timestamps (ListOffsetsRequest.java: LATEST -1 .. EARLIEST_PENDING_UPLOAD -6)
OFFSET_SPECS = (-1, -2, -3, -4, -5, -6)

SAFE = {
    ApiKey.ListOffsets: {
        "replica_id": Safe(-1, "a consumer's request, as the Admin client's listOffsets (a replica id is a follower's)"),
        "isolation_level": Safe(Choice((0, 1)), "READ_UNCOMMITTED, READ_COMMITTED"),
        "topics.partitions.partition_index": RUN_PARTITION,
        "topics.partitions.current_leader_epoch": Safe(Choice((-1, -1, 0, 5)), "unknown (-1) or a small epoch"),
        "topics.partitions.timestamp": Safe(OneOf((Choice(OFFSET_SPECS), Range(0, 2_000_000_000_000))),
                                            "an OffsetSpec or a timestamp"),
        "timeout_ms": SUITE_TIMEOUT,
    },
    ApiKey.DescribeTopicPartitions: {
        "response_partition_limit": Safe(Range(100, 2000), "room for every partition asked (a page cut short "
                                                           "lists fewer topics)"),
        "cursor": Safe(None, "from the first topic"),
    },
}

FAMILY = Family("topics, partitions and records", __name__, DECLARATIONS, codes=ANY_VERSION, gated=RULES,
                messages=ERROR_MESSAGE_KAFKA, not_produced=NOT_PRODUCED, safe=SAFE)
