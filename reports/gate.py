"""Release gate: compare runs against a baseline; fail when a cell got worse.

    python -m reports.gate [RUN_FOLDER ...] [--results-dir DIR] [--runs-from FILE] [--last N]
                           --baseline BASELINE [--junit FILE] [--strict] [--allow-new-unsupported]
                           [--broker-as RUN_BROKER BASELINE_BROKER] [--write-baseline FILE]

BASELINE is a run folder, a folder of run folders, or a JSON file written by
--write-baseline. A cell's state on either side is its latest state (reports/cells.py:
``pass`` only when every test of the cell was asked and passed, ``partial`` when some were
not asked). A failing cell is *known* only when every failing row in it is a reviewed
known deviation of Apache Kafka (--known-deviations, reports/known.py): it is reported as
known, not as a regression; a known row never covers another one. Exit 0: nothing below;
1: a cell went from pass (or partial) to fail, from pass to error, from pass to partial,
or from pass (or partial) to unsupported or skip (issue 55: a verdict the baseline had
must not vanish behind "not asked"; ``--allow-new-unsupported`` lets the last through, and
the summary says how many, never pass -> partial); a failing cell gained a failing row
that no entry matches and the baseline's cell did not have (also inside a known cell); a
cell of the baseline is missing from the runs; or the runs and the baseline share no cell
(with --strict also a new unsupported cell, a new property, or a new failing cell); 2: bad
input, one line on stderr (a baseline or run folder that is missing, unreadable or holds
no valid row, a malformed baseline file, an unknown option), including a run whose
manifest does not say it went to its end (``complete: true``) unless --allow-incomplete.
Pure Python: no Spark needed.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shlex
import sys

from . import junit
from . import known as known_list
from .cells import Cell, find_runs, load
from .cli import OneLineParser, ReportError, run
from .paths import MANIFEST, RESULTS, read_runs_from
from .row_schema import CELL_STATES, PASSING

FORMAT = "kafka-admin-conformance/gate-baseline/2"
#: Baselines written before cells had states: a cell was its most severe row, so a pass
#: may hide tests that were not asked, and its failing rows were not kept.
FORMAT_1 = "kafka-admin-conformance/gate-baseline/1"
# Category -> (fails the gate always, fails with --strict). Order = report order.
CATEGORIES = {
    "known_deviation": (False, False),  # every failing row is a reviewed defect of Apache Kafka (reports/known.py)
    "regression": (True, True),        # pass (or partial) -> fail
    "new_failure": (True, True),       # still failing, with a failing row the baseline did not have
    "narrowed": (True, True),          # pass -> partial: a test of the cell was not asked
    "unasked": (True, True),           # pass or partial -> unsupported or skip (--allow-new-unsupported)
    "new_property": (False, True),     # a property id the baseline never had
    "new_unsupported": (False, True),  # now unsupported, was absent, failing, erring or skipped
    "errored": (True, True),           # pass -> error: the verdict was lost
    "worse": (False, True),            # a new cell that fails or errs
    "fixed": (False, False),           # fail -> pass
    "new_cell": (False, False),        # absent from the baseline, passes or is skipped
    "missing": (True, True),           # in the baseline, not in these runs
    "changed": (False, False),         # any other change
    "same": (False, False),
}
TITLES = {"known_deviation": "fail as a known deviation of Apache Kafka (reviewed list), every failing row of them",
          "regression": "went from pass to fail",
          "new_failure": "gained a failing row the baseline did not have and no known deviation matches",
          "narrowed": "went from pass to partial (a test of the cell was not asked)",
          "new_property": "belong to properties new since the baseline",
          "unasked": "went from pass (or partial) to unsupported or skip (no test of the cell was asked)",
          "new_unsupported": "are newly unsupported", "errored": "went from pass to error",
          "worse": "got worse (new and failing or erring)",
          "fixed": "went from fail to pass", "new_cell": "are new and pass or skip",
          "missing": "of the baseline were not run", "changed": "changed otherwise"}
#: What --allow-new-unsupported lets through: cells that passed (or were partial) and now ask
#: no test (unsupported: the broker lacks the feature, with the evidence in the row; skip: not
#: asked by the profile or the scope). Never ``narrowed`` (pass -> partial): such a cell still
#: shows passing tests, so the ones it lost are easy to overlook, and the flag would let a
#: regression hide there behind "not asked" (issue 55); when that change is meant, rewrite the
#: baseline (--write-baseline).
ALLOWABLE = frozenset({"unasked"})
ALLOW = "--allow-new-unsupported"
#: States in which no test of a cell was asked.
UNASKED = ("unsupported", "skip")
SHOW = 50


def fails(cat: str, strict: bool = False, allow_unasked: bool = False) -> bool:
    """Whether a cell of category ``cat`` fails the gate under these options."""
    if allow_unasked and cat in ALLOWABLE:
        return False
    always, strictly = CATEGORIES[cat]
    return always or (strict and strictly)


def label(c: Cell) -> str:
    api = "(whole broker)" if c.api_key is None else f"{c.api_name or 'api'}({c.api_key})"
    v = "" if c.api_version is None else f" v{c.api_version}"
    return f"{c.broker} {api}{v} {c.property}"


def categorize(base: Cell | None, cur: Cell | None, base_props: set, known: list | tuple = ()) -> str:
    if cur is None:
        return "missing"
    if cur.property not in base_props:
        return "new_property"
    was, now = (base.outcome if base else None), cur.outcome
    if now in ("fail", "error") and cur.failing:
        new = cur.new_failures(known, base)
        if new and was in ("fail", "error"):
            return "new_failure"
        if not new and cur.known(known) and was != now:
            return "known_deviation"
    if was in PASSING and now == "fail":
        return "regression"
    if was == "pass" and now == "partial":
        return "narrowed"
    if was in PASSING and now in UNASKED:
        return "unasked"
    if now == "unsupported" and was != "unsupported":
        return "new_unsupported"
    if was == "pass" and now == "error":
        return "errored"
    if was is None and now in ("fail", "error"):
        return "worse"
    if was == "fail" and now == "pass":
        return "fixed"
    if was is None:
        return "new_cell"
    return "same" if was == now else "changed"


def _order(key: tuple) -> tuple:
    """Cells sorted by broker, then API and version numerically, then property."""
    return tuple((x is None, x if isinstance(x, int) else 0, str(x)) for x in key)


def compare(base: dict, cur: dict, known: list | None = None) -> list[tuple[str, Cell | None, Cell | None]]:
    """Each cell's category; a failing cell every failing row of which a known deviation
    matches is ``known_deviation`` whatever the baseline said (the list is reviewed: the row
    is that defect, not a regression of the broker build); one failing row no entry matches
    makes the cell a regression or a new failure as any other cell."""
    props = {c.property for c in base.values()}
    keys = sorted(set(base) | set(cur), key=_order)
    return [(categorize(base.get(k), cur.get(k), props, known or ()), base.get(k), cur.get(k)) for k in keys]


def read_baseline(path: str) -> tuple[dict, str]:
    """-> ({cell key: Cell}, description); a ReportError (one line) when ``path`` is no
    baseline: missing, unreadable, not a baseline file, or holding no cell."""
    if os.path.isfile(path) and not path.endswith(RESULTS):
        try:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
            if not isinstance(doc, dict) or doc.get("format") not in (FORMAT, FORMAT_1):
                raise ValueError(f"format is not {FORMAT}")
            old = doc["format"] == FORMAT_1
            if not isinstance(doc.get("cells"), list) or not doc["cells"]:
                raise ValueError("it lists no cells")
            cells = [baseline_cell(c, i, old) for i, c in enumerate(doc["cells"], 1)]
        except OSError as e:
            raise ReportError(f"cannot read the baseline {path}: {e.strerror or e}; give a run folder, "
                              "a folder of runs, or a JSON file written by --write-baseline") from None
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise ReportError(f"baseline {path} is not a baseline file ({e}); write one with "
                              "--write-baseline FILE, or give a run folder") from None
        note = ("; format 1: its cells were their most severe row and kept no failing rows, so new failing "
                "rows inside a failing cell are not told apart; rewrite it with --write-baseline") if old else ""
        return {c.key: c for c in cells}, f"{path} ({len(cells)} cells, written {doc.get('written_at')}{note})"
    if os.path.isfile(path):  # a results.jsonl: its run folder
        path = os.path.dirname(path) or "."
    if os.path.isdir(path):
        is_run = os.path.isfile(os.path.join(path, RESULTS))
        loaded = load(find_runs([] if is_run else [path], [path] if is_run else []))
        if not loaded.cells:
            raise ReportError(f"the baseline {path} holds no valid row"
                              + (f" ({malformed(loaded)})" if loaded.malformed else "")
                              + "; give a run folder the suite wrote, or a baseline file")
        return loaded.cells, f"{path} ({len(loaded.runs)} run(s), {len(loaded.cells)} cells)"
    raise ReportError(f"no such baseline: {path}; give a run folder, a folder of runs, "
                      "or a JSON file written by --write-baseline")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def baseline_cell(c, i: int, old: bool) -> Cell:
    """Cell ``i`` of a baseline file, its fields checked (ValueError naming the cell): a file
    that only looks like a baseline must not decide a gate."""
    if not isinstance(c, dict):
        raise ValueError(f"cell {i} is not an object")
    for k in ("broker", "property"):
        if not isinstance(c.get(k), str) or not c[k]:
            raise ValueError(f"cell {i} has no {k}")
    if c.get("outcome") not in CELL_STATES:
        raise ValueError(f"cell {i}: outcome {c.get('outcome')!r} is none of {', '.join(CELL_STATES)}")
    for k in ("api_key", "api_version", "row_id"):
        if c.get(k) is not None and not _is_int(c[k]):
            raise ValueError(f"cell {i}: {k} {c[k]!r} is not a number")
    for k in ("api_name", "run_id", "results", "message"):
        if c.get(k) is not None and not isinstance(c[k], str):
            raise ValueError(f"cell {i}: {k} is not a string")
    counts = c.get("counts") or {}
    if not isinstance(counts, dict) or not all(isinstance(k, str) and _is_int(n) for k, n in counts.items()):
        raise ValueError(f"cell {i}: counts is not an object of row counts")
    failing = None if old else c.get("failing") or []
    if failing is not None and (not isinstance(failing, list) or not all(isinstance(r, dict) for r in failing)):
        raise ValueError(f"cell {i}: failing is not a list of rows")
    return Cell(**{k: c.get(k) for k in BASELINE_FIELDS if k not in ("counts", "failing")},
                counts=counts, failing=failing)


#: What a baseline file keeps of a cell: its state, the row explaining it, its rows' counts
#: and its failing rows (which a later failing row is compared with).
BASELINE_FIELDS = ("broker", "api_key", "api_name", "api_version", "property", "outcome", "run_id", "row_id",
                   "results", "message", "counts", "failing")


def write_baseline(path: str, cells: dict, runs: list) -> None:
    doc = {"format": FORMAT, "written_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
           "runs": [r[1] for r in runs],
           "cells": [{k: getattr(c, k) for k in BASELINE_FIELDS}
                     for _, c in sorted(cells.items(), key=lambda kv: _order(kv[0]))]}
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
    except OSError as e:
        raise ReportError(f"cannot write the baseline {path}: {e.strerror}") from None


def allowed(result: list, allow_unasked: bool) -> list:
    """The cells --allow-new-unsupported let through (empty without it)."""
    return [r for r in result if allow_unasked and r[0] in ALLOWABLE]


def allow_note(result: list) -> str:
    """What the summary says when --allow-new-unsupported was given, also when it let
    nothing through (a reader of the gate's output must see that it was given)."""
    return f"{ALLOW} let {len(result)} cell(s) through that went from pass (or partial) to unsupported or skip"


def junit_cases(result: list, strict: bool, known: list | None = None,
                allow_unasked: bool = False) -> list[junit.Case]:
    cases = []
    for cat, base, cur in result:
        c = cur or base
        text = f"baseline: {base.shown() if base else 'absent'}; now: {cur.shown() if cur else 'not run'}"
        if cur is not None:
            text += f" (run {cur.run_id}, row {cur.row_id})"
            if cur.message:
                text += f"\n{cur.message}"
        case = junit.Case(f"conformance.{c.broker}.{c.api_name or 'broker'}",
                          label(c).removeprefix(c.broker + " "), text=text)
        if cat == "new_failure":
            text += "".join(f"\nnew failing row {r.get('row_id')} ({r.get('check') or '-'}): {r.get('message')}"
                            for r in cur.new_failures(known or (), base))
            case.text = text
        if fails(cat, strict, allow_unasked):
            case.status, case.message = "failure", f"{cat}: {TITLES[cat]}"
            if cat == "regression":  # what a CI page shows under the failed test case
                case.text += (f"\nreplay: tox -e conformance -- --broker {shlex.quote(cur.broker)} "
                              f"--replay {shlex.quote(f'{cur.results}:{cur.row_id}')}")
        elif cat in ALLOWABLE and allow_unasked:
            case.status, case.message = "skipped", f"{cat}: {TITLES[cat]}; let through by {ALLOW}"
        elif cur is None or cur.outcome in UNASKED:
            case.status, case.message = "skipped", "not run" if cur is None else cur.outcome
        cases.append(case)
    return cases


def report(result: list, strict: bool, out=None, known: list | None = None, allow_unasked: bool = False) -> int:
    """Print the readable list; return the exit status."""
    out = out or sys.stdout
    by = {k: [r for r in result if r[0] == k] for k in CATEGORIES}
    failing = [k for k in CATEGORIES if by[k] and fails(k, strict, allow_unasked)]
    let_through = allowed(result, allow_unasked)
    for cat in CATEGORIES:
        if cat == "same" or not by[cat]:
            continue
        tag = "FAIL" if cat in failing else f"allowed by {ALLOW}" if cat in ALLOWABLE and allow_unasked else "note"
        print(f"{tag}: {len(by[cat])} cell(s) {TITLES[cat]}:", file=out)
        for _, base, cur in by[cat][:SHOW]:
            c = cur or base
            line = f"  {label(c)}: {base.shown() if base else 'absent'} -> {cur.shown() if cur else 'not run'}"
            if cur is not None and cat not in ("same", "new_cell"):
                line += f"  [{cur.run_id} row {cur.row_id}]"
                if cur.message and cat in ("regression", "errored", "worse", "new_unsupported", "new_property",
                                           "narrowed", "unasked"):
                    line += f"  {cur.message.splitlines()[0][:160]}"
            print(line, file=out)
            if cat == "new_failure":
                for r in cur.new_failures(known or (), base)[:5]:
                    print(f"    new failing row {r.get('row_id')} ({r.get('check') or '-'}): "
                          f"{(r.get('message') or '').splitlines()[0][:160] if r.get('message') else ''}", file=out)
            if cat == "regression":
                print(f"    replay: tox -e conformance -- --broker {shlex.quote(cur.broker)} "
                      f"--replay {shlex.quote(f'{cur.results}:{cur.row_id}')}", file=out)
        if len(by[cat]) > SHOW:
            print(f"  ... and {len(by[cat]) - SHOW} more (see --junit)", file=out)
    untold = sum(1 for _, b, c in result if b is not None and c is not None and b.outcome in ("fail", "error")
                 and c.outcome in ("fail", "error") and not b.tellable)
    if untold:
        print(f"note: {untold} failing cell(s) of the baseline have rows that name no check (written before the "
              "suite wrote 'check', or a format-1 baseline): a new failing row inside them is not told apart; "
              "rebase on a newer run", file=out)
    compared = sum(1 for r in result if r[2] is not None and r[1] is not None)
    why = ", ".join(f"{len(by[k])} {k}" for k in failing)
    if not compared:   # nothing was compared: no evidence the build is as good as the baseline
        print("FAIL: the runs and the baseline share no cell", file=out)
        failing, why = failing + ["no shared cell"], ", ".join(filter(None, [why, "no shared cell"]))
    verdict = "FAIL" if failing else "PASS"
    print(f"gate: {verdict}: {compared} cells compared, {len(by['same'])} unchanged"
          + (f"; failing on {why}" if why else "") + ("" if strict else " (not --strict)")
          + (f"; {allow_note(let_through)}" if allow_unasked else ""), file=out)
    return 1 if failing else 0


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="python -m reports.gate", description=__doc__.split("\n")[0])
    p.add_argument("runs", nargs="*", metavar="RUN_FOLDER", help="run folders to check")
    p.add_argument("--results-dir", action="append", default=[], metavar="DIR", help="every run folder in DIR")
    p.add_argument("--runs-from", metavar="FILE", help="a text file naming run folders, one a line")
    p.add_argument("--last", type=int, metavar="N", help="only the N most recent of those runs")
    p.add_argument("--baseline", metavar="BASELINE", help="run folder, folder of runs, or baseline JSON")
    p.add_argument("--junit", metavar="FILE", help="write JUnit XML, one testcase per compared cell")
    p.add_argument("--strict", action="store_true",
                   help="also fail on new unsupported cells, new properties and cells that got worse")
    p.add_argument(ALLOW, action="store_true",
                   help="let cells through that went from pass (or partial) to unsupported or skip (a broker "
                        "that dropped a feature on purpose); the summary says how many. Never pass -> partial")
    p.add_argument("--broker-as", nargs=2, action="append", default=[], metavar=("RUN_BROKER", "BASELINE_BROKER"),
                   help="compare the runs' cells of broker spec RUN_BROKER with the baseline's cells of "
                        "BASELINE_BROKER (repeatable): a build of your own (kafka-dist:PATH) against a "
                        "release's baseline (kafka:4.4.0), a mutant run (proxy:MUTANT@tansu) against tansu's")
    p.add_argument("--write-baseline", metavar="FILE", help="write the runs' latest outcomes as a baseline JSON")
    p.add_argument("--known-deviations", metavar="FILE", default=known_list.DEFAULT,
                   help="reviewed known deviations of Apache Kafka: a failing cell one of them matches "
                        "is reported as known, not as a regression (default: the suite's list; "
                        "'none' to use none)")
    p.add_argument("--allow-incomplete", action="store_true",
                   help="gate runs whose manifest does not say they went to their end (cut off, crashed)")
    return p


