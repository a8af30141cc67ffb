"""Pure-Python reading of local run folders: the latest state of every cell (for the gate).

Same rules as the Spark job: lines are validated with row_schema.check_line, malformed ones
are counted with file and line; within a run a cell's state is what its rows say together
(row_schema.cell_state: pass only when every test of it was asked and passed, ``partial``
when some were not asked) and its most severe row stands for it (the latest among equals,
row_schema.SEVERITY); across runs the latest run's state stands, ordered by run start (the
manifest's started_at, else the run's first row). A cell keeps its failing rows, so that it
is *known* only when every one of them is a reviewed known deviation (reports/known.py).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from . import row_schema
from .cli import ReportError
from .paths import HINT, MANIFEST, RESULTS, is_local, read_runs_from


@dataclass
class Cell:
    broker: str
    api_key: int | None
    api_name: str | None
    api_version: int | None
    property: str
    outcome: str
    run_id: str
    row_id: int
    results: str
    message: str | None = None
    order: tuple = field(default=(), repr=False)
    broker_impl: str | None = None
    broker_version: str | None = None
    counterexample: object = field(default=None, repr=False)
    counts: dict = field(default_factory=dict)      # row outcome -> rows of the cell in its run
    failing: list = field(default_factory=list)     # its fail and error rows (the fields known.py reads)

    @property
    def key(self) -> tuple:
        return (self.broker, self.api_key, self.api_version, self.property)

    @property
    def asked(self) -> int:
        """Rows of the cell that got a verdict (pass or fail)."""
        return int(self.counts.get("pass", 0)) + int(self.counts.get("fail", 0))

    @property
    def tests(self) -> int:
        return sum(int(n) for n in self.counts.values())

    def known(self, entries) -> bool:
        """Every failing row of the cell is a known deviation (and it has one)."""
        return bool(self.failing) and all(any(e.matches(r) for e in entries) for r in self.failing)

    @property
    def tellable(self) -> bool:
        """Its failing rows can be told apart across runs: each names its check (rows written
        before the suite wrote ``check`` cannot be: their messages name each run's topics)."""
        return self.failing is not None and all(r.get("check") for r in self.failing)

    def new_failures(self, entries, before: "Cell | None") -> list[dict]:
        """Failing rows no entry matches whose check did not fail in ``before`` (the
        baseline's cell); none when the two cannot be told apart (rows without ``check``)."""
        if before is not None and not before.tellable:
            return []
        had = {r["check"] for r in (before.failing if before is not None else [])}
        return [r for r in self.failing
                if r.get("check") and r["check"] not in had and not any(e.matches(r) for e in entries)]

    def shown(self) -> str:
        """The state as a reader sees it: ``partial (6 of 7 tests asked)``."""
        if self.outcome == "partial":
            return f"partial ({self.asked} of {self.tests} tests asked)"
        return self.outcome


#: The fields of a failing row a cell keeps (known.py matches on them, the gate names them).
FAILING_FIELDS = ("broker", "broker_impl", "broker_version", "property", "api_key", "api_version", "outcome",
                  "message", "counterexample", "check", "test", "row_id")


@dataclass
class Loaded:
    cells: dict = field(default_factory=dict)  # key -> Cell (latest)
    runs: list = field(default_factory=list)  # (run_start, run_id, results path)
    malformed: list = field(default_factory=list)  # (file, line, reason)


def find_runs(results_dirs: list[str], runs: list[str]) -> list[str]:
    """results.jsonl paths of the given run folders and of the run folders inside results_dirs."""
    out = []
    for p in results_dirs + runs:
        if not is_local(p):
            raise ReportError(f"the gate reads local folders only, not {p}; copy the runs here first")
    for d in results_dirs:
        d = d.removeprefix("file:")
        if not os.path.isdir(d):
            raise ReportError(f"no such folder: {d} ({HINT})")
        try:
            names = os.listdir(d)
        except OSError as e:
            raise ReportError(f"cannot read the folder {d}: {e.strerror} ({HINT})") from None
        found = sorted(os.path.join(d, c, RESULTS) for c in names if os.path.isfile(os.path.join(d, c, RESULTS)))
        if not found:
            raise ReportError(f"no run folders under {d}: expected {d}/<run_id>/{RESULTS} ({HINT})")
        out += found
    for r in runs:
        r = r.removeprefix("file:")
        f = r if r.endswith(RESULTS) and os.path.isfile(r) else os.path.join(r, RESULTS)
        if not os.path.isfile(f):
            raise ReportError(f"{'no such run folder' if not os.path.exists(r) else 'not a run folder'}: {r} ({HINT})")
        out.append(f)
    return list(dict.fromkeys(out))


def manifest_of(results: str) -> dict:
    """The manifest.json beside ``results`` ({} when the run has none or it does not parse)."""
    try:
        with open(os.path.join(os.path.dirname(results), MANIFEST), encoding="utf-8") as fh:
            m = json.load(fh)
    except (OSError, ValueError):
        return {}
    return m if isinstance(m, dict) else {}


def _manifest_start(results: str):
    return row_schema.parse_time(manifest_of(results).get("started_at"))


def valid_rows(results: str, malformed: list):
    """The valid rows of one results.jsonl; malformed lines go to ``malformed`` as (file, line, reason)."""
    try:
        fh = open(results, encoding="utf-8", errors="replace")
    except OSError as e:
        raise ReportError(f"cannot read {results}: {e.strerror}") from None
    with fh:
        for n, line in _lines(fh, results):
            row, reason = row_schema.check_line(line)
            if reason:
                malformed.append((results, n, reason))
            elif row is not None:  # None: a blank line
                yield row


def _lines(fh, results: str):
    """Numbered lines of an open results file; a read that fails is a one-line error."""
    try:
        yield from enumerate(fh, 1)
    except OSError as e:
        raise ReportError(f"cannot read {results}: {e.strerror}") from None


def add_run_arguments(p) -> None:
    """The run-folder arguments every entry point takes."""
    p.add_argument("runs", nargs="*", metavar="RUN_FOLDER", help="run folders to read")
    p.add_argument("--results-dir", action="append", default=[], metavar="DIR", help="every run folder in DIR")
    p.add_argument("--runs-from", metavar="FILE", help="a text file naming run folders, one a line")


def run_files(args) -> list[str]:
    """results.jsonl of the runs ``add_run_arguments`` named; one-line error when none."""
    runs = list(args.runs) + (read_runs_from(args.runs_from) if args.runs_from else [])
    if not runs and not args.results_dir:
        raise ReportError("no runs: give --results-dir DIR and/or run folders")
    return find_runs(args.results_dir, runs)


def read_run(results: str, malformed: list) -> tuple | None:
    """One run -> (run_start, run_id, results, {cell key: the Cell in the run: its state, the
    row explaining it, its counts and failing rows}); None if it has no valid row.
    Malformed lines are appended to ``malformed``."""
    mine, counts, failing, first = {}, {}, {}, None
    for row in valid_rows(results, malformed):
        t = row_schema.parse_time(row["started_at"])
        first = t if first is None or t < first else first
        c = Cell(row["broker"], row["api_key"], row["api_name"], row["api_version"], row["property"],
                 row["outcome"], row["run_id"], row["row_id"], results, row.get("message"),
                 (row_schema.severity(row["outcome"]), t, row["row_id"]), row.get("broker_impl"),
                 row.get("broker_version"), row.get("counterexample"))
        n = counts.setdefault(c.key, {})
        n[row["outcome"]] = n.get(row["outcome"], 0) + 1
        if row["outcome"] in ("fail", "error"):
            failing.setdefault(c.key, []).append({k: row.get(k) for k in FAILING_FIELDS})
        if c.key not in mine or c.order > mine[c.key].order:
            mine[c.key] = c
    if not mine:
        return None
    for key, c in mine.items():
        c.counts, c.failing = counts[key], failing.get(key, [])
        c.outcome = row_schema.cell_state(c.counts)
    return (_manifest_start(results) or first, next(iter(mine.values())).run_id, results, mine)


def load(files: list[str], last: int | None = None) -> Loaded:
    """Read the runs and keep each cell's latest; with ``last``, only the ``last`` most
    recent runs count."""
    loaded = Loaded()
    runs = sorted((r for r in (read_run(f, loaded.malformed) for f in files) if r), key=lambda r: r[:3])
    if last:
        runs = runs[-last:]
    for start, run_id, results, mine in runs:  # oldest first: a later run overrides
        loaded.runs.append((start, run_id, results))
        for key, c in mine.items():
            loaded.cells[key] = c
    return loaded
