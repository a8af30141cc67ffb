"""What the suite writes in a Kafka node's server.properties (fixtures/brokers/kafka.py),
read without starting a JVM; what the broker then answers is in tests/test_kafka_target.py."""
from __future__ import annotations

from fixtures.brokers import make_target

LINGER = "controller.quorum.append.linger.ms"


def properties(spec: str, tmp_path) -> dict[str, str]:
    target = make_target(spec)
    target.workdir = tmp_path
    text = target.server_properties(1, [9092] * target.nodes, [9093] * target.nodes)
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def test_a_kraft_node_flushes_metadata_writes_at_once(tmp_path):
    """Kafka's leader lingers 25 ms for writes to batch (QuorumConfig); the suite sends one at
    a time, so every metadata write would wait it out."""
    for spec in ("kafka:4.4.0", "kafka:3.3.2", "kafka:4.4.0,nodes=3", "kafka:4.4.0,preset=acl"):
        assert properties(spec, tmp_path)[LINGER] == "0", spec


def test_config_key_value_overrides_the_suites_linger(tmp_path):
    assert properties(f"kafka:4.4.0,config.{LINGER}=25", tmp_path)[LINGER] == "25"


def test_zookeeper_mode_has_no_kraft_quorum_to_configure(tmp_path):
    assert LINGER not in properties("kafka:3.9.2,mode=zk", tmp_path)


def test_a_nodes_folders_go_to_memory_unless_the_user_names_a_place(monkeypatch, tmp_path):
    """fixtures/brokers/kafka.py ``data_root``: ``KAC_KAFKA_DATA_DIR``, else the TMPDIR the
    user set, else /dev/shm when it is a writable tmpfs with room, else the system's temp."""
    from fixtures.brokers import kafka

    monkeypatch.setenv("KAC_KAFKA_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("TMPDIR", "/somewhere")
    assert kafka.data_root() == str(tmp_path)
    monkeypatch.delenv("KAC_KAFKA_DATA_DIR")
    assert kafka.data_root() is None
    monkeypatch.delenv("TMPDIR")
    import os
    shm = os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK)
    assert kafka.data_root() == ("/dev/shm" if shm else None)
    monkeypatch.setattr(kafka, "SHM_FREE_BYTES", 1 << 62)      # more than any machine has free
    assert kafka.data_root() is None


def test_a_kraft_controller_appends_no_idle_no_op_records_unless_told(tmp_path):
    """KIP-835's NoOpRecord every 500 ms is published by every node's metadata loader; the
    suite's nodes append none (0), and config.KEY=VALUE puts Kafka's default back."""
    idle = "metadata.max.idle.interval.ms"
    for spec in ("kafka:4.4.0", "kafka:3.3.2", "kafka:4.4.0,nodes=3", "kafka:4.4.0,preset=acl"):
        assert properties(spec, tmp_path)[idle] == "0", spec
    assert properties(f"kafka:4.4.0,config.{idle}=500", tmp_path)[idle] == "500"
    assert idle not in properties("kafka:3.9.2,mode=zk", tmp_path)


def test_separate_controllers_are_the_quorum_and_serve_no_client(tmp_path):
    """``nodes=2,controllers=3``: nodes 1-2 brokers, 3-5 controllers (KIP-500's layout); the
    voters are the controllers, a broker has no controller listener, a controller no client one."""
    target = make_target("kafka:4.4.0,nodes=2,controllers=3")
    target.workdir = tmp_path

    def node(n):
        text = target.server_properties(n, [9092, 9094], [9101, 9102, 9103])
        return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    voters = "3@127.0.0.1:9101,4@127.0.0.1:9102,5@127.0.0.1:9103"
    broker, controller = node(2), node(4)
    assert target.node_count() == 5 and broker["controller.quorum.voters"] == voters == controller["controller.quorum.voters"]
    assert broker["process.roles"] == "broker" and broker["listeners"] == "PLAINTEXT://127.0.0.1:9094"
    assert broker["advertised.listeners"] == "PLAINTEXT://127.0.0.1:9094" and broker["node.id"] == "2"
    assert controller["process.roles"] == "controller" and controller["listeners"] == "CONTROLLER://127.0.0.1:9102"
    assert "advertised.listeners" not in controller and "inter.broker.listener.name" not in controller
    assert controller["node.id"] == "4" and controller["controller.listener.names"] == "CONTROLLER"


def test_separate_controllers_run_in_kraft_mode_without_the_acl_preset():
    import pytest
    from fixtures.brokers import TargetError
    for spec, says in (("kafka:3.9.2,mode=zk,controllers=3", "drop mode=zk"),
                       ("kafka:4.4.0,preset=acl,controllers=3", "drop preset=acl"),
                       ("kafka:4.4.0,controllers=9", "from 1 to 5")):
        with pytest.raises(TargetError, match=says):
            make_target(spec)
