"""Generators for the client quota properties (catalogue Q): entities of users and client
ids, quota ops on Kafka's keys, the entries AlterClientQuotas refuses one by one, and
DescribeClientQuotas filters.

Entity names are placeholders (``@u1``, ``@c1``, ...): the check gives each a fresh
run-prefixed name per example (``conformance/test_client_quotas.py``), so every entity the
suite alters is its own and the end-of-run clean-up (``fixtures/leftovers.py``) removes it.
No entity with a default (null) name is altered: that would change every client's quota on
a shared cluster. Entities, ops and filters are lists, so a counterexample stored as JSON
replays unchanged.
"""
from __future__ import annotations

from hypothesis import strategies as st

from reference.quota_rules import (CLIENT_ID, IP, MATCH_DEFAULT, MATCH_EXACT, MATCH_SPECIFIED, USER,
                                   USER_CLIENT_KEYS)

KEYS = sorted(USER_CLIENT_KEYS)
#: the key every Q4 entity carries, its value telling the entities apart
TAG = "request_percentage"
UNKNOWN_KEY = "kac_unknown_rate"


def value(key: str):
    """A value Kafka accepts for ``key`` (> 0; integral for the byte rates)."""
    if USER_CLIENT_KEYS[key]:
        return st.integers(1, 10**9).map(float)
    return st.integers(1, 100_000).map(lambda n: n / 4)


def ops(removals: bool = True, max_size: int = 4):
    """1..max_size ops on distinct keys: a set (or, with ``removals``, a removal: None)."""
    def one(key):
        v = value(key)
        return st.tuples(st.just(key), st.one_of(v, st.none()) if removals else v).map(list)
    return st.lists(st.sampled_from(KEYS), min_size=1, max_size=max_size, unique=True).flatmap(
        lambda keys: st.tuples(*(one(k) for k in keys)).map(list))


def shape(i: int):
    """An entity of entry ``i``: its own user, client id, or both."""
    return st.sampled_from([[[USER, f"@u{i}"]], [[CLIENT_ID, f"@c{i}"]], [[USER, f"@u{i}"], [CLIENT_ID, f"@c{i}"]]])


def entries(n_min: int = 1, n_max: int = 3, removals: bool = False):
    """Entries on distinct entities (entry i names ``@u{i}`` / ``@c{i}``)."""
    return st.integers(n_min, n_max).flatmap(
        lambda n: st.tuples(*(st.tuples(shape(i), ops(removals)).map(list) for i in range(n))).map(list))


def q1_sequences(max_steps: int = 4):
    """One entity and 1..max_steps AlterClientQuotas of it (sets and removals)."""
    return st.fixed_dictionaries({"entity": shape(0), "steps": st.lists(ops(), min_size=1, max_size=max_steps)})


#: refused entries, each (entity, ops) on names of its own (``@xu``, ``@xc``, ``@xi``):
#: ClientQuotaControlManager refuses each alone with INVALID_REQUEST
INVALID = {
    "ip with user": ([[USER, "@xu"], [IP, "@xi"]], [[TAG, 10.0]]),
    "ip with client-id": ([[CLIENT_ID, "@xc"], [IP, "@xi"]], [[TAG, 10.0]]),
    "unknown entity type": ([["group", "@xu"]], [[TAG, 10.0]]),
    "empty entity": ([], [[TAG, 10.0]]),
    "unknown quota key": ([[USER, "@xu"]], [["consumer_byte_rate", 1000.0], [UNKNOWN_KEY, 10.0]]),
    "ip key on a user": ([[USER, "@xu"]], [["connection_creation_rate", 10.0]]),
    "zero value": ([[CLIENT_ID, "@xc"]], [[TAG, 0.0]]),
    "negative value": ([[USER, "@xu"]], [["producer_byte_rate", -5.0]]),
    "fractional byte rate": ([[USER, "@xu"], [CLIENT_ID, "@xc"]], [["producer_byte_rate", 1.5]]),
    "duplicate key": ([[USER, "@xu"]], [[TAG, 10.0], [TAG, 20.0]]),
}


def invalid_batches():
    """Valid entries with one refused entry (a kind of :data:`INVALID`) inserted."""
    return st.fixed_dictionaries({"entries": entries(1, 3), "kind": st.sampled_from(sorted(INVALID)),
                                  "at": st.integers(0, 3)})


def validate_only_cases():
    """Entries set first (executed), then a batch of sets and removals on the same entities
    and perhaps a refused entry, sent validate_only and then executed."""
    return st.integers(1, 3).flatmap(lambda n: st.fixed_dictionaries({
        "initial": st.tuples(*(st.tuples(shape(i), ops(False)).map(list) for i in range(n))).map(list),
        "ops": st.lists(ops(), min_size=n, max_size=n),
        "kind": st.one_of(st.none(), st.sampled_from(sorted(INVALID))),
        "at": st.integers(0, 3)}))


#: the entities Q4 draws from: users @u1, @u2, client ids @c1, @c2 alone and paired
POOL = ([[[USER, u]] for u in ("@u1", "@u2")] + [[[CLIENT_ID, c]] for c in ("@c1", "@c2")]
        + [[[USER, u], [CLIENT_ID, c]] for u in ("@u1", "@u2") for c in ("@c1", "@c2")])


def _component(t: str, names):
    return st.one_of(st.none(), st.sampled_from([[t, MATCH_EXACT, n] for n in names]),
                     st.just([t, MATCH_DEFAULT, None]), st.just([t, MATCH_SPECIFIED, None]))


def describe_filter():
    """A user and/or client-id filter with at least one exact component (so it reaches only the
    check's own entities, on a shared cluster too), strict or not."""
    both = st.tuples(_component(USER, ("@u1", "@u2", "@u9")), _component(CLIENT_ID, ("@c1", "@c2", "@c9")))
    comps = both.map(lambda cs: [c for c in cs if c is not None]).filter(
        lambda cs: any(c[1] == MATCH_EXACT for c in cs))
    return st.fixed_dictionaries({"components": comps.flatmap(st.permutations), "strict": st.booleans()})


def filter_cases():
    return st.fixed_dictionaries({"entities": st.lists(st.sampled_from(POOL), min_size=2, max_size=6, unique_by=str),
                                  "filters": st.lists(describe_filter(), min_size=1, max_size=4)})


def writer_plans():
    """Q5: 2-3 writers, each sending 1..4 AlterClientQuotas of the keys it owns."""
    return st.lists(st.integers(1, 4), min_size=2, max_size=3)


#: Q5: the keys each writer owns, by number of writers
OWNED = {2: [KEYS[:2], KEYS[2:]], 3: [KEYS[:2], KEYS[2:3], KEYS[3:]]}


__all__ = ["INVALID", "KEYS", "OWNED", "POOL", "TAG", "UNKNOWN_KEY", "describe_filter", "entries", "filter_cases",
           "invalid_batches", "ops", "q1_sequences", "shape", "validate_only_cases", "value", "writer_plans"]
