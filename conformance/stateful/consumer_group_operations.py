"""S2's operation on a consumer group of KIP-848's protocol: ConsumerGroupHeartbeat of the
members ``m1``/``m2`` of the example's consumer group ``SUB-cg1``, each joining with a
subscription to one or two of the example's topic slots, changing its subscription, or
leaving.

What the group coordinator answers (``GroupMetadataManager.consumerGroupHeartbeat``): a join
(member epoch 0, the member id the client made: KIP-1082) NONE with a member epoch of 1 or
more and the partitions the assignor gives it, none where no topic it subscribed to exists
(the assignment names topics by id, new on every run: ConsumerGroupDescribe, the invariant,
checks them by name); a heartbeat at the member's epoch with a new subscription NONE at that epoch or a
later one; a leave (epoch -1) NONE with epoch -1.

ConsumerGroupDescribe of the group is the family's invariant (``plane_invariants.py``): its
members, each once, each with the model's subscription, and no member's target assignment
naming a topic the example deleted (TOPIC_DELETION_UNASSIGNS_PARTITIONS); once every member
left, the group is Empty with no member (or gone: a DeleteGroups of it). What DeleteGroups
answers a group with members (NON_EMPTY_GROUP, the group staying) is
MEMBERS_KEEP_THEIR_GROUP (``reference/plane_rules.py``). The family runs where the broker
advertises ConsumerGroupHeartbeat and ConsumerGroupDescribe (Kafka 4.0 and later by
default); a member is left when the example ends, and a member the suite never saw again
would leave with its session (45 s).
"""
from __future__ import annotations

import uuid

from hypothesis import strategies as st

from protocol import ApiKey, Errors
from protocol import requests as build
from strategies import admin_plane as draws

from .operation import FamilyOperation

GROUP = "cg1"
MEMBERS = st.sampled_from(("m1", "m1", "m2"))
#: a member's rebalance timeout (ms): longer than any example, so no member is fenced mid-sequence
REBALANCE_TIMEOUT_MS = 60_000


def member_id(sub: str, slot: str) -> str:
    """The member id a client makes (KIP-1082: a UUID), the same for a slot of one example."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{sub}/{slot}"))


class ConsumerGroupHeartbeat(FamilyOperation):
    api = ApiKey.ConsumerGroupHeartbeat
    family = "consumer_groups"
    field = "topics"

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True), "member": MEMBERS,
                                      "leave": draws.ONE_IN_FOUR,
                                      "topics": st.lists(draws.TOPIC_SLOTS, min_size=1, max_size=2, unique=True)})

    def resolve(self, run, op):
        joined = op["member"] in run.model.consumers.get(run.model.name(GROUP), {})
        return None if op["leave"] and not joined else op

    def render(self, op, n):
        what = "leaves" if op["leave"] else "subscribes to [" + ", ".join(n(t) for t in op["topics"]) + "]"
        return f"{n(GROUP)} member {op['member']} {what}"

    def perform(self, run, op, line):
        m, v, check = run.model, op["v"], run.check
        group = m.name(GROUP)
        held = m.consumers.get(group, {}).get(op["member"])
        topics = sorted(m.name(t) for t in op["topics"])
        mid = held.member_id if held else member_id(m.sub, op["member"])
        epoch = -1 if op["leave"] else held.epoch if held else 0
        body = build.consumer_group_heartbeat(v, group, mid, epoch, topics=None if op["leave"] else topics,
                                              rebalance_timeout_ms=-1 if held else REBALANCE_TIMEOUT_MS)
        groups = run.row.groups
        with run.judging(lambda: f"{line} -> not as the model"):
            answer = groups.answered(groups.client(group), self.api, v, body)
            if held and not op["leave"]:      # a reproducer sends the epoch its own run was given
                check.expect_learned(held.epoch.to_bytes(4, "big", signed=True), held.step, ["member_epoch"])
            check.expect_field(["error_code"], [Errors.NONE], says=f"ConsumerGroupHeartbeat v{v}: NONE")
            if op["leave"]:
                check.expect_field(["member_epoch"], [-1], says=f"ConsumerGroupHeartbeat v{v}: left, epoch -1")
            else:
                check.expect_field(["member_epoch"], None, at_least=max(epoch, 1),
                                   says=f"ConsumerGroupHeartbeat v{v}: member epoch at least {max(epoch, 1)}")
                if not held and not any(t in m.topics for t in topics):
                    check.expect_field(["assignment", "topic_partitions", "topic_id"], [], count=0,
                                       says="no partition assigned: no topic subscribed to exists")
        if op["leave"]:
            m.consumer_left(group, op["member"])
        else:
            m.consumer_joined(group, op["member"], answer.get("member_id") or mid, answer["member_epoch"], topics,
                              check.last_step)
        self.settled(run, line, "NONE")


__all__ = ["GROUP", "ConsumerGroupHeartbeat", "member_id"]
