"""What S1's operations, the checks of their answers and the invariants need of the row and
the example they run in, and of the strategies they draw from: typed interfaces
(``typing.Protocol``) that :class:`~.row.Row`, :class:`~.run.Run` and
:class:`~.steps.Strategies` satisfy.

The modules below ``row.py`` and ``run.py`` (the operations, ``steps.py``,
``expectations.py``, ``invariants.py``, ``run.py`` itself) annotate with these, so none of
them imports the module that imports it. This module imports nothing of the package.
"""
from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Callable, Protocol

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from fixtures.harness import Check, Client, Violation

    from .. import cluster_model as cm


class OperationTable(Protocol):
    """The operations a row's examples send (``operation.Operations``)."""

    by_key: dict
    by_name: dict
    fields: tuple[str, ...]

    def render(self, op: dict, sub: str) -> str: ...


class RowContext(Protocol):
    """One check of S1 (one result row): its focus API, the versions it may send, what a
    fresh topic looks like, where a failure goes."""

    check: Check
    client: Client
    focus: int | None
    operations: OperationTable
    model_class: type[cm.Model]
    ranges: dict[int, tuple[int, int]]
    defaults: cm.Defaults
    watch_configs: bool
    watch_logs: bool
    avoided_shapes: frozenset[str]

    def settle_seconds(self) -> float: ...

    def family_looks(self) -> list[tuple[str, Callable[[RunContext], dict]]]: ...

    def delete_owned(self, owns: Callable[[str], bool]) -> dict: ...

    def new_run(self, sub: str | None = None) -> RunContext: ...

    def record_failure(self, run: RunContext, problem: str, verdict: Violation) -> None: ...

    def example_ended(self, run: RunContext) -> None: ...

    def message(self, run: RunContext, problem: str) -> str: ...


class RunContext(Protocol):
    """One example of S1: its row, its sub-prefix, its model and script; how a request is
    sent and its answer checked against the model."""

    row: RowContext
    check: Check
    sub: str
    model: cm.Model
    script: list[str]
    unsettled: dict[str, float]

    def judging(self, line=None) -> AbstractContextManager[None]: ...

    def send(self, api: int, v: int, body: dict, line: str) -> dict: ...

    def answer(self, line, expects, entries, describe_extra=None, api=None, items=None, version=None,
               everything=True) -> None: ...

    def policy_watch(self) -> dict: ...

    def policy_changed(self, before) -> None: ...

    def execute(self, drawn: dict) -> None: ...

    def cleanup(self) -> None: ...


class Draws(Protocol):
    """What the operations of one row draw from (``steps.Strategies``)."""

    row: RowContext

    def version(self, api: int, focused: bool) -> SearchStrategy[int]: ...

    def slot(self, focused: bool) -> SearchStrategy[str]: ...

    def pair(self, focused: bool) -> SearchStrategy[list]: ...

    def avoids(self, shape: str) -> bool: ...
