"""The verdict per broker, the first thing SUMMARY.md says (issue 60, item 1).

A *broker* here is what a release manager decides about, not a run folder: a Kafka release
asked with its companions (fixtures/companions.py: ``kafka:4.4.0,preset=acl`` started for
the checks that need it; its manifest entry says ``companion_of``) and the shards of its own
checks (fixtures/shards.py: several run folders of one spec) is one broker, its base spec.
Per broker: the runs that asked it and those that did not go to their end, the rows per
outcome, the **new findings** (``fail`` rows no reviewed known deviation of Kafka matches,
reports/known.py), those of them answering exactly as a known deviation of Apache Kafka
does, the known deviations seen, and, against a baseline (``--baseline``, the gate's:
reports/gate.py ``compare``), the cells that fail the gate (regressions and the rest) and
those fixed. Pure Python, as the gate is.

The word: ``fail`` when a new finding was seen or a cell fails the gate against the
baseline; ``incomplete`` when, short of that, a run did not go to its end (its cells
unseen are no evidence); else ``pass``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from . import known as known_list
from . import row_schema
from .cells import manifest_of
from .gate import compare, fails, run_completeness

#: gate categories that count as fixed in the verdict
FIXED = ("fixed",)


@dataclass
class Broker:
    """One broker's verdict: its base spec and what its runs said."""
    name: str
    version: str | None = None
    runs: list = field(default_factory=list)          # run folders
    incomplete: list = field(default_factory=list)    # (run folder, why)
    parts: set = field(default_factory=set)           # the specs its rows name (base, companions)
    rows: dict = field(default_factory=lambda: {o: 0 for o in row_schema.OUTCOMES})
    new: int = 0                                       # new findings of its own
    alike: int = 0                                     # new findings answering as Kafka's known deviations
    known: dict = field(default_factory=dict)          # known deviation id -> rows
    gated: dict | None = None                          # gate category -> cells (with a baseline)

    @property
    def gate_failures(self) -> int:
        return sum(n for cat, n in (self.gated or {}).items() if fails(cat))

    @property
    def fixed(self) -> int:
        return sum((self.gated or {}).get(cat, 0) for cat in FIXED)

    @property
    def word(self) -> str:
        if self.new or self.alike or self.gate_failures:
            return "fail"
        return "incomplete" if self.incomplete else "pass"


def companions_of(results: str) -> dict[str, str]:
    """spec -> the base it is a companion of, from the run's manifest (none when it has no
    manifest or names no companion)."""
    return {b["spec"]: b["companion_of"] for b in manifest_of(results).get("brokers") or []
            if isinstance(b, dict) and isinstance(b.get("spec"), str) and isinstance(b.get("companion_of"), str)}


class Verdicts:
    """Fed row by row (``add``), run by run (``start``); ``brokers()`` in the order first seen."""

    def __init__(self, known: list):
        self.known = known
        self._by: dict[str, Broker] = {}
        self._base: dict[str, str] = {}
        self._results: str | None = None
        #: (results file, spec) -> the broker its rows were counted under
        self._counted: dict[tuple[str, str], str] = {}

    def start(self, results: str) -> None:
        self._results = results
        self._base = companions_of(results)
        self._seen_in_run: set[str] = set()

    def column(self, spec: str) -> str:
        """The broker a row of ``spec`` answers for in the current run."""
        return self._base.get(spec, spec)

    def add(self, row: dict) -> tuple[str, object]:
        """Count one valid row; returns (kind, entry): ``known`` (a known deviation's entry),
        ``alike`` (the entry it answers as), ``new``, or ``other`` (not a fail)."""
        name = self.column(row["broker"])
        b = self._by.setdefault(name, Broker(name))
        b.parts.add(row["broker"])
        self._counted[(self._results, row["broker"])] = name
        if row["broker"] == name and row.get("broker_version"):
            b.version = row["broker_version"]
        elif b.version is None and row.get("broker_version"):
            b.version = row["broker_version"]
        if name not in self._seen_in_run:
            self._seen_in_run.add(name)
            run_dir = os.path.dirname(self._results)
            if run_dir not in b.runs:
                b.runs.append(run_dir)
                if (why := run_completeness(self._results)) is not None:
                    b.incomplete.append((run_dir, why))
        b.rows[row["outcome"]] += 1
        if row["outcome"] != "fail":
            return "other", None
        if (k := known_list.classify(row, self.known)) is not None:
            b.known[k.id] = b.known.get(k.id, 0) + 1
            return "known", k
        if (like := known_list.answers_as(row, self.known)) is not None:
            b.alike += 1
            return "alike", like
        b.new += 1
        return "new", None

    def against(self, baseline: dict, current: dict) -> None:
        """The gate's categories per broker: ``current`` (reports/cells.py ``load``) against
        ``baseline`` (gate.read_baseline), each cell in the broker its run names it under."""
        for b in self._by.values():
            b.gated = {}
        for cat, base, cur in compare(baseline, current, self.known):
            # a cell of these runs: the broker its run's rows were counted under (read as they
            # were streamed, not from the manifests again); a cell only the baseline has: the
            # broker whose rows name its spec
            name = (self._counted.get((cur.results, cur.broker)) if cur is not None
                    else self._column_for_baseline(base.broker))
            if name not in self._by:
                continue          # a broker of the baseline these runs did not ask
            gated = self._by[name].gated
            gated[cat] = gated.get(cat, 0) + 1

    def _column_for_baseline(self, spec: str) -> str:
        for b in self._by.values():
            if spec in b.parts:
                return b.name
        return spec

    def brokers(self) -> list[Broker]:
        return list(self._by.values())
