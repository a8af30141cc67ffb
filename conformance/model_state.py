"""What the S1 model (:mod:`.cluster_model`) holds and predicts: a broker's defaults, one
topic's state (config values known in part, :class:`Unknown`), one predicted response entry
(:class:`Expect`: the codes Kafka may answer, why, what a success changes and shows) and how
predictions meet an answer's entries (:func:`match`). Pure: no I/O.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Unknown:
    """A value the model cannot predict (e.g. APPEND to a key the topic does not override:
    Kafka starts from the ConfigDef default by code reading only). What is certain: the
    list value contains ``contains`` and lacks ``lacks``. Learnt at the next observation."""
    contains: frozenset = frozenset()
    lacks: frozenset = frozenset()

    def admits(self, value: str | None) -> bool:
        parts = set(split_list(value or ""))
        return self.contains <= parts and not (self.lacks & parts)

    def __str__(self):
        return "?" + "".join(f"+{c}" for c in sorted(self.contains)) + "".join(f"-{c}" for c in sorted(self.lacks))


Value = str | Unknown


def split_list(value: str) -> list[str]:
    """ConfigurationControlManager.getParts: split on ',' and drop empty parts."""
    return [p for p in value.split(",") if p]


@dataclass
class Defaults:
    """What a fresh topic looks like on this broker (learnt once per check)."""
    configs: dict[str, tuple[str | None, int | None]] = field(default_factory=dict)  # key -> (value, source)
    brokers: int = 1
    configs_known: bool = False     # learnt from DescribeConfigs (config-focused rows only)


@dataclass
class Topic:
    partitions: int | None                    # None: broker default, learnt from Metadata
    configs: dict[str, Value] = field(default_factory=dict)   # overrides
    topic_id: uuid.UUID | None = None
    start: list[int] = field(default_factory=list)             # log start offset per partition
    end: list[int] = field(default_factory=list)               # high watermark per partition
    #: where the broker first showed ``topic_id``: (the step, the path in its answer);
    #: later answers must show the same id (a reproducer's run has ids of its own)
    id_seen: tuple[int, list] | None = None

    def set_partitions(self, count: int) -> None:
        self.partitions = count
        self.start += [0] * (count - len(self.start))
        self.end += [0] * (count - len(self.end))


#: One thing the model states about a response entry beyond its code, as an expectation
#: (docs/results.md, "Expectations") whose ``path`` starts below the entry; a ``when`` in it
#: names a path below the entry too. S1 records them on the answer (stateful/expectations.py)
#: and the judge decides.
Fact = dict


@dataclass
class Expect:
    """One response entry the model predicts."""
    key: tuple
    allowed: frozenset
    why: str
    effect: Callable[[dict], None] | None = None        # run when the broker answered NONE
    #: what a NONE entry shows beyond its code (``verify(entry)``: facts, judged)
    verify: Callable[[dict], list[Fact]] | None = None


def _e(key, codes, why, effect=None, verify=None) -> Expect:
    if isinstance(codes, int):
        codes = {codes}
    return Expect(key, frozenset(codes), why, effect, verify)


def _walk(order: tuple[str, ...], outcomes: dict[str, tuple[bool, int, str]]) -> tuple[set, list[str], bool]:
    """Kafka's checks of one item in ``order``; ``outcomes``: check -> (certain, code, why)
    for the checks that fail (certain) or may fail. Returns (the codes the broker may answer
    before a success, why, whether a certain failure ends the walk)."""
    codes, why = set(), []
    for c in order:
        if c in outcomes:
            certain, code, text = outcomes[c]
            codes.add(code)
            why.append(text)
            if certain:
                return codes, why, True
    return codes, why, False


def _counts(values) -> dict:
    out: dict = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def match(expects: list[Expect], entries: list[tuple[tuple, int, dict]]):
    """Pair predicted and actual entries by key. Returns (problem or None, [(expect, code,
    entry)]). One actual entry per predicted one: a missing, extra or repeated entry is a
    problem, and so is a code outside the predicted set."""
    want: dict[tuple, list[Expect]] = {}
    for e in expects:
        want.setdefault(e.key, []).append(e)
    got: dict[tuple, list[tuple[int, dict]]] = {}
    for key, code, entry in entries:
        got.setdefault(key, []).append((code, entry))
    for key in sorted(got, key=str):
        if key not in want:
            return f"a result for {_key(key)}, which was not asked", []
    pairs = []
    for key, es in want.items():
        gs = got.get(key, [])
        if len(gs) != len(es):
            return (f"{len(gs)} result(s) for {_key(key)}, expected {len(es)}" if gs
                    else f"no result for {_key(key)}"), []
        pairs += [(e, code, entry) for e, (code, entry) in zip(es, gs)]
    return None, pairs


def _key(key: tuple) -> str:
    if key[0] == "partition":
        return f"{key[1]}-{key[2]}"
    return str(key[1])
