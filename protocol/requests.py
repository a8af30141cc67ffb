"""One logical request, built for any version: the body for ``(api, version)`` is made here.

As in apache/kafka (``new DeleteTopicsRequest.Builder(data).build(version)``), a caller
says *what* it asks (which topics, which configs, validate only or not) and the builder
writes the fields that version has: ``delete_topics(6, names=["a"])`` lists
``{"name": "a", "topic_id": ZERO_UUID}`` under ``topics``, ``delete_topics(3, names=["a"])``
lists ``topic_names``. A request a version cannot express (topic ids before DeleteTopics
v6) raises ``Inexpressible``. Field presence by version is read from the message schemas
(apache/kafka clients/src/main/resources/common/message/*Request.json); the suite's codec
(``protocol/codec.py``) encodes these dicts.

Only P1-P3, which must send odd shapes on purpose, build raw bodies themselves.
"""
from __future__ import annotations

import struct
import uuid
from enum import IntEnum
from typing import Iterable, Mapping, Sequence

from .apis import ZERO_UUID, ConfigResourceType

#: The timeout the suite's admin requests carry unless told otherwise.
TIMEOUT_MS = 5000


class Inexpressible(ValueError):
    """The logical request cannot be said at that version."""


def _pairs(configs) -> list:
    """``{k: v}`` or ``[(k, v), ...]`` -> ``[(k, v), ...]`` (lists keep duplicates)."""
    if configs is None:
        return []
    return list(configs.items()) if isinstance(configs, Mapping) else [tuple(kv) for kv in configs]


# -- Metadata ---------------------------------------------------------------------------

def metadata(v: int, names: Sequence[str] | None = None, *, ids: Sequence[uuid.UUID] = (),
             allow_auto_topic_creation: bool = False) -> dict:
    """Metadata for ``names`` (None: every topic). v0 lists every topic with ``[]`` and
    cannot say "no auto-creation" (field from v4); topic ids from v10 (MetadataRequest.json)."""
    if names is None and not ids:
        topics = None if v >= 1 else []
    else:
        if ids and v < 10:
            raise Inexpressible(f"Metadata v{v} cannot name topics by id (v10+)")
        topics = [({"name": n, "topic_id": ZERO_UUID} if v >= 10 else {"name": n}) for n in names or ()]
        topics += [{"name": None, "topic_id": i} for i in ids]
    body = {"topics": topics}
    if v >= 4:
        body["allow_auto_topic_creation"] = allow_auto_topic_creation
    return body


# -- topics -----------------------------------------------------------------------------

def topic(name: str, partitions: int = 1, replication_factor: int = 1, configs=None,
          assignments: list | None = None) -> dict:
    """One CreateTopics entry; ``configs`` is ``{k: v}`` or ``[(k, v), ...]``."""
    return {"name": name, "num_partitions": partitions, "replication_factor": replication_factor,
            "assignments": assignments or [],
            "configs": [{"name": k, "value": val} for k, val in _pairs(configs)]}


def create_topics(v: int, topics: Iterable[dict], *, timeout_ms: int = TIMEOUT_MS,
                  validate_only: bool = False) -> dict:
    """``topics``: entries from :func:`topic`. ``validate_only`` exists from v1; at v0 a
    validate-only request is inexpressible."""
    body = {"topics": list(topics), "timeout_ms": timeout_ms}
    if v >= 1:
        body["validate_only"] = validate_only
    elif validate_only:
        raise Inexpressible("CreateTopics v0 has no validate_only (v1+)")
    return body


def delete_topics(v: int, names: Sequence[str | None] = (), *, ids: Sequence[uuid.UUID] = (),
                  timeout_ms: int = TIMEOUT_MS) -> dict:
    """By name (every version) and by id (v6+, KIP-516): v6 lists ``topics`` of
    ``{name, topic_id}`` (ZERO_UUID for a name, null name for an id), older versions
    ``topic_names`` (DeleteTopicsRequest.json)."""
    return delete_topics_entries(v, [(n, None) for n in names] + [(None, i) for i in ids],
                                 timeout_ms=timeout_ms)


def delete_topics_entries(v: int, entries: Sequence[tuple[str | None, uuid.UUID | None]], *,
                          timeout_ms: int = TIMEOUT_MS) -> dict:
    """DeleteTopics with entries in a given order, each ``(name, id)`` (one of them None):
    the order a request lists names and ids in is part of what S1 sends."""
    if v >= 6:
        return {"topics": [{"name": n, "topic_id": i if i is not None else ZERO_UUID} for n, i in entries],
                "timeout_ms": timeout_ms}
    if any(i is not None for _, i in entries):
        raise Inexpressible(f"DeleteTopics v{v} cannot name topics by id (v6+)")
    return {"topic_names": [n for n, _ in entries], "timeout_ms": timeout_ms}


