"""M1-M7: the cluster as the admin APIs describe it (DescribeCluster, DescribeTopicPartitions,
DescribeQuorum, DescribeLogDirs, AlterReplicaLogDirs, ListConfigResources, FindCoordinator)
agrees with Metadata, with what was produced and with DescribeConfigs (M8 and M9, who is a
member of the cluster, are ``test_cluster_membership.py``).

* M1, ``DescribeCluster`` (KIP-700 "Add Describe Cluster API"): a broker answers its own
  listener's view, the one Metadata gives (``KafkaApis.handleDescribeCluster`` and
  ``handleTopicMetadataRequest`` both read ``metadataCache.getAliveBrokerNodes`` of the
  request's listener, and ``clusterId``). The controller it names is one of the brokers it
  lists or -1 (``AuthHelper.computeDescribeClusterResponse``: "If the provided controller ID
  is not in the node list, return -1"). On KRaft that is *not* the quorum's leader: a broker
  answers a random alive broker (``KRaftMetadataCache.getControllerId``, KIP-590 "Redirect
  Zookeeper Mutation Protocols to The Controller": clients send controller requests to any
  broker), so M3 does not compare the two. ``cluster_authorized_operations`` keeps the
  schema's default, ``Integer.MIN_VALUE``, unless asked for.
* M2, ``DescribeTopicPartitions`` (KIP-966 "Eligible Leader Replicas"): for the topics it is
  asked, each page lists the partitions from its cursor up to the next cursor it answers, at
  most ``response_partition_limit`` of them, so following the cursors visits every partition
  exactly once whatever the page size; each partition's leader, replicas and ISR and each
  topic's id are Metadata's; a name no topic has answers UNKNOWN_TOPIC_OR_PARTITION once
  (``DescribeTopicPartitionsRequestHandler.handleDescribeTopicPartitionsRequest``,
  ``KRaftMetadataCache.getTopicMetadataForDescribeTopicResponse``).
* M3, ``DescribeQuorum`` (KIP-595 "A Raft Protocol for the Metadata Quorum"; KIP-836 "Addition
  of Information in DescribeQuorumResponse about Voter Lag"; KIP-853 "KRaft Controller
  Membership Changes" for v2's nodes): the metadata partition ``__cluster_metadata-0``
  answers NONE, its leader is one of its current voters, and from v2 every voter is listed
  among the nodes (``KafkaRaftClient.handleDescribeQuorumRequest``,
  ``LeaderState.describeQuorum``). A ZooKeeper-mode broker does not advertise it.
* M4, ``DescribeLogDirs`` (KIP-113 "Support replicas movement between log directories"):
  every partition of the check's topics is listed once per broker holding it, a present
  replica, and its ``partition_size`` (``UnifiedLog.size``) grows with every produced batch
  (``ReplicaManager.describeLogDirs``).
* M5, ``AlterReplicaLogDirs`` (KIP-113): a destination the broker has no log dir for answers
  LOG_DIR_NOT_FOUND for that partition alone (``LogManager.isLogDirOnline`` throws
  ``LogDirNotFoundException`` before anything else is looked at); a move to the dir a replica
  is in answers NONE and moves nothing (``Partition.maybeCreateFutureReplica``).
* M6, ``ListConfigResources`` (KIP-1142 "Allow to list non-default configs"; v0 was KIP-714's
  ListClientMetricsResources): what it lists, DescribeConfigs describes.
* M7, ``FindCoordinator`` (KIP-699 "Update FindCoordinator to resolve multiple Coordinators at
  a time" for v4's batches): the coordinator of a group key (key type 0) or a transactional
  id (key type 1) is a broker Metadata lists, with its host and port, the same at every
  version, and from v4 each key of a batch is answered on its own
  (``KafkaApis.handleFindCoordinatorRequest``, ``getCoordinator``: the alive leader of the
  key's partition of ``__consumer_offsets`` or ``__transaction_state``).
Nothing here changes the cluster but the check's own topics and client-metrics resource (and
M7's transaction keys, which make ``__transaction_state`` if it is not there yet).
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import expect_setup
from fixtures.waiting import VISIBLE_S, eventually
from protocol import ApiKey, Errors, schema_facts
from protocol import requests as build
from protocol import ConfigResourceType

from .parametrize import every_version
from protocol.kafka_sources import KAFKA as K

CLUSTER_SOURCE = (K + "core/src/main/scala/kafka/server/KafkaApis.scala (handleDescribeCluster, "
                  "handleTopicMetadataRequest); " + K + "core/src/main/scala/kafka/server/AuthHelper.scala "
                  "(computeDescribeClusterResponse)")
PARTITIONS_SOURCE = (K + "core/src/main/java/kafka/server/handlers/DescribeTopicPartitionsRequestHandler.java; "
                     + K + "core/src/main/scala/kafka/server/metadata/KRaftMetadataCache.scala "
                     "(getTopicMetadataForDescribeTopicResponse)")
QUORUM_SOURCE = (K + "raft/src/main/java/org/apache/kafka/raft/KafkaRaftClient.java (handleDescribeQuorumRequest); "
                 + K + "raft/src/main/java/org/apache/kafka/raft/LeaderState.java (describeQuorum)")

#: DescribeClusterResponse.json: ClusterAuthorizedOperations' default, kept unless asked for
NOT_ASKED = -2147483648
#: DescribeClusterRequest.json EndpointType: 1 brokers
BROKER_ENDPOINT = 1
#: KRaft's metadata log (``Topic.CLUSTER_METADATA_TOPIC_NAME``)
METADATA_LOG = "__cluster_metadata"


def _metadata_step(check, admin: Admin, names: list[str]) -> tuple[int, dict]:
    """Metadata (the newest version the broker speaks) of ``names``: its step and answer."""
    v = admin.version(ApiKey.Metadata, at_least=2)
    answer = admin.client.answered(ApiKey.Metadata, v, build.metadata(v, names))
    return check.last_step, answer


# -- M1 -----------------------------------------------------------------------------------

@pytest.mark.prop("M1", source=CLUSTER_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DescribeCluster,)))
def test_m1_describe_cluster_lists_the_brokers_and_cluster_metadata_does(check, api_key, version):
    """DescribeCluster at this version (endpoint type broker, authorized operations not asked
    for) answers NONE with Metadata's cluster id and brokers (id, host, port, rack; each
    once), a controller that is one of those brokers or -1, authorized operations
    ``Integer.MIN_VALUE`` and, from v1, endpoint type 1 (broker)."""
    check.require(api_key, version)
    admin = Admin(check)

    def judged(_):
        at, meta = _metadata_step(check, admin, [])
        brokers = meta.get("brokers") or []
        admin.client.answered(ApiKey.DescribeCluster, version, build.describe_cluster(version))
        check.expect_field(["error_code"], [Errors.NONE], says="DescribeCluster of a broker's endpoint: NONE")
        check.expect_same(["cluster_id"], at, says="the cluster id Metadata answered")
        check.expect_field(["brokers", "broker_id"], count=len(brokers), distinct=True,
                           says=f"the {len(brokers)} broker(s) Metadata lists, each once")
        for path, other in (("broker_id", "node_id"), ("host", "host"), ("port", "port"), ("rack", "rack")):
            check.expect_same(["brokers", path], at, ["brokers", other],
                              says=f"each broker's {path} as Metadata lists it")
        ids = sorted(b["node_id"] for b in brokers)
        check.expect_field(["controller_id"], [*ids, -1],
                           says=f"the controller is a listed broker ({ids}) or -1 (computeDescribeClusterResponse)")
        check.expect_field(["cluster_authorized_operations"], [NOT_ASKED],
                           says="authorized operations not asked for: the schema's default Integer.MIN_VALUE")
        if schema_facts.has_field(api_key, version, "endpoint_type", side="response"):
            check.expect_field(["endpoint_type"], [BROKER_ENDPOINT], says="a broker answers endpoint type 1 (broker)")

    check.once(None, judged)


# -- M2 -----------------------------------------------------------------------------------

def _flat(counts: dict[str, int], unknown: list[str]) -> list[tuple[str, int | None]]:
    """Every (topic, partition) the request reaches, in Kafka's order (names sorted, then
    partitions); an unknown name as ``(name, None)``."""
    out: list[tuple[str, int | None]] = []
    for name in sorted([*counts, *unknown]):
        out += [(name, None)] if name in unknown else [(name, p) for p in range(counts[name])]
    return out


def _position(flat: list, cursor: dict | None) -> int:
    """Where ``cursor`` points in ``flat`` (None: past the end). A cursor at a partition a
    topic lacks points at the next name's first entry."""
    if cursor is None:
        return len(flat)
    key = (cursor["topic_name"], cursor["partition_index"])
    for i, (name, p) in enumerate(flat):
        if (name, 0 if p is None else p) >= key:
            return i
    return len(flat)


