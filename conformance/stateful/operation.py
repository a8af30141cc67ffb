"""What an operation of S1 is: one admin API, arranged as hypothesis arranges a rule.

An operation is JSON (``{"api": name, "v": version, ...}``, topics named by *slot*, see
``strategies/stateful.py``). It is drawn with symbolic parts (deltas, offset choices),
resolved against the model (``conformance/cluster_model.py``) into the concrete operation
that is sent and recorded, and its answer's entries are checked against the model's
prediction. Requests are built by ``protocol/requests.py`` and answers read by
``protocol/apis.py`` (the fields of Kafka's message schemas,
``clients/src/main/resources/common/message/*.json`` in apache/kafka); the subclasses are in
``topic_operations.py``, ``config_operations.py`` and ``log_operations.py``, listed in draw
order by ``steps.OPERATIONS``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis.strategies import SearchStrategy

from protocol import apis
from protocol.apis import ApiKey

from .. import cluster_model as cm

if TYPE_CHECKING:
    from .interfaces import Draws, RowContext, RunContext


class Operation:
    """One admin API in S1, arranged as a hypothesis rule is: its strategy (:meth:`draw`,
    focused in its own row, plain in others) and its precondition (:meth:`enabled`: may a
    plain request of it be drawn in this row; :meth:`resolve` returns None where the model's
    state leaves nothing to send). Then how the drawn operation is made concrete against
    the model (:meth:`resolve`), read in a script (:meth:`render`), and sent and checked
    (:meth:`perform`: :meth:`items` names the topics, :meth:`predict` asks the model,
    :meth:`request` builds the body with ``protocol.requests``, :meth:`entries` reads the
    answer's per-item results with ``protocol.apis``)."""

    api: ApiKey
    #: The operation's list of items (what plain requests keep and the minimiser trims).
    field = "topics"
    #: A row of its own (a focus), and plain requests in other APIs' rows.
    focus = True
    plain = True
    #: Its row also checks DescribeConfigs of every topic (a config row), or produces and
    #: checks every partition's log start/end offsets (a log row).
    config_row = False
    log_row = False
    #: The versions S1 sends, within the broker's advertised range and the suite's schemas.
    min_version, max_version = 0, None
    #: Script text after a NONE entry (``extra(expect, entry)``), or None.
    extra = None

    @property
    def name(self) -> str:
        return self.api.name

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, s: Draws, focused: bool) -> SearchStrategy[dict]:
        raise NotImplementedError

    def enabled(self, row: RowContext) -> bool:
        """Precondition of a plain request of this API in ``row``."""
        return self.plain and self.api != row.focus and self.api in row.ranges

    def support(self, row: RowContext) -> int:
        """How many times a step's options list this operation besides focus and plain."""
        return 0

    # -- resolving -------------------------------------------------------------------------
    def keep_plain(self, m: cm.Model, items: list) -> list:
        """The items a plain request keeps: those naming a topic the model has."""
        return [t for t in items if m.name(t["slot"]) in m.topics]

    def resolve(self, run: RunContext, op: dict) -> dict | None:
        """The concrete operation (``op`` is a copy), or None: nothing to send."""
        return op

    # -- the script ------------------------------------------------------------------------
    def render(self, op: dict, n) -> str:
        """The request's body in a script line; ``n(slot)`` is the topic's short name."""
        raise NotImplementedError

    # -- sending ---------------------------------------------------------------------------
    def perform(self, run: RunContext, op: dict, line: str) -> None:
        items = self.items(run, op)
        expects = self.predict(run, items, op)
        resp = run.send(self.api, op["v"], self.request(op["v"], items, op), line)
        run.answer(line, expects, self.entries(run, resp, items, op), self.extra,
                   api=self.api, items=items, version=op["v"], everything=items is not None)

    def items(self, run: RunContext, op: dict) -> list:
        """The operation's items with topic names, as the model method takes them."""
        raise NotImplementedError

    def predict(self, run: RunContext, items: list, op: dict) -> list[cm.Expect]:
        raise NotImplementedError

    def request(self, v: int, items: list, op: dict) -> dict:
        raise NotImplementedError

    def entries(self, run: RunContext, resp: dict, items: list, op: dict) -> list[tuple[tuple, int, dict]]:
        """``(key, error code, entry)`` per result entry of the answer."""
        field = apis.spec(self.api).item
        return [(("name", e.get(field)), e["error_code"], e) for e in apis.results(self.api, resp)]


class Operations:
    """The operations one state machine sends (S1's, S2's), in draw order: found by API key
    and by name, the fields their items are listed in (what the minimiser trims), and a
    step's script line."""

    def __init__(self, operations):
        self.all: tuple[Operation, ...] = tuple(operations)
        self.by_key: dict[ApiKey, Operation] = {}      # an API's first operation (S1's, before a family's)
        for o in self.all:
            self.by_key.setdefault(o.api, o)
        self.by_name: dict[str, Operation] = {o.name: o for o in self.all}
        self.fields: tuple[str, ...] = tuple(dict.fromkeys(o.field for o in self.all))

    def render(self, op: dict, sub: str) -> str:
        """One script line for an operation (without its answer)."""
        vo = " validate_only" if op.get("validate_only") else ""
        head = f"{op['api']} v{op['v']}{vo}" if "v" in op else op["api"]
        o = self.by_name.get(op["api"])
        body = o.render(op, lambda s: f"kac-..-{s}") if o is not None else str(op)
        return f"{head} {{{body}}}"


def with_existing_partitions(run, op: dict) -> dict | None:
    """``op`` (naming a topic slot ``topic`` and ``partitions``) keeping the partitions the
    model's topic has; None where the model has no such topic, or none of them."""
    t = run.model.topics.get(run.model.name(op["topic"]))
    if t is None or not t.partitions:
        return None
    op["partitions"] = [p for p in op["partitions"] if p < t.partitions]
    return op if op["partitions"] else None


class FamilyOperation(Operation):
    """An S2 operation of an admin family beside S1's topics (ACLs, quotas, SCRAM credentials,
    groups, features): drawn in full at every version in range, on the example's names
    (``plane_model``), sent with the family's client and judged by its :meth:`perform`,
    which states the model's answer as the check's expectations and applies its effects."""

    family: str
    focus = False
    plain = False
    field = "items"

    def enabled(self, row) -> bool:
        return self.family in row.families and self.api in row.ranges

    def settled(self, run, line: str, result: str) -> None:
        """The step answered as the model said: script it and count its family as reached."""
        run.script.append(f"{line} -> {result}")
        run.model.reached[self.family] += 1
