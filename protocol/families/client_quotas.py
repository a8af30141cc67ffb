"""The client quota APIs (DescribeClientQuotas, AlterClientQuotas, KIP-546): their
declarations, request builders, Kafka's error codes and the names generated requests draw.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker answers DescribeClientQuotas itself (``KafkaApis``,
``ClientQuotaMetadataManager``); it forwards AlterClientQuotas to the controller
(``ControllerApis`` -> ``ClientQuotaControlManager``), whose forwarding adds a timeout. What a
generated request carries (run-named entities, never the default) is drawn by
``strategies/safe_values.py``: its entities and ops are lists of records.
"""
from __future__ import annotations

from ..building import builds
from ..declaring import ADMIN, ApiKey, ApiSpec, Entity, Family
from ..errors import Errors
from ..kafka_sources import CONTROLLER_APIS, FORWARDED_SECURITY, HANDLE_ERROR, KAFKA_APIS, message_source, src

DECLARATIONS = (
    ApiSpec(ApiKey.DescribeClientQuotas, ADMIN, names={"components.match": Entity.QUOTA_ENTITY}, identity={
        "entries": ("entity",), "entries.entity": ("entity_type",), "entries.values": ("key",)}),
    ApiSpec(ApiKey.AlterClientQuotas, ADMIN, "entries[entity]", "entries[entity]", mutates="alters client quotas",
            names={"entries.entity.entity_name": Entity.QUOTA_ENTITY}, identity={"entries.entity": ("entity_type",)}),
)

#: apache/kafka server-common/src/main/java/org/apache/kafka/server/config/QuotaConfig.java (client quota keys)
QUOTA_KEYS = ("producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate",
              "connection_creation_rate")
#: apache/kafka clients/src/main/java/org/apache/kafka/common/quota/ClientQuotaEntity.java
QUOTA_ENTITY_TYPES = ("user", "client-id", "ip")


# -- request builders ------------------------------------------------------------------------

@builds(ApiKey.DescribeClientQuotas)
def describe_client_quotas(v: int, components=(), strict: bool = False) -> dict:
    """The client quota entities matching ``components``, each ``(entity type, match type,
    match)`` (DescribeClientQuotasRequest.json: 0 exact name, 1 default, 2 any specified
    name); none and not ``strict``: every entity."""
    return {"components": [{"entity_type": t, "match_type": m, "match": x} for t, m, x in components],
            "strict": strict}


@builds(ApiKey.AlterClientQuotas)
def alter_client_quotas(v: int, entries, validate_only: bool = False) -> dict:
    """``entries``: ``(entity, ops)``, the entity as ``((type, name), ...)``, each op
    ``(key, value)`` with value None for a removal (AlterClientQuotasRequest.json: same
    fields at v0 and v1)."""
    return {"entries": [{"entity": [{"entity_type": t, "entity_name": n} for t, n in entity],
                         "ops": [{"key": k, "value": 0.0 if x is None else float(x), "remove": x is None}
                                 for k, x in ops]}
                        for entity, ops in entries], "validate_only": validate_only}


# -- error codes -----------------------------------------------------------------------------

QUOTA_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java"
QUOTA_CACHE = "core/src/main/scala/kafka/server/metadata/ClientQuotaMetadataManager.scala"

ANY_VERSION = {
    ApiKey.DescribeClientQuotas: {
        Errors.NONE: src(QUOTA_CACHE, "describeClientQuotas: the matching entities and their values"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(KAFKA_APIS, "handleDescribeClientQuotasRequest: "
                                                              "authorizeClusterOperation(DESCRIBE_CONFIGS)"),
        Errors.INVALID_REQUEST: src(QUOTA_CACHE, 'describeClientQuotas: "Duplicate entity type in filter" / '
                                                  '"Invalid empty ip address" / unknown match type -> InvalidRequestException'),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.AlterClientQuotas: {
        Errors.NONE: src(QUOTA_CONTROL, "alterClientQuotas: ApiError.NONE per entity"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, "handleAlterClientQuotas: "
                                                                   "authorizeClusterOperation(ALTER_CONFIGS)"),
        Errors.INVALID_REQUEST: src(QUOTA_CONTROL, "alterClientQuota / validateEntity / validateQuotaKeyValue: "
                                                    "unknown entity type, unknown key, invalid value, ip name -> INVALID_REQUEST"),
        **FORWARDED_SECURITY,
    },
}

#: api -> (null on success, note): what Kafka puts in error_message (no schema default: a
#: success may carry Kafka's generated "").
ERROR_MESSAGE_KAFKA = {
    ApiKey.DescribeClientQuotas: (False, message_source("DescribeClientQuotas", where="top-level", note=src(KAFKA_APIS, "success: setErrorMessage not called"))),
    ApiKey.AlterClientQuotas: (False, message_source("AlterClientQuotas", where="per entity", note=src(QUOTA_CONTROL, "ApiError.NONE.message() null"))),
}

FAMILY = Family("client quotas", __name__, DECLARATIONS, codes=ANY_VERSION, messages=ERROR_MESSAGE_KAFKA)
