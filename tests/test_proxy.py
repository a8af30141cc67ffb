"""The fault-injecting proxy and the mutation score, against real brokers.

* the transparent proxy (``proxy:none``) is the broker: byte-identical answers, the same
  P1/P2 outcomes as talking to the broker directly;
* connection faults and mutant hooks do what they say;
* every registered mutant (``faults.mutants.all_mutants()``, so the families' mutants
  too) is killed by the properties it names, within the ci profile: this is the project's
  requirement that every property can fail. A mutant runs over noida unless its ``over``
  attribute names another broker.
"""
from __future__ import annotations

import json
import os
import socket
import struct
import subprocess
import sys
from argparse import Namespace
from collections import defaultdict
from pathlib import Path

import pytest

from protocol import codec, requests, schema_facts, wire
from protocol.apis import ApiKey
from faults import mutation
from faults.mutants import Frame, Mutant, all_mutants
from faults.proxy import Proxy
from fixtures.results import read_rows
from fixtures.brokers import TargetError, make_target

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def proxied(tansu):
    """``proxied(mutant)`` -> a wire.Connection through a proxy applying it."""
    started, conns = [], []

    def make(m: Mutant, timeout=5.0):
        p = Proxy(tansu.host, tansu.port, m)
        started.append(p)
        conn = wire.Connection(*p.start(), timeout=timeout)
        conns.append(conn)
        return conn
    yield make
    for c in conns:
        c.close()
    for p in started:
        p.stop()


def raw_roundtrip(address, frame: bytes) -> bytes:
    with socket.create_connection(address, timeout=5) as s:
        s.sendall(frame)
        size = struct.unpack(">i", _recv(s, 4))[0]
        return _recv(s, size)


def _recv(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        assert chunk, "connection closed"
        buf += chunk
    return buf


# -- the transparent proxy --------------------------------------------------------------
def test_the_transparent_proxy_answers_byte_for_byte_as_the_broker(tansu):
    p = Proxy(tansu.host, tansu.port, all_mutants()["none"]())
    address = p.start()
    try:
        named = [schema_facts.has_field(ApiKey.ApiVersions, v, "client_software_name") for v in range(4)]
        frames = [codec.encode_request(ApiKey.ApiVersions, v, {"client_software_name": "x",
                                                               "client_software_version": "1"}
                                       if named[v] else {}, 7) for v in range(4)]
        frames.append(codec.encode_request(ApiKey.Metadata, 1, requests.metadata(1, []), 8))
        # FindCoordinator v0: an API the codec does not know passes through raw
        frames.append(_frame(struct.pack(">hhih", ApiKey.FindCoordinator, 0, 9, 1) + b"x"
                             + struct.pack(">h", 1) + b"g"))
        for frame in frames:
            assert raw_roundtrip(address, frame) == raw_roundtrip((tansu.host, tansu.port), frame)
    finally:
        p.stop()


def _frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


class Identity(Mutant):
    """Hands back every request and answer as a new dict: the proxy re-encodes both."""
    name = "identity"

    def request(self, seen):
        return dict(seen.request)

    def response(self, seen, body):
        return dict(body)


def test_re_encoding_a_decoded_answer_keeps_it_the_same(tansu, proxied):
    """Byte for byte, except that tansu writes ApiVersions v3's tagged fields at their
    default values, which the codec (like Kafka) leaves out: the same answer."""
    conn = proxied(Identity())
    direct = wire.Connection(tansu.host, tansu.port)
    try:
        for v in range(4):
            assert conn.api_versions(v).response == direct.api_versions(v).response
            if not schema_facts.flexible(ApiKey.ApiVersions, v):      # no tagged fields to differ in
                assert conn.api_versions(v).raw == direct.api_versions(v).raw
        for v in (1, 4, 9, 12):
            body = requests.metadata(v)
            assert conn.send(ApiKey.Metadata, v, body).raw == direct.send(ApiKey.Metadata, v, body).raw
    finally:
        direct.close()


def test_transparent_proxy_gives_the_same_p1_p2_outcomes_as_direct(tmp_path):
    """Outcomes are compared, so failures are not shrunk (``--shrink-seconds 0``): tansu's
    P1 and P2 findings shrinking were half of the run's time."""
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last"))
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance/test_protocol.py", "-q",
                           "-p", "no:cacheprovider", "--results-dir", str(tmp_path), "--profile", "ci",
                           "--seed", "11", "--property", "P1,P2", "--broker", "tansu",
                           "--broker", "proxy:none@tansu", "--shrink-seconds", "0"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]
    run = Path((tmp_path / "last").read_text().strip())
    cells = defaultdict(dict)
    for r in read_rows(run / "results.jsonl"):
        cells[(r["property"], r["api_key"], r["api_version"])][r["broker"]] = r["outcome"]
    assert len(cells) > 50
    differ = {c: o for c, o in cells.items() if o.get("tansu") != o.get("proxy:none@tansu")}
    assert not differ, differ
    brokers = json.loads((run / "manifest.json").read_text())["brokers"]
    assert brokers[0]["impl"] == brokers[1]["impl"] == "tansu"
    assert brokers[0]["version"] == brokers[1]["version"]