def create_partitions(v: int, counts: Iterable[tuple[str, int]], *, timeout_ms: int = TIMEOUT_MS,
                      validate_only: bool = False) -> dict:
    """``counts``: ``(topic, new total count)``; the broker assigns replicas (null
    assignments). Same fields at every version 0-3 (CreatePartitionsRequest.json)."""
    return {"topics": [{"name": n, "count": c, "assignments": None} for n, c in counts],
            "timeout_ms": timeout_ms, "validate_only": validate_only}


def delete_records(v: int, offsets: Iterable[tuple[str, Iterable[tuple[int, int]]]], *,
                   timeout_ms: int = TIMEOUT_MS) -> dict:
    """``offsets``: ``(topic, [(partition, offset), ...])``; offset -1 means the high
    watermark. Same fields at every version 0-2 (DeleteRecordsRequest.json)."""
    return {"topics": [{"name": n, "partitions": [{"partition_index": p, "offset": o} for p, o in parts]}
                       for n, parts in offsets], "timeout_ms": timeout_ms}


# -- DeletePartitions: KIP-694, never released (K2; an overlay API, its key configurable) --

def delete_partitions(v: int, deletions: Iterable[tuple[str, int]], *, timeout_ms: int = TIMEOUT_MS,
                      validate_only: bool = False) -> dict:
    """``deletions``: ``(topic, k)``: delete partitions ``k..n-1``, keep ``0..k-1``. Version 0
    only (the overlay schema, reference/partition_deletion.py)."""
    if v != 0:
        raise Inexpressible(f"DeletePartitions has only version 0, not v{v}")
    return {"topics": [{"name": n, "delete_partitions": k} for n, k in deletions],
            "timeout_ms": timeout_ms, "validate_only": validate_only}


# -- configs ----------------------------------------------------------------------------

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


def describe_cluster(v: int, *, include_cluster_authorized_operations: bool = False) -> dict:
    """The cluster's brokers, controller and id (DescribeClusterRequest.json; KIP-700).
    ``endpoint_type`` (v1+) says brokers (1), ``include_fenced_brokers`` (v2+) no."""
    body: dict = {"include_cluster_authorized_operations": include_cluster_authorized_operations}
    if v >= 1:
        body["endpoint_type"] = 1
    if v >= 2:
        body["include_fenced_brokers"] = False
    return body


def alter_configs(v: int, resources: Iterable[tuple[str, object]], *,
                  resource_type: int = ConfigResourceType.TOPIC, validate_only: bool = False) -> dict:
    """``resources``: ``(name, {k: v} or [(k, v), ...])``; the whole config is replaced.
    Same fields at every version 0-2 (AlterConfigsRequest.json)."""
    return {"resources": [{"resource_type": resource_type, "resource_name": n,
                           "configs": [{"name": k, "value": val} for k, val in _pairs(configs)]}
                          for n, configs in resources], "validate_only": validate_only}


def incremental_alter_configs(v: int, resources: Iterable[tuple[str, Iterable[tuple[str, int, str | None]]]], *,
                              resource_type: int = ConfigResourceType.TOPIC,
                              validate_only: bool = False) -> dict:
    """``resources``: ``(name, [(key, AlterConfigOp, value), ...])`` (KIP-339). Same fields
    at v0 and v1, v1 is flexible (IncrementalAlterConfigsRequest.json)."""
    return {"resources": [{"resource_type": resource_type, "resource_name": n,
                           "configs": [{"name": k, "config_operation": int(op), "value": val}
                                       for k, op, val in ops]}
                          for n, ops in resources], "validate_only": validate_only}


# -- data APIs S1 uses to move and observe logs (appended for conformance/stateful.py) ---

def produce(v: int, records: Iterable[tuple[str, Iterable[tuple[int, bytes]]]], *, acks: int = -1,
            timeout_ms: int = TIMEOUT_MS, transactional_id: str | None = None) -> dict:
    """``records``: ``(topic, [(partition, record batch bytes), ...])``. ``transactional_id``
    from v3; topics by name up to v12, v13 names them by id (ProduceRequest.json)."""
    if v >= 13:
        raise Inexpressible(f"Produce v{v} names topics by id (v13+)")
    body = {"acks": acks, "timeout_ms": timeout_ms,
            "topic_data": [{"name": n, "partition_data": [{"index": p, "records": r} for p, r in parts]}
                           for n, parts in records]}
    if v >= 3:
        body["transactional_id"] = transactional_id
    return body


