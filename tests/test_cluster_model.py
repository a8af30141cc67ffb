"""The S1 model's predictions follow docs/reference-semantics.md (no broker needed)."""
from __future__ import annotations

import uuid

from conformance import cluster_model as cm
from conformance.config_model import valid_value
from reference import topic_config
from conformance.stateful.steps import Strategies, render
from fixtures import judge
from protocol import ConfigSource
from protocol.apis import ApiKey
from protocol.errors import Errors

SUB = "kac-abc-s1-1"


def model(**defaults) -> cm.Model:
    default = ConfigSource.DEFAULT_CONFIG
    d = cm.Defaults(configs={"cleanup.policy": ("delete", default), "retention.ms": ("604800000", default)},
                    configs_known=True, **defaults)
    return cm.Model(SUB, d)


def create(m, *items, validate_only=False, version=7):
    expects = m.create_topics([{"partitions": 1, "rf": 1, "configs": [], **i} for i in items], validate_only, version)
    apply(expects)
    return {e.key[1]: e.allowed for e in expects}


def apply(expects, codes=None):
    for e in expects:
        code = (codes or {}).get(e.key, min(e.allowed))
        if code == Errors.NONE and e.effect:
            e.effect({"num_partitions": -1})


def n(slot):
    return f"{SUB}-{slot}"


def test_create_topics_checks_in_kafkas_order():
    m = model()
    assert create(m, {"name": n("a"), "partitions": 2}) == {n("a"): {Errors.NONE}}
    got = create(m, {"name": n("a"), "rf": 0}, {"name": n("b"), "configs": [["retention.ms", "abc"]], "rf": 0},
                 {"name": n("c"), "rf": 0, "partitions": 0}, {"name": n("d"), "partitions": 0, "rf": 2},
                 {"name": n("bad!")})
    assert got == {n("a"): {Errors.TOPIC_ALREADY_EXISTS}, n("b"): {Errors.INVALID_CONFIG},
                   n("c"): {Errors.INVALID_REPLICATION_FACTOR}, n("d"): {Errors.INVALID_PARTITIONS},
                   n("bad!"): {Errors.INVALID_TOPIC_EXCEPTION}}
    # a name twice: one INVALID_REQUEST entry, nothing created
    expects = m.create_topics([{"name": n("e"), "partitions": 1, "rf": 1, "configs": []}] * 2, False, 7)
    assert [(e.key, e.allowed) for e in expects] == [(("name", n("e")), {Errors.INVALID_REQUEST})]
    # '.' and '_' collide with an existing topic
    create(m, {"name": n("x.y")})
    assert create(m, {"name": n("x_y")}) == {n("x_y"): {Errors.INVALID_TOPIC_EXCEPTION}}
    assert create(m, {"name": n("x.y")}) == {n("x.y"): {Errors.TOPIC_ALREADY_EXISTS}}
    # validate_only changes nothing
    create(m, {"name": n("f")}, validate_only=True)
    assert n("f") not in m.topics and m.topics[n("a")].partitions == 2


def test_existence_is_checked_before_collision():
    """ReplicationControlManager.createTopics overwrites validateNewTopicNames' 17 with 36
    for a name that exists; measured on Kafka: a name that exists and collides with another
    existing topic answers TOPIC_ALREADY_EXISTS (the model once answered 17 there)."""
    m = model()
    m.topics[n("x.y")] = cm.Topic(1)
    m.topics[n("x_y")] = cm.Topic(1)          # both exist (as Kafka leaves them after one request)
    assert create(m, {"name": n("x_y")}) == {n("x_y"): {Errors.TOPIC_ALREADY_EXISTS}}
    assert create(m, {"name": n("x.y")}, validate_only=True) == {n("x.y"): {Errors.TOPIC_ALREADY_EXISTS}}
    assert create(m, {"name": n("x-y")}) == {n("x-y"): {Errors.NONE}}       # '-' does not collide


