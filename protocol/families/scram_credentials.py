"""The SCRAM credential APIs (DescribeUserScramCredentials, AlterUserScramCredentials,
KIP-554): their declarations, request builders, Kafka's error codes and the safe values of
generated requests.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker answers DescribeUserScramCredentials itself
(``KafkaApis``, ``ScramPublisher``); it forwards AlterUserScramCredentials to the controller
(``ControllerApis`` -> ``ScramControlManager``), whose forwarding adds a timeout.
"""
from __future__ import annotations

from typing import Iterable

from ..building import builds
from ..declaring import ADMIN, ApiKey, ApiSpec, Choice, Entity, Family, Safe
from ..errors import Errors
from ..kafka_sources import FORWARDED_SECURITY, HANDLE_ERROR, KAFKA_APIS, cluster_authorization, message_source, src

DECLARATIONS = (
    ApiSpec(ApiKey.DescribeUserScramCredentials, ADMIN, "results[user]", "users[name]",
            names={"users.name": Entity.USER}, identity={"results.credential_infos": ("mechanism",)}),
    ApiSpec(ApiKey.AlterUserScramCredentials, ADMIN, "results[user]", "deletions[name]+upsertions[name]",
            mutates="alters SCRAM credentials", names={"deletions.name": Entity.USER, "upsertions.name": Entity.USER}),
)


# -- request builders ------------------------------------------------------------------------

@builds(ApiKey.DescribeUserScramCredentials)
def describe_scram_credentials(v: int, users: Iterable[str] | None = None) -> dict:
    """DescribeUserScramCredentials of the named ``users`` (in order, repeats kept); None:
    every user's (a null user list)."""
    return {"users": None if users is None else [{"name": u} for u in users]}


@builds(ApiKey.AlterUserScramCredentials)
def alter_scram_credentials(v: int, deletions: Iterable = (), upsertions: Iterable = ()) -> dict:
    """AlterUserScramCredentials: ``deletions`` ``(name, mechanism)``, ``upsertions``
    ``(name, mechanism, iterations, salt, salted_password)`` (reference/scram_rules.py's
    Deletion / Upsertion), in order, repeats kept."""
    return {"deletions": [{"name": d[0], "mechanism": d[1]} for d in deletions],
            "upsertions": [{"name": u[0], "mechanism": u[1], "iterations": u[2], "salt": bytes(u[3]),
                            "salted_password": bytes(u[4])} for u in upsertions]}


# -- error codes -----------------------------------------------------------------------------

SCRAM_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ScramControlManager.java"
SCRAM_DESCRIBE = "core/src/main/scala/kafka/server/metadata/ScramPublisher.scala"

ANY_VERSION = {
    ApiKey.DescribeUserScramCredentials: {
        Errors.NONE: src(SCRAM_DESCRIBE, "describeScramCredentials"),
        Errors.RESOURCE_NOT_FOUND: src(SCRAM_DESCRIBE, 'describeScramCredentials: "Attempt to describe a user '
                                                        'credential that does not exist" -> RESOURCE_NOT_FOUND'),
        Errors.DUPLICATE_RESOURCE: src(SCRAM_DESCRIBE, 'describeScramCredentials: a user named twice -> '
                                                        'DUPLICATE_RESOURCE "Cannot describe SCRAM credentials for the same user twice"'),
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(KAFKA_APIS, "handleDescribeUserScramCredentialsRequest: "
                                                              "authorizeClusterOperation(DESCRIBE)"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.AlterUserScramCredentials: {
        Errors.NONE: src(SCRAM_CONTROL, "alterCredentials: ApiError.NONE per user"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("ALTER"),
        Errors.UNSUPPORTED_SASL_MECHANISM: src(SCRAM_CONTROL, "validateDeletion / validateUpsertion: unknown mechanism "
                                                               "-> UNSUPPORTED_SASL_MECHANISM"),
        Errors.UNACCEPTABLE_CREDENTIAL: src(SCRAM_CONTROL, "validateUpsertion: empty user name, iterations below the "
                                                            "mechanism's minimum or above 16384, empty salt or password"),
        Errors.DUPLICATE_RESOURCE: src(SCRAM_CONTROL, "alterCredentials: a user in deletions and upsertions both -> "
                                                       "DUPLICATE_RESOURCE"),
        Errors.RESOURCE_NOT_FOUND: src(SCRAM_CONTROL, "validateDeletion: no such credential -> RESOURCE_NOT_FOUND"),
        Errors.UNSUPPORTED_VERSION: src(SCRAM_CONTROL, "a metadata.version without SCRAM -> UNSUPPORTED_VERSION"),
        **FORWARDED_SECURITY,
    },
}

#: api -> (null on success, note): what Kafka puts in error_message (no schema default: a
#: success may carry Kafka's generated "").
ERROR_MESSAGE_KAFKA = {
    ApiKey.DescribeUserScramCredentials: (False, message_source("DescribeUserScramCredentials", where="top-level and per user", note=src(SCRAM_DESCRIBE, "success: no message"))),
    ApiKey.AlterUserScramCredentials: (False, message_source("AlterUserScramCredentials", where="per user", note=src(SCRAM_CONTROL, "ApiError.NONE.message() null"))),
}

# -- safe values -----------------------------------------------------------------------------

#: apache/kafka clients/src/main/java/org/apache/kafka/clients/admin/ScramMechanism.java (0: UNKNOWN)
SCRAM_MECHANISMS = (0, 1, 2)
#: apache/kafka clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramMechanism.java
#: (minIterations 4096; Kafka refuses more than 16384) and values either side
SCRAM_ITERATIONS = (4096, 8192, 16384, 1, 16385)

SAFE = {
    ApiKey.AlterUserScramCredentials: {
        "deletions.mechanism": Safe(Choice(SCRAM_MECHANISMS), "ScramMechanism codes"),
        "upsertions.mechanism": Safe(Choice(SCRAM_MECHANISMS), "ScramMechanism codes"),
        "upsertions.iterations": Safe(Choice(SCRAM_ITERATIONS), "Kafka's bounds and either side"),
    },
}

FAMILY = Family("SCRAM credentials", __name__, DECLARATIONS, codes=ANY_VERSION, messages=ERROR_MESSAGE_KAFKA,
                safe=SAFE)
