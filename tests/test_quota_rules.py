"""reference/quota_rules.py holds Kafka's client quota rules (ClientQuotaControlManager's
validation, ClientQuotasImage's filter matching), and conformance/quota_model.py alters and
describes by them; the Q generators draw only what the rules and the run's scope allow."""
from __future__ import annotations

import pytest
from hypothesis import given, settings

from conformance.quota_model import QuotaModel
from protocol import Errors
from reference import modes, release_lines as rl
from reference.quota_rules import (CLIENT_ID, IP, MATCH_DEFAULT, MATCH_EXACT, MATCH_SPECIFIED, USER, alter_code,
                                   entity, filter_error, matches)
from strategies import client_quotas as gen

U, C = entity(user="u"), entity(client_id="c")
UC = entity(user="u", client_id="c")
DEFAULT_U_C = ((CLIENT_ID, "c"), (USER, None))


def _entity(components) -> tuple:
    return tuple(sorted((t, n) for t, n in components))


@pytest.mark.parametrize("kind", sorted(gen.INVALID))
def test_every_invalid_kind_is_refused_alone_in_kraft(kind):
    ent, ops = gen.INVALID[kind]
    assert alter_code(_entity(ent), [tuple(o) for o in ops]) == Errors.INVALID_REQUEST


@pytest.mark.parametrize("kind,zk", [("duplicate key", Errors.NONE), ("zero value", Errors.NONE),
                                     ("negative value", Errors.INVALID_REQUEST),
                                     ("fractional byte rate", Errors.INVALID_REQUEST),
                                     ("unknown quota key", Errors.INVALID_REQUEST)])
def test_zookeeper_mode_accepts_a_key_twice_and_a_value_not_above_zero(kind, zk):
    ent, ops = gen.INVALID[kind]
    assert alter_code(_entity(ent), [tuple(o) for o in ops], values_checked=False, duplicates_checked=False) == zk


@pytest.mark.parametrize("kind,kraft_3_4", [("duplicate key", Errors.INVALID_REQUEST), ("zero value", Errors.NONE),
                                            ("negative value", Errors.INVALID_REQUEST),
                                            ("fractional byte rate", Errors.INVALID_REQUEST)])
def test_kraft_before_3_5_refuses_a_key_twice_but_accepts_a_zero_value(kind, kraft_3_4):
    """Measured on kafka:3.3.2 and 3.4.1 (KAFKA-14943 added the value checks in 3.5.0)."""
    ent, ops = gen.INVALID[kind]
    line = rl.QUOTA_VALUES_CHECKED
    assert (line.at((3, 4)), line.at((3, 5)), line.at((3, 9), rl.ZK)) == (False, True, False)
    assert modes.QUOTA_DUPLICATE_KEY_REFUSED.at((3, 4)) and not modes.QUOTA_DUPLICATE_KEY_REFUSED.at((3, 4), rl.ZK)
    assert alter_code(_entity(ent), [tuple(o) for o in ops], values_checked=line.at((3, 4)),
                      duplicates_checked=modes.QUOTA_DUPLICATE_KEY_REFUSED.at((3, 4))) == kraft_3_4


def test_valid_entries_and_removals_are_accepted():
    assert alter_code(UC, [("producer_byte_rate", 1024.0), ("request_percentage", 12.5)]) == Errors.NONE
    assert alter_code(U, [("connection_creation_rate", None)]) == Errors.NONE     # a removal is not validated
    assert alter_code(entity(ip="192.0.2.7"), [("connection_creation_rate", 5.0)]) == Errors.NONE


@pytest.mark.parametrize("ent,components,strict,want", [
    (U, [(USER, MATCH_EXACT, "u")], True, True),
    (UC, [(USER, MATCH_EXACT, "u")], True, False),
    (UC, [(USER, MATCH_EXACT, "u")], False, True),
    (UC, [(USER, MATCH_EXACT, "u"), (CLIENT_ID, MATCH_SPECIFIED, None)], True, True),
    (U, [(USER, MATCH_EXACT, "u"), (CLIENT_ID, MATCH_SPECIFIED, None)], False, False),
    (UC, [(CLIENT_ID, MATCH_EXACT, "c"), (USER, MATCH_DEFAULT, None)], False, False),
    (DEFAULT_U_C, [(CLIENT_ID, MATCH_EXACT, "c"), (USER, MATCH_DEFAULT, None)], True, True),
    (DEFAULT_U_C, [(USER, MATCH_SPECIFIED, None)], False, True),      # containsKey: a default name too
    (C, [(USER, MATCH_EXACT, "u")], False, False),
])
def test_filters_match_as_client_quotas_image(ent, components, strict, want):
    assert matches(ent, components, strict) is want


def test_filter_errors():
    assert filter_error([(USER, MATCH_EXACT, "u")]) == Errors.NONE
    assert filter_error([(USER, MATCH_EXACT, None)]) == Errors.INVALID_REQUEST
    assert filter_error([(USER, MATCH_DEFAULT, "u")]) == Errors.INVALID_REQUEST
    assert filter_error([(USER, MATCH_EXACT, "u"), (USER, MATCH_SPECIFIED, None)]) == Errors.INVALID_REQUEST
    assert filter_error([(IP, MATCH_SPECIFIED, None), (USER, MATCH_EXACT, "u")]) == Errors.INVALID_REQUEST
    assert filter_error([("group", MATCH_EXACT, "g")]) == Errors.UNSUPPORTED_VERSION


def test_the_model_sets_removes_and_forgets_an_entity_without_keys():
    m = QuotaModel(values_checked=True)
    assert m.alter([(U, [("producer_byte_rate", 1.0), ("request_percentage", 2.0)])]) == [Errors.NONE]
    assert m.alter([(U, [("request_percentage", None)])], validate_only=True) == [Errors.NONE]
    assert m.of(U) == {"producer_byte_rate": 1.0, "request_percentage": 2.0}
    assert m.alter([(U, [("request_percentage", None)]), (C, [("kac_unknown_rate", 1.0)])]) == \
        [Errors.NONE, Errors.INVALID_REQUEST]
    assert m.of(U) == {"producer_byte_rate": 1.0} and m.of(C) == {}
    m.alter([(U, [("producer_byte_rate", None)])])
    assert U not in m.held
    m.alter([(U, [("producer_byte_rate", 3.0)]), (UC, [("consumer_byte_rate", 4.0)])])
    assert set(m.describe([(USER, MATCH_EXACT, "u")], False)) == {U, UC}
    assert set(m.describe([(USER, MATCH_EXACT, "u")], True)) == {U}


@settings(max_examples=50, deadline=None)
@given(gen.filter_cases())
def test_q4_filters_name_one_of_the_checks_entities_and_only_placeholders(case):
    for f in case["filters"]:
        assert any(m == MATCH_EXACT and x.startswith("@") for _, m, x in f["components"])
        assert filter_error([tuple(c) for c in f["components"]]) == Errors.NONE
    assert all(n.startswith("@") for e in case["entities"] for _, n in e)


@settings(max_examples=50, deadline=None)
@given(gen.entries(1, 3, removals=True))
def test_drawn_entries_are_valid_on_distinct_run_named_entities(entries):
    ents = [_entity(e) for e, _ in entries]
    assert len(set(ents)) == len(ents)
    assert all(n.startswith("@") for e in ents for _, n in e)
    assert all(alter_code(e, [tuple(o) for o in ops]) == Errors.NONE for e, ops in zip(ents, (o for _, o in entries)))
