"""A cluster the suite did not start is judged by the configuration it shows (issue 32).

A Kafka started "by hand" with ``delete.topic.enable=false`` (here through the suite's own
Kafka target, as a user's cluster would be: nothing about it tells the suite how it was
configured) and checked as ``bootstrap:HOST:PORT --allow-destructive`` must give the same
outcome in every cell as ``kafka:VERSION,preset=nodelete``, whose configuration the suite
also knows from the spec. The properties whose answers deletion decides (D1, D2, D6 and
P5's deletion-disabled check) run against both in one run; before the configuration was
read, the bootstrap cluster failed D1, D2 and D6 and left P5 unsupported.
"""
from __future__ import annotations

import json
import subprocess
from collections import defaultdict

from fixtures.results import read_rows
from fixtures.brokers import make_target
from tests.test_kafka_target import KAFKA, ROOT, last_run, leftovers, suite

PROPERTIES = "D1,D2,D6,P5"
#: P5 is every API's error-code check; deletion decides only its deletion-disabled test
ASKED = "test_d1 or test_d2 or test_d6 or test_p5_with_deletion_disabled"


def _cells(rows, broker):
    """(property, API, version, test) -> outcome of ``broker``'s rows."""
    out = {}
    for r in rows:
        if r["broker"] == broker:
            out[(r["property"], r["api_name"], r["api_version"], r["test"].split("[")[0])] = r["outcome"]
    return out


def test_a_cluster_started_by_hand_with_deletion_disabled_answers_as_preset_nodelete(tmp_path):
    by_hand = make_target(f"{KAFKA},config.delete.topic.enable=false")
    info = by_hand.start()
    bootstrap = f"bootstrap:{info.host}:{info.port}"
    preset = f"{KAFKA},preset=nodelete"
    try:
        cmd, env = suite(tmp_path, "--broker", bootstrap, "--broker", preset, "--allow-destructive",
                         "--property", PROPERTIES, "-k", ASKED, "--seed", "32")
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    finally:
        by_hand.stop()
    run = last_run(tmp_path)
    rows = read_rows(run / "results.jsonl")
    manifest = json.loads((run / "manifest.json").read_text())
    shown = {b["spec"]: b for b in manifest["brokers"]}
    # the bootstrap cluster's setting came from the broker alone; the preset's from both
    assert shown[bootstrap]["config"]["values"]["delete.topic.enable"] == "false", shown[bootstrap]
    assert shown[bootstrap]["config_declared"] == {}
    assert shown[preset]["config"]["values"]["delete.topic.enable"] == "false"
    assert shown[preset]["config_declared"]["delete.topic.enable"] == "false"
    mine, theirs = _cells(rows, bootstrap), _cells(rows, preset)
    assert mine and set(mine) == set(theirs), sorted(set(mine) ^ set(theirs))
    differ = {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}
    assert not differ, differ
    by_outcome = defaultdict(int)
    for outcome in mine.values():
        by_outcome[outcome] += 1
    assert by_outcome["fail"] == by_outcome["error"] == 0, dict(by_outcome)
    asked = {k[0] for k, o in mine.items() if o == "pass"}
    assert asked == {"D1", "D2", "D6", "P5"}, asked         # every property was really asked
    p5 = [r for r in rows if r["broker"] == bootstrap and r["test"].startswith(
        "conformance/test_version_gated.py::test_p5_with_deletion_disabled")]
    assert p5 and all(r["outcome"] in ("pass", "unsupported") for r in p5)
    assert sum(r["outcome"] == "pass" for r in p5) >= 6, [(r["api_version"], r["outcome"]) for r in p5]
    # the run's topics cannot be deleted there: the manifest says why, and nothing of the suite is left
    sweep = [c for c in manifest.get("cleanup") or [] if c["broker"] == bootstrap]
    assert sweep and "delete.topic.enable=false" in (sweep[0]["error"] or ""), sweep
    assert not leftovers(tmp_path)
