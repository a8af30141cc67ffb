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
    MAX_TIMESTAMP = -3   # KIP-734, ListOffsets v7+


class Role(Enum):
    """What the suite uses an API for.

    An API is ``ADMIN`` when Kafka's Java Admin client (apache/kafka
    clients/src/main/java/org/apache/kafka/clients/admin/KafkaAdminClient.java and its
    ``admin/internals`` handlers) sends it to carry out an Admin operation and the request
    administers the cluster from outside: it describes, lists, creates, alters or deletes
    something (topics, configs, partitions, records, ACLs, quotas, SCRAM credentials,
    delegation tokens, log dirs, reassignments, leaders, groups and their offsets,
    producers and transactions, features, the quorum, brokers). An API is not ``ADMIN``
    when it makes its sender a participant: a group member (JoinGroup, Heartbeat, SyncGroup,
    LeaveGroup, the *GroupHeartbeat APIs), a producer or a transaction (InitProducerId,
    AddPartitionsToTxn, AddOffsetsToTxn, EndTxn, TxnOffsetCommit), a consumer reading
    records (Fetch, ShareFetch, ShareAcknowledge), a broker or controller talking to another
    (WriteTxnMarkers, the share-group state APIs, the Raft and registration APIs). The Admin
    client borrows three of those for one operation each (InitProducerId for
    ``fenceProducers``, WriteTxnMarkers for ``abortTransaction``, LeaveGroup for
    ``removeMembersFromConsumerGroup``); they keep the role of what they are. JoinGroup,
    SyncGroup and LeaveGroup are ``DATA``: the group properties (catalogue G5) make a member
    over the wire, as a consumer does, to see what a group with members is refused;
    ConsumerGroupHeartbeat is ``DATA``: catalogue G6 makes a member of a consumer group (the
    protocol of KIP-848) over the wire, as the consumer does, to see ConsumerGroupDescribe
    describe it;
    InitProducerId is ``DATA``: DescribeProducers' property (catalogue W1) makes an
    idempotent producer over the wire, as the producer does, to see it listed; so are
    AddPartitionsToTxn and EndTxn: the transactions properties (catalogue X) open, commit
    and abort a transaction over the wire, as a transactional producer does, to see it
    listed and described; ShareGroupHeartbeat is ``DATA``: a share group property (catalogue Y4)
    makes a member over the wire, as a share consumer does, to see it described.
    :data:`NOT_DECLARED` gives, for every other API Kafka serves, the reason it is not here.
    """
    ADMIN = "admin"   #: catalogue P1's admin APIs: the properties are parametrised over them
    DATA = "data"     #: set up and observe state (produce records, read them)
    SETUP = "setup"   #: configure a broker the suite started (SASL)


class Entity(Enum):
    """What a request field names, for the names a run may use (its prefix) and the
    external-cluster guard. The schemas tag topics, groups and transactional ids
    (``entityType``); the other fields are declared per API (:attr:`ApiSpec.names`)."""
    TOPIC = "topic"
    GROUP = "group"
    TRANSACTIONAL_ID = "transactional id"
    PRINCIPAL = "principal"              #: ``Type:name`` (``User:alice``)
    USER = "user"                        #: a bare user name (SCRAM, a token's owner)
    QUOTA_ENTITY = "quota entity"        #: a client quota entity's name (user, client id, ip)
    ACL_RESOURCE = "ACL resource"        #: an ACL's resource name (topic, group, ...)
    CONFIG_RESOURCE = "config resource"  #: a config resource's name (its kind: resource_type)
    COORDINATOR_KEY = "coordinator key"  #: a group or transactional id to find a coordinator for
    FEATURE = "feature"                  #: a KIP-584 feature name
    LOG_DIR = "log dir"                  #: a broker's log directory
    NODE = "node"                        #: a broker or controller id


#: The schemas' ``entityType`` tags the suite keeps inside a run (the others, brokerId and
#: producerId, are numbers no run owns).
SCHEMA_ENTITIES = {"topicName": Entity.TOPIC, "groupId": Entity.GROUP, "transactionalId": Entity.TRANSACTIONAL_ID}


