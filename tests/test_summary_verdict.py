"""SUMMARY.md says the verdict first (issue 60, item 1): per broker, not per run folder (a
Kafka release's companions and shards answer for their base, item 3), the word and what it
rests on: new findings, those answering as a known deviation of Apache Kafka, the known
deviations seen, incomplete runs, and against a baseline the cells that fail the gate and
those fixed; each count links to its list."""
from __future__ import annotations

import re

from reports import gate, summary
from reports.synthetic import T0, row, write_run

KAFKA = "kafka:4.4.0"
ACL = f"{KAFKA},preset=acl"


def _kafka(broker=KAFKA, **kw):
    return row(broker, broker_impl="apache-kafka", broker_version="4.4.0", **kw)


def _verdict(text: str) -> dict[str, list[str]]:
    """broker -> its verdict line's cells."""
    block = text.split("## Verdict", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in block.splitlines() if ln.startswith("| ") and not ln.startswith("| broker")]
    return {cells[0]: cells for cells in ([c.strip() for c in ln.strip("|").split("|")] for ln in lines)}


def _summary(tmp_path, runs, *more) -> str:
    out = tmp_path / "report"
    assert summary.main([*runs, "--out", str(out), "--known", "none", *more]) == 0
    return (out / "SUMMARY.md").read_text(encoding="utf-8")


def test_the_verdict_comes_first_one_line_per_broker_with_companions_and_shards_folded(tmp_path):
    shard1 = write_run(tmp_path / "r", "run-k1", [_kafka(property="P1"), _kafka(property="P2", outcome="fail")])
    shard2 = write_run(tmp_path / "r", "run-k2", [_kafka(property="D1")], start=T0.replace(hour=1))
    acl = write_run(tmp_path / "r", "run-acl", [_kafka(ACL, property="A2", api_key=20)], start=T0.replace(hour=2),
                    companions={ACL: KAFKA})
    tansu = write_run(tmp_path / "r", "run-t", [row("tansu")], start=T0.replace(hour=3), complete=False)
    text = _summary(tmp_path, [shard1, shard2, acl, tansu])
    heads = [ln for ln in text.splitlines() if ln.startswith("## ")]
    assert heads[0] == "## Verdict", heads
    v = _verdict(text)
    assert set(v) == {"kafka:4.4.0", "tansu (0.6.0)"}, v
    kafka, t = v["kafka:4.4.0"], v["tansu (0.6.0)"]
    assert kafka[1] == "**fail**" and kafka[2] == "[1](#new-findings-1)", kafka
    assert kafka[5] == "3" and kafka[6] == "3 pass, 1 fail", kafka     # three runs, four rows, one broker
    assert t[1] == "**incomplete**" and t[5] == "1 (1)", t
    assert "tansu: run run-t is incomplete: its manifest says complete: false" in text
    # the runs table still lists every run folder, each under the broker it answers for
    runs = text.split("## Runs", 1)[1].split("\n## ", 1)[0]
    assert "| run-acl | kafka:4.4.0 | kafka:4.4.0,preset=acl | 4.4.0 |" in runs


def test_every_link_of_the_verdict_reaches_a_heading_of_the_page(tmp_path):
    run = write_run(tmp_path / "r", "run-1", [row("tansu", outcome="fail"), row("tansu", property="P2")])
    text = _summary(tmp_path, [run])
    anchors = {summary.anchor(ln[3:]) for ln in text.splitlines() if ln.startswith("## ")}
    links = re.findall(r"\]\((#[^)]+)\)", text)
    assert links and set(links) <= anchors, (links, anchors)


def test_against_a_baseline_the_verdict_counts_what_fails_the_gate_and_what_was_fixed(tmp_path):
    base = write_run(tmp_path / "b", "run-base", [row("tansu", property="P1"), row("tansu", property="P2", outcome="fail"),
                                                  row("noida", property="P1")])
    now = write_run(tmp_path / "r", "run-now", [row("tansu", property="P1", outcome="fail"), row("tansu", property="P2")],
                    start=T0.replace(hour=5))
    text = _summary(tmp_path, [now], "--baseline", base)
    [tansu] = _verdict(text).values()
    # broker, verdict, fail the gate, fixed, new findings ...
    assert tansu[1:5] == ["**fail**", "1", "1", "[1](#new-findings-1)"], tansu
    assert "Against the baseline" in text and "run-base" in text
    # the same count the gate gives: P1 regressed, P2 fixed; noida is not in these runs
    cells, _ = gate.read_baseline(base)
    got = gate.compare(cells, gate.load([f"{now}/results.jsonl"]).cells)
    assert sorted(cat for cat, _, cur in got if cur is not None and cur.broker == "tansu") == ["fixed", "regression"]


def test_a_run_that_passes_everything_says_pass(tmp_path):
    run = write_run(tmp_path / "r", "run-1", [row("noida"), row("noida", property="P2", outcome="unsupported")])
    [noida] = _verdict(_summary(tmp_path, [run])).values()
    assert noida[1] == "pass" and noida[2] == "0" and noida[6] == "1 pass, 1 unsupported", noida


def test_a_nineteen_target_matrix_stays_well_under_a_job_summarys_size(tmp_path):
    """GitHub keeps a job summary of up to 1 MiB: 19 targets, each a release asked with three
    companions in run folders of their own and 200 failing rows, stay far below it."""
    runs = []
    for i in range(19):
        base = f"kafka:4.{i}.0"
        rows = [row(base, "P2", 19, v % 8, "fail", broker_impl="apache-kafka", broker_version=f"4.{i}.0",
                    message=f"P2: expected error 0, got 37 at v{v % 8} " + "x" * 200) for v in range(200)]
        runs.append(write_run(tmp_path / "r", f"run-{i:02d}", rows, start=T0.replace(minute=i)))
        for option in ("preset=acl", "preset=quota", "nodes=3"):
            spec = f"{base},{option}"
            runs.append(write_run(tmp_path / "r", f"run-{i:02d}-{option}", [row(spec, "A2", 19, 0, "pass")],
                                  start=T0.replace(minute=i, second=30), companions={spec: base}))
    text = _summary(tmp_path, runs)
    assert len(_verdict(text)) == 19
    assert len(text.encode()) < 100_000, len(text.encode())
