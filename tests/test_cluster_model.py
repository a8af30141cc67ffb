"""The S1 model's predictions follow docs/reference-semantics.md (no broker needed)."""
from __future__ import annotations

import uuid

from conformance import cluster_model as cm
from conformance.stateful import Strategies, render

SUB = "kac-abc-s1-1"


def model(**defaults) -> cm.Model:
    d = cm.Defaults(configs={"cleanup.policy": ("delete", 5), "retention.ms": ("604800000", 5)},
                    configs_known=True, **defaults)
    return cm.Model(SUB, d)


def create(m, *items, validate_only=False, version=7):
    expects = m.create_topics([{"partitions": 1, "rf": 1, "configs": [], **i} for i in items], validate_only, version)
    apply(expects)
    return {e.key[1]: e.allowed for e in expects}


def apply(expects, codes=None):
    for e in expects:
        code = (codes or {}).get(e.key, min(e.allowed))
        if code == cm.NONE and e.effect:
            e.effect({"num_partitions": -1})


def n(slot):
    return f"{SUB}-{slot}"


def test_create_topics_checks_in_kafkas_order():
    m = model()
    assert create(m, {"name": n("a"), "partitions": 2}) == {n("a"): {cm.NONE}}
    got = create(m, {"name": n("a"), "rf": 0}, {"name": n("b"), "configs": [["retention.ms", "abc"]], "rf": 0},
                 {"name": n("c"), "rf": 0, "partitions": 0}, {"name": n("d"), "partitions": 0, "rf": 2},
                 {"name": n("bad!")})
    assert got == {n("a"): {36}, n("b"): {40}, n("c"): {38}, n("d"): {37}, n("bad!"): {17}}
    # a name twice: one INVALID_REQUEST entry, nothing created
    expects = m.create_topics([{"name": n("e"), "partitions": 1, "rf": 1, "configs": []}] * 2, False, 7)
    assert [(e.key, e.allowed) for e in expects] == [(("name", n("e")), {42})]
    # '.' and '_' collide with an existing topic
    create(m, {"name": n("x.y")})
    assert create(m, {"name": n("x_y")}) == {n("x_y"): {17}}
    assert create(m, {"name": n("x.y")}) == {n("x.y"): {36}}
    # validate_only changes nothing
    create(m, {"name": n("f")}, validate_only=True)
    assert n("f") not in m.topics and m.topics[n("a")].partitions == 2


def test_delete_topics_duplicates_unknowns_and_ids():
    m = model()
    create(m, {"name": n("a")}, {"name": n("b")})
    m.topics[n("b")].topic_id = tid = uuid.uuid4()
    other = uuid.uuid4()
    expects = m.delete_topics([{"name": n("a")}, {"name": n("a")}, {"name": n("c")}, {"id": tid}, {"id": other}], 6)
    assert {e.key: e.allowed for e in expects} == {
        ("name", n("a")): {42}, ("name", n("c")): {3}, ("id", tid): {0}, ("id", other): {100}}
    apply(expects)
    assert set(m.topics) == {n("a")}


def test_incremental_alter_configs_semantics():
    m = model()
    create(m, {"name": n("a"), "configs": [["cleanup.policy", "compact"]]})
    codes = lambda res, vo=False: [e.allowed for e in m.incremental_alter(res, vo)]   # noqa: E731
    assert codes([{"name": n("a"), "ops": []}, {"name": n("a"), "ops": []}]) == [{42}, {42}]
    assert codes([{"name": n("a"), "ops": [["retention.ms", "SET", "1"], ["retention.ms", "DELETE", None]]}]) == [{42}]
    assert codes([{"name": n("a"), "ops": [["retention.ms", "SET", None]]}]) == [{42}]
    assert codes([{"name": n("a"), "ops": [["retention.ms", "APPEND", "1"]]}]) == [{40}]
    assert codes([{"name": n("zz"), "ops": [["retention.ms", "SET", "abc"]]}]) == [{40}]   # validator first
    assert codes([{"name": n("zz"), "ops": [["retention.ms", "SET", "3600000"]]}]) == [{3}]
    assert codes([{"name": n("bad!"), "ops": []}]) == [{17}]
    assert codes([{"name": n("a"), "ops": [[cm.UNKNOWN_KEY, "DELETE", None]]}]) == [{0, 40}]  # code reading only
    apply(m.incremental_alter([{"name": n("a"), "ops": [["cleanup.policy", "APPEND", "delete"],
                                                         ["retention.ms", "SET", "3600000"]]}], False))
    assert m.topics[n("a")].configs == {"cleanup.policy": "compact,delete", "retention.ms": "3600000"}
    apply(m.incremental_alter([{"name": n("a"), "ops": [["cleanup.policy", "APPEND", "delete"]]}], False))
    assert m.topics[n("a")].configs["cleanup.policy"] == "compact,delete"          # not duplicated
    apply(m.incremental_alter([{"name": n("a"), "ops": [["retention.ms", "DELETE", None]]}], False))
    assert "retention.ms" not in m.topics[n("a")].configs
    # SUBTRACT everything: Kafka's verdict on an empty list is not pinned down
    expects = m.incremental_alter([{"name": n("a"), "ops": [["cleanup.policy", "SUBTRACT", "compact,delete"]]}], False)
    assert [e.allowed for e in expects] == [{0, 40}]
    # APPEND to a key the topic does not override: the base is unknown, the element certain
    create(m, {"name": n("b")})
    apply(m.incremental_alter([{"name": n("b"), "ops": [["cleanup.policy", "APPEND", "compact"]]}], False))
    value = m.topics[n("b")].configs["cleanup.policy"]
    assert isinstance(value, cm.Unknown) and value.admits("delete,compact") and not value.admits("delete")


