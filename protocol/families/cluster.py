"""The cluster APIs (ApiVersions, DescribeCluster, UpdateFeatures, DescribeQuorum,
AddRaftVoter, RemoveRaftVoter, UnregisterBroker): their declarations, request builders,
Kafka's error codes and the safe values of generated requests.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker answers ApiVersions and DescribeCluster itself
(``KafkaApis``, ``AuthHelper``); UpdateFeatures is forwarded to the controller
(``ControllerApis`` -> ``FeatureControlManager``), and DescribeQuorum, UnregisterBroker and
the Raft voter APIs go to it whatever (``forwardToControllerOrFail``: ``KafkaRaftClient``,
``AddVoterHandler``, ``RemoveVoterHandler``, ``ClusterControlManager``). Requests that could
damage the cluster under test name nothing real: broker and voter ids no node has (the
run's node names), only validate_only feature updates or a feature no broker knows, a
voter's listener on loopback at a port nothing serves.
"""
from __future__ import annotations

from typing import Iterable

from ..building import TIMEOUT_MS, Inexpressible, builds
from ..declaring import ADMIN, SUITE_TIMEOUT, ApiKey, ApiSpec, Choice, Entity, ErrorRule, Family, Range, Safe, from_kafka_clients
from ..errors import Errors
from ..kafka_sources import (CONTROLLER_APIS, FORWARD_TIMEOUT, FORWARDED, HANDLE_ERROR, KAFKA_APIS, MSG,
                             NOT_CONTROLLER_RETRIED, cluster_authorization, message_source, src)

DECLARATIONS = (
    ApiSpec(ApiKey.ApiVersions, ADMIN, schemas=from_kafka_clients("ApiVersions")),
    ApiSpec(ApiKey.DescribeCluster, ADMIN),
    ApiSpec(ApiKey.UpdateFeatures, ADMIN, "results[feature]", "feature_updates[feature]", mutates="updates features",
            names={"feature_updates.feature": Entity.FEATURE}),
    ApiSpec(ApiKey.DescribeQuorum, ADMIN, "topics[topic_name].partitions[partition_index]",
            "topics[topic_name].partitions[partition_index]", identity={
                "topics.partitions.current_voters": ("replica_id", "replica_directory_id"),
                "topics.partitions.observers": ("replica_id", "replica_directory_id")}),
    ApiSpec(ApiKey.AddRaftVoter, ADMIN, mutates="adds controller voters", names={"voter_id": Entity.NODE},
            schemas=from_kafka_clients("AddRaftVoter")),
    ApiSpec(ApiKey.RemoveRaftVoter, ADMIN, mutates="removes controller voters", names={"voter_id": Entity.NODE},
            schemas=from_kafka_clients("RemoveRaftVoter")),
    ApiSpec(ApiKey.UnregisterBroker, ADMIN, mutates="unregisters brokers", names={"broker_id": Entity.NODE},
            schemas=from_kafka_clients("UnregisterBroker")),
)


# -- request builders ------------------------------------------------------------------------

#: ApiVersionsRequest.json v3+: who is asking (KIP-511)
CLIENT_SOFTWARE = {"client_software_name": "kafka-admin-conformance", "client_software_version": "0.1.0"}


@builds(ApiKey.ApiVersions)
def api_versions(v: int) -> dict:
    """ApiVersions; from v3 it says the client software (KIP-511)."""
    return dict(CLIENT_SOFTWARE) if v >= 3 else {}


@builds(ApiKey.DescribeCluster)
def describe_cluster(v: int, *, include_cluster_authorized_operations: bool = False) -> dict:
    """The cluster's brokers, controller and id (DescribeClusterRequest.json; KIP-700).
    ``endpoint_type`` (v1+) says brokers (1), ``include_fenced_brokers`` (v2+) no."""
    body: dict = {"include_cluster_authorized_operations": include_cluster_authorized_operations}
    if v >= 1:
        body["endpoint_type"] = 1
    if v >= 2:
        body["include_fenced_brokers"] = False
    return body


