"""Generators for the transactions properties (catalogue X): which partitions a transaction
adds, how it ends, and the ListTransactions filters asked of it.

Values are dicts, lists, strings and plain numbers, so a counterexample stored as JSON
replays unchanged. A filter names the check's own producer id and transactional id by role
(``"ours"``, ``"other"``), since both are only known when the example runs:

* ``states``: KIP-664's state filter, drawn from Kafka's state names
  (``TransactionState``) and one name Kafka does not know (listed back in
  ``unknown_state_filters``);
* ``pids``: the producer-id filter: none, ours, another id, or both;
* ``duration``: v1+ (KIP-994): -1 (any) or an hour (longer than the example's transaction
  has run);
* ``pattern``: v2+ (KIP-1152): none (null), empty, a pattern matching exactly our
  transactional id, or one matching only another id.
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol import ApiKey, schema_facts
from reference.transaction_rules import STATES

#: a state filter Kafka does not know (ListTransactionsResponse.json: unknown_state_filters)
UNKNOWN_STATE = "NoSuchState"
#: the partitions of the example's topic; a transaction adds a non-empty subset of them
PARTITIONS = 4
#: DurationFilter: any age, or an hour (every example's transaction is younger)
ANY_AGE, AN_HOUR_MS = -1, 3_600_000
PIDS = ("none", "ours", "other", "both")
PATTERNS = (None, "", "ours", "other")


def _duration(version: int) -> bool:
    return schema_facts.has_field(ApiKey.ListTransactions, version, "duration_filter")


def _pattern(version: int) -> bool:
    return schema_facts.has_field(ApiKey.ListTransactions, version, "transactional_id_pattern")


def added():
    """The partitions a transaction adds (1-4 of the topic's 4, in drawn order)."""
    return st.lists(st.integers(0, PARTITIONS - 1), min_size=1, max_size=PARTITIONS, unique=True)


def a_filter(version: int):
    """One ListTransactions filter a request of ``version`` can carry."""
    return st.fixed_dictionaries({
        "states": st.lists(st.sampled_from(STATES + (UNKNOWN_STATE,)), max_size=3, unique=True),
        "pids": st.sampled_from(PIDS),
        "duration": st.sampled_from((ANY_AGE, AN_HOUR_MS)) if _duration(version) else st.just(ANY_AGE),
        "pattern": st.sampled_from(PATTERNS) if _pattern(version) else st.none(),
    })


def listing(version: int):
    """X1's example: the partitions added, commit or abort, and 1-4 filters."""
    return st.fixed_dictionaries({"partitions": added(), "commit": st.booleans(),
                                  "filters": st.lists(a_filter(version), min_size=1, max_size=4)})


def listing_first(version: int) -> dict:
    """Asked first at every version: an open transaction left out by a state filter of
    another state and by a producer-id filter of another id, selected by one naming its
    state (beside an unknown one), its id and (v2+) a pattern of exactly its transactional
    id, and (v1+) left out by an hour's age; committed."""
    filters = [{"states": ["CompleteAbort"], "pids": "none", "duration": ANY_AGE, "pattern": None},
               {"states": [], "pids": "other", "duration": ANY_AGE, "pattern": None},
               {"states": ["Ongoing", UNKNOWN_STATE], "pids": "ours", "duration": ANY_AGE,
                "pattern": "ours" if _pattern(version) else None}]
    if _duration(version):
        filters.append({"states": [], "pids": "none", "duration": AN_HOUR_MS, "pattern": None})
    return {"partitions": [1, 0], "commit": True, "filters": filters}


def description():
    """X2's example: the partitions added and commit or abort."""
    return st.fixed_dictionaries({"partitions": added(), "commit": st.booleans()})


#: X2 asked first: three partitions added, the last the topic's; aborted
DESCRIPTION_FIRST = {"partitions": [2, 0, 3], "commit": False}

__all__ = ["AN_HOUR_MS", "ANY_AGE", "DESCRIPTION_FIRST", "PARTITIONS", "UNKNOWN_STATE", "a_filter",
           "added", "description", "listing", "listing_first"]