# -- faults and hooks ----------------------------------------------------------------------
def test_conn_drop_closes_on_the_nth_request_only(proxied):
    conn = proxied(all_mutants()["conn-drop"](arg="2"))
    statuses = [conn.send(ApiKey.Metadata, 1, requests.metadata(1, [])).status for _ in range(4)]
    assert statuses == ["ok", "closed", "ok", "ok"]


def test_conn_truncate_sends_part_of_a_frame_and_closes(proxied):
    conn = proxied(all_mutants()["conn-truncate"](arg="1"))
    ex = conn.send(ApiKey.Metadata, 1, requests.metadata(1, []))
    assert ex.status == "closed" and "after" in ex.detail and "bytes" in ex.detail, ex


def test_conn_delay_holds_the_answer_back(proxied):
    conn = proxied(all_mutants()["conn-delay"](arg="800,1"), timeout=0.3)
    ex = conn.send(ApiKey.Metadata, 1, requests.metadata(1, []))
    assert ex.status == "timeout", ex


def test_a_reply_and_a_raw_frame_answer_without_the_broker(proxied):
    from faults.mutants import Reply

    class Answers(Mutant):
        name = "answers"
        apis = (ApiKey.Metadata,)

        def request(self, seen):
            empty = {"brokers": [], "topics": []}
            if seen.api_version == 1:
                return Reply(empty)
            return Frame(codec.encode_response(ApiKey.Metadata, seen.api_version, empty, seen.correlation_id)[4:])
    conn = proxied(Answers())
    for v in (1, 4):
        ex = conn.send(ApiKey.Metadata, v, requests.metadata(v, []))
        assert ex.ok and ex.response["brokers"] == [] and ex.response_correlation_id == ex.correlation_id


def test_a_mutant_that_raises_changes_nothing_and_is_reported(tansu):
    class Broken(Mutant):
        name = "broken"

        def response(self, seen, body):
            raise RuntimeError("mutant bug")
    p = Proxy(tansu.host, tansu.port, Broken())
    conn = wire.Connection(*p.start())
    try:
        assert conn.send(ApiKey.Metadata, 1, requests.metadata(1, [])).ok
        assert p.errors and "mutant bug" in p.errors[0]
    finally:
        conn.close()
        p.stop()


def test_the_side_channel_reaches_the_real_broker(proxied):
    seen = {}

    class Asks(Mutant):
        name = "asks"
        apis = (ApiKey.Metadata,)

        def request(self, s):
            seen["ranges"] = self.upstream(ApiKey.ApiVersions, 0, {})["api_keys"]
    proxied(Asks()).send(ApiKey.Metadata, 1, requests.metadata(1, []))
    assert any(a["api_key"] == ApiKey.CreateTopics for a in seen["ranges"])


def test_an_unknown_mutant_is_one_line_naming_the_known_ones():
    with pytest.raises(TargetError) as e:
        make_target("proxy:no-such-mutant@tansu")
    assert "unknown mutant 'no-such-mutant'" in str(e.value) and "none" in str(e.value)
    assert "\n" not in str(e.value)
    with pytest.raises(TargetError):
        make_target("proxy:none@nonsense")


