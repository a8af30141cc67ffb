"""Apache Kafka as a target (``kafka:VERSION``, from Maven Central), against real Kafka.

The broker jars are resolved into ``KAC_KAFKA_CACHE`` (default under ~/.cache) once and
reused, so only the first run on a machine downloads. Each suite run here is a
subprocess with its own TMPDIR and Kafka data folder (``KAC_KAFKA_DATA_DIR``), so what it
leaves behind (a java process, a data folder) is found by those folders' names.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from conformance.parametrize import ADMIN_KEYS
from protocol import ConfigResourceType, requests, wire
from protocol.apis import DECLARATIONS, NOT_DECLARED, ApiKey
from protocol.codec import APIS
from fixtures.harness import Check, CheckContext
from fixtures.results import read_rows
from tests.row_checks import assert_well_formed
from fixtures.brokers import TargetError, make_target, scratch
from fixtures.brokers.kafka import NEWEST_RELEASE, data_root
from fixtures.waiting import eventually

ROOT = Path(__file__).resolve().parents[1]
KAFKA = f"kafka:{NEWEST_RELEASE}"


def suite(tmp_path, *args, env=None, profile="ci"):
    cmd = [sys.executable, "-m", "pytest", "conformance", "-q", "-p", "no:cacheprovider",
           "--results-dir", str(tmp_path / "results"), "--profile", profile, *args]
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    environ = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last-run"), PYTHONPATH=str(ROOT),
                   TMPDIR=str(scratch), KAC_KAFKA_DATA_DIR=str(kafka_scratch(tmp_path)), **(env or {}))
    return cmd, environ


def kafka_scratch(tmp_path) -> Path:
    """This test's own folder for the Kafka folders of its runs, where the suite puts them by
    default (``/dev/shm`` when it has room: fixtures/brokers/kafka.py ``data_root``), so the
    runs here are as fast as a user's and what they leave is found by this folder's name."""
    base = Path(data_root() or tmp_path)
    folder = base / f"kac-test-{hashlib.sha256(str(tmp_path).encode()).hexdigest()[:16]}"
    if not folder.exists():
        folder.mkdir()
        scratch.stamp(folder)          # a killed test worker's folder goes at a later Kafka start
        atexit.register(shutil.rmtree, folder, True)
    return folder


def leftovers(tmp_path) -> list[str]:
    """Processes started from this test's scratch folders, and data folders still in them."""
    scratches = [str(tmp_path / "scratch"), str(kafka_scratch(tmp_path))]
    ps = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    left = [line[:160] for line in ps.splitlines() if any(s in line for s in scratches)]
    left += [str(p) for s in scratches for p in Path(s).glob("kac-kafka-*")]
    return left


def last_run(tmp_path) -> Path:
    return Path((tmp_path / "last-run").read_text().strip())


def test_cluster_ids_are_what_kafkas_storage_tool_accepts():
    """Like Uuid.randomUuid: 16 bytes, base64url, never starting with '-' (the storage tool
    read such an id as an option and the broker did not start, one start in 64)."""
    import base64

    from fixtures.brokers.process import _kafka_uuid
    for _ in range(5000):
        text = _kafka_uuid()
        assert not text.startswith("-") and len(text) == 22, text
        assert len(base64.urlsafe_b64decode(text + "==")) == 16


# -- refusals: one line, no traceback ------------------------------------------------------