def init_producer_id(v: int, *, transactional_id: str | None = None, transaction_timeout_ms: int = -1) -> dict:
    """A producer id and epoch for a new producer: ``transactional_id`` None asks for an
    idempotent (non-transactional) producer's. ``producer_id``/``producer_epoch`` -1 (a new
    producer, not one resuming) from v3; ``enable2_pc``/``keep_prepared_txn`` false from v6
    (InitProducerIdRequest.json)."""
    body = {"transactional_id": transactional_id, "transaction_timeout_ms": transaction_timeout_ms}
    if v >= 3:
        body.update(producer_id=-1, producer_epoch=-1)
    if v >= 6:
        body.update(enable2_pc=False, keep_prepared_txn=False)
    return body


def add_partitions_to_txn(v: int, transactional_id: str, producer_id: int, producer_epoch: int,
                          partitions: Iterable[tuple[str, Iterable[int]]]) -> dict:
    """A transactional producer adds ``partitions`` (``(topic, [index, ...])``) to its open
    transaction. Versions 0-3 are the client's (one transaction, ``V3AndBelow*`` fields); 4+
    batch transactions for brokers verifying a partition (AddPartitionsToTxnRequest.json)."""
    if v >= 4:
        raise Inexpressible(f"AddPartitionsToTxn v{v} is the brokers' batched form (v4+)")
    return {"v3_and_below_transactional_id": transactional_id, "v3_and_below_producer_id": producer_id,
            "v3_and_below_producer_epoch": producer_epoch,
            "v3_and_below_topics": [{"name": n, "partitions": list(ps)} for n, ps in partitions]}


def end_txn(v: int, transactional_id: str, producer_id: int, producer_epoch: int, committed: bool) -> dict:
    """Commit (``committed``) or abort the producer's open transaction; the same fields at
    every version 0-5 (EndTxnRequest.json)."""
    return {"transactional_id": transactional_id, "producer_id": producer_id, "producer_epoch": producer_epoch,
            "committed": committed}


def list_transactions(v: int, states: Iterable[str] = (), producer_ids: Iterable[int] = (),
                      duration_ms: int = -1, pattern: str | None = None) -> dict:
    """The coordinator's transactions matching every filter given (an empty one: all):
    ``states`` and ``producer_ids`` from v0, ``duration_ms`` (-1: any) from v1 (KIP-994),
    ``pattern`` (None: any) from v2 (KIP-1152) (ListTransactionsRequest.json); a filter the
    version cannot carry is Inexpressible."""
    if duration_ms != -1 and v < 1:
        raise Inexpressible(f"ListTransactions v{v} has no DurationFilter (v1+)")
    if pattern is not None and v < 2:
        raise Inexpressible(f"ListTransactions v{v} has no TransactionalIdPattern (v2+)")
    body = {"state_filters": list(states), "producer_id_filters": list(producer_ids)}
    if v >= 1:
        body["duration_filter"] = duration_ms
    if v >= 2:
        body["transactional_id_pattern"] = pattern
    return body


def describe_transactions(v: int, transactional_ids: Iterable[str]) -> dict:
    """The state of each transaction named (DescribeTransactionsRequest.json, v0 only)."""
    return {"transactional_ids": list(transactional_ids)}


def describe_producers(v: int, partitions: Iterable[tuple[str, Iterable[int]]]) -> dict:
    """The active producers of every partition in ``partitions`` (``(topic, [index, ...])``),
    DescribeProducersRequest.json (v0 only)."""
    return {"topics": [{"name": n, "partition_indexes": list(ps)} for n, ps in partitions]}


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


def list_partition_reassignments(v: int, partitions: Iterable[tuple[str, Iterable[int]]] | None, *,
                                 timeout_ms: int = TIMEOUT_MS) -> dict:
    """The ongoing reassignments of ``partitions`` (``(topic, [index, ...])``), None: every one
    (ListPartitionReassignmentsRequest.json, v0 only)."""
    topics = None if partitions is None else [{"name": n, "partition_indexes": list(ps)} for n, ps in partitions]
    return {"timeout_ms": timeout_ms, "topics": topics}


#: ElectLeadersRequest.json's election types (v1+; v0 elects the preferred replica)
PREFERRED, UNCLEAN = 0, 1


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


