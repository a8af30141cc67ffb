"""The gate's bad input (issue 55, item 6): ``python -m reports.gate`` and
``kafka-admin-conformance gate`` answer each with one line on stderr and exit status 2,
no traceback, nothing on stdout and nothing written, within seconds (the gate is pure
Python: no Spark, no broker). Each case runs both commands as a user does, in a subprocess,
and counts stderr's lines."""
from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import time

import pytest

from reports import gate
from reports.synthetic import T0, row, write_run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENTRIES = {"module": ["-m", "reports.gate"], "console": ["-m", "fixtures.console", "gate"]}
#: what "within seconds" means here, under a loaded machine (an answer takes ~0.3 s alone)
SECONDS = 20


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Run folders and baselines, good and bad, shared by the cases."""
    d = tmp_path_factory.mktemp("gate-bad-input")
    rows = [row("tansu", "P1", 19, v, "pass", check="test_p1") for v in (0, 1)]
    base = write_run(d / "base", "run-base", rows, start=T0)
    new = write_run(d / "new", "run-new", rows, start=T0 + dt.timedelta(hours=1))
    (d / "empty").mkdir()
    write_run(d / "garbled", "run-garbled", [], start=T0, extra_lines={1: "not json", 2: '{"row_id": "x"}'})
    files = {
        "not-json.json": "{ not json",
        "empty.json": "",
        "a-list.json": "[]",
        "other-format.json": json.dumps({"format": "something/else", "cells": []}),
        "no-cells.json": json.dumps({"format": gate.FORMAT, "cells": []}),
        "bad-outcome.json": json.dumps({"format": gate.FORMAT, "cells": [
            {"broker": "tansu", "api_key": 19, "api_version": 0, "property": "P1", "outcome": "passed"}]}),
        "bad-counts.json": json.dumps({"format": gate.FORMAT, "cells": [
            {"broker": "tansu", "api_key": 19, "api_version": 0, "property": "P1", "outcome": "pass",
             "counts": "pass"}]}),
        "bad-key.json": json.dumps({"format": gate.FORMAT, "cells": [
            {"broker": "tansu", "api_key": "19", "api_version": 0, "property": "P1", "outcome": "pass"}]}),
        "not-utf8.json": b"\xff\xfe{\x00".decode("latin-1"),
    }
    for name, text in files.items():
        (d / name).write_text(text, encoding="latin-1")
    return {"dir": d, "base": base, "new": new}


#: case -> (argv with {dir}, {base}, {new} filled in, what the one line must say)
CASES = {
    "no baseline given": (["{new}"], "nothing to do: give --baseline"),
    "missing baseline": (["{new}", "--baseline", "{dir}/nope.json"], "no such baseline: {dir}/nope.json"),
    # a file every read of which fails, even as root (where chmod 000 does not stop reading)
    "unreadable baseline": (["{new}", "--baseline", "/proc/self/mem"], "cannot read the baseline /proc/self/mem"),
    "baseline not json": (["{new}", "--baseline", "{dir}/not-json.json"], "is not a baseline file"),
    "baseline empty file": (["{new}", "--baseline", "{dir}/empty.json"], "is not a baseline file"),
    "baseline a json list": (["{new}", "--baseline", "{dir}/a-list.json"], "is not a baseline file"),
    "baseline of another format": (["{new}", "--baseline", "{dir}/other-format.json"], "format is not"),
    "baseline without cells": (["{new}", "--baseline", "{dir}/no-cells.json"], "it lists no cells"),
    "baseline cell outcome": (["{new}", "--baseline", "{dir}/bad-outcome.json"], "cell 1: outcome 'passed'"),
    "baseline cell counts": (["{new}", "--baseline", "{dir}/bad-counts.json"], "cell 1: counts"),
    "baseline cell api_key": (["{new}", "--baseline", "{dir}/bad-key.json"], "cell 1: api_key '19'"),
    "baseline not utf-8": (["{new}", "--baseline", "{dir}/not-utf8.json"], "is not a baseline file"),
    "baseline folder without runs": (["{new}", "--baseline", "{dir}/empty"], "no run folders under"),
    "baseline run without a valid row": (["{new}", "--baseline", "{dir}/garbled/run-garbled"],
                                         "holds no valid row (2 malformed line(s)"),
    "no runs given": (["--baseline", "{base}"], "no runs: give --results-dir"),
    "missing results dir": (["--results-dir", "{dir}/nope", "--baseline", "{base}"], "no such folder: {dir}/nope"),
    "results dir without runs": (["--results-dir", "{dir}/empty", "--baseline", "{base}"], "no run folders under"),
    "results dir a run folder": (["--results-dir", "{new}", "--baseline", "{base}"], "no run folders under"),
    "runs without a valid row": (["--results-dir", "{dir}/garbled", "--baseline", "{base}"],
                                 "the runs hold no valid row; nothing to gate (2 malformed line(s)"),
    "missing run folder": (["{dir}/nope/run-1", "--baseline", "{base}"], "no such run folder"),
    "missing runs-from": (["--runs-from", "{dir}/nope.txt", "--baseline", "{base}"], "cannot read --runs-from"),
    "unknown option": (["{new}", "--baseline", "{base}", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    "ambiguous option": (["{new}", "--baseline", "{base}", "--allow"], "ambiguous option: --allow"),
    "last not a number": (["{new}", "--baseline", "{base}", "--last", "x"], "argument --last: invalid int value"),
    "last zero": (["{new}", "--baseline", "{base}", "--last", "0"], "--last 0: give a number of runs"),
    "broker-as without a baseline": (["{new}", "--write-baseline", "{dir}/b.json", "--broker-as", "tansu", "x"],
                                     "--broker-as compares the runs with a baseline"),
    "broker-as one value": (["{new}", "--baseline", "{base}", "--broker-as", "tansu"], "expected 2 arguments"),
    "broker-as unknown run broker": (["{new}", "--baseline", "{base}", "--broker-as", "noida", "tansu"],
                                     "the runs hold no cell of broker 'noida'"),
    "broker-as unknown baseline broker": (["{new}", "--baseline", "{base}", "--broker-as", "tansu", "noida"],
                                          "the baseline holds no cell of broker 'noida'"),
    "junit into a missing folder": (["{new}", "--baseline", "{base}", "--junit", "{dir}/nope/gate.xml"],
                                    "cannot write --junit {dir}/nope/gate.xml: no such folder"),
    "baseline written into a missing folder": (["{new}", "--write-baseline", "{dir}/nope/b.json"],
                                               "cannot write --write-baseline"),
    "unknown known-deviations": (["{new}", "--baseline", "{base}", "--known-deviations", "{dir}/nope.json"],
                                 "cannot read the known deviations"),
}


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_line_on_stderr_and_exit_2(world, case, entry):
    argv, says = CASES[case]
    fill = {k: str(v) for k, v in world.items()}
    before = sorted(os.listdir(world["dir"]))
    start = time.monotonic()
    p = subprocess.run([sys.executable, *ENTRIES[entry], *[a.format(**fill) for a in argv]], cwd=ROOT,
                       capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": ROOT})
    took = time.monotonic() - start
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("error: "), p.stderr
    assert "Traceback" not in p.stderr and says.format(**fill) in p.stderr, p.stderr
    assert p.stdout == "", p.stdout             # refused before anything was read or told
    assert sorted(os.listdir(world["dir"])) == before      # and nothing written
    assert took < SECONDS, took


def test_help_is_not_an_error():
    p = subprocess.run([sys.executable, "-m", "reports.gate", "--help"], cwd=ROOT, capture_output=True, text=True,
                       timeout=60, env={**os.environ, "PYTHONPATH": ROOT})
    assert p.returncode == 0 and "--allow-new-unsupported" in p.stdout and p.stderr == ""
