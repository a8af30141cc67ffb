"""A Markdown summary of runs, small enough for a CI system's job summary.

    python -m reports.summary [RUN_FOLDER ...] [--results-dir DIR] [--runs-from FILE]
                              --out OUT [--repro DIR] [--known FILE] [--baseline BASELINE]

Writes OUT/SUMMARY.md: first the verdict per broker (reports/verdict.py: a Kafka release's
companions and shards are one broker; with ``--baseline``, what fails the gate against it
and what was fixed), each count linked to its list; per run its broker and row counts; per API the rows that passed,
failed, erred, were unsupported or skipped; the **new findings** (``fail`` rows that are
not a reviewed known deviation of Kafka, reports/known.py), each linked to its reproducer
(``--repro``, default OUT/repro, laid out as ``python -m fixtures.repro --runs-from`` writes
it: ``<run folder name>/<row_id>/REPORT.md``) where one was exported, those of the broker
alone apart from those where a broker the list does not apply to answers exactly as a known
deviation of Apache Kafka does (reports/known.py ``answers_as``: findings all the same, as
s3-tests marks ``fails_on_aws``); and the known deviations seen. ``kafka-admin-conformance run`` and ``tox -e conformance`` write it beside
the dashboard (OUT/index.html). Pure Python: no Spark needed. Bad input is one line, status 2.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

from . import known as known_list
from . import row_schema
from .cells import add_run_arguments, load, run_files, valid_rows
from .cli import ReportError, run
from .gate import read_baseline
from .paths import write_page
from .verdict import Verdicts

#: new findings listed one a line; the rest are counted (a job summary has a size limit)
MAX_FINDINGS = 40
MESSAGE_CHARS = 160


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m reports.summary", description=__doc__.split("\n")[0])
    add_run_arguments(p)
    p.add_argument("--out", required=True, metavar="OUT", help="folder that receives SUMMARY.md")
    p.add_argument("--repro", metavar="DIR", help="the reproducers' folder (default OUT/repro)")
    p.add_argument("--baseline", metavar="BASELINE",
                   help="a run folder, folder of runs or baseline file (tox -e gate's): the verdict says what fails the gate")
    p.add_argument("--known", default=known_list.DEFAULT, metavar="FILE",
                   help="the known-deviations list (default: the suite's; 'none' for no list)")
    return p


def _cell(text) -> str:
    """One Markdown table cell: one line, pipes escaped, shortened."""
    line = str(text or "").strip().splitlines()[0] if str(text or "").strip() else ""
    line = line if len(line) <= MESSAGE_CHARS else line[:MESSAGE_CHARS - 1] + "…"
    return line.replace("|", "\\|")


def _link(out: str, path: str, text: str) -> str:
    rel = os.path.relpath(path, out).replace(os.sep, "/")
    return f"[{text}]({rel})"


def summarise(files: list[str], out: str, repro: str, known: list, baseline: tuple | None = None) -> str:
    """The Markdown text for the runs' result files; ``baseline`` (gate.read_baseline's
    answer) adds the gate's verdict per broker."""
    malformed: list = []
    verdicts = Verdicts(known)
    runs, apis, new, alike, seen = [], {}, [], [], {}
    for f in files:
        counts = {o: 0 for o in row_schema.OUTCOMES}
        first = None
        verdicts.start(f)
        for row in valid_rows(f, malformed):
            first = first or row
            counts[row["outcome"]] += 1
            api = row.get("api_name") or "(no single API)"
            apis.setdefault(api, {o: 0 for o in row_schema.OUTCOMES})[row["outcome"]] += 1
            kind, entry = verdicts.add(row)
            if kind == "known":
                seen[entry.id] = seen.get(entry.id, 0) + 1
            elif kind == "alike":
                alike.append((f, row, entry))
            elif kind == "new":
                new.append((f, row))
        if first is not None:
            runs.append((f, first, counts, verdicts.column(first["broker"])))
    if not runs:
        raise ReportError("the runs hold no valid row; nothing to summarise")
    if baseline is not None:
        verdicts.against(baseline[0], load(files).cells)
    total = {o: sum(c[o] for _, _, c, _ in runs) for o in row_schema.OUTCOMES}
    heads = {"new": f"New findings ({len(new)})", "alike": f"Answering as Apache Kafka does ({len(alike)})",
             "known": "Known deviations seen", "runs": "Runs"}
    lines = ["# Kafka admin conformance: summary", ""]
    verdict = (f"**{len(new) + len(alike)} new finding(s)**" if new or alike else "**no new finding**")
    if alike:
        verdict += f" ({len(alike)} of them answering as a known deviation of Apache Kafka does)"
    lines.append(f"{verdict}; {sum(total.values())} rows: "
                 + ", ".join(f"{n} {o}" for o, n in total.items() if n) + ".")
    page = os.path.join(out, "index.html")
    if os.path.exists(page):
        lines.append(f"The whole matrix: {_link(out, page, 'the dashboard')}.")
    diff = os.path.join(out, "diff.html")
    if os.path.exists(diff):
        lines.append(f"What changed since the baseline or each broker's previous run: {_link(out, diff, 'diff.html')}.")
    lines += ["", *_verdict_table(verdicts.brokers(), heads, baseline)]
    lines += ["", f"## {heads['runs']}", "", "A run folder per worker: a Kafka release's companions and shards "
              "are runs of the broker they answer for.", "",
              "| run | broker | asked as | version | " + " | ".join(row_schema.OUTCOMES) + " |",
              "|---|---|---|---|" + "---:|" * len(row_schema.OUTCOMES)]
    for f, first, counts, column in runs:
        lines.append(f"| {first['run_id']} | {_cell(column)} | {_cell(first.get('broker'))} | "
                     f"{_cell(first.get('broker_version'))} | "
                     + " | ".join(str(counts[o]) for o in row_schema.OUTCOMES) + " |")
    lines += ["", "## Per API", "", "| API | " + " | ".join(row_schema.OUTCOMES) + " |",
              "|---|" + "---:|" * len(row_schema.OUTCOMES)]
    for api in sorted(apis):
        lines.append(f"| {api} | " + " | ".join(str(apis[api][o]) for o in row_schema.OUTCOMES) + " |")
    lines += ["", f"## {heads['new']}", ""]
    if new:
        lines += ["`fail` rows that are not a reviewed known deviation of Kafka "
                  "(reference/kafka_known_deviations.json).", "",
                  "| broker | API | property | check | finding | reproducer |", "|---|---|---|---|---|---|"]
        lines += [_finding(out, repro, f, row) for f, row in new[:MAX_FINDINGS]]
        if len(new) > MAX_FINDINGS:
            lines.append(f"\n... and {len(new) - MAX_FINDINGS} more (the dashboard lists every one).")
    else:
        lines.append("None: every `fail` row is a reviewed known deviation, or there is none."
                     if not alike else "None of the broker alone: every other `fail` row is listed below.")
    if alike:
        lines += ["", f"## {heads['alike']}", "",
                  "`fail` rows of a broker the known-deviations list does not apply to that answer exactly as a "
                  "known deviation of Apache Kafka does: findings of that broker all the same, shown apart from "
                  "its own.", "",
                  "| broker | API | property | check | as Apache Kafka's known deviation | finding | reproducer |",
                  "|---|---|---|---|---|---|---|"]
        lines += [_finding(out, repro, f, row, like) for f, row, like in alike[:MAX_FINDINGS]]
        if len(alike) > MAX_FINDINGS:
            lines.append(f"\n... and {len(alike) - MAX_FINDINGS} more (the dashboard lists every one).")
    if seen:
        lines += ["", f"## {heads['known']}", ""]
        lines += [f"- {kid}: {n} row(s)" for kid, n in sorted(seen.items())]
    if malformed:
        lines += ["", f"{len(malformed)} malformed line(s) skipped (first: {malformed[0][0]}:{malformed[0][1]})."]
    return "\n".join(lines) + "\n"