def list_offsets(v: int, partitions: Iterable[tuple[str, Iterable[int]]], timestamp: int, *,
                 isolation_level: int = 0, timeout_ms: int = TIMEOUT_MS) -> dict:
    """The offset at ``timestamp`` (an ``OffsetSpec``: LATEST, EARLIEST) of every partition
    in ``partitions`` (``(topic, [index, ...])``), as a consumer (replica -1).
    ``isolation_level`` from v2, ``current_leader_epoch`` (-1: unknown) from v4,
    ``max_num_offsets`` at v0 only, ``timeout_ms`` from v10 (ListOffsetsRequest.json)."""
    def part(p):
        entry = {"partition_index": p, "timestamp": int(timestamp)}
        if v >= 4:
            entry["current_leader_epoch"] = -1
        if v == 0:
            entry["max_num_offsets"] = 1
        return entry
    body = {"replica_id": -1, "topics": [{"name": n, "partitions": [part(p) for p in ps]} for n, ps in partitions]}
    if v >= 2:
        body["isolation_level"] = isolation_level
    if v >= 10:
        body["timeout_ms"] = timeout_ms
    return body


# -- ACLs (preset=acl: the restricted principal's permissions, KIP-140) -------------------

class AclResourceType(IntEnum):
    """apache/kafka clients/src/main/java/org/apache/kafka/common/resource/ResourceType.java"""
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7             #: from CreateAcls/DescribeAcls/DeleteAcls v3 ("Version 3 adds user resource type")


class AclPatternType(IntEnum):
    """apache/kafka clients/src/main/java/org/apache/kafka/common/resource/PatternType.java"""
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4


class AclOperation(IntEnum):
    """apache/kafka clients/src/main/java/org/apache/kafka/common/acl/AclOperation.java"""
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14
    TWO_PHASE_COMMIT = 15


class AclPermission(IntEnum):
    """apache/kafka clients/src/main/java/org/apache/kafka/common/acl/AclPermissionType.java"""
    ANY = 1
    DENY = 2
    ALLOW = 3


#: the fields of an ACL, in the order of the ACL tuples the suite builds (reference/acl_rules.py
#: ``Acl``), as a CreateAcls creation names them and as a DescribeAcls / DeleteAcls filter does
#: (CreateAclsRequest.json, DescribeAclsRequest.json, DeleteAclsRequest.json; the pattern
#: type from v1)
ACL_CREATION_FIELDS = ("resource_type", "resource_name", "resource_pattern_type", "principal", "host",
                       "operation", "permission_type")
ACL_FILTER_FIELDS = ("resource_type_filter", "resource_name_filter", "pattern_type_filter", "principal_filter",
                     "host_filter", "operation", "permission_type")


def acl_entry(v: int, acl: Sequence, *, filter_: bool) -> dict:
    """One ACL ``(resource_type, name, pattern_type, principal, host, operation, permission)``
    as a creation or as a filter at version ``v``; v0 has no pattern type (LITERAL)."""
    fields = ACL_FILTER_FIELDS if filter_ else ACL_CREATION_FIELDS
    return {k: x for i, (k, x) in enumerate(zip(fields, acl)) if i != 2 or v >= 1}


def _acl(v: int, principal: str, topic: str, operation: int, *, filter_: bool) -> dict:
    """One topic ACL (LITERAL, any host, ALLOW) as a creation or as a filter (v1+ carry the
    pattern type; CreateAclsRequest.json / DeleteAclsRequest.json)."""
    return acl_entry(v, (AclResourceType.TOPIC, topic, AclPatternType.LITERAL, principal, "*", operation,
                         AclPermission.ALLOW), filter_=filter_)


def create_acls(v: int, principal: str, grants: Iterable[tuple[str, int]]) -> dict:
    """Allow ``principal`` each ``(topic, AclOperation)`` of ``grants`` (literal topic names)."""
    return {"creations": [_acl(v, principal, t, op, filter_=False) for t, op in grants]}


def delete_acls(v: int, principal: str, grants: Iterable[tuple[str, int]]) -> dict:
    """Remove exactly the ACLs :func:`create_acls` made for ``grants`` (one filter each)."""
    return {"filters": [_acl(v, principal, t, op, filter_=True) for t, op in grants]}


def describe_acls(v: int, principal: str, topic: str | None = None) -> dict:
    """Every topic ACL of ``principal`` (on ``topic`` only, when given)."""
    body = {"resource_type_filter": AclResourceType.TOPIC, "resource_name_filter": topic,
            "principal_filter": principal, "host_filter": None, "operation": AclOperation.ANY,
            "permission_type": AclPermission.ANY}
    if v >= 1:
        body["pattern_type_filter"] = AclPatternType.LITERAL if topic else AclPatternType.ANY
    return body


