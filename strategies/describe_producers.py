"""Generators for DescribeProducers' property (catalogue W): what an idempotent producer
appends to a fresh partition before DescribeProducers lists it.

Values are lists and plain numbers, so a counterexample stored as JSON replays unchanged.
An example is 1-3 Produce batches (each its own request, sequences consecutive from 0), each
of 1-4 records whose CreateTime is drawn as milliseconds after a base the check takes when
the example runs (a minute before now, as ``strategies/list_offsets.py``); a batch's max
timestamp need not be its last record's, nor the last batch's the largest of all.
"""
from __future__ import annotations

from hypothesis import strategies as st

#: one record's timestamp, in ms after the example's base
STAMP = st.integers(0, 30_000)
#: one Produce batch: 1-4 records
BATCH = st.lists(STAMP, min_size=1, max_size=4)


def batches():
    """1-3 batches (each its own Produce request) of 1-4 records' timestamps."""
    return st.lists(BATCH, min_size=1, max_size=3)


#: asked first in every check: two batches, the last one's largest timestamp on its first
#: record and below the first batch's (DescribeProducers' last_timestamp is the last batch's
#: max timestamp, not the partition's); last_sequence 4
FIRST = [[20_000, 5], [9, 3, 7]]

__all__ = ["BATCH", "FIRST", "STAMP", "batches"]
