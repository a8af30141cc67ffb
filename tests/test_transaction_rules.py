"""The ListTransactions filter rules (reference/transaction_rules.py) and the X generators
(strategies/transactions.py), without a broker."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import ApiKey
from protocol.codec import encode_request
from protocol.requests import Inexpressible, list_transactions
from reference.transaction_rules import STATES, listed, request_of, unknown_states
from strategies import transactions as gen

NONE = {"states": [], "pids": "none", "duration": gen.ANY_AGE, "pattern": None}


def test_an_empty_filter_lists_every_state_but_dead():
    assert all(listed(NONE, s) for s in STATES if s != "Dead")
    assert not listed(NONE, "Dead")


def test_each_non_empty_filter_must_match():
    assert listed({**NONE, "states": ["Ongoing"]}, "Ongoing")
    assert not listed({**NONE, "states": ["CompleteAbort"]}, "Ongoing")
    assert not listed({**NONE, "states": [gen.UNKNOWN_STATE]}, "Ongoing")    # unknown names only: nothing
    assert listed({**NONE, "pids": "both"}, "Ongoing") and not listed({**NONE, "pids": "other"}, "Ongoing")
    assert not listed({**NONE, "duration": gen.AN_HOUR_MS}, "CompleteCommit")
    assert listed({**NONE, "pattern": ""}, "Ongoing") and listed({**NONE, "pattern": "ours"}, "Ongoing")
    assert not listed({**NONE, "pattern": "other"}, "Ongoing")


def test_unknown_state_names_are_those_kafka_does_not_know():
    assert unknown_states({**NONE, "states": ["Dead", gen.UNKNOWN_STATE, "Ongoing"]}) == [gen.UNKNOWN_STATE]


def test_a_pattern_of_one_id_matches_exactly_it():
    tid = "kac-1a2b3c-x1-txn-4"
    pattern = request_of(2, {**NONE, "pattern": "ours"}, 7, tid, tid + "-other")["transactional_id_pattern"]
    assert re.fullmatch(pattern, tid) and not re.search(pattern, tid + "-other")


def test_a_filter_a_version_cannot_carry_is_not_sent():
    with pytest.raises(Inexpressible):
        list_transactions(0, duration_ms=gen.AN_HOUR_MS)
    with pytest.raises(Inexpressible):
        list_transactions(1, pattern="x")


@pytest.mark.parametrize("version", [0, 1, 2])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_every_drawn_example_encodes_at_its_version(version, data):
    example = data.draw(gen.listing(version))
    assert example["partitions"] and set(example["partitions"]) <= set(range(gen.PARTITIONS))
    for f in example["filters"] + gen.listing_first(version)["filters"]:
        encode_request(ApiKey.ListTransactions, version, request_of(version, f, 7, "kac-x-txn", "kac-x-txn-other"), 1)
