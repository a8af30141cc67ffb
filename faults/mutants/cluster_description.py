"""Cluster-description faults (catalogue M1-M3): a DescribeCluster that describes another
cluster, a DescribeTopicPartitions cursor that skips a partition, and a quorum whose leader
is not one of its voters. M1's mutant runs over noida (it serves DescribeCluster v0 as Kafka
does); M2's and M3's over kafka:4.4.0 (noida serves neither API, tansu ignores the page
limit).
"""
from __future__ import annotations

from protocol.apis import ApiKey

from .mutant import Mutant, mutant

KAFKA = "kafka:4.4.0"


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
    over = KAFKA

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
    over = KAFKA

    def response(self, seen, body):
        topics = [{**t, "partitions": [{**p, "leader_id": 1 + max([r["replica_id"] for r in
                                                                     p.get("current_voters") or []] or [0])}
                                       for p in t.get("partitions") or []]}
                  for t in body.get("topics") or []]
        return {**body, "topics": topics}
