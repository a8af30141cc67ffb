"""Generators for the ListOffsets properties (catalogue O): what a check produces to a fresh
topic (record batches, each record's timestamp) and where DeleteRecords then deletes.

Values are lists and plain numbers, so a counterexample stored as JSON replays unchanged.
A timestamp is drawn as milliseconds after a base the check takes when the example runs (a
minute before now: inside any broker's accepted window, KIP-937's
``log.message.timestamp.after.max.ms`` included); equal timestamps are drawn on purpose
(MAX_TIMESTAMP answers the first record holding the largest one).
"""
from __future__ import annotations

from hypothesis import strategies as st

#: one record's timestamp, in ms after the example's base (small, so that ties are drawn)
STAMP = st.integers(0, 20) | st.integers(0, 30_000)
#: one Produce batch: 1-5 records
BATCH = st.lists(STAMP, min_size=1, max_size=5)


def batches(min_size: int = 0):
    """0-3 batches (each its own Produce request) of 1-5 records' timestamps."""
    return st.lists(BATCH, min_size=min_size, max_size=3)


#: asked first in every O2 check: the largest timestamp (9) held by three records, two in the
#: first batch and one in the next; MAX_TIMESTAMP answers the first of them, offset 1
TIED = [[5, 9, 9], [9, 3]]


def with_deletion():
    """1-3 batches and a DeleteRecords offset k, 0 <= k <= the records produced (k = the
    high watermark deletes every record), or -1 (DeleteRecords' "up to the high watermark")."""
    return batches(min_size=1).flatmap(lambda bs: st.tuples(
        st.just(bs), st.integers(0, sum(map(len, bs))) | st.just(-1)))


__all__ = ["BATCH", "STAMP", "TIED", "batches", "with_deletion"]
