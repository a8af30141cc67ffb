"""The parts S1's operation draws are made of (``conformance/stateful/`` draws one
operation per step, each API with its own strategy built from these).

Nothing here needs a broker: a draw names topics by *slot* (``a``, ``b``, ...; the
driver turns a slot into a topic under the example's sub-prefix), versions come from a
range the caller passes, config pairs from tables the caller passes. Operations are
JSON (a counterexample stores them and ``--replay`` re-runs them).
"""
from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

#: The ordinary slots.
SLOTS = ("a", "b", "c")
#: A pair of names that collide ('.' and '_' are the same to Kafka), and a name Kafka refuses.
COLLIDING = ("x.y", "x_y")
BAD_SLOT = "bad!"
#: Slots of plain requests: two, so that plain deletes and creates often hit the same name
#: (re-creation is where stale state shows).
PLAIN_SLOTS = ("a", "b")
#: Slot draws in a focused API: mostly ordinary, sometimes the colliding pair or a bad name.
FOCUS_SLOTS = SLOTS + SLOTS + COLLIDING + (BAD_SLOT,)


def both_colliding(slots: set[str]) -> bool:
    """Does one request name both colliding slots? (Released Kafka creates both: a known
    deviation, asked by T1's dedicated check; S1 leaves the shape out on the brokers the
    entry names.)"""
    return set(COLLIDING) <= slots


def versions(lo: int, hi: int, focused: bool) -> SearchStrategy[int]:
    """A focused API: any version in ``lo..hi``, uniformly, shrinking towards the newest;
    a plain request: the newest."""
    if not focused:
        return st.just(hi)
    return st.sampled_from(range(hi, lo - 1, -1))


def slots(focused: bool) -> SearchStrategy[str]:
    return st.sampled_from(FOCUS_SLOTS if focused else PLAIN_SLOTS)


def table_pairs(values: dict) -> list[list]:
    """``{key: (value, ...)}`` -> ``[[key, value], ...]`` in a fixed order."""
    return [[k, v] for k in sorted(values) for v in values[k]]


def weighed(strategy: SearchStrategy, times: int) -> list[SearchStrategy]:
    """``times`` options of ``strategy`` for ``st.one_of``, each an object of its own:
    ``one_of`` keeps one of the same object, and hypothesis hands out one object for equal
    arguments (``st.sampled_from(x) is st.sampled_from(x)``), so ``[s] * 4`` weighs 1."""
    return [strategy.map(_same) for _ in range(times)]


def _same(value):
    return value


def config_pairs(valid: list[list], bad: list[list], focused: bool) -> SearchStrategy[list]:
    """A ``[key, value]`` pair: valid ones; in a focused API one in three from ``bad``."""
    ok = st.sampled_from(valid)
    return st.one_of(*weighed(ok, 2), st.sampled_from(bad)) if focused else ok


def plain(op: dict) -> dict:
    """Mark an operation plain: the driver keeps only the items a plain request may have
    (topics the model has, or for CreateTopics does not have), so it succeeds on Kafka."""
    return {**op, "plain": True}
