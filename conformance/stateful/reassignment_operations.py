"""S2's operation on partition reassignments (KIP-455): AlterPartitionReassignments of some
partitions of one of the example's topics, each to its current replicas, to a broker no
node registered, or cancelled.

What the controller answers each partition (``ReplicationControlManager.alterPartitionReassignment``;
ZooKeeper mode checks the same in another order, ``reference/modes.py`` REASSIGNMENT_CHECKS):
UNKNOWN_TOPIC_OR_PARTITION for a topic or a partition it lacks ("Unable to find a topic
named", "Unable to find partition"); a cancel of a partition with no reassignment in progress
NO_REASSIGNMENT_IN_PROGRESS (``cancelPartitionReassignment``); replicas naming an unregistered
broker INVALID_REPLICA_ASSIGNMENT (``validateManualPartitionAssignment``: "no such broker is
registered"); its current replicas NONE, and nothing moves: no reassignment is left in
progress (``changePartitionReassignment`` of a target equal to the replicas it has). The
replicas are read from Metadata just before, so the step holds on any cluster size; only
moves the suite cannot undo at once are never sent (a real move needs a second broker and
time: issue 58's clusters).

ListPartitionReassignments of every partition is the family's invariant
(``plane_invariants.py``): none of the example's topics is reassigning. What a reassignment
does to the partition's log and offsets (nothing) is REASSIGNMENT_KEEPS_THE_LOG
(``reference/plane_rules.py``).
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol import ApiKey, Errors
from protocol import requests as build
from reference.modes import REASSIGNMENT_CHECKS
from strategies import admin_plane as draws

from .operation import FamilyOperation

#: what each partition is reassigned to: its current replicas, a broker no node registered, a cancel
TARGETS = st.sampled_from(("current", "current", "unregistered", "cancel"))
#: a broker id no node of a cluster the suite meets registers (KRaft node ids are small)
UNREGISTERED = 9999


class AlterPartitionReassignments(FamilyOperation):
    api = ApiKey.AlterPartitionReassignments
    family = "reassignments"
    field = "partitions"

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "topic": draws.TOPIC_SLOTS,
                                      "partitions": st.lists(st.integers(0, 2), min_size=1, max_size=2, unique=True),
                                      "to": TARGETS})

    def resolve(self, run, op):
        t = run.model.topics.get(run.model.name(op["topic"]))
        return None if t is not None and t.partitions is None else op     # a count not learnt yet

    def render(self, op, n):
        return f"{n(op['topic'])} partitions {op['partitions']} to {op['to']}"

    def predicted(self, m, topic: str, partition: int, to: str) -> int:
        """The code of the first check the partition fails, in the mode's order
        (``reference/modes.py`` REASSIGNMENT_CHECKS)."""
        t = m.topics.get(topic)
        failed = {"exists": t is None or partition >= t.partitions, "cancel": to == "cancel",
                  "replicas": to == "unregistered"}
        code = {"exists": Errors.UNKNOWN_TOPIC_OR_PARTITION, "cancel": Errors.NO_REASSIGNMENT_IN_PROGRESS,
                "replicas": Errors.INVALID_REPLICA_ASSIGNMENT}
        return next((code[c] for c in REASSIGNMENT_CHECKS.now() if failed[c]), Errors.NONE)

    def perform(self, run, op, line):
        m, v, to = run.model, op["v"], op["to"]
        topic = m.name(op["topic"])
        replicas = run.row.replicas_of(topic) if to == "current" else {}
        targets = [(p, None if to == "cancel" else [UNREGISTERED] if to == "unregistered" else replicas.get(p, [1]))
                   for p in op["partitions"]]
        run.send(self.api, v, build.alter_partition_reassignments(v, [(topic, targets)]), line)
        codes = {p: self.predicted(m, topic, p, to) for p in op["partitions"]}
        at = ["responses", {"name": topic}, "partitions"]
        with run.judging(lambda: f"{line} -> not as the model: {[Errors(c).name for c in codes.values()]}"):
            run.check.expect_field(["error_code"], [Errors.NONE], says=f"AlterPartitionReassignments v{v}: NONE")
            for p, code in codes.items():
                run.check.expect_field([*at, {"partition_index": p}, "error_code"], [code], count=1,
                                       says=f"AlterPartitionReassignments v{v}: {topic}-{p} to {to}: "
                                            f"{Errors(code).name}")
        m.reassigned(topic, [p for p, c in codes.items() if c == Errors.NONE])
        self.settled(run, line, ", ".join(Errors(c).name for c in codes.values()))


__all__ = ["AlterPartitionReassignments"]
