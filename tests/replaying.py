"""One check the family can-fail tests share: a mutant's quickest finding, exported as a
standalone repro.py, gives the row's verdict against a fresh broker under the mutant
(issue 25, item 1: the row and the reproducer share one judge; ``faults.mutation.replay``)."""
from __future__ import annotations

from pathlib import Path

from faults.mutation import quickest, replay


def assert_quickest_finding_replays(name: str, spec: str, cells: dict, results: Path) -> None:
    """``cells``: the mutant's rows by cell; ``results``: the run's results.jsonl."""
    failing = [r for rs in cells.values() for r in rs if r["outcome"] == "fail"]
    assert failing, f"{name}: no failing row to replay"
    row = quickest(failing)
    agrees, said = replay(spec, row, results)
    assert agrees, f"{name}: {row['property']} row {row['row_id']} did not replay: {said}"