#: 1-3 topics of 1-5 partitions, maybe an unknown name, and a page size of 1-7
_M2 = st.fixed_dictionaries({"counts": st.lists(st.integers(1, 5), min_size=1, max_size=3),
                             "unknown": st.booleans(), "limit": st.integers(1, 7)})


@pytest.mark.prop("M2", source=PARTITIONS_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DescribeTopicPartitions,)))
def test_m2_describe_topic_partitions_pages_visit_every_partition_once_as_metadata_lists_it(check, api_key,
                                                                                          version):
    """After creating a few topics, DescribeTopicPartitions of them (and a name no topic has)
    with a drawn ``response_partition_limit``, following each answer's ``next_cursor`` until
    it is null: each page lists exactly the partitions from its cursor up to the next cursor
    (so every partition once over all pages) and at most the limit; each listed partition's
    leader, replicas and ISR and each topic's id are Metadata's; the unknown name answers
    UNKNOWN_TOPIC_OR_PARTITION in the page its place falls in."""
    check.require(api_key, version)
    admin = Admin(check)

    def judged(value):
        base = check.topic("dtp")
        counts = {f"{base}-{i}": n for i, n in enumerate(value["counts"])}
        unknown = [f"{base}-absent"] if value["unknown"] else []
        for name, n in counts.items():
            admin.create_topic(name, n)
        at, _ = _metadata_step(check, admin, list(counts))
        flat, limit = _flat(counts, unknown), value["limit"]
        cursor, start = None, 0
        for page in range(1, len(flat) + 2):
            body = {"topics": [{"name": n} for n in [*counts, *unknown]], "response_partition_limit": limit,
                    "cursor": cursor}
            answer = admin.client.answered(ApiKey.DescribeTopicPartitions, version, body)
            cursor = answer.get("next_cursor")
            end = _position(flat, cursor)
            listed = flat[start:end] if end > start else []
            _expect_page(check, page, listed, limit, at)
            if cursor is None or end <= start:
                break
            start = end
        check.expect_field(["next_cursor"], [None], says=f"the pages end (null next_cursor) within {page} requests "
                                                          f"for {len(flat)} entries, moving forward")

    check.given(_M2, judged, first={"counts": [3, 1], "unknown": True, "limit": 2})


