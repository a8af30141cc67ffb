"""S2's operations on groups and their committed offsets: OffsetCommit for a simple group
(generation -1, no member: the Admin client's ``alterConsumerGroupOffsets``) of the
example's groups ``SUB-g1``/``-g2`` on partitions of its topics, and DeleteGroups, judged as
the group properties judge them (``conformance/group_client.py``; Kafka's rules and their
sources in ``reference/group_rules.py``). What a topic's deletion does to the offsets is
the cross-family rule TOPIC_DELETION_DROPS_OFFSETS (``reference/plane_rules.py``).
OffsetFetch is the family's invariant (``plane_invariants.py``).

OffsetCommit is sent from v1: v0 keeps offsets in ZooKeeper, another store than the one
every later version and OffsetFetch read (``reference/modes.py`` OFFSETS_V0_SERVED), and
Kafka 4 serves no v0. From v10 (KIP-848's topic ids) it names topics by the id the model
learnt from the broker.
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol import ApiKey, Errors
from protocol import requests as build
from reference.group_rules import BY_TOPIC_ID_FROM
from strategies import admin_plane as draws

from .consumer_group_operations import GROUP as CONSUMER_GROUP
from .operation import FamilyOperation

#: the groups DeleteGroups names: the simple groups whose offsets OffsetCommit commits, and the
#: consumer group the consumer_groups family's members join
DELETED = st.sampled_from(("g1", "g2", CONSUMER_GROUP))


class OffsetCommit(FamilyOperation):
    api = ApiKey.OffsetCommit
    family = "groups"
    field = "partitions"
    min_version = 1

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "group": draws.GROUPS, "topic": draws.TOPIC_SLOTS,
                                      "partitions": st.lists(st.integers(0, 1), min_size=1, max_size=2, unique=True),
                                      "offset": st.integers(0, 50), "metadata": st.sampled_from(("", "s2"))})

    def resolve(self, run, op):
        """Only partitions the topic has; by id only once the model knows the topic's id."""
        t = run.model.topics.get(run.model.name(op["topic"]))
        if t is None or not t.partitions:
            return None
        op["partitions"] = [p for p in op["partitions"] if p < t.partitions]
        if not op["partitions"]:
            return None
        if op["v"] >= BY_TOPIC_ID_FROM and t.topic_id is None:
            op["v"] = BY_TOPIC_ID_FROM - 1
        return op

    def render(self, op, n):
        return (f"{n(op['group'])}: {n(op['topic'])} partitions {op['partitions']} at {op['offset']}"
                + (f" metadata {op['metadata']!r}" if op["metadata"] else ""))

    def perform(self, run, op, line):
        m, v, groups = run.model, op["v"], run.row.groups
        group, topic = m.name(op["group"]), m.name(op["topic"])
        offsets = {(topic, p): (op["offset"], op["metadata"]) for p in op["partitions"]}
        ids = {topic: m.topics[topic].topic_id} if v >= BY_TOPIC_ID_FROM else {}
        with run.judging(lambda: f"{line} -> not NONE"):
            groups.commit(groups.client(group), group, offsets, ids, v, says=f"{line}: ")
        m.committed(group, offsets)
        self.settled(run, line, "NONE")


class DeleteGroups(FamilyOperation):
    api = ApiKey.DeleteGroups
    family = "groups"
    field = "groups"

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "groups": st.lists(DELETED, min_size=1, max_size=1)})

    def render(self, op, n):
        return "groups: [" + ", ".join(n(g) for g in op["groups"]) + "]"

    def perform(self, run, op, line):
        m, v, groups, check = run.model, op["v"], run.row.groups, run.check
        group = m.name(op["groups"][0])
        refused = m.delete_refused(group)
        if refused:
            allowed, why = [Errors.NON_EMPTY_GROUP], "a consumer group with members"
        elif m.consumers.get(group) is not None:
            allowed, why = [Errors.NONE], "a consumer group every member left"
        elif m.groups.get(group):
            allowed, why = [Errors.NONE], "it holds offsets"
        elif group in m.emptied:
            allowed, why = [Errors.NONE, Errors.GROUP_ID_NOT_FOUND], ("its offsets went with their topic; the "
                                                                      "coordinator may have removed it too")
        else:
            allowed, why = [Errors.GROUP_ID_NOT_FOUND], "the example made no such group, or deleted it"
        got: dict = {}

        def said():
            code = got.get("code")
            return f"{line} -> {Errors(code).name if code is not None else 'no result'}"
        with run.judging(said):
            answer = groups.answered(groups.client(group), self.api, v, build.delete_groups(v, [group]))
            got["code"] = code = next((r.get("error_code") for r in answer.get("results") or []
                                       if r.get("group_id") == group), None)
            check.expect_field(["results", {"group_id": group}, "error_code"], allowed, count=1,
                               says=f"DeleteGroups v{v} of {group}: {' or '.join(Errors(c).name for c in allowed)} "
                                    f"({why})")
        if not refused:
            m.group_deleted(group)
        self.settled(run, line, Errors(code).name)
