"""The known deviations of Kafka as the suite uses them (reference/known_deviations.py): each
entry's shape predicate and its request regex agree, each has exactly one dedicated check
that asks that shape, the generators of every other check leave the shape out only where
the entry applies, the harness refuses to send it from any other check, and
``python -m fixtures.known_replay`` confirms an entry by comparing the answer with its
conforming answer, with one line for bad input."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from protocol import codec
from protocol.apis import ApiKey
from reference import known_deviations as kd
from reports import known as report_known
from strategies import batches
from strategies.configs import INCREMENTAL_KINDS, c4_cases

ROOT = Path(__file__).resolve().parents[1]
ENTRIES = kd.entries()


def test_both_readers_read_the_same_entries():
    assert ENTRIES, "the list is empty"
    assert [e.id for e in ENTRIES] == [k.id for k in report_known.read()]
    for e, k in zip(ENTRIES, report_known.read()):
        assert (e.property, e.test, e.api_versions) == (k.property, k.test, k.api_versions)
        assert int(e.shape.api_key) == k.api_key


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_the_recorded_request_has_the_entry_shape(entry):
    """A race's shape is no one request's (``race``: its writers race), any other's is the
    recorded request's."""
    _, body = codec.decode_request(bytes.fromhex(entry.doc["request_hex"])[4:])
    race = entry.shape.id in kd.RACES
    assert race == bool(entry.doc.get("race")), entry.id
    assert entry.shape.of(entry.shape.api_key, body) != race
    assert re.search(entry.doc["request_regex"], json.dumps(body, sort_keys=True, default=str))
    if entry.doc.get("control_hex"):
        _, control = codec.decode_request(bytes.fromhex(entry.doc["control_hex"])[4:])
        assert not entry.shape.of(entry.shape.api_key, control), "the control has the defect's shape"


_NAMES = st.sampled_from(["a", "b", "kac-1-x", "x.y", "x_y"])
_RESOURCES = st.lists(st.fixed_dictionaries({
    "resource_type": st.sampled_from([2, 4]), "resource_name": _NAMES,
    "configs": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["retention.ms", "x"]),
                                               "value": st.sampled_from(["1", None])}), max_size=2)}),
    max_size=4)


@settings(max_examples=300, deadline=None)
@given(_RESOURCES)
def test_the_alter_configs_shape_and_its_regex_agree(resources):
    entry = kd.entry("alter-configs-duplicate-resource-never-answered")
    body = {"resources": resources, "validate_only": False}
    by_regex = bool(re.search(entry.doc["request_regex"], json.dumps(body, sort_keys=True)))
    assert entry.shape.of(ApiKey.AlterConfigs, body) == by_regex
    assert not entry.shape.of(ApiKey.IncrementalAlterConfigs, body)       # another API: another shape


_TOPICS = st.lists(st.text("ab._", min_size=1, max_size=4).map(lambda t: "kac-1-" + t), min_size=1, max_size=3).map(
    lambda names: {"topics": [{"name": n, "num_partitions": 1, "replication_factor": 1, "assignments": [],
                               "configs": []} for n in names], "timeout_ms": 5000, "validate_only": False})


def _one_swap(a: str, b: str) -> bool:
    diff = [(x, y) for x, y in zip(a, b) if x != y]
    return len(a) == len(b) and len(diff) == 1 and set(diff[0]) == {".", "_"}


