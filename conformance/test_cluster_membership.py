"""M8-M9: who is a member of the cluster, asked without changing it (UnregisterBroker,
RemoveRaftVoter, AddRaftVoter): requests naming a broker id or a voter the cluster lacks, or
a voter it has, answer what Kafka's controller answers and leave the members as they were.

* M8, ``UnregisterBroker`` (KIP-500 "Replace ZooKeeper with a Self-Managed Metadata Quorum";
  KIP-631 "The Quorum-based Kafka Controller"): unregistering a broker id no broker has answers
  BROKER_ID_NOT_REGISTERED and the brokers DescribeCluster lists are unchanged
  (``ReplicationControlManager.unregisterBroker``: "Broker ID ... is not currently
  registered"). A live broker is never unregistered, and an external cluster is never sent it.
* M9, ``RemoveRaftVoter`` and ``AddRaftVoter`` (KIP-853 "KRaft Controller Membership Changes"):
  removing a voter id the quorum lacks, or adding one of its voters again (its own directory
  id, or another), answers what ``KafkaRaftClient`` answers: INVALID_REQUEST for a missing
  directory id, UNSUPPORTED_VERSION while ``kraft.version`` is 0 (a static quorum,
  ``controller.quorum.voters``), else VOTER_NOT_FOUND (``RemoveVoterHandler``) or
  DUPLICATE_VOTER (``AddVoterHandler``); DescribeQuorum's voters are unchanged. No real voter is
  ever removed, and an external cluster is never sent either.
"""
from __future__ import annotations

import uuid

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import Skip, Unsupported
from protocol import ApiKey, Errors, schema_facts
from protocol import requests as build

from .parametrize import every_version
from .test_cluster_description import METADATA_LOG, K

# -- M8: unregistering a broker -------------------------------------------------------------

UNREGISTER_SOURCE = (K + "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java "
                     "(unregisterBroker: BrokerIdNotRegisteredException); " + K + "metadata/src/main/java/org/apache/"
                     "kafka/controller/QuorumController.java (unregisterBroker); " + K + "core/src/main/scala/kafka/"
                     "server/ControllerApis.scala (handleUnregisterBroker)")
#: how far past the highest broker id the ids M8 unregisters lie
UNREGISTERED_FROM = 1000


@pytest.mark.prop("M8", source=UNREGISTER_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.UnregisterBroker,)))
def test_m8_unregistering_a_broker_id_no_broker_has_answers_broker_id_not_registered(check, api_key, version):
    """UnregisterBroker at this version of a broker id no broker has (1000 and more past the
    highest id DescribeCluster lists) answers BROKER_ID_NOT_REGISTERED, and DescribeCluster
    afterwards lists the same brokers. Never sent to an external cluster (nor for a live
    broker)."""
    check.require(api_key, version)
    if check.broker.external:
        raise Skip("UnregisterBroker is never sent to an external cluster (the suite's choice: it would "
                   "unregister a broker of someone else's cluster if an id were live)")
    admin = Admin(check)
    dv = admin.version(ApiKey.DescribeCluster)

    def judged(past):
        cluster = admin.client.answered(ApiKey.DescribeCluster, dv, build.describe_cluster(dv))
        before = check.last_step
        ids = sorted(b["broker_id"] for b in cluster.get("brokers") or [])
        check.expect_field(["brokers", "broker_id"], min_count=1, setup=True,
                           says="setup: DescribeCluster lists the brokers")
        absent = max(ids or [0]) + UNREGISTERED_FROM + past
        admin.client.answered(ApiKey.UnregisterBroker, version, {"broker_id": absent})
        check.expect_field(["error_code"], [Errors.BROKER_ID_NOT_REGISTERED],
                           says=f"broker id {absent}, which no broker has (brokers {ids}): BROKER_ID_NOT_REGISTERED")
        admin.client.answered(ApiKey.DescribeCluster, dv, build.describe_cluster(dv))
        check.expect_same(["brokers", "broker_id"], before, min_count=1,
                          says=f"DescribeCluster lists the same brokers {ids} afterwards")

    check.given(st.integers(0, 1000), judged, first=0)


# -- M9: quorum membership ------------------------------------------------------------------

VOTERS_SOURCE = (K + "raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java (handleAddVoterRequest, "
                 "handleRemoveVoterRequest); " + K + "raft/src/main/java/org/apache/kafka/raft/internals/"
                 "AddVoterHandler.java; " + K + "raft/src/main/java/org/apache/kafka/raft/internals/"
                 "RemoveVoterHandler.java; " + K + "raft/src/main/java/org/apache/kafka/raft/VoterSet.java "
                 "(removeVoter)")
#: the feature whose level 1 allows quorum reconfiguration (``KRaftVersion.isReconfigSupported``)
KRAFT_VERSION = "kraft.version"
NO_DIRECTORY = uuid.UUID(int=0)


def _quorum(check, admin: Admin) -> tuple[int, dict]:
    """DescribeQuorum (the newest version) of the metadata log: its step and answer."""
    v = admin.version(ApiKey.DescribeQuorum)
    body = {"topics": [{"topic_name": METADATA_LOG, "partitions": [{"partition_index": 0}]}]}
    answer = admin.client.answered(ApiKey.DescribeQuorum, v, body)
    check.expect_field(["topics", "partitions", "current_voters", "replica_id"], min_count=1, setup=True,
                       says="setup: DescribeQuorum lists the quorum's voters")
    return check.last_step, answer


def _voters(answer: dict) -> dict[int, uuid.UUID]:
    return {r["replica_id"]: r.get("replica_directory_id") or NO_DIRECTORY for t in answer.get("topics") or []
            for p in t.get("partitions") or [] for r in p.get("current_voters") or []}