@dataclass(frozen=True)
class MessageSchemas:
    """An API's request and response schemas in Kafka's message-schema JSON
    (apache/kafka clients/src/main/resources/common/message/*.json), for an API whose
    classes kafka-python does not ship (or ships at an older version than Kafka serves):
    e.g. the files vendored from the ``kafka-clients`` jar of a release
    (:mod:`protocol.kafka_clients`). ``load`` returns ``(request schema, response schema)``
    as parsed JSON; ``origin`` says where they come from (a jar and path, a KIP)."""
    origin: str
    load: Callable[[], tuple[dict, dict]]


def _kafka_clients(name: str) -> MessageSchemas:
    """The schemas of ``name`` vendored from the pinned kafka-clients jar."""
    from . import kafka_clients
    return MessageSchemas(f"{kafka_clients.origin()}{name}Request.json, {name}Response.json",
                          lambda: kafka_clients.schemas(name))


# -- item paths: which items a request names, and where the answer has one result each ----------

@dataclass(frozen=True)
class Level:
    """One array on the way to an item: ``array[key]``. ``key`` is a tuple of entry fields
    naming the item (several: a composite key, ``resources[resource_type,resource_name]``);
    ``fallback``: the fields are alternatives, the first non-null one names it
    (``topics[name|topic_id]``); ``()`` for an array of plain values (``groups_names[]``);
    ``POSITION`` (``[#]``) for results matched by their place; ``FLAT`` (``[*]``) for an
    array walked through without naming anything (``dirs[*].topics[name]``)."""
    array: str
    key: tuple[str, ...]
    fallback: bool = False

    @property
    def plain(self) -> bool:
        return self.key == ()


POSITION, FLAT = ("#",), ("*",)


def parse_path(text: str) -> tuple[Level, ...]:
    """``"topics[name].partitions[partition_index]"`` -> its levels (see :class:`Level`)."""
    levels = []
    for part in text.split("."):
        array, _, rest = part.partition("[")
        if not array or not rest.endswith("]"):
            raise ValueError(f"item path {text!r}: {part!r} is not array[key]")
        inner = rest[:-1]
        if inner in ("#", "*"):
            levels.append(Level(array, (inner,)))
        elif "|" in inner:
            levels.append(Level(array, tuple(inner.split("|")), fallback=True))
        else:
            levels.append(Level(array, tuple(filter(None, inner.split(",")))))
    return tuple(levels)


def _paths(value) -> tuple[tuple[tuple[Level, ...], ...], ...]:
    """A declaration's ``asks`` / ``answers``: alternatives (the first whose top array the
    version has), each a union of paths joined by ``+``."""
    if value is None:
        return ()
    alternatives = (value,) if isinstance(value, str) else tuple(value)
    return tuple(tuple(parse_path(p) for p in alt.split("+")) for alt in alternatives)