@builds(ApiKey.UpdateFeatures)
def update_features(v: int, updates: Iterable[tuple[str, int, int]], *, validate_only: bool = False,
                    timeout_ms: int = TIMEOUT_MS) -> dict:
    """``updates``: ``(feature, level, upgrade type)`` (1 upgrade, 2 safe downgrade, 3 unsafe
    downgrade). v0 has no upgrade type, only ``allow_downgrade`` (any downgrade type), and no
    ``validate_only`` (UpdateFeaturesRequest.json)."""
    if validate_only and v < 1:
        raise Inexpressible(f"UpdateFeatures v{v} has no validate_only (v1+)")
    entries = []
    for feature, level, upgrade_type in updates:
        e = {"feature": feature, "max_version_level": level}
        if v >= 1:
            e["upgrade_type"] = upgrade_type
        else:
            e["allow_downgrade"] = upgrade_type != 1
        entries.append(e)
    body = {"timeout_ms": timeout_ms, "feature_updates": entries}
    if v >= 1:
        body["validate_only"] = validate_only
    return body


# -- error codes -----------------------------------------------------------------------------

AUTH_HELPER = "core/src/main/scala/kafka/server/AuthHelper.scala"
FEATURE_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/FeatureControlManager.java"
CLUSTER_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ClusterControlManager.java"
RAFT_CLIENT = "raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java"
ADD_VOTER = "raft/src/main/java/org/apache/kafka/raft/internals/AddVoterHandler.java"
REMOVE_VOTER = "raft/src/main/java/org/apache/kafka/raft/internals/RemoveVoterHandler.java"