def create_acl_bindings(v: int, bindings: Iterable[Sequence]) -> dict:
    """CreateAcls of ``bindings`` (ACL tuples, :func:`acl_entry`)."""
    return {"creations": [acl_entry(v, b, filter_=False) for b in bindings]}


def delete_acl_filters(v: int, filters: Iterable[Sequence]) -> dict:
    """DeleteAcls of ``filters`` (ACL tuples with None for "any" name, principal, host)."""
    return {"filters": [acl_entry(v, f, filter_=True) for f in filters]}


def describe_acl_filter(v: int, acl_filter: Sequence) -> dict:
    """DescribeAcls of one filter (an ACL tuple, :func:`acl_entry`)."""
    return acl_entry(v, acl_filter, filter_=True)


def describe_all_acls(v: int) -> dict:
    """Every ACL (DescribeAcls with every filter field "any")."""
    body = {"resource_type_filter": AclResourceType.ANY, "resource_name_filter": None, "principal_filter": None,
            "host_filter": None, "operation": AclOperation.ANY, "permission_type": AclPermission.ANY}
    if v >= 1:
        body["pattern_type_filter"] = AclPatternType.ANY
    return body


def delete_exact_acls(v: int, bindings: Iterable[dict]) -> dict:
    """Remove exactly the ACLs ``bindings`` (entries of a DescribeAcls answer, flattened:
    ``resource_type``, ``resource_name``, ``pattern_type``, ``principal``, ``host``,
    ``operation``, ``permission_type``), one filter each."""
    def one(b):
        f = {"resource_type_filter": b["resource_type"], "resource_name_filter": b["resource_name"],
             "principal_filter": b["principal"], "host_filter": b["host"], "operation": b["operation"],
             "permission_type": b["permission_type"]}
        if v >= 1:
            f["pattern_type_filter"] = b.get("pattern_type", AclPatternType.LITERAL)
        return f
    return {"filters": [one(b) for b in bindings]}


# -- groups, quotas, SCRAM credentials, delegation tokens (the external-cluster clean-up) ---

def find_coordinator(v: int, key: str, key_type: int = 0) -> dict:
    """The coordinator of group ``key`` (``key_type`` 0) or transaction ``key`` (1): one key
    until v3, ``coordinator_keys`` from v4 (FindCoordinatorRequest.json)."""
    if v >= 4:
        return {"key_type": key_type, "coordinator_keys": [key]}
    return {"key": key, **({"key_type": key_type} if v >= 1 else {})}


def list_groups(v: int) -> dict:
    """Every group, of every state and type (filters from v4 and v5: ListGroupsRequest.json)."""
    body = {}
    if v >= 4:
        body["states_filter"] = []
    if v >= 5:
        body["types_filter"] = []
    return body


def delete_groups(v: int, names: Sequence[str]) -> dict:
    """Same fields at every version 0-3 (DeleteGroupsRequest.json)."""
    return {"groups_names": list(names)}


def describe_groups(v: int, names: Sequence[str]) -> dict:
    """The groups ``names``; authorized operations (v3+) not asked for (DescribeGroupsRequest.json)."""
    body = {"groups": list(names)}
    if v >= 3:
        body["include_authorized_operations"] = False
    return body


#: a committed offset: ``(partition, offset, metadata)``
Commit = tuple[int, int, str]


def _offsets_topic(api: str, v: int, name: str, ids: Mapping[str, uuid.UUID] | None) -> dict:
    """How OffsetCommit and OffsetFetch name a topic: by name until v9, by id from v10 (``ids``
    gives each topic's id)."""
    if v < 10:
        return {"name": name}
    if not ids or name not in ids:
        raise Inexpressible(f"{api} v{v} names topics by id (v10+); no id for {name!r}")
    return {"topic_id": ids[name]}


def offset_commit(v: int, group: str, offsets: Iterable[tuple[str, Iterable[Commit]]], *,
                  ids: Mapping[str, uuid.UUID] | None = None) -> dict:
    """Commit ``offsets`` (``(topic, [(partition, offset, metadata), ...])``) for ``group``
    as the Admin client's ``alterConsumerGroupOffsets`` does: a simple group, no member
    (generation -1, member id ""), no instance id (v7+), no leader epoch (-1, v6+), the
    broker's retention (-1, v2-v4). Topics by name until v9, by id from v10 (``ids``
    gives each topic's id; OffsetCommitRequest.json)."""
    def topic(name, parts):
        return {**_offsets_topic("OffsetCommit", v, name, ids),
                "partitions": [{"partition_index": p, "committed_offset": o, "committed_metadata": m,
                                **({"committed_leader_epoch": -1} if v >= 6 else {})} for p, o, m in parts]}
    body = {"group_id": group, "generation_id_or_member_epoch": -1, "member_id": "",
            "topics": [topic(n, ps) for n, ps in offsets]}
    if v >= 7:
        body["group_instance_id"] = None
    if 2 <= v <= 4:
        body["retention_time_ms"] = -1
    return body


