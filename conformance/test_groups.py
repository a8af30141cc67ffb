"""G1-G6: consumer groups and their committed offsets as the Admin client alters, lists,
describes and deletes them (OffsetCommit, OffsetFetch, ListGroups, DescribeGroups,
DeleteGroups, OffsetDelete, ConsumerGroupDescribe), against Kafka's group coordinator; G5's
and G6's groups have a member, joined over the wire (JoinGroup; ConsumerGroupHeartbeat).

Kafka's rules, with their sources, are in ``reference/group_rules.py``; the model the answers
are judged against is ``conformance/group_model.py``:

* G1: offsets committed (OffsetCommit, generation -1, no member: the Admin client's
  ``alterConsumerGroupOffsets``) for a group that does not exist make it a simple, empty
  classic group (``OffsetMetadataManager.validateOffsetCommit``); OffsetFetch then answers
  each partition asked exactly as committed, or offset -1 and metadata "" where nothing was
  committed (``fetchOffsets``); ListGroups lists the group (state ``Empty`` from v4) and
  DescribeGroups describes it ``Empty`` with no member (``GroupMetadataManager.listGroups``,
  ``describeGroups``).
* G2: DescribeGroups describes a group the coordinator does not have as ``Dead`` with no
  member, with error NONE below v6 and GROUP_ID_NOT_FOUND from v6 (KIP-1043), each group of
  the request on its own (``GroupMetadataManager.describeGroups``).
* G3: DeleteGroups deletes an empty group (NONE) and answers GROUP_ID_NOT_FOUND for one the
  coordinator does not have, each entry on its own whatever the others are; a deleted group's
  offsets go with it (``GroupMetadataManager.validateDeleteGroup``,
  ``ClassicGroup.validateDeleteGroup``, ``OffsetMetadataManager.deleteAllOffsets``).
* G4: OffsetDelete of some partitions of an empty group answers NONE for each and removes
  those offsets alone; of a group the coordinator does not have it answers GROUP_ID_NOT_FOUND
  (``OffsetMetadataManager.deleteOffsets``, ``validateOffsetDelete``).
* G5: a classic group with a member is refused deletion, and so are the offsets of the
  topics it subscribes to (``ClassicGroup.validateDeleteGroup``, ``validateOffsetDelete``).
* G6: ConsumerGroupDescribe (KIP-848) describes a consumer group with its member, and
  answers GROUP_ID_NOT_FOUND for a classic group and an unknown one, each group id on its
  own (``GroupMetadataManager.consumerGroupDescribe``, ``consumerGroup``).

Every group is the check's own (a fresh run-prefixed name per example, ``check.topic``; the
external-cluster guard, ``fixtures/scope.py``, refuses any other group name) and is deleted
when its example ends; the end-of-run clean-up (``fixtures/leftovers.py``) lists and deletes
the run's groups on a cluster the suite did not start. Group requests go to the group's
coordinator (FindCoordinator) on a cluster of several brokers; a coordinator still loading
its partition is asked again for up to ``VISIBLE_S``.
"""
from __future__ import annotations

import pytest

from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors
from protocol import requests as build
from reference.group_rules import DEAD, EMPTY, STABLE, describe_unknown_code
from reference import switches
from reference.modes import OFFSETS_V0_SERVED
from strategies import groups as gen

from . import capabilities
from .group_client import Groups
from .group_model import GroupModel
from .parametrize import every_version
from protocol.kafka_sources import KAFKA as K

COORD = K + "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/"
GMM, OMM, CLASSIC = COORD + "GroupMetadataManager.java", COORD + "OffsetMetadataManager.java", \
    COORD + "classic/ClassicGroup.java"
G1_SOURCE = (OMM + " (validateOffsetCommit, fetchOffsets); " + GMM + " (getOrMaybeCreateClassicGroup, listGroups, "
             "describeGroups)")
G2_SOURCE = (GMM + " (describeGroups); " + K + "clients/src/main/resources/common/message/DescribeGroupsResponse.json "
             "(version 6: GROUP_ID_NOT_FOUND); KIP-1043 \"Administration of groups\"")
G3_SOURCE = (GMM + " (validateDeleteGroup, createGroupTombstoneRecords); " + CLASSIC + " (validateDeleteGroup); "
             + OMM + " (deleteAllOffsets, fetchOffsets)")