def test_alter_configs_replaces_the_whole_map():
    m = model()
    create(m, {"name": n("a"), "configs": [["cleanup.policy", "compact"]]})
    apply(m.alter_configs([{"name": n("a"), "configs": [["retention.ms", "3600000"]]}], False))
    assert m.topics[n("a")].configs == {"retention.ms": "3600000"}
    assert [e.allowed for e in m.alter_configs([{"name": n("a"), "configs": [["retention.ms", None]]}], False)] == [{42}]


def test_describe_configs_against_defaults_and_overrides():
    m = model()
    create(m, {"name": n("a"), "configs": [["retention.ms", "3600000"]]})
    t = m.topics[n("a")]
    ok = {"cleanup.policy": {"value": "delete", "config_source": 5},
          "retention.ms": {"value": "3600000", "config_source": 1}}
    assert m.config_problem(t, ok, 4) is None
    assert "config_source 5" in m.config_problem(t, {**ok, "retention.ms": {"value": "3600000", "config_source": 5}}, 4)
    assert m.config_problem(t, {**ok, "retention.ms": {"value": "3600000", "config_source": 5}}, 0) is None
    assert "does not list" in m.config_problem(t, {"retention.ms": ok["retention.ms"]}, 4)
    assert m.config_problem(t, {"retention.ms": ok["retention.ms"]}, 4, keys=["retention.ms", cm.UNKNOWN_KEY]) is None


def test_delete_records_low_watermark_policy_and_ranges():
    m = model()
    create(m, {"name": n("a"), "partitions": 2}, {"name": n("c"), "configs": [["cleanup.policy", "compact"]]})
    m.produced(n("a"), 0, 5)
    dr = lambda parts, name=n("a"): m.delete_records([{"name": name, "partitions": parts}])   # noqa: E731
    [e] = dr([[0, 3]])
    assert e.allowed == {0} and e.verify({"low_watermark": 3}) is None and e.verify({"low_watermark": 2})
    e.effect({})
    [e] = dr([[0, 1]])
    assert e.allowed == {0} and e.verify({"low_watermark": 3}) is None      # never moves back
    assert [x.allowed for x in dr([[0, 6], [0, -1]])] == [{0}]               # last offset wins, -1 = HW
    assert [x.allowed for x in dr([[0, 6]])] == [{1}]
    assert [x.allowed for x in dr([[0, -2]])] == [{1}]
    assert [x.allowed for x in dr([[2, 0]])] == [{3}]
    assert [x.allowed for x in dr([[0, 0]], n("c"))] == [{44}]
    assert [x.allowed for x in dr([[0, 0]], n("zz"))] == [{3}]
    assert [x.allowed for x in m.delete_records([{"name": n("c"), "partitions": [[0, 0]]}],
                                                 frozenset({n("c")}))] == [{0, 44}]   # policy change in flight


def test_match_pairs_entries_by_key_and_counts_them():
    expects = [cm.Expect(("name", "a"), frozenset({0}), "x"), cm.Expect(("name", "b"), frozenset({42}), "y")]
    assert cm.match(expects, [(("name", "a"), 0, {}), (("name", "b"), 42, {})])[0] is None
    assert "2 result(s)" in cm.match(expects, [(("name", "a"), 0, {})] * 2 + [(("name", "b"), 42, {})])[0]
    assert "no result for b" in cm.match(expects, [(("name", "a"), 0, {})])[0]
    assert "not asked" in cm.match(expects, [(("name", "a"), 0, {}), (("name", "b"), 42, {}),
                                             (("name", "c"), 0, {})])[0]


def test_scripts_read_as_requests():
    op = {"api": "CreateTopics", "v": 5, "validate_only": False,
          "topics": [{"slot": "a", "partitions": 2, "rf": 1, "configs": []}]}
    assert render(op, SUB) == "CreateTopics v5 {topics: [kac-..-a (2 partitions)]}"
    op = {"api": "IncrementalAlterConfigs", "v": 1, "validate_only": True,
          "resources": [{"slot": "b", "ops": [["cleanup.policy", "APPEND", "compact"], ["retention.ms", "DELETE", None]]}]}
    assert render(op, SUB) == ("IncrementalAlterConfigs v1 validate_only "
                               "{resources: [kac-..-b: APPEND cleanup.policy=compact, DELETE retention.ms]}")
    op = {"api": "DeleteRecords", "v": 2, "topics": [{"slot": "a", "partitions": [[0, -1]]}]}
    assert render(op, SUB) == "DeleteRecords v2 {kac-..-a-0 before -1 (high watermark)}"


def test_strategies_draw_every_advertised_version_and_json_operations():
    import json

    from hypothesis import given, settings, strategies as st

    class Ctx:
        focus = 19
        watch_logs = True
        watch_configs = True
        defaults = cm.Defaults()
        ranges = {3: (0, 12), 19: (2, 7), 20: (1, 6), 21: (0, 2), 32: (1, 4), 33: (0, 2), 37: (0, 3), 44: (0, 1),
                  0: (3, 11), 2: (1, 9)}

    seen = set()

    @settings(max_examples=300, database=None)
    @given(Strategies(Ctx()).steps())
    def draw(op):
        assert json.loads(json.dumps(op)) == op
        if op["api"] == "CreateTopics" and not op.get("plain"):
            assert 2 <= op["v"] <= 7
            seen.add(op["v"])

    draw()
    assert seen == set(range(2, 8))
    assert st  # noqa: B018