def _expect_page(check, page: int, listed: list, limit: int, at: int) -> None:
    """The page's answer lists exactly ``listed`` (its cursor to its next cursor), at most
    ``limit`` partitions, each as Metadata's answer (step ``at``) does."""
    partitions = [(n, p) for n, p in listed if p is not None]
    check.expect_field(["topics", "partitions", "partition_index"], count=min(len(partitions), limit),
                       says=f"page {page} lists the {len(partitions)} partition(s) from its cursor up to its "
                            f"next cursor, at most the limit {limit}")
    for name, p in listed:
        if p is None:
            check.expect_field(["topics", {"name": name}, "error_code"], [Errors.UNKNOWN_TOPIC_OR_PARTITION], count=1,
                               says=f"page {page}: {name}, a name no topic has, in its place")
            continue
        where = ["topics", {"name": name}, "partitions", {"partition_index": p}]
        check.expect_field([*where, "partition_index"], count=1, says=f"page {page} lists {name}-{p} once")
        for field in ("leader_id", "replica_nodes", "isr_nodes"):
            check.expect_same([*where, field], at, says=f"{name}-{p}'s {field} as Metadata lists it")
    for name in sorted({n for n, p in partitions}):
        check.expect_field(["topics", {"name": name}, "error_code"], [Errors.NONE], min_count=1,
                           says=f"page {page}: {name} answers NONE")
        check.expect_same(["topics", {"name": name}, "topic_id"], at, says=f"{name}'s id as Metadata lists it")


