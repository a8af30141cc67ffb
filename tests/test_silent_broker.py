"""The suite against a broker that never answers (issue 14: no cell over a minute, also
against a broker that never answers).

``proxy:mute@tansu`` answers ApiVersions, so the suite starts, and swallows every other
request with the connection left open (``faults/mutants/protocol.py``). A check that sent
a request the broker never answered must end after about one request timeout: hypothesis
does not re-send the silent example while shrinking (``fixtures/check/runner.py``), a check that
runs several ``given`` (C4) does not send again, and a request a check sends without
``Client.answered`` (D1's DeleteTopics, P3's above-max version) counts as unanswered too.
Each cell below took several timeouts before that (C4 ten, P3 twelve, D1 three).

The suite runs as users run it (``pytest conformance ...`` in a subprocess) with a 2 s
request timeout; each row's ``duration_s`` is held to ``4 * timeout + 10 s``.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from faults.mutants import all_mutants
from faults.proxy import Proxy
from fixtures.results import read_rows
from fixtures.brokers import TargetError, make_target
from protocol import codec, requests, wire
from protocol.apis import ApiKey

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 2.0
#: a silent check: one request timeout, plus set-up, the broker liveness probe after a
#: timeout (ApiVersions, answered) and the row's bookkeeping; several timeouts in a row fail it
BOUND_S = 4 * TIMEOUT_S + 10.0

#: cells whose check waited more than one timeout before, and one of each way of sending
CELLS = " or ".join([
    "(test_c4 and IncrementalAlterConfigs-v0-value-out-of-range)",   # one given per bound
    "(test_d1 and DeleteTopics-v6)",                         # its own send, not answered()
    "(test_p3_version_above and CreateTopics)",              # send_at_header_version, shrunk
    "(test_p1_every_advertised and Metadata-v12)",           # answered()
    "(test_s1 and CreateTopics)",                            # the stateful machine
    "(test_r1 and DeleteRecords-v2)",                        # set-up: create + produce
    "(test_v1 and CreateTopics-v7)",
])


def _through(tansu, arg=None):
    proxy = Proxy(tansu.host, tansu.port, all_mutants()["mute"](arg=arg))
    return proxy, wire.Connection(*proxy.start(), timeout=0.5)


def test_mute_answers_apiversions_and_holds_everything_else_with_the_connection_open(tansu):
    proxy, conn = _through(tansu)
    raw = socket.create_connection(proxy.address, timeout=0.5)
    try:
        assert conn.api_versions().ok
        assert conn.send(ApiKey.Metadata, 1, requests.metadata(1, [])).status == "timeout"
        raw.sendall(codec.encode_request(ApiKey.CreateTopics, 4, requests.create_topics(4, []), 1, "t"))
        with pytest.raises(socket.timeout):     # no answer, and not closed (recv would say b"")
            raw.recv(1)
        assert conn.api_versions().ok           # a new connection: the handshake still answers
        assert proxy.requests == 4
    finally:
        raw.close()
        conn.close()
        proxy.stop()


def test_mute_with_names_holds_only_those_apis(tansu):
    proxy, conn = _through(tansu, "CreateTopics,DeleteTopics")
    try:
        assert conn.send(ApiKey.Metadata, 1, requests.metadata(1, [])).ok
        ex = conn.send(ApiKey.DeleteTopics, 1, requests.delete_topics(1, ["kac-mute-nothing"]))
        assert ex.status == "timeout", ex
    finally:
        conn.close()
        proxy.stop()


@pytest.mark.parametrize("arg,says", [("Nonsense", "'Nonsense' is no API name"),
                                      ("ApiVersions", "never muted"), ("", "names no API")])
def test_a_bad_mute_argument_is_one_line(arg, says):
    with pytest.raises(TargetError) as e:
        make_target(f"proxy:mute={arg}@tansu")
    assert says in str(e.value) and "\n" not in str(e.value)


def test_every_check_ends_after_about_one_request_timeout(tmp_path):
    cmd = [sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
           "--broker", "proxy:mute@tansu", "--profile", "ci", "--seed", "7",
           "--request-timeout", f"{TIMEOUT_S:g}", "--results-dir", str(tmp_path / "results"), "-k", CELLS]
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last-run"), PYTHONPATH=str(ROOT))
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    rows = read_rows(Path((tmp_path / "last-run").read_text().strip()) / "results.jsonl")
    # every cell is one tansu advertises: a broker that never answers lacks no feature, so no
    # row may be unsupported (or skipped) for it (issue 55)
    assert len(rows) >= 7, [(r["property"], r["api_name"], r["outcome"], r["message"]) for r in rows]
    assert {r["property"] for r in rows} >= {"C4", "D1", "P3", "P1", "S1", "R1", "V1"}, rows
    for r in rows:
        cell = f"{r['property']} {r['api_name']} v{r['api_version']}"
        assert r["outcome"] in ("fail", "error"), f"{cell}: {r['outcome']} against a broker that never answers"
        assert "no answer within" in r["message"], f"{cell}: {r['message'][:300]}"
        assert r["duration_s"] <= BOUND_S, (f"{cell} took {r['duration_s']:.1f} s against a silent broker, over "
                                            f"{BOUND_S:.0f} s (4 x the {TIMEOUT_S:g} s request timeout + 10 s)")
