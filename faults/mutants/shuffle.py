"""``proxy:shuffle[=SEED]@SPEC``: every answer with its unordered arrays reordered (a shim, not a fault).

Kafka promises no order for most lists it answers (it builds them from hash maps and sets);
the order a broker happens to give is then no part of what a conforming broker must answer.
This shim reorders, recursively and in every decoded answer, every array whose order Kafka
does not define (:data:`protocol.array_order.ORDERED` lists the ones it does, each with its
reason) and changes nothing else: no value, no name, no count; records and bytes are not
arrays and pass as they are. A run through it must give every cell the outcome a run
through ``proxy:none`` gives (``tests/test_shuffle_proxy.py``): a property that fails here
depends on an order Kafka does not promise.

``SEED`` (an integer, default 0) seeds the permutations, so a run can be repeated. A list
of two or more entries that are not all equal always comes back in another order.
"""
from __future__ import annotations

import random

from protocol import array_order
from .mutant import Mutant, mutant


def _moved(values: list, rng: random.Random) -> list:
    """A permutation of ``values`` other than the identity (where one exists)."""
    out = list(values)
    rng.shuffle(out)
    if out == values and len(values) > 1 and any(v != values[0] for v in values):
        k = next(i for i, v in enumerate(values) if v != values[0])
        out = values[k:] + values[:k]        # a rotation that moves a differing entry first
    return out


def shuffled(api_key: int, body, rng: random.Random, path: str = ""):
    """``body`` (a decoded answer, or a part of it at ``path``) with every unordered array
    reordered and every nested value treated likewise; ordered arrays keep their order
    (their entries' own arrays are still reordered)."""
    if isinstance(body, dict):
        return {k: shuffled(api_key, v, rng, f"{path}.{k}" if path else k) for k, v in body.items()}
    if isinstance(body, list):
        entries = [shuffled(api_key, e, rng, path) for e in body]
        return entries if array_order.ordered(api_key, path) else _moved(entries, rng)
    return body


@mutant
class Shuffle(Mutant):
    """Not a fault: every array of every answer whose order Kafka does not define comes back reordered."""
    name = "shuffle"
    catches = ("-",)
    shim = True

    @classmethod
    def check_arg(cls, arg):
        if arg is not None and not arg.lstrip("-").isdigit():
            raise ValueError(f"proxy:shuffle=SEED takes an integer seed, not {arg!r}")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rng = random.Random(int(self.arg) if self.arg is not None else 0)

    def response(self, seen, body):
        out = shuffled(seen.api_key, body, self.rng)
        return out if out != body else None
