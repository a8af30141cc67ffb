"""The config model (conformance/config_model.py) follows released Kafka, and the config
strategies only draw values it can judge. No broker is needed."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from conformance.config_model import (
    Described, Observation, TopicConfigModel, Write, changes, history_violations, normalise, valid_value,
)
from reference.topic_config import CONFIGS
from protocol import AlterConfigOp, ConfigSource
from protocol.errors import Errors
from strategies.configs import BOUNDARY_VALUES, c1_sequences, c3_cases, c4_cases, invalid_values, valid_values
from strategies.domain import LIST_CONFIGS, TOPIC_CONFIGS

KEYS = sorted(set(TOPIC_CONFIGS) | set(LIST_CONFIGS))
DEFAULT = ConfigSource.DEFAULT_CONFIG
FRESH = {"cleanup.policy": Described("delete", DEFAULT), "retention.ms": Described("604800000", DEFAULT),
         "leader.replication.throttled.replicas": Described("", DEFAULT),
         "min.cleanable.dirty.ratio": Described("0.5", DEFAULT)}


def test_the_strategies_draw_every_key_of_the_reference():
    assert set(KEYS) == set(CONFIGS)


@settings(max_examples=300)
@given(st.sampled_from(KEYS).flatmap(lambda k: st.tuples(st.just(k), valid_values(k), invalid_values(k))))
def test_strategy_values_are_judged_as_logconfig_judges_them(kvi):
    key, good, bad = kvi
    assert valid_value(key, good) is True, (key, good)
    assert valid_value(key, bad) is False, (key, bad)


@settings(max_examples=200)
@given(c1_sequences())
def test_the_model_can_judge_every_generated_sequence(case):
    model = TopicConfigModel(dict(FRESH))
    for ops in case["steps"]:
        assert len({o[0] for o in ops}) == len(ops)
        code, model = model.incremental([tuple(o) for o in ops])
        assert code in (Errors.NONE, Errors.INVALID_CONFIG)


@settings(max_examples=100)
@given(c3_cases(), c4_cases(True), c4_cases(False))
def test_c3_and_c4_cases_have_the_shape_the_properties_expect(c3, c4i, c4l):
    assert c3["x"][0] != c3["y"][0]
    assert all(len(o) == 3 for o in c4i["ops"] + c4l["ops"])
    assert all(o[1] == AlterConfigOp.SET for o in c4l["ops"])


def test_append_starts_from_the_configdef_default_and_never_duplicates():
    m = TopicConfigModel(dict(FRESH))
    code, m = m.incremental([("cleanup.policy", AlterConfigOp.APPEND, "compact")])
    assert (code, m.overrides) == (Errors.NONE, {"cleanup.policy": "delete,compact"})
    code, m = m.incremental([("cleanup.policy", AlterConfigOp.APPEND, "delete,compact")])
    assert m.overrides["cleanup.policy"] == "delete,compact"
    code, m = m.incremental([("cleanup.policy", AlterConfigOp.SUBTRACT, "delete,compact")])
    assert m.overrides["cleanup.policy"] == ""           # an empty override, not a DELETE
    code, m = m.incremental([("cleanup.policy", AlterConfigOp.DELETE, None)])
    assert m.overrides == {} and m.expected()["cleanup.policy"] == FRESH["cleanup.policy"]


def test_subtract_of_an_absent_value_on_an_unset_key_still_writes_an_override():
    code, m = TopicConfigModel(dict(FRESH)).incremental([("cleanup.policy", AlterConfigOp.SUBTRACT, "compact")])
    assert code == Errors.NONE and m.overrides == {"cleanup.policy": "delete"}
    assert m.expected()["cleanup.policy"].source == ConfigSource.TOPIC_CONFIG


def test_list_operations_on_other_keys_and_bad_values_fail_the_whole_resource():
    m = TopicConfigModel(dict(FRESH))
    for ops in ([("retention.ms", AlterConfigOp.APPEND, "5")], [("conformance.x", AlterConfigOp.SUBTRACT, "a")],
                [("retention.ms", AlterConfigOp.SET, "1"), ("segment.ms", AlterConfigOp.SET, "0")],
                [("conformance.x", AlterConfigOp.SET, "1")]):
        code, after = m.incremental(ops)
        assert code == Errors.INVALID_CONFIG and after.overrides == {}, ops
    assert m.incremental([("conformance.x", AlterConfigOp.DELETE, None)])[0] == Errors.NONE


def test_legacy_alter_configs_replaces_the_override_map():
    m = TopicConfigModel(dict(FRESH), {"retention.ms": "1"})
    code, after = m.replace({"cleanup.policy": "compact"})
    assert code == Errors.NONE and after.overrides == {"cleanup.policy": "compact"}


def test_values_compare_by_meaning_for_their_type():
    assert normalise("min.cleanable.dirty.ratio", "1") == normalise("min.cleanable.dirty.ratio", "1.0")
    assert normalise("cleanup.policy", "compact, delete") == normalise("cleanup.policy", "compact,delete")
    assert normalise("cleanup.policy", "compact,delete") != normalise("cleanup.policy", "delete,compact")
    assert normalise("retention.ms", "10") != normalise("retention.ms", "10.0")
    m = TopicConfigModel(dict(FRESH), {"retention.ms": "5"})
    assert m.differences({**FRESH, "retention.ms": Described("5", ConfigSource.TOPIC_CONFIG)}) == []
    assert m.differences({**FRESH, "retention.ms": Described("5", DEFAULT)})          # wrong source
    assert changes(FRESH, dict(FRESH)) == []


def _w(key, value, sent, acked):
    return Write(key, value, sent, acked, 0 if acked is not None else None)


def test_the_history_check_sees_a_write_undone_but_not_a_late_one():
    writes = {"k": [_w("k", "1", 0.0, 0.1), _w("k", "2", 0.2, 0.3)]}
    ok = [Observation(0.05, 0.06, {"k": "0"}), Observation(0.35, 0.36, {"k": "1"}),   # lag allowed
          Observation(0.4, 0.5, {"k": "2"})]
    assert history_violations(writes, {"k": "0"}, ok) == []
    undone = ok + [Observation(0.6, 0.7, {"k": "1"})]
    assert any("undone" in v for v in history_violations(writes, {"k": "0"}, undone))
    late = [Observation(5.0, 5.1, {"k": "1"})]
    assert any("lost update" in v for v in history_violations(writes, {"k": "0"}, late))
    phantom = [Observation(0.0, 0.01, {"k": "2"})]
    assert history_violations(writes, {"k": "0"}, phantom)


def test_every_boundary_value_is_one_logconfig_refuses_and_just_inside_it_accepts():
    inside = {"segment.bytes": [str(1 << 20), str((1 << 31) - 1)], "retention.ms": ["-1"],
              "retention.bytes": [str((1 << 63) - 1)], "segment.ms": ["1"], "max.message.bytes": ["0"],
              "min.insync.replicas": ["1"], "delete.retention.ms": ["0"], "file.delete.delay.ms": ["0"],
              "index.interval.bytes": ["0"], "min.cleanable.dirty.ratio": ["1", "0"]}
    for key, value in BOUNDARY_VALUES:
        assert valid_value(key, value) is False, (key, value)
        assert all(valid_value(key, v) is True for v in inside[key]), key


def test_the_reference_follows_the_release_line_and_lists_kafkas_defaults():
    from reference import release_lines
    try:
        release_lines.use((4, 0))
        assert valid_value("segment.bytes", "14") is True and valid_value("segment.bytes", "13") is False
        release_lines.use((4, 1))
        assert valid_value("segment.bytes", "14") is False and valid_value("segment.bytes", str(1 << 20)) is True
    finally:
        release_lines.use(None)
    assert all(CONFIGS[k].default == d.value for k, d in FRESH.items())