def offset_fetch(v: int, group: str, topics: Iterable[tuple[str, Iterable[int]]] | None, *,
                 ids: Mapping[str, uuid.UUID] | None = None) -> dict:
    """The committed offsets of ``group`` for ``topics`` (``(topic, [partition, ...])``;
    None: every topic, v2+), as the Admin client's ``listConsumerGroupOffsets`` does: one
    group until v7, a ``groups`` list from v8 (no member, epoch -1, v9+), topics by id from
    v10 (``ids``), ``require_stable`` from v7 (OffsetFetchRequest.json)."""
    def topic(name, parts):
        return {**_offsets_topic("OffsetFetch", v, name, ids), "partition_indexes": list(parts)}
    if topics is None and v < 2:
        raise Inexpressible(f"OffsetFetch v{v}: every topic (a null topic list) from v2")
    listed = None if topics is None else [topic(n, ps) for n, ps in topics]
    if v >= 8:
        group_entry = {"group_id": group, "topics": listed}
        if v >= 9:
            group_entry.update(member_id=None, member_epoch=-1)
        return {"groups": [group_entry], "require_stable": False}
    body = {"group_id": group, "topics": listed}
    if v >= 7:
        body["require_stable"] = False
    return body


def offset_delete(v: int, group: str, partitions: Iterable[tuple[str, Iterable[int]]]) -> dict:
    """Delete ``group``'s committed offsets of ``partitions`` (``(topic, [partition, ...])``;
    OffsetDeleteRequest.json)."""
    return {"group_id": group, "topics": [{"name": n, "partitions": [{"partition_index": p} for p in ps]}
                                          for n, ps in partitions]}


# -- a classic group member (JoinGroup, SyncGroup, LeaveGroup), as a consumer -------------

def consumer_subscription(topics: Sequence[str]) -> bytes:
    """A consumer's subscription as the classic protocol carries it (JoinGroup protocol
    metadata): ConsumerProtocolSubscription v0, the topics and no user data
    (clients/src/main/resources/common/message/ConsumerProtocolSubscription.json)."""
    out = struct.pack(">hi", 0, len(topics))
    for t in topics:
        raw = t.encode()
        out += struct.pack(">h", len(raw)) + raw
    return out + struct.pack(">i", -1)


def join_group(v: int, group: str, member_id: str, subscription: bytes, *, session_timeout_ms: int = 30000,
               rebalance_timeout_ms: int = 30000, assignor: str = "range", instance_id: str | None = None) -> dict:
    """Join ``group`` as a consumer (protocol type "consumer", one assignor) with
    ``subscription`` (consumer_subscription); a static member with ``instance_id`` (v5+,
    KIP-345), no reason (v8+) (JoinGroupRequest.json)."""
    body = {"group_id": group, "session_timeout_ms": session_timeout_ms, "member_id": member_id,
            "protocol_type": "consumer", "protocols": [{"name": assignor, "metadata": subscription}]}
    if v >= 1:
        body["rebalance_timeout_ms"] = rebalance_timeout_ms
    if v >= 5:
        body["group_instance_id"] = instance_id
    elif instance_id is not None:
        raise Inexpressible(f"JoinGroup v{v}: a static member (group_instance_id) from v5")
    if v >= 8:
        body["reason"] = None
    return body


def sync_group(v: int, group: str, generation: int, member_id: str, assignments: Mapping[str, bytes], *,
               assignor: str = "range") -> dict:
    """SyncGroup of a consumer (the leader gives ``assignments``, a follower none); the
    protocol type and name from v5 (SyncGroupRequest.json)."""
    body = {"group_id": group, "generation_id": generation, "member_id": member_id,
            "assignments": [{"member_id": m, "assignment": a} for m, a in assignments.items()]}
    if v >= 3:
        body["group_instance_id"] = None
    if v >= 5:
        body.update(protocol_type="consumer", protocol_name=assignor)
    return body


def leave_group(v: int, group: str, member_id: str, instance_id: str | None = None) -> dict:
    """``member_id`` (or the static member ``instance_id``, member id "", v3+) leaves
    ``group``: one member until v2, a ``members`` list from v3 (LeaveGroupRequest.json)."""
    if v < 3:
        return {"group_id": group, "member_id": member_id}
    member = {"member_id": member_id, "group_instance_id": instance_id}
    if v >= 5:
        member["reason"] = None
    return {"group_id": group, "members": [member]}


