"""The container targets (container:tansu, image:REF) against a real Docker engine.

Tests that need an engine skip, with the reason, only when none is reachable; CI sources
``.ci/dockerd.sh`` first so that one is (it sets KAC_REQUIRE_DOCKER=1, which turns the
skip into a failure). The image-family settings and the spec parsing
are checked without Docker.
"""
from __future__ import annotations

import os
import socket
import time
import uuid

import pytest

from protocol import wire
from protocol.apis import ApiKey
from fixtures.brokers import TargetError, make_target
from fixtures.brokers import container as ct

ADMIN_APIS = {k: k.name for k in (ApiKey.CreateTopics, ApiKey.DeleteTopics, ApiKey.DeleteRecords,
                                  ApiKey.DescribeConfigs, ApiKey.IncrementalAlterConfigs)}


@pytest.fixture(scope="module")
def engine():
    try:
        client = ct.docker_client("tests")
    except TargetError as exc:
        if os.environ.get("KAC_REQUIRE_DOCKER") == "1":     # set by .ci/dockerd.sh
            pytest.fail(f"KAC_REQUIRE_DOCKER=1 but {exc}")
        pytest.skip(f"no Docker engine reachable ({exc}); in CI source .ci/dockerd.sh first")
    yield client
    client.close()


def _ours(client):
    return client.containers.list(all=True, filters={"label": f"{ct.RUN_LABEL}={os.getpid()}"})


@pytest.fixture
def no_leftovers(engine):
    """Every test that starts containers must leave none of its own behind."""
    before = {c.id for c in _ours(engine)}
    yield
    left = [c.name for c in _ours(engine) if c.id not in before]
    assert not left, f"containers left behind: {left}"


# -- with Docker ----------------------------------------------------------------------------
def test_container_tansu_starts_answers_and_is_removed(engine, no_leftovers):
    target = make_target("container:tansu")
    info = target.start()
    try:
        assert (info.impl, info.version) == ("tansu", "0.6.0")
        missing = [name for key, name in ADMIN_APIS.items() if key not in info.api_versions]
        assert not missing, f"ApiVersions lacks {missing}"
        assert wire.probe(info.host, info.port) == info.api_versions
        assert target.alive()
        cid = target.container_id
        c = engine.containers.get(cid)
        assert c.labels[ct.RUN_LABEL] == str(os.getpid())
        assert c.image.tags == [ct.tansu_image()]
        if target.network == "host":
            assert c.attrs["HostConfig"]["NetworkMode"] == "host"
            assert info.host == "127.0.0.1"
    finally:
        target.stop()
    assert engine.containers.list(all=True, filters={"id": cid}) == []
    assert not target.alive()
    target.stop()                     # idempotent, never raises


def test_kill_makes_alive_false_and_stop_still_removes(engine, no_leftovers):
    target = ct.TansuContainer()
    with target as info:
        assert target.alive()
        target.kill()
        assert not target.alive()
        assert _refused(info)                               # nothing listens any more
        assert "tansu broker" in target.diagnostics()      # the log outlives the kill
        cid = target.container_id
        assert engine.containers.get(cid).status == "exited"
    assert engine.containers.list(all=True, filters={"id": cid}) == []


def _refused(info) -> bool:
    try:
        wire.Connection(info.host, info.port, timeout=2.0).connect().close()
        return False
    except wire.BrokerUnreachable:
        return True


def test_image_spec_runs_the_local_tansu_image(engine, no_leftovers):
    target = make_target(f"image:{ct.tansu_image()}")
    with target as info:
        assert (info.impl, info.version, target.family) == ("tansu", "0.6.0", "tansu")
        assert ApiKey.CreateTopics in info.api_versions


def test_missing_image_is_a_one_line_error(engine, no_leftovers):
    ref = f"kafka-admin-conformance/no-such-broker-{uuid.uuid4().hex[:8]}:0"
    target = make_target(f"image:{ref}")
    with pytest.raises(TargetError) as err:
        target.start()
    msg = str(err.value)
    assert "\n" not in msg
    assert f"image {ref} not found locally and cannot be pulled" in msg
    assert "build or load it first" in msg


def test_missing_tansu_image_is_built_on_first_use(engine, no_leftovers, monkeypatch):
    tag = f"kafka-admin-conformance/tansu-selftest:{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(ct, "tansu_image", lambda: tag)
    assert not ct.image_present(engine, tag)
    try:
        with ct.TansuContainer() as info:
            assert info.version == "0.6.0"
        image = engine.images.get(tag)
        assert image.labels[ct.VERSION_LABEL] == "0.6.0"
        assert image.attrs["Config"]["Entrypoint"] == ["/tansu"]
    finally:
        try:
            engine.images.remove(tag, force=True)
        except Exception:
            pass


def test_sweep_removes_containers_of_dead_runs_only(engine):
    try:
        dead_pid = int(open("/proc/sys/kernel/pid_max").read()) + 1     # never a live process
    except OSError:
        dead_pid = 4194305
    made = []
    try:
        for pid in (dead_pid, os.getpid()):
            made.append(engine.containers.create(
                ct.build_tansu_image(engine), ["--help"], network_mode="host",
                labels={ct.RUN_LABEL: str(pid), ct.HOST_LABEL: socket.gethostname()},
                name=f"kac-sweep-test-{pid}-{uuid.uuid4().hex[:4]}"))
        removed = ct.sweep_leftovers(engine)
        assert made[0].name in removed and made[1].name not in removed
        assert engine.containers.list(all=True, filters={"id": made[0].id}) == []
    finally:
        for c in made:
            try:
                c.remove(force=True)
            except Exception:
                pass