@settings(max_examples=400, deadline=None)
@given(_TOPICS)
def test_the_create_topics_collision_shape_and_its_regex_agree(body):
    """The regex names the shape the dedicated check sends (two names one '.'/'_' apart);
    the predicate is the wider rule generators avoid (any two legal names colliding)."""
    entry = kd.entry("create-topics-colliding-names-in-one-request-both-created")
    by_regex = bool(re.search(entry.doc["request_regex"], json.dumps(body, sort_keys=True)))
    by_shape = entry.shape.of(ApiKey.CreateTopics, body)
    names = [t["name"] for t in body["topics"]]
    one_swap = any(_one_swap(a, b) for i, a in enumerate(names) for b in names[i + 1:])
    assert by_regex <= by_shape                      # the regex never names what the rule does not
    assert (by_shape and one_swap) <= by_regex       # and names every pair one '.'/'_' apart


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 12), min_size=1, max_size=3), min_size=1, max_size=2))
def test_the_unknown_operation_shape_and_its_regex_agree(ops):
    entry = kd.entry("incremental-alter-configs-unknown-operation-fails-the-controller-over")
    body = {"validate_only": False, "resources": [
        {"resource_type": 2, "resource_name": f"kac-1-{i}", "configs": [
            {"name": "retention.ms", "config_operation": o, "value": "1"} for o in r]} for i, r in enumerate(ops)]}
    by_regex = bool(re.search(entry.doc["request_regex"], json.dumps(body, sort_keys=True)))
    assert entry.shape.of(ApiKey.IncrementalAlterConfigs, body) == by_regex
    broker = {**body, "resources": [{**r, "resource_type": 4} for r in body["resources"]]}
    assert not entry.shape.of(ApiKey.IncrementalAlterConfigs, broker)     # Kafka checks a BROKER's op