ANY_VERSION = {
    ApiKey.DescribeCluster: {
        Errors.NONE: src(AUTH_HELPER, "computeDescribeClusterResponse"),
        Errors.INVALID_REQUEST: src(AUTH_HELPER, "computeDescribeClusterResponse: an unknown or mismatched endpoint "
                                                  "type at v0 -> INVALID_REQUEST"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.UpdateFeatures: {
        Errors.NONE: src(FEATURE_CONTROL, "updateFeatures: ApiError.NONE"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("ALTER"),
        Errors.INVALID_UPDATE_VERSION: src(FEATURE_CONTROL, "updateFeature: an unknown feature, a level out of "
                                                              "range, a downgrade not allowed -> INVALID_UPDATE_VERSION"),
        Errors.INVALID_REQUEST: src(CONTROLLER_APIS, "handleUpdateFeatures: a feature named twice / an unknown "
                                                      "upgrade type -> INVALID_REQUEST"),
        Errors.FEATURE_UPDATE_FAILED: src(FEATURE_CONTROL, "updateFeatures: a dependency between features not met"),
        Errors.UNSUPPORTED_VERSION: src(FEATURE_CONTROL, "updateFeatures: a version below the one that may set it"),
        **FORWARDED,
    },
    ApiKey.DescribeQuorum: {
        Errors.NONE: src(RAFT_CLIENT, "handleDescribeQuorumRequest: the leader's view"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("DESCRIBE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(RAFT_CLIENT, "handleDescribeQuorumRequest: a partition other than "
                                                             "__cluster_metadata-0 -> UNKNOWN_TOPIC_OR_PARTITION"),
        Errors.NOT_LEADER_OR_FOLLOWER: src(RAFT_CLIENT, "handleDescribeQuorumRequest: this controller is not the "
                                                         "leader"),
        Errors.INVALID_REQUEST: src("clients/src/main/java/org/apache/kafka/common/requests/DescribeQuorumRequest.java",
                                     "getErrorResponse for a request naming more than the one partition"),
        **FORWARDED,
    },
    ApiKey.AddRaftVoter: {
        Errors.NONE: src(ADD_VOTER, "handleAddVoterRequest: the voter added"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("ALTER"),
        Errors.INCONSISTENT_CLUSTER_ID: src(RAFT_CLIENT, "handleAddVoterRequest: cluster_id not this cluster's"),
        Errors.INVALID_REQUEST: src(RAFT_CLIENT, "handleAddVoterRequest: no listeners / no directory id") + "; "
            + src(ADD_VOTER, "the new voter's ApiVersions does not support kraft.version"),
        Errors.UNSUPPORTED_VERSION: src(ADD_VOTER, "kraft.version 0 (a static quorum): no voter changes"),
        Errors.DUPLICATE_VOTER: src(ADD_VOTER, "the voter is a voter already"),
        Errors.REQUEST_TIMED_OUT: src(ADD_VOTER, "another voter change pending, no high watermark, the new voter "
                                                  "never answers") + "; " + FORWARD_TIMEOUT,
        Errors.NOT_LEADER_OR_FOLLOWER: src(RAFT_CLIENT, "not the quorum's leader"),
        Errors.NOT_CONTROLLER: NOT_CONTROLLER_RETRIED,
        Errors.UNKNOWN_SERVER_ERROR: src(ADD_VOTER, "resetAddVoterHandlerState(UNKNOWN_SERVER_ERROR)") + "; " + HANDLE_ERROR,
    },
    ApiKey.RemoveRaftVoter: {
        Errors.NONE: src(REMOVE_VOTER, "handleRemoveVoterRequest: the voter removed"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("ALTER"),
        Errors.INCONSISTENT_CLUSTER_ID: src(RAFT_CLIENT, "handleRemoveVoterRequest: cluster_id not this cluster's"),
        Errors.INVALID_REQUEST: src(RAFT_CLIENT, "handleRemoveVoterRequest: no directory id"),
        Errors.UNSUPPORTED_VERSION: src(REMOVE_VOTER, "kraft.version 0 (a static quorum): no voter changes"),
        Errors.VOTER_NOT_FOUND: src(REMOVE_VOTER, "no voter with that id and directory id"),
        Errors.REQUEST_TIMED_OUT: src(REMOVE_VOTER, "another voter change pending, no high watermark") + "; "
            + FORWARD_TIMEOUT,
        Errors.NOT_LEADER_OR_FOLLOWER: src(RAFT_CLIENT, "not the quorum's leader"),
        Errors.NOT_CONTROLLER: NOT_CONTROLLER_RETRIED,
        Errors.UNKNOWN_SERVER_ERROR: src(REMOVE_VOTER, "UNKNOWN_SERVER_ERROR") + "; " + HANDLE_ERROR,
    },
    ApiKey.UnregisterBroker: {
        Errors.NONE: src(CLUSTER_CONTROL, "unregisterBroker"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("ALTER"),
        Errors.BROKER_ID_NOT_REGISTERED: src("metadata/src/main/java/org/apache/kafka/controller/QuorumController.java",
                                              'unregisterBroker: "No node with id N" -> BrokerIdNotRegisteredException'),
        Errors.UNSUPPORTED_VERSION: src(CONTROLLER_APIS, "handleUnregisterBroker: a metadata.version without it"),
        **FORWARDED,
    },
}

_ENDPOINT_TYPE = src(AUTH_HELPER, "computeDescribeClusterResponse: apiVersion 0 -> INVALID_REQUEST, else "
                                   "UNSUPPORTED_ENDPOINT_TYPE / MISMATCHED_ENDPOINT_TYPE") + "; " \
    + src(MSG + "DescribeClusterResponse.json", '"Version 1 adds the EndpointType field, and makes '
                                                 'MISMATCHED_ENDPOINT_TYPE and UNSUPPORTED_ENDPOINT_TYPE valid"')

RULES = (
    ErrorRule(
        ApiKey.ApiVersions, Errors.REBOOTSTRAP_REQUIRED, 5, "forbidden",
        src(MSG + "ApiVersionsRequest.json", '"Version 5 introduces ClusterId and NodeId checking and '
                                              'REBOOTSTRAP_REQUIRED error (KIP-1242)"'),
        scope="request", note="only a v5+ request carries the cluster id and node id that are checked",
    ),
    ErrorRule(ApiKey.DescribeCluster, Errors.UNSUPPORTED_ENDPOINT_TYPE, 1, "downgraded_to:INVALID_REQUEST",
              _ENDPOINT_TYPE, scope="request",
              note="v0 cannot name an endpoint type (BROKER is its default), so the code cannot arise there"),
    ErrorRule(ApiKey.DescribeCluster, Errors.MISMATCHED_ENDPOINT_TYPE, 1, "downgraded_to:INVALID_REQUEST",
              _ENDPOINT_TYPE, scope="request",
              note="a broker asked for CONTROLLER endpoints (KIP-919: only controllers answer those)"),
)

_API_VERSIONS_REQUEST = "clients/src/main/java/org/apache/kafka/common/requests/ApiVersionsRequest.java"

#: ApiVersions' codes with their source: not in the per-version tables (a version the broker
#: lacks is answered UNSUPPORTED_VERSION in v0's shape, whatever the request's version).
API_VERSIONS_CODES = {
    Errors.NONE: src(CONTROLLER_APIS, " handleApiVersionsRequest -> apiVersionManager.apiVersionResponse"),
    Errors.UNSUPPORTED_VERSION:
        src(CONTROLLER_APIS, " hasUnsupportedRequestVersion -> getErrorResponse(UNSUPPORTED_VERSION) (v0 body)"),
    Errors.INVALID_REQUEST:
        src(CONTROLLER_APIS, " !apiVersionRequest.isValid -> getErrorResponse(INVALID_REQUEST); ")
        + src(_API_VERSIONS_REQUEST, " isValid (client software name/version pattern, v3+)"),
    Errors.REBOOTSTRAP_REQUIRED:
        src(MSG + "ApiVersionsRequest.json", " Version 5 introduces ClusterId and NodeId checking and "
                                              "REBOOTSTRAP_REQUIRED error (KIP-1242): a cluster id or node id that is "
                                              "not this broker's"),
    Errors.UNKNOWN_SERVER_ERROR: src(KAFKA_APIS, " handle -> handleError (any API)"),
}

#: api -> (null on success, note): what Kafka puts in error_message. Where the schema gives no
#: ErrorMessage ``"default": "null"`` (all but DescribeCluster), a success Kafka answers
#: without setting one carries Kafka's generated default "" (observed on DescribeQuorum v2):
#: null or "" pass.
ERROR_MESSAGE_KAFKA = {
    ApiKey.DescribeQuorum: (False, message_source("DescribeQuorum", "v2+, top-level and per partition")),
    ApiKey.UpdateFeatures: (False, message_source("UpdateFeatures", "top-level, and per feature at v0-v1")),
    ApiKey.DescribeCluster: (True, message_source("DescribeCluster", src(AUTH_HELPER, "a success sets none (default null)"))),
    ApiKey.UnregisterBroker: (False, message_source("UnregisterBroker", src(CONTROLLER_APIS, "ApiError.NONE.message() null"))),
    ApiKey.AddRaftVoter: (False, message_source("AddRaftVoter", src(ADD_VOTER, "success: null"))),
    ApiKey.RemoveRaftVoter: (False, message_source("RemoveRaftVoter", src(REMOVE_VOTER, "success: null"))),
}

# -- safe values -----------------------------------------------------------------------------

#: Kafka's feature names, drawn where an update is validate_only:
#: apache/kafka server-common/src/main/java/org/apache/kafka/server/common/Feature.java
FEATURES = ("metadata.version", "kraft.version", "group.version", "transaction.version",
            "eligible.leader.replicas.version", "share.version", "streams.version")
#: apache/kafka clients/src/main/java/org/apache/kafka/clients/admin/FeatureUpdate.java UpgradeType
#: (UNKNOWN 0, UPGRADE 1, SAFE_DOWNGRADE 2, UNSAFE_DOWNGRADE 3)
UPGRADE_TYPES = (0, 1, 2, 3)
#: DescribeCluster's endpoint type (KIP-919): apache/kafka clients/.../common/requests/EndpointType.java
ENDPOINT_TYPES = (0, 1, 2)

_OTHER_CLUSTER = Safe(Choice((None, "kac-not-this-cluster")), "any or another cluster")

SAFE = {
    ApiKey.DescribeQuorum: {"topics.partitions.partition_index": Safe(Range(0, 1), "the metadata partition is 0")},
    ApiKey.UpdateFeatures: {
        "timeout_ms": SUITE_TIMEOUT,
        "validate_only": Safe(True, "never applied: validate_only where the version has it"),
        "feature_updates.max_version_level": Safe(Range(-1, 30), "levels around Kafka's"),
        "feature_updates.upgrade_type": Safe(Choice(UPGRADE_TYPES), "FeatureUpdate.UpgradeType codes"),
    },
    ApiKey.DescribeCluster: {"endpoint_type": Safe(Choice(ENDPOINT_TYPES), "UNKNOWN, BROKER, CONTROLLER")},
    ApiKey.AddRaftVoter: {
        "timeout_ms": Safe(Range(100, 1000), "short: the voter never answers"),
        "cluster_id": _OTHER_CLUSTER,
    },
    ApiKey.RemoveRaftVoter: {"cluster_id": _OTHER_CLUSTER},
}

FAMILY = Family("cluster, features and quorum", __name__, DECLARATIONS, codes=ANY_VERSION, gated=RULES,
                messages=ERROR_MESSAGE_KAFKA, known_codes={ApiKey.ApiVersions: API_VERSIONS_CODES}, safe=SAFE)
