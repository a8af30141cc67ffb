"""The APIs the suite speaks as a participant, not as an administrator: a producer (Produce,
InitProducerId, AddPartitionsToTxn, EndTxn), a consumer (Fetch), a group member (JoinGroup,
SyncGroup, LeaveGroup, ConsumerGroupHeartbeat, ShareGroupHeartbeat) and a client
authenticating (SaslHandshake, SaslAuthenticate): their declarations and request builders.

The properties use them to make the state an admin API then describes: records to delete, an
idempotent producer for DescribeProducers to list, a transaction to describe, members of a
classic, consumer or share group (``Role``, ``protocol/declaring.py``). None is an admin API,
so none has error-code rows or generated bodies.
"""
from __future__ import annotations

import struct
from typing import Iterable, Mapping, Sequence

from ..building import TIMEOUT_MS, Inexpressible, builds
from ..declaring import DATA, SETUP, ApiKey, ApiSpec, Family, from_kafka_clients

DECLARATIONS = (
    ApiSpec(ApiKey.Produce, DATA, mutates="appends records", identity={
        "responses.partition_responses": ("index",), "responses.partition_responses.record_errors": ("batch_index",)}),
    ApiSpec(ApiKey.Fetch, DATA, identity={
        "responses": ("topic", "topic_id"), "responses.partitions": ("partition_index",),
        "responses.partitions.aborted_transactions": ("producer_id", "first_offset")}),
    ApiSpec(ApiKey.InitProducerId, DATA, mutates="allocates a producer id (an idempotent producer's, for "
                                                 "DescribeProducers to list; a transactional one's)"),
    ApiSpec(ApiKey.AddPartitionsToTxn, DATA, mutates="adds partitions to a transaction"),
    ApiSpec(ApiKey.EndTxn, DATA, mutates="commits or aborts a transaction"),
    ApiSpec(ApiKey.JoinGroup, DATA, mutates="joins a group (making it if it does not exist)",
            identity={"members": ("member_id",)}),
    ApiSpec(ApiKey.LeaveGroup, DATA, mutates="removes a group member",
            identity={"members": ("member_id", "group_instance_id")}),
    ApiSpec(ApiKey.SyncGroup, DATA),
    ApiSpec(ApiKey.SaslHandshake, SETUP),
    ApiSpec(ApiKey.SaslAuthenticate, SETUP),
    ApiSpec(ApiKey.ConsumerGroupHeartbeat, DATA, mutates="joins or leaves a consumer group (making it if it does "
            "not exist, KIP-848)", schemas=from_kafka_clients("ConsumerGroupHeartbeat"),
            identity={"assignment.topic_partitions": ("topic_id",)}),
    ApiSpec(ApiKey.ShareGroupHeartbeat, DATA, mutates="joins or leaves a share group as a member",
            schemas=from_kafka_clients("ShareGroupHeartbeat"), identity={"assignment.topic_partitions": ("topic_id",)}),
)


# -- a producer ------------------------------------------------------------------------------

@builds(ApiKey.Produce)
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


@builds(ApiKey.InitProducerId)
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


@builds(ApiKey.AddPartitionsToTxn)
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


@builds(ApiKey.EndTxn)
def end_txn(v: int, transactional_id: str, producer_id: int, producer_epoch: int, committed: bool) -> dict:
    """Commit (``committed``) or abort the producer's open transaction; the same fields at
    every version 0-5 (EndTxnRequest.json)."""
    return {"transactional_id": transactional_id, "producer_id": producer_id, "producer_epoch": producer_epoch,
            "committed": committed}


# -- a classic group member (JoinGroup, SyncGroup, LeaveGroup), as a consumer -------------

@builds(ApiKey.JoinGroup)
def consumer_subscription(topics: Sequence[str]) -> bytes:
    """A consumer's subscription as the classic protocol carries it (JoinGroup protocol
    metadata): ConsumerProtocolSubscription v0, the topics and no user data
    (clients/src/main/resources/common/message/ConsumerProtocolSubscription.json)."""
    out = struct.pack(">hi", 0, len(topics))
    for t in topics:
        raw = t.encode()
        out += struct.pack(">h", len(raw)) + raw
    return out + struct.pack(">i", -1)


@builds(ApiKey.JoinGroup)
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


@builds(ApiKey.SyncGroup)
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


@builds(ApiKey.LeaveGroup)
def leave_group(v: int, group: str, member_id: str, instance_id: str | None = None) -> dict:
    """``member_id`` (or the static member ``instance_id``, member id "", v3+) leaves
    ``group``: one member until v2, a ``members`` list from v3 (LeaveGroupRequest.json)."""
    if v < 3:
        return {"group_id": group, "member_id": member_id}
    member = {"member_id": member_id, "group_instance_id": instance_id}
    if v >= 5:
        member["reason"] = None
    return {"group_id": group, "members": [member]}


# -- a consumer or share group member (KIP-848, KIP-932) ---------------------------------------

@builds(ApiKey.ConsumerGroupHeartbeat)
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


@builds(ApiKey.ShareGroupHeartbeat)
def share_group_heartbeat(v: int, group: str, member: str, epoch: int, topics: Sequence[str] | None) -> dict:
    """A share consumer's heartbeat: epoch 0 joins with ``topics``, -1 leaves (topics None)
    (ShareGroupHeartbeatRequest.json)."""
    return {"group_id": group, "member_id": member, "member_epoch": epoch, "rack_id": None,
            "subscribed_topic_names": None if topics is None else list(topics)}


FAMILY = Family("participants: producers, consumers, group members, SASL", __name__, DECLARATIONS)
