"""The APIs that move replicas and leaders (DescribeLogDirs, AlterReplicaLogDirs,
AlterPartitionReassignments, ListPartitionReassignments, ElectLeaders): their declarations,
request builders, Kafka's error codes and the safe values of generated requests.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker answers the log-dir APIs itself (``KafkaApis``,
``ReplicaManager``); ElectLeaders and the reassignment APIs are forwarded to the controller
(``ControllerApis`` -> ``ReplicationControlManager``). Generated requests move only the run's
topics (never the null "every partition"), to a log dir no broker has.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from ..building import TIMEOUT_MS, Inexpressible, builds
from ..declaring import (ADMIN, RUN_PARTITION, RUN_PARTITIONS, SUITE_TIMEOUT, ApiKey, ApiSpec, Choice, Distinct, Entity,
                         Family, Maybe, Range, Safe)
from ..errors import Errors
from ..kafka_sources import (CONTROLLER_APIS, EVENT_EXCEPTION_INFO, FORWARDED, HANDLE_ERROR, KAFKA_APIS,
                             REPLICA_MANAGER, REPLICATION_CONTROL, cluster_authorization, message_source, src)

_TOPIC_PARTS = "topics[name].partitions[partition_index]"

DECLARATIONS = (
    ApiSpec(ApiKey.DescribeLogDirs, ADMIN, identity={
        "results": ("log_dir",), "results.topics": ("name",), "results.topics.partitions": ("partition_index",)}),
    ApiSpec(ApiKey.AlterReplicaLogDirs, ADMIN, "results[topic_name].partitions[partition_index]",
            "dirs[*].topics[name].partitions[]", mutates="moves replicas between log dirs",
            names={"dirs.path": Entity.LOG_DIR}),
    ApiSpec(ApiKey.AlterPartitionReassignments, ADMIN, "responses[name].partitions[partition_index]",
            _TOPIC_PARTS, mutates="reassigns partitions"),
    ApiSpec(ApiKey.ListPartitionReassignments, ADMIN, ordered={
        "topics.partitions.replicas":
            "the partition's replica assignment in order (its first is the preferred leader: KIP-455 "
            "lists the replicas as AlterPartitionReassignments sets them, order included)"},
            identity={"topics": ("name",), "topics.partitions": ("partition_index",)}),
    ApiSpec(ApiKey.ElectLeaders, ADMIN, "replica_election_results[topic].partition_result[partition_id]",
            "topic_partitions[topic].partitions[]", mutates="elects partition leaders"),
)


# -- request builders ------------------------------------------------------------------------

@builds(ApiKey.AlterPartitionReassignments)
def alter_partition_reassignments(v: int, targets: Iterable[tuple[str, Iterable[tuple[int, Sequence[int] | None]]]],
                                  *, timeout_ms: int = TIMEOUT_MS) -> dict:
    """Reassign every partition in ``targets`` (``(topic, [(index, replicas), ...])``) to its
    replicas, None cancelling its reassignment; from v1 ``allow_replication_factor_change``
    true, the v0 behaviour (AlterPartitionReassignmentsRequest.json)."""
    body = {"timeout_ms": timeout_ms,
            "topics": [{"name": n, "partitions": [{"partition_index": i, "replicas": None if r is None else list(r)}
                                                  for i, r in ps]} for n, ps in targets]}
    if v >= 1:
        body["allow_replication_factor_change"] = True
    return body


@builds(ApiKey.ListPartitionReassignments)
def list_partition_reassignments(v: int, partitions: Iterable[tuple[str, Iterable[int]]] | None, *,
                                 timeout_ms: int = TIMEOUT_MS) -> dict:
    """The ongoing reassignments of ``partitions`` (``(topic, [index, ...])``), None: every one
    (ListPartitionReassignmentsRequest.json, v0 only)."""
    topics = None if partitions is None else [{"name": n, "partition_indexes": list(ps)} for n, ps in partitions]
    return {"timeout_ms": timeout_ms, "topics": topics}


#: ElectLeadersRequest.json's election types (v1+; v0 elects the preferred replica)
PREFERRED, UNCLEAN = 0, 1


@builds(ApiKey.ElectLeaders)
def elect_leaders(v: int, partitions: Iterable[tuple[str, Iterable[int]]] | None, election_type: int = PREFERRED,
                  *, timeout_ms: int = TIMEOUT_MS) -> dict:
    """Elect the leaders of ``partitions`` (``(topic, [index, ...])``), None: every partition
    of the cluster; ``election_type`` from v1, v0 elects the preferred replica only
    (ElectLeadersRequest.json)."""
    if v == 0 and election_type != PREFERRED:
        raise Inexpressible("ElectLeaders v0 elects the preferred replica only (election_type from v1)")
    topics = None if partitions is None else [{"topic": n, "partitions": list(ps)} for n, ps in partitions]
    body = {"topic_partitions": topics, "timeout_ms": timeout_ms}
    if v >= 1:
        body["election_type"] = election_type
    return body


# -- error codes -----------------------------------------------------------------------------

ANY_VERSION = {
    ApiKey.AlterReplicaLogDirs: {
        Errors.NONE: src(REPLICA_MANAGER, "alterReplicaLogDirs: the future replica is created"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("ALTER", KAFKA_APIS),
        Errors.LOG_DIR_NOT_FOUND: src(REPLICA_MANAGER, "alterReplicaLogDirs: logManager.maybeUpdatePreferredLogDir -> "
                                                        "LogDirNotFoundException for a path that is no log dir"),
        Errors.INVALID_TOPIC_EXCEPTION: src(REPLICA_MANAGER, 'alterReplicaLogDirs: "The topic name is too long."'),
        Errors.KAFKA_STORAGE_ERROR: src(REPLICA_MANAGER, "alterReplicaLogDirs: an offline log dir"),
        Errors.REPLICA_NOT_AVAILABLE: src(REPLICA_MANAGER, "alterReplicaLogDirs: NotLeaderOrFollowerException (no "
                                                            "replica here) -> REPLICA_NOT_AVAILABLE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(REPLICA_MANAGER, "alterReplicaLogDirs: an unknown partition"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR + "; " + src(REPLICA_MANAGER, "alterReplicaLogDirs: other "
                                                                                  "Throwable -> Errors.forException"),
    },
    ApiKey.DescribeLogDirs: {
        Errors.NONE: src(REPLICA_MANAGER, "describeLogDirs"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(KAFKA_APIS, "handleDescribeLogDirsRequest: no DESCRIBE on the cluster "
                                                              "(top-level from v3, no results below)"),
        Errors.KAFKA_STORAGE_ERROR: src(REPLICA_MANAGER, "describeLogDirs: an offline log dir"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR + "; " + src(REPLICA_MANAGER, "describeLogDirs: other Throwable"),
    },
    ApiKey.ElectLeaders: {
        Errors.NONE: src(REPLICATION_CONTROL, "electLeader: a new leader"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("ALTER"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(REPLICATION_CONTROL, "electLeader: unknown topic or partition"),
        Errors.ELECTION_NOT_NEEDED: src(REPLICATION_CONTROL, "electLeader: the preferred replica already leads"),
        Errors.PREFERRED_LEADER_NOT_AVAILABLE: src(REPLICATION_CONTROL, "electLeader: PREFERRED, the preferred replica "
                                                                         "cannot lead"),
        Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE: src(REPLICATION_CONTROL, "electLeader: UNCLEAN, no live replica"),
        Errors.INVALID_REQUEST: src(CONTROLLER_APIS, "handleElectLeaders: an unknown election type / duplicate "
                                                      "partitions -> INVALID_REQUEST"),
        **FORWARDED,
    },
    ApiKey.AlterPartitionReassignments: {
        Errors.NONE: src(REPLICATION_CONTROL, "alterPartitionReassignment"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("ALTER"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(REPLICATION_CONTROL, 'alterPartitionReassignment: "Unable to find a '
                                                                      'topic / partition"'),
        Errors.NO_REASSIGNMENT_IN_PROGRESS: src(REPLICATION_CONTROL, "cancelPartitionReassignment: none in progress"),
        Errors.INVALID_REPLICA_ASSIGNMENT: src(REPLICATION_CONTROL, "validateManualPartitionAssignment: empty, "
                                                                     "duplicate or unregistered replicas"),
        Errors.INVALID_REPLICATION_FACTOR: src(REPLICATION_CONTROL, "changePartitionReassignment: a new replication "
                                                                     "factor without allow_replication_factor_change"),
        Errors.INVALID_REQUEST: src(CONTROLLER_APIS, "handleAlterPartitionReassignments: duplicate topics or "
                                                      "partitions -> INVALID_REQUEST"),
        Errors.POLICY_VIOLATION: src(EVENT_EXCEPTION_INFO, "BoundedListTooLongException -> POLICY_VIOLATION"),
        **FORWARDED,
    },
    ApiKey.ListPartitionReassignments: {
        Errors.NONE: src(REPLICATION_CONTROL, "listPartitionReassignments: the ongoing ones (unknown partitions are "
                                               "left out)"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("DESCRIBE"),
        **FORWARDED,
    },
}

#: api -> (null on success, note): what Kafka puts in error_message (no schema default: a
#: success may carry Kafka's generated "").
ERROR_MESSAGE_KAFKA = {
    ApiKey.ElectLeaders: (False, message_source("ElectLeaders", src(REPLICATION_CONTROL, "ApiError.NONE.message() null"))),
    ApiKey.AlterPartitionReassignments: (False, message_source("AlterPartitionReassignments",
                                                        src(CONTROLLER_APIS, "ApiError.NONE.message() null"))),
    ApiKey.ListPartitionReassignments: (False, message_source("ListPartitionReassignments",
                                                       src(CONTROLLER_APIS, "success: no message (null)"))),
}

# -- safe values -----------------------------------------------------------------------------

#: apache/kafka clients/src/main/java/org/apache/kafka/common/ElectionType.java (PREFERRED 0, UNCLEAN 1)
ELECTION_TYPES = (PREFERRED, UNCLEAN)


SAFE = {
    ApiKey.DescribeLogDirs: {"topics.partitions": RUN_PARTITIONS},
    ApiKey.ElectLeaders: {
        "election_type": Safe(Choice(ELECTION_TYPES), "PREFERRED, UNCLEAN"),
        "timeout_ms": SUITE_TIMEOUT,
    },
    ApiKey.AlterPartitionReassignments: {
        "timeout_ms": SUITE_TIMEOUT,
        "topics.partitions.partition_index": RUN_PARTITION,
        "topics.partitions.replicas": Safe(Maybe(Distinct(Range(0, 3), max_size=2)),
                                           "cancel (null) or small broker ids: only the run's topics move"),
    },
    ApiKey.ListPartitionReassignments: {"timeout_ms": SUITE_TIMEOUT, "topics.partition_indexes": RUN_PARTITIONS},
}

FAMILY = Family("log dirs, reassignments and leaders", __name__, DECLARATIONS, codes=ANY_VERSION,
                messages=ERROR_MESSAGE_KAFKA, safe=SAFE)
