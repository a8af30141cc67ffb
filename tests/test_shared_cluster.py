"""The suite on a cluster it did not start (``bootstrap:HOST:PORT``), against real brokers.

A tansu broker started here plays someone's staging cluster: it holds topics of its own
with records in them. The suite runs against it through the recording proxy
(:mod:`faults.proxy`), which decodes every request on the wire, so the test sees what
was *sent*, not what the suite meant to send. The names are read off the decoded requests
by a walk of their own here (not :mod:`fixtures.scope`, whose rules are under test).

* no request names a topic (nor a group, a transactional id, a user, a principal, a quota
  entity, a coordinator key) outside the run prefix, with or without --allow-destructive;
* without --allow-destructive nothing that creates, deletes or alters goes out (nor a
  Metadata request that may auto-create), and no topic of the run exists afterwards;
* with it, every topic, group, SCRAM user and ACL the run made is gone at the end
  (``--cleanup`` for a killed run);
* the cluster's own topics keep every record, byte for byte.

A Kafka broker plays a second cluster, for what tansu does not serve (issue 28): the families
that make groups with members, transactions, reassignments and delegation tokens run against
it with --allow-destructive, and none of these is left, while the cluster's own group offsets,
transactions (one still open), replicas and records stay as they were; ``--cleanup`` aborts a
killed run's open transaction and no one else's.
"""
from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from kafka.record.memory_records import MemoryRecordsBuilder

from protocol import AlterConfigOp, ConfigResourceType, ConfigSource, OffsetSpec, apis, codec, requests, schema_facts, wire
from protocol.apis import ApiKey
from protocol.errors import Errors
from faults.mutants.mutant import Mutant
from faults.proxy import Proxy
from fixtures.admin import Admin
from fixtures import leftovers
from fixtures.results import read_rows
from fixtures.brokers import make_target
from fixtures.waiting import eventually

ROOT = Path(__file__).resolve().parents[1]
#: The cluster's own topics (the empty name is created too where the broker accepts it,
#: as the issue's tansu did: an empty-named topic is still not the suite's).
PRECIOUS = {"precious": 2, "other.data": 1, "kac-notours": 1}
RECORDS = 10
#: Requests that change something.
CHANGING = set(apis.keys(mutating=True))


# -- the recording proxy -------------------------------------------------------------------
#: Fields naming a topic, a group, a transactional id, a user, a principal ("User:name"), a
#: quota entity or a coordinator key, and fields holding lists of such names.
NAME_FIELDS = {"name", "topic", "topic_name", "group_id", "transactional_id", "principal", "principal_filter",
               "principal_name", "owner_principal_name", "resource_name", "resource_name_filter", "entity_name", "match",
               "key"}
NAME_LISTS = {"topic_names", "groups_names", "group_ids", "transactional_ids", "coordinator_keys"}


def names_in(body) -> list:
    """Every name a decoded request body carries (``NAME_FIELDS``, ``NAME_LISTS``, DescribeGroups'
    list of group ids; config entries' and JoinGroup's assignors' ``name`` excluded), and the ``resource_name`` of a
    config resource of type TOPIC. A principal is given by its name (after ``Type:``)."""
    out = []

    def add(key, x):
        if x is None:
            return
        out.append(x.partition(":")[2] if key.startswith("principal") and ":" in str(x) else x)

    def walk(v):
        if isinstance(v, dict):
            if "resource_type" in v and "resource_name" in v and "principal" not in v:
                if v["resource_type"] == ConfigResourceType.TOPIC:
                    out.append(v["resource_name"])
                return
            for k, x in v.items():
                if k in ("configs", "ops", "listeners", "protocols"):
                    continue        # (JoinGroup's protocols name assignors: "range", not a resource)
                if k in NAME_FIELDS and not isinstance(x, (dict, list)):
                    add(k, x)
                elif k in NAME_LISTS or (k == "groups" and x and all(isinstance(g, str) for g in x)):
                    for n in x or []:
                        add(k, n)
                else:
                    walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(body)
    return out


