"""fixtures/tidy.py: a check's topics are gone before the next check starts, so a run does
not pile up topics, on a broker the suite started and on a cluster it did not (with
--allow-destructive); and nothing but the run's own topics is touched."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.brokers import make_target

ROOT = Path(__file__).resolve().parent.parent


def counts(tmp_path, *extra) -> list[int]:
    probe = tmp_path / "counts"
    cmd = [sys.executable, "-m", "pytest", "conformance/test_topics.py", "-q", "-p", "no:cacheprovider",
           "-p", "tests.topic_probe", "--probe-topics", str(probe), "--results-dir", str(tmp_path / "results"),
           "--profile", "ci", "--seed", "3", "-k", "test_t1 and CreateTopics and 7", *extra]
    proc = subprocess.run(cmd, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return [int(line) for line in probe.read_text().split()]


def manifest(tmp_path) -> dict:
    return json.loads(next((tmp_path / "results").glob("*/manifest.json")).read_text())


@pytest.fixture
def someones_cluster():
    """A tansu the suite's run does not own (given to it as bootstrap:HOST:PORT), holding a
    topic of its own that must stay."""
    from protocol import requests, wire
    from protocol.apis import ApiKey
    target = make_target("tansu")
    info = target.start()
    try:
        conn = wire.Connection(info.host, info.port)
        try:
            assert conn.send(ApiKey.CreateTopics, 2, requests.create_topics(2, [requests.topic("theirs")])).ok
        finally:
            conn.close()
        yield info
    finally:
        target.stop()


def test_each_checks_topics_are_gone_before_the_next_check(tmp_path):
    seen = counts(tmp_path)
    assert len(seen) >= 5, seen
    assert seen == [0] * len(seen), seen


def test_without_tidying_the_topics_pile_up(tmp_path):
    """The probe can see topics: with the plugin blocked, later checks find earlier ones."""
    seen = counts(tmp_path, "-p", "no:fixtures.tidy")
    assert seen[-1] > 0, seen


def test_on_a_cluster_the_suite_did_not_start_each_checks_topics_go_too(tmp_path, someones_cluster):
    from fixtures import scope
    from protocol import wire
    spec = f"bootstrap:{someones_cluster.host}:{someones_cluster.port}"
    seen = counts(tmp_path, "--broker", spec, "--allow-destructive")
    assert len(seen) >= 5 and seen == [0] * len(seen), seen
    cleanup = manifest(tmp_path)["cleanup"][0]
    assert cleanup["tidied"] >= len(seen) and cleanup["not_deleted"] == 0, cleanup
    conn = wire.Connection(someones_cluster.host, someones_cluster.port)
    try:
        assert "theirs" in scope.existing_topics(conn, someones_cluster)
    finally:
        conn.close()