def test_network_choice_follows_the_engine(engine, monkeypatch):
    monkeypatch.setenv("KAC_DOCKER_NETWORK", "host")
    assert ct.network_mode(engine) == "host"
    monkeypatch.setenv("KAC_DOCKER_NETWORK", "mapped")
    assert ct.network_mode(engine) == "mapped"
    monkeypatch.delenv("KAC_DOCKER_NETWORK")
    bridge = any(n.name == "bridge" for n in engine.networks.list())
    assert ct.network_mode(engine) == ("mapped" if bridge else "host")
    monkeypatch.setenv("KAC_DOCKER_NETWORK", "overlay")
    with pytest.raises(TargetError):
        ct.network_mode(engine)


# -- without Docker -----------------------------------------------------------------------------
def test_no_docker_engine_is_a_one_line_error(monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/kac-docker.sock")
    start = time.monotonic()
    with pytest.raises(TargetError) as err:
        make_target("container:tansu").start()
    msg = str(err.value)
    assert "\n" not in msg
    assert "DOCKER_HOST=unix:///nonexistent/kac-docker.sock" in msg
    assert "start the Docker daemon" in msg
    assert time.monotonic() - start < 30


def test_specs():
    assert isinstance(make_target("container:tansu"), ct.TansuContainer)
    with pytest.raises(TargetError, match="container:tansu"):
        make_target("container:kafka")
    t = make_target("image:apache/kafka:4.1.0")
    assert (t.family, t.impl, t._version()) == ("apache-kafka", "apache-kafka", "4.1.0")
    t = make_target("image:docker.redpanda.com/redpandadata/redpanda:v24.2.7")
    assert (t.family, t.impl, t._version()) == ("redpanda", "redpanda", "24.2.7")
    t = make_target("image:confluentinc/cp-kafka:7.7.1")
    assert (t.family, t.impl) == ("confluent", "cp-kafka")
    t = make_target("image:ghcr.io/tansu-io/tansu:latest")
    assert (t.family, t.impl, t._version()) == ("tansu", "tansu", "latest")
    t = make_target("image:localhost:5000/someone/broker")
    assert (t.family, t.impl, t.tag) == ("generic", "broker", None)
    assert ct.split_ref("reg:5000/a/b:1.2@sha256:ab") == ("reg:5000/a/b", "1.2", "sha256:ab")


@pytest.mark.parametrize("family", ["apache-kafka", "confluent"])
def test_kafka_family_settings(family):
    env = ct.family_config(family, "host", "127.0.0.1", 40000)["env"]
    assert env["KAFKA_PROCESS_ROLES"] == "broker,controller"
    assert env["KAFKA_ADVERTISED_LISTENERS"].startswith("PLAINTEXT://127.0.0.1:40000,")
    assert "PLAINTEXT://127.0.0.1:40000" in env["KAFKA_LISTENERS"]
    assert "CONTROLLER" not in env["KAFKA_ADVERTISED_LISTENERS"]
    ctrl = env["KAFKA_CONTROLLER_QUORUM_VOTERS"].split(":")[-1]
    assert f"CONTROLLER://127.0.0.1:{ctrl}" in env["KAFKA_LISTENERS"] and ctrl not in ("9093",)
    assert env["KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR"] == "1" and len(env["CLUSTER_ID"]) == 22
    mapped = ct.family_config(family, "mapped", "127.0.0.1", 40001)["env"]
    assert "PLAINTEXT://0.0.0.0:9092" in mapped["KAFKA_LISTENERS"]
    assert mapped["KAFKA_ADVERTISED_LISTENERS"].startswith("PLAINTEXT://127.0.0.1:40001,")


def test_redpanda_and_tansu_settings():
    cmd = ct.family_config("redpanda", "mapped", "127.0.0.1", 40002)["command"]
    assert cmd[:4] == ["redpanda", "start", "--mode", "dev-container"] and "--smp" in cmd
    assert cmd[cmd.index("--kafka-addr") + 1] == "PLAINTEXT://0.0.0.0:9092"
    assert cmd[cmd.index("--advertise-kafka-addr") + 1] == "PLAINTEXT://127.0.0.1:40002"
    cmd = ct.family_config("redpanda", "host", "127.0.0.1", 40003)["command"]
    assert cmd[cmd.index("--kafka-addr") + 1] == "PLAINTEXT://127.0.0.1:40003"
    assert any(a.startswith("redpanda.admin=") for a in cmd)
    assert ct.family_config("tansu", "host", "127.0.0.1", 40004)["command"] == [
        "broker", "--listener-url", "tcp://127.0.0.1:40004", "--advertised-listener-url", "tcp://127.0.0.1:40004"]
    assert ct.family_config("tansu", "mapped", "127.0.0.1", 40005)["command"][2] == "tcp://0.0.0.0:9092"
    assert ct.family_config("generic", "host", "127.0.0.1", 9092) == {"command": None, "env": {}}
