"""E1-E4: partition reassignments (AlterPartitionReassignments, API 45, and
ListPartitionReassignments, API 46; KIP-455) and leader elections (ElectLeaders, API 43;
KIP-460), as the KRaft controller answers them.

The letter E: what the Admin client's ``alterPartitionReassignments`` and ``electLeaders`` ask
of the controller. Each example creates a fresh run-prefixed topic and reads, from Metadata,
its partitions' replicas and the registered brokers; the requests name only that topic and
one that does not exist (``check.topic``). The broker forwards all three APIs to the
controller (``ControllerApis``), whose ``ReplicationControlManager`` answers each partition
on its own:

* ``alterPartitionReassignment``: an unknown topic or partition, UNKNOWN_TOPIC_OR_PARTITION;
  null replicas cancel (``cancelPartitionReassignment``: none in progress,
  NO_REASSIGNMENT_IN_PROGRESS); a target list goes through
  ``validateManualPartitionAssignment`` (empty, a broker id no broker registered, a broker
  twice: INVALID_REPLICA_ASSIGNMENT), then ``changePartitionReassignment`` (a target that only
  reorders the replicas completes at once). A refused partition adds no record, so the
  others' records are applied alone (``ControllerResult.atomicOf`` of the accepted ones);
* ``listPartitionReassignments``: only partitions with adding or removing replicas;
* ``electLeader``: unknown, UNKNOWN_TOPIC_OR_PARTITION; PREFERRED where the preferred
  replica leads, or UNCLEAN where the partition has a leader, ELECTION_NOT_NEEDED; with null
  topic partitions (every partition) ``electLeaders`` leaves out the partitions whose
  election is not needed; a PREFERRED election where the first replica is in the ISR but does
  not lead answers NONE and makes it leader (``PartitionChangeBuilder.electPreferredLeader``).

E1-E3 ask what one broker can answer (on one node every valid target is the partition's own
replica); E2 moves replicas and E4 (two replicas a partition: ``kafka:VERSION,nodes=3``;
unsupported on fewer than two brokers) reorders them so that the preferred replica does not
lead. E4 asks only the controller and Metadata, so it does not wait for the partitions' logs
(through the fault proxy, which fronts one node of a cluster, ListOffsets reaches no leader).

Sources: KIP-455 "Create an Administrative API for Replica Reassignment"; KIP-460 "Admin
Leader Election RPC"; apache/kafka ``AlterPartitionReassignmentsRequest.json``,
``ListPartitionReassignmentsRequest.json``, ``ElectLeadersRequest.json`` and their responses,
``core/src/main/scala/kafka/server/ControllerApis.scala``,
``metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java``,
``metadata/src/main/java/org/apache/kafka/metadata/placement/PartitionAssignment.java`` and
``metadata/src/main/java/org/apache/kafka/controller/PartitionReassignmentReplicas.java``.
"""
from __future__ import annotations

import pytest

from fixtures.admin import Admin
from fixtures.harness import Unsupported, expect_setup
from protocol import ApiKey, Errors, schema_facts
from protocol import requests as build
from strategies import reassignments as gen

from .parametrize import every_version
from protocol.kafka_sources import KAFKA as K

MSG = K + "clients/src/main/resources/common/message/"
RCM = K + "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java "
APIS = K + "core/src/main/scala/kafka/server/ControllerApis.scala "
KIP455 = "KIP-455 \"Create an Administrative API for Replica Reassignment\"; "
E1_SOURCE = (KIP455 + MSG + "AlterPartitionReassignmentsRequest.json, AlterPartitionReassignmentsResponse.json, "
             "ListPartitionReassignmentsRequest.json; " + APIS + "handleAlterPartitionReassignments; " + RCM
             + "alterPartitionReassignments (each partition answered alone, its error caught), "
             "alterPartitionReassignment (UNKNOWN_TOPIC_OR_PARTITION), cancelPartitionReassignment "
             "(NO_REASSIGNMENT_IN_PROGRESS), validateManualPartitionAssignment (empty, unregistered or repeated "
             "broker: INVALID_REPLICA_ASSIGNMENT), listPartitionReassignments")
