"""reference/acl_rules.py holds Kafka's ACL rules: its filter matching agrees with the cases
of Kafka's own ResourcePatternFilterTest (apache/kafka
clients/src/test/java/org/apache/kafka/common/acl/ResourcePatternFilterTest.java), and the
model of conformance/acl_model.py creates and deletes by them."""
from __future__ import annotations

import pytest

from conformance.acl_model import AclModel
from protocol import Errors
from protocol.requests import AclOperation as Op
from protocol.requests import AclPatternType as Pt
from protocol.requests import AclPermission as Perm
from protocol.requests import AclResourceType as Rt
from reference.acl_rules import Acl, matches, refusal, unrepresentable

ANY, MATCH, LITERAL, PREFIXED = Pt.ANY, Pt.MATCH, Pt.LITERAL, Pt.PREFIXED


def pattern(rt, name, pt) -> Acl:
    return Acl(rt, name, pt, "User:u", "*", Op.READ, Perm.ALLOW)


#: (filter, binding, matches) as ResourcePatternFilterTest has them, test by test
KAFKA_CASES = [
    ((Rt.TOPIC, "Name", LITERAL), (Rt.GROUP, "Name", LITERAL), False),
    ((Rt.TOPIC, "Different", PREFIXED), (Rt.TOPIC, "Name", PREFIXED), False),
    ((Rt.TOPIC, "NAME", LITERAL), (Rt.TOPIC, "Name", LITERAL), False),
    ((Rt.TOPIC, "Name", LITERAL), (Rt.TOPIC, "Name", PREFIXED), False),
    ((Rt.ANY, "Name", PREFIXED), (Rt.TOPIC, "Name", PREFIXED), True),
    ((Rt.TOPIC, None, PREFIXED), (Rt.TOPIC, "Name", PREFIXED), True),
    ((Rt.TOPIC, None, ANY), (Rt.TOPIC, "Name", PREFIXED), True),
    ((Rt.TOPIC, None, MATCH), (Rt.TOPIC, "Name", PREFIXED), True),
    ((Rt.TOPIC, "Name", LITERAL), (Rt.TOPIC, "Name", LITERAL), True),
    ((Rt.TOPIC, "Name", ANY), (Rt.TOPIC, "Name", LITERAL), True),
    ((Rt.TOPIC, "Name", MATCH), (Rt.TOPIC, "Name", LITERAL), True),
    ((Rt.TOPIC, "Name-something", MATCH), (Rt.TOPIC, "Name", LITERAL), False),
    ((Rt.TOPIC, "*", LITERAL), (Rt.TOPIC, "*", LITERAL), True),
    ((Rt.TOPIC, "Name", LITERAL), (Rt.TOPIC, "*", LITERAL), False),
    ((Rt.TOPIC, "*", LITERAL), (Rt.TOPIC, "Name", LITERAL), False),
    ((Rt.TOPIC, "Name", ANY), (Rt.TOPIC, "*", LITERAL), False),
    ((Rt.TOPIC, "Name", MATCH), (Rt.TOPIC, "*", LITERAL), True),
    ((Rt.TOPIC, "Name", PREFIXED), (Rt.TOPIC, "Name", PREFIXED), True),
    ((Rt.TOPIC, "Name", PREFIXED), (Rt.TOPIC, "Name-something", PREFIXED), False),
    ((Rt.TOPIC, "Name-something", PREFIXED), (Rt.TOPIC, "Name", PREFIXED), False),
    ((Rt.TOPIC, "Name-something", ANY), (Rt.TOPIC, "Name", PREFIXED), False),
    ((Rt.TOPIC, "Name-something", MATCH), (Rt.TOPIC, "Name", PREFIXED), True),
]


@pytest.mark.parametrize("f,b,want", KAFKA_CASES)
def test_filter_matching_agrees_with_kafkas_resource_pattern_filter_test(f, b, want):
    assert matches(pattern(*f), pattern(*b)) is want


def test_the_entry_part_matches_any_or_equal_values():
    b = Acl(Rt.TOPIC, "t", LITERAL, "User:u", "h", Op.READ, Perm.DENY)
    assert matches(b._replace(principal=None, host=None, operation=Op.ANY, permission_type=Perm.ANY), b)
    for other in (b._replace(principal="User:v"), b._replace(host="*"), b._replace(operation=Op.WRITE),
                  b._replace(permission_type=Perm.ALLOW)):
        assert not matches(other, b)


def test_invalid_bindings_are_refused_alone_or_with_their_request():
    ok = pattern(Rt.TOPIC, "t", PREFIXED)
    assert refusal(ok) is None and unrepresentable(ok) is None
    assert refusal(ok._replace(resource_type=Rt.CLUSTER)) and not unrepresentable(ok._replace(resource_type=Rt.CLUSTER))
    assert refusal(pattern(Rt.CLUSTER, "kafka-cluster", LITERAL)) is None
    assert refusal(ok._replace(operation=99)) and refusal(ok._replace(name=""))
    for whole in (ok._replace(pattern_type=MATCH), ok._replace(pattern_type=ANY), ok._replace(resource_type=Rt.ANY),
                  ok._replace(operation=Op.ANY), ok._replace(permission_type=Perm.ANY)):
        assert unrepresentable(whole), whole


def test_the_model_holds_a_binding_once_and_deletes_what_a_filter_matches():
    m = AclModel()
    a, b = pattern(Rt.TOPIC, "Name", PREFIXED), pattern(Rt.TOPIC, "Name-x", LITERAL)
    assert m.create([a, a, b, a._replace(operation=99)]) == [Errors.NONE] * 3 + [Errors.INVALID_REQUEST]
    assert m.held == {a, b}
    # ANY and MATCH: refused alone, as validateNewAcl means (released Kafka fails the whole
    # request: the known deviation create-acls-any-or-match-binding-fails-the-whole-request)
    other = AclModel()
    assert other.create([b, a._replace(pattern_type=MATCH)]) == [Errors.NONE, Errors.INVALID_REQUEST]
    assert other.held == {b}
    assert m.delete(pattern(Rt.ANY, "Name-x-y", MATCH)._replace(operation=Op.ANY)) == {a}
    assert m.held == {b}