def test_either_name_of_a_colliding_pair_in_one_request_may_be_the_one_created():
    """Kafka's intent (KAFKA-13743, ZooKeeper mode): of two colliding names of one request one
    is created and the other refused, 17; which one Kafka does not define
    (reference/topic_names.py COLLIDING_PAIR_IN_ONE_REQUEST), so each may answer either."""
    either = {Errors.NONE, Errors.INVALID_TOPIC_EXCEPTION}
    m = model()
    expects = m.create_topics([{"name": nm, "partitions": 1, "rf": 1, "configs": []} for nm in (n("x.y"), n("x_y"))],
                              False, 7)
    assert {e.key[1]: e.allowed for e in expects} == {n("x.y"): either, n("x_y"): either}
    apply(expects, {("name", n("x.y")): Errors.INVALID_TOPIC_EXCEPTION, ("name", n("x_y")): Errors.NONE})
    assert n("x_y") in m.topics and n("x.y") not in m.topics      # the model follows the broker's choice
    # validate_only alike
    assert create(model(), {"name": n("a_b")}, {"name": n("a.b")}, validate_only=True) == {
        n("a_b"): either, n("a.b"): either}
    # three names: each may be the one
    got = create(model(), {"name": n("q.a.b")}, {"name": n("q_a.b")}, {"name": n("q.a_b")})
    assert got == {n("q.a.b"): either, n("q_a.b"): either, n("q.a_b"): either}
    # the later one's own refusal stays allowed next to 17 (which check comes first is open)
    got = create(model(), {"name": n("x.y")}, {"name": n("x_y"), "configs": [["retention.ms", "abc"]]})
    assert got[n("x_y")] == {Errors.INVALID_CONFIG, Errors.INVALID_TOPIC_EXCEPTION}
    got = create(model(), {"name": n("x.y"), "rf": 0}, {"name": n("x_y")})
    assert got == {n("x.y"): {Errors.INVALID_REPLICATION_FACTOR, Errors.INVALID_TOPIC_EXCEPTION}, n("x_y"): either}
    # a name given twice is refused before the controller: it is no earlier name
    expects = model().create_topics([{"name": nm, "partitions": 1, "rf": 1, "configs": []}
                                     for nm in (n("x.y"), n("x.y"), n("x_y"))], False, 7)
    assert {e.key[1]: e.allowed for e in expects} == {n("x.y"): {Errors.INVALID_REQUEST}, n("x_y"): {Errors.NONE}}
    # names that do not collide are untouched
    assert create(model(), {"name": n("x.y")}, {"name": n("x-y")}, {"name": n("xy")}) == {
        n("x.y"): {Errors.NONE}, n("x-y"): {Errors.NONE}, n("xy"): {Errors.NONE}}


def test_delete_topics_duplicates_unknowns_and_ids():
    m = model()
    create(m, {"name": n("a")}, {"name": n("b")})
    m.topics[n("b")].topic_id = tid = uuid.uuid4()
    other = uuid.uuid4()
    expects = m.delete_topics([{"name": n("a")}, {"name": n("a")}, {"name": n("c")}, {"id": tid}, {"id": other}], 6)
    assert {e.key: e.allowed for e in expects} == {
        ("name", n("a")): {Errors.INVALID_REQUEST}, ("name", n("c")): {Errors.UNKNOWN_TOPIC_OR_PARTITION},
        ("id", tid): {Errors.NONE}, ("id", other): {Errors.UNKNOWN_TOPIC_ID}}
    apply(expects)
    assert set(m.topics) == {n("a")}