@dataclass(frozen=True)
class ApiSpec:
    """One API the suite speaks, declared once; every list of APIs is derived from these.

    * ``role``: what the suite uses it for (:class:`Role`); the codec's ``ADMIN_APIS`` /
      ``DATA_APIS`` / ``SETUP_APIS`` and catalogue P1's admin APIs follow it;
    * ``answers``: where the response has one result per requested item, as an item path
      (``"topics[name].partitions[partition_index]"``, :func:`parse_path`; a tuple of paths:
      alternatives by version); ``results`` / ``item`` / ``partitions`` are read from it.
      None: the response has no per-item results (a description, a listing);
    * ``asks``: the items a request names, in the same notation (``"groups_names[]"``,
      ``"deletions[name]+upsertions[name]"`` for the union of two arrays), matched to
      ``answers`` by their keys' values (catalogue P2: one result per item, no other);
    * ``mutates``: what a request does to a cluster, as the external-cluster guard says it
      ("creates topics"); None for an API that only reads;
    * ``names``: request fields (dotted paths) naming an :class:`Entity` the schema does
      not tag (``{"creations.principal": Entity.PRINCIPAL}``); the schema's own
      ``entityType`` tags (topics, groups, transactional ids) need no declaring;
    * ``schemas``: where its message schemas come from; None: kafka-python's classes
      ``<Name>Request`` / ``<Name>Response`` (Kafka's own JSON, shipped inside it).

    From which version a request may name topics by id alone is read from the schema
    (:func:`protocol.schema_facts.by_id_from`), not declared; Kafka's error codes for it
    are rows of ``reference/error_codes.py``, keyed by ``ApiKey``."""
    key: ApiKey
    role: Role
    answers: str | tuple[str, ...] | None = None
    asks: str | tuple[str, ...] | None = None
    mutates: str | None = None
    names: dict[str, Entity] | None = None
    schemas: MessageSchemas | None = None

    def __post_init__(self):
        _paths(self.answers), _paths(self.asks)        # a misspelt path fails at import

    @property
    def name(self) -> str:
        return self.key.name

    @property
    def answer_paths(self):
        return _paths(self.answers)

    @property
    def ask_paths(self):
        return _paths(self.asks)

    def _levels(self) -> tuple[Level, ...]:
        return self.answer_paths[0][0] if self.answers else ()

    @property
    def results(self) -> str | None:
        """The response field listing the per-item results (the first alternative's)."""
        levels = self._levels()
        return levels[0].array if levels else None

    @property
    def item(self) -> str | None:
        """The result field naming an item (of a composite key its last field, of a
        fallback its first; None for results matched by position)."""
        levels = self._levels()
        if not levels or levels[0].key in (POSITION, FLAT, ()):
            return None
        key = levels[0].key
        return key[0] if levels[0].fallback else key[-1]

    @property
    def partitions(self) -> str | None:
        """The nested per-partition list, where results are per partition."""
        levels = self._levels()
        return levels[1].array if len(levels) > 1 else None

    @property
    def partition_item(self) -> str | None:
        levels = self._levels()
        return levels[1].key[0] if len(levels) > 1 and levels[1].key not in (POSITION, FLAT, ()) else None


ADMIN, DATA, SETUP = Role.ADMIN, Role.DATA, Role.SETUP
E = Entity


