"""The linearizability checker (fixtures/history, issue 58 item 2) on histories whose verdict
is known: each shape the suite must tell apart, the time bound's ``unknown``, the smallest
failing sub-history, the picture, and the history format's round trip. Pure and fast."""
from __future__ import annotations

import dataclasses
import random
from html.parser import HTMLParser

from fixtures.history import BINDINGS, ILLEGAL, OK, REGISTER, UNKNOWN, Operation, check, dumps, loads
from fixtures.history import generate, visual

K = ("config", "topic-a", "retention.ms")


def write(client, value, call, ret, indeterminate=False, key=K):
    return Operation(client, key, {"op": "write", "value": value}, None, call, None if indeterminate else ret,
                     indeterminate)


def read(client, value, call, ret, key=K):
    return Operation(client, key, {"op": "read"}, value, call, ret)


def test_a_linearizable_concurrent_history_passes():
    h = [write(0, "1", 0, 10), write(1, "2", 5, 15), read(2, "1", 6, 12),   # write 1 first, read it, then 2
         read(2, "2", 16, 20), write(0, "3", 18, 30), read(1, "3", 19, 25), read(1, "3", 31, 32)]
    result = check(REGISTER, h)
    assert result.verdict == OK, result.summary(REGISTER)
    assert result.minimal is None


def test_a_lost_update_is_illegal_with_the_operations_that_matter():
    """Two overlapping writes, both acknowledged; a later read shows neither (the value
    before them): illegal, and the smallest failing sub-history is the write of the value
    read, one of the two writes and the read (not the read alone: a read of a value no kept
    write wrote would fail for another reason, and hide the lost update)."""
    h = [write(0, "0", 0, 5), read(2, "0", 6, 7),
         write(0, "1", 10, 20), write(1, "2", 12, 22), read(2, "0", 30, 31), read(1, "0", 32, 33)]
    result = check(REGISTER, h)
    assert result.verdict == ILLEGAL
    assert result.failing_key == K and result.minimal_is_minimal and result.real_time
    assert len(result.minimal) == 3, result.summary(REGISTER)
    assert [op.input.get("value") for op in result.minimal][0] == "0" and result.minimal[-1].output == "0"
    assert result.minimal[1].input.get("value") in ("1", "2")
    # every operation left is needed: without the later write it is linearizable, without
    # the first one the read's value comes from nowhere
    assert check(REGISTER, [result.minimal[0], result.minimal[2]]).verdict == OK
    assert check(REGISTER, result.minimal[1:]).verdict == ILLEGAL
    assert not check(REGISTER, result.minimal[1:]).real_time
    assert "not linearizable" in result.summary(REGISTER) and "real-time order" in result.summary(REGISTER)


def test_an_indeterminate_write_that_took_effect_is_not_a_failure():
    h = [write(0, "1", 0, 10), read(1, "1", 11, 12), write(2, "2", 13, None, indeterminate=True),
         read(1, "2", 40, 41), read(0, "2", 42, 43)]
    assert check(REGISTER, h).verdict == OK
    # the same history with the write acknowledged is ok too; with it absent, the read is illegal
    assert check(REGISTER, [h[0], h[1], h[3]]).verdict == ILLEGAL


def test_an_indeterminate_write_that_never_took_effect_is_fine_too():
    h = [write(0, "1", 0, 10), write(2, "2", 13, None, indeterminate=True), read(1, "1", 40, 41),
         read(0, "1", 42, 43)]
    assert check(REGISTER, h).verdict == OK


def test_an_indeterminate_write_takes_effect_only_after_its_call():
    h = [write(0, "1", 0, 10), read(1, "2", 11, 12), write(2, "2", 13, None, indeterminate=True)]
    assert check(REGISTER, h).verdict == ILLEGAL


def test_a_stale_read_after_an_acknowledged_write_is_illegal():
    h = [write(0, "1", 0, 10), write(0, "2", 11, 20), read(1, "1", 21, 30)]
    result = check(REGISTER, h)
    assert result.verdict == ILLEGAL
    assert [op.input for op in result.minimal] == [{"op": "write", "value": "1"}, {"op": "write", "value": "2"},
                                                   {"op": "read"}]
    # concurrent with the second write, the same read is fine
    assert check(REGISTER, [h[0], h[1], read(1, "1", 15, 30)]).verdict == OK


def test_partitions_are_checked_on_their_own_and_the_failing_key_is_named():
    other = ("quota", "user=alice", "producer_byte_rate")
    h = [write(0, 1, 0, 10, key=other), read(1, 1, 11, 12, key=other),
         write(0, "1", 0, 10), read(1, None, 11, 12)]
    result = check(REGISTER, h)
    assert result.verdict == ILLEGAL and result.failing_key == K
    assert sorted(map(repr, (p.key for p in result.partitions))) == sorted(map(repr, (K, other)))


def _pathological(n: int) -> list[Operation]:
    """n concurrent writes of distinct values, then a read of a value none wrote: illegal,
    but only after the search has tried the orders of the writes (2^n sets of them)."""
    return [write(i % 6, i, 0, 100) for i in range(n)] + [read(0, -1, 200, 201)]


