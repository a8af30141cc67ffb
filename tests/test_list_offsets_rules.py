"""The ListOffsets rules (reference/list_offsets_rules.py) and the O generators
(strategies/list_offsets.py), without a broker."""
from __future__ import annotations

from hypothesis import given, settings

from protocol import OffsetSpec
from reference.list_offsets_rules import UNKNOWN_OFFSET, UNKNOWN_TIMESTAMP, max_timestamp, specs_at
from strategies import list_offsets as gen


def test_max_timestamp_is_carried_from_v7_earliest_and_latest_from_v1():
    assert specs_at(0) == []
    assert specs_at(1) == specs_at(6) == [OffsetSpec.EARLIEST, OffsetSpec.LATEST]
    assert specs_at(7) == specs_at(11) == [OffsetSpec.EARLIEST, OffsetSpec.LATEST, OffsetSpec.MAX_TIMESTAMP]


def test_max_timestamp_answers_the_first_record_holding_the_largest_timestamp():
    assert max_timestamp([]) == (UNKNOWN_OFFSET, UNKNOWN_TIMESTAMP)
    assert max_timestamp([3, 7, 1]) == (1, 7)
    assert max_timestamp([b for batch in gen.TIED for b in batch]) == (1, 9)


@settings(max_examples=50, deadline=None)
@given(gen.with_deletion())
def test_a_deletion_point_is_within_what_was_produced_or_the_high_watermark_marker(value):
    batches, k = value
    n = sum(map(len, batches))
    assert batches and all(1 <= len(b) <= 5 for b in batches)
    assert k == -1 or 0 <= k <= n
