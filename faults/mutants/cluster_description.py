"""Cluster-description faults (catalogue M1-M7): a DescribeCluster that describes another
cluster, a DescribeTopicPartitions cursor that skips a partition, a quorum whose leader is
not one of its voters, a log size that never grows, a move to a missing log dir accepted,
a config-resource list one short, and a coordinator at a port its broker does not listen
on or a FindCoordinator batch answered for its first key alone, an unknown broker id
unregistered without complaint, and a quorum membership change refused with no code. M1's mutant runs over noida (it serves DescribeCluster v0 as Kafka
does); the others over kafka:4.4.0 (noida serves none of their APIs, tansu ignores the page
limit).
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import KAFKA_OVER, Mutant, Recoding, declared, mutant


@mutant
class DescribeClusterOtherClusterId(Mutant):
    """DescribeCluster answers a cluster id other than the one Metadata answers (a broker that
    caches the id of the cluster it was first started in)."""
    name = "describe-cluster-other-cluster-id"
    catches = ("M1",)
    apis = (ApiKey.DescribeCluster,)

    def response(self, seen, body):
        return {**body, "cluster_id": (body.get("cluster_id") or "") + "-stale"}


@mutant
class DescribeTopicPartitionsCursorSkips(Mutant):
    """DescribeTopicPartitions answers a next cursor one partition past the first partition
    its page left out: following the cursors never lists that partition."""
    name = "describe-topic-partitions-cursor-skips"
    catches = ("M2",)
    apis = (ApiKey.DescribeTopicPartitions,)
    over = KAFKA_OVER

    def response(self, seen, body):
        cursor = body.get("next_cursor")
        if cursor is None:
            return None
        return {**body, "next_cursor": {**cursor, "partition_index": cursor["partition_index"] + 1}}


@mutant
class DescribeQuorumLeaderNotAVoter(Mutant):
    """DescribeQuorum names a leader that is not among the current voters (an observer, or a
    node id the quorum never had)."""
    name = "describe-quorum-leader-not-a-voter"
    catches = ("M3",)
    apis = (ApiKey.DescribeQuorum,)
    over = KAFKA_OVER

    def response(self, seen, body):
        topics = [{**t, "partitions": [{**p, "leader_id": 1 + max([r["replica_id"] for r in
                                                                     p.get("current_voters") or []] or [0])}
                                       for p in t.get("partitions") or []]}
                  for t in body.get("topics") or []]
        return {**body, "topics": topics}


@mutant
class DescribeLogDirsSizeStale(Mutant):
    """DescribeLogDirs reports each partition's size as it first reported it (a size cached
    when the log was opened, never updated on append)."""
    name = "describe-log-dirs-size-stale"
    catches = ("M4",)
    apis = (ApiKey.DescribeLogDirs,)
    over = KAFKA_OVER

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.first: dict[tuple[str, str, int], int] = {}

    def response(self, seen, body):
        results = []
        for r in body.get("results") or []:
            topics = []
            for t in r.get("topics") or []:
                parts = []
                for p in t.get("partitions") or []:
                    key = (r.get("log_dir"), t["name"], p["partition_index"])
                    size = self.first.setdefault(key, p["partition_size"])
                    parts.append({**p, "partition_size": size})
                topics.append({**t, "partitions": parts})
            results.append({**r, "topics": topics})
        return {**body, "results": results}


@mutant
class AlterReplicaLogDirsUnknownDirAccepted(Mutant):
    """AlterReplicaLogDirs to a directory the broker does not have answers NONE (a broker that
    records the move for later instead of checking its configured dirs)."""
    name = "alter-replica-log-dirs-unknown-dir-accepted"
    catches = ("M5",)
    apis = (ApiKey.AlterReplicaLogDirs,)
    over = KAFKA_OVER

    def response(self, seen, body):
        return {**body, "results": [{**t, "partitions": [
            {**p, "error_code": Errors.NONE if p.get("error_code") == Errors.LOG_DIR_NOT_FOUND else p["error_code"]}
            for p in t.get("partitions") or []]} for t in body.get("results") or []]}


@mutant
class ListConfigResourcesOmitsTheLast(Mutant):
    """ListConfigResources leaves out the last resource it would list (an off-by-one in a
    paging loop)."""
    name = "list-config-resources-omits-the-last"
    catches = ("M6",)
    apis = (ApiKey.ListConfigResources,)
    over = KAFKA_OVER

    def response(self, seen, body):
        listed = body.get("config_resources") or []
        return {**body, "config_resources": listed[:-1]} if listed else None


@mutant
class FindCoordinatorWrongPort(Mutant):
    """FindCoordinator names its coordinator at a port one past the broker's (a broker that
    answers another listener's port than the one Metadata gives the client)."""
    name = "find-coordinator-wrong-port"
    catches = ("M7",)
    apis = (ApiKey.FindCoordinator,)
    over = KAFKA_OVER

    def response(self, seen, body):
        if seen.api_version >= 4:
            return {**body, "coordinators": [{**c, "port": c["port"] + 1} for c in body.get("coordinators") or []]}
        return {**body, "port": body["port"] + 1}


@mutant
class FindCoordinatorBatchFirstKeyOnly(Mutant):
    """FindCoordinator v4+ answers a batch of keys with the first key's entry alone (a
    broker that reads ``coordinator_keys`` as the one key of v3)."""
    name = "find-coordinator-batch-first-key-only"
    catches = ("M7",)
    apis = (ApiKey.FindCoordinator,)
    over = KAFKA_OVER

    def response(self, seen, body):
        if seen.api_version < 4 or len(body.get("coordinators") or []) < 2:
            return None
        return {**body, "coordinators": body["coordinators"][:1]}


declared(Recoding, "unregister-broker-unknown-id-accepted",
         """UnregisterBroker of a broker id no broker has answers NONE (a controller that treats
         removing what is not there as done).""",
         catches=("M8",), apis=(ApiKey.UnregisterBroker,), over=KAFKA_OVER,
         recodes=(Errors.BROKER_ID_NOT_REGISTERED, Errors.NONE))


@mutant
class RaftVoterChangeAccepted(Mutant):
    """AddRaftVoter and RemoveRaftVoter answer NONE whatever the leader found (a broker that
    acknowledges a forwarded voter change before the controller answers it)."""
    name = "raft-voter-change-accepted"
    catches = ("M9",)
    apis = (ApiKey.AddRaftVoter, ApiKey.RemoveRaftVoter)
    over = KAFKA_OVER

    def response(self, seen, body):
        if body.get("error_code") == Errors.NONE:
            return None
        return {**body, "error_code": Errors.NONE, "error_message": None}
