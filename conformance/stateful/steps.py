"""What one step of S1 may do: every operation in draw order, the strategies a row's steps
are drawn from, and a step's script line.

A row (one focus API) draws the focus API's requests in full (every advertised version,
bad items, duplicates, validate_only) 4 times in 10, Produce in the log rows, and plain
requests of the other APIs that only touch topics the model has, so they always succeed on
Kafka (``docs/stateful.md``, "Rows"). The draws are built from ``strategies/stateful.py``;
the order of ``OPERATIONS`` is the order of the options a fixed seed draws by position.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import strategies as st

from protocol.apis import ApiKey
from strategies import stateful as draws

from .config_operations import BAD_PAIRS, VALID_PAIRS, AlterConfigs, DescribeConfigs, IncrementalAlterConfigs
from .log_operations import DeleteRecords, Produce
from .operation import Operation, Operations
from .topic_operations import CreatePartitions, CreateTopics, DeleteTopics, Metadata

if TYPE_CHECKING:
    from .interfaces import RowContext


#: Every operation S1 sends. The order is the order of the plain options in a step's draw
#: (a fixed seed draws by position: keep it).
OPERATIONS: tuple[Operation, ...] = (CreateTopics(), DeleteTopics(), CreatePartitions(), IncrementalAlterConfigs(),
                                     AlterConfigs(), DeleteRecords(), Metadata(), DescribeConfigs(), Produce())
S1 = Operations(OPERATIONS)
BY_KEY, BY_NAME, FIELDS = S1.by_key, S1.by_name, S1.fields
#: The rows: one per API with a row of its own, in API-key order.
FOCUS_KEYS = tuple(sorted(o.api for o in OPERATIONS if o.focus))


class Strategies:
    """What the operations of one check (row) draw from: the broker's version ranges, the
    focus, the broker count. ``row`` needs ``focus``, ``ranges``, ``defaults``,
    ``watch_logs``, ``watch_configs`` and ``avoided_shapes``."""

    def __init__(self, row: RowContext):
        self.row = row

    def version(self, api: int, focused: bool):
        return draws.versions(*self.row.ranges[api], focused)

    def slot(self, focused: bool):
        return draws.slots(focused)

    def pair(self, focused: bool):
        return draws.config_pairs(VALID_PAIRS, BAD_PAIRS, focused)

    def avoids(self, shape: str) -> bool:
        """The broker under check has a known deviation of this request shape
        (reference/known_deviations.py): operations leave it out."""
        return shape in self.row.avoided_shapes

    # -- what one step may do ------------------------------------------------------------
    def steps(self):
        """The focus API's requests (4 in 10), produce (log rows) and plain requests of the
        other APIs. A plain request is marked ``"plain": true``: it only touches topics the
        model has (or, for CreateTopics, does not have), so it always succeeds on Kafka."""
        row = self.row
        options = draws.weighed(BY_KEY[row.focus].draw(self, True), 4)
        for op in OPERATIONS:
            copies = op.support(row)
            if copies:
                options += draws.weighed(op.draw(self, False), copies)
        options += [op.draw(self, False).map(draws.plain) for op in OPERATIONS if op.enabled(row)]
        return st.one_of(options)

    def first_family_steps(self):
        """S1's examples start with topics only (S2's: ``admin_plane.PlaneStrategies``)."""
        return None

    def first_step(self):
        """Every example starts with one or two plain topics (a, b)."""
        return BY_KEY[ApiKey.CreateTopics].first(self).map(draws.plain)


def render(op: dict, sub: str) -> str:
    """One script line for an S1 operation (without its answer)."""
    return S1.render(op, sub)
