"""S2's invariants of the admin families, checked with S1's (``invariants.py``) before the
first step and after every step: each family's describe equals its part of the model
(``plane_model.py``), polled until it holds (the brokers apply the controller's records to
their metadata image asynchronously; the coordinator writes offsets through its log).

* ACLs: DescribeAcls of every binding of each principal ``User:SUB-u1``/``-u2`` lists the
  model's, each once;
* client quotas: DescribeClientQuotas (strict, exact) of each user entity lists the model's
  values;
* SCRAM: DescribeUserScramCredentials of both users lists each one's mechanisms and
  iterations, or RESOURCE_NOT_FOUND;
* groups: OffsetFetch of each group of the example, of every partition it committed in the
  example, answers the model's offset and metadata, or -1 (a deleted topic's, a deleted
  group's);
* features: ApiVersions lists the finalized features at the levels learnt before the first
  step (``reference/plane_rules.py`` FEATURES_STAY);
* delegation tokens: DescribeDelegationToken of both users lists exactly the model's tokens
  of each (as many, each once), every one renewable by the super user alone (the HMACs and
  ids are the broker's, new on every run: counted, not compared);
* share groups: DescribeShareGroupOffsets of each share group the example made, every topic
  (``topics`` null), lists exactly the model's topics and, for each, the partitions with the
  model's start offsets (a deleted topic's are gone: TOPIC_DELETION_DROPS_SHARE_OFFSETS);
* group configs and client metrics: DescribeConfigs of each GROUP (CLIENT_METRICS) resource
  the example configured lists exactly the model's GROUP_CONFIG (CLIENT_METRICS_CONFIG)
  entries (a deleted group's stay: GROUP_DELETION_KEEPS_GROUP_CONFIGS; one type's change
  leaves the other's of the same name: CONFIG_RESOURCES_ARE_TYPED);
* consumer groups: ConsumerGroupDescribe of each consumer group the example made lists the
  model's members, each once, each with its subscription and a target assignment naming only
  topics that exist, and only subscribed ones once it is computed for the group's epoch (not
  Assigning) (TOPIC_DELETION_UNASSIGNS_PARTITIONS); with none left, Empty or
  gone;
* broker configs: DescribeConfigs of the cluster-wide broker default lists the model's
  ``log.retention.ms`` (DYNAMIC_DEFAULT_BROKER_CONFIG) or none; what it does to the topics
  (BROKER_DEFAULTS_REACH_TOPICS) S1's configs invariant checks, the model's fresh-topic
  value of ``retention.ms`` being the default's while it is set;
* reassignments: ListPartitionReassignments of every partition of the example's topics
  lists none (S2 reassigns a partition only to the replicas it has).
"""
from __future__ import annotations

from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, ConfigResourceType, ConfigSource, Errors
from protocol import requests as build
from reference import plane_rules as rules
from reference.group_rules import BY_TOPIC_ID_FROM, NO_OFFSET
from reference.quota_rules import entity

from ..acl_model import everything_of
from .resource_config_operations import CLIENT_METRICS, GROUP, AlterBrokerDefault
from .token_operations import SUPER_NAME as RENEWER

USERS = ("u1", "u2")
#: the steps after which the features look counts FEATURES_STAY (a level kept between group operations)
GROUP_STEPS = (ApiKey.OffsetCommit.name, ApiKey.DeleteGroups.name)


def looks(row) -> list:
    """The invariants of ``row``'s families: ``(script line, look)``."""
    return [(line, look) for family, line, look in LOOKS if family in row.families]


def _acls(run) -> dict:
    m, acls = run.model, run.row.acls
    for u in USERS:
        principal = m.principal(u)
        held = {b for b in m.acls.held if b.principal == principal}
        acls.describe(everything_of(principal), held, acls.dv, f"every binding of {principal}, as the model holds")
    return {}


def _quotas(run) -> dict:
    m, quotas = run.model, run.row.quotas
    for u in USERS:
        ent = entity(user=m.user(u))
        quotas.describe_entity(ent, m.quotas.of(ent), quotas.dv, "as the model holds")
    return {}


