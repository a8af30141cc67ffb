"""The ACL APIs (DescribeAcls, CreateAcls, DeleteAcls, KIP-140): their declarations, Kafka's
ACL enums, request builders, Kafka's error codes and the safe values of generated requests.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker answers DescribeAcls itself (``AclApis``); it
forwards CreateAcls and DeleteAcls to the controller (``ControllerApis`` ->
``AclControlManager``), whose forwarding adds a timeout.
"""
from __future__ import annotations

from enum import IntEnum
from typing import Iterable, Sequence

from ..building import builds
from ..declaring import ADMIN, ApiKey, ApiSpec, Choice, Entity, Family, Maybe, OneOf, Safe
from ..errors import Errors
from ..kafka_sources import (ACL_CONTROL, CONTROLLER_APIS, EVENT_EXCEPTION_INFO, FORWARDED_SECURITY, HANDLE_ERROR,
                             message_source, src)

_FILTER = {"resource_name_filter": Entity.ACL_RESOURCE, "principal_filter": Entity.PRINCIPAL}

DECLARATIONS = (
    ApiSpec(ApiKey.DescribeAcls, ADMIN, names=_FILTER, identity={
        "resources": ("resource_type", "resource_name", "pattern_type"),
        "resources.acls": ("principal", "host", "operation", "permission_type")}),
    ApiSpec(ApiKey.CreateAcls, ADMIN, "results[#]", "creations[#]", mutates="creates ACLs",
            names={"creations.resource_name": Entity.ACL_RESOURCE, "creations.principal": Entity.PRINCIPAL},
            ordered={"results": "a result per creation, matched to the request's creations by position: they carry "
                                "no binding (CreateAclsResponse.json; KafkaAdminClient.createAcls reads them in "
                                "request order)"}),
    ApiSpec(ApiKey.DeleteAcls, ADMIN, "filter_results[#]", "filters[#]", mutates="deletes ACLs",
            names={f"filters.{k}": v for k, v in _FILTER.items()},
            ordered={"filter_results": "a result per filter, matched to the request's filters by position: they "
                                       "carry no filter (DeleteAclsResponse.json; KafkaAdminClient.deleteAcls reads "
                                       "them in request order)"},
            identity={"filter_results.matching_acls": ("resource_type", "resource_name", "pattern_type",
                                                       "principal", "host", "operation", "permission_type")}),
)

class AclResourceType(IntEnum):
    """apache/kafka clients/src/main/java/org/apache/kafka/common/resource/ResourceType.java"""
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7             #: from CreateAcls/DescribeAcls/DeleteAcls v3 ("Version 3 adds user resource type")

class AclPatternType(IntEnum):
    """apache/kafka clients/src/main/java/org/apache/kafka/common/resource/PatternType.java"""
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4

class AclOperation(IntEnum):
    """apache/kafka clients/src/main/java/org/apache/kafka/common/acl/AclOperation.java"""
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14
    TWO_PHASE_COMMIT = 15

class AclPermission(IntEnum):
    """apache/kafka clients/src/main/java/org/apache/kafka/common/acl/AclPermissionType.java"""
    ANY = 1
    DENY = 2
    ALLOW = 3

#: the fields of an ACL, in the order of the ACL tuples the suite builds (reference/acl_rules.py
#: ``Acl``), as a CreateAcls creation names them and as a DescribeAcls / DeleteAcls filter does
#: (CreateAclsRequest.json, DescribeAclsRequest.json, DeleteAclsRequest.json; the pattern
#: type from v1)
ACL_CREATION_FIELDS = ("resource_type", "resource_name", "resource_pattern_type", "principal", "host",
                       "operation", "permission_type")
ACL_FILTER_FIELDS = ("resource_type_filter", "resource_name_filter", "pattern_type_filter", "principal_filter",
                     "host_filter", "operation", "permission_type")

# -- request builders ------------------------------------------------------------------------

@builds(ApiKey.CreateAcls, ApiKey.DescribeAcls, ApiKey.DeleteAcls)
def acl_entry(v: int, acl: Sequence, *, filter_: bool) -> dict:
    """One ACL ``(resource_type, name, pattern_type, principal, host, operation, permission)``
    as a creation or as a filter at version ``v``; v0 has no pattern type (LITERAL)."""
    fields = ACL_FILTER_FIELDS if filter_ else ACL_CREATION_FIELDS
    return {k: x for i, (k, x) in enumerate(zip(fields, acl)) if i != 2 or v >= 1}


def _acl(v: int, principal: str, topic: str, operation: int, *, filter_: bool) -> dict:
    """One topic ACL (LITERAL, any host, ALLOW) as a creation or as a filter (v1+ carry the
    pattern type; CreateAclsRequest.json / DeleteAclsRequest.json)."""
    return acl_entry(v, (AclResourceType.TOPIC, topic, AclPatternType.LITERAL, principal, "*", operation,
                         AclPermission.ALLOW), filter_=filter_)