def _reconfigurable(admin: Admin) -> bool:
    """Whether ``kraft.version`` is finalized at 1 or more (ApiVersions v3+)."""
    v = admin.version(ApiKey.ApiVersions, at_least=3)
    answer = admin.client.answered(ApiKey.ApiVersions, v, build.api_versions(v))
    return any(f["name"] == KRAFT_VERSION and f["max_version_level"] >= 1
               for f in answer.get("finalized_features") or [])


def _membership_error(directory: uuid.UUID, reconfigurable: bool, otherwise: int) -> tuple[int, str]:
    """The code KafkaRaftClient answers a voter change of ``directory`` and why."""
    if directory == NO_DIRECTORY:
        return Errors.INVALID_REQUEST, "no directory id: INVALID_REQUEST (\"didn't include a valid voter\")"
    if not reconfigurable:
        return Errors.UNSUPPORTED_VERSION, f"{KRAFT_VERSION} 0 (a static quorum): UNSUPPORTED_VERSION"
    return otherwise, f"{KRAFT_VERSION} 1+: {Errors(otherwise).name}"


def _never_external(check) -> None:
    if check.broker.external:
        raise Skip("quorum membership changes are never sent to an external cluster (the suite's choice: "
                   "they reconfigure someone else's controller quorum)")


@pytest.mark.prop("M9", source=VOTERS_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.RemoveRaftVoter,)))
def test_m9_removing_a_voter_the_quorum_lacks_answers_voter_not_found(check, api_key, version):
    """RemoveRaftVoter at this version of a voter id the quorum lacks (1000 and more past its
    highest voter), with a fresh directory id, answers VOTER_NOT_FOUND where ``kraft.version``
    is 1 or more and UNSUPPORTED_VERSION where it is 0; DescribeQuorum's voters are
    unchanged."""
    check.require(api_key, version)
    _never_external(check)
    admin = Admin(check)

    def judged(past):
        before, answer = _quorum(check, admin)
        voters = _voters(answer)
        absent = max(voters) + UNREGISTERED_FROM + past
        directory = uuid.uuid4()
        code, why = _membership_error(directory, _reconfigurable(admin), Errors.VOTER_NOT_FOUND)
        cluster = admin.client.answered(ApiKey.DescribeCluster, admin.version(ApiKey.DescribeCluster),
                                        build.describe_cluster(admin.version(ApiKey.DescribeCluster)))
        admin.client.answered(ApiKey.RemoveRaftVoter, version, {
            "cluster_id": cluster.get("cluster_id"), "voter_id": absent, "voter_directory_id": directory})
        check.expect_field(["error_code"], [code], says=f"voter {absent}, not among {sorted(voters)}: {why}")
        _quorum(check, admin)
        check.expect_same(["topics", "partitions", "current_voters", "replica_id"], before, min_count=1,
                          says=f"DescribeQuorum's voters are still {sorted(voters)}")

    check.given(st.integers(0, 1000), judged, first=0)


@pytest.mark.prop("M9", source=VOTERS_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.AddRaftVoter,)))
def test_m9_adding_a_voter_the_quorum_has_answers_duplicate_voter(check, api_key, version):
    """AddRaftVoter at this version of one of the quorum's voters, with its listeners as
    DescribeQuorum v2+ lists them and its own directory id or a fresh one, answers
    DUPLICATE_VOTER where ``kraft.version`` is 1 or more, UNSUPPORTED_VERSION where it is 0 and
    INVALID_REQUEST where the directory id is missing (a static voter's); DescribeQuorum's
    voters are unchanged."""
    check.require(api_key, version)
    _never_external(check)
    admin = Admin(check)
    quorum_version = admin.version(ApiKey.DescribeQuorum)
    if not schema_facts.has_field(ApiKey.DescribeQuorum, quorum_version, "nodes.listeners", schema_facts.RESPONSE):
        raise Unsupported(f"DescribeQuorum v{quorum_version}, the newest the broker and the suite both speak, lists no voter's "
                          "listeners (DescribeQuorumResponse.json: Nodes and their Listeners from v2)")

    def judged(own):
        before, answer = _quorum(check, admin)
        voters = _voters(answer)
        voter = min(voters)
        directory = voters[voter] if own else uuid.uuid4()
        listeners = [{"name": e["name"], "host": e["host"], "port": e["port"]} for n in answer.get("nodes") or []
                     if n["node_id"] == voter for e in n.get("listeners") or []]
        code, why = _membership_error(directory, _reconfigurable(admin), Errors.DUPLICATE_VOTER)
        dv = admin.version(ApiKey.DescribeCluster)
        cluster = admin.client.answered(ApiKey.DescribeCluster, dv, build.describe_cluster(dv))
        body = {"cluster_id": cluster.get("cluster_id"), "timeout_ms": 5000, "voter_id": voter,
                "voter_directory_id": directory, "listeners": listeners}
        if schema_facts.has_field(api_key, version, "ack_when_committed"):
            body["ack_when_committed"] = True
        admin.client.answered(ApiKey.AddRaftVoter, version, body)
        which = "its own directory id" if own else "a fresh directory id"
        check.expect_field(["error_code"], [code], says=f"voter {voter} again, with {which}: {why}")
        _quorum(check, admin)
        check.expect_same(["topics", "partitions", "current_voters", "replica_id"], before, min_count=1,
                          says=f"DescribeQuorum's voters are still {sorted(voters)}")

    check.given(st.booleans(), judged, first=True)
