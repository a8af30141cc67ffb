"""K2 (KIP-694's partition deletion as an overlay API) and K1's declared capability, as
users run them: the suite in a subprocess against tansu, the emulating proxy and a proxy that
advertises a future Kafka's versions.

* K2 passes through ``proxy:k2@tansu`` (a broker implementing DeletePartitions) and is
  ``unsupported`` on plain tansu, saying the feature is not declared; its API key follows
  ``--k2-api-key`` (a broker serving it under another key is unsupported, saying so);
* K1 is ``unsupported`` on a broker that advertises DeleteTopics v7 / DeleteRecords v3 (one
  above the schemas) without declaring ``kip201.version``;
* the codec overlay is additive (a key Kafka assigns is refused) and a bad ``--k2-api-key``
  is one line. That K2 can fail is shown by its mutants (faults/mutants/partition_deletion.py),
  which tests/test_proxy.py requires killed.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.capabilities import lacks
from reference import kip201
from reference import partition_deletion as pd
from fixtures.results import read_rows
from protocol import ApiKey, Errors, codec, requests

ROOT = Path(__file__).resolve().parents[1]


def run_suite(tmp_path, module: str, *args: str) -> tuple[list[dict], dict]:
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last"))
    proc = subprocess.run([sys.executable, "-m", "pytest", f"conformance/{module}", "-q", "-p", "no:cacheprovider",
                           "--results-dir", str(tmp_path), "--profile", "ci", "--seed", "13", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    run = Path((tmp_path / "last").read_text().strip())
    return read_rows(run / "results.jsonl"), json.loads((run / "manifest.json").read_text())


def by_broker(rows) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in rows:
        out.setdefault(r["broker"], []).append(r)
    return out


def test_k2_passes_through_the_emulating_proxy_and_is_unsupported_on_tansu(tmp_path):
    rows, _ = run_suite(tmp_path, "test_partition_deletion.py", "--broker", "tansu", "--broker", "proxy:k2@tansu")
    got = by_broker(rows)
    assert len(got["tansu"]) == len(got["proxy:k2@tansu"]) == 6
    for r in got["tansu"]:
        assert r["outcome"] == "unsupported", r
        assert pd.FEATURE in r["message"] and "does not declare" in r["message"], r["message"]
    for r in got["proxy:k2@tansu"]:
        assert r["outcome"] == "pass" and r["examples"] >= 1, r
        assert (r["property"], r["api_key"], r["api_name"], r["api_version"]) == \
            ("K2", pd.DEFAULT_API_KEY, "DeletePartitions", 0)


def test_the_k2_api_key_is_the_option_s(tmp_path):
    """The suite asks under --k2-api-key; an emulation serving the default key then lacks it."""
    rows, manifest = run_suite(tmp_path, "test_partition_deletion.py", "--k2-api-key", "20000",
                               "--broker", "proxy:k2=20000@tansu", "--broker", "proxy:k2@tansu")
    got = by_broker(rows)
    assert {r["outcome"] for r in got["proxy:k2=20000@tansu"]} == {"pass"}
    assert {r["api_key"] for r in rows} == {20000}
    for r in got["proxy:k2@tansu"]:
        assert r["outcome"] == "unsupported", r
        assert "under API key 20000" in r["message"] and "--k2-api-key" in r["message"], r["message"]
    advertised = {b["spec"]: b["api_versions"] for b in manifest["brokers"]}
    assert advertised["proxy:k2=20000@tansu"]["20000"] == [0, 0]
    assert advertised["proxy:k2@tansu"][str(pd.DEFAULT_API_KEY)] == [0, 0]


def test_k1_is_unsupported_on_a_broker_advertising_higher_versions_without_declaring_kip201(tmp_path):
    rows, manifest = run_suite(tmp_path, "test_kip201.py", "--broker", "proxy:future-delete-versions@tansu")
    advertised = manifest["brokers"][0]["api_versions"]
    for key, ov in kip201.OVERLAYS.items():     # the proxy really advertises KIP-201's versions
        assert advertised[str(int(key))][1] == ov.version
    assert rows and {r["property"] for r in rows} == {"K1"}
    for r in rows:
        assert r["outcome"] == "unsupported", r
        assert kip201.FEATURE in r["message"] and "does not declare KIP-201" in r["message"], r["message"]


@pytest.mark.parametrize("key,says", [("19", "Kafka's CreateTopics"), ("abc", "not a number"),
                                      ("40000", "not an int16 key")])
def test_a_bad_k2_api_key_is_one_line(key, says):
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance/test_partition_deletion.py", "-q",
                           "-p", "no:cacheprovider", "--k2-api-key", key],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and says in err[0] and "--k2-api-key" in err[0], proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.fixture
def codec_as_it_was():
    """Registering an overlay changes the codec's tables for the process: put them back."""
    saved = [(table, dict(table)) for table in (codec.APIS, codec.API_BY_NAME, codec.OVERLAY_APIS)]
    yield
    for table, before in saved:
        table.clear()
        table.update(before)