G4_SOURCE = OMM + " (deleteOffsets, validateOffsetDelete); " + CLASSIC + " (validateOffsetDelete, isSubscribedToTopic)"

def _offsets(topics: dict[str, list]) -> dict:
    """{(topic, partition): (offset, metadata)} of the drawn commits (None: not committed)."""
    return {(t, p): (c[0], c[1]) for t, parts in topics.items() for p, c in enumerate(parts) if c is not None}


# -- G1 -------------------------------------------------------------------------------------

@pytest.mark.prop("G1", source=G1_SOURCE, judges=(ApiKey.ListGroups, ApiKey.DescribeGroups))
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.OffsetCommit, ApiKey.OffsetFetch)))
def test_g1_offsets_committed_for_an_empty_group_are_fetched_back_exactly_and_the_group_is_listed(check, api_key,
                                                                                                 version):
    """OffsetCommit (generation -1, no member) of drawn offsets and metadata for a new group,
    then OffsetFetch of every partition of the topics (one of the two at this version, the
    other at the newest the broker advertises; at v0, which keeps offsets in ZooKeeper, both
    at v0): each committed partition answers exactly its
    offset and metadata, each other one -1 and ""; ListGroups lists the group once (state
    Empty from v4) and DescribeGroups describes it Empty with no member. v0 in ZooKeeper mode
    keeps the offset alone, in ZooKeeper (``KafkaApis`` commitOffsetsToZookeeper; v0's
    OffsetFetch answers NO_METADATA "", and UNKNOWN_TOPIC_OR_PARTITION with offset -1 for a
    partition holding none: ``OffsetFetchResponse.UNKNOWN_PARTITION``), apart from the
    coordinator's groups, so there the offsets are judged and the listing is not; a KRaft 3.x
    broker refuses v0 (reference/modes.py OFFSETS_V0_SERVED: G1 is unsupported)."""
    check.require(api_key, version)
    g = Groups(check)
    cv = version if api_key == ApiKey.OffsetCommit else g.cv
    fv = version if api_key == ApiKey.OffsetFetch else g.fv
    if version == 0:
        # v0 of both keeps offsets in ZooKeeper, apart from the coordinator's store
        # (OffsetCommitRequest.json, OffsetFetchRequest.json): v0 is read back with v0
        other = ApiKey.OffsetFetch if api_key == ApiKey.OffsetCommit else ApiKey.OffsetCommit
        check.require(other, 0)
        cv = fv = 0

    def judged(value):
        base = check.topic("go")
        topics = {f"{base}-{i}": parts for i, parts in enumerate(value)}
        ids = g.topics({t: len(parts) for t, parts in topics.items()}, (cv, fv))
        group, model = check.topic("g"), GroupModel()
        offsets = _offsets(topics)
        in_zookeeper = cv == 0 and OFFSETS_V0_SERVED.now()
        try:
            client = g.client(group)
            g.commit(client, group, offsets, ids, v=cv)
            # v0 keeps the offset alone in ZooKeeper: read back with no metadata ("")
            model.commit(group, {k: (o, "") for k, (o, _) in offsets.items()} if in_zookeeper else offsets)
            asked = [(t, p) for t, parts in topics.items() for p in range(len(parts))]
            # (and a partition with no offset in ZooKeeper answers UNKNOWN_TOPIC_OR_PARTITION, -1)
            g.fetch(client, group, model.fetch(group, asked), ids, v=fv, says="after the commit: ",
                    uncommitted=Errors.UNKNOWN_TOPIC_OR_PARTITION if in_zookeeper else Errors.NONE)
            if in_zookeeper:
                return      # a ZooKeeper offset makes no group of the coordinator's to list or describe
            lv = g.admin.version(ApiKey.ListGroups)
            g.answered(client, ApiKey.ListGroups, lv, build.list_groups(lv))
            check.expect_field(["error_code"], [Errors.NONE], says=f"ListGroups v{lv}: NONE")
            check.expect_field(["groups", {"group_id": group}, "group_id"], count=1, retry_s=VISIBLE_S,
                               says=f"ListGroups v{lv} lists {group!r}, made by the commit, once")
            if lv >= 4:
                check.expect_field(["groups", {"group_id": group}, "group_state"], [EMPTY],
                                   says=f"ListGroups v{lv}: {group!r} has no member: Empty")
            g.describe(client, [group])
            check.expect_field(["groups", {"group_id": group}, "error_code"], [Errors.NONE], count=1,
                               says=f"DescribeGroups of {group!r}: NONE")
            check.expect_field(["groups", {"group_id": group}, "group_state"], [EMPTY], count=1,
                               says=f"DescribeGroups: {group!r}, a simple group with no member, is Empty")
            check.expect_field(["groups", {"group_id": group}, "members", "member_id"], count=0,
                               says=f"DescribeGroups: {group!r} lists no member")
        finally:
            g.forget([group])

    check.given(gen.offsets(), judged, first=[[[5, "m"], None], [[0, ""]]])