class Recorder(Mutant):
    """Changes nothing; keeps (api_key, version, body) of every request it sees."""
    name = "recorder"

    def __init__(self, **kw):
        super().__init__(**kw)
        self.seen: list[tuple[int, int, dict | None]] = []
        self.lock = threading.Lock()

    def request(self, seen):
        with self.lock:
            self.seen.append((seen.api_key, seen.api_version, seen.request))

    def raw_request(self, seen, payload):
        # a version above the schemas' (P3): the body is encoded at a lower version
        body = None
        for v in range(codec.APIS[seen.api_key].max_version, -1, -1):
            patched = bytearray(payload)
            struct.pack_into(">h", patched, 2, v)
            try:
                body = codec.decode_request(bytes(patched))[1]
                break
            except Exception:
                continue
        with self.lock:
            self.seen.append((seen.api_key, seen.api_version, body))


# -- the cluster's own data ----------------------------------------------------------------
def _records(topic: str, partition: int) -> bytes:
    b = MemoryRecordsBuilder(magic=2, compression_type=0, batch_size=1 << 20)
    for i in range(RECORDS):
        b.append(1_700_000_000_000 + i, f"k{i}".encode(), f"{topic}/{partition}/record-{i}".encode())
    b.close()
    return b.buffer()


def _produce_code(resp: dict) -> int:
    return resp["responses"][0]["partition_responses"][0]["error_code"]


def seed(address) -> None:
    conn = wire.Connection(*address)
    try:
        r = conn.send(ApiKey.CreateTopics, 4, requests.create_topics(
            4, [requests.topic(n, p) for n, p in PRECIOUS.items()], timeout_ms=10000)).response
        assert all(t["error_code"] == Errors.NONE for t in r["topics"]), r

        def produce(name, p):
            return conn.send(ApiKey.Produce, 8, {"transactional_id": None, "acks": -1, "timeout_ms": 10000,
                                                 "topic_data": [{"name": name, "partition_data": [
                                                     {"index": p, "records": _records(name, p)}]}]}).response

        for name, parts in PRECIOUS.items():
            for p in range(parts):
                _, resp = eventually(lambda: produce(name, p), lambda resp: _produce_code(resp) not in Admin.NOT_READY,
                                     within=10.0, every=0.1)
                assert _produce_code(resp) == Errors.NONE, (name, p, resp)
    finally:
        conn.close()


def snapshot(address) -> dict:
    """Every topic outside the ``kac-`` run prefixes: partitions, offsets and the bytes
    a fetch from the log start returns."""
    conn = wire.Connection(*address)
    try:
        topics = conn.send(ApiKey.Metadata, 4, requests.metadata(4)).response["topics"]
        out = {}
        for t in sorted(topics, key=lambda t: t["name"]):
            name = t["name"]
            if name.startswith("kac-") and name not in PRECIOUS:
                continue
            parts = {}
            for p in sorted(x["partition_index"] for x in t["partitions"]):
                offs = []
                for ts in (OffsetSpec.EARLIEST, OffsetSpec.LATEST):
                    r = conn.send(ApiKey.ListOffsets, 1, {"replica_id": -1, "topics": [{"name": name, "partitions": [
                        {"partition_index": p, "timestamp": ts}]}]}).response
                    offs.append(r["topics"][0]["partitions"][0]["offset"])
                f = conn.send(ApiKey.Fetch, 4, {
                    "replica_id": -1, "max_wait_ms": 300, "min_bytes": 1, "max_bytes": 1 << 20,
                    "isolation_level": 0, "topics": [{"topic": name, "partitions": [
                        {"partition": p, "fetch_offset": offs[0], "partition_max_bytes": 1 << 20}]}]}).response
                fp = [x for t in f["responses"] for x in t["partitions"]] or [{}]
                parts[p] = (tuple(offs), fp[0].get("error_code"), fp[0].get("high_watermark"),
                            bytes(fp[0].get("records") or b""))
            out[name] = parts
        return out
    finally:
        conn.close()