def _scram(run) -> dict:
    m, scram = run.model, run.row.scram
    users = [m.user(u) for u in USERS]
    scram.describe(users, scram.dv)
    scram.expect_described({u: ms for u, ms in m.scram.items() if u in users}, users, "as the model holds")
    return {}


def _offsets(run) -> dict:
    m, groups = run.model, run.row.groups
    v = min(groups.fv, BY_TOPIC_ID_FROM - 1)        # by name: a deleted topic has no id to ask by
    for g in sorted(m.asked):
        held = m.groups.get(g, {})
        expected = {tp: held.get(tp, (NO_OFFSET, "")) for tp in sorted(m.asked[g])}
        groups.fetch(groups.client(g), g, expected, {}, v, says=f"{g} as the model holds: ")
    return {}


def _transactions(run) -> dict:
    m, check = run.model, run.check
    tid = m.name("tx1")
    if m.txn_state is None:
        return {}               # never initialised: nothing of it to describe (X2 asks an unknown id)
    coordinator = run.row.transaction_coordinator(tid)
    v = coordinator.version(ApiKey.DescribeTransactions)
    coordinator.client.answered(ApiKey.DescribeTransactions, v, build.describe_transactions(v, [tid]))
    ours = ["transaction_states", {"transactional_id": tid}]
    check.expect_field(ours + ["error_code"], [Errors.NONE], count=1, says=f"DescribeTransactions of {tid!r}: NONE")
    check.expect_field(ours + ["transaction_state"], [m.txn_state], says=f"{tid!r} is {m.txn_state}")
    check.expect_field(ours + ["producer_id"], [m.producer[0]], says=f"{tid!r}: producer id {m.producer[0]}")
    by_topic: dict[str, list[int]] = {}
    for t, p in sorted(m.txn_partitions):
        by_topic.setdefault(t, []).append(p)
    check.expect_field(ours + ["topics", "topic"], sorted(by_topic), count=len(by_topic),
                       says=f"{tid!r}: the topics of the partitions added, {sorted(by_topic)}")
    for t, ps in by_topic.items():
        check.expect_field(ours + ["topics", {"topic": t}, "partitions", "*"], ps, count=len(ps), distinct=True,
                           says=f"{tid!r}: exactly the partitions of {t} added, {ps}")
    return {}


def _features(run) -> dict:
    m, check, row = run.model, run.check, run.row
    answer = row.client.answered(ApiKey.ApiVersions, row.features_version, build.api_versions(row.features_version))
    seen = {f["name"]: f["max_version_level"] for f in answer.get("finalized_features") or []}
    check.expect_field(["finalized_features", "name"], sorted(m.features), count=len(m.features),
                       says=f"the finalized features are still {sorted(m.features)}")
    for name, level in sorted(m.features.items()):
        check.expect_field(["finalized_features", {"name": name}, "max_version_level"], [level], count=1,
                           says=f"{name} still at level {level}")
    if m.features and seen == m.features and run.ops and run.ops[-1]["api"] in GROUP_STEPS:
        m.hit(rules.FEATURES_STAY)
    return {}


def _tokens(run) -> dict:
    m, check, row = run.model, run.check, run.row
    users = [m.user(u) for u in USERS]
    v = row.tokens_version
    row.client.answered(ApiKey.DescribeDelegationToken, v,
                        build.describe_delegation_token(v, [("User", u) for u in users]))
    check.expect_field(["error_code"], [Errors.NONE], says=f"DescribeDelegationToken v{v} of {users}: NONE")
    owners = sorted(t.owner for t in m.tokens.values())
    check.expect_field(["tokens", "principal_name"], sorted(set(owners)), count=len(owners),
                       says=f"the example's tokens, {len(owners)}, each owned by its user")
    for u in users:
        n = owners.count(u)
        check.expect_field(["tokens", {"principal_name": u}, "token_id"], None, count=n, distinct=True,
                           says=f"{u} owns {n} token(s), each listed once")
    if owners:
        check.expect_field(["tokens", "renewers", "principal_name"], [RENEWER], count=len(owners),
                           says=f"each token's one renewer is {RENEWER}")
    return {}


