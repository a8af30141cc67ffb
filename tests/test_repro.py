"""Exported reproducers (fixtures/repro) are checked both ways, against real brokers.

* one decoder: a real answer reads the same in the suite (its codec's form, the judge's) and
  in an exported repro.py run standalone;
* for a sample of mutants: a row failing through ``proxy:MUTANT@noida`` exports a repro.py
  that, run by a bare ``python3 -I -S``, exits 1 against ``proxy:MUTANT@noida`` and 0
  against ``proxy:none@noida``;
* every failing row of a tansu run of the code-level properties exports and reproduces
  (exit 1) against a fresh tansu;
* Apache Kafka 4.4.0 never answers an AlterConfigs naming one topic twice: the exported
  reproducer exits 1 within its timeout (the release is resolved from Maven Central on first
  use, as every Kafka test's is: a cold cache costs seconds, never a skip);
* bad input is a one-line error, never a traceback;
* a row from a broker that signs clients in (preset=acl) signs in as each step's principal,
  and says how to give a password it does not carry.
"""
from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from protocol import codec, requests, wire
from protocol.apis import ApiKey
from protocol.errors import Errors
from fixtures import judge
from protocol import reader
from fixtures.judge.replay import _who
from fixtures.results import read_rows
from fixtures.brokers import make_target
from fixtures.repro.export import repro_source

ROOT = Path(__file__).resolve().parents[1]


def suite(tmp: Path, brokers: list[str], *args: str, path: str = "conformance") -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", path, "-q", "-p", "no:cacheprovider", "--profile", "ci",
         "--seed", "7", "--results-dir", str(tmp / "results"), *[a for b in brokers for a in ("--broker", b)],
         *args], cwd=ROOT, capture_output=True, text=True, timeout=1500)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    [run] = [p for p in (tmp / "results").iterdir() if p.is_dir()]
    return read_rows(run / "results.jsonl"), run / "results.jsonl"


def export(results: Path, row_id: int, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fixtures.repro", "--export-repro", f"{results}:{row_id}",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=120)


def repro(folder: Path, address: str, timeout: float | None = None) -> subprocess.CompletedProcess:
    """As a broker engineer runs it: no site-packages, no suite, from its own folder."""
    cmd = ["python3", "-I", "-S", "repro.py", address] + (["--timeout", str(timeout)] if timeout else [])
    return subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=600,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})


# -- the decoder ------------------------------------------------------------------------------

def _judges_form(v, field=""):
    """The suite's form of a value (protocol.reader ``native=True``) in the judge's: bytes as
    hex, a UUID as its text, an authorized-operations set as the int32 it came as."""
    if field.endswith("authorized_operations"):
        bits = -(1 << 31) if v is None else sum(1 << b for b in v)
        return bits - (1 << 32) if bits >= 1 << 31 else bits
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, uuid.UUID):
        return str(v)
    if isinstance(v, dict):
        return {k: _judges_form(x, k) for k, x in v.items()}
    if isinstance(v, list):
        return [_judges_form(x) for x in v]
    return v


def _without_absent_tags(native, judged):
    """``native`` with only the fields the judge's form has (it leaves out a tagged field the
    answer does not carry; the suite's form holds the schema default there)."""
    if isinstance(native, dict) and isinstance(judged, dict):
        return {k: _without_absent_tags(native[k], judged[k]) for k in judged if k in native}
    if isinstance(native, list) and isinstance(judged, list) and len(native) == len(judged):
        return [_without_absent_tags(x, y) for x, y in zip(native, judged)]
    return native


