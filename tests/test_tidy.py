"""fixtures/tidy.py: a check's topics are gone before the next check starts, so a run does
not pile up topics; and nothing but the run's own topics is touched."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def test_each_checks_topics_are_gone_before_the_next_check(tmp_path):
    seen = counts(tmp_path)
    assert len(seen) >= 5, seen
    assert seen == [0] * len(seen), seen


def test_without_tidying_the_topics_pile_up(tmp_path):
    """The probe can see topics: with the plugin blocked, later checks find earlier ones."""
    seen = counts(tmp_path, "-p", "no:fixtures.tidy")
    assert seen[-1] > 0, seen