def _dedicated() -> dict[str, list]:
    """Entry id -> the conformance tests marked as its dedicated check."""
    proc = subprocess.run([sys.executable, "-c", (
        "import json, pytest\n"
        "from fixtures.plugin import check_id\n"
        "class P:\n"
        "    found = {}\n"
        "    def pytest_collection_modifyitems(self, items):\n"
        "        for i in items:\n"
        "            m = i.get_closest_marker('known_deviation')\n"
        "            if m:\n"
        "                p = i.get_closest_marker('prop').args[0]\n"
        "                for a in m.args:\n"
        "                    P.found.setdefault(a, set()).add((check_id(i), p))\n"
        "pytest.main(['conformance', '--collect-only', '-q', '-p', 'no:cacheprovider'], plugins=[P()])\n"
        "print('FOUND=' + json.dumps({k: sorted(v) for k, v in P.found.items()}))\n")],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    line = next(x for x in proc.stdout.splitlines() if x.startswith("FOUND="))
    return json.loads(line[len("FOUND="):])


_CODES = st.integers(0, 6)
_CREATIONS = st.lists(st.fixed_dictionaries({
    "resource_type": _CODES, "resource_name": st.sampled_from(["t", "kac-1-x"]), "resource_pattern_type": _CODES,
    "principal": st.just("User:u"), "host": st.just("*"), "operation": _CODES, "permission_type": _CODES}),
    min_size=1, max_size=3).map(lambda cs: {"creations": cs})


@settings(max_examples=300, deadline=None)
@given(_CREATIONS)
def test_the_any_or_match_acl_shape_and_its_regex_agree(body):
    """A creation with an ANY code (1) or the MATCH pattern type (2): the binding released
    Kafka cannot make (reference/acl_rules.py unrepresentable), in the predicate and the regex."""
    from reference.acl_rules import Acl, unrepresentable

    entry = kd.entry("create-acls-any-or-match-binding-fails-the-whole-request")
    by_regex = bool(re.search(entry.doc["request_regex"], json.dumps(body, sort_keys=True)))
    assert entry.shape.of(ApiKey.CreateAcls, body) == by_regex
    acls = [Acl(c["resource_type"], c["resource_name"], c["resource_pattern_type"], c["principal"], c["host"],
                c["operation"], c["permission_type"]) for c in body["creations"]]
    assert by_regex == any(unrepresentable(a) for a in acls)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")    # the conformance plugin registers them
def test_l5_leaves_any_and_match_bindings_to_l4s_dedicated_check_where_the_entry_applies():
    from types import SimpleNamespace

    from conformance.test_acls import STATEFUL_KINDS, WHOLE_KINDS, _stateful_first, _stateful_kinds

    shape = kd.CREATE_ACLS_ANY_OR_MATCH
    assert shape in kd.avoided_shapes("apache-kafka", "4.4.0") and shape not in kd.avoided_shapes("tansu", "0.6.0")
    assert _stateful_kinds(SimpleNamespace(avoided_shapes=frozenset())) == STATEFUL_KINDS
    kinds = _stateful_kinds(SimpleNamespace(avoided_shapes=frozenset({shape})))
    assert WHOLE_KINDS and not set(kinds) & set(WHOLE_KINDS) and set(kinds) | set(WHOLE_KINDS) == set(STATEFUL_KINDS)
    from protocol import requests as build
    for version in (0, 3):
        for op, arg in _stateful_first(version, kinds):
            if op == "create":
                assert not kd.SHAPES[shape].of(ApiKey.CreateAcls, build.create_acl_bindings(version, arg))


def test_every_entry_has_exactly_one_dedicated_check_named_in_it():
    found = _dedicated()
    assert set(found) == {e.id for e in ENTRIES}, found
    for e in ENTRIES:
        # one check (the test function, or one kind of it), at every version it is parametrised over
        assert found[e.id] == [[e.test, e.property]], (e.id, found[e.id])


def test_entries_sharing_a_dedicated_check_are_one_root_cause_each_and_never_apply_together():
    """One request shape with two root causes (a KRaft and a ZooKeeper-mode code path) is two
    entries sharing the dedicated check: their modes are disjoint, so at most one applies to
    a broker, and a row is matched by the one of its mode only."""
    by_check: dict[str, list] = {}
    for e in ENTRIES:
        by_check.setdefault(e.test, []).append(e)
    shared = {t: es for t, es in by_check.items() if len(es) > 1}
    assert len(shared) >= 2, sorted(shared)       # T1's colliding names and C4's unknown operation
    for test, es in shared.items():
        modes = [set(e.modes or ("kraft", "zk")) for e in es]
        assert all(not (a & b) for i, a in enumerate(modes) for b in modes[i + 1:]), (test, modes)
        assert len({e.shape.id for e in es}) == 1, test
        for mode in ("kraft", "zk"):
            assert len([e for e in es if e.applies("apache-kafka", "3.9.2", mode)]) <= 1
    unknown_op = [e.id for e in by_check["test_c4_invalid_config_changes_get_kafkas_error_and_change_nothing"
                                        "[kind=unknown operation]"]]
    assert kd.avoided_shapes("apache-kafka", "3.9.2", "zk", asked=tuple(unknown_op)) \
        == kd.avoided_shapes("apache-kafka", "3.9.2", "zk") - {kd.INCREMENTAL_ALTER_CONFIGS_UNKNOWN_OPERATION}


def test_every_entry_lists_only_lines_it_says_were_measured():
    """'releases' are the lines an entry was measured on: each is named in its 'reproduced' or
    'evidence' text (a line as X.Y, or a release X.Y.Z of it, or a run X.Y-A.B over it)."""
    for e in ENTRIES:
        text = e.doc.get("reproduced", "") + " " + e.doc.get("evidence", "")
        for line in e.releases:
            major, minor = map(int, line.split("."))
            spans = [tuple(map(int, m)) for m in re.findall(r"(\d)\.(\d)(?:\.\d)?-(\d)\.(\d)", text)]
            named = re.search(rf"\b{major}\.{minor}(\.\d+)?\b", text) is not None
            covered = any((a, b) <= (major, minor) <= (c, d) for a, b, c, d in spans)
            assert named or covered, (e.id, line)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")    # the conformance plugin registers them
def test_the_dedicated_check_asks_the_entry_shape_first():
    from conformance.test_configs import RESOURCE_TWICE_CASE, _legacy_body

    entry = kd.entry("alter-configs-duplicate-resource-never-answered")
    ops = [tuple(o) for o in RESOURCE_TWICE_CASE["ops"]]
    for v in entry.api_versions:
        body = _legacy_body([("kac-1-t", ops)] * 2, v)
        assert entry.shape.of(ApiKey.AlterConfigs, body)
        assert re.search(entry.doc["request_regex"], json.dumps(body, sort_keys=True))


def test_an_entry_applies_by_implementation_release_line_and_mode():
    e = kd.entry("alter-configs-duplicate-resource-never-answered")
    assert e.applies("apache-kafka", "4.4.0") and e.applies("apache-kafka", "3.9.1")
    assert not e.applies("apache-kafka", "5.0.0") and not e.applies("tansu", "4.4.0")
    assert not e.applies("noida-db", None)
    shape = e.shape.id
    assert shape in kd.avoided_shapes("apache-kafka", "4.4.0")
    assert shape not in kd.avoided_shapes("tansu", "0.6.0")
    assert shape not in kd.avoided_shapes("apache-kafka", "4.4.0", asked=e.id)     # its dedicated check
    narrowed = kd.Entry(**{**e.__dict__, "modes": ("zk",)})
    assert narrowed.applies("apache-kafka", "3.9.1", "zk") and not narrowed.applies("apache-kafka", "3.9.1")


def test_the_batches_leave_an_avoided_shape_out_and_only_it():
    shape = kd.ALTER_CONFIGS_RESOURCE_TWICE
    every = batches.item_strategies(ApiKey.AlterConfigs, batches.Params())
    avoided = batches.item_strategies(ApiKey.AlterConfigs, batches.Params(avoid=frozenset({shape})))
    assert set(every) - set(avoided) == {"duplicate"}
    assert {k.shape for k in batches.KINDS[ApiKey.AlterConfigs].values()} == {None, shape}
    # another API's kinds are untouched
    assert set(batches.item_strategies(ApiKey.IncrementalAlterConfigs, batches.Params(avoid=frozenset({shape})))) \
        == set(batches.KINDS[ApiKey.IncrementalAlterConfigs])


class _Row:
    def __init__(self, avoided):
        self.avoided_shapes = avoided
        self.ranges = {ApiKey.AlterConfigs: (0, 2)}


@pytest.mark.parametrize("avoided", [frozenset(), frozenset({kd.ALTER_CONFIGS_RESOURCE_TWICE})])
def test_s1_draws_a_resource_twice_only_where_the_shape_is_not_avoided(avoided):
    from conformance.stateful.steps import BY_KEY, Strategies

    strategy = BY_KEY[ApiKey.AlterConfigs].draw(Strategies(_Row(avoided)), True)
    seen = []

    @settings(max_examples=300, deadline=None, database=None)
    @given(strategy)
    def draw(op):
        slots = [r["slot"] for r in op["resources"]]
        seen.append(len(slots) != len(set(slots)))

    draw()
    assert any(seen) == (not avoided)


def test_the_harness_refuses_to_send_an_avoided_shape():
    from types import SimpleNamespace

    from fixtures.harness import Check, CheckContext, KnownShapeDrawn
    from fixtures.brokers.target import BrokerInfo

    def check_of(impl, version, asks_known=None):
        info = BrokerInfo("b", "localhost", 9092, impl=impl, version=version)
        run = SimpleNamespace(pool=SimpleNamespace(info=lambda spec: info))
        return Check(CheckContext("b", "kac-x-", run=run, asks_known=asks_known), "C1", "", ApiKey.AlterConfigs, 0)

    c = check_of("apache-kafka", "4.4.0")
    assert kd.ALTER_CONFIGS_RESOURCE_TWICE in c.avoided_shapes
    twice = {"resources": [{"resource_type": 2, "resource_name": "t", "configs": []}] * 2, "validate_only": False}
    with pytest.raises(KnownShapeDrawn, match="alter-configs-resource-named-twice"):
        c.not_a_known_shape(ApiKey.AlterConfigs, 0, twice)
    c.not_a_known_shape(ApiKey.AlterConfigs, 0, {**twice, "resources": twice["resources"][:1]})
    c.not_a_known_shape(ApiKey.IncrementalAlterConfigs, 0, twice)
    check_of("tansu", "0.6.0").not_a_known_shape(ApiKey.AlterConfigs, 0, twice)     # no deviation there
    dedicated = [e.id for e in kd.applying("apache-kafka", "4.4.0") if e.shape.id == kd.ALTER_CONFIGS_RESOURCE_TWICE]
    check_of("apache-kafka", "4.4.0", tuple(dedicated)).not_a_known_shape(ApiKey.AlterConfigs, 0, twice)


# -- python -m fixtures.known_replay --------------------------------------------------------------

def _known(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "fixtures.known_replay", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("args,says", [
    (["--bootstrap", "nohost"], "--bootstrap nohost: write HOST:PORT"),
    (["--bootstrap", "127.0.0.1:abc"], "write HOST:PORT"),
    (["--bootstrap", "127.0.0.1:1"], "is a broker listening there?"),
    (["--known", "/nonexistent/k.json"], "cannot read the known deviations"),
])
def test_bad_input_is_one_line(args, says):
    proc = _known(*args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert says in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr


def _entry_file(tmp_path, **changes) -> str:
    doc = json.loads(Path(kd.KNOWN_DEVIATIONS).read_text())
    entry = {**doc["deviations"][0], **changes}
    for k, v in changes.items():
        if v is None:
            del entry[k]
    doc["deviations"] = [entry]
    path = tmp_path / "known.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_a_broken_entry_is_one_line(tmp_path):
    proc = _known("--known", _entry_file(tmp_path, request_hex="zz"), "--bootstrap", "127.0.0.1:1")
    assert proc.returncode == 2 and "request_hex is not hex" in proc.stderr and "Traceback" not in proc.stderr
    proc = _known("--known", _entry_file(tmp_path, conforming_answer=None), "--bootstrap", "127.0.0.1:1")
    assert proc.returncode == 2 and "lacks conforming_answer" in proc.stderr and "Traceback" not in proc.stderr


def test_an_entry_is_confirmed_against_its_conforming_answer(noida, tmp_path):
    """noida answers AlterConfigs naming a resource twice with its own codes, not the
    conforming 42: the entry's deviation reproduces there (by its codes, not by silence); through the
    config shim, which answers as Kafka means to, it does not. Without a control_hex the
    codes still decide: no traceback."""
    at = f"{noida.host}:{noida.port}"
    proc = _known("--bootstrap", at)
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    assert "alter-configs-duplicate-resource-never-answered @ " in proc.stdout
    line = next(x for x in proc.stdout.splitlines() if x.startswith("alter-configs-duplicate-resource-never-answered"))
    assert ": reproduced: control answered" in line and "the request: answered" in line, line
    assert "codes [INVALID_REQUEST, INVALID_REQUEST]" not in line
    proc = _known("--bootstrap", at, "--known", _entry_file(tmp_path, control_hex=None))
    assert ": reproduced: the request: answered" in proc.stdout, proc.stdout + proc.stderr


def test_a_conforming_broker_does_not_reproduce_the_entry(tmp_path):
    from fixtures.brokers import make_target

    target = make_target("proxy:kafka-config-shim@noida")
    info = target.start()
    try:
        proc = _known("--bootstrap", f"{info.host}:{info.port}")
    finally:
        target.stop()
    line = next(x for x in proc.stdout.splitlines() if x.startswith("alter-configs-duplicate-resource-never-answered"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert ": NOT reproduced: control answered" in line and "codes [INVALID_REQUEST, INVALID_REQUEST]" in line
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")    # the conformance plugin registers them
def test_d6_leaves_an_entry_naming_nothing_to_its_dedicated_check_in_zookeeper_mode():
    """The entry of ZooKeeper mode applies there only; D6's generic check then draws no
    "neither" entry, and draws it everywhere else."""
    from hypothesis import find

    from conformance.test_delete_topics_by_id import _d6

    shape, entry = kd.DELETE_TOPICS_ENTRY_NAMING_NOTHING, "delete-topics-neither-name-nor-id-authorization-failed"
    assert shape in kd.avoided_shapes("apache-kafka", "3.9.2", "zk")
    assert shape in kd.avoided_shapes("apache-kafka", "3.3.2", "zk")
    assert shape not in kd.avoided_shapes("apache-kafka", "3.9.2", "kraft")
    assert shape not in kd.avoided_shapes("apache-kafka", "3.9.2", "zk", asked=entry)
    assert "neither" in find(_d6(frozenset()), lambda v: "neither" in v[0], settings=settings(database=None))[0]

    @settings(max_examples=200, database=None, deadline=None)
    @given(_d6(frozenset({shape})))
    def never(value):
        assert "neither" not in value[0]

    never()


def _incremental(ops) -> dict:
    return {"validate_only": False, "resources": [{"resource_type": 2, "resource_name": "kac-1-c4", "configs": [
        {"name": k, "config_operation": int(o), "value": v} for k, o, v in ops]}]}


@pytest.mark.parametrize("kind", INCREMENTAL_KINDS)
def test_only_c4s_unknown_key_list_op_kind_draws_the_zookeeper_append_shape(kind):
    """The shape of incremental-alter-configs-append-unknown-key-unknown-server-error is drawn
    by its dedicated kind every time and by no other C4 kind, so no other generator needs
    to leave it out; the regex agrees with the predicate on every draw."""
    entry = kd.entry("incremental-alter-configs-append-unknown-key-unknown-server-error")

    @settings(max_examples=100, database=None, deadline=None)
    @given(c4_cases(True, kinds=[kind]))
    def drawn(case):
        body = _incremental(case["ops"])
        by_shape = entry.shape.of(ApiKey.IncrementalAlterConfigs, body)
        assert by_shape == (kind == "unknown key list op"), case
        assert by_shape == bool(re.search(entry.doc["request_regex"], json.dumps(body, sort_keys=True)))

    drawn()


def test_known_replay_starts_an_entry_of_zookeeper_mode_in_that_mode():
    """``python -m fixtures.known_replay`` starts an entry's releases in its first mode (``--mode``
    overrides): a ZooKeeper-mode entry on ``kafka:VERSION,mode=zk``."""
    from fixtures import known_replay as fk

    assert fk.target_spec("3.9.2", "zk") == "kafka:3.9.2,mode=zk"
    assert fk.target_spec("4.4.0", "kraft") == "kafka:4.4.0"
    # an entry only an authorizing broker answers names its preset (signed in as the super user)
    assert fk.target_spec("4.4.0", "kraft", "acl") == "kafka:4.4.0,preset=acl"
    assert [e.id for e in ENTRIES if e.doc.get("preset")] == ["create-acls-any-or-match-binding-fails-the-whole-request"]
    zk = [e for e in ENTRIES if e.modes == ("zk",)]
    assert zk and all(set(e.releases) <= {f"3.{n}" for n in range(3, 10)} for e in zk)
    assert {e.id for e in ENTRIES if e.applies("apache-kafka", "3.5.2", "zk")} >= {e.id for e in zk}
    assert not any(e.applies("apache-kafka", "3.5.2", "kraft") for e in zk)


# -- python -m fixtures.known_replay --every-line ---------------------------------------------------

def test_every_line_asks_each_kraft_line_and_each_3x_line_in_zookeeper_mode_too():
    """The targets of ``--every-line``: the newest release of every line 3.3-4.4 (Maven's
    list), and ZooKeeper mode of the 3.x ones (4.0 removed it)."""
    from fixtures import known_replay as fk

    targets = fk.every_target()
    assert [line for _, line, mode in targets if mode == "kraft"] == \
        [f"3.{n}" for n in range(3, 10)] + [f"4.{n}" for n in range(0, 5)]
    assert [line for _, line, mode in targets if mode == "zk"] == [f"3.{n}" for n in range(3, 10)]
    assert all(spec.endswith(",mode=zk") == (mode == "zk") for spec, _, mode in targets)


def test_an_entry_claims_its_lines_and_modes_and_is_sent_only_where_its_request_is_served():
    from fixtures import known_replay as fk

    zk = kd.entry("delete-topics-neither-name-nor-id-authorization-failed").doc
    assert fk.claims(zk, "3.9", "zk") and not fk.claims(zk, "3.9", "kraft") and not fk.claims(zk, "4.0", "zk")
    everywhere = kd.entry("alter-configs-duplicate-resource-never-answered").doc
    assert fk.claims(everywhere, "3.3", "zk") and fk.claims(everywhere, "4.4", "kraft")
    api_key, version = ApiKey.AlterConfigs, bytes.fromhex(everywhere["request_hex"])[7]
    assert fk.served(everywhere, {api_key: (0, version)})
    assert not fk.served(everywhere, {api_key: (version + 1, version + 2)}) and not fk.served(everywhere, {})


def test_every_line_sends_each_entry_to_one_started_broker_and_what_it_does_not_serve_to_none():
    """One broker for every entry (noida here): the AlterConfigs entry reproduces there (noida
    answers its own codes), and an entry whose API noida does not advertise (a share group's,
    Kafka 4.4's) is not sent."""
    from fixtures import known_replay as fk

    found = fk.entries()
    seen = fk._verify_on("noida", found)
    assert set(seen) == {e["id"] for e in found}
    assert seen["alter-configs-duplicate-resource-never-answered"][0] is True
    assert seen["describe-share-group-offsets-missing-partition-stalls"] == (None, fk.NOT_SERVED)
    proc = _known("--every-line", "--bootstrap", "127.0.0.1:1")
    assert proc.returncode == 2 and "--every-line chooses the targets itself" in proc.stderr, proc.stderr


def _list_offsets(offset: int, timestamp: int) -> dict:
    return {"throttle_time_ms": 0, "topics": [{"name": "kac-known-o2", "partitions": [
        {"partition_index": 0, "error_code": 0, "timestamp": timestamp, "offset": offset, "leader_epoch": 0}]}]}


@pytest.mark.parametrize("entry_id,api_key,body,is_it", [
    # ListOffsets MAX_TIMESTAMP on 3.7: the batch's last offset (2), not the record's (1)
    ("list-offsets-max-timestamp-answers-the-batchs-last-offset", ApiKey.ListOffsets, _list_offsets(2, 1700000000500), True),
    # kafka:3.3.2 answered -1/-1 (its set-up produce had not taken): wrong, but not this defect
    ("list-offsets-max-timestamp-answers-the-batchs-last-offset", ApiKey.ListOffsets, _list_offsets(-1, -1), False),
    # UpdateFeatures v0 on 4.x: the whole request refused for want of an upgrade type
    ("update-features-v0-allow-downgrade-ignored", ApiKey.UpdateFeatures,
     {"throttle_time_ms": 0, "error_code": 95, "error_message": "The update failed for all features since the following "
      "feature had an error: Invalid update version 0 for feature group.version. Can't downgrade the version of this "
      "feature without setting the upgrade type to either safe or unsafe downgrade.", "results": []}, True),
    # kafka:3.3.2 refuses the same request because it lacks the feature: the same code, another reason
    ("update-features-v0-allow-downgrade-ignored", ApiKey.UpdateFeatures,
     {"throttle_time_ms": 0, "error_code": 0, "error_message": None, "results": [
         {"feature": "group.version", "error_code": 95,
          "error_message": "Invalid update version 0 for feature group.version. Broker 1 does not support this feature."}]},
     False),
])
def test_every_line_counts_only_kafkas_deviating_answer_as_the_entry_reproduced(entry_id, api_key, body, is_it):
    """``python -m fixtures.known_replay`` counts an entry reproduced only when the answer is its
    ``deviating_answer`` (codes, ``holds``, ``error_message_contains``): found running every line
    (2026-11-27), where a release lacking the feature, or a set-up that did not take, gave
    another wrong answer that the entry's lines must not list."""
    from fixtures import known_replay as fk

    want = kd.entry(entry_id).doc["deviating_answer"]
    assert fk.is_deviation(want, api_key, body) is is_it


# -- python -m fixtures.known_replay: variants for other lines, late answers ------------------------

def test_an_entry_variant_replaces_the_request_on_the_lines_it_lists():
    """UpdateFeatures v0 on 3.x KRaft: the variant's request (metadata.version, the only feature
    3.x finalizes) is sent there, the entry's own (group.version) on 4.x."""
    from fixtures import known_replay as fk

    entry = kd.entry("update-features-v0-allow-downgrade-ignored").doc
    for line in ("3.3", "3.6", "3.9"):
        on = fk.for_line(entry, line)
        assert on["request_hex"] == entry["variants"][0]["request_hex"] != entry["request_hex"]
        _, body = codec.decode_request(bytes.fromhex(on["request_hex"])[4:])
        assert body["feature_updates"] == [{"feature": "metadata.version", "max_version_level": 1,
                                            "allow_downgrade": True}]
    assert fk.for_line(entry, "4.4") is entry and fk.for_line(entry, None) is entry
    assert set(entry["variants"][0]["releases"]) <= set(entry["releases"])


@pytest.mark.parametrize("message,conforms", [
    ("Invalid metadata.version 1. Unable to set a metadata.version less than 3.3-IV0", True),   # a safe downgrade
    ("Invalid update version 1 for feature metadata.version. Can't downgrade the version of this feature without "
     "setting the upgrade type to either safe or unsafe downgrade.", False),                     # Kafka's deviation
])
def test_a_conforming_answer_may_name_a_message_fragment(message, conforms):
    from fixtures import known_replay as fk

    entry = fk.for_line(kd.entry("update-features-v0-allow-downgrade-ignored").doc, "3.9")
    frame = bytes.fromhex(entry["request_hex"])
    payload = codec.encode_response(ApiKey.UpdateFeatures, 0, {"throttle_time_ms": 0, "error_code": 0,
                                                                "error_message": "", "results": [
        {"feature": "metadata.version", "error_code": 95, "error_message": message}]}, 1)[4:]
    ok, _ = fk.conforms(entry, frame, payload)
    assert ok is conforms
    assert fk.deviates(entry, frame, payload) is (not conforms)


def _answering_after(*delays: float | None):
    """A broker on loopback for ``len(delays)`` connections of one request each: it answers
    DescribeShareGroupOffsets after each delay in turn (None: never), NONE with start offset -1,
    as Kafka 4.4 does."""
    import socket
    import threading
    import time

    server = socket.create_server(("127.0.0.1", 0))
    server.listen(len(delays))

    def answer(conn, delay):
        with conn:
            size = int.from_bytes(conn.recv(4), "big")
            frame = b""
            while len(frame) < size:
                frame += conn.recv(size - len(frame))
            header, _ = codec.decode_request(frame)
            if delay is None:
                conn.recv(1)        # until the client gives up
                return
            time.sleep(delay)
            conn.sendall(codec.encode_response(ApiKey.DescribeShareGroupOffsets, header["api_version"], {
                "throttle_time_ms": 0, "groups": [{"group_id": "kac-known-g", "topics": [
                    {"topic_name": "kac-known-share", "topic_id": None, "partitions": [
                        {"partition_index": 2, "start_offset": -1, "leader_epoch": 0, "lag": -1, "error_code": 0,
                         "error_message": None}]}], "error_code": 0, "error_message": None}]},
                header["correlation_id"]))

    def serve():
        for delay in delays:
            conn, _ = server.accept()
            threading.Thread(target=answer, args=(conn, delay), daemon=True).start()
    threading.Thread(target=serve, daemon=True).start()
    return server


@pytest.mark.parametrize("delays,reproduced,says", [
    ((0.05, 0.1, 0.2), False, "each in time"),
    ((0.05, 0.9, 0.1), True, "1 late"),              # one late answer of three: Kafka's jitter
    ((0.05, None, 0.9), False, "no answer"),         # none at all is another behaviour
])
def test_an_entry_about_a_late_answer_is_reproduced_by_a_late_answer_only(delays, reproduced, says):
    """The share-group entry scaled down (in time within 0.3 s, wait 1.5 s, three at once): answers
    in time conform, a late one is Kafka's deviation, none at all is another behaviour."""
    from fixtures import known_replay as fk

    doc = kd.entry("describe-share-group-offsets-missing-partition-stalls").doc
    entry = {**doc, "conforming_answer": {**doc["conforming_answer"], "answer_within_s": 0.3},
             "deviating_answer": {**doc["deviating_answer"], "answer_after_s": 0.3, "wait_s": 1.5,
                                  "parallel": len(delays)}}
    server = _answering_after(*delays)
    try:
        ok, what = fk._late(entry, *server.getsockname(), bytes.fromhex(doc["request_hex"]), "")
    finally:
        server.close()
    assert ok is reproduced and says in what, what