def _read_by_repro_py(tmp_path, answers):
    """Each (schema, api key, version, bytes) read by an exported repro.py's decoder, run as a
    broker engineer runs it (``python3 -I -S``, no site-packages, no suite)."""
    data = {"title": "decoder", "row": {"run_id": "r", "row_id": 1}}
    (tmp_path / "repro.py").write_text(repro_source(data), encoding="utf-8")
    (tmp_path / "answers.json").write_text(json.dumps([[s, k, v, raw.hex()] for s, k, v, raw in answers]))
    read = ("import json, runpy\n"
            "g = runpy.run_path('repro.py', run_name='repro')\n"
            "print(json.dumps([list(g['decode_response'](s, k, v, bytes.fromhex(raw)))\n"
            "                  for s, k, v, raw in json.load(open('answers.json'))]))\n")
    p = subprocess.run(["python3", "-I", "-S", "-c", read], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    assert p.returncode == 0, p.stderr
    return [tuple(x) for x in json.loads(p.stdout)]


@pytest.mark.parametrize("broker", ["tansu", "noida"])
def test_a_real_answer_reads_the_same_in_the_suite_and_in_an_exported_repro_py(broker, tmp_path):
    """One decoder (protocol/reader.py): a real broker's answers, as the suite's codec reads
    them for its callers, as the judge reads them in-process and as an exported repro.py reads
    them standalone, are the same values (the codec's form: bytes, UUIDs, bit fields as sets
    and the defaults of tagged fields the answer leaves out, and it encodes back to itself)."""
    with make_target(broker) as info:
        conn = wire.Connection(info.host, info.port, timeout=10)
        name = "kac-decoder-" + uuid.uuid4().hex[:6]
        answers, suite_reads = [], []
        try:
            # a topic of its own first, so that answers carry its topic id (a UUID)
            for key, body in ((ApiKey.CreateTopics, lambda v: requests.create_topics(v, [requests.topic(name, 2)])),
                              (ApiKey.Metadata, lambda v: requests.metadata(v, [name])),
                              (ApiKey.DescribeConfigs, lambda v: requests.describe_configs(v, [(name, None)])),
                              (ApiKey.DescribeCluster,
                               lambda v: requests.describe_cluster(v, include_cluster_authorized_operations=True)),
                              (ApiKey.ApiVersions, lambda v: {})):
                rng = info.advertised(key)
                if rng is None:
                    continue
                for v in sorted({rng[0], min(rng[1], codec.APIS[key].max_version)}):
                    ex = conn.send(key, v, body(v))
                    if not ex.ok:
                        continue
                    schema = codec.APIS[key].response_schema
                    answer = judge.read_answer(schema, key, v, ex.correlation_id, "ok", ex.raw)
                    assert answer.status == "ok", (key, v, answer.detail)
                    answers.append((schema, int(key), v, ex.raw))
                    suite_reads.append((ex.correlation_id, answer.response, ex.response))
        finally:
            conn.close()
    assert len(answers) >= 4
    for (schema, key, v, _), (cid, judged, native), standalone in zip(
            answers, suite_reads, _read_by_repro_py(tmp_path, answers)):
        assert standalone == (cid, judged), (key, v)
        assert _judges_form(_without_absent_tags(native, judged)) == judged, (key, v)
        assert set(native) >= set(judged), (key, v)
        # the suite's form is what the request encoder takes back (the proxy re-encodes it)
        again = codec.encode_response(key, v, native, cid)[4:]
        assert codec.decode_response(key, v, again) == (cid, native), (key, v)


def test_the_standalone_decoder_knows_apiversions_by_kafkas_key():
    """fixtures/judge may not import the suite: the API keys it numbers are checked against protocol here."""
    assert judge.API_VERSIONS == ApiKey.ApiVersions
    assert (reader.SASL_HANDSHAKE, reader.SASL_AUTHENTICATE) == (ApiKey.SaslHandshake, ApiKey.SaslAuthenticate)


def test_the_standalone_decoder_bounds_an_open_version_range_by_protocols_int16():
    """fixtures/judge may not import the suite: its int16 bound is checked against protocol.wire here."""
    assert reader.INT16_MAX == wire.INT16_MAX


def _api_versions_v3(cid):
    """An ApiVersions v3 answer (header v0, compact array, tagged fields) advertising one API."""
    return (struct.pack(">ih", cid, 0) + bytes([2]) + struct.pack(">hhh", ApiKey.Metadata, 0, 12) + b"\0"
            + struct.pack(">i", 0) + b"\0")


def test_an_apiversions_answer_read_neither_as_asked_nor_as_v0_is_undecodable():
    """The v0 fallback (Kafka's clients read an UNSUPPORTED_VERSION answer as v0) is tried
    only as a second reading: an answer cut short that reads neither way is ``undecodable``
    at the version asked, never an exception out of the judge's reader; a v0 answer to a v3
    request still reads as v0."""
    schema = codec.APIS[ApiKey.ApiVersions].response_schema
    whole = _api_versions_v3(7)
    ok = judge.read_answer(schema, ApiKey.ApiVersions, 3, 7, "ok", whole)
    assert ok.status == "ok" and ok.response["api_keys"][0]["max_version"] == 12
    for cut in range(1, len(whole) - 4):
        a = judge.read_answer(schema, ApiKey.ApiVersions, 3, 7, "ok", whole[:-cut])
        assert a.status == "undecodable" and a.detail.startswith("the answer does not parse as v3"), (cut, a.detail)
    v0 = struct.pack(">ihi", 7, Errors.UNSUPPORTED_VERSION, 0)   # as Kafka answers too new a version
    fallback = judge.read_answer(schema, ApiKey.ApiVersions, 3, 7, "ok", v0)
    assert fallback.status == "ok" and fallback.response["error_code"] == Errors.UNSUPPORTED_VERSION


# -- mutants: exit 1 under the fault, 0 without it --------------------------------------------

#: mutant -> (pytest -k expression picking one test and version the mutant fails)
MUTANTS = {
    "existing-topic-answered-success": ("T1", "test_t1_an_existing_topic_answers_topic_already_exists and v7"),
    "replication-factor-unchecked": ("T1", "test_t1_replication_factors_kafka_rejects and v4"),
    "delete-unknown-topic-invalid-topic": ("D1", "test_d1 and v4"),
    # comparisons and models stated as data: batch vs alone, validate_only vs executed,
    # old version vs newest, the low-watermark model
    "delete-batch-all-or-nothing": ("D3", "test_d3 and v1"),
    "validate-only-always-succeeds": ("V2", "test_v2 and CreatePartitions-v0"),
    "old-create-drops-configs": ("P4", "test_p4 and CreateTopics-v2"),
    "delete-records-low-watermark-off-by-one": ("R1", "test_r1 and v0"),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_mutant_reproducer_exits_1_under_the_mutant_and_0_without_it(tmp_path, mutant):
    prop, k = MUTANTS[mutant]
    spec = f"proxy:{mutant}@noida"
    rows, results = suite(tmp_path, [spec], "--property", prop, "-k", k)
    failing = [r for r in rows if r["outcome"] == "fail"]
    assert failing, f"{mutant}: no failing row to export ({[(r['outcome'], r['message']) for r in rows]})"
    row = failing[0]
    out = tmp_path / "repro"
    p = export(results, row["row_id"], out)
    assert p.returncode == 0, p.stderr
    with make_target(spec) as bad, make_target("proxy:none@noida") as good:
        under = repro(out, f"{bad.host}:{bad.port}")
        clean = repro(out, f"{good.host}:{good.port}")
        again = repro(out, f"{good.host}:{good.port}")      # fresh names: it runs twice
    assert under.returncode == 1, under.stdout[-3000:] + under.stderr
    assert "DEVIATION REPRODUCED" in under.stdout
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr


# -- every failing row of a tansu run reproduces ----------------------------------------------

def test_every_failing_row_of_a_tansu_run_of_t1_d2_p3_reproduces(tmp_path):
    rows, results = suite(tmp_path, ["tansu"], "--property", "T1,D2,P3,D6")
    failing = [r for r in rows if r["outcome"] == "fail"]
    assert len(failing) >= 20, [(r["property"], r["outcome"]) for r in rows]
    out = tmp_path / "all"
    with make_target("tansu") as info:
        p = subprocess.run([sys.executable, "-m", "fixtures.repro", "--all", str(results), "--out", str(out),
                            "--against", f"{info.host}:{info.port}"], cwd=ROOT, capture_output=True,
                           text=True, timeout=1500)
    assert p.returncode == 0, p.stderr
    assert f"{len(failing)} failing rows: {len(failing)} exported, 0 not exported, {len(failing)} reproduced" \
        in p.stdout, p.stdout[-3000:]


def test_every_failing_row_of_a_fixed_seed_tansu_run_reproduces_against_tansu(tmp_path):
    """The documented check (docs/repro.md, ``python -m fixtures.repro.measure``) on a small
    fixed-seed run: S1's shrunk scripts (the model's answer per step), R1's low watermarks
    and V1's before/after comparisons all export, and every reproducer exits 1 against a
    fresh tansu."""
    figure = tmp_path / "figure.json"
    p = subprocess.run([sys.executable, "-m", "fixtures.repro.measure", "--broker", "tansu", "--seed", "7",
                        "--profile", "ci", "--property", "S1,R1,V1", "--out", str(tmp_path / "m"),
                        "--json", str(figure)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert figure.exists(), p.stdout[-3000:] + p.stderr[-3000:]
    counts = json.loads(figure.read_text())["counts"]
    assert counts["failing"] >= 8, counts
    assert counts["reproduced"] == counts["exported"] == counts["failing"], p.stdout[-4000:]
    assert p.returncode == 0


# -- the judge's verdicts, offline --------------------------------------------------------------

def _answers(*bodies):
    return {i: judge.Answer("ok", b) for i, b in enumerate(bodies)}


def test_a_comparison_with_a_later_step_waits_for_it_and_counts_equivalent_codes():
    e = {"step": 0, "kind": "same", "path": ["r", {"n": "a"}, "c"], "other": {"step": 1, "path": ["r", {"n": "b"}, "c"]},
         "equivalent": [[42, 73]]}
    a = _answers({"r": [{"n": "a", "c": 42}]}, {"r": [{"n": "b", "c": 73}]})
    assert judge.judge(e, a) is None
    assert judge.judge({**e, "equivalent": None}, a) is not None
    assert judge.judge(e, {0: a[0]}) == "the answer compared with is missing"


def test_a_when_condition_judges_only_where_it_holds():
    e = {"step": 1, "kind": "field", "path": ["t", {"n": "x"}, "c"], "not_in": [0],
         "when": {"step": 0, "path": ["r", {"n": "x"}, "c"], "in": [0]}}
    listed = {"t": [{"n": "x", "c": 0}]}
    assert judge.judge(e, _answers({"r": [{"n": "x", "c": 0}]}, listed)) is not None     # NONE: must be gone
    assert judge.judge(e, _answers({"r": [{"n": "x", "c": 7}]}, listed)) is None         # kept: not judged


def test_notes_are_not_verdicts_and_an_empty_match_is_vacuous():
    a = _answers({"r": []})
    for note in ({"step": 0, "kind": "caveat", "says": "x"}, {"step": 0, "kind": "id", "topic": "t", "id": "0" * 32}):
        assert judge.judge(note, a) is None and not judge.judged(note)
    field = {"step": 0, "kind": "field", "path": ["r", {"n": "a"}, "c"], "in": [0]}
    assert judge.judge(field, a) is None and judge.vacuous(field, a)
    assert not judge.vacuous({**field, "count": 1}, a) and judge.judge({**field, "count": 1}, a) is not None


def test_topic_ids_are_learned_from_answers():
    ids = {}
    judge.learn_ids({"topics": [{"name": "t", "topic_id": "00000000-0000-0000-0000-00000000000a"},
                                  {"name": "u", "topic_id": None}]}, ids)
    assert ids == {"t": "00000000-0000-0000-0000-00000000000a"}


def test_a_step_sent_under_a_client_id_of_its_own_is_replayed_under_it():
    """P5's quota is the client id's (preset=quota): a reproducer that sent the drain under
    the suite's client id would never be throttled, whatever the broker does."""
    from fixtures.repro.export import build
    steps = [{"api_key": ApiKey.CreateTopics, "api_name": "CreateTopics", "api_version": 7,
              "request": requests.create_topics(7, [requests.topic(f"kac-0a0a0a-{n}", 1, 1)], timeout_ms=1000),
              **extra} for n, extra in (("q", {"client_id": "kac-quota"}), ("d", {}))]
    data = build({"outcome": "fail", "row_id": 1, "property": "P5",
                  "counterexample": {"steps": steps, "expect": [], "prefix": "kac-0a0a0a-"}})
    quota, default = (bytes.fromhex(s["frame"]) for s in data["steps"])
    assert b"kac-quota" in quota and wire.CLIENT_ID.encode() not in quota
    assert b"kac-quota" not in default and wire.CLIENT_ID.encode() in default


def _p1_row(message: str, prior: bool) -> dict:
    """A P1 row (ListOffsets v1 over one fresh name) as the suite records it."""
    body = {"replica_id": -1, "topics": [{"name": "kac-0b0b0b-0", "partitions": []}]}
    st = {"api_key": ApiKey.ListOffsets, "api_name": "ListOffsets", "api_version": 1, "request": body,
          **({"prior": {"api_key": ApiKey.ListOffsets, "api_name": "ListOffsets", "api_version": 1,
                        "request": body}} if prior else {})}
    return {"outcome": "fail", "row_id": 1, "property": "P1", "message": message,
            "counterexample": {"steps": [st], "expect": [{"step": 0, "kind": "answer", "within_s": 15.0}],
                               "prefix": "kac-0b0b0b-"}}


def test_a_stale_correlation_id_is_reproduced_with_the_request_the_connection_carried_before():
    """P1 (issue 25): a stale correlation id is the previous request's on the connection, so
    the step keeps that request (``prior``) and repro.py sends it first: exit 1 under
    ``stale-correlation-id``, 0 on a conforming broker; the row's broken "answer within T"
    is the verdict."""
    from fixtures.repro.export import build
    data = build(_p1_row("ListOffsets v1: expected an answer within 15s; got mismatched (correlation id 12, "
                         "sent 13)", prior=True))
    assert data["answer_is_verdict"]
    [step] = data["steps"]
    assert step["prior"]["correlation_id"] != step["correlation_id"]
    with make_target("proxy:stale-correlation-id@noida") as bad, make_target("proxy:none@noida") as good:
        under = judge.run(data, bad.host, bad.port, out=lambda *a: None)
        clean = judge.run(data, good.host, good.port, out=lambda *a: None)
    assert (under, clean) == (judge.REPRODUCED, judge.CONFORMS)


def test_an_unanswered_example_the_suite_did_not_resend_may_not_reproduce_standalone():
    from fixtures.repro.export import build
    data = build(_p1_row("ListOffsets v1: expected an answer within 1s; got timeout (no answer within 1.0s) (the "
                         "first example the broker left unanswered, not shrunk: a silent broker costs one request "
                         "timeout per check)", prior=False))
    assert data["answer_is_verdict"]
    assert [e["kind"] for e in data["expect"]] == ["answer", "caveat"]


# -- Apache Kafka: AlterConfigs naming one topic twice is never answered -----------------------

def test_the_alter_configs_duplicate_resource_reproducer_exits_1_on_kafka(tmp_path):
    rows, results = suite(tmp_path, ["kafka:4.4.0"], "--property", "C4", "--request-timeout", "5",
                          "-k", "AlterConfigs-v2 and twice and not Incremental", path="conformance/test_configs.py")
    [row] = [r for r in rows if r["outcome"] == "fail"]
    assert "same resource twice" in row["message"] and "timeout" in row["message"], row["message"]
    out = tmp_path / "kafka"
    assert export(results, row["row_id"], out).returncode == 0
    report = (out / "REPORT.md").read_text()
    assert report.startswith("# apache-kafka 4.4.0: AlterConfigs v2: expected same resource twice"), report[:200]
    assert "## Raw request bytes" in report and "ConfigAdminManager" in report
    with make_target("kafka:4.4.0") as info:
        p = repro(out, f"{info.host}:{info.port}", timeout=5)
    assert p.returncode == 1, p.stdout[-3000:] + p.stderr
    assert "no answer within 5s" in p.stdout and "request bytes: 0000" in p.stdout


# -- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("ref", ["nowhere.jsonl:3", "results.jsonl", "tests:x"])
def test_a_bad_results_row_is_a_one_line_error(tmp_path, ref):
    p = subprocess.run([sys.executable, "-m", "fixtures.repro", "--export-repro", ref, "--out", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr, p.stderr


def test_a_passing_row_is_refused_in_one_line(tmp_path):
    f = tmp_path / "results.jsonl"
    f.write_text('{"row_id": 1, "outcome": "pass", "property": "P1", "broker": "x", "counterexample": null}\n')
    p = subprocess.run([sys.executable, "-m", "fixtures.repro", "--export-repro", f"{f}:1", "--out",
                        str(tmp_path / "o")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "not a failure" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_a_reproducer_that_cannot_connect_is_undecided(tmp_path):
    """Exit 2 on a refused connection (reproducer from the pass row refused above: build one
    from a hand-written failing row with one ApiVersions step)."""
    f = tmp_path / "results.jsonl"
    ce = {"steps": [{"api_key": ApiKey.ApiVersions, "api_name": "ApiVersions", "api_version": 0, "request": {}}],
          "expect": [{"step": 0, "kind": "answer", "within_s": 2}], "prefix": "kac-000000-"}
    f.write_text(json.dumps({"row_id": 1, "outcome": "fail", "property": "P1", "api_name": "ApiVersions",
                             "api_version": 0, "broker": "x", "message": "m", "source": "s",
                             "counterexample": ce}) + "\n")
    assert export(f, 1, tmp_path / "o").returncode == 0
    from fixtures.brokers.target import free_port
    p = repro(tmp_path / "o", f"127.0.0.1:{free_port()}")
    assert p.returncode == 2 and "cannot connect" in p.stdout, p.stdout


# -- a broker that signs clients in (preset=acl, SASL/PLAIN) -----------------------------------

def _acl_row(broker: str) -> dict:
    steps = [{"api_key": ApiKey.Metadata, "api_name": "Metadata", "api_version": 12,
              "request": requests.metadata(12, ["kac-0a0a0a-t"]), **extra}
             for extra in ({}, {"principal": "restricted"})]
    return {"outcome": "fail", "row_id": 1, "property": "A2", "broker": broker, "run_id": "r",
            "api_name": "Metadata", "api_version": 12, "message": "m", "source": "s",
            "counterexample": {"steps": steps, "prefix": "kac-0a0a0a-",
                               "expect": [{"step": 1, "kind": "field", "path": ["topics", "error_code"],
                                           "in": [29]}]}}


def test_a_reproducer_signs_in_as_each_steps_principal_with_the_presets_users():
    """A2 over preset=acl: every connection signs in (the suite's client does, protocol/wire.py);
    a step the check sent as ``restricted`` is sent as that user, the rest as the super user."""
    from fixtures import acl
    from fixtures.repro.export import build
    data = build(_acl_row("proxy:none@kafka:4.4.0,preset=acl"))
    assert data["sasl"]["users"] == {n: list(up) for n, up in acl.USERS.items()}
    assert [_who(data, s) for s in data["steps"]] == ["super", "restricted"]
    assert judge.logins(data) == acl.USERS
    assert build(_acl_row("noida"))["sasl"]["users"]["restricted"] == ["kac-restricted", None]


def test_a_reproducer_without_a_principals_password_says_how_to_give_it(tmp_path):
    """Off the suite's own preset the passwords are not carried: repro.py is undecided and
    names ``--sasl``; given there, it goes on (and here finds nothing listening)."""
    from fixtures.brokers.target import free_port
    f = tmp_path / "results.jsonl"
    from fixtures import jsonable
    f.write_text(json.dumps(jsonable.dump(_acl_row("external"))) + "\n")
    assert export(f, 1, tmp_path / "o").returncode == 0
    assert "--sasl NAME=USERNAME:PASSWORD" in (tmp_path / "o" / "REPORT.md").read_text()
    address = f"127.0.0.1:{free_port()}"
    p = repro(tmp_path / "o", address)
    assert p.returncode == 2 and "--sasl NAME=USERNAME:PASSWORD" in p.stdout and "cannot connect" not in p.stdout
    p = subprocess.run([sys.executable, "-I", "-S", str(tmp_path / "o" / "repro.py"), address,
                        "--sasl", "restricted=someone:pw", "--sasl", "super=admin:pw"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "cannot connect" in p.stdout and "super=admin" in p.stdout, p.stdout


@pytest.mark.fast
def test_the_exporter_creates_only_topics_a_verdict_names_as_topics():
    """A verdict that expects NONE for a run-prefixed name no recorded step creates makes the
    exporter create that topic first (another check of the run had made it), but only where
    the step's request names it as a topic: never an ACL's resource, a group's config
    resource or a share group (S2 names all of them; creating one as a topic made a later
    DeleteTopics of the same name answer NONE in the repro where the run got
    UNKNOWN_TOPIC_OR_PARTITION)."""
    from fixtures.repro.export import _needed_elsewhere
    p = "kac-x-s2-1"
    steps = [
        {"api_key": ApiKey.DescribeConfigs, "request": {"resources": [
            {"resource_type": 2, "resource_name": f"{p}-t"}, {"resource_type": 32, "resource_name": f"{p}-g1"}]}},
        {"api_key": ApiKey.DescribeAcls, "request": {"resource_type_filter": 1, "resource_name_filter": None}},
        {"api_key": ApiKey.AlterShareGroupOffsets, "request": {"group_id": f"{p}-sg1", "topics": [
            {"topic_name": f"{p}-u", "partitions": []}]}},
    ]
    none = [int(Errors.NONE)]
    expectations = [
        {"kind": "field", "step": 0, "path": ["results", {"resource_name": f"{p}-t"}, "error_code"], "in": none},
        {"kind": "field", "step": 0, "path": ["results", {"resource_name": f"{p}-g1"}, "error_code"], "in": none},
        {"kind": "field", "step": 1, "path": ["resources", {"resource_name": f"{p}-a"}, "error_code"], "in": none},
        {"kind": "field", "step": 2, "path": ["responses", {"topic_name": f"{p}-u"}, "error_code"], "in": none},
        {"kind": "field", "step": 2, "path": ["groups", {"group_id": f"{p}-sg1"}, "error_code"], "in": none},
    ]
    assert _needed_elsewhere(expectations, [], p, steps) == [f"{p}-t"]
    assert _needed_elsewhere(expectations, [f"{p}-t"], p, steps) == []