@builds(ApiKey.CreateAcls)
def create_acls(v: int, principal: str, grants: Iterable[tuple[str, int]]) -> dict:
    """Allow ``principal`` each ``(topic, AclOperation)`` of ``grants`` (literal topic names)."""
    return {"creations": [_acl(v, principal, t, op, filter_=False) for t, op in grants]}


@builds(ApiKey.DeleteAcls)
def delete_acls(v: int, principal: str, grants: Iterable[tuple[str, int]]) -> dict:
    """Remove exactly the ACLs :func:`create_acls` made for ``grants`` (one filter each)."""
    return {"filters": [_acl(v, principal, t, op, filter_=True) for t, op in grants]}


@builds(ApiKey.DescribeAcls)
def describe_acls(v: int, principal: str, topic: str | None = None) -> dict:
    """Every topic ACL of ``principal`` (on ``topic`` only, when given)."""
    body = {"resource_type_filter": AclResourceType.TOPIC, "resource_name_filter": topic,
            "principal_filter": principal, "host_filter": None, "operation": AclOperation.ANY,
            "permission_type": AclPermission.ANY}
    if v >= 1:
        body["pattern_type_filter"] = AclPatternType.LITERAL if topic else AclPatternType.ANY
    return body


@builds(ApiKey.CreateAcls)
def create_acl_bindings(v: int, bindings: Iterable[Sequence]) -> dict:
    """CreateAcls of ``bindings`` (ACL tuples, :func:`acl_entry`)."""
    return {"creations": [acl_entry(v, b, filter_=False) for b in bindings]}


@builds(ApiKey.DeleteAcls)
def delete_acl_filters(v: int, filters: Iterable[Sequence]) -> dict:
    """DeleteAcls of ``filters`` (ACL tuples with None for "any" name, principal, host)."""
    return {"filters": [acl_entry(v, f, filter_=True) for f in filters]}


@builds(ApiKey.DescribeAcls)
def describe_acl_filter(v: int, acl_filter: Sequence) -> dict:
    """DescribeAcls of one filter (an ACL tuple, :func:`acl_entry`)."""
    return acl_entry(v, acl_filter, filter_=True)


@builds(ApiKey.DescribeAcls)
def describe_all_acls(v: int) -> dict:
    """Every ACL (DescribeAcls with every filter field "any")."""
    body = {"resource_type_filter": AclResourceType.ANY, "resource_name_filter": None, "principal_filter": None,
            "host_filter": None, "operation": AclOperation.ANY, "permission_type": AclPermission.ANY}
    if v >= 1:
        body["pattern_type_filter"] = AclPatternType.ANY
    return body


@builds(ApiKey.DeleteAcls)
def delete_exact_acls(v: int, bindings: Iterable[dict]) -> dict:
    """Remove exactly the ACLs ``bindings`` (entries of a DescribeAcls answer, flattened:
    ``resource_type``, ``resource_name``, ``pattern_type``, ``principal``, ``host``,
    ``operation``, ``permission_type``), one filter each."""
    def one(b):
        f = {"resource_type_filter": b["resource_type"], "resource_name_filter": b["resource_name"],
             "principal_filter": b["principal"], "host_filter": b["host"], "operation": b["operation"],
             "permission_type": b["permission_type"]}
        if v >= 1:
            f["pattern_type_filter"] = b.get("pattern_type", AclPatternType.LITERAL)
        return f
    return {"filters": [one(b) for b in bindings]}


# -- error codes -----------------------------------------------------------------------------

ACL_APIS = "core/src/main/scala/kafka/server/AclApis.scala"
_NO_AUTHORIZER = src(ACL_APIS, 'authorizerPlugin None -> SecurityDisabledException("No Authorizer is configured.")')

