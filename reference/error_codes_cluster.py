"""Error codes of the cluster admin APIs (offsets by time, log dirs, leader elections,
reassignments, the quorum and its voters, features, the cluster and its brokers, producers,
topic partitions, config resources) in released Apache Kafka (4.x, KRaft): rows of
``reference/error_codes.py``'s tables, which merges them; read there, never here.

Each row names the place in apache/kafka it was read from. The broker answers ListOffsets,
the log-dir APIs, DescribeCluster, DescribeProducers, DescribeTopicPartitions and
ListConfigResources itself (``KafkaApis``, ``ReplicaManager``); ElectLeaders, the
reassignment APIs and UpdateFeatures are forwarded to the controller (``ControllerApis`` ->
``ReplicationControlManager``, ``FeatureControlManager``), and DescribeQuorum,
UnregisterBroker and the Raft voter APIs go to it whatever (``forwardToControllerOrFail``:
``KafkaRaftClient``, ``AddVoterHandler``, ``RemoveVoterHandler``, ``ClusterControlManager``).
"""
from __future__ import annotations

from protocol import ApiKey, Errors

from .error_codes import (CONTROLLER_APIS, EVENT_EXCEPTION_INFO, FORWARD_TIMEOUT, HANDLE_ERROR, KAFKA_APIS, MSG,
                          NOT_CONTROLLER_RETRIED, REPLICA_MANAGER, REPLICATION_CONTROL, _src, ErrorRule)

AUTH_HELPER = "core/src/main/scala/kafka/server/AuthHelper.scala"
FEATURE_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/FeatureControlManager.java"
CLUSTER_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ClusterControlManager.java"
RAFT_CLIENT = "raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java"
ADD_VOTER = "raft/src/main/java/org/apache/kafka/raft/internals/AddVoterHandler.java"
REMOVE_VOTER = "raft/src/main/java/org/apache/kafka/raft/internals/RemoveVoterHandler.java"
TOPIC_PARTITIONS = "core/src/main/scala/kafka/server/handlers/DescribeTopicPartitionsRequestHandler.java"
LOG_MANAGER = "storage/src/main/java/org/apache/kafka/storage/internals/log/LogManager.java"



def _cluster(op: str, where: str = CONTROLLER_APIS) -> str:
    return _src(where, f"authHelper.authorizeClusterOperation(request, {op}) -> CLUSTER_AUTHORIZATION_FAILED")


_FORWARDED = {Errors.REQUEST_TIMED_OUT: FORWARD_TIMEOUT, Errors.NOT_CONTROLLER: NOT_CONTROLLER_RETRIED,
              Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR + "; " + _src(EVENT_EXCEPTION_INFO, "catch-all -> "
                                                                       "UnknownServerException")}
_PARTITION = {
    Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(REPLICA_MANAGER, "getPartitionOrException: unknown topic or partition"),
    Errors.NOT_LEADER_OR_FOLLOWER: _src(REPLICA_MANAGER, "getPartitionOrException: this broker leads no replica of it"),
    Errors.KAFKA_STORAGE_ERROR: _src(REPLICA_MANAGER, "an offline log dir -> KafkaStorageException"),
}