def _declare(*specs: ApiSpec) -> dict[ApiKey, ApiSpec]:
    keys = [s.key for s in specs]
    twice = sorted({k.name for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError(f"declared twice: {twice}")
    return {s.key: s for s in sorted(specs, key=lambda s: s.key)}


_TOPIC_PARTS = "topics[name].partitions[partition_index]"
_CONFIGS = "resources[resource_type,resource_name]"
_ACL_FILTER = {"resource_name_filter": E.ACL_RESOURCE, "principal_filter": E.PRINCIPAL}

#: Every API the suite speaks, one declaration each, in API-key order. Every admin API
#: Kafka 4.4 serves is here (Role); the others it serves are in :data:`NOT_DECLARED`.
DECLARATIONS: dict[ApiKey, ApiSpec] = _declare(
    ApiSpec(ApiKey.Produce, DATA, mutates="appends records"),
    ApiSpec(ApiKey.Fetch, DATA),
    ApiSpec(ApiKey.InitProducerId, DATA, mutates="allocates a producer id (an idempotent producer's, catalogue W1; "
                                                  "a transactional one's, catalogue X)"),
    ApiSpec(ApiKey.AddPartitionsToTxn, DATA, mutates="adds partitions to a transaction (catalogue X)"),
    ApiSpec(ApiKey.EndTxn, DATA, mutates="commits or aborts a transaction (catalogue X)"),
    ApiSpec(ApiKey.ListOffsets, ADMIN, _TOPIC_PARTS, _TOPIC_PARTS),
    ApiSpec(ApiKey.Metadata, ADMIN, "topics[name|topic_id]", "topics[name|topic_id]"),
    ApiSpec(ApiKey.OffsetCommit, ADMIN, "topics[name|topic_id].partitions[partition_index]",
            "topics[name|topic_id].partitions[partition_index]", mutates="commits group offsets"),
    ApiSpec(ApiKey.OffsetFetch, ADMIN, ("groups[group_id]", "topics[name].partitions[partition_index]"),
            ("groups[group_id]", "topics[name].partition_indexes[]")),
    ApiSpec(ApiKey.FindCoordinator, ADMIN, "coordinators[key]", "coordinator_keys[]",
            names={"key": E.COORDINATOR_KEY, "coordinator_keys": E.COORDINATOR_KEY}),
    ApiSpec(ApiKey.JoinGroup, DATA, mutates="joins a group (making it if it does not exist)"),
    ApiSpec(ApiKey.LeaveGroup, DATA, mutates="removes a group member"),
    ApiSpec(ApiKey.SyncGroup, DATA),
    ApiSpec(ApiKey.DescribeGroups, ADMIN, "groups[group_id]", "groups[]"),
    ApiSpec(ApiKey.ListGroups, ADMIN),
    ApiSpec(ApiKey.SaslHandshake, SETUP),
    ApiSpec(ApiKey.ApiVersions, ADMIN, schemas=_kafka_clients("ApiVersions")),
    ApiSpec(ApiKey.CreateTopics, ADMIN, "topics[name]", "topics[name]", mutates="creates topics"),
    ApiSpec(ApiKey.DeleteTopics, ADMIN, "responses[name|topic_id]", ("topics[name|topic_id]", "topic_names[]"),
            mutates="deletes topics"),
    ApiSpec(ApiKey.DeleteRecords, ADMIN, _TOPIC_PARTS, _TOPIC_PARTS, mutates="deletes records"),
    ApiSpec(ApiKey.DescribeAcls, ADMIN, names=_ACL_FILTER),
    ApiSpec(ApiKey.CreateAcls, ADMIN, "results[#]", "creations[#]", mutates="creates ACLs",
            names={"creations.resource_name": E.ACL_RESOURCE, "creations.principal": E.PRINCIPAL}),
    ApiSpec(ApiKey.DeleteAcls, ADMIN, "filter_results[#]", "filters[#]", mutates="deletes ACLs",
            names={f"filters.{k}": v for k, v in _ACL_FILTER.items()}),
    ApiSpec(ApiKey.DescribeConfigs, ADMIN, "results[resource_type,resource_name]", _CONFIGS,
            names={"resources.resource_name": E.CONFIG_RESOURCE}),
    ApiSpec(ApiKey.AlterConfigs, ADMIN, "responses[resource_type,resource_name]", _CONFIGS,
            mutates="alters configs", names={"resources.resource_name": E.CONFIG_RESOURCE}),
    ApiSpec(ApiKey.AlterReplicaLogDirs, ADMIN, "results[topic_name].partitions[partition_index]",
            "dirs[*].topics[name].partitions[]", mutates="moves replicas between log dirs",
            names={"dirs.path": E.LOG_DIR}),
    ApiSpec(ApiKey.DescribeLogDirs, ADMIN),
    ApiSpec(ApiKey.SaslAuthenticate, SETUP),
    ApiSpec(ApiKey.CreatePartitions, ADMIN, "results[name]", "topics[name]", mutates="adds partitions"),
    ApiSpec(ApiKey.CreateDelegationToken, ADMIN, mutates="creates delegation tokens",
            names={"owner_principal_name": E.USER, "renewers.principal_name": E.USER},
            schemas=_kafka_clients("CreateDelegationToken")),
    ApiSpec(ApiKey.RenewDelegationToken, ADMIN, mutates="renews delegation tokens",
            schemas=_kafka_clients("RenewDelegationToken")),
    ApiSpec(ApiKey.ExpireDelegationToken, ADMIN, mutates="expires delegation tokens",
            schemas=_kafka_clients("ExpireDelegationToken")),
    ApiSpec(ApiKey.DescribeDelegationToken, ADMIN, names={"owners.principal_name": E.USER},
            schemas=_kafka_clients("DescribeDelegationToken")),
    ApiSpec(ApiKey.DeleteGroups, ADMIN, "results[group_id]", "groups_names[]", mutates="deletes groups",
            schemas=_kafka_clients("DeleteGroups")),
    ApiSpec(ApiKey.ElectLeaders, ADMIN, "replica_election_results[topic].partition_result[partition_id]",
            "topic_partitions[topic].partitions[]", mutates="elects partition leaders"),
    ApiSpec(ApiKey.IncrementalAlterConfigs, ADMIN, "responses[resource_type,resource_name]", _CONFIGS,
            mutates="alters configs", names={"resources.resource_name": E.CONFIG_RESOURCE}),
    ApiSpec(ApiKey.AlterPartitionReassignments, ADMIN, "responses[name].partitions[partition_index]",
            _TOPIC_PARTS, mutates="reassigns partitions"),
    ApiSpec(ApiKey.ListPartitionReassignments, ADMIN),
    ApiSpec(ApiKey.OffsetDelete, ADMIN, _TOPIC_PARTS, _TOPIC_PARTS, mutates="deletes group offsets"),
    ApiSpec(ApiKey.DescribeClientQuotas, ADMIN, names={"components.match": E.QUOTA_ENTITY}),
    ApiSpec(ApiKey.AlterClientQuotas, ADMIN, "entries[entity]", "entries[entity]", mutates="alters client quotas",
            names={"entries.entity.entity_name": E.QUOTA_ENTITY}),
    ApiSpec(ApiKey.DescribeUserScramCredentials, ADMIN, "results[user]", "users[name]",
            names={"users.name": E.USER}),
    ApiSpec(ApiKey.AlterUserScramCredentials, ADMIN, "results[user]", "deletions[name]+upsertions[name]",
            mutates="alters SCRAM credentials", names={"deletions.name": E.USER, "upsertions.name": E.USER}),
    ApiSpec(ApiKey.DescribeQuorum, ADMIN, "topics[topic_name].partitions[partition_index]",
            "topics[topic_name].partitions[partition_index]"),
    ApiSpec(ApiKey.UpdateFeatures, ADMIN, "results[feature]", "feature_updates[feature]", mutates="updates features",
            names={"feature_updates.feature": E.FEATURE}),
    ApiSpec(ApiKey.DescribeCluster, ADMIN),
    ApiSpec(ApiKey.DescribeProducers, ADMIN, "topics[name].partitions[partition_index]",
            "topics[name].partition_indexes[]"),
    ApiSpec(ApiKey.UnregisterBroker, ADMIN, mutates="unregisters brokers", names={"broker_id": E.NODE},
            schemas=_kafka_clients("UnregisterBroker")),
    ApiSpec(ApiKey.DescribeTransactions, ADMIN, "transaction_states[transactional_id]", "transactional_ids[]"),
    ApiSpec(ApiKey.ListTransactions, ADMIN),
    ApiSpec(ApiKey.ConsumerGroupHeartbeat, DATA, mutates="joins or leaves a consumer group (making it if it does "
            "not exist, KIP-848)", schemas=_kafka_clients("ConsumerGroupHeartbeat")),
    ApiSpec(ApiKey.ConsumerGroupDescribe, ADMIN, "groups[group_id]", "group_ids[]",
            schemas=_kafka_clients("ConsumerGroupDescribe")),
    ApiSpec(ApiKey.ListConfigResources, ADMIN),
    ApiSpec(ApiKey.DescribeTopicPartitions, ADMIN, "topics[name]", "topics[name]"),
    ApiSpec(ApiKey.ShareGroupHeartbeat, DATA, mutates="joins or leaves a share group as a member (catalogue Y4)",
            schemas=_kafka_clients("ShareGroupHeartbeat")),
    ApiSpec(ApiKey.ShareGroupDescribe, ADMIN, "groups[group_id]", "group_ids[]",
            schemas=_kafka_clients("ShareGroupDescribe")),
    ApiSpec(ApiKey.AddRaftVoter, ADMIN, mutates="adds controller voters", names={"voter_id": E.NODE},
            schemas=_kafka_clients("AddRaftVoter")),
    ApiSpec(ApiKey.RemoveRaftVoter, ADMIN, mutates="removes controller voters", names={"voter_id": E.NODE},
            schemas=_kafka_clients("RemoveRaftVoter")),
    ApiSpec(ApiKey.StreamsGroupDescribe, ADMIN, "groups[group_id]", "group_ids[]",
            schemas=_kafka_clients("StreamsGroupDescribe")),
    ApiSpec(ApiKey.DescribeShareGroupOffsets, ADMIN, "groups[group_id]", "groups[group_id]",
            schemas=_kafka_clients("DescribeShareGroupOffsets")),
    ApiSpec(ApiKey.AlterShareGroupOffsets, ADMIN, "responses[topic_name].partitions[partition_index]",
            "topics[topic_name].partitions[partition_index]", mutates="alters share group offsets",
            schemas=_kafka_clients("AlterShareGroupOffsets")),
    ApiSpec(ApiKey.DeleteShareGroupOffsets, ADMIN, "responses[topic_name]", "topics[topic_name]",
            mutates="deletes share group offsets", schemas=_kafka_clients("DeleteShareGroupOffsets")),
)

_MEMBER = "a group member's protocol (a consumer joins, stays in, leaves a group); the Admin client does not send it"
_TXN = "a transactional producer's protocol; the Admin client does not send it"
_INTER = "between brokers and controllers, never a client's request"
_STATE = "the share coordinator's state store, sent by brokers (KIP-932); never a client's request"

#: Every other API Apache Kafka 4.4 serves on a broker listener, by key (some have no name in
#: the codec library's ``ApiKey``): (its name, why it is not declared). A test asks a real
#: kafka:4.4.0 its ApiVersions and fails on an API in neither table.
NOT_DECLARED: dict[int, tuple[str, str]] = {
    int(ApiKey.Heartbeat): ("Heartbeat", _MEMBER),
    int(ApiKey.OffsetForLeaderEpoch): ("OffsetForLeaderEpoch", "a consumer's or follower's log truncation "
                                                               "check; the Admin client does not send it"),
    int(ApiKey.AddOffsetsToTxn): ("AddOffsetsToTxn", _TXN),
    int(ApiKey.WriteTxnMarkers): ("WriteTxnMarkers", "a transaction coordinator's request to partition leaders "
                                                     "(abortTransaction borrows it to abort a hanging transaction)"),
    int(ApiKey.TxnOffsetCommit): ("TxnOffsetCommit", _TXN),
    int(ApiKey.GetTelemetrySubscriptions): ("GetTelemetrySubscriptions", "a client's metrics push (KIP-714)"),
    int(ApiKey.PushTelemetry): ("PushTelemetry", "a client's metrics push (KIP-714)"),
    int(ApiKey.ShareFetch): ("ShareFetch", "a share consumer reading records (KIP-932)"),
    int(ApiKey.ShareAcknowledge): ("ShareAcknowledge", "a share consumer acknowledging records (KIP-932)"),
    int(ApiKey.InitializeShareGroupState): ("InitializeShareGroupState", _STATE),
    int(ApiKey.ReadShareGroupState): ("ReadShareGroupState", _STATE),
    int(ApiKey.WriteShareGroupState): ("WriteShareGroupState", _STATE),
    int(ApiKey.DeleteShareGroupState): ("DeleteShareGroupState", _STATE),
    int(ApiKey.ReadShareGroupStateSummary): ("ReadShareGroupStateSummary", _STATE),
    int(ApiKey.StreamsGroupHeartbeat): ("StreamsGroupHeartbeat", _MEMBER + " (KIP-1071)"),
    93: ("StreamsGroupTopologyDescriptionUpdate", "a Streams group member's topology report (KIP-1331); the "
                                                  "Admin client does not send it"),
    94: ("UnregisterController", "a controller leaving the quorum's registrations (KIP-1249), sent by the "
                                 "kafka-metadata tooling, not by the Admin client"),
}

#: The admin APIs by family (what the Admin client administers with them), for the docs and
#: for the properties of one family; every admin API is in exactly one.
FAMILIES: dict[str, tuple[ApiKey, ...]] = {
    "topics, partitions and records": (ApiKey.Metadata, ApiKey.CreateTopics, ApiKey.DeleteTopics,
                                       ApiKey.CreatePartitions, ApiKey.DeleteRecords, ApiKey.ListOffsets,
                                       ApiKey.DescribeTopicPartitions),
    "configs": (ApiKey.DescribeConfigs, ApiKey.AlterConfigs, ApiKey.IncrementalAlterConfigs,
                ApiKey.ListConfigResources),
    "ACLs": (ApiKey.DescribeAcls, ApiKey.CreateAcls, ApiKey.DeleteAcls),
    "client quotas": (ApiKey.DescribeClientQuotas, ApiKey.AlterClientQuotas),
    "SCRAM credentials": (ApiKey.DescribeUserScramCredentials, ApiKey.AlterUserScramCredentials),
    "delegation tokens": (ApiKey.CreateDelegationToken, ApiKey.RenewDelegationToken, ApiKey.ExpireDelegationToken,
                          ApiKey.DescribeDelegationToken),
    "cluster, features and quorum": (ApiKey.ApiVersions, ApiKey.DescribeCluster, ApiKey.UpdateFeatures,
                                     ApiKey.DescribeQuorum, ApiKey.AddRaftVoter, ApiKey.RemoveRaftVoter,
                                     ApiKey.UnregisterBroker),
    "log dirs, reassignments and leaders": (ApiKey.DescribeLogDirs, ApiKey.AlterReplicaLogDirs,
                                            ApiKey.AlterPartitionReassignments, ApiKey.ListPartitionReassignments,
                                            ApiKey.ElectLeaders),
    "groups and their offsets": (ApiKey.FindCoordinator, ApiKey.ListGroups, ApiKey.DescribeGroups,
                                 ApiKey.ConsumerGroupDescribe, ApiKey.ShareGroupDescribe, ApiKey.StreamsGroupDescribe,
                                 ApiKey.DeleteGroups, ApiKey.OffsetFetch, ApiKey.OffsetCommit, ApiKey.OffsetDelete,
                                 ApiKey.DescribeShareGroupOffsets, ApiKey.AlterShareGroupOffsets,
                                 ApiKey.DeleteShareGroupOffsets),
    "producers and transactions": (ApiKey.DescribeProducers, ApiKey.DescribeTransactions, ApiKey.ListTransactions),
}


def family(api_key: int) -> str:
    """The family an admin API belongs to (:data:`FAMILIES`)."""
    return next(f for f, ks in FAMILIES.items() if api_key in ks)


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


def _results_field(api_key: int, response: dict) -> str | None:
    """The per-item results field ``response`` carries (the first alternative it has)."""
    for alternative in DECLARATIONS[ApiKey(api_key)].answer_paths:
        field = alternative[0][0].array
        if field in response:
            return field
    return spec(api_key).results


def _leaves(api_key: int, response: dict) -> tuple[str | None, str | None]:
    field = _results_field(api_key, response)
    for alternative in DECLARATIONS[ApiKey(api_key)].answer_paths:
        levels = alternative[0]
        if levels[0].array == field:
            return field, levels[1].array if len(levels) > 1 else None
    return field, None


def results(api_key: int, response: dict) -> list[dict]:
    """The per-item entries of ``response`` (per partition where results are per partition)."""
    field, nested = _leaves(api_key, response)
    entries = response.get(field) or []
    if nested:
        return [p for e in entries for p in e.get(nested) or []]
    return list(entries)


def items(api_key: int, response: dict) -> list[dict]:
    """The top-level entries of ``response`` (per topic for DeleteRecords)."""
    return list(response.get(_results_field(api_key, response)) or [])


def result_for(api_key: int, response: dict, name: str) -> list[dict]:
    """The top-level entries of ``response`` that name ``name``."""
    field = spec(api_key).item
    return [e for e in items(api_key, response) if e.get(field) == name]


def api_name(api_key: int) -> str:
    try:
        return ApiKey(api_key).name
    except ValueError:
        return f"api {api_key}"


__all__ = ["DECLARATIONS", "NOT_DECLARED", "ApiKey", "ApiSpec", "AlterConfigOp", "ConfigResourceType", "ConfigSource",
           "Entity", "FAMILIES", "Level", "MessageSchemas", "OffsetSpec", "Role", "SPECS", "ZERO_UUID", "api_name", "family", "items", "keys",
           "result_for", "results", "spec"]