@pytest.mark.parametrize("spec,expect", [
    ("kafka:9.9.9", "no such Apache Kafka release on Maven Central; releases found: "),
    ("kafka:2.8.2", "releases from 3.3.0 on run here (3.3 is the oldest line"),
    (f"{KAFKA},nodes=9", "nodes=9 must be a number from 1 to 5"),
    (f"{KAFKA},colour=blue", "unknown option 'colour'; the options are nodes=N, controllers=M, preset=policy|nodelete|quota|acl, "
                             "mode=kraft|zk and config.KEY=VALUE"),
    (f"{KAFKA},preset=chaos", "unknown preset 'chaos'; the presets are policy, nodelete, quota, acl"),
])
def test_a_kafka_spec_that_cannot_run_is_one_line(tmp_path, spec, expect):
    cmd, env = suite(tmp_path, "--broker", spec)
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out[-2000:]
    assert expect in out, out[-2000:]
    assert "Traceback" not in out, out[-2000:]
    if "releases found" in expect:           # the versions it can find, by line
        assert "3.9.0..3.9." in out and NEWEST_RELEASE in out, out[-2000:]
    assert not leftovers(tmp_path)


def test_the_old_profile_spelling_still_names_a_preset_with_a_one_line_note(capsys):
    """``profile=`` was the preset's name before "profile" came to mean only --profile
    (hypothesis depth): it still works for one release, saying what to write instead."""
    from fixtures.brokers.kafka import parse_options
    assert parse_options("kafka:4.4.0,profile=acl", "4.4.0,profile=acl") == ("4.4.0", 1, {}, "acl", "kraft", 0)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'profile=acl' is now 'preset=acl'" in err, err
    assert parse_options("kafka:4.4.0,preset=acl", "4.4.0,preset=acl") == ("4.4.0", 1, {}, "acl", "kraft", 0)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("missing,expect", [
    ("mvn", "no `mvn` on PATH: install Apache Maven"),
    ("java", "no `java` on PATH: install a Java runtime, 17 or newer"),
])
def test_no_java_or_no_maven_is_one_line_saying_what_to_install(tmp_path, missing, expect):
    """Without Maven a release that is not cached cannot resolve; without Java nothing runs
    (the cached release is used, so only java is missing)."""
    env = {"PATH": str(tmp_path / "empty-bin"), "JAVA_HOME": ""}
    if missing == "mvn":
        env["KAC_KAFKA_CACHE"] = str(tmp_path / "empty-cache")
    else:
        make_target(KAFKA).libs()              # cached, so mvn is not needed
    cmd, environ = suite(tmp_path, "--broker", KAFKA, env=env)
    proc = subprocess.run(cmd, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and expect in out and "Traceback" not in out, out[-2000:]


# -- starting, options, stopping --------------------------------------------------------

def _broker_config(host, port, key) -> str | None:
    with wire.Connection(host, port, timeout=10) as conn:
        ex = conn.send(ApiKey.DescribeConfigs, 1, requests.describe_configs(
            1, [("1", [key])], resource_type=ConfigResourceType.BROKER))
    assert ex.ok, ex.describe()
    configs = ex.response["results"][0]["configs"]
    return configs[0]["value"] if configs else None


def test_one_node_starts_answers_records_its_version_and_leaves_nothing(tmp_path):
    target = make_target(f"{KAFKA},config.auto.create.topics.enable=false,config.num.partitions=3,preset=nodelete")
    info = target.start()
    try:
        workdir, procs = target.workdir, list(target.procs)
        assert str(workdir.parent) == (data_root() or tempfile.gettempdir()), workdir
        assert info.impl == "apache-kafka" and info.version == NEWEST_RELEASE
        assert info.advertised(ApiKey.CreateTopics) and info.advertised(ApiKey.IncrementalAlterConfigs), \
            "no CreateTopics/IncrementalAlterConfigs"
        assert _broker_config(info.host, info.port, "auto.create.topics.enable") == "false"
        # what the suite read from the broker agrees with what the spec set (issue 32)
        assert info.declared == {"auto.create.topics.enable": "false", "num.partitions": "3",
                                 "delete.topic.enable": "false"}, info.declared
        assert info.config.error is None, info.config.error
        assert {k: info.config.values.get(k) for k in info.declared} == info.declared, info.config.values
        assert info.config.sources["delete.topic.enable"] == "STATIC_BROKER_CONFIG"
        assert info.config.values["authorizer.class.name"] == "" and info.config.features.get("metadata.version")
        assert "Kafka Server started" in (workdir / "node-1" / "broker.log").read_text(errors="replace") \
            or "started" in target.diagnostics()
    finally:
        target.stop()
    assert all(p.poll() is not None for p in procs), "a java process outlived stop()"
    assert not workdir.exists(), "the data folder outlived stop()"
    assert wire.probe(info.host, info.port, timeout=1) is None, "the broker still answers after stop()"


def test_a_broker_whose_port_was_taken_before_it_bound_starts_again_on_fresh_ports(monkeypatch):
    """``free_port`` lets its port go before the JVM binds it; CI saw a parallel worker take
    one (``BindException`` in ``openServerSocket``), and 9 checks lost their broker. The
    first port handed out here is held by a listening socket, as that worker held it."""
    import socket
    from fixtures.brokers import kafka as kafka_target
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    taken, real, handed = held.getsockname()[1], kafka_target.free_port, []

    def free_port(host="127.0.0.1"):
        handed.append(taken if not handed else real(host))
        return handed[-1]
    monkeypatch.setattr(kafka_target, "free_port", free_port)
    target = make_target(KAFKA)
    try:
        info = target.start()
        assert info.port != taken and taken in handed, (info.port, taken, handed)
        assert wire.probe(info.host, info.port, timeout=5) is not None
    finally:
        target.stop()
        held.close()


def test_three_nodes_form_one_cluster_and_every_broker_answers(tmp_path):
    target = make_target(f"{KAFKA},nodes=3")
    info = target.start()
    try:
        assert len(info.addresses) == 3 and len({p for _, p in info.addresses}) == 3
        for host, port in info.addresses:
            with wire.Connection(host, port, timeout=10) as conn:
                ex = conn.send(ApiKey.Metadata, 1, requests.metadata(1, []))
            assert ex.ok and len(ex.response["brokers"]) == 3, ex.describe()
        # every node's configuration was read (each answers only for its own id) and they agree
        assert info.config.error is None and not info.config.differs, info.config.manifest()
        assert len(info.config.cluster["brokers"]) == 3 and info.config.values["num.partitions"] == "1"
        _leaders_hear_the_checks_client_id(info)
    finally:
        target.stop()
    assert all(p.poll() is not None for p in target.procs or []) and target.workdir is None


def test_a_later_broker_starts_from_a_copy_of_the_storage_tools_format_with_fresh_ids():
    """fixtures/brokers/formatted_storage.py: a node whose release and settings were formatted
    before is not formatted again (no storage tool ran: no format.log); its copy carries a
    cluster id and a directory id of its own, the broker starts from it and answers with
    that cluster id."""
    seen = []
    for _ in range(2):
        target = make_target(KAFKA)
        info = target.start()
        try:
            node = target.workdir / "node-1"
            meta = dict(line.split("=", 1) for line in (node / "data" / "meta.properties").read_text().splitlines()
                        if "=" in line and not line.startswith("#"))
            with wire.Connection(info.host, info.port, timeout=10) as conn:
                ex = conn.send(ApiKey.Metadata, 12, requests.metadata(12, []))
            assert ex.ok and ex.response["cluster_id"] == meta["cluster.id"], (ex.describe(), meta)
            seen.append((meta, (node / "format.log").exists()))
        finally:
            target.stop()
    (first, _), (second, tool_ran) = seen
    assert not tool_ran, "the storage tool formatted a node whose format was kept"
    assert first["node.id"] == second["node.id"] == "1", (first, second)
    assert first["cluster.id"] != second["cluster.id"], "two clusters with one cluster id"
    assert first["directory.id"] != second["directory.id"], "two log dirs with one directory id"


def _leaders_hear_the_checks_client_id(info):
    """A partition request on a cluster goes to each partition's leader
    (``fixtures.check.client.Client._to_leaders``); every leader hears the check's client id, the
    one its steps record and a quota is charged to (preset=quota), not the suite's default."""
    topic, who = "kac-0c1d00-spread", "kac-0c1d00-quota"
    with wire.Connection(*info.addresses[0], timeout=30) as conn:
        made = conn.send(ApiKey.CreateTopics, 7, requests.create_topics(7, [requests.topic(topic, 3, 1)]))
    assert made.ok and made.response["topics"][0]["error_code"] == 0, made.describe()
    run = SimpleNamespace(pool=SimpleNamespace(info=lambda spec: info), next_node=lambda spec: 0)
    check = Check(CheckContext("kafka", "kac-0c1d00-", run=run), "P1", "", ApiKey.ListOffsets, 7)
    client = check.client(client_id=who)

    def every_leader_answers():
        ex = client.send(ApiKey.ListOffsets, 7, requests.list_offsets(7, [(topic, [0, 1, 2])], -1))
        parts = ex.response["topics"][0]["partitions"] if ex.ok else []
        return len(parts) == 3 and all(p["error_code"] == 0 for p in parts)
    assert eventually(every_leader_answers, within=30, every=0.5)[0], check.steps[-1:]
    assert client._others, "three partitions on three brokers, yet every one answered from one node"
    heard = {c.client_id for c in [client.conn, *client._others.values()]}
    assert heard == {who}, heard
    assert {s.get("client_id") for s in check.steps} == {who}


def test_ctrl_c_during_a_kafka_run_leaves_no_java_and_no_data(tmp_path):
    cmd, env = suite(tmp_path, "--broker", KAFKA, "--property", "D3")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        def row_written() -> bool:     # the broker runs and a check has written its row
            if (tmp_path / "last-run").exists():
                rows = last_run(tmp_path) / "results.jsonl"
                if rows.exists() and read_rows(rows):
                    return True
            assert proc.poll() is None, proc.stdout.read().decode()[-2000:]
            return False
        written, _ = eventually(row_written, within=300, every=0.2)
        assert written, "the run wrote no row in time"
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    time.sleep(1)
    assert not leftovers(tmp_path)
    manifest = json.loads((last_run(tmp_path) / "manifest.json").read_text())
    assert manifest["brokers"][0]["impl"] == "apache-kafka"


# -- CI: the suite reports no deviation where Kafka behaves as Kafka ----------------------

#: the run's workers: tox -e conformance's default on the project's 2-CPU machine
#: (fixtures/console.py), so the release's own checks run in four shards beside its companions
CI_JOBS = 4


class Runs:
    """The run folders of one ``--jobs`` run: every row, every manifest, and the release's own
    entry (a shard's first broker)."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.folders = [Path(line) for line in (tmp / "last-run").read_text().split()]
        self.manifests = [json.loads((f / "manifest.json").read_text()) for f in self.folders]
        self.rows = [r for f in self.folders for r in read_rows(f / "results.jsonl")]
        self.brokers = [b for m in self.manifests for b in m["brokers"]]
        self.release = next(b for b in self.brokers if b["spec"] == KAFKA)


@pytest.fixture(scope="module")
def kafka_ci_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kafka-ci")
    cmd, env = suite(tmp, "--broker", KAFKA, "--jobs", str(CI_JOBS))
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    return Runs(tmp)


def test_on_the_newest_kafka_every_fail_is_a_reviewed_known_deviation(kafka_ci_run):
    proc = subprocess.run([sys.executable, "-m", "reports.known", "--runs-from", str(kafka_ci_run.tmp / "last-run"),
                           "--require-kafka"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not leftovers(kafka_ci_run.tmp)


def test_on_kafka_every_row_of_every_property_is_well_formed(kafka_ci_run):
    from conformance.catalogue import rows as catalogue
    for folder in kafka_ci_run.folders:
        assert_well_formed(read_rows(folder / "results.jsonl"), folder.name)
    assert {r["property"] for r in kafka_ci_run.rows} == {r[0] for r in catalogue()}, \
        "a property of the catalogue has no row"


def test_on_kafka_the_release_runs_in_shards_of_whole_properties_and_p5_judges_every_shards_traffic(kafka_ci_run):
    """``--jobs 4`` on one release: its own checks in four shards (fixtures/shards.py), each a
    run folder of its own; a cell's rows are all in one folder; the traffic readers (P5, P6)
    are in shard 1, which the three other shards' traffic logs joined before they ran."""
    shards = {m["shard"]: (f, m) for f, m in zip(kafka_ci_run.folders, kafka_ci_run.manifests) if m.get("shard")}
    assert sorted(shards) == [f"{k}/{CI_JOBS}" for k in range(1, CI_JOBS + 1)], sorted(shards)
    first, manifest = shards[f"1/{CI_JOBS}"]
    assert manifest["shard_traffic"] == {"joined": CI_JOBS - 1, "without_a_log": []}, manifest["shard_traffic"]
    where: dict = {}
    for folder in kafka_ci_run.folders:
        for r in read_rows(folder / "results.jsonl"):
            where.setdefault((r["broker"], r["api_key"], r["api_version"], r["property"]), set()).add(folder)
            if r["property"] in ("P5", "P6") and r["broker"] == KAFKA:
                assert folder == first, r["test"]
    assert all(len(f) == 1 for f in where.values()), [k for k, f in where.items() if len(f) > 1][:5]
    p5 = [r for r in read_rows(first / "results.jsonl") if r["property"] == "P5" and r["outcome"] == "pass"]
    assert p5, "P5 passed no cell: no shard's traffic provoked a code it gates"


def test_on_kafka_every_property_is_asked_none_unsupported_for_want_of_a_configured_broker(kafka_ci_run):
    """``--broker kafka:V`` alone: the checks that need a preset or three nodes ran on the
    companions the run started for them (fixtures/companions.py), each of which answered,
    so no row is ``unsupported`` for a broker configuration the suite could have made (those
    reasons all name ``kafka:VERSION,OPTION``)."""
    from fixtures.companions import OPTIONS, wants_configured_broker
    rows = kafka_ci_run.rows
    wanting = [r for r in rows if wants_configured_broker(r)]
    assert not wanting, [(r["broker"], r["property"], r["message"][:120]) for r in wanting[:5]]
    companions = {b["spec"]: b for b in kafka_ci_run.brokers if b.get("companion_of")}
    assert set(companions) == {f"{KAFKA},{o}" for o in OPTIONS}, sorted(companions)
    for spec, b in companions.items():
        assert b["companion_of"] == KAFKA and b["version"] == NEWEST_RELEASE and not b["error"], b
        assert any(r["broker"] == spec and r["outcome"] == "pass" for r in rows), f"{spec} passed no check"


def test_a_plain_kafka_spec_starts_only_the_companions_its_checks_need(tmp_path):
    """E4 needs two brokers: with D1 selected too, the run starts KAFKA and KAFKA,nodes=3
    (no other companion), asks E4 only there, and leaves no JVM; ``--single-broker`` asks E4
    of KAFKA itself, where it is unsupported for want of a second broker."""
    routed, single = tmp_path / "routed", tmp_path / "single"
    for tmp, extra in ((routed, ()), (single, ("--single-broker",))):
        tmp.mkdir()
        cmd, env = suite(tmp, "--broker", KAFKA, "--property", "E4,D1", "--seed", "3", *extra)
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
        assert not leftovers(tmp)
    run = last_run(routed)
    brokers = json.loads((run / "manifest.json").read_text())["brokers"]
    assert [(b["spec"], b.get("companion_of"), b.get("for")) for b in brokers] == [
        (KAFKA, None, None), (f"{KAFKA},nodes=3", KAFKA, "nodes=3")]
    e4 = [r for r in read_rows(run / "results.jsonl") if r["property"] == "E4"]
    assert e4 and {r["broker"] for r in e4} == {f"{KAFKA},nodes=3"}
    assert {r["outcome"] for r in e4} == {"pass"}, [(r["outcome"], r["message"]) for r in e4]
    run = last_run(single)
    assert [b["spec"] for b in json.loads((run / "manifest.json").read_text())["brokers"]] == [KAFKA]
    e4 = [r for r in read_rows(run / "results.jsonl") if r["property"] == "E4"]
    assert e4 and all(r["broker"] == KAFKA and r["outcome"] == "unsupported" and "nodes=3" in r["message"]
                      for r in e4), [(r["outcome"], r["message"]) for r in e4]


def test_with_jobs_a_kafka_spec_runs_its_companions_beside_it(tmp_path):
    """``--jobs 2 --broker KAFKA``: one worker asks KAFKA's own checks, one worker per
    companion those its option needs; only the needed ones write a run folder (both listed in
    KAC_LAST_RUN_FILE for the report), the others say no selected check needs them, and no
    JVM is left."""
    cmd, env = suite(tmp_path, "--broker", KAFKA, "--jobs", "2", "--property", "E4,D1", "--seed", "3")
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert f"kafka-admin-conformance: {KAFKA},preset=acl: no selected check needs it" in out, out[-3000:]
    runs = [Path(line) for line in (tmp_path / "last-run").read_text().split()]
    brokers = [json.loads((r / "manifest.json").read_text())["brokers"] for r in runs]
    assert [[(b["spec"], b.get("companion_of")) for b in bs] for bs in brokers] == [
        [(KAFKA, None)], [(f"{KAFKA},nodes=3", KAFKA)]]
    rows = [r for run in runs for r in read_rows(run / "results.jsonl")]
    assert {(r["property"], r["broker"]) for r in rows} == {("D1", KAFKA), ("E4", f"{KAFKA},nodes=3")}
    assert not leftovers(tmp_path)


def test_a_companion_follows_its_own_settings_from_its_first_check(tmp_path):
    """A companion starts at its first check, and that check already follows what the
    companion says of itself: on kafka:3.9.2 (DeleteTopics v0-6) every P5 deletion-disabled
    cell, v0 first, is asked on KAFKA,preset=nodelete and passes (it was unsupported "this one
    has delete.topic.enable=true" when the settings were read before the start)."""
    spec = "kafka:3.9.2"
    cmd, env = suite(tmp_path, "--broker", spec, "--property", "P5", "-k", "deletion_disabled", "--seed", "3")
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    rows = read_rows(last_run(tmp_path) / "results.jsonl")
    assert sorted(r["api_version"] for r in rows) == list(range(7))
    assert {(r["broker"], r["outcome"]) for r in rows} == {(f"{spec},preset=nodelete", "pass")}, \
        [(r["api_version"], r["outcome"], r["message"]) for r in rows]
    assert not leftovers(tmp_path)


def test_on_kafka_every_advertised_version_of_every_admin_api_has_rows(kafka_ci_run):
    rows = kafka_ci_run.rows
    broker = kafka_ci_run.release
    assert broker["impl"] == "apache-kafka" and broker["version"] == NEWEST_RELEASE
    assert broker["kafka_release"] == ".".join(NEWEST_RELEASE.split(".")[:2])
    seen = {(r["api_key"], r["api_version"]) for r in rows if r["property"] == "P1" and r["outcome"] == "pass"}
    asked = {(r["property"], r["api_key"], r["api_version"]) for r in rows if r["outcome"] in ("pass", "fail")}
    advertised = {int(k): v for k, v in broker["api_versions"].items()}
    # every API the broker serves is declared (an admin API: checked below) or excluded with a reason
    unknown = sorted(k for k in advertised if k not in {int(d) for d in DECLARATIONS} and k not in NOT_DECLARED)
    assert not unknown, f"APIs {unknown} are served by kafka:{NEWEST_RELEASE} but neither declared nor in " \
                        "protocol.apis.NOT_DECLARED"
    for key in ADMIN_KEYS:
        assert int(key) in advertised, f"{key.name} is declared an admin API but kafka:{NEWEST_RELEASE} does not serve it"
        lo, hi = advertised[int(key)]
        assert hi <= APIS[key].max_version, f"{key.name}: Kafka serves v{hi}, the codec only v{APIS[key].max_version}"
        missing = [v for v in range(lo, hi + 1) if (key, v) not in seen]
        assert not missing, f"API {key}: no passing P1 row at v{missing}"
        missing = [v for v in range(lo, hi + 1) if ("P2", key, v) not in asked]
        assert not missing, f"API {key}: no P2 row (pass or fail) at v{missing}"
        assert ("P3", key, hi + 1) in asked, f"API {key}: no P3 row above v{hi}"
    # ... and, in the catalogue, a property of its own beyond P1-P6 (issue 28), but the listed gaps
    from tests.test_catalogue import WITHOUT_SEMANTICS, semantic_properties
    own = semantic_properties()
    bare = sorted(APIS[k].name for k in ADMIN_KEYS if int(k) in advertised and not own[APIS[k].name])
    assert set(bare) <= WITHOUT_SEMANTICS, f"served by kafka:{NEWEST_RELEASE} with no property beyond P1-P6: {bare}"


def test_the_known_deviations_reproduce_by_hand_on_kafka():
    """Each entry's raw request, sent by a plain socket, reproduces on the newest release:
    one line per entry saying exactly "reproduced" (not "NOT reproduced", not "undecided")."""
    from reference.known_deviations import entries

    proc = subprocess.run([sys.executable, "-m", "fixtures.known_replay", "--release", NEWEST_RELEASE], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    for e in entries():
        if any(NEWEST_RELEASE.startswith(line + ".") for line in e.releases):
            at = KAFKA + (f",preset={e.doc['preset']}" if e.doc.get("preset") else "")   # L4's: an authorizer
            assert any(x.startswith(f"{e.id} @ {at}: reproduced: ") for x in lines), (e.id, proc.stdout)
    assert "NOT reproduced" not in proc.stdout and "undecided" not in proc.stdout, proc.stdout


def test_on_kafka_the_known_deviation_costs_one_row_per_version_and_nothing_else(kafka_ci_run):
    """Issue 25: where Kafka's known defect applies, V1-V3 and S1 keep asking AlterConfigs
    with their full example budget (their generators leave the defect's shape out), the
    defect is one row per advertised version of its dedicated check, and no row waited on an
    unanswered request but a known deviation's dedicated check."""
    from fixtures.plugin import PROFILES
    from reference.known_deviations import entries
    from reports import known

    rows = kafka_ci_run.rows
    budget = PROFILES["ci"]
    for prop in ("V1", "V2", "V3", "S1"):
        mine = [r for r in rows if r["property"] == prop and r["api_key"] == ApiKey.AlterConfigs]
        assert mine, prop
        for r in mine:
            assert (r["outcome"], r["examples"]) == ("pass", budget), (prop, r["api_version"], r["message"])
    entry = known.read()[0]
    lo, hi = kafka_ci_run.release["api_versions"][str(entry.api_key)]
    dedicated = [r for r in rows if known.check_function(r) == entry.test]
    assert sorted(r["api_version"] for r in dedicated) == list(range(lo, min(hi, max(entry.api_versions)) + 1))
    assert all(entry.matches(r) for r in dedicated), [r["message"] for r in dedicated]
    waited = [r for r in rows if "no answer within" in (r["message"] or "")]
    assert {r["row_id"] for r in dedicated} <= {r["row_id"] for r in waited}
    # every other row that waited is the dedicated check of another entry whose symptom is a
    # late or missing answer (DescribeShareGroupOffsets' stall), matched in its whole shape
    unexplained = [r for r in waited if not any(known.check_function(r) == e.test and e.matches(r)
                                                for e in known.read())]
    assert not unexplained, [(r["property"], r["api_name"], r["api_version"], r["message"][:120])
                             for r in unexplained]
    timeout = float(kafka_ci_run.manifests[0].get("request_timeout") or 15.0)
    assert all(r["duration_s"] < 2 * timeout + 10 for r in dedicated), [r["duration_s"] for r in dedicated]
    assert [e.id for e in entries()] == [e.id for e in known.read()]


def test_a_second_c4_kind_failing_beside_the_known_one_fails_known_and_the_gate(tmp_path):
    """The mutant alter-configs-unknown-key-accepted makes C4's unknown-key kind fail on Kafka,
    in the cell where the known deviation's dedicated check fails too: ``reports.known``
    names the new row and fails, and the gate fails on it against a baseline in which the
    same cell held only the known row."""
    spec = f"proxy:alter-configs-unknown-key-accepted@{KAFKA}"
    common = ("--broker", spec, "--property", "C4", "--request-timeout", "3", "--seed", "25")
    base_dir, new_dir = tmp_path / "base", tmp_path / "new"
    for where, k in ((base_dir, "AlterConfigs-v0 and twice"), (new_dir, "AlterConfigs-v0 and not Incremental")):
        where.mkdir()
        cmd, env = suite(where, *common, "-k", k)
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    base, new = last_run(base_dir), last_run(new_dir)
    rows = read_rows(new / "results.jsonl")
    failing = {r["check"] for r in rows if r["outcome"] == "fail"}
    assert failing == {"test_c4_invalid_config_changes_get_kafkas_error_and_change_nothing[kind=unknown key]",
                       "test_c4_alter_configs_naming_one_resource_twice_answers_invalid_request_for_both"}, failing
    py = [sys.executable, "-m"]
    assert subprocess.run(py + ["reports.known", str(base)], cwd=ROOT, capture_output=True, text=True).returncode == 0
    k = subprocess.run(py + ["reports.known", str(new)], cwd=ROOT, capture_output=True, text=True)
    assert k.returncode == 1 and "NEW: " in k.stdout and "unknown key" in k.stdout, k.stdout + k.stderr
    assert "known deviation alter-configs-duplicate-resource-never-answered: 1 row(s)" in k.stdout
    g = subprocess.run(py + ["reports.gate", str(new), "--baseline", str(base)], cwd=ROOT, capture_output=True,
                       text=True)
    assert g.returncode == 1, g.stdout + g.stderr
    assert "gained a failing row the baseline did not have" in g.stdout and "kind=unknown key" in g.stdout
    assert not leftovers(new_dir) and not leftovers(base_dir)


def test_a_target_error_names_the_spec():
    with pytest.raises(TargetError, match="kafka:4.1.0,nodes=0"):
        make_target("kafka:4.1.0,nodes=0")


def test_a_build_of_your_own_runs_through_the_same_start_code(tmp_path):
    """kafka-dist:PATH: a distribution folder (here the release's jars as PATH/libs) starts
    as kafka:VERSION does and knows its version from its kafka-clients jar."""
    libs = make_target(KAFKA).libs()
    dist = tmp_path / "kafka_2.13-dist"
    (dist / "libs").mkdir(parents=True)
    for jar in libs.glob("*.jar"):
        (dist / "libs" / jar.name).symlink_to(jar)
    target = make_target(f"kafka-dist:{dist},nodes=1")
    info = target.start()
    try:
        assert (info.impl, info.version) == ("apache-kafka", NEWEST_RELEASE)
        assert info.advertised(ApiKey.DeleteTopics), "no DeleteTopics"
    finally:
        target.stop()
    assert target.workdir is None
    with pytest.raises(TargetError, match="is not a Kafka distribution"):
        make_target(f"kafka-dist:{tmp_path / 'nothing'}")
