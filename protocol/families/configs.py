"""The config APIs (DescribeConfigs, AlterConfigs, IncrementalAlterConfigs,
ListConfigResources): their declarations, the enums they carry, request builders, Kafka's
error codes and the safe values of generated requests.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker answers DescribeConfigs (``ConfigHelper``) and
ListConfigResources itself; it checks an alteration (``ConfigAdminManager.preprocess``) and
forwards it to the controller (``ControllerApis`` -> ``ConfigurationControlManager``).
"""
from __future__ import annotations

from enum import IntEnum
from typing import Iterable, Sequence

from ..building import builds, pairs
from ..declaring import ADMIN, ApiKey, ApiSpec, Choice, Distinct, Entity, Family, Safe
from ..errors import Errors
from ..kafka_sources import (CONFIG_ADMIN_MANAGER, CONFIG_HELPER, CONFIGURATION_CONTROL, CONTROLLER_APIS,
                             CONTROLLER_CATCH_ALL, CONTROLLER_CONFIG_VALIDATOR, FORWARDED_ENVELOPE, FORWARDED_TIMEOUT,
                             HANDLE_ERROR, KAFKA_APIS, MSG, cluster_authorization, src)

_CONFIGS = "resources[resource_type,resource_name]"
_NAMED = {"resources.resource_name": Entity.CONFIG_RESOURCE}

DECLARATIONS = (
    ApiSpec(ApiKey.DescribeConfigs, ADMIN, "results[resource_type,resource_name]", _CONFIGS, names=_NAMED, ordered={
        "results.configs.synonyms":
            "in the order of precedence, the config's own value first (KIP-226; apache/kafka "
            "clients/src/main/java/org/apache/kafka/clients/admin/ConfigEntry.java synonyms())"},
            identity={"results.configs": ("name",)}),
    ApiSpec(ApiKey.AlterConfigs, ADMIN, "responses[resource_type,resource_name]", _CONFIGS,
            mutates="alters configs", names=_NAMED),
    ApiSpec(ApiKey.IncrementalAlterConfigs, ADMIN, "responses[resource_type,resource_name]", _CONFIGS,
            mutates="alters configs", names=_NAMED),
    ApiSpec(ApiKey.ListConfigResources, ADMIN, identity={"config_resources": ("resource_type", "resource_name")}),
)


class ConfigResourceType(IntEnum):
    """apache/kafka clients/src/main/java/org/apache/kafka/common/config/ConfigResource.java:Type"""
    UNKNOWN = 0
    TOPIC = 2
    BROKER = 4
    BROKER_LOGGER = 8
    CLIENT_METRICS = 16
    GROUP = 32


class ConfigSource(IntEnum):
    """DescribeConfigs v1+ ``config_source``: apache/kafka
    clients/src/main/java/org/apache/kafka/common/requests/DescribeConfigsResponse.java:ConfigSource"""
    UNKNOWN = 0
    TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    CLIENT_METRICS_CONFIG = 7
    GROUP_CONFIG = 8


class AlterConfigOp(IntEnum):
    """IncrementalAlterConfigs ``config_operation``: apache/kafka
    clients/src/main/java/org/apache/kafka/clients/admin/AlterConfigOp.java:OpType"""
    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


# -- request builders ------------------------------------------------------------------------

@builds(ApiKey.DescribeConfigs)
def describe_configs(v: int, resources: Iterable[tuple[str, Sequence[str] | None]], *,
                     resource_type: int = ConfigResourceType.TOPIC, include_synonyms: bool = False,
                     include_documentation: bool = False) -> dict:
    """``resources``: ``(name, keys or None for all)``. ``include_synonyms`` from v1,
    ``include_documentation`` from v3 (DescribeConfigsRequest.json)."""
    body = {"resources": [{"resource_type": resource_type, "resource_name": n, "configuration_keys": keys}
                          for n, keys in resources]}
    if v >= 1:
        body["include_synonyms"] = include_synonyms
    if v >= 3:
        body["include_documentation"] = include_documentation
    return body


@builds(ApiKey.AlterConfigs)
def alter_configs(v: int, resources: Iterable[tuple[str, object]], *,
                  resource_type: int = ConfigResourceType.TOPIC, validate_only: bool = False) -> dict:
    """``resources``: ``(name, {k: v} or [(k, v), ...])``; the whole config is replaced.
    Same fields at every version 0-2 (AlterConfigsRequest.json)."""
    return {"resources": [{"resource_type": resource_type, "resource_name": n,
                           "configs": [{"name": k, "value": val} for k, val in pairs(configs)]}
                          for n, configs in resources], "validate_only": validate_only}


@builds(ApiKey.IncrementalAlterConfigs)
def incremental_alter_configs(v: int, resources: Iterable[tuple[str, Iterable[tuple[str, int, str | None]]]], *,
                              resource_type: int = ConfigResourceType.TOPIC,
                              validate_only: bool = False) -> dict:
    """``resources``: ``(name, [(key, AlterConfigOp, value), ...])`` (KIP-339). Same fields
    at v0 and v1, v1 is flexible (IncrementalAlterConfigsRequest.json)."""
    return {"resources": [{"resource_type": resource_type, "resource_name": n,
                           "configs": [{"name": k, "config_operation": int(op), "value": val}
                                       for k, op, val in ops]}
                          for n, ops in resources], "validate_only": validate_only}


