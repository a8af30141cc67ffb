"""Shards of a base (fixtures/shards.py): a Kafka release's own checks split across ``--jobs``
workers by whole properties, the traffic-reading ones in shard 1 with every shard's traffic.
Collection and plain data here (no JVM); the run on Kafka is in tests/test_kafka_target.py."""
from __future__ import annotations

import pickle
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fixtures import shards
from fixtures.judge import Answer
from fixtures.traffic import MAX_PER_CELL, Finding, TrafficLog

ROOT = Path(__file__).resolve().parents[1]
BASE = "kafka:4.4.0"


def _collected(*args) -> tuple[int, list[str]]:
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "--broker", BASE, "--companion-part", "base", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    return proc.returncode, [line for line in proc.stdout.splitlines() if "::" in line] + \
        ([proc.stderr.strip()] if proc.returncode else [])


def _prop(nodeid: str) -> str:
    """test_c4_... -> C4 (every check function is named after its property)."""
    return nodeid.split("::")[-1].split("_")[1].upper()


def test_every_check_of_a_base_is_in_exactly_one_shard_with_its_whole_property():
    code, whole = _collected()
    assert code == 0, whole[-3:]
    parts = []
    for k in (1, 2):
        code, got = _collected("--base-shard", f"{k}/2")
        assert code == 0, got[-3:]
        parts.append(got)
    one, two = parts
    assert one and two, "a shard asks nothing"
    assert sorted(one + two) == sorted(whole) and not set(one) & set(two)
    assert not {_prop(n) for n in one} & {_prop(n) for n in two}, "a property split across shards"
    for reads in ("test_p5_codes_introduced_later_never_answer_older_versions",
                  "test_p6_errors_carry_a_message_and_successes_none"):
        assert any(f"::{reads}[" in n for n in one), f"{reads} is not in shard 1"
    # the checks Kafka leaves unanswered (a request timeout each) do not all wait in one shard
    unanswered = {t for t, _ in shards.unanswered_checks()}
    holders = [{_prop(n) for n in part if n.split("::")[-1].split("[")[0] in unanswered} for part in parts]
    assert all(holders), holders


def test_the_placement_depends_only_on_what_was_collected():
    class Item:
        def __init__(self, name, version, reads=False):
            self.name = self.originalname = name
            self.callspec = type("P", (), {"params": {"version": version}})()
            self._reads = reads

        def get_closest_marker(self, name):
            return object() if name == "reads_traffic" and self._reads else None

    unanswered = sorted(shards.unanswered_checks())
    items = [Item(f"test_a{i % 7}_x", i) for i in range(70)] + [Item("test_p5_y", 1, reads=True)] + \
        [Item(t, v) for t, v in unanswered]

    def prop(item):
        return item.name.split("_")[1]
    where = shards.assign(items, 2, prop, 15.0)
    assert where == shards.assign(list(reversed(items)), 2, prop, 15.0)
    assert where["p5"] == 1
    assert set(where.values()) == {1, 2}
    assert shards.assign(items, 1, prop, 15.0) == dict.fromkeys(where, 1)


@pytest.mark.parametrize("text,error", [("3/2", "K must be between 1 and N"), ("a/b", "write K/N"),
                                        ("0/2", "K must be between 1 and N"), ("2", "write K/N")])
def test_a_bad_shard_is_one_line(text, error):
    with pytest.raises(ValueError, match=error):
        shards.parse(text)
    code, out = _collected("--base-shard", text)
    assert code == 4 and error in out[-1] and "Traceback" not in out[-1], out[-1]


def test_a_shard_is_only_of_a_base():
    code, out = _collected("--companion-part", "preset=acl", "--base-shard", "1/2")
    assert code == 4 and "--base-shard: only with --companion-part base" in out[-1], out[-1]


def test_shards_per_base_are_the_jobs_it_has_to_itself():
    assert shards.count(2, 1) == 2 and shards.count(4, 1) == 4
    assert shards.count(2, 2) == 1 and shards.count(3, 13) == 1 and shards.count(2, 0) == 1


def _finding(i: int) -> Finding:
    return Finding(f"T1 CreateTopics v{i}", [{"kind": "field"}], {"topics": [f"t{i}"]}, 19, 7,
                   Answer("ok", {"topics": [{"name": f"t{i}", "error_code": 0}]}, 0.01), {"api_key": 19}, [])


def test_another_shards_log_joins_shard_1s_as_if_it_had_seen_the_answers_itself():
    mine, theirs = TrafficLog(), TrafficLog()
    cell = ("P5", BASE, 19, 7)
    mine._findings[cell] = [_finding(i) for i in range(3)]
    theirs._findings[cell] = [_finding(i) for i in range(3, 6)]
    theirs._findings[("P6", BASE, 20, 6)] = [_finding(9)]
    mine._observed[(BASE, 19, 7)], theirs._observed[(BASE, 19, 7)] = 4, 6
    mine._codes[(BASE, 19, 7)], theirs._codes[(BASE, 19, 7)] = {0, 36}, {36, 41}
    theirs._codes[(BASE, 37, 3)] = {37}
    mine.merge(pickle.loads(pickle.dumps(theirs.state())))
    assert mine.observed(BASE, 19, 7) == 10
    assert mine.codes(BASE, 19, 7) == {0, 36, 41} and mine.codes(BASE, 37, 3) == {37}
    assert [f.seen_by for f in mine.findings(*cell)] == [f"T1 CreateTopics v{i}" for i in range(MAX_PER_CELL)]
    assert mine.findings(*cell)[3].answer.response == {"topics": [{"name": "t3", "error_code": 0}]}
    assert [f.seen_by for f in mine.findings("P6", BASE, 20, 6)] == ["T1 CreateTopics v9"]


def test_a_finding_pickle_refuses_is_left_out_not_the_log():
    log = TrafficLog()
    bad = _finding(1)
    bad.request = {"f": lambda: 0}
    log._findings[("P5", BASE, 19, 7)] = [bad, _finding(2)]
    state = pickle.loads(pickle.dumps(log.state()))
    assert [f.seen_by for f in state["findings"][("P5", BASE, 19, 7)]] == ["T1 CreateTopics v2"]


def test_shard_1_waits_for_every_other_shard_to_hand_over_or_exit(tmp_path):
    shards.hand_over(str(tmp_path), 2, {"codes": {1: {2}}})

    def later():
        time.sleep(0.5)
        shards.ended(str(tmp_path), 3)
    t = threading.Thread(target=later)
    t0 = time.monotonic()
    t.start()
    states, missing = shards.collect(str(tmp_path), 3, poll=0.05)
    t.join()
    assert time.monotonic() - t0 >= 0.45
    assert states == [{"codes": {1: {2}}}] and missing == [3]
    assert not list(tmp_path.glob("*.tmp"))
