"""What changed in the admin protocol between Apache Kafka releases, from real runs.

    python -m reports.releases [RUN_FOLDER ...] [--results-dir DIR] [--out FILE]

Reads the runs' manifests (the versions each broker advertised) and rows, keeps the
Apache Kafka brokers, and writes Markdown: per API the runs asked (named by their rows) the
version range each release advertises (and where it changed), then every cell (property x
API x version) asked on several releases whose verdicts differ (pass on one, fail on
another; a cell a release does not ask, or asks `unsupported`, is counted apart), then the
cells per state of each release. Pure Python: no Spark needed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

from . import row_schema
from .cells import add_run_arguments, read_run, run_files
from .cli import ReportError, run
from .paths import MANIFEST

#: outcomes that say nothing of what a release does: not asked (``-``), not served, not run
UNASKED = ("-", "unsupported", "skip")


def _vkey(version: str) -> tuple:
    return tuple(int(x) for x in re.findall(r"\d+", version)[:3])


def _label(broker: dict) -> str:
    """A column: the release, with the spec's options when it has any (``4.1.0,nodes=3``). A
    companion (fixtures/companions.py: ``kafka:V,preset=P`` started for the checks that need
    it, in the same run folder or, under ``--jobs``, in one of its own) answers in its base's
    column: together they are what the release does."""
    _, _, options = (broker.get("companion_of") or broker["spec"]).partition(",")
    return broker["version"] + ("," + options if options else "")


def collect(files: list[str]):
    """-> ({release: {api_key: (lo, hi)}}, {release: {cell key: outcome}}, [run folders],
    {api_key: name of the rows that asked it})"""
    ranges, outcomes, runs, malformed, names = {}, {}, [], [], {}
    for f in files:
        try:
            with open(os.path.join(os.path.dirname(f), MANIFEST), encoding="utf-8") as fh:
                manifest = json.load(fh)
        except (OSError, ValueError):
            manifest = {}
        kafka = {b["spec"]: b for b in manifest.get("brokers") or []
                 if b.get("impl") == "apache-kafka" and b.get("version")}
        if not kafka:
            continue
        runs.append(os.path.dirname(f))
        label = {s: _label(b) for s, b in kafka.items()}
        for s, b in kafka.items():
            if not b.get("companion_of"):
                ranges[label[s]] = {int(k): tuple(v) for k, v in (b.get("api_versions") or {}).items()}
        got = read_run(f, malformed)
        if got is None:
            continue
        for key, cell in got[3].items():
            if cell.broker in label:
                column = outcomes.setdefault(label[cell.broker], {})
                column[(cell.property, cell.api_key, cell.api_version)] = cell.outcome
                if cell.api_key is not None and cell.api_name:
                    names[cell.api_key] = cell.api_name
    return ranges, outcomes, runs, names


def markdown(ranges: dict, outcomes: dict, runs: list[str], names: dict | None = None) -> str:
    releases = sorted(ranges, key=lambda r: (_vkey(r), r))
    names = names or {}
    lines = ["| API | " + " | ".join(releases) + " |", "|---|" + "---|" * len(releases)]
    for key, name in sorted(names.items()):
        cells, prev = [], None
        for r in releases:
            rng = ranges[r].get(key)
            text = f"v{rng[0]}-{rng[1]}" if rng else "-"
            cells.append(f"**{text}**" if prev is not None and text != prev else text)
            prev = text
        lines.append(f"| {name} ({key}) | " + " | ".join(cells) + " |")
    out = ["## Admin API versions each release advertises (a change in bold)", "", *lines, ""]
    ran = [r for r in releases if r in outcomes]
    keys = sorted({k for r in ran for k in outcomes[r]}, key=lambda k: (k[0], k[1] or 0, -1 if k[2] is None else k[2]))
    differ, some_only = [], 0
    for k in keys:
        seen = {r: outcomes[r].get(k, "-") for r in ran}
        asked = {o for o in seen.values() if o not in UNASKED}
        if len(asked) > 1:
            differ.append((k, seen))
        elif len(set(seen.values())) > 1:
            some_only += 1
    out += ["## Cells whose verdict differs between releases", ""]
    if not differ:
        out += ["None: every cell asked on several releases had the same verdict on each.", ""]
    else:
        out += ["| property | API | version | " + " | ".join(ran) + " |", "|---|---|---|" + "---|" * len(ran)]
        for (prop, api, v), seen in differ:
            out.append(f"| {prop} | {names.get(api, '-' if api is None else api)} | {'-' if v is None else v} | "
                       + " | ".join(seen[r] for r in ran) + " |")
        out.append("")
    out += [f"{some_only} more cell(s) are asked on some releases only (a version or an API a release does not "
            "serve, a feature it lacks: `-` or `unsupported` there) and have one verdict wherever asked.", ""]
    states = row_schema.CELL_STATES
    totals = {r: {o: sum(1 for x in outcomes[r].values() if x == o) for o in states} for r in ran}
    out += ["## Cells per state", "", "| release | " + " | ".join(states) + " |", "|---|" + "---|" * len(states)]
    out += [f"| {r} | " + " | ".join(str(totals[r][o]) for o in states) + " |" for r in ran]
    out += ["", f"From {len(runs)} run folder(s)."]
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m reports.releases", description=__doc__.split("\n")[0])
    add_run_arguments(p)
    p.add_argument("--out", metavar="FILE", help="write the Markdown here (default: print it)")
    args = p.parse_args(argv)
    ranges, outcomes, runs, names = collect(run_files(args))
    if not ranges:
        raise ReportError("the runs hold no Apache Kafka broker (kafka:VERSION or kafka-dist:PATH)")
    text = markdown(ranges, outcomes, runs, names)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"releases: {len(ranges)} Kafka release(s) -> {args.out}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
