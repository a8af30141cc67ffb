"""One example of S1 (a :class:`Run`): its sub-prefix, its model, the operations it sent and
its script; how a drawn operation is resolved and sent, how the answer is checked against
the model's prediction and the model updated (the model, its predictions and effects are
``conformance/cluster_model.py``, after ``docs/reference-semantics.md``); and
:func:`play`, which runs recorded operations as one example without hypothesis (for the
minimiser and ``--replay``).
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import TYPE_CHECKING

from fixtures.harness import Violation
from protocol import apis
from protocol.errors import Errors, error_name

from .. import cluster_model as cm
from .expectations import entry_path, expected_answer, expected_entries
from .invariants import check_invariants

if TYPE_CHECKING:
    from .interfaces import RowContext

#: After a cleanup.policy change, how long a partition's log may still use the old policy.
POLICY_SETTLE_SECONDS = 2.0


def abbreviate(text: str, sub: str) -> str:
    """``text`` with the example's sub-prefix written ``kac-..`` (as scripts show it)."""
    return text.replace(sub + "-", "kac-..-")


class Run:
    """One example: a fresh sub-prefix, an empty model, the operations and the script."""

    def __init__(self, row: RowContext, sub: str):
        self.row = row
        self.check = row.check
        self.client = row.client
        self.sub = sub
        self.model = row.model_class(sub, row.defaults)
        self.ops: list[dict] = []
        self.script: list[str] = []
        self.unsettled: dict[str, float] = {}       # topic -> until when its policy may lag

    # -- failing: the judge's verdicts ------------------------------------------------------
    @contextmanager
    def judging(self, line=None):
        """The judge decides what the block states; a broken expectation is the row's
        failure: recorded (its script line ``line()``, the sequence, the steps, the
        expectations) and raised as the judge's verdict with the script as its message."""
        try:
            yield
        except Violation as verdict:
            if verdict.scripted:      # a block within already said so
                raise
            problem = str(verdict)
            if line is not None:
                self.script.append(line() if callable(line) else line)
            self.script.append(f"   !! {abbreviate(problem, self.sub)}")
            self.row.record_failure(self, problem, verdict)
            raise verdict.restated(self.row.message(self, problem), scripted=True) from None

    def send(self, api: int, v: int, body: dict, line: str) -> dict:
        with self.judging(f"{line} -> no answer"):
            return self.client.answered(api, v, body)

    # -- resolving drawn operations -------------------------------------------------------
    def resolve(self, op: dict) -> dict | None:
        operation = self.row.operations.by_name[op["api"]]
        op = dict(op)
        if op.get("plain"):
            items = operation.keep_plain(self.model, op[operation.field])
            if not items:
                return None
            op = {**op, operation.field: items}
        return operation.resolve(self, op)

    # -- executing -------------------------------------------------------------------------
    def execute(self, drawn: dict) -> None:
        op = self.resolve(drawn)
        if op is None:
            return
        self.ops.append(op)
        self.row.operations.by_name[op["api"]].perform(self, op, self.row.operations.render(op, self.sub))

    def answer(self, line, expects, entries, describe_extra=None, api=None, items=None, version=None,
               everything=True):
        """State the model's prediction for the answer just received (the judge decides it),
        then apply the effects of the entries that succeeded and script the line."""
        def got():
            return f"{line} -> " + (", ".join(f"{self._label(k)}: {error_name(c)}" for k, c, _ in entries)
                                    or "no results")
        with self.judging(got):
            expected_answer(self, api, expects, entries, everything)
            expected_entries(self, api, expects, entries)
        problem, pairs = cm.match(expects, entries)
        if problem:     # the judge found every entry as predicted: the suite reads the answer otherwise
            raise RuntimeError(f"the judge held {apis.api_name(api)}'s answer, the model's reading does not: {problem}")
        step = len(self.check.steps) - 1
        parts = []
        for e, code, entry in pairs:
            text = error_name(code)
            if describe_extra and code == Errors.NONE:
                text += describe_extra(e, entry)
            parts.append((self._label(e.key), text))
        result = parts[0][1] if len(parts) == 1 else ", ".join(f"{k}: {t}" for k, t in parts)
        for e, code, entry in pairs:
            if code == Errors.NONE and e.effect:
                e.effect(entry)
                self.ids_seen(step, api, e.key)
        self.script.append(f"{line} -> {result}")

    def ids_seen(self, step: int, api, key) -> None:
        """A topic whose id the model learnt from this step's entry remembers where it saw it."""
        if key[0] != "name":
            return
        t = self.model.topics.get(key[1])
        if t is not None and t.topic_id is not None and t.id_seen is None:
            t.id_seen = (step, entry_path(api, key) + ["topic_id"])

    def _label(self, key) -> str:
        if key[0] == "partition":
            return abbreviate(f"{key[1]}-{key[2]}", self.sub)
        if key[0] == "id":
            return f"id {str(key[1])[:8]}"
        return abbreviate(str(key[1]), self.sub)

    def policy_watch(self):
        m = self.model
        return {n: m.policy_deletes(t) for n, t in m.topics.items()}

    def policy_changed(self, before):
        m = self.model
        for n, t in m.topics.items():
            if n in before and before[n] != m.policy_deletes(t):
                self.unsettled[n] = time.monotonic() + POLICY_SETTLE_SECONDS

    # -- cleanup -----------------------------------------------------------------------------
    def cleanup(self) -> None:
        """Delete every topic under this example's sub-prefix (nothing is checked)."""
        try:
            self.row.delete_owned(lambda name: self.model.owns(name))
        except Violation:
            pass
        self.row.example_ended(self)


def play(row: RowContext, ops: list[dict], sub: str | None = None) -> None:
    """Run operations in order as one example, without hypothesis, checking the invariants
    before the first and after every step (as the state machine does)."""
    run = row.new_run(sub)
    try:
        check_invariants(run)
        for op in ops:
            run.execute(op)
            check_invariants(run)
    finally:
        run.cleanup()
