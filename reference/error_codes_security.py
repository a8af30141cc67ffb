"""Error codes of the security admin APIs (ACLs, client quotas, SCRAM credentials, delegation
tokens) in released Apache Kafka (4.x, KRaft): rows of ``reference/error_codes.py``'s tables
(``ANY_VERSION``, ``RULES``, ``ERROR_MESSAGE``), which merges them; read there, never here.

Each row names the place in apache/kafka it was read from. The broker answers DescribeAcls,
DescribeClientQuotas, DescribeUserScramCredentials and the delegation-token APIs itself
(``KafkaApis``, ``AclApis``); it forwards CreateAcls, DeleteAcls, AlterClientQuotas and
AlterUserScramCredentials to the controller (``ControllerApis`` -> ``AclControlManager``,
``ClientQuotaControlManager``, ``ScramControlManager``), whose forwarding adds a timeout.
"""
from __future__ import annotations

from protocol import ApiKey, Errors

from .error_codes import (CONTROLLER_APIS, EVENT_EXCEPTION_INFO, FORWARD_TIMEOUT, HANDLE_ERROR, KAFKA_APIS, MSG,
                          NOT_CONTROLLER_RETRIED, _src, ErrorRule)

ACL_APIS = "core/src/main/scala/kafka/server/AclApis.scala"
ACL_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/AclControlManager.java"
AUTHORIZER = "metadata/src/main/java/org/apache/kafka/metadata/authorizer/StandardAuthorizer.java"
QUOTA_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java"
QUOTA_CACHE = "core/src/main/scala/kafka/server/metadata/ClientQuotaMetadataManager.scala"
SCRAM_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/ScramControlManager.java"
SCRAM_DESCRIBE = "core/src/main/scala/kafka/server/metadata/ScramPublisher.scala"
TOKEN_MANAGER = "core/src/main/scala/kafka/server/DelegationTokenManager.scala"
TOKEN_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/DelegationTokenControlManager.java"

_CLUSTER_ALTER = _src(CONTROLLER_APIS, "authHelper.authorizeClusterOperation(request, ALTER) -> CLUSTER_AUTHORIZATION_FAILED")
_NO_AUTHORIZER = _src(ACL_APIS, 'authorizerPlugin None -> SecurityDisabledException("No Authorizer is configured.")')
_TOKEN_PLAINTEXT = _src(KAFKA_APIS, "handle*TokenRequest: a PLAINTEXT connection or a token-authenticated one -> "
                                    "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED")
_TOKEN_DISABLED = _src(TOKEN_MANAGER, "no delegation.token.secret.key -> DELEGATION_TOKEN_AUTH_DISABLED") + "; " \
    + _src(TOKEN_CONTROL, "tokenAuthenticationEnabled false -> DELEGATION_TOKEN_AUTH_DISABLED")

_FORWARDED = {Errors.REQUEST_TIMED_OUT: FORWARD_TIMEOUT, Errors.NOT_CONTROLLER: NOT_CONTROLLER_RETRIED,
              Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR + "; " + _src(ACL_CONTROL, '"Unknown error while trying to create ACL"')}

