"""Kafka's classes archived once per class path (fixtures/brokers/class_archive.py): one
creator at a time, an archive kept only from a JVM that exited on its own, and a real JVM
maps what a real JVM wrote."""
from __future__ import annotations

import subprocess

import pytest

from fixtures.brokers.class_archive import ClassArchive
from fixtures.brokers.kafka import java, jvm_options


def archive(tmp_path, options=("-XX:+UseSerialGC",)):
    jars = tmp_path / "libs"
    if not jars.exists():
        jars.mkdir()
        (jars / "a.jar").write_bytes(b"x")
    return ClassArchive(tmp_path / "cds", java(), list(options), [jars / "*"])


def test_one_creator_at_a_time_and_the_rest_use_what_it_kept(tmp_path):
    first, second = archive(tmp_path), archive(tmp_path)
    assert first.path == second.path
    create = first.options(may_create=True)
    assert create[0].startswith("-XX:ArchiveClassesAtExit=")
    assert second.options(may_create=True) == []          # the lock is held: no second creator
    written = create[0].split("=", 1)[1]
    open(written, "wb").write(b"archive")
    first.finish(exited_cleanly=True)
    assert first.path.read_bytes() == b"archive"
    assert second.options(may_create=True) == [f"-XX:SharedArchiveFile={first.path}"]
    assert list((tmp_path / "cds").glob("*.tmp")) == []


def test_a_killed_creator_leaves_no_archive_and_frees_the_lock(tmp_path):
    first = archive(tmp_path)
    written = first.options(may_create=True)[0].split("=", 1)[1]
    open(written, "wb").write(b"half an arch")
    first.finish(exited_cleanly=False)
    assert not first.path.exists() and not list((tmp_path / "cds").glob("*.tmp"))
    assert archive(tmp_path).options(may_create=True)[0].startswith("-XX:ArchiveClassesAtExit=")


def test_another_jar_a_rebuilt_jar_or_another_jvm_option_is_another_archive(tmp_path):
    import os
    before = archive(tmp_path).path
    assert archive(tmp_path).path == before
    assert archive(tmp_path, options=("-XX:+UseG1GC",)).path != before
    jar = tmp_path / "libs" / "a.jar"
    os.utime(jar, ns=(jar.stat().st_atime_ns, jar.stat().st_mtime_ns + 10**9))   # rebuilt: same size
    rebuilt = archive(tmp_path).path
    assert rebuilt != before
    (tmp_path / "libs" / "b.jar").write_bytes(b"y")
    assert archive(tmp_path).path not in (before, rebuilt)


def test_kac_kafka_cds_0_turns_archives_off(tmp_path, monkeypatch):
    monkeypatch.setenv("KAC_KAFKA_CDS", "0")
    assert archive(tmp_path).options(may_create=True) == []


@pytest.mark.slow
def test_a_jvm_maps_the_archive_a_kafka_jvm_wrote(tmp_path):
    """kafka.Kafka without arguments prints its usage and exits on its own: its archive is
    kept, and a JVM told ``-Xshare:on`` (which refuses to start without mapping it) uses it."""
    from fixtures.brokers import make_target
    libs = make_target("kafka:4.4.0").libs()
    a = ClassArchive(tmp_path / "cds", java(), jvm_options(), [libs / "*"])
    cmd = [java(), *jvm_options()]
    first = subprocess.run([*cmd, *a.options(may_create=True), "-cp", f"{libs}/*", "kafka.Kafka"],
                           capture_output=True, text=True, timeout=300)
    assert first.returncode == 1 and "USAGE" in (first.stdout + first.stderr).upper(), first.stderr[-500:]
    a.finish(exited_cleanly=True)
    assert a.path.exists() and a.path.stat().st_size > 1_000_000
    second = subprocess.run([*cmd, *a.options(may_create=False), "-Xshare:on", "-Xlog:cds=info",
                             "-cp", f"{libs}/*", "kafka.Kafka"], capture_output=True, text=True, timeout=300)
    assert second.returncode == 1, second.stdout[-1000:] + second.stderr[-1000:]
    assert "Opened archive" in second.stdout and a.path.name in second.stdout, second.stdout[-1500:]
