"""The group rules (reference/group_rules.py) and the model built on them
(conformance/group_model.py), without a broker."""
from __future__ import annotations

from hypothesis import given, settings

from conformance.group_model import GroupModel
from protocol import Errors
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


@settings(max_examples=30, deadline=None)
@given(gen.batch(), gen.deletions(), gen.offsets())
def test_the_strategies_draw_what_the_checks_need(batch, deletions, offsets):
    assert 1 <= len(batch) <= 4 and set(batch) <= {"known", "unknown"}
    n, deleted = deletions["partitions"], deletions["deleted"]
    assert 1 <= len(deleted) < n and deleted == sorted(set(deleted)) and max(deleted) < n
    assert any(c is not None for t in offsets for c in t)