# -- M3 -----------------------------------------------------------------------------------

@pytest.mark.prop("M3", source=QUORUM_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DescribeQuorum,)))
def test_m3_the_metadata_quorums_leader_is_one_of_its_voters(check, api_key, version):
    """DescribeQuorum at this version of ``__cluster_metadata-0`` answers NONE (top level and
    for the partition), a leader that is one of the current voters, each voter once, and from
    v2 a node entry for every voter."""
    check.require(api_key, version)
    admin = Admin(check)

    def judged(_):
        body = {"topics": [{"topic_name": METADATA_LOG, "partitions": [{"partition_index": 0}]}]}
        answer = admin.client.answered(ApiKey.DescribeQuorum, version, body)
        check.expect_field(["error_code"], [Errors.NONE], says="DescribeQuorum of the metadata log: NONE")
        where = ["topics", {"topic_name": METADATA_LOG}, "partitions", {"partition_index": 0}]
        check.expect_field([*where, "error_code"], [Errors.NONE], count=1,
                           says=f"{METADATA_LOG}-0 answers NONE, once")
        voters = [r["replica_id"] for t in answer.get("topics") or [] for p in t.get("partitions") or []
                  for r in p.get("current_voters") or []]
        check.expect_field([*where, "current_voters", "replica_id"], min_count=1, distinct=True,
                           says="the quorum has voters, each listed once")
        check.expect_field([*where, "leader_id"], sorted(set(voters)),
                           says=f"the leader is one of the current voters {sorted(set(voters))}")
        if schema_facts.has_field(api_key, version, "nodes", side="response"):
            for v in sorted(set(voters)):
                check.expect_field(["nodes", {"node_id": v}, "node_id"], count=1,
                                   says=f"v2+: voter {v} is listed among the nodes once")

    check.once(None, judged)


# -- M4, M5: log dirs -----------------------------------------------------------------------

LOG_DIRS_SOURCE = (K + "core/src/main/scala/kafka/server/ReplicaManager.scala (describeLogDirs, alterReplicaLogDirs); "
                   + K + "core/src/main/scala/kafka/log/LogManager.scala (isLogDirOnline: 'Log dir ... is not found "
                   "in the config.')")


def _log_dir_topics(check, admin: Admin, counts: dict[str, int]) -> None:
    """Create the topics of ``counts`` with a replica on every broker (so each broker's log
    dirs hold every partition) and wait until every partition is ready."""
    brokers = len(admin.everywhere())
    if brokers == 1:
        for name, n in counts.items():
            admin.create_topic(name, n)
        return
    admin.create_topics([{"name": n, "num_partitions": p, "replication_factor": brokers} for n, p in counts.items()])
    admin.expect_listed(counts, setup=True, says="setup: ")
    for name, n in counts.items():
        admin.wait_ready(name, n)


def _describe_log_dirs(check, a: Admin, version: int, counts: dict[str, int]) -> dict:
    return a.client.answered(ApiKey.DescribeLogDirs, version, {
        "topics": [{"topic": n, "partitions": list(range(p))} for n, p in counts.items()]})


def _where(name: str, p: int) -> list:
    """A partition's present replica (not a future one) in a DescribeLogDirs answer."""
    return ["results", "topics", {"name": name}, "partitions", {"partition_index": p, "is_future_key": False}]


def _sizes(answer: dict) -> dict[tuple[str, int], int]:
    return {(t["name"], p["partition_index"]): p["partition_size"] for r in answer.get("results") or []
            for t in r.get("topics") or [] for p in t.get("partitions") or [] if not p.get("is_future_key")}


#: 1-2 topics of 1-3 partitions, and per partition 0-4 records to produce
_M4 = st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=3), min_size=1, max_size=2)


