"""Generators for the delegation-token properties (catalogue H): what a token request asks.

Values are lists, strings and plain numbers, so a counterexample stored as JSON replays
unchanged (an HMAC is drawn as hex). Principals are ``(type, name)`` pairs; a renewer named
here is never one of the suite's two principals (``fixtures/acl.py``), so no drawn token is
visible to the restricted principal through being its renewer: what it may see is its own.
"""
from __future__ import annotations

from hypothesis import strategies as st

#: a lifetime or period in ms; -1 (and any value <= 0) asks for the broker's default
PERIOD = st.one_of(st.just(-1), st.integers(60_000, 7 * 24 * 3_600_000))
#: a User principal that is neither of the suite's (renewers of drawn tokens)
OUTSIDER = st.sampled_from(["kac-outsider-a", "kac-outsider-b"]).map(lambda n: ("User", n))
RENEWERS = st.lists(OUTSIDER, max_size=2, unique=True)
#: an HMAC no broker issued (a SHA-512 HMAC is 64 bytes; any length is sent)
HMAC = st.binary(min_size=0, max_size=64).map(bytes.hex)
#: DescribeDelegationToken's owner filter: None (every token the requester may describe) or a list
OWNERS = st.one_of(st.none(), st.lists(st.sampled_from(["kac-admin", "kac-restricted", "kac-outsider-a"]),
                                       min_size=1, max_size=3, unique=True))


def unauthenticated():
    """One token request of each kind on a listener that cannot carry them (H1)."""
    return st.fixed_dictionaries({"renewers": RENEWERS, "lifetime": PERIOD, "hmac": HMAC, "period": PERIOD,
                                  "owners": OWNERS})


def described():
    """H2: the super user's token (its renewers, its lifetime) and the owner filters the two
    principals describe with."""
    return st.fixed_dictionaries({"renewers": RENEWERS, "lifetime": PERIOD, "owners": OWNERS})


def refused():
    """H3: a token the restricted principal may not create: for another owner (v3+) or
    with a renewer whose type is not User, beside valid renewers."""
    return st.fixed_dictionaries({"renewers": RENEWERS, "lifetime": PERIOD,
                                  "bad": st.sampled_from(["owner", "renewer-type"]),
                                  "at": st.integers(0, 2)})


def renewed():
    """H4: the restricted principal's token (its renewers, its lifetime) and the period its
    owner renews it by."""
    return st.fixed_dictionaries({"renewers": RENEWERS, "lifetime": PERIOD, "period": PERIOD})


FIRST_UNAUTHENTICATED = {"renewers": [], "lifetime": -1, "hmac": "00" * 64, "period": -1, "owners": None}
FIRST_DESCRIBED = {"renewers": [], "lifetime": -1, "owners": None}
FIRST_RENEWED = {"renewers": [], "lifetime": -1, "period": 3_600_000}
FIRST_REFUSED = {"renewers": [["User", "kac-outsider-a"]], "lifetime": -1, "bad": "renewer-type", "at": 0}

__all__ = ["FIRST_DESCRIBED", "FIRST_REFUSED", "FIRST_RENEWED", "FIRST_UNAUTHENTICATED", "HMAC", "OUTSIDER", "OWNERS", "PERIOD",
           "RENEWERS", "described", "refused", "renewed", "unauthenticated"]
