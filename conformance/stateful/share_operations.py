"""S2's operations on share groups (KIP-932 "Queues for Kafka"; the admin side, KIP-1043 and
the share group offsets APIs): the example's share groups ``SUB-sg1``/``-sg2`` (names of
their own: a classic group's are G's), with no member, so that the admin may set them.

* AlterShareGroupOffsets of a topic of the example: a start offset per partition drawn
  from what the model knows of its log (its log start or its end), NONE for the group and
  each partition. An AlterShareGroupOffsets of an unknown group makes it a share group (as
  Y2 measured on kafka:4.4.0). UNKNOWN_TOPIC_OR_PARTITION for a partition is asked again,
  for VISIBLE_S (the coordinator may not know a topic just made: measured, as Y3 asks it).
* DeleteShareGroupOffsets of a topic the group holds start offsets of: NONE for the group
  and the topic; the offsets are gone.

DescribeShareGroupOffsets of each share group the example made, every topic (``topics``
null), is the family's invariant (``plane_invariants.py``): exactly the model's start
offsets. What a topic's deletion does to them (they go, and a re-created name inherits
none) is the rule TOPIC_DELETION_DROPS_SHARE_OFFSETS (``reference/plane_rules.py``).
"""
from __future__ import annotations

from hypothesis import strategies as st

from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors
from protocol import requests as build
from strategies import admin_plane as draws

from .operation import FamilyOperation, with_existing_partitions

SHARE_GROUPS = st.sampled_from(("sg1", "sg1", "sg2"))


class AlterShareGroupOffsets(FamilyOperation):
    api = ApiKey.AlterShareGroupOffsets
    family = "share"

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "group": SHARE_GROUPS, "topic": draws.TOPIC_SLOTS,
                                      "partitions": st.lists(st.integers(0, 1), min_size=1, max_size=2, unique=True),
                                      "at": st.sampled_from(("start", "end"))})

    def resolve(self, run, op):
        return with_existing_partitions(run, op)

    def render(self, op, n):
        return f"{n(op['group'])}: {n(op['topic'])} partitions {op['partitions']} at the log's {op['at']}"

    def perform(self, run, op, line):
        m, v = run.model, op["v"]
        group, topic = m.name(op["group"]), m.name(op["topic"])
        t = m.topics[topic]
        starts = [(p, (t.start if op["at"] == "start" else t.end)[p]) for p in op["partitions"]]
        share = run.row.share
        with run.judging(lambda: f"{line} -> not NONE"):
            share.answered(share.client(group), self.api, v, build.alter_share_group_offsets(v, group, [(topic, starts)]))
            run.check.expect_field(["error_code"], [Errors.NONE], says=f"AlterShareGroupOffsets v{v} of {group!r}: NONE")
            for p, o in starts:
                run.check.expect_field(["responses", {"topic_name": topic}, "partitions", {"partition_index": p},
                                        "error_code"], [Errors.NONE], count=1, retry_s=VISIBLE_S,
                                       says=f"AlterShareGroupOffsets v{v}: {topic}-{p} start offset {o} NONE")
        m.share_altered(group, topic, starts)
        self.settled(run, line, "NONE")


class DeleteShareGroupOffsets(FamilyOperation):
    api = ApiKey.DeleteShareGroupOffsets
    family = "share"
    field = "topics"

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "group": SHARE_GROUPS, "topic": draws.TOPIC_SLOTS})

    def resolve(self, run, op):
        m = run.model
        held = m.share.get(m.name(op["group"]), {})
        return op if any(t == m.name(op["topic"]) for t, _ in held) else None

    def render(self, op, n):
        return f"{n(op['group'])}: {n(op['topic'])}"

    def perform(self, run, op, line):
        m, v = run.model, op["v"]
        group, topic = m.name(op["group"]), m.name(op["topic"])
        with run.judging(lambda: f"{line} -> not NONE"):
            share = run.row.share
            share.answered(share.client(group), self.api, v, build.delete_share_group_offsets(v, group, [topic]))
            run.check.expect_field(["error_code"], [Errors.NONE], says=f"DeleteShareGroupOffsets v{v} of {group!r}: NONE")
            run.check.expect_field(["responses", {"topic_name": topic}, "error_code"], [Errors.NONE], count=1,
                                   says=f"DeleteShareGroupOffsets v{v}: {topic} NONE")
        m.share_deleted(group, topic)
        self.settled(run, line, "NONE")
