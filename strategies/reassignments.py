"""Generators for the reassignment and election properties (catalogue E): what each partition
of a fresh topic is asked.

Values are lists, strings and plain numbers, so a counterexample stored as JSON replays
unchanged. E1 draws one ask per partition of its topic (its partition count is their number):
``cancel`` (null replicas: no reassignment is in progress), ``unknown`` (a broker id no
broker registered, as many as the partition's replicas), ``duplicate`` (its first replica
twice), ``empty`` (no replica) or ``current`` (its own replica set, valid), with how far above
the largest registered broker id the unknown one lies. E2 draws which partitions of a topic
of 1-3 are reassigned and to which of the registered brokers. E3 draws the topic's
partition count, how far beyond its last partition the missing one lies and the election
type (v1+). E4 draws the partition count of a topic whose replica order it reverses.
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol.requests import PREFERRED, UNCLEAN

#: what E1 asks of one partition
ASKS = ("cancel", "unknown", "duplicate", "empty", "current")


def refusals():
    """E1: one ask per partition (1-5 partitions) and the unknown broker id's distance above the
    largest registered one."""
    return st.fixed_dictionaries({"asks": st.lists(st.sampled_from(ASKS), min_size=1, max_size=5),
                                  "above": st.integers(1, 1000)})


#: asked first in E1: every ask, the valid one between refused ones
REFUSALS_FIRST = {"asks": ["empty", "cancel", "current", "duplicate", "unknown"], "above": 1}


def reassignments():
    """E2: for each partition of a topic of 1-3, whether it is reassigned (at least one is),
    and the target: the registered brokers (sorted) at these places, modulo their number,
    each broker once (on one broker: that broker)."""
    return st.fixed_dictionaries({
        "moved": st.lists(st.booleans(), min_size=1, max_size=3).filter(any),
        "picks": st.lists(st.integers(0, 4), min_size=1, max_size=3, unique=True)})


#: asked first in E2: two partitions, both reassigned to the second and first brokers
REASSIGNMENTS_FIRST = {"moved": [True, True], "picks": [1, 0]}


def reorders():
    """E4: the partitions (1-2) of a topic of two replicas whose replica order is reversed."""
    return st.integers(1, 2)


#: asked first in E4: two partitions
REORDERS_FIRST = 2


def elections():
    """E3: the topic's partitions (1-3), how far beyond its last one the missing partition
    lies, and the election type (v1+; v0 elects the preferred replica)."""
    return st.fixed_dictionaries({"partitions": st.integers(1, 3), "beyond": st.integers(0, 50),
                                  "election": st.sampled_from([PREFERRED, UNCLEAN])})


#: asked first in E3: two partitions, the one right after them missing, a preferred election
ELECTIONS_FIRST = {"partitions": 2, "beyond": 0, "election": PREFERRED}

__all__ = ["ASKS", "ELECTIONS_FIRST", "REASSIGNMENTS_FIRST", "REFUSALS_FIRST", "REORDERS_FIRST", "elections",
           "reassignments", "refusals", "reorders"]
