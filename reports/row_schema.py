"""The result-row schema of docs/results.md, once, for Spark and for plain Python.

``FIELDS`` is the single source: the Spark StructType and the pure-Python validator are
both built from it, so the aggregation and the gate accept and reject the same lines.
"""
from __future__ import annotations

import datetime as dt
import json
import re

OUTCOMES = ("pass", "fail", "error", "unsupported", "skip")

# A run may hold several rows for one cell (several tests check one property at one API
# version). The cell's *state* in that run says what its rows say together (cell_state):
# any failing row fails the cell, an erring one leaves it undecided, and it passes only
# when every one of its tests was asked and passed; a cell some of whose tests were not
# asked (unsupported, skip) while the others passed is ``partial``. The row that explains
# the state stands for the cell (its message, counterexample and replay): the most severe
# row, the latest among equals, where a test not asked is more severe than a pass.
SEVERITY = ("pass", "skip", "unsupported", "error", "fail")  # least to most severe
#: A cell's states, in the order of the dashboard's legend.
CELL_STATES = ("pass", "partial", "fail", "error", "unsupported", "skip")
#: States whose asked tests all passed (the score counts them as passing).
PASSING = ("pass", "partial")


def severity(outcome: str) -> int:
    return SEVERITY.index(outcome)


def cell_state(counts: dict) -> str:
    """A cell's state from its rows' outcome counts (``{"pass": 3, "skip": 1, ...}``):
    fail > error > partial (some passed, some not asked) > pass (every test asked and
    passed) > unsupported > skip. The Spark tables compute the same (reports/tables.py
    ``state``)."""
    n = {o: int(counts.get(o) or 0) for o in OUTCOMES}
    if n["fail"]:
        return "fail"
    if n["error"]:
        return "error"
    if n["pass"]:
        return "partial" if n["unsupported"] or n["skip"] else "pass"
    return "unsupported" if n["unsupported"] else "skip"

# (name, kind, nullable). kind: int | str | float | object (a JSON object kept as text).
FIELDS = (
    ("row_id", "int", False),
    ("run_id", "str", False),
    ("started_at", "str", False),
    ("broker", "str", False),
    ("broker_impl", "str", True),
    ("broker_version", "str", True),
    ("property", "str", False),
    ("api_key", "int", True),
    ("api_name", "str", True),
    ("api_version", "int", True),
    ("outcome", "str", False),
    ("examples", "int", False),
    ("counterexample", "object", True),
    ("message", "str", True),
    ("source", "str", False),
    ("duration_s", "float", False),
    ("seed", "int", True),
)
FIELD_NAMES = tuple(f[0] for f in FIELDS)
#: Every field of a row the suite writes, in its order: FIELDS, then ``test`` (the pytest
#: node id), ``check`` (what tells the row's check apart from the other checks of its
#: cell, whatever the broker: the test function and its parameters beyond the cell, e.g.
#: ``test_c4_...[kind=unknown key]``) and ``judged`` (how many expectations beyond set-up
#: the judge decided on the broker's answers; a ``pass`` has at least one). None of the
#: three is validated (rows written before ``judged`` lack it); the gate and the
#: known-deviation checker read ``check`` (reports/cells.py), Spark ignores all three.
ROW_FIELDS = FIELD_NAMES + ("test", "check", "judged")
#: Read by Spark beside FIELDS, never validated: the dashboard matches a failing cell's row
#: against the known deviations of Kafka, which name a check (reports/known.py).
SPARK_EXTRAS = ("check",)
REQUIRED = tuple(name for name, _, nullable in FIELDS if not nullable)
CORRUPT = "_corrupt_record"


#: Parsed by the reader itself: a line whose started_at is not a time is corrupt.
TIMESTAMPS = ("started_at",)


def broker_mode(spec: str | None) -> str:
    """A row's metadata mode, from its ``broker`` spec: ``zk`` for a ZooKeeper-mode Apache
    Kafka (``kafka:VERSION,mode=zk``, also behind a proxy), else ``kraft``. The manifest
    records it too (``brokers[].mode``); the spec keeps every row self-contained."""
    return "zk" if re.search(r",mode=zk(?:,|$)", spec or "") else "kraft"


def spark_schema():
    """The explicit StructType Spark's JSON reader parses every line with (plus the
    corrupt-record column). started_at is read as a timestamp, so the reader's one pass
    both converts and checks it."""
    from pyspark.sql import types as T

    kinds = {"int": T.LongType(), "str": T.StringType(), "float": T.DoubleType(),
             # Spark keeps a nested object as its JSON text when the field is a string.
             "object": T.StringType()}
    fields = [T.StructField(name, T.TimestampType() if name in TIMESTAMPS else kinds[kind], True)
              for name, kind, _ in FIELDS]
    extras = [T.StructField(name, T.StringType(), True) for name in SPARK_EXTRAS]
    return T.StructType(fields + extras + [T.StructField(CORRUPT, T.StringType(), True)])


def parse_time(text: str) -> dt.datetime | None:
    """ISO-8601 -> aware UTC datetime (naive times are taken as UTC); None if unparsable."""
    try:
        t = dt.datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return t.replace(tzinfo=dt.timezone.utc) if t.tzinfo is None else t.astimezone(dt.timezone.utc)


def _type_ok(kind: str, value) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "str":  # any JSON value: Spark's reader keeps a non-string as its text
        return True
    return isinstance(value, dict)


def check_line(line: str) -> tuple[dict | None, str | None]:
    """One results.jsonl line -> (row, None) when valid, (None, reason) when malformed, and
    (None, None) for a blank line, which is neither (Spark's JSON reader skips it too)."""
    if not line.strip():
        return None, None
    try:
        row = json.loads(line)
    except ValueError:
        return None, "not a JSON object (or a cut-off line)"
    if not isinstance(row, dict):
        return None, "not a JSON object (or a cut-off line)"
    return (row, None) if (reason := check_row(row)) is None else (None, reason)


def check_row(row: dict) -> str | None:
    """The reason a parsed row breaks the contract, or None. Unknown extra fields are allowed.

    Like Spark's JSON reader, a text field given a number, boolean or object takes that
    value's JSON text (the row is changed in place)."""
    for name, kind, nullable in FIELDS:
        value = row.get(name)
        if value is None:
            if not nullable:
                return f"missing field {name}"
        elif not _type_ok(kind, value):
            return f"field {name} has the wrong type"
        elif kind == "str" and not isinstance(value, str):
            row[name] = json.dumps(value, separators=(",", ":"))
    if row["outcome"] not in OUTCOMES:
        return f"outcome {row['outcome']!r} is not one of {', '.join(OUTCOMES)}"
    if parse_time(row["started_at"]) is None:
        return "started_at is not an ISO-8601 time"
    if row["row_id"] < 1:
        return "row_id is not positive"
    return None