# -- G2 -------------------------------------------------------------------------------------

def groups_on_a_fresh_topic(check, hint: str, partitions: int = 1) -> tuple[Groups, str]:
    """The check's Groups and a fresh topic of ``partitions`` it created (the groups commit
    offsets of it)."""
    g = Groups(check)
    topic = check.topic(hint)
    g.admin.create_topic(topic, partitions)
    return g, topic


def _made(check, g: Groups, kinds: list[str], topic: str) -> tuple[list[str], GroupModel]:
    """A fresh group per entry of ``kinds``; the "known" ones get an offset of ``topic``-0
    committed (setup), so the coordinator has them, empty."""
    names = [check.topic("g") for _ in kinds]
    model = GroupModel()
    for name, kind in zip(names, kinds):
        if kind == "known":
            offset = {(topic, 0): (len(model.held), "")}
            g.commit(g.client(name), name, offset, {}, setup=True, says="setup: ")
            model.commit(name, offset)
    return names, model


@pytest.mark.prop("G2", source=G2_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DescribeGroups,)))
def test_g2_describe_groups_answers_an_unknown_group_dead_each_group_on_its_own(check, api_key, version):
    """DescribeGroups at this version of a drawn batch of groups, some made empty by a commit
    and some never made, in a drawn order: one entry per group; each made one NONE, Empty;
    each unknown one Dead with no member, error NONE below v6 and GROUP_ID_NOT_FOUND from v6
    (KIP-1043)."""
    check.require(api_key, version)
    g, topic = groups_on_a_fresh_topic(check, "gd")

    def judged(kinds):
        names, model = _made(check, g, list(kinds), topic)
        try:
            for client, batch in g.by_coordinator(names):
                g.describe(client, batch, v=version)
                check.expect_field(["groups", "group_id"], count=len(batch),
                                   says=f"one entry per group asked ({len(batch)})")
                for name in batch:
                    at = ["groups", {"group_id": name}]
                    if name in model.held:
                        code, state, why = Errors.NONE, EMPTY, "made by a commit, no member"
                    else:
                        code, state = describe_unknown_code(version), DEAD
                        why = "never made" + (" (v6+, KIP-1043)" if code else " (below v6)")
                    check.expect_field([*at, "error_code"], [code], count=1, says=f"{name!r}, {why}: error {code}")
                    check.expect_field([*at, "group_state"], [state], count=1, says=f"{name!r}, {why}: {state}")
                    check.expect_field([*at, "members", "member_id"], count=0, says=f"{name!r} lists no member")
        finally:
            g.forget([n for n in names if n in model.held])

    check.given(gen.batch(), judged, first=["unknown", "known", "unknown"])


# -- G3 -------------------------------------------------------------------------------------

@pytest.mark.prop("G3", source=G3_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DeleteGroups,)))
def test_g3_delete_groups_deletes_each_empty_group_and_refuses_each_unknown_one_alone(check, api_key, version):
    """DeleteGroups at this version of a drawn batch of groups, some made empty by a commit
    and some never made, in a drawn order: one result per group; each made one NONE, each
    unknown one GROUP_ID_NOT_FOUND, whatever the others are; afterwards OffsetFetch of each
    deleted group lists no offset (-1) for the partition it had committed."""
    check.require(api_key, version)
    g, topic = groups_on_a_fresh_topic(check, "gx")

    def judged(kinds):
        names, model = _made(check, g, list(kinds), topic)
        made = [n for n in names if n in model.held]
        try:
            for client, batch in g.by_coordinator(names):
                codes = model.delete_groups(batch)
                g.answered(client, ApiKey.DeleteGroups, version, build.delete_groups(version, batch))
                check.expect_field(["results", "group_id"], count=len(batch),
                                   says=f"one result per group asked ({len(batch)})")
                for name, code in codes.items():
                    why = "an empty group" if code == Errors.NONE else "a group never made"
                    check.expect_field(["results", {"group_id": name}, "error_code"], [code], count=1,
                                       says=f"{name!r}, {why}: error {code}, whatever the other entries are")
            for name in made:
                g.fetch(g.client(name), name, model.fetch(name, [(topic, 0)]), {},
                        says=f"after DeleteGroups deleted {name!r}: ")
        finally:
            g.forget(made)

    check.given(gen.batch(), judged, first=["known", "unknown", "known"])