def run_leftovers(address) -> dict:
    """The run-prefixed groups, SCRAM users and ACL principals the cluster still holds (asked
    the ways it serves)."""
    conn = wire.Connection(*address)
    try:
        ranges = wire.advertised_ranges(conn.api_versions(0))
        out = {}
        if ApiKey.ListGroups in ranges:
            v = min(ranges[ApiKey.ListGroups][1], codec.APIS[ApiKey.ListGroups].max_version)
            groups = conn.send(ApiKey.ListGroups, v, requests.list_groups(v)).response or {}
            out["groups"] = sorted(g["group_id"] for g in groups.get("groups") or [] if g["group_id"].startswith("kac-"))
        if ApiKey.DescribeUserScramCredentials in ranges:
            users = conn.send(ApiKey.DescribeUserScramCredentials, 0, requests.describe_scram_credentials(0)).response or {}
            out["scram users"] = sorted(r["user"] for r in users.get("results") or [] if (r["user"] or "").startswith("kac-"))
        if ApiKey.DescribeAcls in ranges:
            v = min(ranges[ApiKey.DescribeAcls][1], codec.APIS[ApiKey.DescribeAcls].max_version)
            acls = conn.send(ApiKey.DescribeAcls, v, requests.describe_all_acls(v)).response or {}
            out["acls"] = sorted(a["principal"] for r in acls.get("resources") or [] for a in r.get("acls") or []
                                 if ":kac-" in a["principal"] or r["resource_name"].startswith("kac-"))
        return {k: v for k, v in out.items() if v}
    finally:
        conn.close()


def run_topics(address) -> list[str]:
    conn = wire.Connection(*address)
    try:
        topics = conn.send(ApiKey.Metadata, 4, requests.metadata(4)).response["topics"]
        return sorted(t["name"] for t in topics if t["name"].startswith("kac-") and t["name"] not in PRECIOUS)
    finally:
        conn.close()


@pytest.fixture(scope="module")
def cluster():
    """Someone's cluster: a tansu holding topics and records the suite must not touch."""
    target = make_target("tansu")
    info = target.start()
    try:
        seed((info.host, info.port))
        before = snapshot((info.host, info.port))
        assert before["precious"][0][2] == RECORDS and before["precious"][0][3], before
        yield (info.host, info.port), before
    finally:
        target.stop()


@pytest.fixture
def recorded(cluster):
    """A recording proxy in front of the cluster: (its address, the recorder)."""
    rec = Recorder()
    proxy = Proxy(*cluster[0], rec)
    address = proxy.start()
    yield address, rec
    proxy.stop()


