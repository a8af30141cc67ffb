"""Generators for the ACL properties (catalogue L): bindings of one principal on a few
run-prefixed names that prefix one another, filters that reach some of them, and the
bindings CreateAcls refuses one by one.

Every binding and filter names the principal given (one the check made up, ``User:`` and
the run prefix), so a filter with "any" name or pattern type still reaches only the
check's own bindings, on a shared cluster too (``fixtures/scope.py``). Resource names start
with the run prefix; names are drawn from a short chain (``BASE``, ``BASE-a``,
``BASE-a-b``) so that PREFIXED bindings and MATCH filters meet. The wildcard ``*`` is not
drawn: it is not a name of the run.
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol import ApiKey, schema_facts
from protocol.requests import AclOperation, AclPatternType, AclPermission, AclResourceType
from reference.acl_rules import Acl
from reference.request_rules import ACL_USER_RESOURCE

#: the suffixes of a name chain: each one's name starts with the one before
CHAIN = ("", "-a", "-a-b", "-b")
#: resource types a binding of the run may name (CLUSTER's only name is kafka-cluster,
#: not a run name; USER from v3: "Version 3 adds user resource type", CreateAclsRequest.json)
RESOURCE_TYPES = (AclResourceType.TOPIC, AclResourceType.GROUP, AclResourceType.TRANSACTIONAL_ID,
                  AclResourceType.DELEGATION_TOKEN, AclResourceType.USER)
OPERATIONS = tuple(o for o in AclOperation if o not in (AclOperation.ANY, AclOperation.TWO_PHASE_COMMIT))
HOSTS = ("*", "192.0.2.7")
#: the placeholders every binding and filter is drawn on; the check puts one example's fresh
#: names in their place (conformance/acl_model.py ``named``)
BASE, PRINCIPAL = "@base", "@principal"
#: a code no enum has (each ``fromCode`` reads it as UNKNOWN; code 0 itself is refused with
#: the whole request by CreateAclsRequest.validate)
UNKNOWN_CODE = 99


def has_pattern_type(version: int) -> bool:
    """Whether the ACL APIs carry a pattern type at ``version`` (the same first version in
    CreateAcls, DescribeAcls and DeleteAcls)."""
    return schema_facts.has_field(ApiKey.CreateAcls, version, "creations.resource_pattern_type")


def resource_types(version: int) -> tuple[int, ...]:
    return tuple(t for t in RESOURCE_TYPES if t != AclResourceType.USER or ACL_USER_RESOURCE.holds_at(version))


def patterns(version: int) -> tuple[int, ...]:
    """Pattern types a binding can have at this version (v0 has no field: LITERAL)."""
    return (AclPatternType.LITERAL, AclPatternType.PREFIXED) if has_pattern_type(version) else (AclPatternType.LITERAL,)


def bindings(version: int, max_size: int = 5):
    """1..max_size distinct bindings of :data:`PRINCIPAL` on names of :data:`BASE`'s chain."""
    base, principal = BASE, PRINCIPAL
    one = st.builds(Acl, st.sampled_from(resource_types(version)), st.sampled_from([base + s for s in CHAIN]),
                    st.sampled_from(patterns(version)), st.just(principal), st.sampled_from(HOSTS),
                    st.sampled_from(OPERATIONS), st.sampled_from((AclPermission.ALLOW, AclPermission.DENY)))
    return st.lists(one, min_size=1, max_size=max_size, unique=True)


def filters(created: list[Acl], version: int):
    """A filter of :data:`PRINCIPAL` built around one of ``created``: each field that binding's
    value, another value, or "any"; the name its own, one of the chain, an extension of it
    or none. At v0 the pattern type is LITERAL (the field does not exist)."""
    base, principal = BASE, PRINCIPAL
    pattern_types = tuple(AclPatternType) if has_pattern_type(version) else (AclPatternType.LITERAL,)

    def around(b: Acl):
        return st.builds(
            Acl,
            st.sampled_from((b.resource_type, AclResourceType.ANY, *resource_types(version))),
            st.sampled_from((b.name, None, b.name + "-a", b.name + "-x", *(base + s for s in CHAIN))),
            st.sampled_from((b.pattern_type, *pattern_types)) if has_pattern_type(version)
            else st.just(AclPatternType.LITERAL),
            st.just(principal),
            st.sampled_from((b.host, None, *HOSTS)),
            st.sampled_from((b.operation, AclOperation.ANY, *OPERATIONS)),
            st.sampled_from((b.permission_type, AclPermission.ANY, AclPermission.ALLOW, AclPermission.DENY)))
    return st.sampled_from(created).flatmap(around)


#: invalid bindings, each made from a valid one: kind -> (the change, the lowest version that
#: can carry it). The first five CreateAcls refuses alone (AclApis.handleCreateAcls,
#: AclControlManager.validateNewAcl), the ANY and MATCH ones fail their whole request
#: (reference/acl_rules.py ``unrepresentable``)
INVALID = {
    "CLUSTER resource not named kafka-cluster": (lambda b: b._replace(resource_type=AclResourceType.CLUSTER), 0),
    "unknown resource type code": (lambda b: b._replace(resource_type=UNKNOWN_CODE), 0),
    "unknown pattern type code": (lambda b: b._replace(pattern_type=UNKNOWN_CODE), 1),
    "unknown operation code": (lambda b: b._replace(operation=UNKNOWN_CODE), 0),
    "unknown permission code": (lambda b: b._replace(permission_type=UNKNOWN_CODE), 0),
    "ANY resource type": (lambda b: b._replace(resource_type=AclResourceType.ANY), 0),
    "MATCH pattern type": (lambda b: b._replace(pattern_type=AclPatternType.MATCH), 1),
    "ANY pattern type": (lambda b: b._replace(pattern_type=AclPatternType.ANY), 1),
    "ANY operation": (lambda b: b._replace(operation=AclOperation.ANY), 0),
    "ANY permission": (lambda b: b._replace(permission_type=AclPermission.ANY), 0),
}


def ops(version: int, kinds, max_steps: int = 8):
    """A sequence of ``("create", [bindings])`` and ``("delete", filter)`` steps over one chain
    (a stateful run): creations mix in repeated bindings and refused ones of ``kinds``
    (keys of :data:`INVALID`), filters are built around bindings that may exist."""
    pool = bindings(version, max_size=3)
    refused = st.sampled_from(sorted(k for k in kinds if INVALID[k][1] <= version))

    def create(bs):
        return st.tuples(st.just("create"), st.one_of(st.just(bs), refused.map(lambda k, bs=bs: [INVALID[k][0](bs[0]), *bs])))

    def delete(bs):
        return st.tuples(st.just("delete"), filters(bs, version))
    step = pool.flatmap(lambda bs: st.one_of(create(bs), delete(bs)))
    return st.lists(step, min_size=2, max_size=max_steps)


__all__ = ["BASE", "PRINCIPAL", "CHAIN", "HOSTS", "INVALID", "OPERATIONS", "RESOURCE_TYPES", "UNKNOWN_CODE", "bindings", "filters",
           "has_pattern_type", "ops", "patterns", "resource_types"]
