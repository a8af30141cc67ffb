"""``preset=acl`` on Apache Kafka (fixtures/acl.py, protocol/wire.py's SASL/PLAIN) and A2
over it, against the newest release.

* the wire client authenticates as the registered principal, is refused (one line, no
  exception) with a wrong password or an unknown principal, and the broker answers the
  restricted principal as Kafka's authorizer does;
* A2 on ``kafka:NEWEST,preset=acl`` has a row for every advertised version of each API it
  covers, and every such row passes; on a broker without the profile every A2 row is
  ``unsupported`` saying which profile it needs.
"""
from __future__ import annotations

import json
import subprocess

import pytest

from fixtures import acl
from fixtures.results import read_rows
from fixtures.brokers import make_target
from protocol import ApiKey, Errors, requests, wire
from protocol.codec import APIS

from conformance.test_authorization import APIS as A2_APIS
from tests.test_kafka_target import KAFKA, ROOT, last_run, leftovers, suite

SPEC = f"{KAFKA},preset=acl"


@pytest.fixture(scope="module")
def broker():
    target = make_target(SPEC)
    info = target.start()
    try:
        yield info
    finally:
        target.stop()
    assert (info.host, info.port) not in wire._CREDENTIALS, "a stopped target leaves its credentials registered"


def test_connections_authenticate_as_the_registered_principals(broker):
    addr = (broker.host, broker.port)
    with wire.Connection(*addr) as admin:                     # the default: the super user
        ex = admin.send(ApiKey.CreateTopics, 7, requests.create_topics(7, [requests.topic("acl-probe")]))
        assert ex.ok and ex.response["topics"][0]["error_code"] == Errors.NONE, ex.describe()
    with wire.Connection(*addr, principal=acl.RESTRICTED) as restricted:
        ex = restricted.send(ApiKey.Metadata, 12, requests.metadata(12, ["acl-probe"]))
        assert ex.ok and [t["error_code"] for t in ex.response["topics"]] == [Errors.TOPIC_AUTHORIZATION_FAILED]
        ex = restricted.send(ApiKey.Metadata, 12, requests.metadata(12, None))
        assert ex.ok and ex.response["topics"] == [], "the restricted principal sees a topic it may not describe"


def test_a_refused_login_is_an_unauthenticated_exchange_not_an_exception(broker):
    addr = (broker.host, broker.port)
    ex = wire.Connection(*addr, principal="nobody").send(ApiKey.Metadata, 1, requests.metadata(1, None))
    assert ex.status == "unauthenticated" and "no principal 'nobody'" in ex.detail
    saved = wire._CREDENTIALS[addr]
    try:
        wire.register_credentials(addr, {"super": (acl.USERS["super"][0], "wrong")}, default="super")
        ex = wire.Connection(*addr).send(ApiKey.Metadata, 1, requests.metadata(1, None))
        assert ex.status == "unauthenticated" and "Invalid username or password" in ex.detail, ex.describe()
    finally:
        wire._CREDENTIALS[addr] = saved
    with pytest.raises(wire.AuthenticationFailed, match="not started with SASL"):
        wire.credentials_for(("127.0.0.1", 9), "restricted")   # a principal where no broker speaks SASL


def test_a2_on_kafka_with_the_acl_profile_has_a_passing_row_per_advertised_version(tmp_path):
    cmd, env = suite(tmp_path, "--broker", SPEC, "--property", "A2")
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    run = last_run(tmp_path)
    rows = read_rows(run / "results.jsonl")
    manifest = json.loads((run / "manifest.json").read_text())
    advertised = {int(k): tuple(v) for k, v in manifest["brokers"][0]["api_versions"].items()}
    by_cell = {(r["api_key"], r["api_version"]): r for r in rows if r["property"] == "A2"}
    missing, not_passing = [], []
    for api in A2_APIS:
        lo, hi = advertised[api]
        for v in range(lo, min(hi, APIS[api].max_version) + 1):
            row = by_cell.get((api, v))
            if row is None:
                missing.append(f"{APIS[api].name} v{v}")
            elif row["outcome"] != "pass":
                not_passing.append(f"{APIS[api].name} v{v}: {row['outcome']} {row.get('message')}")
    assert not missing, f"no A2 row for {missing}"
    assert not not_passing, "\n".join(not_passing)
    assert not leftovers(tmp_path)


def test_a2_is_unsupported_on_a_broker_without_the_profile(tmp_path):
    cmd, env = suite(tmp_path, "--broker", "tansu", "--property", "A2")
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    rows = [r for r in read_rows(last_run(tmp_path) / "results.jsonl") if r["property"] == "A2"]
    assert rows and {r["outcome"] for r in rows} == {"unsupported"}, {r["outcome"] for r in rows}
    advertised = [r for r in rows if "not advertise" not in r["message"] and "advertises" not in r["message"]]
    assert advertised and all("kafka:VERSION,preset=acl" in r["message"] for r in advertised), advertised[:2]