@pytest.mark.prop("M4", source=LOG_DIRS_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DescribeLogDirs,)))
def test_m4_describe_log_dirs_lists_every_partition_once_and_its_size_grows_with_what_was_produced(check, api_key,
                                                                                                  version):
    """After creating a few topics (a replica on every broker), DescribeLogDirs at this
    version of their partitions, on every broker, answers NONE for each log dir and lists
    each partition once (a present replica, not a future one); after records are produced
    to some partitions, each of those is listed larger than before and no partition smaller
    (within a few seconds on a follower)."""
    check.require(api_key, version)
    admin = Admin(check)

    def judged(records):
        base = check.topic("ld")
        counts = {f"{base}-{i}": len(per) for i, per in enumerate(records)}
        _log_dir_topics(check, admin, counts)
        before = {}
        for a in admin.everywhere():
            answer = _describe_log_dirs(check, a, version, counts)
            if schema_facts.has_field(api_key, version, "error_code", side="response"):
                check.expect_field(["error_code"], [Errors.NONE], says="DescribeLogDirs: NONE")
            check.expect_field(["results", "error_code"], [Errors.NONE], min_count=1, says="each log dir answers NONE")
            for name, n in counts.items():
                for p in range(n):
                    check.expect_field([*_where(name, p), "partition_index"], count=1,
                                       says=f"{name}-{p} is listed once, in one log dir")
            before[a.client.node] = _sizes(answer)
        for (name, per) in zip(counts, records):
            for p, n in enumerate(per):
                if n:
                    admin.produce(name, p, n)
        for a in admin.everywhere():
            _describe_log_dirs(check, a, version, counts)
            for (name, per) in zip(counts, records):
                for p, n in enumerate(per):
                    was = before[a.client.node].get((name, p), 0)
                    grew = was + 1 if n else was
                    check.expect_field([*_where(name, p), "partition_size"], count=1, at_least=grew, retry_s=VISIBLE_S,
                                       says=f"{name}-{p} was {was} bytes; after {n} record(s) produced it is "
                                            + ("larger" if n else "no smaller"))

    check.given(_M4, judged, first=[[2, 0]])


@pytest.mark.prop("M5", source=LOG_DIRS_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.AlterReplicaLogDirs,)))
def test_m5_moving_a_replica_to_a_log_dir_the_broker_lacks_answers_log_dir_not_found_alone(check, api_key, version):
    """AlterReplicaLogDirs at this version moving one partition to a directory the broker does
    not have answers LOG_DIR_NOT_FOUND for it, and moving another to the log dir it is in
    answers NONE; afterwards DescribeLogDirs lists both in their dirs and no future replica
    (nothing moves)."""
    check.require(api_key, version)
    check.require_mutations()
    admin = Admin(check)
    dv = admin.version(ApiKey.DescribeLogDirs)

    def judged(_):
        base = check.topic("ard")
        counts = {f"{base}-gone": 1, f"{base}-stay": 1}
        _log_dir_topics(check, admin, counts)
        answer = _describe_log_dirs(check, admin, dv, counts)
        dirs = {t["name"]: r["log_dir"] for r in answer.get("results") or [] for t in r.get("topics") or []}
        check.expect_field([*_where(f"{base}-stay", 0), "partition_index"], count=1,
                           says=f"setup: {base}-stay-0 is in one of the broker's log dirs", setup=True)
        absent = f"/{check.prefix}no-such-log-dir"
        admin.client.answered(ApiKey.AlterReplicaLogDirs, version, {"dirs": [
            {"path": absent, "topics": [{"name": f"{base}-gone", "partitions": [0]}]},
            {"path": dirs.get(f"{base}-stay", ""), "topics": [{"name": f"{base}-stay", "partitions": [0]}]}]})
        at = ["results", {"topic_name": f"{base}-gone"}, "partitions", {"partition_index": 0}, "error_code"]
        check.expect_field(at, [Errors.LOG_DIR_NOT_FOUND], count=1,
                           says=f"{base}-gone-0 to {absent}, a dir the broker lacks: LOG_DIR_NOT_FOUND")
        check.expect_field(["results", {"topic_name": f"{base}-stay"}, "partitions", {"partition_index": 0},
                            "error_code"], [Errors.NONE], count=1,
                           says=f"{base}-stay-0 to the log dir it is in: NONE, whatever the other entry got")
        _describe_log_dirs(check, admin, dv, counts)
        for name in counts:
            check.expect_field(["results", {"log_dir": dirs.get(name, "")}, "topics", {"name": name}, "partitions",
                                {"partition_index": 0, "is_future_key": False}, "partition_index"], count=1,
                               says=f"{name}-0 is still in {dirs.get(name)}")
            check.expect_field(["results", "topics", {"name": name}, "partitions", {"is_future_key": True},
                                "partition_index"], count=0, says=f"{name}-0 has no future replica: nothing moves")

    check.once(None, judged)


