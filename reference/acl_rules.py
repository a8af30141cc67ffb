"""Kafka's ACL rules: which binding a filter matches, and which binding CreateAcls refuses.

A *binding* is one ACL (``AclBinding``: a resource pattern and an access control entry), a
*filter* the same fields where "any" is allowed (``AclBindingFilter``). Both are plain
tuples of the wire's codes (``protocol.requests.AclResourceType``, ``AclPatternType``,
``AclOperation``, ``AclPermission``), so a property compares what a broker lists with
:func:`matches` applied to what it created.

Sources (apache/kafka):

* ``clients/src/main/java/org/apache/kafka/common/resource/ResourcePatternFilter.java``
  ``matches(ResourcePattern)``: resource type ANY or equal; pattern type ANY, MATCH or
  equal; a null name matches every name; with ANY or the pattern's own type the names must
  be equal; with MATCH a LITERAL pattern matches its own name and the wildcard ``*``, a
  PREFIXED pattern every name that starts with it;
* ``clients/src/main/java/org/apache/kafka/common/acl/AccessControlEntryFilter.java``
  ``matches(AccessControlEntry)``: a null principal or host matches every one, operation and
  permission ANY match every one, otherwise each must be equal;
* ``metadata/src/main/java/org/apache/kafka/controller/AclControlManager.java``
  ``deleteAclsForFilter`` (a DeleteAcls filter removes and returns every binding it
  matches), ``createAcls`` (a binding already held is not added twice, and answers NONE)
  and ``validateNewAcl`` (refused one by one with INVALID_REQUEST: an UNKNOWN or ANY
  resource type, a pattern type other than LITERAL or PREFIXED, an UNKNOWN or ANY
  operation, a permission other than ALLOW or DENY, an empty name);
* ``core/src/main/scala/kafka/server/AclApis.scala`` ``handleCreateAcls``: a CLUSTER
  resource not named ``kafka-cluster`` is refused one by one (INVALID_REQUEST), as is an
  empty name. A binding with an ANY resource type, an ANY or MATCH pattern type, an ANY
  operation or an ANY permission is refused one by one too, with INVALID_REQUEST: that is
  what ``validateNewAcl`` says of each (its ANY and MATCH branches), and what the
  expectation follows. Released Kafka never reaches those branches: ``handleCreateAcls``
  first turns every creation into an ``AclBinding`` (``CreateAclsRequest.aclBinding``),
  ``ResourcePattern``'s and ``AccessControlEntry``'s constructors throw
  IllegalArgumentException for those values, and the error path answers
  ``CreateAclsRequest.getErrorResponse``: UNKNOWN_SERVER_ERROR for every creation, nothing
  created. That is a Kafka bug, the known deviation
  ``create-acls-any-or-match-binding-fails-the-whole-request`` (:func:`unrepresentable`
  names such a binding);
* ``metadata/src/main/java/org/apache/kafka/metadata/authorizer/StandardAuthorizerData.java``
  ``acls(AclBindingFilter)``: DescribeAcls lists every binding the filter matches.
"""
from __future__ import annotations

from typing import NamedTuple

from protocol.requests import AclOperation, AclPatternType, AclPermission, AclResourceType

#: ResourcePattern.WILDCARD_RESOURCE: a LITERAL binding on every resource of its type
WILDCARD = "*"
#: Resource.CLUSTER_NAME: the only name a CLUSTER binding may have
CLUSTER_NAME = "kafka-cluster"
#: the codes a binding may carry (validateNewAcl); any other is refused
CREATABLE_PATTERNS = (AclPatternType.LITERAL, AclPatternType.PREFIXED)
CREATABLE_PERMISSIONS = (AclPermission.ALLOW, AclPermission.DENY)


class Acl(NamedTuple):
    """A binding, or a filter (``name``, ``principal``, ``host`` None: any), in wire codes."""
    resource_type: int
    name: str | None
    pattern_type: int
    principal: str | None
    host: str | None
    operation: int
    permission_type: int


