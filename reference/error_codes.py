"""Which error codes each admin API of released Apache Kafka (4.x, KRaft) may return, and from
which request version on.

Every row names the place in apache/kafka it was read from ("apache/kafka <path>:<what>").
The behaviour was read in the KRaft code paths (broker ``KafkaApis`` forwarding to the
controller's ``ControllerApis`` -> ``QuorumController`` -> ``ReplicationControlManager`` /
``ConfigurationControlManager``); ZooKeeper-only paths (removed in 4.0) are not used as a
reference.  Message schemas are the 4.x ones (the same files ship inside kafka-python 3.0.12
under ``kafka/protocol/schemas/resources``, which the suite's codec uses).

Shapes
------
``RULES``: version-gated codes.  ``ErrorRule.below`` says what Kafka does for requests older
than ``since_version``:

* ``"forbidden"``          - the code never appears below ``since_version`` (there is no
                             replacement code, e.g. the input that causes it cannot be sent).
* ``"downgraded_to:<NAME>"`` - below ``since_version`` Kafka answers ``Errors.NAME`` instead
                             (``downgraded_to:NONE`` = the item succeeds, e.g. only throttled).
* ``"n/a"``                - no older version exists in released 4.x.

``ANY_VERSION``: per API, codes every supported version may return, each with its source.

``ERROR_MESSAGE``: from which version a response carries ``error_message`` and what Kafka
puts there (null on success, not always a message on error).

``ERRORS``: every Kafka error code -> name (``Errors.java``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from protocol import ApiKey, Errors, schema_facts

# --------------------------------------------------------------------------------------
# Source locations (apache/kafka paths)
# --------------------------------------------------------------------------------------
MSG = "clients/src/main/resources/common/message/"
ERRORS_JAVA = "clients/src/main/java/org/apache/kafka/common/protocol/Errors.java"
CONTROLLER_APIS = "core/src/main/scala/kafka/server/ControllerApis.scala"
KAFKA_APIS = "core/src/main/scala/kafka/server/KafkaApis.scala"
CONFIG_ADMIN_MANAGER = "core/src/main/scala/kafka/server/ConfigAdminManager.scala"
CONFIG_HELPER = "core/src/main/scala/kafka/server/ConfigHelper.scala"
CONTROLLER_CONFIG_VALIDATOR = "core/src/main/scala/kafka/server/ControllerConfigurationValidator.scala"
FORWARDING_MANAGER = "core/src/main/scala/kafka/server/ForwardingManager.scala"
MUTATION_QUOTA = "core/src/main/scala/kafka/server/ControllerMutationQuotaManager.scala"
REPLICA_MANAGER = "core/src/main/scala/kafka/server/ReplicaManager.scala"
PARTITION = "core/src/main/scala/kafka/cluster/Partition.scala"
UNIFIED_LOG = "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java"
QUORUM_CONTROLLER = "metadata/src/main/java/org/apache/kafka/controller/QuorumController.java"
REPLICATION_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java"
CONFIGURATION_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ConfigurationControlManager.java"
EVENT_EXCEPTION_INFO = "metadata/src/main/java/org/apache/kafka/controller/errors/EventHandlerExceptionInfo.java"
EVENT_QUEUE = "server-common/src/main/java/org/apache/kafka/queue/KafkaEventQueue.java"
LOG_CONFIG = "storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java"


def _src(path: str, what: str) -> str:
    return f"apache/kafka {path}:{what}"


# --------------------------------------------------------------------------------------
# The admin APIs the tables below are keyed by (names, valid versions and fields: the
# declarations in protocol/apis.py and their schemas, protocol/schema_facts.py).
# --------------------------------------------------------------------------------------
METADATA = ApiKey.Metadata
API_VERSIONS = ApiKey.ApiVersions
CREATE_TOPICS = ApiKey.CreateTopics
DELETE_TOPICS = ApiKey.DeleteTopics
DELETE_RECORDS = ApiKey.DeleteRecords
DESCRIBE_CONFIGS = ApiKey.DescribeConfigs
ALTER_CONFIGS = ApiKey.AlterConfigs
CREATE_PARTITIONS = ApiKey.CreatePartitions
INCREMENTAL_ALTER_CONFIGS = ApiKey.IncrementalAlterConfigs


@dataclass(frozen=True)
class ErrorRule:
    api_key: int
    error_code: Errors
    since_version: int
    below: str = "forbidden"  # "forbidden" | "downgraded_to:<Errors name>" | "n/a"
    source: str = ""
    scope: str = "item"  # "item" (per topic/resource/partition), "partition", "request"
    note: str = ""

    @property
    def error_name(self) -> str:
        return self.error_code.name

    @property
    def downgraded_to(self) -> Optional[Errors]:
        if self.below.startswith("downgraded_to:"):
            return Errors[self.below.split(":", 1)[1]]
        return None


# --------------------------------------------------------------------------------------
# Version-gated codes
# --------------------------------------------------------------------------------------
RULES: list[ErrorRule] = [
    # --- THROTTLING_QUOTA_EXCEEDED (KIP-599): strict quota only from these versions -------
    ErrorRule(
        CREATE_TOPICS, Errors.THROTTLING_QUOTA_EXCEEDED, 6, "downgraded_to:NONE",
        _src(CONTROLLER_APIS, "handleCreateTopics newQuotaFor(request, strictSinceVersion = 6)")
        + "; " + _src(MSG + "CreateTopicsRequest.json", '"Version 6 ... may return a THROTTLING_QUOTA_EXCEEDED"')
        + "; " + _src(MUTATION_QUOTA, "newQuotaFor / PermissiveControllerMutationQuota.record (never throws)"),
        note="below v6 the quota is permissive: the topic is created and the response is only "
             "throttled (throttle_time_ms > 0, channel muted). Raised from "
             + _src(REPLICATION_CONTROL, "createTopic context.applyPartitionChangeQuota"),
    ),
    ErrorRule(
        DELETE_TOPICS, Errors.THROTTLING_QUOTA_EXCEEDED, 5, "downgraded_to:NONE",
        _src(CONTROLLER_APIS, "handleDeleteTopics newQuotaFor(request, strictSinceVersion = 5)")
        + "; " + _src(MSG + "DeleteTopicsRequest.json", '"Version 5 ... may return a THROTTLING_QUOTA_EXCEEDED"')
        + "; " + _src(MUTATION_QUOTA, "PermissiveControllerMutationQuota"),
        note="below v5 the topic is deleted and the response only throttled. Raised from "
             + _src(REPLICATION_CONTROL, "deleteTopic context.applyPartitionChangeQuota"),
    ),
    ErrorRule(
        CREATE_PARTITIONS, Errors.THROTTLING_QUOTA_EXCEEDED, 3, "downgraded_to:NONE",
        _src(CONTROLLER_APIS, "handleCreatePartitions newQuotaFor(request, strictSinceVersion = 3)")
        + "; " + _src(MSG + "CreatePartitionsRequest.json", '"Version 3 ... may return a THROTTLING_QUOTA_EXCEEDED"')
        + "; " + _src(MUTATION_QUOTA, "PermissiveControllerMutationQuota"),
        note="below v3 the partitions are created and the response only throttled. Raised from "
             + _src(REPLICATION_CONTROL, "createPartitions context.applyPartitionChangeQuota"),
    ),
    # --- TOPIC_DELETION_DISABLED: delete.topic.enable=false on the controller ----------------
    ErrorRule(
        DELETE_TOPICS, Errors.TOPIC_DELETION_DISABLED, 3, "downgraded_to:INVALID_REQUEST",
        _src(CONTROLLER_APIS, 'deleteTopics: if (!config.deleteTopicEnable) { if (apiVersion < 3) throw new '
             'InvalidRequestException("Topic deletion is disabled.") else throw new TopicDeletionDisabledException() }')
        + "; " + _src(MSG + "DeleteTopicsResponse.json", '"Starting in version 3, a TOPIC_DELETION_DISABLED error code may be returned"')
        + "; " + _src("core/src/test/scala/unit/kafka/server/DeleteTopicsRequestWithDeletionDisabledTest.scala",
                      "testDeleteRecordsRequest (latest -> TOPIC_DELETION_DISABLED, v2 -> INVALID_REQUEST)"),
        scope="request",
        note="whole request: every requested topic gets the code (DeleteTopicsRequest.getErrorResponse); "
             "error_message is not set (null) even at v5+.",
    ),
    # --- Topic ids -----------------------------------------------------------------------
    ErrorRule(
        DELETE_TOPICS, Errors.UNKNOWN_TOPIC_ID, 6, "forbidden",
        _src(REPLICATION_CONTROL, "findTopicNames: unknown id -> new ApiError(UNKNOWN_TOPIC_ID)")
        + "; " + _src(MSG + "DeleteTopicsResponse.json", '"Version 6 adds topic ID ... UNKNOWN_TOPIC_ID error code will be returned"')
        + "; " + _src(MSG + "DeleteTopicsRequest.json", 'Topics[].TopicId "versions": "6+"'),
        note="ids can only be sent from v6; the response entry has name null and the requested id.",
    ),
    ErrorRule(
        METADATA, Errors.UNKNOWN_TOPIC_ID, 12, "forbidden",
        _src(KAFKA_APIS, "handleTopicMetadataRequest: unknownTopicIds -> metadataResponseTopic(Errors.UNKNOWN_TOPIC_ID, null, topicId, ...)")
        + "; " + _src(MSG + "MetadataRequest.json", '"Version 12 supports topic Id"'),
        note="v10/v11 requests carrying a topic id or a null name are refused as a whole with "
             "INVALID_REQUEST ('Topic IDs are not supported in requests for version N'); ids are "
             "not expressible below v10.",
    ),
    # --- Metadata partition-level -----------------------------------------------------------
    ErrorRule(
        METADATA, Errors.LISTENER_NOT_FOUND, 6, "downgraded_to:LEADER_NOT_AVAILABLE",
        _src(KAFKA_APIS, 'handleTopicMetadataRequest: errorUnavailableListeners = requestVersion >= 6 '
             '("In versions 5 and below, we returned LEADER_NOT_AVAILABLE ...")'),
        scope="partition",
        note="partition-level error when the leader has no endpoint on the request's listener.",
    ),
    ErrorRule(
        API_VERSIONS, Errors.REBOOTSTRAP_REQUIRED, 5, "forbidden",
        _src(MSG + "ApiVersionsRequest.json", '"Version 5 introduces ClusterId and NodeId checking and '
                                              'REBOOTSTRAP_REQUIRED error (KIP-1242)"'),
        scope="request", note="only a v5+ request carries the cluster id and node id that are checked",
    ),
    ErrorRule(
        METADATA, Errors.REPLICA_NOT_AVAILABLE, 0, "n/a",
        _src(KAFKA_APIS, "handleTopicMetadataRequest: errorUnavailableEndpoints = requestVersion == 0"),
        scope="partition",
        note="only v0 reports unavailable replica endpoints as an error; v1+ just omits the broker.",
    ),
]

# --------------------------------------------------------------------------------------
# Codes any supported version may return (code -> source)
# --------------------------------------------------------------------------------------
_FWD_TIMEOUT = _src(FORWARDING_MANAGER, "ForwardingResponseHandler.onTimeout -> getErrorResponse(new TimeoutException())")
_FWD_ENVELOPE = _src(FORWARDING_MANAGER, "envelope error -> getErrorResponse(Errors.UNKNOWN_SERVER_ERROR.exception)")
_DEADLINE = (_src(EVENT_QUEUE, "EventHandler.handleEvents: deadline passed -> new TimeoutException(), event not run")
             + "; " + _src("metadata/src/main/java/org/apache/kafka/controller/ControllerRequestContext.java",
                           "requestTimeoutMsToDeadlineNs(time, timeoutMs)"))
_BATCH_TOO_LARGE = _src(EVENT_EXCEPTION_INFO, 'BoundedListTooLongException -> PolicyViolationException('
                        '"Unable to perform excessively large batch operation.") (more than '
                        'QuorumController.MAX_RECORDS_PER_USER_OP = 10000 records)')
_NPE_FAILOVER = _src(EVENT_EXCEPTION_INFO, "catch-all -> UnknownServerException + controller failover")
#: What any API the broker handles or forwards may answer (the family modules' rows cite them).
HANDLE_ERROR = _src(KAFKA_APIS, "handle: an unexpected exception -> requestHelper.handleError (UNKNOWN_SERVER_ERROR)")
FORWARD_TIMEOUT = _src(FORWARDING_MANAGER, "ForwardingResponseHandler.onTimeout -> REQUEST_TIMED_OUT")
NOT_CONTROLLER_RETRIED = _src(EVENT_EXCEPTION_INFO, "NotLeaderException -> NOT_CONTROLLER (the forwarding broker retries)")

ANY_VERSION: dict[int, dict[int, str]] = {
    CREATE_TOPICS: {
        Errors.NONE: _src(REPLICATION_CONTROL, "createTopic success result setErrorCode(NONE)"),
        Errors.REQUEST_TIMED_OUT: _DEADLINE + "; " + _FWD_TIMEOUT,
        Errors.INVALID_TOPIC_EXCEPTION: _src(REPLICATION_CONTROL, "validateNewTopicNames: Topic.validate / collision chars -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, 'createTopics: not authorized -> TOPIC_AUTHORIZATION_FAILED "Authorization failed."'),
        Errors.TOPIC_ALREADY_EXISTS: _src(REPLICATION_CONTROL, "createTopics: topicsByName.containsKey -> TOPIC_ALREADY_EXISTS"),
        Errors.INVALID_PARTITIONS: _src(REPLICATION_CONTROL, "createTopic: numPartitions < -1 || == 0 -> INVALID_PARTITIONS"),
        Errors.INVALID_REPLICATION_FACTOR: _src(REPLICATION_CONTROL, "createTopic: replicationFactor < -1 || == 0, or placer -> INVALID_REPLICATION_FACTOR"),
        Errors.INVALID_REPLICA_ASSIGNMENT: _src(REPLICATION_CONTROL, "createTopic/validateManualPartitionAssignment -> INVALID_REPLICA_ASSIGNMENT"),
        Errors.INVALID_CONFIG: _src(REPLICATION_CONTROL, "computeConfigChanges (null value) / configurationControl.incrementalAlterConfig -> INVALID_CONFIG"),
        Errors.NOT_CONTROLLER: _src(EVENT_EXCEPTION_INFO, "NotLeaderException -> NotControllerException (normally retried by the forwarding broker)"),
        Errors.INVALID_REQUEST: _src(CONTROLLER_APIS, 'createTopics: duplicate names -> INVALID_REQUEST "Duplicate topic name."')
            + "; " + _src(REPLICATION_CONTROL, "createTopic: assignments with numPartitions/replicationFactor != -1 -> INVALID_REQUEST"),
        Errors.POLICY_VIOLATION: _src(REPLICATION_CONTROL, "maybeCheckCreateTopicPolicy -> POLICY_VIOLATION (create.topic.policy.class.name)")
            + "; " + _BATCH_TOO_LARGE,
        Errors.UNKNOWN_SERVER_ERROR: _FWD_ENVELOPE + "; " + _NPE_FAILOVER,
    },
    DELETE_TOPICS: {
        Errors.NONE: _src(CONTROLLER_APIS, "deleteTopics: appendResponse(name, id, ApiError.NONE)"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(REPLICATION_CONTROL, "findTopicIds: unknown name -> new ApiError(UNKNOWN_TOPIC_OR_PARTITION)"),
        Errors.REQUEST_TIMED_OUT: _DEADLINE + "; " + _FWD_TIMEOUT
           + "; " + _src("core/src/test/scala/unit/kafka/server/DeleteTopicsRequestTest.scala",
                         "testErrorDeleteTopicRequests is ZK-only: 'The KRaft controller doesn't perform operations that have timed out.'"),
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, "deleteTopics: not describable / not deletable -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.NOT_CONTROLLER: _src(EVENT_EXCEPTION_INFO, "NotLeaderException -> NotControllerException (normally retried by the forwarding broker)"),
        Errors.INVALID_REQUEST: _src(CONTROLLER_APIS, 'deleteTopics: "Duplicate topic name." / "Duplicate topic id." / '
                 '"You may not specify both topic name and topic id." / "Neither topic name nor id were specified." / '
                 '"The provided topic name maps to an ID that was already supplied."'),
        Errors.POLICY_VIOLATION: _BATCH_TOO_LARGE + " (only with > 10000 topics in one request)",
        Errors.UNKNOWN_SERVER_ERROR: _FWD_ENVELOPE + "; " + _NPE_FAILOVER,
    },
    DELETE_RECORDS: {
        Errors.NONE: _src(REPLICA_MANAGER, "deleteRecords / DelayedDeleteRecords: low watermark reached"),
        Errors.OFFSET_OUT_OF_RANGE: _src(UNIFIED_LOG, 'maybeIncrementLogStartOffset: offset > highWatermark -> OffsetOutOfRangeException '
                '"Cannot increment the log start offset to X ... since it is larger than the high watermark H"')
           + "; " + _src(PARTITION, 'deleteRecordsOnLeader: offset < 0 (other than -1) -> "The offset X for partition P is not valid"'),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(KAFKA_APIS, "handleDeleteRecordsRequest: !metadataCache.contains(tp) -> UNKNOWN_TOPIC_OR_PARTITION (low_watermark -1)"),
        Errors.NOT_LEADER_OR_FOLLOWER: _src(REPLICA_MANAGER, "deleteRecordsOnLocalLog: getPartitionOrException -> NotLeaderOrFollowerException"),
        Errors.REQUEST_TIMED_OUT: _src("core/src/main/scala/kafka/server/DelayedDeleteRecords.scala", "onExpiration -> REQUEST_TIMED_OUT (followers' log start offset did not reach the offset in time)"),
        Errors.INVALID_TOPIC_EXCEPTION: _src(REPLICA_MANAGER, 'deleteRecordsOnLocalLog: internal topic -> InvalidTopicException("Cannot delete records of internal topic ...")'),
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "handleDeleteRecordsRequest: no DELETE on topic -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.POLICY_VIOLATION: _src(PARTITION, 'deleteRecordsOnLeader: !leaderLog.config.delete -> PolicyViolationException("Records of partition P can not be deleted due to the configured policy")'),
        Errors.KAFKA_STORAGE_ERROR: _src(REPLICA_MANAGER, "deleteRecordsOnLocalLog: KafkaStorageException"),
        Errors.UNKNOWN_SERVER_ERROR: _src(REPLICA_MANAGER, "deleteRecordsOnLocalLog: case t: Throwable"),
    },
    DESCRIBE_CONFIGS: {
        Errors.NONE: _src(CONFIG_HELPER, "describeConfigs: createResponseConfig setErrorCode(NONE)"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(CONFIG_HELPER, "describeConfigs TOPIC: !metadataCache.contains(topic) -> UNKNOWN_TOPIC_OR_PARTITION (no error_message)"),
        Errors.INVALID_TOPIC_EXCEPTION: _src(CONFIG_HELPER, "describeConfigs TOPIC: Topic.validate(topic) -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(CONFIG_HELPER, "handleDescribeConfigsRequest: no DESCRIBE_CONFIGS on topic -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(CONFIG_HELPER, "handleDescribeConfigsRequest: BROKER/BROKER_LOGGER without cluster DESCRIBE_CONFIGS -> CLUSTER_AUTHORIZATION_FAILED"),
        Errors.INVALID_REQUEST: _src(CONFIG_HELPER, "broker id mismatch / unsupported resource type -> InvalidRequestException"),
        Errors.UNKNOWN_SERVER_ERROR: _src(CONFIG_HELPER, "describeConfigs catch Throwable -> ApiError.fromThrowable"),
    },
    ALTER_CONFIGS: {
        Errors.NONE: _src(CONFIGURATION_CONTROL, "legacyAlterConfigResource -> ApiError.NONE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(CONFIGURATION_CONTROL, "validateAlterConfig existenceChecker -> UNKNOWN_TOPIC_OR_PARTITION \"The topic 'x' does not exist.\""),
        Errors.REQUEST_TIMED_OUT: _FWD_TIMEOUT,
        Errors.INVALID_TOPIC_EXCEPTION: _src(CONTROLLER_CONFIG_VALIDATOR, "validateTopicName: Topic.validate(name) -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, "authorizeAlterResource TOPIC -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, "authorizeAlterResource BROKER -> CLUSTER_AUTHORIZATION_FAILED"),
        Errors.INVALID_CONFIG: _src(CONFIGURATION_CONTROL, "validateAlterConfig: ConfigException -> INVALID_CONFIG")
            + "; " + _src(LOG_CONFIG, 'validateNames -> InvalidConfigurationException("Unknown topic config name: x")'),
        Errors.INVALID_REQUEST: _src(CONFIG_ADMIN_MANAGER, 'preprocess(AlterConfigsRequestData): "Each resource must appear at most once." / '
                 '"Error due to duplicate config keys" / "Null value not supported for : k" / "Unknown resource type N"')
            + "; " + _src(CONTROLLER_CONFIG_VALIDATOR, '"Default topic resources are not allowed." (empty topic name)'),
        Errors.POLICY_VIOLATION: _src(CONFIGURATION_CONTROL, "validateAlterConfig: alterConfigPolicy.validate -> POLICY_VIOLATION (alter.config.policy.class.name)"),
        Errors.UNKNOWN_SERVER_ERROR: _FWD_ENVELOPE + "; " + _src(CONFIG_ADMIN_MANAGER, "reassembleLegacyResponse: missing controller result -> UNKNOWN_SERVER_ERROR"),
    },
    CREATE_PARTITIONS: {
        Errors.NONE: _src(REPLICATION_CONTROL, "createPartitions -> ApiError.NONE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(REPLICATION_CONTROL, "createPartitions: unknown topic -> new UnknownTopicOrPartitionException() (error_message null)"),
        Errors.REQUEST_TIMED_OUT: _DEADLINE + "; " + _FWD_TIMEOUT,
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, "createPartitions: no ALTER on topic -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.INVALID_PARTITIONS: _src(REPLICATION_CONTROL, 'createPartitions: count == current "Topic already has N partition(s)." / count < current "... would not be an increase."'),
        Errors.INVALID_REPLICATION_FACTOR: _src(REPLICATION_CONTROL, "createPartitions: all brokers fenced -> InvalidReplicationFactorException / replica placer"),
        Errors.INVALID_REPLICA_ASSIGNMENT: _src(REPLICATION_CONTROL, "createPartitions: assignments().size() != additional, validateManualPartitionAssignment -> INVALID_REPLICA_ASSIGNMENT"),
        Errors.NOT_CONTROLLER: _src(EVENT_EXCEPTION_INFO, "NotLeaderException -> NotControllerException (normally retried by the forwarding broker)"),
        Errors.INVALID_REQUEST: _src(CONTROLLER_APIS, 'createPartitions: duplicate names -> INVALID_REQUEST "Duplicate topic name."'),
        Errors.POLICY_VIOLATION: _BATCH_TOO_LARGE + " (adding more than 10000 partitions at once)",
        Errors.UNKNOWN_SERVER_ERROR: _FWD_ENVELOPE + "; " + _NPE_FAILOVER,
    },
    INCREMENTAL_ALTER_CONFIGS: {
        Errors.NONE: _src(CONFIGURATION_CONTROL, "incrementalAlterConfigResource -> ApiError.NONE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(CONFIGURATION_CONTROL, "validateAlterConfig existenceChecker -> UNKNOWN_TOPIC_OR_PARTITION \"The topic 'x' does not exist.\"")
           + "; " + _src("server/src/test/java/org/apache/kafka/server/KRaftClusterTest.java", "testIncrementalAlterConfigs"),
        Errors.REQUEST_TIMED_OUT: _FWD_TIMEOUT,
        Errors.INVALID_TOPIC_EXCEPTION: _src(CONTROLLER_CONFIG_VALIDATOR, "validateTopicName: Topic.validate(name) -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, "authorizeAlterResource TOPIC -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, "authorizeAlterResource BROKER -> CLUSTER_AUTHORIZATION_FAILED")
            + "; " + _src(CONFIG_ADMIN_MANAGER, "preprocess BROKER_LOGGER -> ClusterAuthorizationException"),
        Errors.INVALID_CONFIG: _src(CONFIGURATION_CONTROL, 'incrementalAlterConfigResource: APPEND/SUBTRACT on non-LIST key -> INVALID_CONFIG "Can\'t APPEND to key k because its type is not LIST."')
            + "; " + _src(CONFIGURATION_CONTROL, "validateAlterConfig: ConfigException -> INVALID_CONFIG")
            + "; " + _src("server/src/test/java/org/apache/kafka/server/KRaftClusterTest.java",
                          'testIncrementalAlterConfigs: INVALID_CONFIG "Unknown topic config name: not.a.real.topic.config"'),
        Errors.INVALID_REQUEST: _src(CONFIG_ADMIN_MANAGER, 'preprocess(IncrementalAlterConfigsRequestData): "Each resource must appear at most once." / '
                 '"Error due to duplicate config keys" / "Null value not supported for : k" / "Unknown resource type N"'),
        Errors.POLICY_VIOLATION: _src(CONFIGURATION_CONTROL, "validateAlterConfig: alterConfigPolicy.validate -> POLICY_VIOLATION (alter.config.policy.class.name)"),
        Errors.UNKNOWN_SERVER_ERROR: _FWD_ENVELOPE
            + "; " + _src(CONFIGURATION_CONTROL, "incrementalAlterConfigResource: switch (opType) on null (unknown ConfigOperation byte) -> NullPointerException")
            + "; " + _NPE_FAILOVER,
    },
    METADATA: {
        Errors.NONE: _src(KAFKA_APIS, "handleTopicMetadataRequest"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(KAFKA_APIS, "getTopicMetadata: non-existing topic, no auto-create -> UNKNOWN_TOPIC_OR_PARTITION"),
        Errors.LEADER_NOT_AVAILABLE: _src("core/src/main/scala/kafka/server/AutoTopicCreationManager.scala", "createTopics -> LEADER_NOT_AVAILABLE while auto-creating")
           + " (also partition-level when a partition has no leader)",
        Errors.INVALID_TOPIC_EXCEPTION: _src(KAFKA_APIS, "getTopicMetadata: Topic.validate fails -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "handleTopicMetadataRequest: unauthorizedForDescribeTopics / unauthorizedForCreateTopics -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.INVALID_REQUEST: _src(KAFKA_APIS, 'handleTopicMetadataRequest: topic id / null name below v12 -> InvalidRequestException (whole request)'),
        Errors.UNKNOWN_SERVER_ERROR: _src(KAFKA_APIS, "handle: handleError"),
    },
}

# --------------------------------------------------------------------------------------
# error_message fields
# --------------------------------------------------------------------------------------
# api_key -> (null_on_success (False: Kafka sends ""), note with sources)
_ERROR_MESSAGE_KAFKA: dict[int, tuple[bool, str]] = {
    CREATE_TOPICS: (
        True,
        _src(MSG + "CreateTopicsResponse.json", 'ErrorMessage "versions": "1+" ("or null if there was no error")')
        + "; success: " + _src(REPLICATION_CONTROL, "createTopic setErrorMessage(null)")
        + "; whole-request errors (timeout, ...): " + _src("clients/src/main/java/org/apache/kafka/common/requests/CreateTopicsRequest.java",
                                                          "getErrorResponse setErrorMessage(ApiError.fromThrowable(e).message()) -> null for generic messages")
        + ". All 4.x versions (2-7) carry it.",
    ),
    DELETE_TOPICS: (
        True,
        _src(MSG + "DeleteTopicsResponse.json", 'ErrorMessage "versions": "5+", "default": "null"')
        + "; success: " + _src(CONTROLLER_APIS, "deleteTopics appendResponse(..., ApiError.NONE) (message null)")
        + "; NOT always set on error: " + _src("clients/src/main/java/org/apache/kafka/common/requests/DeleteTopicsRequest.java",
                                              "getErrorResponse sets only setErrorCode (REQUEST_TIMED_OUT, TOPIC_DELETION_DISABLED -> message null)"),
    ),
    DELETE_RECORDS: (True, _src(MSG + "DeleteRecordsResponse.json", "no ErrorMessage field in any version")),
    DESCRIBE_CONFIGS: (
        False,
        _src(MSG + "DescribeConfigsResponse.json", 'ErrorMessage "versions": "0+", "nullableVersions": "0+" (no "default": '
             'the generated field starts as "")')
        + "; success sends \"\", not null: " + _src("server/src/main/java/org/apache/kafka/server/ConfigHelperUtils.java",
                                                "toDescribeConfigsResult setErrorCode(NONE) only")
        + " + " + _src("generator/src/main/java/org/apache/kafka/message/MessageDataGenerator.java",
                       'fieldDefault: a string field defaults to "" unless "default": "null"')
        + "; NOT set (so \"\") for UNKNOWN_TOPIC_OR_PARTITION: " + _src(CONFIG_HELPER, "describeConfigs setErrorCode(UNKNOWN_TOPIC_OR_PARTITION) only"),
    ),
    ALTER_CONFIGS: (
        True,
        _src(MSG + "AlterConfigsResponse.json", 'ErrorMessage "versions": "0+" ("or null if there was no error")')
        + "; success: ApiError.NONE message null (" + _src(CONFIG_ADMIN_MANAGER, "reassembleLegacyResponse setErrorMessage(err.message())") + ")",
    ),
    CREATE_PARTITIONS: (
        True,
        _src(MSG + "CreatePartitionsResponse.json", 'ErrorMessage "versions": "0+", "default": "null"')
        + "; NOT always set on error: " + _src(REPLICATION_CONTROL, "createPartitions: new UnknownTopicOrPartitionException() -> message null")
        + "; " + _src(CONTROLLER_APIS, "createPartitions: TOPIC_AUTHORIZATION_FAILED without message"),
    ),
    INCREMENTAL_ALTER_CONFIGS: (
        True,
        _src(MSG + "IncrementalAlterConfigsResponse.json", 'ErrorMessage "versions": "0+" ("or null if there was no error")')
        + "; success: " + _src(CONFIG_ADMIN_MANAGER, "reassembleIncrementalResponse setErrorMessage(err.message()) (ApiError.NONE -> null)"),
    ),
    METADATA: (True, _src(MSG + "MetadataResponse.json", "no ErrorMessage field (v13 adds only a top-level ErrorCode)")),
}

# --------------------------------------------------------------------------------------
# The other admin APIs' rows, by family (one module each, merged here: these tables are the
# only ones): ACLs, quotas, SCRAM, delegation tokens; the cluster APIs; groups and transactions.
# --------------------------------------------------------------------------------------
from . import error_codes_cluster, error_codes_groups, error_codes_security  # noqa: E402

for _family in (error_codes_security, error_codes_cluster, error_codes_groups):
    _twice = set(_family.ANY_VERSION) & set(ANY_VERSION)
    assert not _twice, f"{_family.__name__} restates {_twice}"
    ANY_VERSION.update(_family.ANY_VERSION)
    RULES.extend(_family.RULES)
    _ERROR_MESSAGE_KAFKA.update(_family.ERROR_MESSAGE_KAFKA)

#: api_key -> (first version whose response carries error_message, top-level or per item, or
#: None: read from the response schema; null_on_success; note with sources).
ERROR_MESSAGE: dict[int, tuple[Optional[int], bool, str]] = {
    api: (schema_facts.first_message_version(api), *kafka) for api, kafka in _ERROR_MESSAGE_KAFKA.items()}

# --------------------------------------------------------------------------------------
# All Kafka error codes: ``protocol.errors.Errors`` (Errors.java), as a code -> name table.
# --------------------------------------------------------------------------------------
ERRORS_SOURCE = _src(ERRORS_JAVA, "enum Errors")
ERRORS: dict[int, str] = {e.value: e.name for e in Errors}

# Codes the brief asked about that released KRaft Kafka does NOT produce for these APIs
# through a broker (kept here so a finding can cite why it is unexpected).
NOT_PRODUCED: dict[tuple[int, int], str] = {
    (CREATE_PARTITIONS, Errors.REASSIGNMENT_IN_PROGRESS): "REASSIGNMENT_IN_PROGRESS: only the removed ZK AdminManager checked for a reassignment; "
                             + _src(REPLICATION_CONTROL, "createPartitions has no reassignment check"),
    (ALTER_CONFIGS, Errors.UNSUPPORTED_VERSION): "UNSUPPORTED_VERSION for an unknown resource type is what ControllerApis.handleLegacyAlterConfigs "
                         "answers, but the broker's ConfigAdminManager.preprocess answers INVALID_REQUEST first; only a "
                         "client talking to the controller directly sees 35",
    (INCREMENTAL_ALTER_CONFIGS, Errors.UNSUPPORTED_VERSION): "as for AlterConfigs: " + _src(CONTROLLER_APIS, "handleIncrementalAlterConfigs UNKNOWN type -> UNSUPPORTED_VERSION")
                                     + " is shadowed by " + _src(CONFIG_ADMIN_MANAGER, "preprocess -> INVALID_REQUEST"),
    (DELETE_TOPICS, Errors.POLICY_VIOLATION): "no delete-topic policy exists in released Kafka (KIP-201 never shipped); 44 only for >10000 topics",
    (DELETE_RECORDS, Errors.INVALID_REQUEST): "DeleteRecords has no validate_only / policy in released Kafka (KIP-201 never shipped)",
}


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------
def rules_for(api_key: int) -> list[ErrorRule]:
    return [r for r in RULES if r.api_key == api_key]


def allowed_codes(api_key: int, version: int) -> frozenset[int]:
    """Codes an item of ``api_key`` may carry at ``version`` in released Kafka 4.x."""
    codes = set(ANY_VERSION.get(api_key, {}))
    codes.update(r.error_code for r in RULES if r.api_key == api_key and r.since_version <= version)
    return frozenset(int(c) for c in codes)


def forbidden_codes(api_key: int, version: int) -> frozenset[int]:
    """Version-gated codes that must not appear at ``version`` (catalogue P5)."""
    return frozenset(int(r.error_code) for r in RULES
                     if r.api_key == api_key and version < r.since_version)


def may_answer(api_key: int, error_code: int, version: int) -> bool:
    """Whether an item of ``api_key`` may carry ``error_code`` at ``version`` (``allowed_codes``)."""
    return int(error_code) in allowed_codes(api_key, version)


def answered_as(api_key: int, error_code: int, version: int) -> Optional[int]:
    """What Kafka answers at ``version`` where a newer version answers ``error_code``: the code
    itself from its first version on, its downgrade below (``RULES``), None where nothing
    stands in for it (``below="forbidden"``)."""
    for r in RULES:
        if r.api_key == api_key and r.error_code == error_code and version < r.since_version:
            return None if r.downgraded_to is None else int(r.downgraded_to)
    return int(error_code)


def downgrade_of(api_key: int, error_code: int, version: int) -> Optional[int]:
    """What Kafka answers instead of ``error_code`` at ``version``, or None if nothing changes."""
    for r in RULES:
        if r.api_key == api_key and r.error_code == error_code and version < r.since_version:
            return None if r.downgraded_to is None else int(r.downgraded_to)
    return None


# --------------------------------------------------------------------------------------
# Which codes a response may carry at all (catalogue P2): the union of ``allowed_codes``
# over the API's versions. Whether a gated code came at a version that predates it is
# catalogue P5's question (conformance/test_error_codes.py). ApiVersions is not in the
# tables above (it is not an admin operation); its codes are below. An API in neither
# place accepts any code Kafka defines (Errors.java).
# --------------------------------------------------------------------------------------

#: Every code Kafka defines (``Errors.java``).
ALL_KAFKA_CODES = frozenset(int(e) for e in Errors)

_API_VERSIONS_REQUEST = "clients/src/main/java/org/apache/kafka/common/requests/ApiVersionsRequest.java"

#: ApiVersions (18): codes with their source.
API_VERSIONS_CODES: dict[int, str] = {
    Errors.NONE: _src(CONTROLLER_APIS, " handleApiVersionsRequest -> apiVersionManager.apiVersionResponse"),
    Errors.UNSUPPORTED_VERSION:
        _src(CONTROLLER_APIS, " hasUnsupportedRequestVersion -> getErrorResponse(UNSUPPORTED_VERSION) (v0 body)"),
    Errors.INVALID_REQUEST:
        _src(CONTROLLER_APIS, " !apiVersionRequest.isValid -> getErrorResponse(INVALID_REQUEST); ")
        + _src(_API_VERSIONS_REQUEST, " isValid (client software name/version pattern, v3+)"),
    Errors.REBOOTSTRAP_REQUIRED:
        _src(MSG + "ApiVersionsRequest.json", " Version 5 introduces ClusterId and NodeId checking and "
                                              "REBOOTSTRAP_REQUIRED error (KIP-1242): a cluster id or node id that is "
                                              "not this broker's"),
    Errors.UNKNOWN_SERVER_ERROR: _src(KAFKA_APIS, " handle -> handleError (any API)"),
}


@lru_cache(maxsize=None)
def known_error_codes(api_key: int) -> frozenset[int]:
    """Codes ``api_key`` can return at any version of released Kafka."""
    if api_key == ApiKey.ApiVersions:
        return frozenset(API_VERSIONS_CODES)
    if api_key not in ANY_VERSION:
        return ALL_KAFKA_CODES
    versions = range(0, 64)   # every version any schema has; gated codes count from their first
    return frozenset().union(*(allowed_codes(api_key, v) for v in versions))


def _self_check() -> None:
    for r in RULES:
        assert isinstance(r.error_code, Errors), r
        assert r.below == "forbidden" or r.below == "n/a" or r.downgraded_to is not None, r
        assert r.source.startswith("apache/kafka "), r
    for api, codes in ANY_VERSION.items():
        for code, source in codes.items():
            assert code in ERRORS, (api, code)
            assert source.startswith("apache/kafka "), (api, code)


_self_check()
