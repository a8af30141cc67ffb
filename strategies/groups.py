"""Generators for the group properties (catalogue G): the offsets a check commits for an
empty group, batches of known and unknown groups (of consumer, classic and unknown ones for
ConsumerGroupDescribe), and the partitions an OffsetDelete names.

Values are lists and plain numbers, so a counterexample stored as JSON replays unchanged;
group names are not drawn: the check gives each group a fresh run-prefixed name
(``conformance/test_groups.py``), so every group it touches is its own.
"""
from __future__ import annotations

from hypothesis import strategies as st

#: committed metadata: a short printable text ("" included)
METADATA = st.text(alphabet="abcxyz0189-_. ", max_size=8)
#: one partition's commit: None (not committed) or [offset, metadata]
COMMIT = st.one_of(st.none(), st.tuples(st.integers(0, 10**9), METADATA).map(list))


def offsets():
    """1-2 topics of 1-3 partitions, each committed or not; at least one committed."""
    return st.lists(st.lists(COMMIT, min_size=1, max_size=3), min_size=1, max_size=2).filter(
        lambda ts: any(c is not None for t in ts for c in t))


def batch():
    """A DeleteGroups / DescribeGroups batch: 1-4 entries, each "known" (an empty group the
    check made) or "unknown", in a drawn order."""
    return st.tuples(st.integers(0, 2), st.integers(0, 2)).filter(lambda kn: sum(kn) >= 1).flatmap(
        lambda kn: st.permutations(["known"] * kn[0] + ["unknown"] * kn[1]))


def described(consumer: bool = True):
    """A ConsumerGroupDescribe batch: the consumer group (unless not ``consumer``), the
    classic group or not, and 0-2 group ids never made (at least one entry), in a drawn order."""
    return st.tuples(st.integers(0, 1), st.integers(0, 2)).filter(lambda cu: consumer or sum(cu) >= 1).flatmap(
        lambda cu: st.permutations(["consumer"] * consumer + ["classic"] * cu[0] + ["unknown"] * cu[1]))


def kind():
    """One group: "known" (a classic group the check made empty) or "unknown"."""
    return st.sampled_from(["unknown", "known"])


def share_starts():
    """Y3: 1-2 partitions (a DescribeShareGroupOffsets naming a partition above 1 is a known
    deviation's shape, ``reference/known_deviations.py``), each (records produced 0-5, a start
    offset drawn 0-5, kept within the records)."""
    return st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=2)


def share_partitions():
    """Y4: the partitions of the topic a share group's member subscribes to (1-2)."""
    return st.integers(1, 2)


def deletions():
    """OffsetDelete: a topic of 2-4 partitions, every one committed, and the nonempty proper
    subset of them to delete (sorted indexes)."""
    return st.integers(2, 4).flatmap(lambda n: st.fixed_dictionaries({
        "partitions": st.just(n),
        "deleted": st.lists(st.integers(0, n - 1), min_size=1, max_size=n - 1, unique=True).map(sorted)}))


__all__ = ["batch", "deletions", "described", "kind", "offsets", "share_partitions", "share_starts"]
