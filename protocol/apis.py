"""Every API the suite speaks, and what is the same for all versions of each.

``ApiKey`` is the codec library's enum (kafka-python 3 ``kafka.protocol.api_key``, the
names of Kafka's ``ApiKeys``): ``ApiKey.CreateTopics``, never ``19``. ``SPECS`` holds, per
admin API, where a response lists its per-item results and which field names an item, so
"the result for topic X" is answered here and nowhere else. The enums of the
configuration APIs (``ConfigResourceType``, ``ConfigSource``, ``AlterConfigOp``) and
ListOffsets' special timestamps are Kafka's, with their sources.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from enum import IntEnum

from kafka.protocol.api_key import ApiKey

ZERO_UUID = uuid.UUID(int=0)


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


class OffsetSpec(IntEnum):
    """ListOffsets special timestamps: apache/kafka
    clients/src/main/java/org/apache/kafka/common/requests/ListOffsetsRequest.java"""
    LATEST = -1
    EARLIEST = -2


@dataclass(frozen=True)
class ApiSpec:
    """What every version of one admin API shares: ``results`` is the response field that
    lists one entry per requested item, ``item`` the entry field naming the item, and
    ``partitions`` the nested per-partition list where results are per partition."""
    key: ApiKey
    results: str
    item: str
    partitions: str | None = None

    @property
    def name(self) -> str:
        return self.key.name


SPECS: dict[ApiKey, ApiSpec] = {s.key: s for s in (
    ApiSpec(ApiKey.Metadata, "topics", "name"),
    ApiSpec(ApiKey.CreateTopics, "topics", "name"),
    ApiSpec(ApiKey.DeleteTopics, "responses", "name"),
    ApiSpec(ApiKey.DeleteRecords, "topics", "name", partitions="partitions"),
    ApiSpec(ApiKey.DescribeConfigs, "results", "resource_name"),
    ApiSpec(ApiKey.AlterConfigs, "responses", "resource_name"),
    ApiSpec(ApiKey.CreatePartitions, "results", "name"),
    ApiSpec(ApiKey.IncrementalAlterConfigs, "responses", "resource_name"),
)}


def spec(api_key: int) -> ApiSpec:
    return SPECS[ApiKey(api_key)]


def results(api_key: int, response: dict) -> list[dict]:
    """The per-item entries of ``response`` (per partition for DeleteRecords)."""
    s = spec(api_key)
    entries = response.get(s.results) or []
    if s.partitions:
        return [p for e in entries for p in e.get(s.partitions) or []]
    return list(entries)


def items(api_key: int, response: dict) -> list[dict]:
    """The top-level entries of ``response`` (per topic for DeleteRecords)."""
    return list(response.get(spec(api_key).results) or [])


def result_for(api_key: int, response: dict, name: str) -> list[dict]:
    """The top-level entries of ``response`` that name ``name``."""
    field = spec(api_key).item
    return [e for e in items(api_key, response) if e.get(field) == name]


def api_name(api_key: int) -> str:
    try:
        return ApiKey(api_key).name
    except ValueError:
        return f"api {api_key}"


__all__ = ["ApiKey", "ApiSpec", "AlterConfigOp", "ConfigResourceType", "ConfigSource", "OffsetSpec",
           "SPECS", "ZERO_UUID", "api_name", "items", "result_for", "results", "spec"]