# -- G4 -------------------------------------------------------------------------------------

@pytest.mark.prop("G4", source=G4_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.OffsetDelete,)))
def test_g4_offset_delete_removes_the_offsets_named_alone_and_refuses_an_unknown_group(check, api_key, version):
    """After offsets are committed (setup) for every partition of a topic for a new empty
    group, OffsetDelete at this version of a drawn proper subset of them answers NONE (top
    level and each partition) and OffsetFetch then answers -1 for those and the committed
    offset for the others; OffsetDelete of a group never made answers GROUP_ID_NOT_FOUND."""
    check.require(api_key, version)
    g, topic = groups_on_a_fresh_topic(check, "gd", 4)

    def judged(value):
        n, deleted = value["partitions"], value["deleted"]
        group, unknown, model = check.topic("g"), check.topic("g"), GroupModel()
        offsets = {(topic, p): (10 * (p + 1), f"p{p}") for p in range(n)}
        try:
            client = g.client(group)
            g.commit(client, group, offsets, {}, setup=True, says="setup: ")
            model.commit(group, offsets)
            code = model.delete_offsets(group, [(topic, p) for p in deleted])
            g.answered(client, ApiKey.OffsetDelete, version, build.offset_delete(version, group, [(topic, deleted)]))
            check.expect_field(["error_code"], [code], says=f"OffsetDelete of {group!r}, an empty group: NONE")
            check.expect_field(["topics", "partitions", "partition_index"], count=len(deleted),
                               says=f"one result per partition named ({len(deleted)})")
            for p in deleted:
                check.expect_field(["topics", {"name": topic}, "partitions", {"partition_index": p}, "error_code"],
                                   [Errors.NONE], count=1, says=f"{topic}-{p}, not subscribed to: NONE")
            g.fetch(client, group, model.fetch(group, list(offsets)), {},
                    says=f"after OffsetDelete of partitions {deleted}: ")
            other = g.client(unknown)
            g.answered(other, ApiKey.OffsetDelete, version, build.offset_delete(version, unknown, [(topic, [0])]))
            check.expect_field(["error_code"], [model.delete_offsets(unknown, [(topic, 0)])],
                               says=f"OffsetDelete of {unknown!r}, a group never made: GROUP_ID_NOT_FOUND")
        finally:
            g.forget([group])

    check.given(gen.deletions(), judged, first={"partitions": 3, "deleted": [1]})


# -- G5: a group with a member ------------------------------------------------------------

G5_SOURCE = (GMM + " (classicGroupJoin, classicGroupJoinToClassicGroup, validateDeleteGroup); " + CLASSIC
             + " (validateDeleteGroup, validateOffsetDelete, initNextGeneration, isSubscribedToTopic, "
               "computeSubscribedTopics); "
             + OMM + " (deleteOffsets)")


#: the member's session and rebalance timeouts, and how long its JoinGroup may take. Kafka
#: completes a new group's first join within the rebalance timeout (its initial delay,
#: ``group.initial.rebalance.delay.ms``, 3 s by default, is bounded by it: ``ClassicGroup``,
#: ``GroupMetadataManager.prepareRebalance``); the session timeout is Kafka's smallest
#: default allowed one (``group.min.session.timeout.ms``, 6 s) with room for the check's few
#: requests after the join (Kafka's tighter bound is the rebalance timeout: a member that
#: does not SyncGroup within it is removed, ``GroupMetadataManager.schedulePendingSync``).
#: tansu holds a join for half the session timeout, so a longer one only slows it. A broker that holds the join longer than the rebalance timeout
#: and JOIN_MARGIN_S fails the check then, not after the whole request timeout.
SESSION_MS, REBALANCE_MS, JOIN_MARGIN_S = 6_000, 5_000, 2.0