def _share(run) -> dict:
    m, check, share = run.model, run.check, run.row.share
    v = share.admin.version(ApiKey.DescribeShareGroupOffsets)
    for g in sorted(m.share):
        held = m.share[g]
        share.client(g).answered(ApiKey.DescribeShareGroupOffsets, v, build.describe_share_group_offsets(v, g, None))
        at = ["groups", {"group_id": g}]
        check.expect_field([*at, "error_code"], [Errors.NONE], count=1,
                           says=f"DescribeShareGroupOffsets v{v} of {g!r} (every topic): NONE")
        topics = sorted({t for t, _ in held})
        check.expect_field([*at, "topics", "topic_name"], topics, count=len(topics),
                           says=f"{g!r} holds start offsets of exactly {topics}")
        for t in topics:
            parts = sorted(p for tt, p in held if tt == t)
            check.expect_field([*at, "topics", {"topic_name": t}, "partitions", "partition_index"], parts,
                               count=len(parts), distinct=True, says=f"{g!r}: of {t}, exactly partitions {parts}")
            for p in parts:
                check.expect_field([*at, "topics", {"topic_name": t}, "partitions", {"partition_index": p},
                                    "start_offset"], [held[(t, p)]], count=1,
                                   says=f"{g!r}: {t}-{p} start offset {held[(t, p)]}")
    return {}


def _resource_configs(run, kind) -> dict:
    m, check, row = run.model, run.check, run.row
    held_by = m.resource_configs[kind.family]
    names = sorted(held_by)
    if not names:
        return {}
    v = row.ranges[ApiKey.DescribeConfigs][1]
    row.client.answered(ApiKey.DescribeConfigs, v, build.describe_configs(
        v, [(g, None) for g in names], resource_type=kind.type))
    what = kind.type.name
    for g in names:
        held = held_by[g]
        at = ["results", {"resource_name": g}]
        check.expect_field([*at, "error_code"], [Errors.NONE], count=1,
                           says=f"DescribeConfigs v{v} of {what} {g!r}: NONE")
        check.expect_field([*at, "configs", {"config_source": kind.source}, "name"], sorted(held),
                           count=len(held), says=f"{what} {g!r} overrides exactly {sorted(held)}")
        for key, value in sorted(held.items()):
            check.expect_field([*at, "configs", {"name": key}, "value"], [value], count=1,
                               says=f"{what} {g!r}: {key}={value}")
    return {}


def _broker_default(run) -> dict:
    m, check, row = run.model, run.check, run.row
    key, synonym = AlterBrokerDefault.KEY, AlterBrokerDefault.SYNONYM
    v = row.ranges[ApiKey.DescribeConfigs][1]
    row.client.answered(ApiKey.DescribeConfigs, v, build.describe_configs(
        v, [("", [key])], resource_type=ConfigResourceType.BROKER))
    at = ["results", {"resource_name": ""}]
    check.expect_field([*at, "error_code"], [Errors.NONE], count=1,
                       says=f"DescribeConfigs v{v} of the cluster-wide broker default: NONE")
    held = m.broker_defaults.get(synonym)
    if held is None:
        check.expect_field([*at, "configs", {"name": key}, "name"], [], count=0, says=f"no cluster-wide {key}")
        return {}
    check.expect_field([*at, "configs", {"name": key}, "value"], [held[0]], count=1,
                       says=f"the cluster-wide {key} is {held[0]}")
    check.expect_field([*at, "configs", {"name": key}, "config_source"],
                       [int(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)], count=1,
                       says=f"{key} is a dynamic cluster-wide default")
    return {}