def test_incremental_alter_configs_semantics():
    m = model()
    create(m, {"name": n("a"), "configs": [["cleanup.policy", "compact"]]})
    codes = lambda res, vo=False: [e.allowed for e in m.incremental_alter(res, vo)]   # noqa: E731
    assert codes([{"name": n("a"), "ops": []}, {"name": n("a"), "ops": []}]) == [{Errors.INVALID_REQUEST}] * 2
    assert codes([{"name": n("a"), "ops": [["retention.ms", "SET", "1"], ["retention.ms", "DELETE", None]]}]) == [
        {Errors.INVALID_REQUEST}]
    assert codes([{"name": n("a"), "ops": [["retention.ms", "SET", None]]}]) == [{Errors.INVALID_REQUEST}]
    assert codes([{"name": n("a"), "ops": [["retention.ms", "APPEND", "1"]]}]) == [{Errors.INVALID_CONFIG}]
    # a bad value on a topic that does not exist: KRaft validates first (INVALID_CONFIG);
    # ZooKeeper mode looks for the topic first (reference/modes.py TOPIC_CONFIG_CHECKS,
    # test_a_zookeeper_mode_broker_is_modelled_by_its_own_rules)
    assert codes([{"name": n("zz"), "ops": [["retention.ms", "SET", "abc"]]}]) == [{Errors.INVALID_CONFIG}]
    assert codes([{"name": n("zz"), "ops": [["retention.ms", "SET", "3600000"]]}]) == [
        {Errors.UNKNOWN_TOPIC_OR_PARTITION}]
    assert codes([{"name": n("bad!"), "ops": []}]) == [{Errors.INVALID_TOPIC_EXCEPTION}]
    assert codes([{"name": n("a"), "ops": [[cm.UNKNOWN_KEY, "DELETE", None]]}]) == [
        {Errors.NONE, Errors.INVALID_CONFIG}]                                       # code reading only
    apply(m.incremental_alter([{"name": n("a"), "ops": [["cleanup.policy", "APPEND", "delete"],
                                                         ["retention.ms", "SET", "3600000"]]}], False))
    assert m.topics[n("a")].configs == {"cleanup.policy": "compact,delete", "retention.ms": "3600000"}
    apply(m.incremental_alter([{"name": n("a"), "ops": [["cleanup.policy", "APPEND", "delete"]]}], False))
    assert m.topics[n("a")].configs["cleanup.policy"] == "compact,delete"          # not duplicated
    apply(m.incremental_alter([{"name": n("a"), "ops": [["retention.ms", "DELETE", None]]}], False))
    assert "retention.ms" not in m.topics[n("a")].configs
    # SUBTRACT everything: Kafka's verdict on an empty list is not pinned down
    expects = m.incremental_alter([{"name": n("a"), "ops": [["cleanup.policy", "SUBTRACT", "compact,delete"]]}], False)
    assert [e.allowed for e in expects] == [{Errors.NONE, Errors.INVALID_CONFIG}]
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
    assert [e.allowed for e in m.alter_configs([{"name": n("a"), "configs": [["retention.ms", None]]}], False)] == [
        {Errors.INVALID_REQUEST}]


def _holds(facts, entry) -> bool:
    """Do the model's facts (expectations below an entry) hold on ``entry``? The judge decides,
    as it does in S1."""
    answers = {0: judge.Answer("ok", entry)}
    return all(judge.judge(dict(f, step=0), answers) is None for f in facts)


def test_describe_configs_against_defaults_and_overrides():
    m = model()
    create(m, {"name": n("a"), "configs": [["retention.ms", "3600000"]]})
    t = m.topics[n("a")]
    default, override = ConfigSource.DEFAULT_CONFIG, ConfigSource.TOPIC_CONFIG
    ok = [{"name": "cleanup.policy", "value": "delete", "config_source": default},
          {"name": "retention.ms", "value": "3600000", "config_source": override}]
    wrong_source = [ok[0], {**ok[1], "config_source": default}]
    assert _holds(m.config_facts(t, 4), {"configs": ok})
    assert not _holds(m.config_facts(t, 4), {"configs": wrong_source})
    assert _holds(m.config_facts(t, 0), {"configs": wrong_source})            # v0 has no config_source
    assert not _holds(m.config_facts(t, 4), {"configs": ok[1:]})                # does not list a default
    assert _holds(m.config_facts(t, 4, keys=["retention.ms", cm.UNKNOWN_KEY]), {"configs": ok[1:]})
    t.configs["cleanup.policy"] = cm.Unknown(frozenset({"compact"}), frozenset({"delete"}))
    assert _holds(m.config_facts(t, 4), {"configs": [{**ok[0], "value": "compact", "config_source": override}, ok[1]]})
    assert not _holds(m.config_facts(t, 4), {"configs": [{**ok[0], "config_source": override}, ok[1]]})