class Member:
    """A consumer in a classic group, over the wire: a static member (KIP-345, JoinGroup v5+
    with a run-prefixed ``group_instance_id``), so that its requests carry nothing the
    coordinator makes up (a dynamic member's id, asked back by MEMBER_ID_REQUIRED, differs
    at every join: a reproducer could not send the same requests). Its JoinGroup completes
    the join: the group is in CompletingRebalance, awaiting the leader's SyncGroup, with
    the member's subscription read (``ClassicGroup.initNextGeneration``,
    ``computeSubscribedTopics``); Kafka judges a deletion there as in Stable
    (``ClassicGroup.validateDeleteGroup``, ``validateOffsetDelete``). It leaves by its
    instance id (LeaveGroup v3+) when the check ends, well within its session timeout."""

    def __init__(self, g: Groups, client, group: str, topics: list[str]):
        check = g.check
        for api_key in (ApiKey.JoinGroup, ApiKey.LeaveGroup):
            check.require(api_key)
        self.g, self.client, self.group, self.instance = g, client, group, f"{group}-member"
        jv = g.admin.version(ApiKey.JoinGroup, at_least=5)
        timeout = client.conn.timeout
        client.conn.set_timeout(min(timeout, REBALANCE_MS / 1000 + JOIN_MARGIN_S))
        try:
            g.answered(client, ApiKey.JoinGroup, jv, build.join_group(
                jv, group, "", build.consumer_subscription(topics), instance_id=self.instance,
                session_timeout_ms=SESSION_MS, rebalance_timeout_ms=REBALANCE_MS))
        finally:
            client.conn.set_timeout(timeout)
        check.expect_field(["error_code"], [Errors.NONE], setup=True,
                           says=f"setup: JoinGroup v{jv} of {group!r} as a static consumer of {topics}: NONE")
        check.expect_field(["members", "member_id"], count=1,
                           says=f"setup: {group!r} has one member, the leader, told the members", setup=True)
        self.member_id = (check.answers[check.last_step].response or {}).get("member_id") or ""

    def leave(self) -> None:
        lv = self.g.admin.version(ApiKey.LeaveGroup)
        member_id = "" if lv >= 3 else self.member_id
        self.client.send(ApiKey.LeaveGroup, lv, build.leave_group(lv, self.group, member_id,
                                                                  self.instance if lv >= 3 else None))


@pytest.mark.prop("G5", source=G5_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DeleteGroups, ApiKey.OffsetDelete)))
def test_g5_a_group_with_a_member_is_not_deleted_nor_its_subscribed_offsets(check, api_key, version):
    """A consumer joins a group (JoinGroup as a static member, subscribed to one topic) that
    holds committed offsets of that topic and of another. DeleteGroups at this version of it,
    an empty group and a group never made answers NON_EMPTY_GROUP, NONE and
    GROUP_ID_NOT_FOUND, each alone; OffsetDelete at this version of a partition of each topic
    answers GROUP_SUBSCRIBED_TO_TOPIC for the subscribed one and NONE for the other, and
    OffsetFetch then lists the subscribed one's offset and none for the other. The member
    leaves afterwards."""
    check.require(api_key, version)
    g = Groups(check)

    def judged(_):
        base = check.topic("gm")
        subscribed, other = f"{base}-sub", f"{base}-other"
        for t in (subscribed, other):
            g.admin.create_topic(t)
        group, empty, unknown = check.topic("g"), check.topic("g"), check.topic("g")
        model, member = GroupModel(), None
        offsets = {(subscribed, 0): (7, "s"), (other, 0): (9, "o")}
        try:
            client = g.client(group)
            g.commit(client, group, offsets, {}, setup=True, says="setup: ")
            model.commit(group, offsets)
            if api_key == ApiKey.DeleteGroups:
                g.commit(g.client(empty), empty, {(other, 0): (1, "")}, {}, setup=True, says="setup: ")
            member = Member(g, client, group, [subscribed])
            if api_key == ApiKey.DeleteGroups:
                names = [unknown, group, empty]
                codes = {group: Errors.NON_EMPTY_GROUP, empty: Errors.NONE, unknown: Errors.GROUP_ID_NOT_FOUND}
                why = {group: "a member is in it", empty: "empty", unknown: "never made"}
                for c, batch in g.by_coordinator(names):
                    g.answered(c, ApiKey.DeleteGroups, version, build.delete_groups(version, batch))
                    for name in batch:
                        check.expect_field(["results", {"group_id": name}, "error_code"], [codes[name]], count=1,
                                           says=f"{name!r}, {why[name]}: error {codes[name]}, whatever the other "
                                                "entries are")
            else:
                g.answered(client, ApiKey.OffsetDelete, version,
                           build.offset_delete(version, group, [(subscribed, [0]), (other, [0])]))
                check.expect_field(["error_code"], [Errors.NONE],
                                   says=f"OffsetDelete of {group!r}: NONE at the top level")
                check.expect_field(["topics", {"name": subscribed}, "partitions", {"partition_index": 0},
                                    "error_code"], [Errors.GROUP_SUBSCRIBED_TO_TOPIC], count=1,
                                   says=f"{subscribed}-0, a topic the member subscribes to: GROUP_SUBSCRIBED_TO_TOPIC")
                check.expect_field(["topics", {"name": other}, "partitions", {"partition_index": 0}, "error_code"],
                                   [Errors.NONE], count=1, says=f"{other}-0, a topic no member subscribes to: NONE")
                model.delete_offsets(group, [(other, 0)])
                g.fetch(client, group, model.fetch(group, list(offsets)), {},
                        says="after OffsetDelete while a member subscribes to one topic: ")
        finally:
            if member is not None:
                member.leave()
            g.forget([group, empty])

    check.once(None, judged)