def anchor(heading: str) -> str:
    """The fragment GitHub (and most Markdown renderers) give a heading: lower case,
    punctuation but hyphens dropped, spaces as hyphens."""
    return "#" + re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _verdict_table(brokers: list, heads: dict, baseline: tuple | None) -> list[str]:
    """The verdict per broker, first: the word, then what it rests on, each count linked to
    its list."""
    link = lambda n, head: f"[{n}]({anchor(heads[head])})" if n else "0"  # noqa: E731
    cols = ["broker", "verdict", "new findings", "as Kafka's known deviations", "known deviations",
            "runs (incomplete)", "rows"]
    if baseline is not None:
        cols[2:2] = ["fail the gate", "fixed"]
    lines = ["## Verdict", ""]
    if baseline is not None:
        lines += [f"Against the baseline {_cell(baseline[1])}: a cell fails the gate as `tox -e gate` fails it "
                  "(regression, new failing row, narrowed, unasked, errored, missing).", ""]
    lines += ["| " + " | ".join(cols) + " |", "|---|---|" + "---:|" * (len(cols) - 2)]
    for b in brokers:
        name = b.name + (f" ({b.version})" if b.version and b.version not in b.name else "")
        word = {"fail": "**fail**", "incomplete": "**incomplete**", "pass": "pass"}[b.word]
        rows = ", ".join(f"{n} {o}" for o, n in b.rows.items() if n)
        incomplete = f"{len(b.runs)} ({len(b.incomplete)})" if b.incomplete else str(len(b.runs))
        cells = [_cell(name), word, link(b.new, "new"), link(b.alike, "alike"),
                 link(sum(b.known.values()), "known"), incomplete, rows]
        if baseline is not None:
            cells[2:2] = [str(b.gate_failures), str(b.fixed)]
        lines.append("| " + " | ".join(cells) + " |")
    for b in brokers:
        for run_dir, why in b.incomplete[:3]:
            lines.append(f"\n{_cell(b.name)}: run {_cell(os.path.basename(run_dir))} is incomplete: {_cell(why)}.")
    return lines


def _finding(out: str, repro: str, f: str, row: dict, like=None) -> str:
    """One table line of a new finding (``like``: the known deviation of Kafka it answers as)."""
    v = "" if row.get("api_version") is None else f" v{row['api_version']}"
    check = row.get("check") or known_list.check_function(row) or ""
    report = os.path.join(repro, os.path.basename(os.path.dirname(f)), str(row["row_id"]), "REPORT.md")
    where = _link(out, report, "repro") if os.path.exists(report) else f"row {row['row_id']}"
    message = row.get("message") if like is None else known_list.without_note(row.get("message"))[0]
    also = "" if like is None else f" {_cell(like.id)} ({_cell(', '.join(like.releases))}) |"
    return (f"| {_cell(row['broker'])} | {_cell(row.get('api_name') or '-')}{v} | {row['property']} | "
            f"{_cell(check)} |{also} {_cell(message)} | {where} |")


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    files = run_files(args)
    known = known_list.entries_of(args.known)
    baseline = read_baseline(args.baseline) if args.baseline else None
    text = summarise(files, args.out, args.repro or os.path.join(args.out, "repro"), known, baseline)
    print(f"summary: {write_page(args.out, 'SUMMARY.md', text)}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