def test_delete_records_low_watermark_policy_and_ranges():
    m = model()
    create(m, {"name": n("a"), "partitions": 2}, {"name": n("c"), "configs": [["cleanup.policy", "compact"]]})
    m.produced(n("a"), 0, 5)
    dr = lambda parts, name=n("a"): m.delete_records([{"name": name, "partitions": parts}])   # noqa: E731
    [e] = dr([[0, 3]])
    assert e.allowed == {Errors.NONE}
    assert _holds(e.verify({}), {"low_watermark": 3}) and not _holds(e.verify({}), {"low_watermark": 2})
    e.effect({})
    [e] = dr([[0, 1]])
    assert e.allowed == {Errors.NONE} and _holds(e.verify({}), {"low_watermark": 3})      # never moves back
    assert [x.allowed for x in dr([[0, 6], [0, -1]])] == [{Errors.NONE}]               # last offset wins, -1 = HW
    assert [x.allowed for x in dr([[0, 6]])] == [{Errors.OFFSET_OUT_OF_RANGE}]
    assert [x.allowed for x in dr([[0, -2]])] == [{Errors.OFFSET_OUT_OF_RANGE}]
    assert [x.allowed for x in dr([[2, 0]])] == [{Errors.UNKNOWN_TOPIC_OR_PARTITION}]
    assert [x.allowed for x in dr([[0, 0]], n("c"))] == [{Errors.POLICY_VIOLATION}]
    assert [x.allowed for x in dr([[0, 0]], n("zz"))] == [{Errors.UNKNOWN_TOPIC_OR_PARTITION}]
    assert [x.allowed for x in m.delete_records([{"name": n("c"), "partitions": [[0, 0]]}],
                                                 frozenset({n("c")}))] == [
        {Errors.NONE, Errors.POLICY_VIOLATION}]                                      # policy change in flight


def test_a_metadata_entry_shows_the_model_partitions_once_each():
    m = model()
    create(m, {"name": n("a"), "partitions": 2})
    t = m.topics[n("a")]
    entry = {"partitions": [{"partition_index": 0}, {"partition_index": 1}]}
    assert _holds(m.topic_facts(t, entry, 12), entry)
    assert not _holds(m.topic_facts(t, entry, 12), {"partitions": [{"partition_index": 0}, {"partition_index": 0}]})
    assert not _holds(m.topic_facts(t, entry, 12), {"partitions": [{"partition_index": 0}]})


def test_the_values_s1_draws_are_judged_as_the_reference_judges_them():
    """S1 draws only values whose verdict is certain; the rules are the reference's."""
    for key, values in cm.VALID_VALUES.items():
        assert key in topic_config.CONFIGS
        assert all(valid_value(key, v) is True and cm.value_verdict(key, v) is True for v in values), key
    for key, values in cm.INVALID_VALUES.items():
        assert all(valid_value(key, v) is False and cm.value_verdict(key, v) is False for v in values), key
    assert set(cm.POLICY_ELEMENTS) == set(topic_config.CONFIGS["cleanup.policy"].values)
    assert cm.LIST_KEYS == topic_config.LIST_KEYS and cm.UNKNOWN_KEY not in topic_config.CONFIGS
    assert cm.value_verdict(cm.UNKNOWN_KEY, "1") is False


def test_match_pairs_entries_by_key_and_counts_them():
    expects = [cm.Expect(("name", "a"), frozenset({Errors.NONE}), "x"),
               cm.Expect(("name", "b"), frozenset({Errors.INVALID_REQUEST}), "y")]
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
        focus = ApiKey.CreateTopics
        watch_logs = True
        watch_configs = True
        avoided_shapes = frozenset()
        defaults = cm.Defaults()
        ranges = {ApiKey.Metadata: (0, 12), ApiKey.CreateTopics: (2, 7), ApiKey.DeleteTopics: (1, 6),
                  ApiKey.DeleteRecords: (0, 2), ApiKey.DescribeConfigs: (1, 4), ApiKey.AlterConfigs: (0, 2),
                  ApiKey.CreatePartitions: (0, 3), ApiKey.IncrementalAlterConfigs: (0, 1),
                  ApiKey.Produce: (3, 11), ApiKey.ListOffsets: (1, 9)}

    seen = set()

    # derandomized: the same 300 draws every run, so the test says whether the strategy can
    # reach every version, not whether this run's luck did (random draws missed one in ~1 of 10)
    @settings(max_examples=300, database=None, derandomize=True)
    @given(Strategies(Ctx()).steps())
    def draw(op):
        assert json.loads(json.dumps(op)) == op
        if op["api"] == "CreateTopics" and not op.get("plain"):
            assert 2 <= op["v"] <= 7
            seen.add(op["v"])

    draw()
    assert seen == set(range(2, 8))
    assert st  # noqa: B018