def _reassignments(run) -> dict:
    m, check, row = run.model, run.check, run.row
    asked = [(n, range(t.partitions)) for n, t in sorted(m.topics.items()) if t.partitions]
    v = row.list_reassignments_version
    row.client.answered(ApiKey.ListPartitionReassignments, v, build.list_partition_reassignments(v, asked))
    check.expect_field(["error_code"], [Errors.NONE], says=f"ListPartitionReassignments v{v}: NONE")
    check.expect_field(["topics", "name"], [], count=0,
                       says=f"no partition of the example's topics {[n for n, _ in asked]} reassigning")
    return {}


def _consumers(run) -> dict:
    m, check, groups = run.model, run.check, run.row.groups
    v = run.row.consumer_describe_version
    for g in sorted(set(m.consumers) | m.consumer_groups_deleted):
        members = m.consumers.get(g)
        groups.answered(groups.client(g), ApiKey.ConsumerGroupDescribe, v, build.consumer_group_describe(v, [g]))
        at = ["groups", {"group_id": g}]
        if not members:
            allowed = [Errors.GROUP_ID_NOT_FOUND] if members is None else [Errors.NONE, Errors.GROUP_ID_NOT_FOUND]
            check.expect_field([*at, "error_code"], allowed, count=1,
                               says=f"ConsumerGroupDescribe v{v} of {g!r}: " + (
                                   "gone, deleted" if members is None else "Empty (or gone), every member left"))
            check.expect_field([*at, "members", "member_id"], [], count=0, says=f"{g!r} has no member")
            continue
        check.expect_field([*at, "error_code"], [Errors.NONE], count=1, says=f"ConsumerGroupDescribe v{v} of {g!r}: NONE")
        ids = sorted(c.member_id for c in members.values())
        check.expect_field([*at, "members", "member_id"], ids, count=len(ids), distinct=True,
                           says=f"{g!r}'s members are exactly the model's {len(ids)}")
        for slot, c in sorted(members.items()):
            mine = [*at, "members", {"member_id": c.member_id}]
            check.expect_field([*mine, "subscribed_topic_names", "*"], c.topics, count=len(c.topics), distinct=True,
                               says=f"{g!r} member {slot} subscribes to {c.topics}")
            target = [*mine, "target_assignment", "topic_partitions", "topic_name"]
            check.expect_field(target, sorted(m.topics), retry_s=VISIBLE_S,
                               says=f"{g!r} member {slot}'s target assignment names only topics that exist")
            existing = [t for t in c.topics if t in m.topics]
            check.expect_field(target, existing, when=(-1, [*at, "group_state"], COMPUTED),
                               says=f"{g!r} member {slot}'s target assignment, computed for the group's epoch, "
                                    f"names only subscribed topics that exist, {existing}")
    return {}


#: The consumer group states whose target assignment was computed for the group's epoch: in
#: Assigning (KIP-848) a member's subscription changed and the coordinator computes the new
#: target at the next heartbeat, so the described one is the previous epoch's
COMPUTED = ("Stable", "Reconciling")


#: Each family's invariant, in the order they are looked at: (family, script line, look).
LOOKS = (("acls", "(invariant) DescribeAcls", _acls), ("quotas", "(invariant) DescribeClientQuotas", _quotas),
         ("scram", "(invariant) DescribeUserScramCredentials", _scram), ("groups", "(invariant) OffsetFetch", _offsets),
         ("transactions", "(invariant) DescribeTransactions", _transactions),
         ("features", "(invariant) ApiVersions finalized features", _features),
         ("tokens", "(invariant) DescribeDelegationToken", _tokens),
         ("share", "(invariant) DescribeShareGroupOffsets", _share),
         ("group_configs", "(invariant) DescribeConfigs of groups", lambda run: _resource_configs(run, GROUP)),
         ("client_metrics", "(invariant) DescribeConfigs of client metrics",
          lambda run: _resource_configs(run, CLIENT_METRICS)),
         ("reassignments", "(invariant) ListPartitionReassignments", _reassignments),
         ("consumer_groups", "(invariant) ConsumerGroupDescribe", _consumers),
         ("broker_configs", "(invariant) DescribeConfigs of the cluster-wide broker default", _broker_default))
