"""Time to verdict: a whole run from a cold start, split into its parts (not a test).

    python benchmarks/bench_verdict.py [--default] [--kafka VERSION ...] [--all-properties VERSION ...]
                                       [--start SPEC ...] [--silent SPEC [--sample] [--request-timeout S]]
                                       [--out FILE]

``--default`` times the README's main job as ``tox -e conformance`` runs it (tansu,
``dev`` profile), each part in a fresh process as tox starts it:

  pytest conformance -p benchmarks.timing   (collection, broker start, checks)
  python -m reports --runs-from ...         (the Spark report)
  python -m fixtures.repro --runs-from ...  (a reproducer per failing row)

and prints, per property, the checks, examples per second, and the share of its time spent
waiting on the broker (``benchmarks/timing.py``: every exchange's seconds on the wire)
against computing. ``--kafka VERSION`` does the same for one ``kafka:VERSION`` node at the
``ci`` profile (report included), and prints the slowest cells (the target: none over a
minute); repeat it (or give ``4.4.0,3.9.2``) for one figure per release.
``--all-properties VERSION`` times ``tox -e conformance -- --broker kafka:VERSION --profile ci``
as a release manager runs it (``kafka-admin-conformance run``, its default ``--jobs``, the
report included), every property asked (``fixtures/companions.py``: the base, in shards, and
the configured companions its checks need, side by side), and counts the rows still
``unsupported`` for want of a configured broker (there should be none). ``--start SPEC`` times ``Target.start()`` (until ApiVersions answers) and stop.

``--silent SPEC`` runs the ``ci`` profile through ``proxy:mute@SPEC``, a broker that
answers ApiVersions and never anything else (``faults/mutants/protocol.py``), and prints
the slowest cells and how many took over a minute (issue 14: no cell over a minute, also
against a broker that never answers). Every check there waits at least one request timeout
(``--request-timeout``, default 15 s), so the whole profile (~570 cells) takes hours;
``--sample`` runs one cell per test function and API instead (the newest version it is
collected at: every property at every API, 126 cells), and says so in its output.

``--out FILE`` merges ``default_run_s``, ``kafka_ci_run_s`` ({"kafka:V": s}),
``kafka_all_properties_s`` ({"kafka:V": s}),
``broker_start_s`` ({spec: s}), ``silent_slowest_cell_s`` ({"proxy:mute@SPEC": s}) and
the breakdowns (``*_parts``) into FILE.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

SLOW_CELL_S = 60.0


def _timed(cmd: list[str], env: dict) -> tuple[float, int]:
    t = time.monotonic()
    code = subprocess.call(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    return time.monotonic() - t, code


def _suite(broker: str, profile: str, label: str, args: tuple = (), env: dict | None = None):
    """The suite in its own process with the timing plugin: (work folder, its environment,
    seconds, benchmarks.timing's figures)."""
    work = tempfile.mkdtemp(prefix=f"bench-verdict-{label}-")
    env = {**os.environ, "KAC_BENCH_TIMING": os.path.join(work, "timing.json"),
           "KAC_LAST_RUN_FILE": os.path.join(work, "last-run"), **(env or {})}
    suite_s, code = _timed([sys.executable, "-m", "pytest", "conformance", "-p", "no:cacheprovider", "-q",
                            "-p", "benchmarks.timing", "--broker", broker, "--profile", profile,
                            "--results-dir", os.path.join(work, "results"), *args], env)
    if code not in (0, 1) or not os.path.exists(env["KAC_BENCH_TIMING"]):
        raise SystemExit(f"bench_verdict: the {label} run ended with pytest exit code {code}")
    with open(env["KAC_BENCH_TIMING"]) as f:
        return work, env, suite_s, json.load(f)


def run(broker: str, profile: str, label: str) -> dict:
    """Suite + report + reproducers for one broker, each part timed; the per-property split."""
    work, env, suite_s, t = _suite(broker, profile, label)
    py = sys.executable
    report_s, code = _timed([py, "-m", "reports", "--runs-from", env["KAC_LAST_RUN_FILE"],
                             "--out", os.path.join(work, "report")], env)
    repro_s, _ = _timed([py, "-m", "fixtures.repro", "--runs-from", env["KAC_LAST_RUN_FILE"],
                         "--out", os.path.join(work, "report", "repro")], env)
    props = defaultdict(lambda: {"checks": 0, "wall_s": 0.0, "wire_s": 0.0, "sleep_s": 0.0, "examples": 0,
                                 "max_cell_s": 0.0})
    for c in t["checks"]:
        p = props[c["property"] or "?"]
        p["checks"] += 1
        p["wall_s"] += c["wall_s"]
        p["wire_s"] += c["wire_s"]
        p["sleep_s"] += c.get("sleep_s", 0.0)
        p["examples"] += c["examples"]
        p["max_cell_s"] = max(p["max_cell_s"], c["wall_s"])
    parts = {"total_s": round(suite_s + report_s + repro_s, 1), "suite_process_s": round(suite_s, 1),
             "collection_s": t["collection_s"], "broker_start_s": t["broker_start_s"],
             "checks_s": t["checks_s"], "report_s": round(report_s, 1), "repro_export_s": round(repro_s, 1),
             "properties": {k: {**v, "wall_s": round(v["wall_s"], 2), "wire_s": round(v["wire_s"], 2),
                                 "sleep_s": round(v["sleep_s"], 2)}
                            for k, v in sorted(props.items(), key=lambda kv: -kv[1]["wall_s"])},
             "slowest_cells": sorted(({"nodeid": c["nodeid"], "wall_s": c["wall_s"], "wire_s": c["wire_s"],
                                       "outcome": c["outcome"]} for c in t["checks"]),
                                     key=lambda c: -c["wall_s"])[:10]}
    _print(label, broker, profile, parts)
    return parts


def _print(label: str, broker: str, profile: str, p: dict) -> None:
    print(f"\n{label}: --broker {broker} --profile {profile}: {p['total_s']:.1f} s in all "
          f"(suite process {p['suite_process_s']:.1f} s: collection {p['collection_s']:.1f} s, broker start "
          f"{p['broker_start_s']:.1f} s, checks {p['checks_s']:.1f} s; report {p['report_s']:.1f} s; "
          f"reproducers {p['repro_export_s']:.1f} s)")
    print("  (wire: waiting for answers; polls: pausing between asks for a change to show; the rest\n"
          "   computing. Checks with concurrent connections (C2) spend more wire time than wall time.)")
    print(f"  {'property':<9}{'checks':>7}{'wall s':>9}{'ex/s':>8}{'wire':>7}{'polls':>7}{'computing':>11}{'slowest':>9}")
    for name, v in p["properties"].items():
        wall = v["wall_s"] or 1e-9
        wire, polls = min(v["wire_s"] / wall, 1.0), min(v["sleep_s"] / wall, 1.0)
        print(f"  {name:<9}{v['checks']:>7}{v['wall_s']:>9.1f}{v['examples'] / wall:>8.1f}"
              f"{wire:>7.0%}{polls:>7.0%}{max(1 - wire - polls, 0.0):>11.0%}{v['max_cell_s']:>9.1f}")
    slow = [c for c in p["slowest_cells"] if c["wall_s"] > SLOW_CELL_S]
    print(f"  cells over {SLOW_CELL_S:.0f} s: {len(slow)}" + "".join(
        f"\n    {c['wall_s']:.1f} s  {c['nodeid']} ({c['outcome']})" for c in slow))


def versions(given: list[str]) -> list[str]:
    """Release versions from repeated and comma-separated arguments (``4.4.0,3.9.2``)."""
    return [v.strip() for x in given for v in x.split(",") if v.strip()]


def all_properties(version: str) -> dict:
    """Wall seconds of ``tox -e conformance -- --broker kafka:VERSION --profile ci`` as tox runs
    it (``kafka-admin-conformance run``: the suite with its default ``--jobs``, no timing
    plugin, then the dashboard, the reproducers and SUMMARY.md), with its rows' outcomes
    across its run folders."""
    from fixtures.console import default_job_count

    work = tempfile.mkdtemp(prefix="bench-all-properties-")
    results = os.path.join(work, "results")
    # the run's own last-run file, so the user's (what tox -e report reads) is left alone
    env = {**os.environ, "KAC_LAST_RUN_FILE": os.path.join(work, "last-run")}
    jobs = default_job_count()
    seconds, code = _timed([sys.executable, "-m", "fixtures.console", "run", "--out", os.path.join(work, "report"),
                            "--broker", f"kafka:{version}", "--profile", "ci", "--results-dir", results], env)
    if code not in (0, 1) or not os.path.isdir(results):
        raise SystemExit(f"bench_verdict: the kafka:{version} all-properties run ended with exit code {code}")
    folders = sorted(glob.glob(os.path.join(results, "*", "results.jsonl")))  # not LATEST, a file
    rows = [json.loads(line) for f in folders for line in open(f, encoding="utf-8") if line.strip()]
    outcomes = Counter(r["outcome"] for r in rows)
    from fixtures.companions import wants_configured_broker
    wanting = sum(1 for r in rows if wants_configured_broker(r))   # there should be none
    parts = {"total_s": round(seconds, 1), "jobs": jobs, "run_folders": len(folders),
             "brokers": sorted({r["broker"] for r in rows}), "outcomes": dict(outcomes),
             "unsupported_for_want_of_a_configured_broker": wanting}
    print(f"\nkafka:{version} every property asked (tox -e conformance, --jobs {jobs}, ci, report included): "
          f"{seconds:.1f} s in all, "
          f"{len(rows):,} rows {dict(outcomes)} on {', '.join(parts['brokers'])}; "
          f"unsupported for want of a configured broker: {wanting}")
    return parts


SAMPLE_ENV = "KAC_BENCH_SILENT_SAMPLE"


def pytest_collection_modifyitems(session, config, items):
    """``-p benchmarks.bench_verdict`` with KAC_BENCH_SILENT_SAMPLE=1: keep one cell per test
    function and API (its newest version), so every property is timed at every API it asks
    about, whatever versions the broker advertises (``--sample``)."""
    if os.environ.get(SAMPLE_ENV) != "1":
        return
    last = {}
    for item in items:
        params = getattr(item, "callspec", None)
        api = params.params.get("api_key") if params else None
        last[(item.module.__name__ if item.module else "", item.originalname, api)] = item
    keep = set(map(id, last.values()))
    dropped = [i for i in items if id(i) not in keep]
    items[:] = [i for i in items if id(i) in keep]
    config.hook.pytest_deselected(items=dropped)


def silent(spec: str, sample: bool, timeout: float | None) -> dict:
    """The ci profile (or ``sample``) through ``proxy:mute@SPEC``: the slowest cells."""
    broker = f"proxy:mute@{spec}"
    args = ("-p", "benchmarks.bench_verdict") + (("--request-timeout", f"{timeout:g}") if timeout is not None else ())
    _, _, run_s, t = _suite(broker, "ci", "silent", args, {SAMPLE_ENV: "1" if sample else "0"})
    cells = sorted(t["checks"], key=lambda c: -c["wall_s"])
    over = [c for c in cells if c["wall_s"] > SLOW_CELL_S]
    parts = {"cells": len(cells), "sample": sample, "request_timeout_s": timeout or 15.0,
             "suite_process_s": round(run_s, 1), "broker_start_s": t["broker_start_s"],
             "checks_s": t["checks_s"], "slowest_cell_s": cells[0]["wall_s"] if cells else None,
             "cells_over_60_s": len(over),
             "slowest_cells": [{"nodeid": c["nodeid"], "wall_s": c["wall_s"], "wire_s": c["wire_s"],
                                "exchanges": c["exchanges"], "outcome": c["outcome"]} for c in cells[:10]]}
    what = ("a sample: one cell per test function and API (--sample), not the whole profile" if sample
            else "the whole ci profile")
    print(f"\nsilent broker: --broker {broker} --profile ci --request-timeout {parts['request_timeout_s']:g}: "
          f"{what}; {len(cells)} cells in {run_s:.1f} s (broker start {t['broker_start_s'] or 0:.1f} s)")
    print("  slowest cells (wall s, of it waiting on the wire, requests sent):")
    for c in parts["slowest_cells"]:
        print(f"    {c['wall_s']:7.1f} {c['wire_s']:7.1f} {c['exchanges']:4d}  {c['nodeid']} ({c['outcome']})")
    print(f"  cells over {SLOW_CELL_S:.0f} s: {len(over)}" + "".join(
        f"\n    {c['wall_s']:.1f} s  {c['nodeid']}" for c in over))
    return parts


def broker_start(spec: str) -> float:
    from fixtures.brokers import make_target
    target = make_target(spec)
    t = time.monotonic()
    try:
        target.start()
        return time.monotonic() - t
    finally:
        target.stop()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--default", action="store_true", help="time the README's main job (tansu, dev profile)")
    p.add_argument("--kafka", metavar="VERSION", action="append", default=[],
                   help="time a ci-profile run on one kafka:VERSION node (repeat, or VERSION,VERSION)")
    p.add_argument("--all-properties", metavar="VERSION", action="append", default=[],
                   help="time every property asked on kafka:VERSION as tox -e conformance runs it (repeat)")
    p.add_argument("--start", metavar="SPEC", action="append", default=[], help="time a broker start (repeat)")
    p.add_argument("--silent", metavar="SPEC", action="append", default=[],
                   help="time the ci profile through proxy:mute@SPEC, a broker that never answers (repeat)")
    p.add_argument("--sample", action="store_true",
                   help="with --silent: one cell per test function and API instead of the whole profile")
    p.add_argument("--request-timeout", type=float, default=None, metavar="S",
                   help="with --silent: the suite's --request-timeout (default the suite's, 15 s)")
    p.add_argument("--out", metavar="FILE")
    a = p.parse_args(argv)
    if (a.sample or a.request_timeout is not None) and not a.silent:
        p.error("--sample and --request-timeout go with --silent SPEC")
    a.kafka, a.all_properties = versions(a.kafka), versions(a.all_properties)
    if not (a.default or a.kafka or a.all_properties or a.start or a.silent):
        a.default, a.start = True, ["tansu"]
    figures: dict = {}
    if a.start:
        figures["broker_start_s"] = {}
        for spec in a.start:
            s = broker_start(spec)
            figures["broker_start_s"][spec] = round(s, 2)
            print(f"broker start {spec}: {s:.2f} s (until ApiVersions answers)")
    if a.default:
        parts = run("tansu", "dev", "default run")
        figures["default_run_s"] = parts["total_s"]
        figures["default_run_parts"] = parts
    for version in a.kafka:
        parts = run(f"kafka:{version}", "ci", f"kafka:{version} ci run")
        figures.setdefault("kafka_ci_run_s", {})[f"kafka:{version}"] = parts["total_s"]
        figures.setdefault("kafka_ci_run_parts", {})[f"kafka:{version}"] = parts
    for version in a.all_properties:
        parts = all_properties(version)
        figures.setdefault("kafka_all_properties_s", {})[f"kafka:{version}"] = parts["total_s"]
        figures.setdefault("kafka_all_properties_parts", {})[f"kafka:{version}"] = parts
    for spec in a.silent:
        parts = silent(spec, a.sample, a.request_timeout)
        figures.setdefault("silent_slowest_cell_s", {})[f"proxy:mute@{spec}"] = parts["slowest_cell_s"]
        figures.setdefault("silent_run_parts", {})[f"proxy:mute@{spec}"] = parts
    if a.out:
        data = json.load(open(a.out)) if os.path.exists(a.out) else {}
        for k, v in figures.items():
            if isinstance(v, dict) and isinstance(data.get(k), dict) and k.endswith(("_s", "_parts")):
                data[k] = {**data[k], **v}
            else:
                data[k] = v
        with open(a.out, "w") as f:
            json.dump(data, f, indent=2, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