def test_a_zookeeper_mode_broker_is_modelled_by_its_own_rules():
    """reference/modes.py: ZkAdminManager's order of checks, every listing of a repeated
    name answered, and a deleted name that may still answer as being deleted."""
    from reference import release_lines
    release_lines.use((3, 9), release_lines.ZK)
    try:
        m = model()
        create(m, {"name": n("a")})
        got = create(m, {"name": n("c"), "rf": 0, "partitions": 0},
                     {"name": n("bad!"), "configs": [["retention.ms", None]]},
                     {"name": n("a"), "configs": [["retention.ms", "abc"]]})
        assert got == {n("c"): {Errors.INVALID_PARTITIONS}, n("bad!"): {Errors.INVALID_CONFIG},
                       n("a"): {Errors.TOPIC_ALREADY_EXISTS}}
        expects = m.create_topics([{"name": n("e"), "partitions": 1, "rf": 1, "configs": []}] * 2, False, 7)
        assert [e.allowed for e in expects] == [{Errors.INVALID_REQUEST}] * 2
        expects = m.delete_topics([{"name": n("a")}, {"name": n("a")}], 4)
        assert [(e.key, e.allowed) for e in expects] == [(("name", n("a")), {Errors.NONE})] * 2
        apply(expects)
        assert n("a") not in m.topics and n("a") in m.deleting
        assert create(m, {"name": n("a")}) == {n("a"): {Errors.TOPIC_ALREADY_EXISTS, Errors.NONE}}
        assert n("a") not in m.deleting          # created again (NONE applied)
        m.delete_topics([{"name": n("a")}], 4)[0].effect({})
        assert [e.allowed for e in m.create_partitions([{"name": n("a"), "count": 2}], False)] == [
            {Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.INVALID_TOPIC_EXCEPTION}]
        codes = [e.allowed for e in m.incremental_alter(
            [{"name": n("x"), "ops": [["retention.ms", "SET", "abc"]]},
             {"name": n("bad!"), "ops": [["retention.ms", "SET", "3600000"]]}], False)]
        assert codes == [{Errors.UNKNOWN_TOPIC_OR_PARTITION}, {Errors.UNKNOWN_TOPIC_OR_PARTITION}]
    finally:
        release_lines.use(None)
    codes = [e.allowed for e in model().incremental_alter([{"name": n("x"), "ops": [["retention.ms", "SET", "abc"]]}], False)]
    assert codes == [{Errors.INVALID_CONFIG}]          # KRaft: the config before the topic's existence


def test_s1_never_names_two_colliding_names_in_one_create_topics():
    """Which of the pair is created Kafka does not define, so S1's model could not follow
    it: focused CreateTopics never names both colliding slots, on any broker (T1's
    dedicated check asks that shape every run)."""
    from hypothesis import given, settings

    from conformance.stateful.topic_operations import CreateTopics
    from reference.known_deviations import CREATE_TOPICS_NAMES_COLLIDING
    from strategies import stateful as draws

    def strategy(known):
        class Row:
            focus = ApiKey.CreateTopics
            watch_logs = watch_configs = False
            avoided_shapes = frozenset({CREATE_TOPICS_NAMES_COLLIDING}) if known else frozenset()
            defaults = cm.Defaults()
            ranges = {ApiKey.CreateTopics: (2, 7)}
        return CreateTopics().draw(Strategies(Row()), True)

    for known in (False, True):
        @settings(max_examples=300, database=None)
        @given(strategy(known))
        def never(op):
            assert not draws.both_colliding({t["slot"] for t in op["topics"]})

        never()