def run_suite(tmp_path, address, *args, files=("conformance",), timeout=1500):
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last-run"))
    proc = subprocess.run([sys.executable, "-m", "pytest", *files, "-q", "-p", "no:cacheprovider",
                           "--results-dir", str(tmp_path / "results"), "--profile", "ci", "--seed", "5",
                           "--broker", f"bootstrap:{address[0]}:{address[1]}", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    run = Path((tmp_path / "last-run").read_text().strip())
    return proc, read_rows(run / "results.jsonl"), json.loads((run / "manifest.json").read_text())


def outside_prefix(rec: Recorder, prefix: str) -> list:
    bad = []
    for key, version, body in rec.seen:
        assert body is not None, f"a request to API {key} v{version} the recorder could not read"
        bad += [(key, version, n) for n in names_in(body) if not (isinstance(n, str) and n.startswith(prefix))]
    return bad


# -- the runs ------------------------------------------------------------------------------
def test_without_consent_nothing_is_sent_outside_the_prefix_or_changed(tmp_path, cluster, recorded):
    address, rec = recorded
    proc, rows, manifest = run_suite(tmp_path, address)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    prefix = manifest["topic_prefix"]
    assert rec.seen and rows
    assert not outside_prefix(rec, prefix)[:10]
    changing = [(k, v) for k, v, _ in rec.seen if k in CHANGING]
    assert not changing, changing[:10]
    may_create = [(v, b) for k, v, b in rec.seen if k == ApiKey.Metadata and b.get("topics")
                  and (not schema_facts.has_field(k, v, "allow_auto_topic_creation")
                       or b.get("allow_auto_topic_creation"))]
    assert not may_create, may_create[:5]
    assert run_topics(cluster[0]) == [] and run_leftovers(cluster[0]) == {}
    assert snapshot(cluster[0]) == cluster[1]
    for r in rows:
        if "outside the run prefix" in (r["message"] or "") or "--allow-destructive" in (r["message"] or ""):
            assert r["outcome"] == "skip", r
    assert any(r["outcome"] == "pass" for r in rows)
    assert manifest["cleanup"][0]["deleted"] == 0 and manifest["cleanup"][0]["not_deleted"] == 0


def test_with_consent_only_run_topics_are_touched_and_none_is_left(tmp_path, cluster, recorded):
    address, rec = recorded
    proc, rows, manifest = run_suite(tmp_path, address, "--allow-destructive")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    prefix = manifest["topic_prefix"]
    assert not outside_prefix(rec, prefix)[:10]
    assert any(k == ApiKey.CreateTopics for k, _, _ in rec.seen), \
        "nothing was created: the run checked nothing destructive"
    assert any(k == ApiKey.OffsetCommit for k, _, _ in rec.seen), "no group offsets were committed"
    assert run_topics(cluster[0]) == []
    assert run_leftovers(cluster[0]) == {}
    assert snapshot(cluster[0]) == cluster[1]
    cleanup = manifest["cleanup"][0]
    # each check's topics went after it (fixtures/tidy.py), what was left at the end
    assert cleanup["tidied"] > 0 and cleanup["not_deleted"] == 0 and cleanup["prefix"] == prefix, cleanup
    assert (f"cleanup bootstrap:{address[0]}:{address[1]}: deleted {cleanup['deleted']} topics named {prefix}... "
            f"({cleanup['tidied']} more after their checks)") in proc.stdout, proc.stdout[-2000:]
    skipped = [r for r in rows if "outside the run prefix" in (r["message"] or "")]
    assert all(r["outcome"] == "skip" for r in skipped), skipped


def test_cleanup_removes_what_a_killed_run_left_and_nothing_else(tmp_path, cluster):
    prefix = "kac-" + uuid.uuid4().hex[:6] + "-"
    conn = wire.Connection(*cluster[0])
    try:
        names = [prefix + f"left-{i}" for i in range(3)]
        r = conn.send(ApiKey.CreateTopics, 4, requests.create_topics(
            4, [requests.topic(n) for n in names], timeout_ms=10000)).response
        assert all(t["error_code"] == Errors.NONE for t in r["topics"]), r
    finally:
        conn.close()
    spec = f"bootstrap:{cluster[0][0]}:{cluster[0][1]}"
    cmd = [sys.executable, "-m", "pytest", "conformance", "-p", "no:cacheprovider", "--broker", spec,
           "--results-dir", str(tmp_path / "results")]
    proc = subprocess.run(cmd + ["--cleanup", prefix], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == f"cleanup {prefix} on {spec}: deleted 3 topics, 0 could not be deleted"
    assert run_topics(cluster[0]) == [] and snapshot(cluster[0]) == cluster[1]
    assert not (tmp_path / "results").exists()
    for bad in ("precious", "kac-", "kac-notours", "kac-zzzzzz-", ""):
        proc = subprocess.run(cmd + ["--cleanup", bad], cwd=ROOT, capture_output=True, text=True, timeout=120)
        out = proc.stdout + proc.stderr
        assert proc.returncode != 0 and "is not a run prefix" in out and "Traceback" not in out, out
        assert len(out.strip().splitlines()) == 1, out
    assert snapshot(cluster[0]) == cluster[1]


def test_ctrl_c_still_deletes_the_runs_topics(tmp_path, cluster):
    import signal
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last-run"))
    spec = f"bootstrap:{cluster[0][0]}:{cluster[0][1]}"
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "conformance/test_topics.py", "-q", "-p",
                             "no:cacheprovider", "--results-dir", str(tmp_path / "results"), "--profile", "dev",
                             "--broker", spec, "--allow-destructive"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        # until the run has made topics of its own (or died)
        _, made = eventually(lambda: run_topics(cluster[0]), lambda t: bool(t) or proc.poll() is not None,
                             within=240, every=0.2)
        assert made, proc.stdout.read()[-2000:]
        os.killpg(proc.pid, signal.SIGINT)     # what Ctrl-C in a terminal does
        out = proc.communicate(timeout=180)[0]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    manifest = json.loads((Path((tmp_path / "last-run").read_text().strip()) / "manifest.json").read_text())
    cleanup = manifest["cleanup"][0]
    assert cleanup["deleted"] + cleanup["tidied"] > 0 and cleanup["not_deleted"] == 0, (cleanup, out[-2000:])
    assert run_topics(cluster[0]) == [] and snapshot(cluster[0]) == cluster[1]
    if "AST constructor recursion depth mismatch" in out:
        # The SIGINT landed inside CPython 3.11's AST constructor (a KeyboardInterrupt inside
        # ast.parse) while pytest rendered a traceback, so pytest's own reporting crashed
        # before printing either line: seen once in CI. The clean-up is checked above.
        return
    assert "KeyboardInterrupt" in out and f"cleanup {spec}: deleted {cleanup['deleted']} topics" in out, out[-2000:]


# -- a Kafka cluster: groups with members, transactions, reassignments, tokens --------------
#: Kafka serves the admin families tansu lacks; someone's cluster also holds a group with
#: committed offsets, a committed transaction and one still open, which the run must leave
#: exactly as they are.
THEIR_GROUP, THEIR_TXN, THEIR_OPEN_TXN = "orders-app", "orders-tx", "orders-tx-open"
#: the families that make groups with members, transactions, reassignments and tokens (and
#: the records and producers behind them), with their properties
FAMILIES = ("G1,G2,G3,G4,G5,G6", "X1,X2", "E1,E2,E3", "Y1,Y2,Y3,Y4", "W1", "O1,O2,O3", "H1")
#: an open transaction of someone's outlives the run: Kafka's largest allowed timeout
#: (``transaction.max.timeout.ms``, 15 minutes by default)
THEIR_TIMEOUT_MS = 900_000
OPEN = set(leftovers.OPEN_TRANSACTION)


NOT_READY = (Errors.COORDINATOR_LOAD_IN_PROGRESS, Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR)


def _answered(conn, api_key, v, body, codes=lambda r: [r.get("error_code")], within=20.0):
    """The answer once none of its ``codes`` says the coordinator is not ready."""
    def ask():
        ex = conn.send(api_key, v, body)
        assert ex.ok, ex.describe()
        return ex.response
    _, resp = eventually(ask, lambda r: not set(codes(r)) & set(NOT_READY), within=within, every=0.2)
    return resp


def open_transaction(address, tid: str, topic: str, commit: bool | None, timeout_ms: int = 60_000) -> int:
    """A transactional producer's transaction on ``topic``-0 (one node: the coordinator is
    the broker itself): committed (True), aborted (False) or left open (None). Its producer id."""
    conn = wire.Connection(*address)
    try:
        _answered(conn, ApiKey.FindCoordinator, 3, requests.find_coordinator(3, tid, 1))
        init = _answered(conn, ApiKey.InitProducerId, 3, requests.init_producer_id(
            3, transactional_id=tid, transaction_timeout_ms=timeout_ms))
        assert init["error_code"] == Errors.NONE, init
        pid, epoch = init["producer_id"], init["producer_epoch"]
        added = _answered(conn, ApiKey.AddPartitionsToTxn, 3, requests.add_partitions_to_txn(
            3, tid, pid, epoch, [(topic, [0])]))
        assert all(r["partition_error_code"] == Errors.NONE for t in added["results_by_topic_v3_and_below"]
                   for r in t["results_by_partition"]), added
        b = MemoryRecordsBuilder(magic=2, compression_type=0, batch_size=1 << 20, transactional=True,
                                 producer_id=pid, producer_epoch=epoch, base_sequence=0)
        b.append(1_700_000_000_000, b"k", f"{tid}/record".encode())
        b.close()
        # a topic created a moment ago: its leader's log may not exist yet (nothing appended)
        _, r = eventually(lambda: conn.send(ApiKey.Produce, 8, requests.produce(8, [(topic, [(0, b.buffer())])],
                                                                                 transactional_id=tid)).response,
                          lambda r: _produce_code(r) not in Admin.NOT_READY, within=20.0, every=0.2)
        assert _produce_code(r) == Errors.NONE, r
        if commit is not None:
            ended = conn.send(ApiKey.EndTxn, 3, requests.end_txn(3, tid, pid, epoch, commit)).response
            assert ended["error_code"] == Errors.NONE, ended
        return pid
    finally:
        conn.close()


def transactions(address) -> dict[str, str]:
    """{transactional id: state} of every transaction the (one-node) cluster lists."""
    with wire.Connection(*address) as conn:
        r = conn.send(ApiKey.ListTransactions, 0, requests.list_transactions(0)).response
    assert r["error_code"] == Errors.NONE, r
    return {t["transactional_id"]: t["transaction_state"] for t in r["transaction_states"]}


def their_offsets(address) -> dict:
    with wire.Connection(*address) as conn:
        r = conn.send(ApiKey.OffsetFetch, 7, requests.offset_fetch(7, THEIR_GROUP, None)).response
    return {(t["name"], p["partition_index"]): (p["committed_offset"], p["metadata"])
            for t in r["topics"] for p in t["partitions"]}


def reassignments(address) -> list:
    with wire.Connection(*address) as conn:
        r = conn.send(ApiKey.ListPartitionReassignments, 0,
                      requests.list_partition_reassignments(0, None)).response
    assert r["error_code"] == Errors.NONE, r
    return [(t["name"], p["partition_index"]) for t in r["topics"] for p in t["partitions"]]


def replicas(address) -> dict:
    with wire.Connection(*address) as conn:
        topics = conn.send(ApiKey.Metadata, 4, requests.metadata(4)).response["topics"]
    return {(t["name"], p["partition_index"]): (p["leader_id"], tuple(p["replica_nodes"]))
            for t in topics if not t["name"].startswith(("kac-", "__")) or t["name"] in PRECIOUS
            for p in t["partitions"]}


@pytest.fixture(scope="module")
def kafka_cluster():
    """Someone's Kafka cluster (one node of the newest release): topics with records, a
    group with committed offsets, a committed transaction and an open one."""
    from fixtures.brokers.kafka import NEWEST_RELEASE
    target = make_target(f"kafka:{NEWEST_RELEASE}")
    info = target.start()
    address = (info.host, info.port)
    try:
        seed(address)
        with wire.Connection(*address) as conn:
            _answered(conn, ApiKey.FindCoordinator, 3, requests.find_coordinator(3, THEIR_GROUP))  # makes its topic
            committed = _answered(conn, ApiKey.OffsetCommit, 7, requests.offset_commit(
                7, THEIR_GROUP, [("precious", [(0, 4, "theirs"), (1, 7, "theirs")])]),
                codes=lambda r: [p["error_code"] for t in r["topics"] for p in t["partitions"]])
        assert all(p["error_code"] == Errors.NONE for t in committed["topics"] for p in t["partitions"]), committed
        open_transaction(address, THEIR_TXN, "other.data", commit=True)
        open_transaction(address, THEIR_OPEN_TXN, "other.data", commit=None, timeout_ms=THEIR_TIMEOUT_MS)
        expected = {THEIR_TXN: "CompleteCommit", THEIR_OPEN_TXN: "Ongoing"}
        _, txns = eventually(lambda: transactions(address), lambda t: t == expected, within=20, every=0.2)
        assert txns == expected, txns      # (EndTxn answers before its markers are written: PrepareCommit)
        theirs = {"offsets": their_offsets(address), "transactions": txns, "replicas": replicas(address)}
        assert len(theirs["offsets"]) == 2, theirs
        yield address, theirs
    finally:
        target.stop()


def snapshot_of_theirs(address) -> dict:
    """:func:`snapshot` less Kafka's internal topics (``__consumer_offsets``,
    ``__transaction_state``: the coordinators write them for every group and transaction,
    the run's included)."""
    return {n: parts for n, parts in snapshot(address).items() if not n.startswith("__")}


def test_kafka_with_consent_groups_transactions_reassignments_and_tokens_are_not_left(tmp_path, kafka_cluster):
    """On a Kafka cluster (every admin family served), a run with --allow-destructive of the
    families that make groups with members, transactions, reassignments and delegation
    tokens names nothing outside its prefix and leaves none of them: no run topic, no run
    group (of any type), no open run transaction (a transactional id cannot be deleted:
    fixtures/leftovers.py), no reassignment in progress, no token (the wire client's scope
    refuses a token no run user could find again). Someone's group offsets, transactions
    (one of them still open), replicas and records are as they were. A killed run's open
    transaction is aborted by --cleanup, and theirs is not."""
    address, theirs = kafka_cluster
    before = snapshot_of_theirs(address)
    rec = Recorder()
    proxy = Proxy(*address, rec)
    through = proxy.start()
    try:
        proc, rows, manifest = run_suite(tmp_path, through, "--allow-destructive",
                                         *[a for f in FAMILIES for a in ("--property", f)])
    finally:
        proxy.stop()
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    prefix = manifest["topic_prefix"]
    assert not outside_prefix(rec, prefix)[:10]
    sent = {k for k, _, _ in rec.seen}
    made = {ApiKey.JoinGroup, ApiKey.ConsumerGroupHeartbeat, ApiKey.ShareGroupHeartbeat, ApiKey.AddPartitionsToTxn,
            ApiKey.EndTxn, ApiKey.AlterPartitionReassignments, ApiKey.OffsetCommit}
    assert made <= sent, f"the run never sent {sorted(ApiKey(k).name for k in made - sent)}: it made nothing to leave"
    assert ApiKey.CreateDelegationToken not in sent
    assert any(r["outcome"] == "pass" for r in rows if r["property"].startswith("X"))
    assert run_topics(address) == [] and run_leftovers(address) == {}
    txns = transactions(address)
    ours = {t: s for t, s in txns.items() if t.startswith(prefix)}
    assert ours and not OPEN & set(ours.values()), ours
    assert {t: s for t, s in txns.items() if not t.startswith("kac-")} == theirs["transactions"]
    assert reassignments(address) == []
    assert replicas(address) == theirs["replicas"]
    assert their_offsets(address) == theirs["offsets"]
    assert snapshot_of_theirs(address) == before
    cleanup = manifest["cleanup"][0]
    assert cleanup["deleted"] + cleanup["tidied"] > 0 and cleanup["not_deleted"] == 0, cleanup

    # a killed run's open transaction: --cleanup aborts it, and leaves theirs open
    killed = "kac-" + uuid.uuid4().hex[:6] + "-"
    conn = wire.Connection(*address)
    try:
        r = conn.send(ApiKey.CreateTopics, 4, requests.create_topics(
            4, [requests.topic(killed + "t")], timeout_ms=10000)).response
        assert r["topics"][0]["error_code"] == Errors.NONE, r
    finally:
        conn.close()
    open_transaction(address, killed + "txn", killed + "t", commit=None)
    assert transactions(address)[killed + "txn"] == "Ongoing"
    spec = f"bootstrap:{address[0]}:{address[1]}"
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "-p", "no:cacheprovider", "--broker", spec,
                           "--results-dir", str(tmp_path / "results2"), "--cleanup", killed],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == (f"cleanup {killed} on {spec}: deleted 1 topics, 0 could not be deleted; "
                                   "removed 1 open transactions"), proc.stdout
    txns = transactions(address)
    assert txns[killed + "txn"] not in OPEN, txns
    assert {t: s for t, s in txns.items() if not t.startswith("kac-")} == theirs["transactions"]
    assert run_topics(address) == [] and snapshot_of_theirs(address) == before


def _config_overrides(address, kind: int, name: str) -> dict:
    with wire.Connection(*address) as conn:
        r = conn.send(ApiKey.DescribeConfigs, 4, requests.describe_configs(4, [(name, None)], resource_type=kind)).response
    [result] = r["results"]
    return {c["name"]: c["value"] for c in result["configs"] if c["config_source"] in (
        ConfigSource.GROUP_CONFIG, ConfigSource.CLIENT_METRICS_CONFIG)}


def test_cleanup_removes_a_killed_runs_group_and_client_metrics_configs_and_not_theirs(tmp_path, kafka_cluster):
    """A group's configs outlive the group and a client metrics subscription is nothing but
    its configs (S2 sets both): a killed run's, found by ListConfigResources, are deleted by
    --cleanup; someone's group config and subscription stay as they were."""
    address, _ = kafka_cluster
    killed = "kac-" + uuid.uuid4().hex[:6] + "-"
    sets = [(ConfigResourceType.GROUP, killed + "g1", "consumer.session.timeout.ms", "50000"),
            (ConfigResourceType.CLIENT_METRICS, killed + "g1", "interval.ms", "60000"),
            (ConfigResourceType.GROUP, "their-group", "consumer.session.timeout.ms", "55000"),
            (ConfigResourceType.CLIENT_METRICS, "their-subscription", "interval.ms", "120000")]
    with wire.Connection(*address) as conn:
        for kind, name, key, value in sets:
            r = conn.send(ApiKey.IncrementalAlterConfigs, 1, requests.incremental_alter_configs(
                1, [(name, [(key, AlterConfigOp.SET, value)])], resource_type=kind)).response
            assert r["responses"][0]["error_code"] == Errors.NONE, r
    for kind, name, key, value in sets:
        _, held = eventually(lambda: _config_overrides(address, kind, name), lambda h: h == {key: value}, within=10)
        assert held == {key: value}, (name, held)
    spec = f"bootstrap:{address[0]}:{address[1]}"
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "-p", "no:cacheprovider", "--broker", spec,
                           "--results-dir", str(tmp_path / "results"), "--cleanup", killed],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "removed 2 group and client metrics configs" in proc.stdout, proc.stdout
    for kind, name, key, value in sets:
        want = {key: value} if name.startswith("their") else {}
        _, held = eventually(lambda: _config_overrides(address, kind, name), lambda h: h == want, within=10)
        assert held == want, (name, held)
