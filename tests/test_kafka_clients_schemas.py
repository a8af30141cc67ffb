"""The message schemas vendored from the kafka-clients jar (protocol/kafka_clients): byte for
byte what the pinned jar on Maven Central packages, the jar the manifest names, every one a
declaration uses, and read the way Kafka's generator reads them."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from protocol import apis, codec, kafka_clients
from protocol.kafka_clients import extract

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(kafka_clients.__file__).resolve().parent


@pytest.fixture(scope="module")
def pinned_jar() -> Path:
    """The kafka-clients jar the manifest pins, resolved by the suite's Maven machinery."""
    from fixtures.brokers.kafka import resolve_release
    version = kafka_clients.manifest()["maven"].rsplit(":", 1)[1]
    jar = resolve_release(version) / kafka_clients.manifest()["jar"]
    assert jar.is_file(), jar
    return jar


def test_the_vendored_files_are_the_pinned_jars_byte_for_byte(pinned_jar, tmp_path):
    m = kafka_clients.manifest()
    assert m["maven"] == extract.coordinates(pinned_jar)
    assert m["sha256"] == extract.sha256(pinned_jar)
    again = extract.read(pinned_jar, m["files"])
    for name, data in again.items():
        assert (HERE / name).read_bytes() == data, f"{name} differs from {m['jar']}"
    # the script writes the same files and manifest again
    for name in m["files"]:
        (tmp_path / name).write_bytes(b"stale")
    (tmp_path / "manifest.json").write_text((HERE / "manifest.json").read_text())
    assert extract.extract(pinned_jar, tmp_path) == m
    assert all((tmp_path / n).read_bytes() == (HERE / n).read_bytes() for n in m["files"])


def test_the_manifest_lists_exactly_the_files_there_and_each_declared_origin():
    m = kafka_clients.manifest()
    on_disk = sorted(p.name for p in HERE.glob("*.json") if p.name != "manifest.json")
    assert on_disk == m["files"]
    assert hashlib.sha256(b"").hexdigest() != m["sha256"] and len(m["sha256"]) == 64
    declared = [s for s in apis.DECLARATIONS.values() if s.schemas is not None]
    assert declared
    for s in declared:
        assert kafka_clients.has(s.name), s.name
        assert m["maven"] in s.schemas.origin and f"{s.name}Request.json" in s.schemas.origin


def test_comments_are_read_as_kafkas_generator_reads_them():
    """The files keep Kafka's // comments (license, version notes); the loaded schema has none
    of them and its commonStructs are inlined, as kafka-python reads its own copies."""
    raw = (HERE / "CreateDelegationTokenRequest.json").read_text()
    assert raw.lstrip().startswith("//") and "// Version" in raw
    request, response = kafka_clients.schemas("DescribeShareGroupOffsets")
    assert request["apiKey"] == response["apiKey"] == apis.ApiKey.DescribeShareGroupOffsets
    assert not any("//" in json.dumps(f) for f in request["fields"])
    api = codec.APIS[apis.ApiKey.DescribeDelegationToken]
    assert (api.kafka_min_version, api.max_version) == (1, 3) and api.flexible_from == 2
    with pytest.raises(LookupError, match="extract"):
        kafka_clients.schemas("NoSuchApi")


def test_a_newer_kafka_schema_replaces_kafka_pythons_older_one():
    """kafka-python 3.0.12 ships ApiVersions up to v4 and DeleteGroups up to v2; Kafka 4.4 serves
    v5 and v3, so their declarations name the jar's schemas (ApiVersions keeps kafka-python's
    non-flexible response header, KIP-511)."""
    from kafka.protocol.admin import DeleteGroupsRequest
    from kafka.protocol.metadata import ApiVersionsResponse
    assert codec.APIS[apis.ApiKey.ApiVersions].max_version == 5
    assert codec.APIS[apis.ApiKey.DeleteGroups].max_version == 3 > DeleteGroupsRequest.max_version
    assert issubclass(codec.APIS[apis.ApiKey.ApiVersions].response, ApiVersionsResponse)


def test_the_script_refuses_a_jar_it_cannot_read_in_one_line(tmp_path):
    bad = tmp_path / "kafka-clients-9.9.9.jar"
    bad.write_bytes(b"not a zip")
    proc = subprocess.run([sys.executable, "-m", "protocol.kafka_clients.extract", str(bad)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stderr.startswith("ERROR: ") and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