# -- M6: config resources -------------------------------------------------------------------

LIST_SOURCE = (K + "core/src/main/scala/kafka/server/KafkaApis.scala (handleListConfigResources); KIP-1142 "
               "\"Allow to list non-default configs\"; KIP-714 \"Client metrics and observability\" (v0: "
               "ListClientMetricsResources)")


@pytest.mark.prop("M6", source=LIST_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.ListConfigResources,)))
def test_m6_list_config_resources_lists_what_describe_configs_accepts(check, api_key, version):
    """ListConfigResources at this version answers NONE and lists a client-metrics resource the
    check made (v0 lists only those) and, from v1 asked for topics and brokers, the check's
    topic and every broker Metadata lists, each with its type; DescribeConfigs of each of
    these answers NONE. The client-metrics resource is removed afterwards."""
    check.require(api_key, version)
    check.require_mutations()
    admin = Admin(check)
    iv = admin.version(ApiKey.IncrementalAlterConfigs)
    dv = admin.version(ApiKey.DescribeConfigs, at_least=1)
    typed = schema_facts.has_field(api_key, version, "resource_types")   # v0 lists client metrics only

    def judged(_):
        topic, metrics = check.topic("lcr"), check.topic("lcr-metrics")
        admin.create_topic(topic)
        admin.client.answered(ApiKey.IncrementalAlterConfigs, iv, build.incremental_alter_configs(
            iv, [(metrics, [("interval.ms", 0, "60000")])], resource_type=ConfigResourceType.CLIENT_METRICS))
        check.expect_field(["responses", "error_code"], [Errors.NONE], count=1, setup=True,
                           says=f"setup: the client-metrics resource {metrics} is made")
        try:
            _, meta = _metadata_step(check, admin, [])
            brokers = [str(b["node_id"]) for b in meta.get("brokers") or []]
            body = {"resource_types": [int(ConfigResourceType.TOPIC), int(ConfigResourceType.BROKER),
                                       int(ConfigResourceType.CLIENT_METRICS)]} if typed else {}
            listed = [(metrics, ConfigResourceType.CLIENT_METRICS)]
            if typed:
                listed += [(topic, ConfigResourceType.TOPIC)] + [(b, ConfigResourceType.BROKER) for b in brokers]
            # the broker lists what its metadata image holds, which follows the controller's
            # commit (seen on a loaded machine: kafka:3.9.2 listed nothing 0.1 s after the
            # change was answered): ask until it lists the resource or VISIBLE_S passed, and
            # judge the last answer
            eventually(lambda: admin.client.answered(ApiKey.ListConfigResources, version, body),
                       lambda a: any(r.get("resource_name") == metrics for r in a.get("config_resources") or []),
                       within=VISIBLE_S)
            check.expect_field(["error_code"], [Errors.NONE], says="ListConfigResources: NONE")
            for name, kind in listed:
                where = ["config_resources", {"resource_name": name}]
                if typed:
                    where[1] = {"resource_name": name, "resource_type": int(kind)}
                check.expect_field([*where, "resource_name"], count=1, says=f"lists {kind.name} {name!r} once")
            for name, kind in listed:
                admin.client.answered(ApiKey.DescribeConfigs, dv, build.describe_configs(dv, [(name, None)],
                                                                                         resource_type=kind))
                check.expect_field(["results", "error_code"], [Errors.NONE], count=1,
                                   says=f"DescribeConfigs of the listed {kind.name} {name!r}: NONE")
        finally:
            admin.client.answered(ApiKey.IncrementalAlterConfigs, iv, build.incremental_alter_configs(
                iv, [(metrics, [("interval.ms", 1, None)])], resource_type=ConfigResourceType.CLIENT_METRICS))

    check.once(None, judged)


# -- M7: coordinators -----------------------------------------------------------------------

COORDINATOR_SOURCE = (K + "core/src/main/scala/kafka/server/KafkaApis.scala (handleFindCoordinatorRequest, "
                      "getCoordinator); KIP-699 \"Update FindCoordinator to resolve multiple Coordinators at a time\"")
