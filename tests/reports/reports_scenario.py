"""The hand-made runs of broker "crafted": every expected table row is known by hand."""
from __future__ import annotations

import datetime as dt
import json
import os

from reports import synthetic
from reports.synthetic import row, write_run

CRAFTED = "crafted"
T0 = synthetic.T0 + dt.timedelta(days=10)
B1 = {"broker_impl": "craft", "broker_version": "1.0"}
B2 = {"broker_impl": "craft", "broker_version": "2.0"}


def _c(prop, api_key, version, outcome, build=B1):
    return row(CRAFTED, prop, api_key, version, outcome, **build)


def _line(n: int, run_id: str, **override) -> str:
    r = dict(_c("C1", 44, 0, "pass"), row_id=n, run_id=run_id,
             started_at=synthetic.iso(T0 + dt.timedelta(hours=1, seconds=n)))
    r.update(override)
    return json.dumps(r)


# Malformed lines of run "aa-b": line -> (text, the reason both readers must give)
MALFORMED = {
    3: ("not json at all", "not a JSON object (or a cut-off line)"),
    10: ('{"row_id": 10}', "missing field run_id"),
    20: (_line(20, "aa-b", outcome="maybe"), "outcome 'maybe' is not one of pass, fail, error, unsupported, skip"),
    30: (_line(30, "aa-b", started_at="yesterday"), "started_at is not an ISO-8601 time"),
    40: (_line(40, "aa-b", counterexample=[1]), "field counterexample has the wrong type"),
    60: ("[1, 2]", "not a JSON object (or a cut-off line)"),
    70: (_line(70, "aa-b", api_key=1.5), "field api_key has the wrong type"),
    150: ('{"row_id": "x", "run_id": "aa-b"}', "field row_id has the wrong type"),
}
# Blank lines: neither rows nor malformed (Spark's JSON reader skips them; so does the gate),
# but they are lines, so the malformed lines after them keep their numbers.
BLANK = {50: "", 51: "   "}
PARTIAL = '{"row_id": 999, "run_id": "aa-b", "started_at": "2026-11-'  # cut off, no newline


def write_crafted(results_dir) -> dict:
    """Three runs of broker "crafted"; folder names sort against their start order."""
    a = [_c("P1", 19, 0, "pass"), _c("P1", 19, 1, "fail"), _c("P2", 19, 0, "pass"),
         _c("V1", 19, 0, "unsupported"), _c("S1", None, None, "pass"),
         _c("P5", 19, 0, "pass"), _c("P5", 19, 0, "pass")]       # every test of P5 asked: pass
    b = [_c("P1", 19, 0, "fail"), _c("P1", 19, 1, "fail"), _c("P1", 19, 1, "pass"), _c("P2", 19, 0, "pass"),
         _c("V1", 19, 0, "unsupported"), _c("S1", None, None, "pass"),
         # one test of P5 not asked: partial, though the unsupported row comes before the pass
         _c("P5", 19, 0, "unsupported"), _c("P5", 19, 0, "pass")]
    b += [_c("C1", 44, i % 2, "pass") for i in range(200)]  # filler: a file Spark splits in several blocks
    c = [_c("P2", 19, 0, "fail", B2), _c("P1", 19, 0, "fail", B2), _c("P1", 19, 1, "pass", B2),
         # three checks of one cell: the failing one decides, though a pass comes after it
         _c("T1", 19, 0, "pass", B2), _c("T1", 19, 0, "fail", B2), _c("T1", 19, 0, "pass", B2)]
    runs = {
        "a": write_run(results_dir, "zz-a", a, start=T0),
        "b": write_run(results_dir, "aa-b", b, start=T0 + dt.timedelta(hours=1),
                       extra_lines={**{n: text for n, (text, _) in MALFORMED.items()}, **BLANK}),
        # no manifest: the run starts at its first row
        "c": write_run(results_dir, "mm-c", c, start=T0 + dt.timedelta(hours=2), manifest=False),
    }
    with open(os.path.join(runs["b"], "results.jsonl"), "a", encoding="utf-8") as fh:
        fh.write(PARTIAL)
    return runs