# -- a consumer group member (ConsumerGroupHeartbeat, KIP-848), as a consumer -------------

def consumer_group_heartbeat(v: int, group: str, member_id: str, epoch: int, *, topics: Sequence[str] | None = None,
                             rebalance_timeout_ms: int = -1) -> dict:
    """A consumer's ConsumerGroupHeartbeat (ConsumerGroupHeartbeatRequest.json): with
    ``topics`` a join (member epoch 0: the subscribed topic names, the rebalance timeout,
    no partition owned yet), without them a heartbeat that changes nothing (epoch -1: the
    member leaves). The member id is the consumer's own (generated by the client from v1;
    at v0 it may be given too); no instance id, rack, regex or server assignor (the
    coordinator's default)."""
    body = {"group_id": group, "member_id": member_id, "member_epoch": epoch, "instance_id": None, "rack_id": None,
            "rebalance_timeout_ms": rebalance_timeout_ms,
            "subscribed_topic_names": list(topics) if topics is not None else None,
            "server_assignor": None, "topic_partitions": [] if topics is not None else None}
    if v >= 1:
        body["subscribed_topic_regex"] = None
    return body


def consumer_group_describe(v: int, groups: Sequence[str]) -> dict:
    """Describe ``groups`` as consumer groups, without authorized operations
    (ConsumerGroupDescribeRequest.json)."""
    return {"group_ids": list(groups), "include_authorized_operations": False}


def describe_client_quotas(v: int) -> dict:
    """Every client quota entity (no component: match anything, not strictly)."""
    return {"components": [], "strict": False}


def remove_client_quotas(v: int, entries: Iterable[tuple[list[dict], Iterable[str]]]) -> dict:
    """``entries``: ``(entity, quota keys)``, the entity as DescribeClientQuotas answers it
    (``[{"entity_type", "entity_name"}]``); every key removed."""
    return {"entries": [{"entity": entity, "ops": [{"key": k, "value": 0.0, "remove": True} for k in keys]}
                        for entity, keys in entries], "validate_only": False}


def describe_scram_users(v: int) -> dict:
    """Every user's SCRAM credentials (a null user list)."""
    return {"users": None}


def delete_scram_credentials(v: int, credentials: Iterable[tuple[str, int]]) -> dict:
    """``credentials``: ``(user, mechanism)`` to delete."""
    return {"deletions": [{"name": u, "mechanism": m} for u, m in credentials], "upsertions": []}


# -- features (KIP-584) --------------------------------------------------------------------

#: ApiVersionsRequest.json v3+: who is asking (KIP-511)
CLIENT_SOFTWARE = {"client_software_name": "kafka-admin-conformance", "client_software_version": "0.1.0"}


def api_versions(v: int) -> dict:
    """ApiVersions; from v3 it says the client software (KIP-511)."""
    return dict(CLIENT_SOFTWARE) if v >= 3 else {}


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


# -- client quotas (catalogue Q: conformance/test_client_quotas.py) ---------------------------

def alter_client_quotas(v: int, entries, validate_only: bool = False) -> dict:
    """``entries``: ``(entity, ops)``, the entity as ``((type, name), ...)``, each op
    ``(key, value)`` with value None for a removal (AlterClientQuotasRequest.json: same
    fields at v0 and v1)."""
    return {"entries": [{"entity": [{"entity_type": t, "entity_name": n} for t, n in entity],
                         "ops": [{"key": k, "value": 0.0 if x is None else float(x), "remove": x is None}
                                 for k, x in ops]}
                        for entity, ops in entries], "validate_only": validate_only}


def describe_client_quota_filter(v: int, components, strict: bool) -> dict:
    """``components``: ``(entity type, match type, match)`` (DescribeClientQuotasRequest.json:
    0 exact name, 1 default, 2 any specified name)."""
    return {"components": [{"entity_type": t, "match_type": m, "match": x} for t, m, x in components],
            "strict": strict}
# -- SCRAM credentials (conformance/test_scram_credentials.py) ---------------------------

def describe_scram_credentials(v: int, users: Iterable[str]) -> dict:
    """DescribeUserScramCredentials of the named ``users`` (in order, repeats kept)."""
    return {"users": [{"name": u} for u in users]}