def test_the_proxy_target_delegates_kill_and_alive():
    target = make_target("proxy:none@tansu")
    info = target.start()
    try:
        assert (info.impl, info.version) == (target.inner.info.impl, target.inner.info.version)
        assert info.impl == "tansu" and target.alive()
        assert wire.probe(info.host, info.port)
        target.kill()
        assert not target.alive() and not wire.probe(info.host, info.port, timeout=2)
    finally:
        target.stop()
    assert not target.proxy.alive()


# -- every mutant is killed ----------------------------------------------------------------
def _scored_by_a_family_test() -> set[str]:
    """Mutants a family's can-fail test (``tests/test_*_can_fail.py`` with a ``MUTANTS``)
    already scores, per test, against its own baseline: scoring them here again doubled CI's
    longest test (issue 29, item 4). Found by listing the modules, so a new family's test
    takes its mutants out of here by being written (the groups' three were scored twice,
    over a Kafka node each, while a hand-kept list here lacked them)."""
    import importlib
    names = set()
    for f in sorted(Path(__file__).parent.glob("test_*_can_fail.py")):
        names |= set(getattr(importlib.import_module(f"tests.{f.stem}"), "MUTANTS", {}))
    return names


MUTANTS = [n for n in mutation.scored_mutants() if n not in _scored_by_a_family_test()]
JOBS = int(os.environ.get("KAC_MUTATION_JOBS", "3"))   # runs wait on brokers more than on CPU


@pytest.fixture(scope="module")
def scores(request):
    """Score the selected mutants once, a few pytest runs at a time."""
    wanted = [i.callspec.params["name"] for i in request.session.items
              if i.originalname == "test_every_mutant_is_killed_by_its_property"]
    args = Namespace(profile="ci", seed=mutation.DEFAULT_SEED, keep=None, timeout=900.0, broker=None, replay=True)
    return {s.mutant: s for s in mutation.score_all(wanted, args, JOBS)}


def test_every_mutant_is_scored_here_or_by_its_familys_test():
    """No mutant is left unscored: each is here or in a family's can-fail test, never both."""
    family = _scored_by_a_family_test()
    assert set(MUTANTS) | family == set(mutation.scored_mutants())
    assert not set(MUTANTS) & family
    assert len(family) >= 20, sorted(family)       # the family tests were found, not an empty set


#: Mutants whose killing row's exported repro.py does not yet give the row's verdict (measured
#: 2026-11-25, 14 of 65; 2026-11-26 every one replays: the P1 framing and P2 set-up ones, the
#: A2 ones (repro.py signs in) and the P5 ones (the drain reaches the quota), docs/repro.md):
#: a mutant listed here is a gap of the reproducer, not of the property, and stays listed only
#: while it is one (a listed mutant that replays fails the test below).
REPLAY_GAPS: dict[str, str] = {
}


def test_every_replay_gap_is_a_scored_mutant():
    assert set(REPLAY_GAPS) <= set(MUTANTS), set(REPLAY_GAPS) - set(MUTANTS)


@pytest.mark.parametrize("name", MUTANTS)
def test_every_mutant_is_killed_by_its_property(scores, name):
    """Killed by a real property failure, and that failing row, exported as a standalone
    repro.py, gives the same verdict against a fresh broker under the mutant (the judge the
    row and the reproducer share: issue 25, item 1)."""
    s = scores[name]
    assert s.killed, f"{name} ({all_mutants()[name].describe()}) survived over {s.broker}: {s.detail}"
    if name in REPLAY_GAPS:
        assert not s.replay_agrees, f"{name} now replays: take it out of REPLAY_GAPS"
        pytest.xfail(f"replay gap: {REPLAY_GAPS[name]}")
    assert s.replay_agrees, f"{name}: the killing row ({s.property} {s.cell}) exported as repro.py gave " \
                            f"another verdict against a fresh {s.broker} under the mutant: {s.replay}"
