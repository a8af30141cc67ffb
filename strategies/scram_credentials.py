"""SCRAM credentials to upsert and delete (conformance/test_scram_credentials.py).

User names are placeholders (``USER`` + an index) the check replaces with run-prefixed
names; salts and salted passwords are random bytes long and varied enough that finding
one in an answer cannot be chance.
"""
from __future__ import annotations

from hypothesis import strategies as st

from reference.scram_rules import MAX_ITERATIONS, MECHANISMS, MIN_ITERATIONS, UNKNOWN, Deletion, Upsertion

#: a placeholder user name: ``USER + "0"``, ``USER + "1"``, ...; the check names them
USER = "user-"


#: how many distinct bytes a secret has at least
DISTINCT = 6


def _secret(min_size: int):
    """Random bytes, ``min_size`` to 32 long, with at least DISTINCT distinct values: built
    so, not filtered (a filter makes every shrink step of a failing check redraw until a
    candidate passes it, seconds of CPU per row on a broker that fails U2)."""
    distinct = st.lists(st.integers(0, 255), min_size=DISTINCT, max_size=DISTINCT, unique=True).map(bytes)
    rest = st.binary(min_size=min_size - DISTINCT, max_size=32 - DISTINCT)
    return st.tuples(rest, distinct, st.integers(0, 32)).map(lambda t: _spliced(*t))


def _spliced(rest: bytes, distinct: bytes, at: int) -> bytes:
    at = at % (len(rest) + 1)
    return rest[:at] + distinct + rest[at:]


def iterations(mechanism: int):
    """Iterations Kafka accepts for ``mechanism``, the bounds drawn often."""
    lo = MIN_ITERATIONS[mechanism]
    return st.one_of(st.sampled_from((lo, MAX_ITERATIONS)), st.integers(lo, MAX_ITERATIONS))


def upsertion(user: str, mechanism=None):
    mech = st.sampled_from(MECHANISMS) if mechanism is None else st.just(mechanism)
    return mech.flatmap(lambda m: st.builds(Upsertion, st.just(user), st.just(m), iterations(m),
                                            _secret(12), _secret(12)))


def users_credentials(max_users: int = 2):
    """One or two users, each with one or both mechanisms upserted: a list of Upsertions
    (the check sends them in requests that name each user once)."""
    def of(n):
        return st.tuples(*[st.lists(st.sampled_from(MECHANISMS), min_size=1, max_size=2, unique=True)
                           .flatmap(lambda ms, i=i: st.tuples(*[upsertion(USER + str(i), m) for m in ms]))
                           for i in range(n)])
    return st.integers(1, max_users).flatmap(of).map(lambda users: [u for per in users for u in per])


#: entries Kafka refuses on their own (reference/scram_rules.py refusal): kind -> strategy of
#: the entry for placeholder user ``USER + "bad"``
BAD = USER + "bad"


def refused(kind: str):
    if kind == "iterations below the minimum":
        return st.sampled_from(MECHANISMS).flatmap(lambda m: st.builds(
            Upsertion, st.just(BAD), st.just(m), st.integers(-2, MIN_ITERATIONS[m] - 1), _secret(12), _secret(12)))
    if kind == "iterations above the maximum":
        return st.sampled_from(MECHANISMS).flatmap(lambda m: st.builds(
            Upsertion, st.just(BAD), st.just(m), st.integers(MAX_ITERATIONS + 1, 1 << 20), _secret(12), _secret(12)))
    if kind == "unknown mechanism upserted":
        return st.builds(Upsertion, st.just(BAD), st.sampled_from((UNKNOWN, 3, 127, -1)), st.just(4096),
                         _secret(12), _secret(12))
    if kind == "unknown mechanism deleted":
        return st.builds(Deletion, st.just(BAD), st.sampled_from((UNKNOWN, 3, 127, -1)))
    if kind == "empty user name":
        return st.sampled_from(MECHANISMS).flatmap(lambda m: upsertion("", m))
    raise KeyError(kind)


#: the secret of a first example (``first_upsertion``): 16 distinct bytes
FIRST_SECRET = bytes(range(40, 56))


def first_upsertion(user: str, mechanism: int) -> Upsertion:
    """The valid upsertion a check asks first (an explicit example, what hypothesis would
    shrink ``upsertion(user, mechanism)`` to): the mechanism's minimum iterations."""
    return Upsertion(user, mechanism, MIN_ITERATIONS[mechanism], FIRST_SECRET, FIRST_SECRET)


def first_refused(kind: str):
    """The entry of ``kind`` a check asks first: the simplest of ``refused(kind)``."""
    mechanism = MECHANISMS[0]
    if kind == "iterations below the minimum":
        return Upsertion(BAD, mechanism, 0, FIRST_SECRET, FIRST_SECRET)
    if kind == "iterations above the maximum":
        return Upsertion(BAD, mechanism, MAX_ITERATIONS + 1, FIRST_SECRET, FIRST_SECRET)
    if kind == "unknown mechanism upserted":
        return Upsertion(BAD, UNKNOWN, 4096, FIRST_SECRET, FIRST_SECRET)
    if kind == "unknown mechanism deleted":
        return Deletion(BAD, UNKNOWN)
    if kind == "empty user name":
        return first_upsertion("", mechanism)
    raise KeyError(kind)


REFUSED_KINDS = ("iterations below the minimum", "iterations above the maximum", "unknown mechanism upserted",
                 "unknown mechanism deleted", "empty user name")