E2_SOURCE = (KIP455 + MSG + "AlterPartitionReassignmentsRequest.json, ListPartitionReassignmentsResponse.json; "
             + RCM + "changePartitionReassignment, listPartitionReassignments; " + K + "metadata/src/main/java/"
             "org/apache/kafka/controller/PartitionReassignmentReplicas.java (a target that only reorders the "
             "replicas adds and removes none: complete at once)")
E3_SOURCE = ("KIP-460 \"Admin Leader Election RPC\"; " + MSG + "ElectLeadersRequest.json (election_type from "
             "v1), ElectLeadersResponse.json (error_code from v1); " + APIS + "handleElectLeaders; " + RCM
             + "electLeaders (null topic partitions: every partition, leaving out ELECTION_NOT_NEEDED), "
             "electLeader (UNKNOWN_TOPIC_OR_PARTITION; PREFERRED with the preferred replica leading or UNCLEAN "
             "with a leader: ELECTION_NOT_NEEDED)")

E4_SOURCE = ("KIP-460 \"Admin Leader Election RPC\"; " + KIP455 + MSG + "ElectLeadersRequest.json; " + RCM
             + "changePartitionReassignment (a reorder: new replicas, the leader kept), electLeader (PREFERRED: "
             "NONE and a record making the first replica leader, ELECTION_NOT_NEEDED once it leads); " + K
             + "metadata/src/main/java/org/apache/kafka/controller/PartitionChangeBuilder.java electPreferredLeader")

#: what E1's asks are answered (ReplicationControlManager.alterPartitionReassignment)
ANSWERS = {"cancel": Errors.NO_REASSIGNMENT_IN_PROGRESS, "unknown": Errors.INVALID_REPLICA_ASSIGNMENT,
           "duplicate": Errors.INVALID_REPLICA_ASSIGNMENT, "empty": Errors.INVALID_REPLICA_ASSIGNMENT,
           "current": Errors.NONE}


#: how long a reassignment that moves a replica (of an empty partition) is given to complete
MOVE_S = 30.0


def placement(admin: Admin, topic: str, partitions: int) -> tuple[dict[int, list[int]], list[int]]:
    """Metadata's replicas of each of ``topic``'s partitions and the registered brokers' ids."""
    v = admin.version(ApiKey.Metadata, at_least=1)
    answer = admin.client.answered(ApiKey.Metadata, v, build.metadata(v, [topic]))
    brokers = [b["node_id"] for b in answer.get("brokers") or []]
    parts = {p["partition_index"]: list(p.get("replica_nodes") or [])
             for t in answer.get("topics") or [] if t.get("name") == topic for p in t.get("partitions") or []}
    expect_setup(sorted(parts) == list(range(partitions)) and all(parts.values()) and bool(brokers),
                 f"setup: Metadata of {topic} lists partitions 0-{partitions - 1}, each with replicas, and the "
                 f"brokers: partitions {parts}, brokers {brokers}")
    return parts, brokers


def asked(check, api_key: int, version: int):
    """Unsupported unless the broker advertises ``api_key`` at ``version`` and
    ListPartitionReassignments; Skip on an external cluster without --allow-destructive.
    Returns ListPartitionReassignments' version and a recording client."""
    check.require(api_key, version)
    list_version = Admin(check).version(ApiKey.ListPartitionReassignments)
    check.require_mutations()
    return list_version, check.client()


def placed(check, hint: str, partitions: int):
    """A fresh topic of ``partitions`` partitions: an Admin, the topic's name, its
    partitions' replicas and the registered brokers (``placement``)."""
    admin = Admin(check)
    topic = check.topic(hint)
    admin.create_topic(topic, partitions=partitions)
    return (admin, topic, *placement(admin, topic, partitions))


def expect_partition(check, topic: str, p: int, code: int, says: str) -> None:
    """AlterPartitionReassignments answers ``topic``-``p`` once, with ``code``."""
    check.expect_field(["responses", {"name": topic}, "partitions", {"partition_index": p}, "error_code"],
                       [code], count=1, says=says)


