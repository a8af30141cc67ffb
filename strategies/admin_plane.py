"""The parts S2's operation draws are made of (``conformance/stateful/``'s family operations:
ACLs, client quotas, SCRAM credentials, groups, features).

Every name is a *slot* the driver puts under the example's sub-prefix: topics ``a`` and ``b``
(S1's plain slots, so that deletes and re-creations hit the names other families point
at), groups ``g1`` and ``g2``, users ``u1`` and ``u2`` (a user's SCRAM credentials, its client
quotas and the principal ``User:SUB-u1`` of its ACLs are one name). Operations are JSON.
"""
from __future__ import annotations

from hypothesis import strategies as st

from .stateful import PLAIN_SLOTS

TOPIC_SLOTS = st.sampled_from(PLAIN_SLOTS)
GROUPS = st.sampled_from(("g1", "g2"))
#: mostly u1: a user's credentials, quotas and ACLs meet when the families' steps name the same one
USERS = st.sampled_from(("u1", "u1", "u1", "u2"))
#: client quota keys and values S2 sets (QuotaConfig.userAndClientQuotaConfigs; integral keys
#: whole, every value > 0: valid on every line and mode)
QUOTA_VALUES = {"producer_byte_rate": (1024.0, 2048.0), "consumer_byte_rate": (4096.0,),
                "request_percentage": (25.0, 50.5)}
#: SCRAM iterations S2 upserts (ScramMechanism.minIterations 4096 .. MAX_ITERATIONS 16384)
ITERATIONS = st.sampled_from((4096, 8192))
#: one in four: validate_only, a deletion of a credential the user lacks
ONE_IN_FOUR = st.sampled_from((True, False, False, False))
THREE_IN_FOUR = st.sampled_from((True, True, True, False))


def resource(prefixed: bool = True, any_: bool = False):
    """An ACL's resource: a topic of the example, a group of it, every topic of it
    (``prefixed``) or, for a filter, any (``any_``)."""
    options = [st.fixed_dictionaries({"res": st.just("topic"), "slot": TOPIC_SLOTS}),
               st.fixed_dictionaries({"res": st.just("group"), "slot": GROUPS})]
    if prefixed:
        options.append(st.just({"res": "prefixed"}))
    if any_:
        options.append(st.just({"res": "any"}))
    return st.one_of(options)


def quota_ops():
    """One to two (key, value) ops on distinct keys; a value None (one in four) removes the
    key, so that users mostly hold quotas when their credentials change."""
    op = st.sampled_from(sorted(QUOTA_VALUES)).flatmap(
        lambda k: st.tuples(st.just(k), ONE_IN_FOUR.flatmap(
            lambda remove: st.none() if remove else st.sampled_from(QUOTA_VALUES[k]))).map(list))
    return st.lists(op, min_size=1, max_size=2, unique_by=lambda o: o[0])