ANY_VERSION: dict[int, dict[int, str]] = {
    ApiKey.DescribeAcls: {
        Errors.NONE: _src(ACL_APIS, "handleDescribeAcls: authorizer.acls(filter) -> DescribeAclsResponse"),
        Errors.SECURITY_DISABLED: _NO_AUTHORIZER,
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(ACL_APIS, "handleDescribeAcls: authorizeClusterOperation(DESCRIBE)"),
        Errors.INVALID_REQUEST: _src("clients/src/main/java/org/apache/kafka/common/requests/DescribeAclsRequest.java",
                                     "getErrorResponse(ApiError.fromThrowable(e)) for a filter Kafka cannot use"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.CreateAcls: {
        Errors.NONE: _src(ACL_CONTROL, "createAcls: validateNewAcl, ApiError.NONE"),
        Errors.SECURITY_DISABLED: _NO_AUTHORIZER + "; " + _src(CONTROLLER_APIS, "handleCreateAcls: authorizer None"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, "handleCreateAcls: authorizeClusterOperation(ALTER)"),
        Errors.INVALID_REQUEST: _src(ACL_APIS, '"The only valid name for the CLUSTER resource is kafka-cluster" / '
                                               '"Invalid empty resource name"')
            + "; " + _src(ACL_CONTROL, 'validateNewAcl: "Invalid resourceType / patternType / operation / '
                                       'permissionType", "Resource name should not be empty"'),
        **_FORWARDED,
    },
    ApiKey.DeleteAcls: {
        Errors.NONE: _src(ACL_CONTROL, "deleteAcls: one result per filter, the ACLs it matched"),
        Errors.SECURITY_DISABLED: _NO_AUTHORIZER,
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, "handleDeleteAcls: authorizeClusterOperation(ALTER)"),
        Errors.INVALID_REQUEST: _src(ACL_CONTROL, 'deleteAcls validateFilter: "Unknown patternFilter." / '
                                                  '"Unknown entryFilter."'),
        Errors.POLICY_VIOLATION: _src(ACL_CONTROL, "deleteAcls: BoundedListTooLongException (more than "
                                                   "MAX_RECORDS_PER_USER_OP ACLs) -> POLICY_VIOLATION")
            + "; " + _src(EVENT_EXCEPTION_INFO, "BoundedListTooLongException -> PolicyViolationException"),
        **_FORWARDED,
    },
    ApiKey.DescribeClientQuotas: {
        Errors.NONE: _src(QUOTA_CACHE, "describeClientQuotas: the matching entities and their values"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "handleDescribeClientQuotasRequest: "
                                                              "authorizeClusterOperation(DESCRIBE_CONFIGS)"),
        Errors.INVALID_REQUEST: _src(QUOTA_CACHE, 'describeClientQuotas: "Duplicate entity type in filter" / '
                                                  '"Invalid empty ip address" / unknown match type -> InvalidRequestException'),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.AlterClientQuotas: {
        Errors.NONE: _src(QUOTA_CONTROL, "alterClientQuotas: ApiError.NONE per entity"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(CONTROLLER_APIS, "handleAlterClientQuotas: "
                                                                   "authorizeClusterOperation(ALTER_CONFIGS)"),
        Errors.INVALID_REQUEST: _src(QUOTA_CONTROL, "alterClientQuota / validateEntity / validateQuotaKeyValue: "
                                                    "unknown entity type, unknown key, invalid value, ip name -> INVALID_REQUEST"),
        **_FORWARDED,
    },
    ApiKey.DescribeUserScramCredentials: {
        Errors.NONE: _src(SCRAM_DESCRIBE, "describeScramCredentials"),
        Errors.RESOURCE_NOT_FOUND: _src(SCRAM_DESCRIBE, 'describeScramCredentials: "Attempt to describe a user '
                                                        'credential that does not exist" -> RESOURCE_NOT_FOUND'),
        Errors.DUPLICATE_RESOURCE: _src(SCRAM_DESCRIBE, 'describeScramCredentials: a user named twice -> '
                                                        'DUPLICATE_RESOURCE "Cannot describe SCRAM credentials for the same user twice"'),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "handleDescribeUserScramCredentialsRequest: "
                                                              "authorizeClusterOperation(DESCRIBE)"),
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
    ApiKey.AlterUserScramCredentials: {
        Errors.NONE: _src(SCRAM_CONTROL, "alterCredentials: ApiError.NONE per user"),
        Errors.CLUSTER_AUTHORIZATION_FAILED: _CLUSTER_ALTER,
        Errors.UNSUPPORTED_SASL_MECHANISM: _src(SCRAM_CONTROL, "validateDeletion / validateUpsertion: unknown mechanism "
                                                               "-> UNSUPPORTED_SASL_MECHANISM"),
        Errors.UNACCEPTABLE_CREDENTIAL: _src(SCRAM_CONTROL, "validateUpsertion: empty user name, iterations below the "
                                                            "mechanism's minimum or above 16384, empty salt or password"),
        Errors.DUPLICATE_RESOURCE: _src(SCRAM_CONTROL, "alterCredentials: a user in deletions and upsertions both -> "
                                                       "DUPLICATE_RESOURCE"),
        Errors.RESOURCE_NOT_FOUND: _src(SCRAM_CONTROL, "validateDeletion: no such credential -> RESOURCE_NOT_FOUND"),
        Errors.UNSUPPORTED_VERSION: _src(SCRAM_CONTROL, "a metadata.version without SCRAM -> UNSUPPORTED_VERSION"),
        **_FORWARDED,
    },
    ApiKey.CreateDelegationToken: {
        Errors.NONE: _src(TOKEN_CONTROL, "createDelegationToken"),
        Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: _TOKEN_PLAINTEXT,
        Errors.DELEGATION_TOKEN_AUTH_DISABLED: _TOKEN_DISABLED,
        Errors.DELEGATION_TOKEN_AUTHORIZATION_FAILED: _src(KAFKA_APIS, "handleCreateTokenRequest: an owner other than "
                                                                       "the requester without CREATE_TOKENS on USER"),
        Errors.INVALID_PRINCIPAL_TYPE: _src(KAFKA_APIS, "handleCreateTokenRequest: a renewer or owner not of type User")
            + "; " + _src(TOKEN_CONTROL, "createDelegationToken -> INVALID_PRINCIPAL_TYPE"),
        Errors.UNSUPPORTED_VERSION: _src(TOKEN_CONTROL, "a metadata.version without delegation tokens"),
        Errors.INVALID_REQUEST: _src(CONTROLLER_APIS, "handleCreateDelegationTokenRequest: owner_principal_type "
                                                      "without a name (or the reverse)"),
        **_FORWARDED,
    },
    ApiKey.RenewDelegationToken: {
        Errors.NONE: _src(TOKEN_CONTROL, "renewDelegationToken"),
        Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: _TOKEN_PLAINTEXT,
        Errors.DELEGATION_TOKEN_AUTH_DISABLED: _TOKEN_DISABLED,
        Errors.DELEGATION_TOKEN_NOT_FOUND: _src(TOKEN_CONTROL, "renewDelegationToken: no token with that HMAC"),
        Errors.DELEGATION_TOKEN_OWNER_MISMATCH: _src(TOKEN_CONTROL, "renewDelegationToken: the requester neither owns "
                                                                    "nor may renew it"),
        Errors.DELEGATION_TOKEN_EXPIRED: _src(TOKEN_CONTROL, "renewDelegationToken: the token expired"),
        Errors.UNSUPPORTED_VERSION: _src(TOKEN_CONTROL, "a metadata.version without delegation tokens"),
        **_FORWARDED,
    },
    ApiKey.ExpireDelegationToken: {
        Errors.NONE: _src(TOKEN_CONTROL, "expireDelegationToken"),
        Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: _TOKEN_PLAINTEXT,
        Errors.DELEGATION_TOKEN_AUTH_DISABLED: _TOKEN_DISABLED,
        Errors.DELEGATION_TOKEN_NOT_FOUND: _src(TOKEN_CONTROL, "expireDelegationToken: no token with that HMAC"),
        Errors.DELEGATION_TOKEN_OWNER_MISMATCH: _src(TOKEN_CONTROL, "expireDelegationToken: the requester neither owns "
                                                                    "nor may renew it"),
        Errors.DELEGATION_TOKEN_EXPIRED: _src(TOKEN_CONTROL, "expireDelegationToken: the token expired"),
        Errors.UNSUPPORTED_VERSION: _src(TOKEN_CONTROL, "a metadata.version without delegation tokens"),
        **_FORWARDED,
    },
    ApiKey.DescribeDelegationToken: {
        Errors.NONE: _src(KAFKA_APIS, "handleDescribeTokensRequest: the tokens the requester may describe"),
        Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: _TOKEN_PLAINTEXT,
        Errors.DELEGATION_TOKEN_AUTH_DISABLED: _TOKEN_DISABLED,
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
}

#: Version-gated codes of these APIs (none: every code above is answered at every version;
#: USER resources from ACL v3 are refused when the request is parsed, not answered).
RULES: list[ErrorRule] = []

_MESSAGE = "error_message"


def _message(api: str, where: str, note: str) -> str:
    return _src(MSG + f"{api}Response.json", f"{where} ErrorMessage") + "; " + note


#: api -> (null on success, note): what Kafka puts in error_message. None of these schemas
#: gives ErrorMessage ``"default": "null"``, so a success Kafka answers without setting one
#: carries Kafka's generated default, "" (MessageDataGenerator.fieldDefault): null or "" pass.
ERROR_MESSAGE_KAFKA: dict[int, tuple[bool, str]] = {
    ApiKey.DescribeAcls: (False, _message("DescribeAcls", "top-level", _src(ACL_APIS, "success: no message (null)"))),
    ApiKey.CreateAcls: (False, _message("CreateAcls", "per creation", _src(ACL_APIS, "ApiError.NONE.message() null"))),
    ApiKey.DeleteAcls: (False, _message("DeleteAcls", "per filter and per matching ACL",
                                       _src(ACL_APIS, "ApiError.NONE.message() null"))),
    ApiKey.DescribeClientQuotas: (False, _message("DescribeClientQuotas", "top-level",
                                                 _src(KAFKA_APIS, "success: setErrorMessage not called"))),
    ApiKey.AlterClientQuotas: (False, _message("AlterClientQuotas", "per entity",
                                              _src(QUOTA_CONTROL, "ApiError.NONE.message() null"))),
    ApiKey.DescribeUserScramCredentials: (False, _message("DescribeUserScramCredentials", "top-level and per user",
                                                         _src(SCRAM_DESCRIBE, "success: no message"))),
    ApiKey.AlterUserScramCredentials: (False, _message("AlterUserScramCredentials", "per user",
                                                      _src(SCRAM_CONTROL, "ApiError.NONE.message() null"))),
}

__all__ = ["ANY_VERSION", "ERROR_MESSAGE_KAFKA", "RULES"]