def election_results(check, api_key: int, version: int, name: str, topic: str) -> list:
    """ElectLeaders answers top-level NONE where the version has the field; returns the path
    of ``topic``'s partition results."""
    if schema_facts.has_field(api_key, version, "error_code", side="response"):
        check.expect_field(["error_code"], [Errors.NONE], count=1, says=f"{name}: top-level NONE")
    return ["replica_election_results", {"topic": topic}, "partition_result"]


def expect_elections(check, results: list, partitions, code: int, says) -> None:
    """ElectLeaders answers each of ``partitions`` once, with ``code`` (``says(p)``)."""
    for p in partitions:
        check.expect_field([*results, {"partition_id": p}, "error_code"], [code], count=1, says=says(p))


def target(ask: str, replicas: list[int], unknown: int) -> list[int] | None:
    """E1's replica list for ``ask`` of a partition on ``replicas``."""
    return {"cancel": None, "unknown": [unknown + i for i in range(len(replicas))],
            "duplicate": [replicas[0], *replicas], "empty": [], "current": list(replicas)}[ask]


def listed_none(check, topic: str, partitions: int, version: int, retry_s: float | None = None) -> None:
    """ListPartitionReassignments of every partition of ``topic`` lists none of them."""
    check.client().answered(ApiKey.ListPartitionReassignments, version,
                            build.list_partition_reassignments(version, [(topic, range(partitions))]))
    check.expect_field(["topics", {"name": topic}, "partitions", "partition_index"], [], count=0, retry_s=retry_s,
                       says=f"ListPartitionReassignments v{version} of {topic}-0..{partitions - 1}: no reassignment "
                            "in progress")


def replicas_are(check, admin: Admin, topic: str, want: dict[int, list[int]], why: str,
                 retry_s: float | None = None) -> None:
    """Metadata lists each partition of ``topic`` with the replicas ``want`` gives it."""
    v = admin.version(ApiKey.Metadata, at_least=1)
    admin.client.answered(ApiKey.Metadata, v, build.metadata(v, [topic]))
    for p, replicas in sorted(want.items()):
        check.expect_field(["topics", {"name": topic}, "partitions", {"partition_index": p}, "replica_nodes"],
                           [replicas], count=1, retry_s=retry_s,
                           says=f"Metadata of {topic}-{p}: replicas {replicas} ({why})")


@pytest.mark.prop("E1", source=E1_SOURCE, judges=(ApiKey.ListPartitionReassignments,))
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.AlterPartitionReassignments]))
def test_e1_a_refused_reassignment_is_answered_alone_and_changes_nothing(check, api_key, version):
    """AlterPartitionReassignments at this version of a fresh topic of 1-5 partitions, each
    asked one of: cancel (null replicas; none in progress), a broker id no broker registered,
    its first replica twice, no replica, or its own replica set; and of partition 0 of a
    topic that does not exist: each partition is answered once and alone:
    NO_REASSIGNMENT_IN_PROGRESS, INVALID_REPLICA_ASSIGNMENT (unknown, duplicate, empty), NONE
    (its own replicas) and UNKNOWN_TOPIC_OR_PARTITION, whatever the others in the batch are
    asked, with top-level NONE. Then ListPartitionReassignments lists none of the topic's
    partitions and Metadata lists each with the replicas it had."""
    list_version, client = asked(check, api_key, version)

    def refused(value):
        asks = value["asks"]
        admin, topic, before, brokers = placed(check, "e1", len(asks))
        unknown = check.topic("e1-none")
        bad = max(brokers) + value["above"]
        targets = [(p, target(ask, before[p], bad)) for p, ask in enumerate(asks)]
        client.answered(api_key, version, build.alter_partition_reassignments(
            version, [(topic, targets), (unknown, [(0, before[0])])]))
        name = f"AlterPartitionReassignments v{version}"
        check.expect_field(["error_code"], [Errors.NONE], count=1, says=f"{name}: top-level NONE")
        for (p, replicas), ask in zip(targets, asks):
            want = ANSWERS[ask]
            expect_partition(check, topic, p, want, f"{name} of {topic}-{p} (replicas {before[p]}) to {replicas} "
                                                    f"({ask}): one result, {want.name}, whatever the batch's "
                                                    "others are asked")
        expect_partition(check, unknown, 0, Errors.UNKNOWN_TOPIC_OR_PARTITION,
                         f"{name} of {unknown}-0 (no such topic): one result, UNKNOWN_TOPIC_OR_PARTITION")
        listed_none(check, topic, len(asks), list_version)
        replicas_are(check, admin, topic, before, "as before: nothing refused moved, a target equal to the "
                                                  "replicas moves nothing")

    check.given(gen.refusals(), refused, first=gen.REFUSALS_FIRST)


