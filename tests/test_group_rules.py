"""The group rules (reference/group_rules.py) and the model built on them
(conformance/group_model.py), and the ConsumerGroupHeartbeat builder, without a broker."""
from __future__ import annotations

from hypothesis import given, settings

from conformance.group_model import GroupModel
from protocol import Errors
from protocol import requests as build
from reference.group_rules import NO_OFFSET, describe_unknown_code, fetched
from strategies import groups as gen



def test_an_unknown_group_is_described_without_an_error_below_v6_and_not_found_from_v6():
    assert [describe_unknown_code(v) for v in range(7)] == [Errors.NONE] * 6 + [Errors.GROUP_ID_NOT_FOUND]


def test_fetch_answers_what_is_held_and_no_offset_elsewhere():
    assert fetched({("t", 0): (5, "m")}, [("t", 0), ("t", 1)]) == {("t", 0): (5, "m"), ("t", 1): (NO_OFFSET, "")}


def test_deleting_groups_judges_each_alone_and_takes_the_offsets_with_the_group():
    m = GroupModel()
    m.commit("a", {("t", 0): (1, "")})
    assert m.delete_groups(["x", "a", "y"]) == {"x": Errors.GROUP_ID_NOT_FOUND, "a": Errors.NONE,
                                                 "y": Errors.GROUP_ID_NOT_FOUND}
    assert m.fetch("a", [("t", 0)]) == {("t", 0): (NO_OFFSET, "")}
    assert m.delete_groups(["a"]) == {"a": Errors.GROUP_ID_NOT_FOUND}


def test_offset_delete_removes_only_the_partitions_named():
    m = GroupModel()
    m.commit("g", {("t", 0): (1, "a"), ("t", 1): (2, "b")})
    assert m.delete_offsets("g", [("t", 1)]) == Errors.NONE
    assert m.fetch("g", [("t", 0), ("t", 1)]) == {("t", 0): (1, "a"), ("t", 1): (NO_OFFSET, "")}
    assert m.delete_offsets("nobody", [("t", 0)]) == Errors.GROUP_ID_NOT_FOUND


def test_consumer_group_describe_describes_consumer_groups_alone_each_id_on_its_own():
    m = GroupModel()
    m.consumers["c"] = {"c-member": (["t"], [("t", 0)])}
    m.classic.add("k")
    m.commit("o", {("t", 0): (1, "")})
    assert m.consumer_describe(["x", "c", "k", "o"]) == {
        "x": (Errors.GROUP_ID_NOT_FOUND, [None, "Group x not found."]),
        "c": (Errors.NONE, [None]),
        "k": (Errors.GROUP_ID_NOT_FOUND, [None, "Group k is not a consumer group."]),
        "o": (Errors.GROUP_ID_NOT_FOUND, [None, "Group o is not a consumer group."])}


def test_a_consumer_joins_with_its_subscription_and_no_partition_and_leaves_with_epoch_minus_one():
    join = build.consumer_group_heartbeat(1, "g", "g-member", 0, topics=["t"], rebalance_timeout_ms=5000)
    assert (join["member_epoch"], join["subscribed_topic_names"], join["topic_partitions"],
            join["rebalance_timeout_ms"], join["subscribed_topic_regex"]) == (0, ["t"], [], 5000, None)
    leave = build.consumer_group_heartbeat(0, "g", "g-member", -1)
    assert (leave["member_epoch"], leave["subscribed_topic_names"], leave["topic_partitions"]) == (-1, None, None)
    assert "subscribed_topic_regex" not in leave


@settings(max_examples=30, deadline=None)
@given(gen.described(), gen.described(False))
def test_a_described_batch_holds_the_consumer_group_once_where_there_is_one(with_consumer, without):
    assert with_consumer.count("consumer") == 1 and "consumer" not in without and without
    assert with_consumer.count("classic") <= 1 and with_consumer.count("unknown") <= 2


@settings(max_examples=30, deadline=None)
@given(gen.batch(), gen.deletions(), gen.offsets())
def test_the_strategies_draw_what_the_checks_need(batch, deletions, offsets):
    assert 1 <= len(batch) <= 4 and set(batch) <= {"known", "unknown"}
    n, deleted = deletions["partitions"], deletions["deleted"]
    assert 1 <= len(deleted) < n and deleted == sorted(set(deleted)) and max(deleted) < n
    assert any(c is not None for t in offsets for c in t)
