"""What a generated request of each admin API may carry: per API, the fields whose value the
schema alone would draw unsafely or uselessly, and what to draw instead (with why).

The generic generator (:mod:`strategies.bodies`) draws every field from the schema
(:mod:`strategies.schema`), every name from the run's names (:mod:`strategies.entities`: the
schemas' ``entityType`` tags and the declarations' ``names``), then applies these rules. A
rule maps a dotted request path to a value, a strategy, or ``fn(names, version)`` returning
one; paths a version lacks are ignored. A family of properties extends an API's rules
(``SAFE[ApiKey.X]["path"] = Rule(...)``) rather than writing a generator of its own.

Requests that could damage the broker under test name nothing real: broker and voter ids no
node has (UnregisterBroker, AddRaftVoter, RemoveRaftVoter: :data:`strategies.entities.FAKE_NODE_IDS`),
a log dir no broker has (AlterReplicaLogDirs), only validate_only feature updates or a feature
no broker knows (UpdateFeatures), only the run's topics for leader elections and
reassignments (never the null "every partition"), only the run's principals in ACL filters
that delete, never a default (null) client quota entity, a voter's listener on loopback at a
port nothing serves.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from hypothesis import strategies as st

from protocol import schema_facts
from protocol.apis import ApiKey, ConfigResourceType
from protocol.requests import TIMEOUT_MS, AclOperation, AclPatternType, AclPermission, AclResourceType

from .entities import RunNames


@dataclass(frozen=True)
class Rule:
    """What to draw at one request path (a value, a strategy or ``fn(names, version)``) and why."""
    draw: object
    why: str

    def strategy(self, names: RunNames, version: int):
        value = self.draw(names, version) if callable(self.draw) and not isinstance(self.draw, st.SearchStrategy) \
            else self.draw
        return value if isinstance(value, st.SearchStrategy) else st.just(value)


def _ints(lo, hi):
    return st.integers(lo, hi)


def _unique_ints(lo=0, hi=3, min_size=1):
    return st.lists(st.integers(lo, hi), min_size=min_size, max_size=3, unique=True)


#: Kafka's names, drawn where a request filters or updates by them.
#: apache/kafka server-common/src/main/java/org/apache/kafka/server/common/Feature.java
FEATURES = ("metadata.version", "kraft.version", "group.version", "transaction.version",
            "eligible.leader.replicas.version", "share.version", "streams.version")
#: apache/kafka clients/src/main/java/org/apache/kafka/common/GroupState.java, GroupType.java
GROUP_STATES = ("PreparingRebalance", "CompletingRebalance", "Stable", "Dead", "Empty", "Assigning",
                "Reconciling", "NotReady")
GROUP_TYPES = ("classic", "consumer", "share", "streams")
#: apache/kafka transaction-coordinator/src/main/java/org/apache/kafka/coordinator/transaction/TransactionState.java
TRANSACTION_STATES = ("Empty", "Ongoing", "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort",
                      "Dead", "PrepareEpochFence")
#: apache/kafka server-common/src/main/java/org/apache/kafka/server/config/QuotaConfig.java (client quota keys)
QUOTA_KEYS = ("producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate",
              "connection_creation_rate")
#: apache/kafka clients/src/main/java/org/apache/kafka/common/quota/ClientQuotaEntity.java
QUOTA_ENTITY_TYPES = ("user", "client-id", "ip")
#: apache/kafka clients/src/main/java/org/apache/kafka/clients/admin/ScramMechanism.java (0: UNKNOWN)
SCRAM_MECHANISMS = (0, 1, 2)
#: apache/kafka clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramMechanism.java
#: (minIterations 4096; Kafka refuses more than 16384) and values either side
SCRAM_ITERATIONS = (4096, 8192, 16384, 1, 16385)
#: apache/kafka clients/src/main/java/org/apache/kafka/common/ElectionType.java (PREFERRED 0, UNCLEAN 1)
ELECTION_TYPES = (0, 1)
#: apache/kafka clients/src/main/java/org/apache/kafka/clients/admin/FeatureUpdate.java UpgradeType
#: (UNKNOWN 0, UPGRADE 1, SAFE_DOWNGRADE 2, UNSAFE_DOWNGRADE 3)
UPGRADE_TYPES = (0, 1, 2, 3)
#: DescribeCluster's endpoint type (KIP-919): apache/kafka clients/.../common/requests/EndpointType.java
ENDPOINT_TYPES = (0, 1, 2)
#: ListOffsets' special timestamps (ListOffsetsRequest.java: LATEST -1 .. EARLIEST_PENDING_UPLOAD -6)
OFFSET_SPECS = (-1, -2, -3, -4, -5, -6)

_TIMEOUT = Rule(TIMEOUT_MS, "the suite's timeout, long enough for a loaded broker")
_PARTITION = Rule(_ints(0, 3), "partitions a run's topic may have")
_PARTITIONS = Rule(_unique_ints(), "distinct partitions a run's topic may have")
_SHARE_GROUP = Rule(lambda n, v: n.share_groups, "the run's share groups, named apart from the groups offsets are "
                                                "committed to (reference/known_deviations.py)")
_GROUP_MEMBER_EPOCH = Rule(-1, "as the Admin client: no member, a simple group (alterConsumerGroupOffsets)")


def _nullable(strategy):
    return st.none() | strategy


# Kafka refuses to parse an ACL request naming an UNKNOWN (0) or undefined resource type,
# pattern type, operation or permission (DescribeAclsRequest / CreateAclsRequest /
# DeleteAclsRequest validate: IllegalArgumentException, the connection is closed): a valid
# request draws Kafka's defined codes only.
def _acl_resource_types(names, v):
    # USER resources only from v3 (CreateAclsRequest.json "Version 3 adds user resource type")
    return st.sampled_from([int(t) for t in AclResourceType if t != AclResourceType.USER or v >= 3])


_ACL_OPERATIONS = st.sampled_from([int(o) for o in AclOperation])
_ACL_PATTERNS = st.sampled_from([int(p) for p in AclPatternType])
_ACL_PERMISSIONS = st.sampled_from([int(p) for p in AclPermission])


def _features(names: RunNames, v: int):
    validate_only = schema_facts.has_field(ApiKey.UpdateFeatures, v, "validate_only")
    return st.sampled_from(FEATURES) | names.features if validate_only else names.features


def _quota_entity(names: RunNames, v: int):
    # user and client-id entities named by the run (never null: the default entity applies to everyone)
    one = st.sampled_from(["user", "client-id"]).flatmap(
        lambda t: names.users.map(lambda n, t=t: {"entity_type": t, "entity_name": n}))
    return st.lists(one, min_size=1, max_size=2, unique_by=lambda e: e["entity_type"])


def _quota_ops(names: RunNames, v: int):
    op = st.fixed_dictionaries({"key": st.sampled_from(QUOTA_KEYS) | names.users,
                                "value": st.floats(0, 1e7, allow_nan=False), "remove": st.booleans()})
    return st.lists(op, max_size=3, unique_by=lambda o: o["key"])


def _quota_components(names: RunNames, v: int):
    component = st.fixed_dictionaries({"entity_type": st.sampled_from(QUOTA_ENTITY_TYPES),
                                       "match_type": st.sampled_from([0, 1, 2]), "match": _nullable(names.users)})
    return st.lists(component, max_size=2)


def _voter_listeners(names: RunNames, v: int):
    # loopback, a port nothing serves: the leader may try to reach the "new voter" and fail
    listener = st.fixed_dictionaries({"name": st.sampled_from(["CONTROLLER", "kac"]), "host": st.just("127.0.0.1"),
                                      "port": st.just(1)})
    return st.lists(listener, max_size=1)


def _transactional_id_pattern(names: RunNames, v: int):
    return st.sampled_from([None, names.prefix + ".*", "^" + names.prefix.replace("-", "\\-") + ".*$", names.prefix])


def _renewers(names: RunNames, v: int, min_size: int = 1):
    return st.lists(st.fixed_dictionaries({"principal_type": st.just("User"), "principal_name": names.users}),
                    min_size=min_size, max_size=2)


def _token_owners(names: RunNames, v: int):
    return _nullable(_renewers(names, v, min_size=0))


#: Per admin API: dotted request path -> Rule. Applied after the run's names.
SAFE: dict[ApiKey, dict[str, Rule]] = {
    ApiKey.ListOffsets: {
        "replica_id": Rule(-1, "a consumer's request, as the Admin client's listOffsets (a replica id is a follower's)"),
        "isolation_level": Rule(st.sampled_from([0, 1]), "READ_UNCOMMITTED, READ_COMMITTED"),
        "topics.partitions.partition_index": _PARTITION,
        "topics.partitions.current_leader_epoch": Rule(st.sampled_from([-1, -1, 0, 5]), "unknown (-1) or a small epoch"),
        "topics.partitions.timestamp": Rule(st.sampled_from(OFFSET_SPECS) | _ints(0, 2_000_000_000_000),
                                            "an OffsetSpec or a timestamp"),
        "timeout_ms": _TIMEOUT,
    },
    ApiKey.OffsetCommit: {
        "generation_id_or_member_epoch": _GROUP_MEMBER_EPOCH,
        "member_id": Rule("", "no member (alterConsumerGroupOffsets)"),
        "group_instance_id": Rule(None, "no static member"),
        "retention_time_ms": Rule(-1, "the broker's retention"),
        "topics.partitions.partition_index": _PARTITION,
        "topics.partitions.committed_offset": Rule(_ints(-1, 1000), "small offsets (-1: none)"),
        "topics.partitions.committed_leader_epoch": Rule(-1, "unknown"),
        "topics.partitions.committed_metadata": Rule(_nullable(st.text(max_size=8)), "short metadata"),
    },
    ApiKey.OffsetFetch: {
        "groups.member_id": Rule(None, "no member, as the Admin client"),
        "groups.member_epoch": _GROUP_MEMBER_EPOCH,
        "topics.partition_indexes": _PARTITIONS,
        "groups.topics.partition_indexes": _PARTITIONS,
    },
    ApiKey.FindCoordinator: {
        "key_type": Rule(st.sampled_from([0, 1, 2]), "GROUP, TRANSACTION, SHARE (FindCoordinatorRequest.CoordinatorType)"),
    },
    ApiKey.ListGroups: {
        "states_filter": Rule(st.lists(st.sampled_from(GROUP_STATES), max_size=2, unique=True), "Kafka's group states"),
        "types_filter": Rule(st.lists(st.sampled_from(GROUP_TYPES), max_size=2, unique=True), "Kafka's group types"),
    },
    ApiKey.DescribeAcls: {
        "resource_type_filter": Rule(_acl_resource_types, "ResourceType codes (0: UNKNOWN)"),
        "pattern_type_filter": Rule(_ACL_PATTERNS, "PatternType codes"),
        "operation": Rule(_ACL_OPERATIONS, "AclOperation codes"),
        "permission_type": Rule(_ACL_PERMISSIONS, "AclPermissionType codes"),
        "host_filter": Rule(st.sampled_from([None, "*", "127.0.0.1"]), "any, every host, loopback"),
        "principal_filter": Rule(lambda n, v: _nullable(n.principals), "any or a run principal"),
        "resource_name_filter": Rule(lambda n, v: _nullable(st.one_of(n.topics, n.groups)), "any or a run resource"),
    },
    ApiKey.CreateAcls: {
        "creations.resource_type": Rule(_acl_resource_types, "ResourceType codes"),
        "creations.resource_pattern_type": Rule(st.sampled_from([3, 3, 4, 1, 2]),
                                                "LITERAL, PREFIXED; ANY and MATCH are refused per creation"),
        "creations.host": Rule(st.sampled_from(["*", "127.0.0.1"]), "every host, loopback"),
        "creations.operation": Rule(_ACL_OPERATIONS, "AclOperation codes"),
        "creations.permission_type": Rule(st.sampled_from([2, 3, 3, 1]), "DENY, ALLOW; ANY is refused per creation"),
    },
    ApiKey.DeleteAcls: {
        "filters.resource_type_filter": Rule(_acl_resource_types, "ResourceType codes"),
        "filters.pattern_type_filter": Rule(_ACL_PATTERNS, "PatternType codes"),
        "filters.operation": Rule(_ACL_OPERATIONS, "AclOperation codes"),
        "filters.permission_type": Rule(_ACL_PERMISSIONS, "AclPermissionType codes"),
        "filters.host_filter": Rule(st.sampled_from([None, "*"]), "any host, every host"),
        "filters.resource_name_filter": Rule(lambda n, v: _nullable(st.one_of(n.topics, n.groups)),
                                             "any or a run resource (the principal is always the run's)"),
    },
    ApiKey.AlterReplicaLogDirs: {
        "dirs": Rule(lambda n, v: st.lists(st.fixed_dictionaries({"path": n.log_dirs, "topics": st.lists(
            st.fixed_dictionaries({"name": n.topics, "partitions": _unique_ints()}), min_size=1, max_size=2,
            unique_by=lambda t: t["name"])}), min_size=1, max_size=1),
            "one log dir no broker has, the run's topics (a replica moved across dirs is one result)"),
    },
    ApiKey.DescribeLogDirs: {"topics.partitions": _PARTITIONS},
    ApiKey.CreateDelegationToken: {
        "owner_principal_type": Rule("User", "a user (null: the requester, whom the clean-up cannot tell apart)"),
        "owner_principal_name": Rule(lambda n, v: n.users, "a run user"),
        "renewers": Rule(_renewers, "at least one run user (v1-v2 tokens are the requester's: the clean-up finds "
                                    "them by their renewers)"),
        "max_lifetime_ms": Rule(st.sampled_from([-1, 60_000, 3_600_000]), "the broker's, a minute, an hour"),
    },
    ApiKey.RenewDelegationToken: {
        "hmac": Rule(st.binary(min_size=16, max_size=64), "an HMAC no token has (random)"),
        "renew_period_ms": Rule(st.sampled_from([-1, 60_000]), "the broker's, a minute"),
    },
    ApiKey.ExpireDelegationToken: {
        "hmac": Rule(st.binary(min_size=16, max_size=64), "an HMAC no token has (random)"),
        "expiry_time_period_ms": Rule(st.sampled_from([-1, 60_000]), "now, a minute"),
    },
    ApiKey.DescribeDelegationToken: {"owners": Rule(_token_owners, "every token, or the run users'")},
    ApiKey.ElectLeaders: {
        "election_type": Rule(st.sampled_from(ELECTION_TYPES), "PREFERRED, UNCLEAN"),
        "topic_partitions": Rule(lambda n, v: st.lists(st.fixed_dictionaries({"topic": n.topics, "partitions": _unique_ints()}),
                                                       min_size=1, max_size=3, unique_by=lambda t: t["topic"]),
                                 "only the run's topics, never null (every partition of the cluster)"),
        "timeout_ms": _TIMEOUT,
    },
    ApiKey.AlterPartitionReassignments: {
        "timeout_ms": _TIMEOUT,
        "topics.partitions.partition_index": _PARTITION,
        "topics.partitions.replicas": Rule(_nullable(st.lists(_ints(0, 3), max_size=2, unique=True)),
                                           "cancel (null) or small broker ids: only the run's topics move"),
    },
    ApiKey.ListPartitionReassignments: {"timeout_ms": _TIMEOUT, "topics.partition_indexes": _PARTITIONS},
    ApiKey.OffsetDelete: {"topics.partitions.partition_index": _PARTITION},
    ApiKey.DescribeClientQuotas: {"components": Rule(_quota_components, "user/client-id/ip components, run names")},
    ApiKey.AlterClientQuotas: {
        "entries.entity": Rule(_quota_entity, "run-named user and client-id entities, never the default (null)"),
        "entries.ops": Rule(_quota_ops, "Kafka's quota keys and unknown ones"),
    },
    ApiKey.DescribeUserScramCredentials: {
        "users": Rule(lambda n, v: _nullable(st.lists(st.fixed_dictionaries({"name": n.users}), max_size=3,
                                                      unique_by=lambda u: u["name"])), "every user, or run users"),
    },
    ApiKey.AlterUserScramCredentials: {
        "deletions.mechanism": Rule(st.sampled_from(SCRAM_MECHANISMS), "ScramMechanism codes"),
        "upsertions.mechanism": Rule(st.sampled_from(SCRAM_MECHANISMS), "ScramMechanism codes"),
        "upsertions.iterations": Rule(st.sampled_from(SCRAM_ITERATIONS), "Kafka's bounds and either side"),
        "upsertions.salt": Rule(st.binary(min_size=0, max_size=32), "a salt (empty: refused)"),
        "upsertions.salted_password": Rule(st.binary(min_size=0, max_size=64), "a salted password (empty: refused)"),
    },
    ApiKey.DescribeQuorum: {"topics.partitions.partition_index": Rule(_ints(0, 1), "the metadata partition is 0")},
    ApiKey.UpdateFeatures: {
        "timeout_ms": _TIMEOUT,
        "validate_only": Rule(True, "never applied: validate_only where the version has it"),
        "feature_updates.feature": Rule(_features, "Kafka's features only when validate_only; else unknown ones"),
        "feature_updates.max_version_level": Rule(_ints(-1, 30), "levels around Kafka's"),
        "feature_updates.upgrade_type": Rule(st.sampled_from(UPGRADE_TYPES), "FeatureUpdate.UpgradeType codes"),
    },
    ApiKey.DescribeCluster: {"endpoint_type": Rule(st.sampled_from(ENDPOINT_TYPES), "UNKNOWN, BROKER, CONTROLLER")},
    ApiKey.DescribeProducers: {"topics.partition_indexes": _PARTITIONS},
    ApiKey.ListTransactions: {
        "state_filters": Rule(st.lists(st.sampled_from(TRANSACTION_STATES) | st.just("kac-unknown"), max_size=2,
                                       unique=True), "Kafka's transaction states, an unknown one"),
        "producer_id_filters": Rule(st.lists(_ints(-1, 1 << 40), max_size=2, unique=True), "producer ids"),
        "duration_filter": Rule(st.sampled_from([-1, 0, 60_000]), "none, any, a minute"),
        "transactional_id_pattern": Rule(_transactional_id_pattern, "none or the run's ids (a regular expression)"),
    },
    ApiKey.ListConfigResources: {
        "resource_types": Rule(st.lists(st.sampled_from([int(t) for t in ConfigResourceType] + [99]), max_size=3,
                                        unique=True), "ConfigResource.Type codes and an unknown one"),
    },
    ApiKey.DescribeTopicPartitions: {
        "response_partition_limit": Rule(_ints(100, 2000), "room for every partition asked (a page cut short "
                                                           "lists fewer topics)"),
        "cursor": Rule(None, "from the first topic"),
    },
    ApiKey.AddRaftVoter: {
        "timeout_ms": Rule(_ints(100, 1000), "short: the voter never answers"),
        "listeners": Rule(_voter_listeners, "loopback at a port nothing serves"),
        "cluster_id": Rule(st.sampled_from([None, "kac-not-this-cluster"]), "any or another cluster"),
    },
    ApiKey.RemoveRaftVoter: {"cluster_id": Rule(st.sampled_from([None, "kac-not-this-cluster"]), "any or another cluster")},
    ApiKey.ShareGroupDescribe: {"group_ids": Rule(lambda n, v: st.lists(n.share_groups, min_size=1, max_size=3,
                                                                        unique=True), _SHARE_GROUP.why)},
    ApiKey.DescribeShareGroupOffsets: {
        "groups.group_id": _SHARE_GROUP,
        "groups.topics.partitions": Rule(_unique_ints(0, 1), "partitions 0 and 1, which the check's topics have: a "
                                                             "higher one is the shape of a known deviation of Kafka "
                                                             "4.4 (reference/known_deviations.py), its own check"),
    },
    ApiKey.DeleteShareGroupOffsets: {"group_id": _SHARE_GROUP},
    ApiKey.AlterShareGroupOffsets: {
        "group_id": _SHARE_GROUP,
        "topics.partitions.partition_index": _PARTITION,
        "topics.partitions.start_offset": Rule(_ints(-1, 1000), "small offsets (-1: latest)"),
    },
}


def rules(api_key: int) -> dict[str, Rule]:
    return SAFE.get(ApiKey(api_key), {})


__all__ = ["FEATURES", "Rule", "SAFE", "rules"]