ANY_VERSION = {
    ApiKey.DescribeAcls: {
        Errors.NONE: src(ACL_APIS, "handleDescribeAcls: authorizer.acls(filter) -> DescribeAclsResponse"),
        Errors.SECURITY_DISABLED: _NO_AUTHORIZER,
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(ACL_APIS, "handleDescribeAcls: authorizeClusterOperation(DESCRIBE)"),
        Errors.INVALID_REQUEST: src("clients/src/main/java/org/apache/kafka/common/requests/DescribeAclsRequest.java",
                                     "getErrorResponse(ApiError.fromThrowable(e)) for a filter Kafka cannot use"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.CreateAcls: {
        Errors.NONE: src(ACL_CONTROL, "createAcls: validateNewAcl, ApiError.NONE"),
        Errors.SECURITY_DISABLED: _NO_AUTHORIZER + "; " + src(CONTROLLER_APIS, "handleCreateAcls: authorizer None"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, "handleCreateAcls: authorizeClusterOperation(ALTER)"),
        Errors.INVALID_REQUEST: src(ACL_APIS, '"The only valid name for the CLUSTER resource is kafka-cluster" / '
                                               '"Invalid empty resource name"')
            + "; " + src(ACL_CONTROL, 'validateNewAcl: "Invalid resourceType / patternType / operation / '
                                       'permissionType", "Resource name should not be empty"'),
        **FORWARDED_SECURITY,
    },
    ApiKey.DeleteAcls: {
        Errors.NONE: src(ACL_CONTROL, "deleteAcls: one result per filter, the ACLs it matched"),
        Errors.SECURITY_DISABLED: _NO_AUTHORIZER,
        Errors.CLUSTER_AUTHORIZATION_FAILED: src(CONTROLLER_APIS, "handleDeleteAcls: authorizeClusterOperation(ALTER)"),
        Errors.INVALID_REQUEST: src(ACL_CONTROL, 'deleteAcls validateFilter: "Unknown patternFilter." / '
                                                  '"Unknown entryFilter."'),
        Errors.POLICY_VIOLATION: src(ACL_CONTROL, "deleteAcls: BoundedListTooLongException (more than "
                                                   "MAX_RECORDS_PER_USER_OP ACLs) -> POLICY_VIOLATION")
            + "; " + src(EVENT_EXCEPTION_INFO, "BoundedListTooLongException -> PolicyViolationException"),
        **FORWARDED_SECURITY,
    },
}

#: api -> (null on success, note): what Kafka puts in error_message. None of these schemas
#: gives ErrorMessage ``"default": "null"``, so a success Kafka answers without setting one
#: carries Kafka's generated default, "" (MessageDataGenerator.fieldDefault): null or "" pass.
ERROR_MESSAGE_KAFKA = {
    ApiKey.DescribeAcls: (False, message_source("DescribeAcls", where="top-level", note=src(ACL_APIS, "success: no message (null)"))),
    ApiKey.CreateAcls: (False, message_source("CreateAcls", where="per creation", note=src(ACL_APIS, "ApiError.NONE.message() null"))),
    ApiKey.DeleteAcls: (False, message_source("DeleteAcls", where="per filter and per matching ACL", note=src(ACL_APIS, "ApiError.NONE.message() null"))),
}

# -- safe values -----------------------------------------------------------------------------

# Kafka refuses to parse an ACL request naming an UNKNOWN (0) or undefined resource type,
# pattern type, operation or permission (DescribeAclsRequest / CreateAclsRequest /
# DeleteAclsRequest validate: IllegalArgumentException, the connection is closed): a valid
# request draws Kafka's defined codes only.
def _resource_types(names, v):
    # USER resources only from v3 (CreateAclsRequest.json "Version 3 adds user resource type")
    return Choice(tuple(int(t) for t in AclResourceType if t != AclResourceType.USER or v >= 3))


_OPERATIONS = Choice(tuple(int(o) for o in AclOperation))
_PATTERNS = Choice(tuple(int(p) for p in AclPatternType))
_PERMISSIONS = Choice(tuple(int(p) for p in AclPermission))


def _run_resource(names, v):
    return Maybe(OneOf((names.topics, names.groups)))


SAFE = {
    ApiKey.DescribeAcls: {
        "resource_type_filter": Safe(_resource_types, "ResourceType codes (0: UNKNOWN)"),
        "pattern_type_filter": Safe(_PATTERNS, "PatternType codes"),
        "operation": Safe(_OPERATIONS, "AclOperation codes"),
        "permission_type": Safe(_PERMISSIONS, "AclPermissionType codes"),
        "host_filter": Safe(Choice((None, "*", "127.0.0.1")), "any, every host, loopback"),
        "principal_filter": Safe(lambda n, v: Maybe(n.principals), "any or a run principal"),
        "resource_name_filter": Safe(_run_resource, "any or a run resource"),
    },
    ApiKey.CreateAcls: {
        "creations.resource_type": Safe(_resource_types, "ResourceType codes"),
        "creations.resource_pattern_type": Safe(Choice((3, 3, 4, 1, 2)),
                                                "LITERAL, PREFIXED; ANY and MATCH are refused per creation"),
        "creations.host": Safe(Choice(("*", "127.0.0.1")), "every host, loopback"),
        "creations.operation": Safe(_OPERATIONS, "AclOperation codes"),
        "creations.permission_type": Safe(Choice((2, 3, 3, 1)), "DENY, ALLOW; ANY is refused per creation"),
    },
    ApiKey.DeleteAcls: {
        "filters.resource_type_filter": Safe(_resource_types, "ResourceType codes"),
        "filters.pattern_type_filter": Safe(_PATTERNS, "PatternType codes"),
        "filters.operation": Safe(_OPERATIONS, "AclOperation codes"),
        "filters.permission_type": Safe(_PERMISSIONS, "AclPermissionType codes"),
        "filters.host_filter": Safe(Choice((None, "*")), "any host, every host"),
        "filters.resource_name_filter": Safe(_run_resource, "any or a run resource (the principal is always the "
                                                            "run's)"),
    },
}

FAMILY = Family("ACLs", __name__, DECLARATIONS, codes=ANY_VERSION, messages=ERROR_MESSAGE_KAFKA, safe=SAFE)