def broker_as(cells: dict, base: dict, pairs: list) -> dict:
    """The runs' cells keyed as the baseline's where ``--broker-as RUN BASELINE`` says (the
    cells themselves keep their broker: their labels and replay commands name what ran)."""
    if not pairs:
        return cells
    mapping = dict(pairs)
    ran, had = {k[0] for k in cells}, {k[0] for k in base}
    for run_broker, base_broker in mapping.items():
        if run_broker not in ran:
            raise ReportError(f"--broker-as: the runs hold no cell of broker {run_broker!r}; "
                              f"theirs: {', '.join(sorted(ran))}")
        if base_broker not in had:
            raise ReportError(f"--broker-as: the baseline holds no cell of broker {base_broker!r}; "
                              f"its: {', '.join(sorted(had))}")
    out = {}
    for key, c in cells.items():
        new = (mapping.get(key[0], key[0]),) + key[1:]
        if new in out:
            raise ReportError(f"--broker-as: the runs hold cells of both {key[0]!r} and {new[0]!r}; "
                              "gate them in two calls")
        out[new] = c
    return out


def writable(path: str, option: str) -> None:
    """A file the gate will write goes to a folder that exists (said before anything is read)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or not os.path.isdir(folder):
        raise ReportError(f"cannot write {option} {path}: "
                          + ("it is a folder" if os.path.isdir(path) else f"no such folder {folder}"))


def run_completeness(results: str) -> str | None:
    """Why the run of ``results`` cannot be trusted to be whole, or None if its manifest
    says ``complete: true`` (docs/results.md)."""
    path = os.path.join(os.path.dirname(results), MANIFEST)
    try:
        with open(path, encoding="utf-8") as fh:
            m = json.load(fh)
    except OSError:
        return "it has no manifest.json"
    except ValueError:
        return "its manifest.json is not JSON"
    if not isinstance(m, dict) or m.get("complete") is not True:
        reason = m.get("incomplete_reason") if isinstance(m, dict) else None
        return f"its manifest says complete: false ({reason or 'cut off or crashed'})"
    return None


def refuse_incomplete(runs: list, allowed: bool) -> None:
    """A run that did not go to its end is no evidence for the cells it never reached."""
    bad = [(r[2], why) for r in runs if (why := run_completeness(r[2]))]
    if not bad:
        return
    where, why = bad[0]
    if allowed:
        print(f"gate: {len(bad)} incomplete run(s) gated as allowed (first: {os.path.dirname(where)}: {why})")
        return
    more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
    raise ReportError(f"run {os.path.dirname(where)} is incomplete: {why}{more}; gate a complete run "
                      "or pass --allow-incomplete")


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if not args.baseline and not args.write_baseline:
        raise ReportError("nothing to do: give --baseline BASELINE (and/or --write-baseline FILE)")
    if args.broker_as and not args.baseline:
        raise ReportError("--broker-as compares the runs with a baseline: give --baseline BASELINE")
    if args.last is not None and args.last < 1:
        raise ReportError(f"--last {args.last}: give a number of runs, 1 or more")
    for path, option in ((args.junit, "--junit"), (args.write_baseline, "--write-baseline")):
        if path:
            writable(path, option)
    runs = list(args.runs) + (read_runs_from(args.runs_from) if args.runs_from else [])
    if not runs and not args.results_dir:
        raise ReportError("no runs: give --results-dir DIR and/or run folders")
    known = known_list.entries_of(args.known_deviations) if args.baseline else []
    base = read_baseline(args.baseline) if args.baseline else None
    cur = load(find_runs(args.results_dir, runs), args.last)
    if not cur.cells:
        raise ReportError("the runs hold no valid row; nothing to gate"
                          + (f" ({malformed(cur)})" if cur.malformed else ""))
    for f, n, reason in cur.malformed[:5]:
        print(f"malformed {f}:{n}: {reason}", file=sys.stderr)
    if cur.malformed:
        print(f"gate: {len(cur.malformed)} malformed line(s) skipped", file=sys.stderr)
    refuse_incomplete(cur.runs, args.allow_incomplete)
    status = 0
    if base is not None:
        cells, desc = base
        gated = broker_as(cur.cells, cells, args.broker_as)
        print(f"gate: {len(cur.runs)} run(s), {len(cur.cells)} cells against baseline {desc}")
        for run_broker, base_broker in args.broker_as:
            print(f"gate: the runs' broker {run_broker} compared as the baseline's {base_broker} (--broker-as)")
        result = compare(cells, gated, known)
        allow = args.allow_new_unsupported
        status = report(result, args.strict, known=known, allow_unasked=allow)
        if args.junit:
            props = {ALLOW.removeprefix("--"): f"{len(allowed(result, allow))} cell(s) let through"} if allow else {}
            try:
                junit.write(args.junit, "conformance-gate", junit_cases(result, args.strict, known, allow),
                            properties=props)
            except OSError as e:
                raise ReportError(f"cannot write {args.junit}: {e.strerror}") from None
            print(f"junit: {args.junit}")
    if args.write_baseline:
        write_baseline(args.write_baseline, cur.cells, cur.runs)
        print(f"baseline: wrote {len(cur.cells)} cells to {args.write_baseline}")
    return status


def malformed(loaded) -> str:
    f, n, reason = loaded.malformed[0]
    return f"{len(loaded.malformed)} malformed line(s), the first {f}:{n}: {reason}"


if __name__ == "__main__":
    sys.exit(run(main))