# -- error codes -----------------------------------------------------------------------------

LOG_CONFIG = "storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java"

ANY_VERSION = {
    ApiKey.DescribeConfigs: {
        Errors.NONE: src(CONFIG_HELPER, "describeConfigs: createResponseConfig setErrorCode(NONE)"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(CONFIG_HELPER, "describeConfigs TOPIC: !metadataCache.contains(topic) -> UNKNOWN_TOPIC_OR_PARTITION (no error_message)"),
        Errors.INVALID_TOPIC_EXCEPTION: src(CONFIG_HELPER, "describeConfigs TOPIC: Topic.validate(topic) -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: src(CONFIG_HELPER, "handleDescribeConfigsRequest: no DESCRIBE_CONFIGS on topic -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(CONFIG_HELPER, "handleDescribeConfigsRequest: BROKER/BROKER_LOGGER without cluster DESCRIBE_CONFIGS -> CLUSTER_AUTHORIZATION_FAILED"),
        Errors.INVALID_REQUEST: src(CONFIG_HELPER, "broker id mismatch / unsupported resource type -> InvalidRequestException"),
        Errors.UNKNOWN_SERVER_ERROR: src(CONFIG_HELPER, "describeConfigs catch Throwable -> ApiError.fromThrowable"),
    },
    ApiKey.AlterConfigs: {
        Errors.NONE: src(CONFIGURATION_CONTROL, "legacyAlterConfigResource -> ApiError.NONE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(CONFIGURATION_CONTROL, "validateAlterConfig existenceChecker -> UNKNOWN_TOPIC_OR_PARTITION \"The topic 'x' does not exist.\""),
        Errors.REQUEST_TIMED_OUT: FORWARDED_TIMEOUT,
        Errors.INVALID_TOPIC_EXCEPTION: src(CONTROLLER_CONFIG_VALIDATOR, "validateTopicName: Topic.validate(name) -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, "authorizeAlterResource TOPIC -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, "authorizeAlterResource BROKER -> CLUSTER_AUTHORIZATION_FAILED"),
        Errors.INVALID_CONFIG: src(CONFIGURATION_CONTROL, "validateAlterConfig: ConfigException -> INVALID_CONFIG")
            + "; " + src(LOG_CONFIG, 'validateNames -> InvalidConfigurationException("Unknown topic config name: x")'),
        Errors.INVALID_REQUEST: src(CONFIG_ADMIN_MANAGER, 'preprocess(AlterConfigsRequestData): "Each resource must appear at most once." / '
                 '"Error due to duplicate config keys" / "Null value not supported for : k" / "Unknown resource type N"')
            + "; " + src(CONTROLLER_CONFIG_VALIDATOR, '"Default topic resources are not allowed." (empty topic name)'),
        Errors.POLICY_VIOLATION: src(CONFIGURATION_CONTROL, "validateAlterConfig: alterConfigPolicy.validate -> POLICY_VIOLATION (alter.config.policy.class.name)"),
        Errors.UNKNOWN_SERVER_ERROR: FORWARDED_ENVELOPE + "; " + src(CONFIG_ADMIN_MANAGER, "reassembleLegacyResponse: missing controller result -> UNKNOWN_SERVER_ERROR"),
    },
    ApiKey.IncrementalAlterConfigs: {
        Errors.NONE: src(CONFIGURATION_CONTROL, "incrementalAlterConfigResource -> ApiError.NONE"),
        Errors.UNKNOWN_TOPIC_OR_PARTITION: src(CONFIGURATION_CONTROL, "validateAlterConfig existenceChecker -> UNKNOWN_TOPIC_OR_PARTITION \"The topic 'x' does not exist.\"")
           + "; " + src("server/src/test/java/org/apache/kafka/server/KRaftClusterTest.java", "testIncrementalAlterConfigs"),
        Errors.REQUEST_TIMED_OUT: FORWARDED_TIMEOUT,
        Errors.INVALID_TOPIC_EXCEPTION: src(CONTROLLER_CONFIG_VALIDATOR, "validateTopicName: Topic.validate(name) -> INVALID_TOPIC_EXCEPTION"),
        Errors.TOPIC_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, "authorizeAlterResource TOPIC -> TOPIC_AUTHORIZATION_FAILED"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, "authorizeAlterResource BROKER -> CLUSTER_AUTHORIZATION_FAILED")
            + "; " + src(CONFIG_ADMIN_MANAGER, "preprocess BROKER_LOGGER -> ClusterAuthorizationException"),
        Errors.INVALID_CONFIG: src(CONFIGURATION_CONTROL, 'incrementalAlterConfigResource: APPEND/SUBTRACT on non-LIST key -> INVALID_CONFIG "Can\'t APPEND to key k because its type is not LIST."')
            + "; " + src(CONFIGURATION_CONTROL, "validateAlterConfig: ConfigException -> INVALID_CONFIG")
            + "; " + src("server/src/test/java/org/apache/kafka/server/KRaftClusterTest.java",
                          'testIncrementalAlterConfigs: INVALID_CONFIG "Unknown topic config name: not.a.real.topic.config"'),
        Errors.INVALID_REQUEST: src(CONFIG_ADMIN_MANAGER, 'preprocess(IncrementalAlterConfigsRequestData): "Each resource must appear at most once." / '
                 '"Error due to duplicate config keys" / "Null value not supported for : k" / "Unknown resource type N"'),
        Errors.POLICY_VIOLATION: src(CONFIGURATION_CONTROL, "validateAlterConfig: alterConfigPolicy.validate -> POLICY_VIOLATION (alter.config.policy.class.name)"),
        Errors.UNKNOWN_SERVER_ERROR: FORWARDED_ENVELOPE
            + "; " + src(CONFIGURATION_CONTROL, "incrementalAlterConfigResource: switch (opType) on null (unknown ConfigOperation byte) -> NullPointerException")
            + "; " + CONTROLLER_CATCH_ALL,
    },
    ApiKey.ListConfigResources: {
        Errors.NONE: src(KAFKA_APIS, "handleListConfigResources"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: cluster_authorization("DESCRIBE_CONFIGS", KAFKA_APIS),
        Errors.UNSUPPORTED_VERSION: src(KAFKA_APIS, "handleListConfigResources: v0 (client metrics) without a "
                                                     "metrics reporter / a resource type the version cannot list"),
        Errors.INVALID_REQUEST: src(KAFKA_APIS, "handleListConfigResources: an unknown resource type"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
}

#: api_key -> (null_on_success (False: Kafka sends ""), note with sources)
ERROR_MESSAGE_KAFKA = {
    ApiKey.DescribeConfigs: (
        False,
        src(MSG + "DescribeConfigsResponse.json", 'ErrorMessage "versions": "0+", "nullableVersions": "0+" (no "default": '
             'the generated field starts as "")')
        + "; success sends \"\", not null: " + src("server/src/main/java/org/apache/kafka/server/ConfigHelperUtils.java",
                                                "toDescribeConfigsResult setErrorCode(NONE) only")
        + " + " + src("generator/src/main/java/org/apache/kafka/message/MessageDataGenerator.java",
                       'fieldDefault: a string field defaults to "" unless "default": "null"')
        + "; NOT set (so \"\") for UNKNOWN_TOPIC_OR_PARTITION: " + src(CONFIG_HELPER, "describeConfigs setErrorCode(UNKNOWN_TOPIC_OR_PARTITION) only"),
    ),
    ApiKey.AlterConfigs: (
        True,
        src(MSG + "AlterConfigsResponse.json", 'ErrorMessage "versions": "0+" ("or null if there was no error")')
        + "; success: ApiError.NONE message null (" + src(CONFIG_ADMIN_MANAGER, "reassembleLegacyResponse setErrorMessage(err.message())") + ")",
    ),
    ApiKey.IncrementalAlterConfigs: (
        True,
        src(MSG + "IncrementalAlterConfigsResponse.json", 'ErrorMessage "versions": "0+" ("or null if there was no error")')
        + "; success: " + src(CONFIG_ADMIN_MANAGER, "reassembleIncrementalResponse setErrorMessage(err.message()) (ApiError.NONE -> null)"),
    ),
}

#: Codes released KRaft Kafka does NOT produce for these APIs through a broker (so a finding
#: can cite why it is unexpected).
NOT_PRODUCED = {
    (ApiKey.AlterConfigs, Errors.UNSUPPORTED_VERSION): "UNSUPPORTED_VERSION for an unknown resource type is what ControllerApis.handleLegacyAlterConfigs "
                         "answers, but the broker's ConfigAdminManager.preprocess answers INVALID_REQUEST first; only a "
                         "client talking to the controller directly sees 35",
    (ApiKey.IncrementalAlterConfigs, Errors.UNSUPPORTED_VERSION): "as for AlterConfigs: " + src(CONTROLLER_APIS, "handleIncrementalAlterConfigs UNKNOWN type -> UNSUPPORTED_VERSION")
                                     + " is shadowed by " + src(CONFIG_ADMIN_MANAGER, "preprocess -> INVALID_REQUEST"),
}

# -- safe values -----------------------------------------------------------------------------

SAFE = {
    ApiKey.ListConfigResources: {
        "resource_types": Safe(Distinct(Choice(tuple(int(t) for t in ConfigResourceType) + (99,)), max_size=3),
                               "ConfigResource.Type codes and an unknown one"),
    },
}

FAMILY = Family("configs", __name__, DECLARATIONS, codes=ANY_VERSION, messages=ERROR_MESSAGE_KAFKA,
                not_produced=NOT_PRODUCED, safe=SAFE)
