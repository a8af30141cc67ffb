"""What changed between two runs, as one page (issue 60, item 2).

    python -m reports.diff RUN_FOLDER ... [--results-dir DIR] [--runs-from FILE]
                           [--baseline BASELINE] --out OUT [--repro DIR] [--known FILE]

The *after* side is the runs named; the *before* side is ``--baseline`` (a run folder, a
folder of runs or a baseline file, as the gate takes), else, for each broker spec of the
after runs, its newest earlier run among the run folders beside them (``results/``: the
previous run of the same broker). Writes OUT/diff.html: every cell whose state changed
(the gate's categories, reports/gate.py ``compare``: regression, new failing row, fixed,
narrowed, new, missing, ...), grouped by family of properties and API, each with both sides'
state and message and a link to each side's reproducer where one was exported
(OUT/repro/<run folder>/<row_id>/REPORT.md, as ``kafka-admin-conformance run`` writes them).
Self-contained (inline CSS), relative links only. Pure Python: no Spark needed.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict

from . import known as known_list
from . import row_schema
from .cells import Loaded, add_run_arguments, load, manifest_of, read_run, run_files
from .cli import ReportError, run
from .gate import TITLES, compare, fails, read_baseline
from .markup import api_label, esc, slug
from .overview import family
from .paths import RESULTS, write_page

class NoEarlierRun(ReportError):
    """Nothing to compare the runs with: no baseline given and no earlier run of their brokers."""


#: categories a cell changed in (every other category says it did not)
UNCHANGED = ("same",)
STYLE = """body{font:14px/1.4 system-ui,sans-serif;margin:0 24px 40px;color:#222}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;
vertical-align:top}th{background:#f0f0f0}.bad td:first-child{color:#c62828;font-weight:bold}
.good td:first-child{color:#2e7d32}.muted{color:#777}"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m reports.diff", description=__doc__.split("\n")[0])
    add_run_arguments(p)
    p.add_argument("--baseline", metavar="BASELINE", help="the before side (default: each broker's previous run)")
    p.add_argument("--out", required=True, metavar="OUT", help="folder that receives diff.html")
    p.add_argument("--repro", metavar="DIR", help="the reproducers' folder (default OUT/repro)")
    p.add_argument("--known", default=known_list.DEFAULT, metavar="FILE",
                   help="the known-deviations list (default: the suite's; 'none' for no list)")
    p.add_argument("--if-earlier", action="store_true",
                   help="without --baseline and with no earlier run of these brokers, say so and write nothing "
                        "(exit 0): what kafka-admin-conformance run asks after every run")
    return p


def previous_runs(after: Loaded) -> tuple[dict, str]:
    """The before side when no baseline is given: for each broker spec of the runs ``after``
    (reports/cells.py ``load``), its newest run among the run folders beside them that started
    before the earliest of them. The folders beside are told apart by their manifests (start,
    broker specs); only the run chosen for a spec is read (and a run without a manifest)."""
    if not after.runs:
        raise ReportError("the runs hold no valid row; nothing to compare")
    first = min(r[0] for r in after.runs)
    files = {r[2] for r in after.runs}
    specs = {c.broker for c in after.cells.values()}
    folders = {os.path.dirname(os.path.dirname(f)) for f in files}
    earlier = []          # (start, results, the specs its manifest names or None), newest first
    for d in sorted(folders):
        for name in sorted(os.listdir(d)):
            f = os.path.join(d, name, RESULTS)
            if f in files or not os.path.isfile(f):
                continue
            m = manifest_of(f)
            start = row_schema.parse_time(m.get("started_at"))
            named = ({b.get("spec") for b in m.get("brokers") or [] if isinstance(b, dict)} or None) if start else None
            if start is None and (r := read_run(f, [])):
                start = r[0]
            if start is not None and start < first:
                earlier.append((start, f, named))
    earlier.sort(key=lambda e: (e[0], e[1]), reverse=True)
    read: dict[str, tuple | None] = {}
    cells, used = {}, []
    for spec in sorted(specs):
        for _, f, named in earlier:
            if named is not None and spec not in named:
                continue
            r = read[f] if f in read else read.setdefault(f, read_run(f, []))
            theirs = {k: c for k, c in (r[3] if r else {}).items() if c.broker == spec}
            if theirs:
                used.append(r[1])
                cells.update(theirs)
                break
    if not cells:
        raise NoEarlierRun(f"no earlier run of {', '.join(sorted(specs))} in {', '.join(sorted(folders))} to "
                           "compare with; --baseline BASELINE compares with one")
    return cells, f"the previous run of each broker ({', '.join(dict.fromkeys(used))})"


def page(changed: list, before: str, after: str, out: str, repro: str) -> str:
    """The diff page: ``changed`` is compare()'s (category, before cell, after cell) of the
    cells that changed."""
    groups = defaultdict(list)
    for cat, b, a in changed:
        c = a or b
        groups[(family(c.property), c.api_key if c.api_key is not None else -1, api_label(vars(c)))].append((cat, b, a))
    body = [f"<h1>What changed</h1><p>Before: {esc(before)}<br>After: {esc(after)}</p>"
            f'<p id="counts">{len(changed)} cell(s) changed: '
            + ", ".join(f"{n} {esc(TITLES.get(cat, cat))}" for cat, n in _counts(changed)) + ".</p>"]
    if not changed:
        body.append('<p class="muted">No cell changed state.</p>')
    for (fam, _, label) in sorted(groups):
        rows = groups[(fam, _, label)]
        body.append(f'<h2 id="{slug(fam + "-" + label)}">{esc(fam)}: {esc(label)}</h2><table><thead><tr>'
                    "<th>change</th><th>broker</th><th>v</th><th>property</th><th>before</th><th>after</th></tr>"
                    "</thead><tbody>")
        for cat, b, a in sorted(rows, key=lambda r: _key(r[2] or r[1])):
            c = a or b
            body.append(f'<tr class="{"bad" if fails(cat) else "good" if cat == "fixed" else "other"}" '
                        f'data-category="{esc(cat)}" data-broker="{esc(c.broker)}" data-api="{esc(c.api_key)}" '
                        f'data-version="{esc(c.api_version)}" data-property="{esc(c.property)}">'
                        f"<td>{esc(cat)}</td><td>{esc(c.broker)}</td><td>{esc(c.api_version)}</td>"
                        f"<td>{esc(c.property)}</td><td>{_side(b, out, repro)}</td><td>{_side(a, out, repro)}</td></tr>")
        body.append("</tbody></table>")
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>What changed</title>'
            f'<meta name="viewport" content="width=device-width"><style>{STYLE}</style></head><body>'
            + "".join(body) + "</body></html>\n")


def _counts(changed: list) -> list[tuple[str, int]]:
    n = defaultdict(int)
    for cat, _, _ in changed:
        n[cat] += 1
    return sorted(n.items(), key=lambda kv: (not fails(kv[0]), kv[0]))


def _key(c) -> tuple:
    return (c.broker, c.api_version if c.api_version is not None else -1, c.property)


def _side(c, out: str, repro: str) -> str:
    """One side of a changed cell: its state, message and reproducer (or the row it is)."""
    if c is None:
        return '<span class="muted">not asked</span>'
    where = f"run {esc(c.run_id)}, row {esc(c.row_id)}"
    if c.results:
        report = os.path.join(repro, os.path.basename(os.path.dirname(c.results)), str(c.row_id), "REPORT.md")
        if os.path.exists(report):
            where = f'<a class="repro" href="{esc(os.path.relpath(report, out))}">reproducer</a> ({where})'
    message = f"<br>{esc(c.message)}" if c.message and c.outcome != "pass" else ""
    return f"<b>{esc(c.shown())}</b>{message}<br><span class=\"muted\">{where}</span>"


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    files = run_files(args)
    known = known_list.entries_of(args.known)
    after = load(files)
    if not after.cells:
        raise ReportError("the runs hold no valid row; nothing to compare")
    try:
        before, what = read_baseline(args.baseline) if args.baseline else previous_runs(after)
    except NoEarlierRun as e:
        if not args.if_earlier:
            raise
        print(f"diff: skipped: {e}")
        return 0
    changed = [r for r in compare(before, after.cells, known) if r[0] not in UNCHANGED
               and (r[2] is not None or r[1].broker in {c.broker for c in after.cells.values()})]
    runs = ", ".join(r[1] for r in after.runs)
    path = write_page(args.out, "diff.html",
                      page(changed, what, runs, args.out, args.repro or os.path.join(args.out, "repro")))
    print(f"diff: {path} ({len(changed)} cell(s) changed against {what})")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