#: FindCoordinatorRequest.json KeyType: 0 group, 1 transaction (from v1)
GROUP_KEY, TRANSACTION_KEY = 0, 1


def _batched(version: int) -> bool:
    """Whether a FindCoordinator request at ``version`` asks for several keys at once."""
    return schema_facts.has_field(ApiKey.FindCoordinator, version, "coordinator_keys")


def _find(admin: Admin, version: int, key_type: int, keys: list[str]) -> dict:
    """FindCoordinator at ``version`` of ``keys`` (one key until v3)."""
    body = ({"key_type": key_type, "coordinator_keys": keys} if _batched(version)
            else build.find_coordinator(version, keys[0], key_type))
    return admin.client.answered(ApiKey.FindCoordinator, version, body)


def _found(answer: dict, version: int) -> dict[str, tuple]:
    """Each key's (error, node id, host, port) in a FindCoordinator answer (v0-v3: the one key
    as ``""``)."""
    entries = answer.get("coordinators") or [] if _batched(version) else [{**answer, "key": ""}]
    return {e.get("key"): (e.get("error_code"), e.get("node_id"), e.get("host"), e.get("port")) for e in entries}


#: 1-3 keys of a batch, of key type group or transaction
_M7 = st.fixed_dictionaries({"keys": st.integers(1, 3), "key_type": st.sampled_from([GROUP_KEY, TRANSACTION_KEY])})


@pytest.mark.prop("M7", source=COORDINATOR_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.FindCoordinator,)))
def test_m7_find_coordinator_names_a_broker_metadata_lists_the_same_at_every_version(check, api_key, version):
    """For a few run-prefixed group keys (key type 0) or transactional ids (key type 1, from
    v1), once each has a coordinator (asked at the broker's newest version until it answers
    NONE: the first ask makes the internal topic), FindCoordinator at this version answers
    NONE for each key and a coordinator that is a broker Metadata lists, with Metadata's
    host and port, the same coordinator the newest version named; from v4 a batch of the
    keys answers one entry per key (one request per key until v3)."""
    check.require(api_key, version)
    check.require_mutations()
    admin = Admin(check)
    newest = admin.version(ApiKey.FindCoordinator)

    def judged(value):
        key_type = value["key_type"] if schema_facts.has_field(api_key, version, "key_type") else GROUP_KEY
        keys = [f"{check.prefix}fc-{'txn' if key_type else 'group'}-{i}" for i in range(value["keys"])]
        named = {}
        for key in keys:
            held, answer = eventually(lambda: _find(admin, newest, key_type, [key]),
                                      lambda a: _found(a, newest).get(key if newest >= 4 else "", (None,))[0]
                                      == Errors.NONE, within=VISIBLE_S)
            expect_setup(held, f"setup: FindCoordinator v{newest} of {key!r} names a coordinator (NONE)")
            named[key] = _found(answer, newest)[key if _batched(newest) else ""]
        at, meta = _metadata_step(check, admin, [])
        ids = sorted(b["node_id"] for b in meta.get("brokers") or [])
        batches = [keys] if _batched(version) else [[k] for k in keys]
        for batch in batches:
            answer = _find(admin, version, key_type, batch)
            if _batched(version):
                check.expect_field(["coordinators", "key"], sorted(batch), count=len(batch), distinct=True,
                                   says=f"v4+: one entry per key of the batch {batch}")
            for key in batch:
                where = ["coordinators", {"key": key}] if _batched(version) else []
                check.expect_field([*where, "error_code"], [Errors.NONE], count=1, says=f"{key!r}: NONE")
                check.expect_field([*where, "node_id"], ids, count=1,
                                   says=f"{key!r}'s coordinator is one of the brokers Metadata lists {ids}")
                node = _found(answer, version).get(key if _batched(version) else "", (None, None))[1]
                for field in ("host", "port"):
                    check.expect_same([*where, field], at, ["brokers", {"node_id": node}, field], min_count=1,
                                      says=f"{key!r}'s coordinator's {field}: Metadata's for broker {node}")
                check.expect_field([*where, "node_id"], [named[key][1]],
                                   says=f"{key!r}'s coordinator is the one v{newest} named, {named[key][1]}")

    check.given(_M7, judged, first={"keys": 2, "key_type": GROUP_KEY})
