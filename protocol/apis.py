"""Every API the suite speaks, declared once, and what is the same for all versions of each.

``ApiKey`` is the codec library's enum (kafka-python 3 ``kafka.protocol.api_key``, the
names of Kafka's ``ApiKeys``): ``ApiKey.CreateTopics``, never ``19``. ``DECLARATIONS`` holds
one :class:`ApiSpec` per API: its role, whether it changes a cluster, where a response
lists its per-item results and which field names an item (so "the result for topic X" is
answered here and nowhere else), and where its message schemas come from. Every list of
APIs is derived from it: the codec's ``ADMIN_APIS`` / ``DATA_APIS`` / ``SETUP_APIS``,
catalogue P1's admin APIs (``conformance/parametrize.py``), the mutating APIs the
external-cluster guard refuses (``fixtures/scope.py``). Adding an API is one declaration
here (docs/CONTRIBUTING-properties.md, "Adding an API"). The enums of the configuration
APIs (``ConfigResourceType``, ``ConfigSource``, ``AlterConfigOp``) and ListOffsets' special
timestamps are Kafka's, with their sources.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Callable

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


class Role(Enum):
    """What the suite uses an API for."""
    ADMIN = "admin"   #: catalogue P1's admin APIs: the properties are parametrised over them
    DATA = "data"     #: set up and observe state (produce records, read offsets)
    SETUP = "setup"   #: configure a broker the suite started (SASL, ACLs, quotas), learn its cluster


@dataclass(frozen=True)
class MessageSchemas:
    """An API's request and response schemas in Kafka's message-schema JSON
    (apache/kafka clients/src/main/resources/common/message/*.json), for an API whose
    classes kafka-python does not ship: e.g. read from the ``kafka-clients`` jar of a
    release, which packages the same files under ``common/message/``. ``load`` returns
    ``(request schema, response schema)`` as parsed JSON; ``origin`` says where they come
    from (a jar and path, a KIP)."""
    origin: str
    load: Callable[[], tuple[dict, dict]]


@dataclass(frozen=True)
class ApiSpec:
    """One API the suite speaks, declared once; every list of APIs is derived from these.

    * ``role``: what the suite uses it for (:class:`Role`); the codec's ``ADMIN_APIS`` /
      ``DATA_APIS`` / ``SETUP_APIS`` and catalogue P1's admin APIs follow it;
    * ``results``: the response field that lists one entry per requested item, ``item``
      the entry field naming the item, ``partitions`` the nested per-partition list where
      results are per partition (None: the response has no per-item results);
    * ``mutates``: what a request does to a cluster, as the external-cluster guard says it
      ("creates topics"); None for an API that only reads;
    * ``schemas``: where its message schemas come from; None: kafka-python's classes
      ``<Name>Request`` / ``<Name>Response`` (Kafka's own JSON, shipped inside it).

    From which version a request may name topics by id alone is read from the schema
    (:func:`protocol.schema_facts.by_id_from`), not declared; Kafka's error codes for it
    are rows of ``reference/error_codes.py``, keyed by ``ApiKey``."""
    key: ApiKey
    role: Role
    results: str | None = None
    item: str | None = None
    partitions: str | None = None
    mutates: str | None = None
    schemas: MessageSchemas | None = None

    @property
    def name(self) -> str:
        return self.key.name


ADMIN, DATA, SETUP = Role.ADMIN, Role.DATA, Role.SETUP


def _declare(*specs: ApiSpec) -> dict[ApiKey, ApiSpec]:
    keys = [s.key for s in specs]
    twice = sorted({k.name for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError(f"declared twice: {twice}")
    return {s.key: s for s in sorted(specs, key=lambda s: s.key)}


#: Every API the suite speaks, one declaration each, in API-key order.
DECLARATIONS: dict[ApiKey, ApiSpec] = _declare(
    ApiSpec(ApiKey.Produce, DATA, mutates="appends records"),
    ApiSpec(ApiKey.Fetch, DATA),
    ApiSpec(ApiKey.ListOffsets, DATA),
    ApiSpec(ApiKey.Metadata, ADMIN, "topics", "name"),
    ApiSpec(ApiKey.SaslHandshake, SETUP),
    ApiSpec(ApiKey.ApiVersions, ADMIN),
    ApiSpec(ApiKey.CreateTopics, ADMIN, "topics", "name", mutates="creates topics"),
    ApiSpec(ApiKey.DeleteTopics, ADMIN, "responses", "name", mutates="deletes topics"),
    ApiSpec(ApiKey.DeleteRecords, ADMIN, "topics", "name", partitions="partitions", mutates="deletes records"),
    ApiSpec(ApiKey.DescribeAcls, SETUP),
    ApiSpec(ApiKey.CreateAcls, SETUP),
    ApiSpec(ApiKey.DeleteAcls, SETUP),
    ApiSpec(ApiKey.DescribeConfigs, ADMIN, "results", "resource_name"),
    ApiSpec(ApiKey.AlterConfigs, ADMIN, "responses", "resource_name", mutates="alters topic configs"),
    ApiSpec(ApiKey.SaslAuthenticate, SETUP),
    ApiSpec(ApiKey.CreatePartitions, ADMIN, "results", "name", mutates="adds partitions"),
    ApiSpec(ApiKey.IncrementalAlterConfigs, ADMIN, "responses", "resource_name", mutates="alters topic configs"),
    ApiSpec(ApiKey.DescribeClientQuotas, SETUP),
    ApiSpec(ApiKey.AlterClientQuotas, SETUP),
    ApiSpec(ApiKey.DescribeCluster, SETUP),
)

#: The APIs whose responses list per-item results (where "the result for topic X" is).
SPECS: dict[ApiKey, ApiSpec] = {k: s for k, s in DECLARATIONS.items() if s.results}


def keys(role: Role | None = None, *, mutating: bool | None = None) -> tuple[ApiKey, ...]:
    """Declared API keys in key order, of ``role`` (None: any) and, when ``mutating`` is
    given, only those that change a cluster (True) or only those that read (False)."""
    return tuple(k for k, s in DECLARATIONS.items()
                 if (role is None or s.role is role)
                 and (mutating is None or (s.mutates is not None) == mutating))


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


__all__ = ["DECLARATIONS", "ApiKey", "ApiSpec", "AlterConfigOp", "ConfigResourceType", "ConfigSource",
           "MessageSchemas", "OffsetSpec", "Role", "SPECS", "ZERO_UUID", "api_name", "items", "keys",
           "result_for", "results", "spec"]