ANY_VERSION: dict[int, dict[int, str]] = {
    ApiKey.ListOffsets: {
        Errors.NONE: _src(REPLICA_MANAGER, "fetchOffset: the offset found (or none, -1)"),
        **_PARTITION,
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "handleListOffsetRequestV1AndAbove: no DESCRIBE on the topic"),
        Errors.INVALID_REQUEST: _src(REPLICA_MANAGER, "fetchOffset: a partition listed twice -> INVALID_REQUEST"),
        Errors.UNSUPPORTED_VERSION: _src(REPLICA_MANAGER, "fetchOffset: an OffsetSpec the request's version does not "
                                                          "have (max timestamp below v7, ...) -> UNSUPPORTED_VERSION"),
        Errors.UNKNOWN_LEADER_EPOCH: _src(REPLICA_MANAGER, "fetchOffset: current_leader_epoch above the leader's"),
        Errors.FENCED_LEADER_EPOCH: _src(REPLICA_MANAGER, "fetchOffset: current_leader_epoch below the leader's"),
        Errors.LEADER_NOT_AVAILABLE: _src(REPLICA_MANAGER, "fetchOffset: OffsetNotAvailableException below v5 -> "
                                                           "LEADER_NOT_AVAILABLE"),
        Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT: _src(REPLICA_MANAGER, "fetchOffset: UnsupportedForMessageFormatException"),
        Errors.REQUEST_TIMED_OUT: _src(REPLICA_MANAGER, "fetchOffset: a remote (tiered) offset lookup past timeout_ms"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.AlterReplicaLogDirs: {
        Errors.NONE: _src(REPLICA_MANAGER, "alterReplicaLogDirs: the future replica is created"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("ALTER", KAFKA_APIS),
        Errors.LOG_DIR_NOT_FOUND: _src(REPLICA_MANAGER, "alterReplicaLogDirs: logManager.maybeUpdatePreferredLogDir -> "
                                                        "LogDirNotFoundException for a path that is no log dir"),
        Errors.INVALID_TOPIC_EXCEPTION: _src(REPLICA_MANAGER, 'alterReplicaLogDirs: "The topic name is too long."'),
        Errors.KAFKA_STORAGE_ERROR: _src(REPLICA_MANAGER, "alterReplicaLogDirs: an offline log dir"),
        Errors.REPLICA_NOT_AVAILABLE: _src(REPLICA_MANAGER, "alterReplicaLogDirs: NotLeaderOrFollowerException (no "
                                                            "replica here) -> REPLICA_NOT_AVAILABLE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(REPLICA_MANAGER, "alterReplicaLogDirs: an unknown partition"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR + "; " + _src(REPLICA_MANAGER, "alterReplicaLogDirs: other "
                                                                                  "Throwable -> Errors.forException"),
    },
    ApiKey.DescribeLogDirs: {
        Errors.NONE: _src(REPLICA_MANAGER, "describeLogDirs"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "handleDescribeLogDirsRequest: no DESCRIBE on the cluster "
                                                              "(top-level from v3, no results below)"),
        Errors.KAFKA_STORAGE_ERROR: _src(REPLICA_MANAGER, "describeLogDirs: an offline log dir"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR + "; " + _src(REPLICA_MANAGER, "describeLogDirs: other Throwable"),
    },
    ApiKey.ElectLeaders: {
        Errors.NONE: _src(REPLICATION_CONTROL, "electLeader: a new leader"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("ALTER"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(REPLICATION_CONTROL, "electLeader: unknown topic or partition"),
        Errors.ELECTION_NOT_NEEDED: _src(REPLICATION_CONTROL, "electLeader: the preferred replica already leads"),
        Errors.PREFERRED_LEADER_NOT_AVAILABLE: _src(REPLICATION_CONTROL, "electLeader: PREFERRED, the preferred replica "
                                                                         "cannot lead"),
        Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE: _src(REPLICATION_CONTROL, "electLeader: UNCLEAN, no live replica"),
        Errors.INVALID_REQUEST: _src(CONTROLLER_APIS, "handleElectLeaders: an unknown election type / duplicate "
                                                      "partitions -> INVALID_REQUEST"),
        **_FORWARDED,
    },
    ApiKey.AlterPartitionReassignments: {
        Errors.NONE: _src(REPLICATION_CONTROL, "alterPartitionReassignment"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("ALTER"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(REPLICATION_CONTROL, 'alterPartitionReassignment: "Unable to find a '
                                                                      'topic / partition"'),
        Errors.NO_REASSIGNMENT_IN_PROGRESS: _src(REPLICATION_CONTROL, "cancelPartitionReassignment: none in progress"),
        Errors.INVALID_REPLICA_ASSIGNMENT: _src(REPLICATION_CONTROL, "validateManualPartitionAssignment: empty, "
                                                                     "duplicate or unregistered replicas"),
        Errors.INVALID_REPLICATION_FACTOR: _src(REPLICATION_CONTROL, "changePartitionReassignment: a new replication "
                                                                     "factor without allow_replication_factor_change"),
        Errors.INVALID_REQUEST: _src(CONTROLLER_APIS, "handleAlterPartitionReassignments: duplicate topics or "
                                                      "partitions -> INVALID_REQUEST"),
        Errors.POLICY_VIOLATION: _src(EVENT_EXCEPTION_INFO, "BoundedListTooLongException -> POLICY_VIOLATION"),
        **_FORWARDED,
    },
    ApiKey.ListPartitionReassignments: {
        Errors.NONE: _src(REPLICATION_CONTROL, "listPartitionReassignments: the ongoing ones (unknown partitions are "
                                               "left out)"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("DESCRIBE"),
        **_FORWARDED,
    },
    ApiKey.DescribeQuorum: {
        Errors.NONE: _src(RAFT_CLIENT, "handleDescribeQuorumRequest: the leader's view"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("DESCRIBE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(RAFT_CLIENT, "handleDescribeQuorumRequest: a partition other than "
                                                             "__cluster_metadata-0 -> UNKNOWN_TOPIC_OR_PARTITION"),
        Errors.NOT_LEADER_OR_FOLLOWER: _src(RAFT_CLIENT, "handleDescribeQuorumRequest: this controller is not the "
                                                         "leader"),
        Errors.INVALID_REQUEST: _src("clients/src/main/java/org/apache/kafka/common/requests/DescribeQuorumRequest.java",
                                     "getErrorResponse for a request naming more than the one partition"),
        **_FORWARDED,
    },
    ApiKey.UpdateFeatures: {
        Errors.NONE: _src(FEATURE_CONTROL, "updateFeatures: ApiError.NONE"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("ALTER"),
        Errors.INVALID_UPDATE_VERSION: _src(FEATURE_CONTROL, "updateFeature: an unknown feature, a level out of "
                                                              "range, a downgrade not allowed -> INVALID_UPDATE_VERSION"),
        Errors.INVALID_REQUEST: _src(CONTROLLER_APIS, "handleUpdateFeatures: a feature named twice / an unknown "
                                                      "upgrade type -> INVALID_REQUEST"),
        Errors.FEATURE_UPDATE_FAILED: _src(FEATURE_CONTROL, "updateFeatures: a dependency between features not met"),
        Errors.UNSUPPORTED_VERSION: _src(FEATURE_CONTROL, "updateFeatures: a version below the one that may set it"),
        **_FORWARDED,
    },
    ApiKey.DescribeCluster: {
        Errors.NONE: _src(AUTH_HELPER, "computeDescribeClusterResponse"),
        Errors.INVALID_REQUEST: _src(AUTH_HELPER, "computeDescribeClusterResponse: an unknown or mismatched endpoint "
                                                  "type at v0 -> INVALID_REQUEST"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.DescribeProducers: {
        Errors.NONE: _src(REPLICA_MANAGER, "activeProducerState"),
        **_PARTITION,
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "handleDescribeProducersRequest: no READ on the topic"),
        Errors.INVALID_TOPIC_EXCEPTION: _src(KAFKA_APIS, "handleDescribeProducersRequest: partitionError for a name "
                                                         "Topic.validate refuses"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.UnregisterBroker: {
        Errors.NONE: _src(CLUSTER_CONTROL, "unregisterBroker"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("ALTER"),
        Errors.BROKER_ID_NOT_REGISTERED: _src("metadata/src/main/java/org/apache/kafka/controller/QuorumController.java",
                                              'unregisterBroker: "No node with id N" -> BrokerIdNotRegisteredException'),
        Errors.UNSUPPORTED_VERSION: _src(CONTROLLER_APIS, "handleUnregisterBroker: a metadata.version without it"),
        **_FORWARDED,
    },
    ApiKey.ListConfigResources: {
        Errors.NONE: _src(KAFKA_APIS, "handleListConfigResources"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("DESCRIBE_CONFIGS", KAFKA_APIS),
        Errors.UNSUPPORTED_VERSION: _src(KAFKA_APIS, "handleListConfigResources: v0 (client metrics) without a "
                                                     "metrics reporter / a resource type the version cannot list"),
        Errors.INVALID_REQUEST: _src(KAFKA_APIS, "handleListConfigResources: an unknown resource type"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.DescribeTopicPartitions: {
        Errors.NONE: _src(TOPIC_PARTITIONS, "handleDescribeTopicPartitionsRequest"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: _src(TOPIC_PARTITIONS, "a name no topic has"),
        Errors.TOPIC_AUTHORIZATION_FAILED: _src(TOPIC_PARTITIONS, "a topic the principal may not describe"),
        Errors.INVALID_TOPIC_EXCEPTION: _src(TOPIC_PARTITIONS, "a name Topic.validate refuses"),
        Errors.INVALID_REQUEST: _src(TOPIC_PARTITIONS, "a cursor naming a topic not requested"),
        Errors.UNSUPPORTED_VERSION: _src(KAFKA_APIS, "handleDescribeTopicPartitionsRequest: not a KRaft broker"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.AddRaftVoter: {
        Errors.NONE: _src(ADD_VOTER, "handleAddVoterRequest: the voter added"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("ALTER"),
        Errors.INCONSISTENT_CLUSTER_ID: _src(RAFT_CLIENT, "handleAddVoterRequest: cluster_id not this cluster's"),
        Errors.INVALID_REQUEST: _src(RAFT_CLIENT, "handleAddVoterRequest: no listeners / no directory id") + "; "
            + _src(ADD_VOTER, "the new voter's ApiVersions does not support kraft.version"),
        Errors.UNSUPPORTED_VERSION: _src(ADD_VOTER, "kraft.version 0 (a static quorum): no voter changes"),
        Errors.DUPLICATE_VOTER: _src(ADD_VOTER, "the voter is a voter already"),
        Errors.REQUEST_TIMED_OUT: _src(ADD_VOTER, "another voter change pending, no high watermark, the new voter "
                                                  "never answers") + "; " + FORWARD_TIMEOUT,
        Errors.NOT_LEADER_OR_FOLLOWER: _src(RAFT_CLIENT, "not the quorum's leader"),
        Errors.NOT_CONTROLLER: NOT_CONTROLLER_RETRIED,
        Errors.UNKNOWN_SERVER_ERROR: _src(ADD_VOTER, "resetAddVoterHandlerState(UNKNOWN_SERVER_ERROR)") + "; " + HANDLE_ERROR,
    },
    ApiKey.RemoveRaftVoter: {
        Errors.NONE: _src(REMOVE_VOTER, "handleRemoveVoterRequest: the voter removed"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _cluster("ALTER"),
        Errors.INCONSISTENT_CLUSTER_ID: _src(RAFT_CLIENT, "handleRemoveVoterRequest: cluster_id not this cluster's"),
        Errors.INVALID_REQUEST: _src(RAFT_CLIENT, "handleRemoveVoterRequest: no directory id"),
        Errors.UNSUPPORTED_VERSION: _src(REMOVE_VOTER, "kraft.version 0 (a static quorum): no voter changes"),
        Errors.VOTER_NOT_FOUND: _src(REMOVE_VOTER, "no voter with that id and directory id"),
        Errors.REQUEST_TIMED_OUT: _src(REMOVE_VOTER, "another voter change pending, no high watermark") + "; "
            + FORWARD_TIMEOUT,
        Errors.NOT_LEADER_OR_FOLLOWER: _src(RAFT_CLIENT, "not the quorum's leader"),
        Errors.NOT_CONTROLLER: NOT_CONTROLLER_RETRIED,
        Errors.UNKNOWN_SERVER_ERROR: _src(REMOVE_VOTER, "UNKNOWN_SERVER_ERROR") + "; " + HANDLE_ERROR,
    },
}

_ENDPOINT_TYPE = _src(AUTH_HELPER, "computeDescribeClusterResponse: apiVersion 0 -> INVALID_REQUEST, else "
                                   "UNSUPPORTED_ENDPOINT_TYPE / MISMATCHED_ENDPOINT_TYPE") + "; " \
    + _src(MSG + "DescribeClusterResponse.json", '"Version 1 adds the EndpointType field, and makes '
                                                 'MISMATCHED_ENDPOINT_TYPE and UNSUPPORTED_ENDPOINT_TYPE valid"')

RULES: list[ErrorRule] = [
    ErrorRule(ApiKey.DescribeCluster, Errors.UNSUPPORTED_ENDPOINT_TYPE, 1, "downgraded_to:INVALID_REQUEST",
              _ENDPOINT_TYPE, scope="request",
              note="v0 cannot name an endpoint type (BROKER is its default), so the code cannot arise there"),
    ErrorRule(ApiKey.DescribeCluster, Errors.MISMATCHED_ENDPOINT_TYPE, 1, "downgraded_to:INVALID_REQUEST",
              _ENDPOINT_TYPE, scope="request",
              note="a broker asked for CONTROLLER endpoints (KIP-919: only controllers answer those)"),
    ErrorRule(ApiKey.ListOffsets, Errors.OFFSET_NOT_AVAILABLE, 5, "downgraded_to:LEADER_NOT_AVAILABLE",
              _src(REPLICA_MANAGER, "fetchOffset: OffsetNotAvailableException -> the error from v5, "
                                    "LEADER_NOT_AVAILABLE below")
              + "; " + _src(MSG + "ListOffsetsResponse.json", '"Version 5 adds a new error code, OFFSET_NOT_AVAILABLE"'),
              scope="partition"),
]


def _message(api: str, note: str) -> str:
    return _src(MSG + f"{api}Response.json", "ErrorMessage") + "; " + note


#: api -> (null on success, note): what Kafka puts in error_message. Where the schema gives no
#: ErrorMessage ``"default": "null"`` (all but DescribeCluster and DescribeProducers), a success
#: Kafka answers without setting one carries Kafka's generated default "" (observed on
#: DescribeQuorum v2): null or "" pass.
ERROR_MESSAGE_KAFKA: dict[int, tuple[bool, str]] = {
    ApiKey.ElectLeaders: (False, _message("ElectLeaders", _src(REPLICATION_CONTROL, "ApiError.NONE.message() null"))),
    ApiKey.AlterPartitionReassignments: (False, _message("AlterPartitionReassignments",
                                                        _src(CONTROLLER_APIS, "ApiError.NONE.message() null"))),
    ApiKey.DescribeQuorum: (False, _message("DescribeQuorum", "v2+, top-level and per partition")),
    ApiKey.UpdateFeatures: (False, _message("UpdateFeatures", "top-level, and per feature at v0-v1")),
    ApiKey.DescribeCluster: (True, _message("DescribeCluster", _src(AUTH_HELPER, "a success sets none (default null)"))),
    ApiKey.ListPartitionReassignments: (False, _message("ListPartitionReassignments",
                                                       _src(CONTROLLER_APIS, "success: no message (null)"))),
    ApiKey.DescribeProducers: (True, _message("DescribeProducers", _src(KAFKA_APIS, "handleDescribeProducersRequest: "
                                                                                    "ApiError.NONE.message() null"))),
    ApiKey.UnregisterBroker: (False, _message("UnregisterBroker", _src(CONTROLLER_APIS, "ApiError.NONE.message() null"))),
    ApiKey.AddRaftVoter: (False, _message("AddRaftVoter", _src(ADD_VOTER, "success: null"))),
    ApiKey.RemoveRaftVoter: (False, _message("RemoveRaftVoter", _src(REMOVE_VOTER, "success: null"))),
}

__all__ = ["ANY_VERSION", "ERROR_MESSAGE_KAFKA", "RULES"]
