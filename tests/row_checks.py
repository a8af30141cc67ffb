"""What every row of a run must be, whatever the property or broker (docs/results.md): the
fields in order with their types, ``row_id`` counting from 1, a fail with its message and
steps, an unsupported, error or skip with its reason. Asked of the runs that ask every
property (the Kafka ci run, tests/test_kafka_target.py) and of the multi-broker matrix
(tests/test_conformance_run.py)."""
from __future__ import annotations

from fixtures.results import OUTCOMES, ROW_FIELDS

TYPES = {"row_id": int, "run_id": str, "started_at": str, "broker": str, "property": str,
         "outcome": str, "examples": int, "source": str, "duration_s": (int, float), "seed": int}


def assert_well_formed(rows: list[dict], run_id: str) -> None:
    assert rows, "the run wrote no rows"
    for i, row in enumerate(rows, 1):
        assert tuple(row) == ROW_FIELDS
        assert row["row_id"] == i and row["run_id"] == run_id
        assert row["outcome"] in OUTCOMES
        for field, kind in TYPES.items():
            assert isinstance(row[field], kind), (field, row)
        assert row["source"], row
        if row["outcome"] == "fail":
            assert row["message"] and row["counterexample"]["steps"], row
        if row["outcome"] in ("unsupported", "error", "skip"):
            assert row["message"], row