def pattern_matches(f: Acl, b: Acl) -> bool:
    """ResourcePatternFilter.matches: does the filter's pattern part match the binding's?"""
    if f.resource_type != AclResourceType.ANY and f.resource_type != b.resource_type:
        return False
    if f.pattern_type not in (AclPatternType.ANY, AclPatternType.MATCH) and f.pattern_type != b.pattern_type:
        return False
    if f.name is None:
        return True
    if f.pattern_type in (AclPatternType.ANY, b.pattern_type):
        return f.name == b.name
    if b.pattern_type == AclPatternType.LITERAL:        # the filter is MATCH
        return f.name == b.name or b.name == WILDCARD
    return f.name.startswith(b.name)                    # MATCH against a PREFIXED binding


def entry_matches(f: Acl, b: Acl) -> bool:
    """AccessControlEntryFilter.matches: does the filter's entry part match the binding's?"""
    return ((f.principal is None or f.principal == b.principal)
            and (f.host is None or f.host == b.host)
            and (f.operation == AclOperation.ANY or f.operation == b.operation)
            and (f.permission_type == AclPermission.ANY or f.permission_type == b.permission_type))


def matches(f: Acl, b: Acl) -> bool:
    """AclBindingFilter.matches: both parts match."""
    return pattern_matches(f, b) and entry_matches(f, b)


def matching(f: Acl, bindings) -> set[Acl]:
    """The bindings a DescribeAcls or DeleteAcls filter reaches (StandardAuthorizerData.acls,
    AclControlManager.deleteAclsForFilter)."""
    return {b for b in bindings if matches(f, b)}


def unrepresentable(b: Acl) -> str | None:
    """Why released Kafka cannot make the creation an AclBinding at all, or None
    (``ResourcePattern`` and ``AccessControlEntry`` constructors, via
    ``CreateAclsRequest.aclBinding`` in ``AclApis.handleCreateAcls``): such a binding is
    refused alone, INVALID_REQUEST (:func:`refusal`: ``validateNewAcl``), where released
    Kafka fails the whole request with UNKNOWN_SERVER_ERROR for each creation (the known
    deviation ``create-acls-any-or-match-binding-fails-the-whole-request``)."""
    if b.resource_type == AclResourceType.ANY:
        return "resourceType must not be ANY"
    if b.pattern_type in (AclPatternType.ANY, AclPatternType.MATCH):
        return f"patternType must not be {AclPatternType(b.pattern_type).name}"
    if b.operation == AclOperation.ANY:
        return "operation must not be ANY"
    if b.permission_type == AclPermission.ANY:
        return "permissionType must not be ANY"
    return None


def refusal(b: Acl) -> str | None:
    """Why CreateAcls refuses the binding on its own (INVALID_REQUEST), or None when it
    creates it (AclApis.handleCreateAcls, AclControlManager.validateNewAcl), an
    :func:`unrepresentable` binding included."""
    if b.resource_type == AclResourceType.CLUSTER and b.name != CLUSTER_NAME:
        return f"the only valid name for the CLUSTER resource is {CLUSTER_NAME}"
    if not b.name:
        return "empty resource name"
    if b.resource_type not in set(AclResourceType) - {AclResourceType.ANY}:
        return f"invalid resource type {b.resource_type}"
    if b.pattern_type not in CREATABLE_PATTERNS:
        return f"invalid pattern type {b.pattern_type}"
    if b.operation not in set(AclOperation) - {AclOperation.ANY}:
        return f"invalid operation {b.operation}"
    if b.permission_type not in CREATABLE_PERMISSIONS:
        return f"invalid permission type {b.permission_type}"
    return None


__all__ = ["CLUSTER_NAME", "CREATABLE_PATTERNS", "CREATABLE_PERMISSIONS", "WILDCARD", "Acl",
           "entry_matches", "matches", "matching", "pattern_matches", "refusal", "unrepresentable"]
