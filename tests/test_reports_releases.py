"""``python -m reports.releases``: what changed between Kafka releases, from run folders (the
release matrix of docs/kafka-releases.md). Hand-written runs of two releases: the version
table names every API the rows asked, only a verdict that differs between releases is a
differing cell, and a cell one release does not ask is counted apart."""
from __future__ import annotations

import json
import os

from reports import releases
from reports.synthetic import row, write_run


def _run(results_dir, run_id, version, api_versions, cells, options=""):
    spec = f"kafka:{version}{options}"
    rows = [row(spec, prop, key, v, outcome, broker_impl="apache-kafka", broker_version=version)
            for prop, key, v, outcome in cells]
    folder = write_run(results_dir, run_id, rows)
    path = os.path.join(folder, "manifest.json")
    manifest = json.load(open(path, encoding="utf-8"))
    manifest["brokers"] = [{"spec": spec, "impl": "apache-kafka", "version": version,
                            "api_versions": {str(k): list(r) for k, r in api_versions.items()}, "error": None}]
    json.dump(manifest, open(path, "w", encoding="utf-8"))
    return os.path.join(folder, "results.jsonl")


def test_the_release_tables_name_every_asked_api_and_only_differing_verdicts(tmp_path):
    old = _run(tmp_path, "r-old", "3.9.2", {19: (0, 7), 44: (0, 1), 33: (0, 2)},
               [("P1", 19, 0, "pass"), ("P1", 19, 7, "pass"), ("C2", 44, 0, "pass"), ("C4", 33, 0, "fail"),
                ("T1", 19, 7, "pass")])
    new = _run(tmp_path, "r-new", "4.0.2", {19: (2, 7), 44: (0, 1), 33: (0, 2)},
               [("P1", 19, 0, "unsupported"), ("P1", 19, 7, "pass"), ("C2", 44, 0, "fail"), ("C4", 33, 0, "fail"),
                ("T1", 19, 7, "pass")])
    zk = _run(tmp_path, "r-zk", "3.9.2", {19: (0, 7), 44: (0, 1), 33: (0, 2)},
              [("C2", 44, 0, "fail")], options=",mode=zk")
    ranges, outcomes, runs, names = releases.collect([old, new, zk])
    assert names == {19: "CreateTopics", 44: "IncrementalAlterConfigs", 33: "AlterConfigs"}
    assert set(ranges) == {"3.9.2", "3.9.2,mode=zk", "4.0.2"} and len(runs) == 3
    text = releases.markdown(ranges, outcomes, runs, names)
    assert "| CreateTopics (19) | v0-7 | v0-7 | **v2-7** |" in text
    assert "| AlterConfigs (33) | v0-2 | v0-2 | v0-2 |" in text
    differing = text.split("## Cells whose verdict differs between releases")[1].split("## Cells per state")[0]
    # C2 v0 passes on one release and fails on two: listed; C4 fails and T1 passes wherever
    # asked: not listed; P1 v0 is asked on 3.9.2 only, and the ZooKeeper-mode run asks C2
    # alone: four cells counted apart
    assert "| C2 | IncrementalAlterConfigs | 0 | pass | fail | fail |" in differing
    assert "| C4 |" not in differing and "| T1 |" not in differing and "| P1 |" not in differing
    assert "4 more cell(s) are asked on some releases only" in differing
    assert "| 4.0.2 | 2 | 0 | 2 | 0 | 1 | 0 |" in text


def test_a_companion_answers_in_its_base_column(tmp_path):
    """A run of ``kafka:V`` whose preset checks a companion ``kafka:V,preset=acl`` asked
    (fixtures/companions.py): one column for the release, holding the cells of both."""
    base, companion = "kafka:4.4.0", "kafka:4.4.0,preset=acl"
    rows = [row(base, "P1", 19, 7, "pass", broker_impl="apache-kafka", broker_version="4.4.0"),
            row(companion, "A2", 19, 7, "fail", broker_impl="apache-kafka", broker_version="4.4.0")]
    folder = write_run(tmp_path, "r-routed", rows)
    path = os.path.join(folder, "manifest.json")
    manifest = json.load(open(path, encoding="utf-8"))
    entry = {"impl": "apache-kafka", "version": "4.4.0", "api_versions": {"19": [2, 7]}, "error": None}
    manifest["brokers"] = [{"spec": base, **entry},
                           {"spec": companion, **entry, "companion_of": base, "for": "preset=acl"}]
    json.dump(manifest, open(path, "w", encoding="utf-8"))
    ranges, outcomes, _, _ = releases.collect([os.path.join(folder, "results.jsonl")])
    assert set(ranges) == {"4.4.0"}
    assert outcomes == {"4.4.0": {("P1", 19, 7): "pass", ("A2", 19, 7): "fail"}}


def test_a_companion_of_another_run_folder_answers_in_its_base_column(tmp_path):
    """Under ``--jobs`` a companion's worker writes a run folder of its own: its cells still
    go to its base's column, and its API ranges do not make a column."""
    base = _run(tmp_path, "r-base", "4.4.0", {19: (2, 7)}, [("P1", 19, 7, "pass")])
    companion = "kafka:4.4.0,nodes=3"
    folder = write_run(tmp_path, "r-companion", [row(companion, "E4", 43, 2, "pass", broker_impl="apache-kafka",
                                                     broker_version="4.4.0")])
    path = os.path.join(folder, "manifest.json")
    manifest = json.load(open(path, encoding="utf-8"))
    manifest["brokers"] = [{"spec": companion, "impl": "apache-kafka", "version": "4.4.0",
                            "api_versions": {"43": [0, 2]}, "error": None,
                            "companion_of": "kafka:4.4.0", "for": "nodes=3"}]
    json.dump(manifest, open(path, "w", encoding="utf-8"))
    ranges, outcomes, runs, _ = releases.collect([base, os.path.join(folder, "results.jsonl")])
    assert set(ranges) == {"4.4.0"} and len(runs) == 2
    assert outcomes == {"4.4.0": {("P1", 19, 7): "pass", ("E4", 43, 2): "pass"}}