def test_the_time_bound_gives_unknown_never_a_silent_pass():
    result = check(REGISTER, _pathological(40), timeout_s=0.05)
    assert result.verdict == UNKNOWN, result.summary(REGISTER)
    assert result.unknown_keys == [K] and result.minimal is None
    assert result.elapsed_s < 2
    assert check(REGISTER, _pathological(8), timeout_s=10).verdict == ILLEGAL


def test_an_illegal_partition_wins_over_an_unknown_one():
    other = ("config", "topic-b", "x")
    h = _pathological(40) + [write(0, "1", 0, 10, key=other), read(1, None, 11, 12, key=other)]
    result = check(REGISTER, h, timeout_s=0.2)
    assert result.verdict == ILLEGAL and result.failing_key == other


def test_the_bindings_model():
    k = ("acl", "topic", "t")
    a, b = {"principal": "User:a"}, {"principal": "User:b"}
    add = lambda c, x, s, e: Operation(c, k, {"op": "add", "binding": x}, None, s, e)
    rm = lambda c, x, s, e, out=None: Operation(c, k, {"op": "remove", "binding": x}, out, s, e)
    rd = lambda c, out, s, e: Operation(c, k, {"op": "read"}, out, s, e)
    ok = [add(0, a, 0, 10), add(1, b, 5, 15), rd(2, [b], 6, 12), rd(2, [b, a], 16, 17), rm(0, a, 18, 20, [a]),
          rd(1, [b], 21, 22)]
    assert check(BINDINGS, ok).verdict == OK
    assert check(BINDINGS, ok[:-1] + [rd(1, [a, b], 21, 22)]).verdict == ILLEGAL      # a removed, still read
    assert check(BINDINGS, ok[:4] + [rm(0, a, 18, 20, [])]).verdict == ILLEGAL        # removed nothing, a was there
    assert check(BINDINGS, ok[:4] + [rd(1, [a, a, b], 21, 22)]).verdict == ILLEGAL    # a binding twice


def test_a_refused_write_has_no_effect():
    refused = Operation(1, K, {"op": "write", "value": "2"}, {"error": "INVALID_CONFIG"}, 11, 12)
    assert check(REGISTER, [write(0, "1", 0, 10), refused, read(2, "1", 13, 14)]).verdict == OK
    assert check(REGISTER, [write(0, "1", 0, 10), refused, read(2, "2", 13, 14)]).verdict == ILLEGAL


def test_generated_histories_are_linearizable_and_one_corrupted_read_is_found():
    rng = random.Random(58)
    found = 0
    for n in range(40):
        h = generate.linearizable(rng, 60, n_keys=2, n_clients=4, indeterminate=0.1)
        assert check(REGISTER, h).verdict == OK
        reads = [i for i, op in enumerate(h) if op.input["op"] == "read"]
        i = rng.choice(reads)
        h[i] = dataclasses.replace(h[i], output=99)                       # a value no write wrote
        result = check(REGISTER, h, shrink_s=None if n < 3 else 0)         # shrink the first three only
        found += result.verdict == ILLEGAL
        if n < 3:
            assert result.minimal == [h[i]] and not result.real_time, result.summary(REGISTER)
    assert found == 40


def test_the_history_format_round_trips():
    h = [write(0, {"a": [1, 2]}, 0, 10), write(1, "x", 3, None, indeterminate=True),
         dataclasses.replace(read(2, None, 11, 12), meta={"api": "DescribeConfigs", "version": 4})]
    back = loads(dumps(h, run="r1"))
    assert back == h and back[2].meta == {"api": "DescribeConfigs", "version": 4}
    assert isinstance(back[0].key, tuple) and back[1].ret is None and back[1].indeterminate


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.tags, self.attrs = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [v or "" for _, v in attrs]

    def handle_data(self, data):
        self.text.append(data)


def test_the_picture_is_self_contained_and_names_every_operation(tmp_path):
    h = [write(0, "0", 0, 5), write(0, "1", 10, 20), write(1, "2", 12, 22), write(3, "3", 14, 16, indeterminate=True),
         read(2, "0", 30, 31), read(1, "0", 32, 33)]
    result = check(REGISTER, h)
    assert result.verdict == ILLEGAL
    path = visual.write(str(tmp_path / "finding.html"), visual.render(REGISTER, h, [0, 3], None, "the lost update"))
    doc = open(path, encoding="utf-8").read()
    parser = _Text()
    parser.feed(doc)
    parser.close()
    text = " ".join(parser.text)
    for i, op in enumerate(h):
        assert f"[{i}] {REGISTER.describe_operation(op.input, op.output if not op.indeterminate else visual.INDETERMINATE)}" in text
    assert "(indeterminate)" in text and "stroke-dasharray" in doc and "polyline" in parser.tags
    assert not [a for a in parser.attrs if a.startswith(("http:", "https:", "//"))
                and not a.startswith("http://www.w3.org/2000/svg")]
    assert "script" not in parser.tags and "link" not in parser.tags
    minimal = visual.render_result(REGISTER, result)
    assert minimal.count("<g><title>") == len(result.minimal)
