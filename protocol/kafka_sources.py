"""Where in apache/kafka the families' error-code rows were read: the paths several families
cite, and :func:`src`, which every row's source is written with ("apache/kafka <path>:<what>").

The behaviour was read in the KRaft code paths (broker ``KafkaApis`` forwarding to the
controller's ``ControllerApis`` -> ``QuorumController`` -> ``ReplicationControlManager`` /
``ConfigurationControlManager``); ZooKeeper-only paths (removed in 4.0) are not used as a
reference. A path only one family cites is named in that family's module.
"""
from __future__ import annotations

from .errors import Errors

#: The repository every source cites, as a source string begins: ``apache/kafka <path> (...)``.
KAFKA = "apache/kafka "

MSG = "clients/src/main/resources/common/message/"
ERRORS_JAVA = "clients/src/main/java/org/apache/kafka/common/protocol/Errors.java"
CONTROLLER_APIS = "core/src/main/scala/kafka/server/ControllerApis.scala"
KAFKA_APIS = "core/src/main/scala/kafka/server/KafkaApis.scala"
CONFIG_ADMIN_MANAGER = "core/src/main/scala/kafka/server/ConfigAdminManager.scala"
CONFIG_HELPER = "core/src/main/scala/kafka/server/ConfigHelper.scala"
CONTROLLER_CONFIG_VALIDATOR = "core/src/main/scala/kafka/server/ControllerConfigurationValidator.scala"
FORWARDING_MANAGER = "core/src/main/scala/kafka/server/ForwardingManager.scala"
REPLICA_MANAGER = "core/src/main/scala/kafka/server/ReplicaManager.scala"
REPLICATION_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java"
CONFIGURATION_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ConfigurationControlManager.java"
EVENT_EXCEPTION_INFO = "metadata/src/main/java/org/apache/kafka/controller/errors/EventHandlerExceptionInfo.java"
ACL_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/AclControlManager.java"


def src(path: str, what: str) -> str:
    """A row's source: ``apache/kafka <path>:<what>``."""
    return f"{KAFKA}{path}:{what}"


#: What any API the broker handles or forwards may answer (the families' rows cite them).
HANDLE_ERROR = src(KAFKA_APIS, "handle: an unexpected exception -> requestHelper.handleError (UNKNOWN_SERVER_ERROR)")
FORWARD_TIMEOUT = src(FORWARDING_MANAGER, "ForwardingResponseHandler.onTimeout -> REQUEST_TIMED_OUT")
NOT_CONTROLLER_RETRIED = src(EVENT_EXCEPTION_INFO, "NotLeaderException -> NOT_CONTROLLER (the forwarding broker retries)")
#: What a request the broker forwards to the controller may answer (the topic and config APIs).
FORWARDED_TIMEOUT = src(FORWARDING_MANAGER, "ForwardingResponseHandler.onTimeout -> getErrorResponse(new TimeoutException())")
FORWARDED_ENVELOPE = src(FORWARDING_MANAGER, "envelope error -> getErrorResponse(Errors.UNKNOWN_SERVER_ERROR.exception)")
CONTROLLER_CATCH_ALL = src(EVENT_EXCEPTION_INFO, "catch-all -> UnknownServerException + controller failover")



def cluster_authorization(op: str, where: str = CONTROLLER_APIS) -> str:
    """The source of CLUSTER_AUTHORIZATION_FAILED for an API that needs ``op`` on the cluster."""
    return src(where, f"authHelper.authorizeClusterOperation(request, {op}) -> CLUSTER_AUTHORIZATION_FAILED")


def message_source(api: str, note: str, where: str = "") -> str:
    """The source of what Kafka puts in ``api``'s ``error_message`` (``where``: which of the
    response's ErrorMessage fields)."""
    return src(MSG + f"{api}Response.json", f"{where} ErrorMessage" if where else "ErrorMessage") + "; " + note


def _forwarded(unknown: str) -> dict[int, str]:
    return {Errors.REQUEST_TIMED_OUT: FORWARD_TIMEOUT, Errors.NOT_CONTROLLER: NOT_CONTROLLER_RETRIED,
            Errors.UNKNOWN_SERVER_ERROR: unknown}


#: What a request the broker forwards to the controller may answer besides its own codes:
#: the cluster APIs' (a failure the controller does not expect) and the security APIs' (as
#: the ACL controller words it).
FORWARDED = _forwarded(HANDLE_ERROR + "; " + src(EVENT_EXCEPTION_INFO, "catch-all -> UnknownServerException"))
FORWARDED_SECURITY = _forwarded(HANDLE_ERROR + "; " + src(ACL_CONTROL, '"Unknown error while trying to create ACL"'))

#: What a request naming partitions the broker must lead may answer for one of them.
PARTITION_LEADER = {
    Errors.UNKNOWN_TOPIC_OR_PARTITION: src(REPLICA_MANAGER, "getPartitionOrException: unknown topic or partition"),
    Errors.NOT_LEADER_OR_FOLLOWER: src(REPLICA_MANAGER, "getPartitionOrException: this broker leads no replica of it"),
    Errors.KAFKA_STORAGE_ERROR: src(REPLICA_MANAGER, "an offline log dir -> KafkaStorageException"),
}

__all__ = ["ACL_CONTROL", "CONFIGURATION_CONTROL", "CONFIG_ADMIN_MANAGER", "CONFIG_HELPER", "CONTROLLER_APIS", "CONTROLLER_CATCH_ALL",
           "CONTROLLER_CONFIG_VALIDATOR", "ERRORS_JAVA", "EVENT_EXCEPTION_INFO", "FORWARDED_ENVELOPE",
           "FORWARDED", "FORWARDED_SECURITY", "FORWARDED_TIMEOUT", "FORWARDING_MANAGER", "FORWARD_TIMEOUT",
           "HANDLE_ERROR", "KAFKA_APIS", "MSG", "NOT_CONTROLLER_RETRIED", "PARTITION_LEADER", "REPLICATION_CONTROL",
           "REPLICA_MANAGER", "cluster_authorization", "message_source", "src"]