# -- G6: a consumer group (KIP-848) as ConsumerGroupDescribe describes it -------------------

G6_SOURCE = (GMM + " (consumerGroupDescribe, consumerGroup, consumerGroupHeartbeat); " + COORD
             + "modern/consumer/ConsumerGroup.java (asDescribedGroup, the states); KIP-848 \"The Next Generation of "
               "the Consumer Rebalance Protocol\"")


class Consumer:
    """A member of a consumer group (KIP-848), over the wire: ConsumerGroupHeartbeat at the
    newest version the broker advertises, member epoch 0, subscribed to ``topics`` by name,
    the coordinator's default assignor. Its member id is its own (``group`` + "-member": the
    consumer generates it from v1, ``ConsumerGroupHeartbeatRequest.json``), so a reproducer
    sends the same requests. It leaves (member epoch -1) when the check ends, well within the
    coordinator's session timeout (``group.consumer.session.timeout.ms``, 45 s by default)."""

    def __init__(self, g: Groups, client, group: str, topics: list[str]):
        check = g.check
        check.require(ApiKey.ConsumerGroupHeartbeat)
        self.g, self.client, self.group = g, client, group
        self.hv = g.admin.version(ApiKey.ConsumerGroupHeartbeat)
        joined = g.answered(client, ApiKey.ConsumerGroupHeartbeat, self.hv, build.consumer_group_heartbeat(
            self.hv, group, f"{group}-member", 0, topics=topics, rebalance_timeout_ms=REBALANCE_MS))
        # Kafka advertises the API and serves it only with the protocol switched on (3.x:
        # off by default; 4.x: group.version): unsupported with that evidence, else a finding
        capabilities.expect_served(check, switches.CONSUMER_GROUPS, ["error_code"],
                                   f"ConsumerGroupHeartbeat v{self.hv} of {group!r}, member epoch 0")
        check.expect_field(["error_code"], [Errors.NONE], setup=True,
                           says=f"setup: ConsumerGroupHeartbeat v{self.hv} of {group!r}, member epoch 0, "
                                f"subscribed to {topics}: NONE")
        answer = check.answers[check.last_step].response or {}
        self.member_id, self.epoch = answer.get("member_id") or f"{group}-member", answer.get("member_epoch", 0)

    def leave(self) -> None:
        self.client.send(ApiKey.ConsumerGroupHeartbeat, self.hv,
                         build.consumer_group_heartbeat(self.hv, self.group, self.member_id, -1))