def alter_scram_credentials(v: int, deletions: Iterable = (), upsertions: Iterable = ()) -> dict:
    """AlterUserScramCredentials: ``deletions`` ``(name, mechanism)``, ``upsertions``
    ``(name, mechanism, iterations, salt, salted_password)`` (reference/scram_rules.py's
    Deletion / Upsertion), in order, repeats kept."""
    return {"deletions": [{"name": d[0], "mechanism": d[1]} for d in deletions],
            "upsertions": [{"name": u[0], "mechanism": u[1], "iterations": u[2], "salt": bytes(u[3]),
                            "salted_password": bytes(u[4])} for u in upsertions]}


# -- delegation tokens (KIP-48, KIP-373) ------------------------------------------------------


def create_delegation_token(v: int, renewers: Iterable[tuple[str, str]] = (), max_lifetime_ms: int = -1,
                            owner: tuple[str, str] | None = None) -> dict:
    """A token for ``owner`` (``(principal type, name)``, from v3; None: the requester) that
    ``renewers`` (``(type, name)`` each) may renew; ``max_lifetime_ms`` -1: the broker's
    default (CreateDelegationTokenRequest.json)."""
    body = {"renewers": [{"principal_type": t, "principal_name": n} for t, n in renewers],
            "max_lifetime_ms": int(max_lifetime_ms)}
    if v >= 3:
        body["owner_principal_type"], body["owner_principal_name"] = owner if owner else (None, None)
    return body


def describe_delegation_token(v: int, owners: Iterable[tuple[str, str]] | None = None) -> dict:
    """The tokens owned or renewable by ``owners`` (``(type, name)`` each; None: every token
    the requester may describe) (DescribeDelegationTokenRequest.json)."""
    return {"owners": None if owners is None else [{"principal_type": t, "principal_name": n} for t, n in owners]}


def renew_delegation_token(v: int, hmac: bytes, renew_period_ms: int = -1) -> dict:
    """Renew the token whose HMAC is ``hmac`` by ``renew_period_ms`` (-1: the broker's
    default) (RenewDelegationTokenRequest.json)."""
    return {"hmac": bytes(hmac), "renew_period_ms": int(renew_period_ms)}


def expire_delegation_token(v: int, hmac: bytes, expiry_time_period_ms: int = -1) -> dict:
    """Expire the token whose HMAC is ``hmac`` in ``expiry_time_period_ms`` (< 0: now)
    (ExpireDelegationTokenRequest.json)."""
    return {"hmac": bytes(hmac), "expiry_time_period_ms": int(expiry_time_period_ms)}


# -- share and streams groups (KIP-932, KIP-1071) -----------------------------------------


def share_group_describe(v: int, names: Sequence[str]) -> dict:
    """The groups ``names``, authorized operations not asked for (ShareGroupDescribeRequest.json)."""
    return {"group_ids": list(names), "include_authorized_operations": False}


def streams_group_describe(v: int, names: Sequence[str]) -> dict:
    """The groups ``names``, no authorized operations nor (v1+) topology description
    (StreamsGroupDescribeRequest.json)."""
    body = {"group_ids": list(names), "include_authorized_operations": False}
    if v >= 1:
        body["include_topology_description"] = False
    return body


def describe_share_group_offsets(v: int, group: str, topics: Iterable[tuple[str, Iterable[int]]] | None) -> dict:
    """One group's start offsets of ``topics`` ((name, partitions)), or all with None
    (DescribeShareGroupOffsetsRequest.json)."""
    asked = None if topics is None else [{"topic_name": t, "partitions": list(ps)} for t, ps in topics]
    return {"groups": [{"group_id": group, "topics": asked}]}


def alter_share_group_offsets(v: int, group: str, offsets: Iterable[tuple[str, Iterable[tuple[int, int]]]]) -> dict:
    """Set ``group``'s start offsets: (topic, [(partition, start offset)])
    (AlterShareGroupOffsetsRequest.json)."""
    return {"group_id": group, "topics": [
        {"topic_name": t, "partitions": [{"partition_index": p, "start_offset": o} for p, o in ps]}
        for t, ps in offsets]}


def delete_share_group_offsets(v: int, group: str, topics: Sequence[str]) -> dict:
    """Delete ``group``'s offsets of ``topics`` (DeleteShareGroupOffsetsRequest.json)."""
    return {"group_id": group, "topics": [{"topic_name": t} for t in topics]}


def share_group_heartbeat(v: int, group: str, member: str, epoch: int, topics: Sequence[str] | None) -> dict:
    """A share consumer's heartbeat: epoch 0 joins with ``topics``, -1 leaves (topics None)
    (ShareGroupHeartbeatRequest.json)."""
    return {"group_id": group, "member_id": member, "member_epoch": epoch, "rack_id": None,
            "subscribed_topic_names": None if topics is None else list(topics)}