@pytest.mark.prop("E2", source=E2_SOURCE, judges=(ApiKey.ListPartitionReassignments,))
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.AlterPartitionReassignments]))
def test_e2_an_accepted_reassignment_completes_to_its_target(check, api_key, version):
    """AlterPartitionReassignments at this version of some of a fresh topic's 1-3 partitions
    (one replica each), each to a drawn list of 1-3 registered brokers (on one broker: its own
    replica): each answers NONE; then, polled, ListPartitionReassignments lists none of the
    topic's partitions (the reassignment completed) and Metadata lists each reassigned
    partition with its target replicas, in order, and every other with its replicas as
    before."""
    list_version, client = asked(check, api_key, version)

    def completes(value):
        moved = value["moved"]
        admin, topic, before, brokers = placed(check, "e2", len(moved))
        brokers = sorted(brokers)
        picked = list(dict.fromkeys(brokers[i % len(brokers)] for i in value["picks"]))
        after = {p: picked if move else before[p] for p, move in enumerate(moved)}
        targets = [(p, picked) for p, move in enumerate(moved) if move]
        client.answered(api_key, version, build.alter_partition_reassignments(version, [(topic, targets)]))
        name = f"AlterPartitionReassignments v{version}"
        for p, replicas in targets:
            expect_partition(check, topic, p, Errors.NONE,
                             f"{name} of {topic}-{p} (replicas {before[p]}) to {replicas}: one result, NONE")
        listed_none(check, topic, len(moved), list_version, retry_s=MOVE_S)
        replicas_are(check, admin, topic, after, "each reassigned partition's target, the others' as before",
                     retry_s=MOVE_S)

    check.given(gen.reassignments(), completes, first=gen.REASSIGNMENTS_FIRST)


@pytest.mark.prop("E3", source=E3_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.ElectLeaders]))
def test_e3_an_election_that_is_not_needed_is_answered_so_partition_by_partition(check, api_key, version):
    """ElectLeaders at this version (v0: preferred; v1+: PREFERRED or UNCLEAN, drawn) of every
    partition of a fresh topic of 1-3 (its preferred replica leads, live), of a partition the
    topic lacks and of partition 0 of a topic that does not exist: each of the topic's
    partitions answers ELECTION_NOT_NEEDED, the missing ones UNKNOWN_TOPIC_OR_PARTITION, each
    once and alone, top-level NONE (v1+). Then ElectLeaders with null topic partitions (every
    partition of the cluster) lists none of the topic's partitions (Kafka leaves out those
    whose election is not needed); other topics are not judged."""
    check.require(api_key, version)
    check.require_mutations()
    client = check.client()

    def not_needed(value):
        admin = Admin(check)
        n = value["partitions"]
        topic, unknown = check.topic("e3"), check.topic("e3-none")
        admin.create_topic(topic, partitions=n)
        election = value["election"] if schema_facts.has_field(api_key, version, "election_type") else build.PREFERRED
        kind = {build.PREFERRED: "PREFERRED", build.UNCLEAN: "UNCLEAN"}[election]
        missing = n + value["beyond"]
        client.answered(api_key, version, build.elect_leaders(version, [(topic, [*range(n), missing]), (unknown, [0])],
                                                              election))
        name = f"ElectLeaders v{version} ({kind})"
        results = election_results(check, api_key, version, name, topic)
        expect_elections(check, results, range(n), Errors.ELECTION_NOT_NEEDED,
                         lambda p: f"{name} of {topic}-{p} (its preferred replica leads, live): one result, "
                                   "ELECTION_NOT_NEEDED")
        expect_elections(check, results, [missing], Errors.UNKNOWN_TOPIC_OR_PARTITION,
                         lambda p: f"{name} of {topic}-{p} (the topic has {n} partition(s)): one result, "
                                   "UNKNOWN_TOPIC_OR_PARTITION")
        check.expect_field(["replica_election_results", {"topic": unknown}, "partition_result", {"partition_id": 0},
                            "error_code"], [Errors.UNKNOWN_TOPIC_OR_PARTITION], count=1,
                           says=f"{name} of {unknown}-0 (no such topic): one result, UNKNOWN_TOPIC_OR_PARTITION")
        client.answered(api_key, version, build.elect_leaders(version, None, election))
        check.expect_field([*results, "partition_id"], [], count=0,
                           says=f"{name} of every partition (null topic partitions): none of {topic}'s, whose "
                                "election is not needed")

    check.given(gen.elections(), not_needed, first=gen.ELECTIONS_FIRST)