@pytest.mark.prop("G6", source=G6_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.ConsumerGroupDescribe,)))
def test_g6_consumer_group_describe_describes_a_consumer_group_and_no_other_each_on_its_own(check, api_key, version):
    """A consumer joins a consumer group (ConsumerGroupHeartbeat, subscribed to a topic of
    two partitions) and another joins a classic group (JoinGroup, as G5's). ConsumerGroupDescribe
    at this version of a drawn batch of the consumer group, the classic group or not and
    0-2 group ids never made, in a drawn order: one entry per group id; the consumer group
    NONE, Stable (once the coordinator says it is: its one member reached its target
    assignment), with that member (its member id, the subscribed topic, both partitions of
    it assigned); the classic group and each unknown one GROUP_ID_NOT_FOUND, with no member
    and no message or Kafka's, whatever the other entries are. Both members leave
    afterwards. A broker that does not advertise ConsumerGroupHeartbeat has no consumer
    group: it is asked the rest of the batch."""
    check.require(api_key, version)
    g = Groups(check)
    # a broker that serves no consumer group (no ConsumerGroupHeartbeat) is asked the rest
    joins = check.broker.advertised(ApiKey.ConsumerGroupHeartbeat) is not None
    topic, partitions = check.topic("gc"), 2
    g.admin.create_topic(topic, partitions)
    consumer_group, classic_group = check.topic("g"), check.topic("g")
    model, members = GroupModel(), []
    try:
        if joins:
            client = g.client(consumer_group)
            member = Consumer(g, client, consumer_group, [topic])
            members.append(member)
            model.consumers[consumer_group] = {member.member_id: ([topic], [(topic, p) for p in range(partitions)])}
            # the coordinator reconciles the member with its target assignment: asked until Stable
            g.answered(client, ApiKey.ConsumerGroupDescribe, version,
                       build.consumer_group_describe(version, [consumer_group]))
            check.expect_field(["groups", "group_state"], [STABLE], setup=True, retry_s=VISIBLE_S,
                               says=f"setup: {consumer_group!r} is Stable once its member has its assignment")
        # the classic group holds an offset too, so that it outlives its member's removal
        classic_client = g.client(classic_group)
        g.commit(classic_client, classic_group, {(topic, 0): (1, "")}, {}, setup=True, says="setup: ")
        members.append(Member(g, classic_client, classic_group, [topic]))
        model.classic.add(classic_group)

        def judged(kinds):
            names = {"consumer": consumer_group, "classic": classic_group}
            batch_names = [names.get(k) or check.topic("g") for k in kinds]
            for c, batch in g.by_coordinator(batch_names):
                g.answered(c, ApiKey.ConsumerGroupDescribe, version, build.consumer_group_describe(version, batch))
                check.expect_field(["groups", "group_id"], count=len(batch),
                                   says=f"one entry per group id asked ({len(batch)})")
                for name, (code, messages) in model.consumer_describe(batch).items():
                    at = ["groups", {"group_id": name}]
                    why = ("a consumer group" if name in model.consumers else
                           "a classic group" if name in model.classic else "never made")
                    check.expect_field([*at, "error_code"], [code], count=1,
                                       says=f"{name!r}, {why}: error {code}, whatever the other entries are")
                    check.expect_field([*at, "error_message"], messages, count=1,
                                       says=f"{name!r}, {why}: message one of {messages}")
                    if name not in model.consumers:
                        check.expect_field([*at, "members", "member_id"], count=0, says=f"{name!r} lists no member")
                        continue
                    check.expect_field([*at, "group_state"], [STABLE], count=1,
                                       says=f"{name!r}: Stable, its member reconciled")
                    for member_id, (subscribed, assigned) in model.consumers[name].items():
                        m = [*at, "members", {"member_id": member_id}]
                        check.expect_field([*at, "members", "member_id"], [member_id], count=1,
                                           says=f"{name!r} lists its one member, {member_id!r}")
                        check.expect_field([*m, "subscribed_topic_names", "*"], subscribed, count=len(subscribed),
                                           says=f"{member_id!r} subscribes to {subscribed}")
                        tps = [*m, "assignment", "topic_partitions"]
                        check.expect_field([*tps, "topic_name"], sorted({t for t, _ in assigned}), count=1,
                                           says=f"{member_id!r} is assigned partitions of {subscribed}")
                        check.expect_field([*tps, "partitions", "*"], [p for _, p in assigned], count=len(assigned),
                                           distinct=True, says=f"{member_id!r} is assigned every partition "
                                                                f"{[p for _, p in assigned]}, each once")

        check.given(gen.described(joins), judged, first=["unknown", *["consumer"] * joins, "classic", "unknown"])
    finally:
        for m in members:
            m.leave()
        g.forget([consumer_group, classic_group])
