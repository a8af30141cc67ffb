"""After hypothesis: S1's own pass that makes a shrunk failure minimal, and the run that
confirms it.

Hypothesis's shrinker stops at a time limit (``driver.py`` bounds it: each try re-runs a
sequence against the broker), so the sequence it leaves may still hold steps or items the
failure does not need. This pass removes whole steps, then single items of a step's lists,
keeping every removal after which the same problem still occurs (a greedy one-at-a-time
reduction, as hypothesis's own shrink passes are), then runs the result once more with the
full settle time and request timeout before it is reported (``docs/stateful.md``,
"Examples, shrinking, scripts, replay").
"""
from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from fixtures.harness import Violation

from .run import abbreviate, play

if TYPE_CHECKING:
    from .row import Row

#: The seconds this pass may spend per failure, by profile.
MINIMISE_SECONDS = {"ci": 2, "dev": 10, "release": 30}


def minimal(row: Row, failure: dict) -> tuple[dict, str]:
    """Hypothesis's shrunk failure, made minimal, then confirmed by running it again with
    the full settle time (shrinking used short ones). If it does not fail again, the first
    failure found (which had the full settle time) is reported instead."""
    smaller = minimise(row, failure, MINIMISE_SECONDS.get(row.profile, 10))
    confirmed = confirm(row, smaller)
    if confirmed is not None:
        return confirmed, ""
    return row.first_failure, (" (the shrunk sequence did not fail again with the full settle time; "
                               "this is the first failing sequence)")


def minimise(row: Row, failure: dict, seconds: float) -> dict:
    """Greedily remove whole steps, then single items of a step's lists, keeping every
    removal after which the same problem still occurs (hypothesis's shrinker stops at a
    time limit; this pass is cheap and makes the script minimal in steps and items)."""
    deadline = time.monotonic() + seconds
    same = _problem_kind(failure)

    def still(ops):
        got = attempt(row, ops)
        return got if got is not None and _problem_kind(got) == same else None

    best = failure
    for candidate in _smaller(best["ops"], row.operations.fields):
        if time.monotonic() >= deadline:
            break
        got = still(candidate)
        if got is not None:
            best = got
            return minimise(row, best, deadline - time.monotonic()) if deadline > time.monotonic() else best
    return best


def confirm(row: Row, failure: dict) -> dict | None:
    """Run the failure's operations again with the full settle time and request timeout;
    the failure it hits, or None."""
    row.shrinking = False
    row.client.conn.set_timeout(row.check.request_timeout)
    try:
        got = attempt(row, failure["ops"])
    finally:
        row.shrinking = True
    return got


def attempt(row: Row, ops: list[dict]) -> dict | None:
    """Run ``ops`` as a fresh example; the failure it hits, or None."""
    before = row.last_failure
    try:
        play(row, ops)
    except Violation:
        return row.last_failure if row.last_failure is not before else None
    return None


def _problem_kind(failure: dict) -> str:
    """A failure's problem without what differs between runs (sub-prefix, made-up ids)."""
    problem = re.sub(r"\bid [0-9a-f]{8}\b", "id ?", abbreviate(failure["problem"], failure["sub"]))
    return re.sub(r"no answer within [\d.]+s", "no answer", problem)


def _smaller(ops: list[dict], fields: tuple[str, ...]):
    """Candidates with one step removed, then with one item of a step's lists removed. The
    first step (the example's initial CreateTopics, which every sequence hypothesis draws
    starts with) stays: without it a failure may need topics other checks left on the broker,
    and its exported reproducer would not fail on a fresh one."""
    for i in range(1, len(ops)):
        yield ops[:i] + ops[i + 1:]
    for i, op in enumerate(ops):
        for field in fields:
            items = op.get(field)
            if not isinstance(items, list):
                continue
            for j in range(len(items)):
                if len(items) > 1:
                    yield ops[:i] + [{**op, field: items[:j] + items[j + 1:]}] + ops[i + 1:]
                for inner in ("configs", "ops", "partitions"):
                    sub = items[j].get(inner) if isinstance(items[j], dict) else None
                    if not isinstance(sub, list) or (inner == "partitions" and len(sub) < 2):
                        continue
                    for k in range(len(sub)):
                        item = {**items[j], inner: sub[:k] + sub[k + 1:]}
                        yield ops[:i] + [{**op, field: items[:j] + [item] + items[j + 1:]}] + ops[i + 1:]