@pytest.mark.prop("E4", source=E4_SOURCE)
@pytest.mark.needs_broker("nodes=3")
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.ElectLeaders]))
def test_e4_a_preferred_election_moves_leadership_to_the_first_replica(check, api_key, version):
    """On a cluster of two brokers or more: a fresh topic of 1-2 partitions of two replicas
    [a, b], each reassigned to [b, a] (AlterPartitionReassignments: NONE; a reorder completes
    at once, a still leading); then ElectLeaders at this version (PREFERRED; v0 elects the
    preferred replica) of its partitions answers each NONE once and alone, top-level NONE
    (v1+); Metadata (polled) lists b as each partition's leader; the same ElectLeaders again
    answers each ELECTION_NOT_NEEDED."""
    check.require(api_key, version)
    check.require(ApiKey.AlterPartitionReassignments)
    check.require_mutations()
    admin = Admin(check)
    v = admin.version(ApiKey.Metadata, at_least=1)
    registered = admin.client.answered(ApiKey.Metadata, v, build.metadata(v, [])).get("brokers") or []
    if len(registered) < 2:
        raise Unsupported(f"needs two brokers or more (kafka:VERSION,nodes=3), the cluster has {len(registered)}")
    alter = admin.version(ApiKey.AlterPartitionReassignments)
    client = check.client()

    def elected(n):
        topic = check.topic("e4")
        admin.create_topic(topic, partitions=n, replication_factor=2, logs=False)   # the controller alone
        before, _ = placement(admin, topic, n)
        reversed_ = {p: list(reversed(r)) for p, r in before.items()}
        client.answered(ApiKey.AlterPartitionReassignments, alter, build.alter_partition_reassignments(
            alter, [(topic, sorted(reversed_.items()))]))
        check.expect_field(["responses", {"name": topic}, "partitions", "error_code"], [Errors.NONE], count=n,
                           says=f"AlterPartitionReassignments v{alter} of {topic}'s {n} partition(s) to their "
                                "replicas reversed: NONE each", setup=True)
        replicas_are(check, admin, topic, reversed_, "the reorder completed", retry_s=MOVE_S)
        ask = build.elect_leaders(version, [(topic, range(n))], build.PREFERRED)
        name = f"ElectLeaders v{version} (PREFERRED)"
        client.answered(api_key, version, ask)
        results = election_results(check, api_key, version, name, topic)
        expect_elections(check, results, range(n), Errors.NONE,
                         lambda p: f"{name} of {topic}-{p} (replicas {reversed_[p]}, {before[p][0]} leading): one "
                                   f"result, NONE")
        admin.client.answered(ApiKey.Metadata, v, build.metadata(v, [topic]))
        for p in range(n):
            check.expect_field(["topics", {"name": topic}, "partitions", {"partition_index": p}, "leader_id"],
                               [reversed_[p][0]], count=1, retry_s=MOVE_S,
                               says=f"Metadata of {topic}-{p}: its preferred replica {reversed_[p][0]} leads")
        client.answered(api_key, version, ask)
        expect_elections(check, results, range(n), Errors.ELECTION_NOT_NEEDED,
                         lambda p: f"{name} of {topic}-{p} again: one result, ELECTION_NOT_NEEDED")

    check.given(gen.reorders(), elected, first=gen.REORDERS_FIRST)