def test_the_overlay_api_round_trips_and_never_takes_a_kafka_key(codec_as_it_was):
    api = pd.register(pd.DEFAULT_API_KEY)
    assert pd.register(pd.DEFAULT_API_KEY) is api and codec.APIS[pd.DEFAULT_API_KEY] is api
    body = pd.delete_partitions(0, [("t", 2)], validate_only=True)
    frame = codec.encode_request(api.key, 0, body, 7)
    header, decoded = codec.decode_request(frame[4:])
    assert (header["api_key"], header["api_version"], decoded) == (api.key, 0, body)
    answer = {"throttle_time_ms": 0, "results": [{"name": "t", "error_code": int(Errors.INVALID_PARTITIONS),
                                                  "error_message": "m"}]}
    assert codec.decode_response(api.key, 0, codec.encode_response(api.key, 0, answer, 7)[4:]) == (7, answer)
    for key in (int(ApiKey.CreatePartitions), int(max(ApiKey))):
        with pytest.raises(ValueError, match="not free"):
            pd.register(key)
    with pytest.raises(requests.Inexpressible):
        pd.delete_partitions(1, [("t", 1)])


def test_a_feature_is_declared_only_by_its_name_at_the_level():
    assert lacks({}, pd.FEATURE, 1) == f"no feature {pd.FEATURE!r} in its ApiVersions v3+ SupportedFeatures"
    assert lacks({pd.FEATURE: (1, 1)}, pd.FEATURE, 1) is None
    assert "levels 2-3" in lacks({pd.FEATURE: (2, 3)}, pd.FEATURE, 1)
    assert lacks({"metadata.version": (1, 27)}, kip201.FEATURE, 1) is not None


def test_a_k2_finding_exports_a_reproducer_that_tells_the_fault_from_the_rule(tmp_path):
    """A K2 row that fails through a mutant exports (the overlay API is registered under the
    row's key by the exporter) and its repro.py exits 1 against the mutant, 0 against the
    emulation it broke."""
    from fixtures.brokers import make_target

    mutant = "proxy:k2-wrong-refusal-code@proxy:k2@tansu"
    env = dict(os.environ, KAC_LAST_RUN_FILE=str(tmp_path / "last"))
    subprocess.run([sys.executable, "-m", "pytest", "conformance/test_partition_deletion.py", "-q",
                    "-p", "no:cacheprovider", "--results-dir", str(tmp_path), "--profile", "ci", "--seed", "13",
                    "-k", "cannot_take", "--broker", mutant], cwd=ROOT, env=env, capture_output=True, timeout=300)
    results = Path((tmp_path / "last").read_text().strip()) / "results.jsonl"
    row = next(r for r in read_rows(results) if r["outcome"] == "fail")
    out = tmp_path / "repro"
    proc = subprocess.run([sys.executable, "-m", "fixtures.repro", "--export-repro", f"{results}:{row['row_id']}",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for spec, verdict in ((mutant, 1), ("proxy:k2@tansu", 0)):
        with make_target(spec) as info:
            run = subprocess.run(["python3", "-I", "-S", str(out / "repro.py"), f"{info.host}:{info.port}"],
                                 capture_output=True, text=True, timeout=120)
        assert run.returncode == verdict, (spec, run.stdout[-2000:])
