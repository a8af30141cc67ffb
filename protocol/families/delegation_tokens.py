"""The delegation token APIs (CreateDelegationToken, RenewDelegationToken,
ExpireDelegationToken, DescribeDelegationToken; KIP-48, KIP-373): their declarations,
request builders, Kafka's error codes and the safe values of generated requests.

Error codes as released Apache Kafka (4.x, KRaft) answers them, each row with the place in
apache/kafka it was read from. The broker answers DescribeDelegationToken itself
(``KafkaApis``, ``DelegationTokenManager``) and forwards the others to the controller
(``ControllerApis`` -> ``DelegationTokenControlManager``), whose forwarding adds a timeout.
"""
from __future__ import annotations

from typing import Iterable

from ..building import builds
from ..declaring import ADMIN, ApiKey, ApiSpec, Choice, Entity, Family, Safe, from_kafka_clients
from ..kafka_sources import CONTROLLER_APIS, FORWARDED_SECURITY, HANDLE_ERROR, KAFKA_APIS, src
from ..errors import Errors

DECLARATIONS = (
    ApiSpec(ApiKey.CreateDelegationToken, ADMIN, mutates="creates delegation tokens",
            names={"owner_principal_name": Entity.USER, "renewers.principal_name": Entity.USER},
            schemas=from_kafka_clients("CreateDelegationToken")),
    ApiSpec(ApiKey.RenewDelegationToken, ADMIN, mutates="renews delegation tokens",
            schemas=from_kafka_clients("RenewDelegationToken")),
    ApiSpec(ApiKey.ExpireDelegationToken, ADMIN, mutates="expires delegation tokens",
            schemas=from_kafka_clients("ExpireDelegationToken")),
    ApiSpec(ApiKey.DescribeDelegationToken, ADMIN, names={"owners.principal_name": Entity.USER},
            schemas=from_kafka_clients("DescribeDelegationToken"),
            identity={"tokens": ("token_id",), "tokens.renewers": ("principal_type", "principal_name")}),
)


# -- request builders ------------------------------------------------------------------------

@builds(ApiKey.CreateDelegationToken)
def create_delegation_token(v: int, renewers: Iterable[tuple[str, str]] = (), max_lifetime_ms: int = -1,
                            owner: tuple[str, str] | None = None) -> dict:
    """A token for ``owner`` (``(principal type, name)``, from v3; None: the requester) that
    ``renewers`` (``(type, name)`` each) may renew; ``max_lifetime_ms`` -1: the broker's
    default (CreateDelegationTokenRequest.json)."""
    body = {"renewers": [{"principal_type": t, "principal_name": n} for t, n in renewers],
            "max_lifetime_ms": int(max_lifetime_ms)}
    if v >= 3:
        body["owner_principal_type"], body["owner_principal_name"] = owner if owner else (None, None)
    return body


@builds(ApiKey.DescribeDelegationToken)
def describe_delegation_token(v: int, owners: Iterable[tuple[str, str]] | None = None) -> dict:
    """The tokens owned or renewable by ``owners`` (``(type, name)`` each; None: every token
    the requester may describe) (DescribeDelegationTokenRequest.json)."""
    return {"owners": None if owners is None else [{"principal_type": t, "principal_name": n} for t, n in owners]}


@builds(ApiKey.RenewDelegationToken)
def renew_delegation_token(v: int, hmac: bytes, renew_period_ms: int = -1) -> dict:
    """Renew the token whose HMAC is ``hmac`` by ``renew_period_ms`` (-1: the broker's
    default) (RenewDelegationTokenRequest.json)."""
    return {"hmac": bytes(hmac), "renew_period_ms": int(renew_period_ms)}


@builds(ApiKey.ExpireDelegationToken)
def expire_delegation_token(v: int, hmac: bytes, expiry_time_period_ms: int = -1) -> dict:
    """Expire the token whose HMAC is ``hmac`` in ``expiry_time_period_ms`` (< 0: now)
    (ExpireDelegationTokenRequest.json)."""
    return {"hmac": bytes(hmac), "expiry_time_period_ms": int(expiry_time_period_ms)}


# -- error codes -----------------------------------------------------------------------------

TOKEN_MANAGER = "core/src/main/scala/kafka/server/DelegationTokenManager.scala"
TOKEN_CONTROL = "metadata/src/main/java/org/apache/kafka/controller/DelegationTokenControlManager.java"
_TOKEN_PLAINTEXT = src(KAFKA_APIS, "handle*TokenRequest: a PLAINTEXT connection or a token-authenticated one -> "
                                    "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED")
_TOKEN_DISABLED = src(TOKEN_MANAGER, "no delegation.token.secret.key -> DELEGATION_TOKEN_AUTH_DISABLED") + "; " \
    + src(TOKEN_CONTROL, "tokenAuthenticationEnabled false -> DELEGATION_TOKEN_AUTH_DISABLED")

ANY_VERSION = {
    ApiKey.CreateDelegationToken: {
        Errors.NONE: src(TOKEN_CONTROL, "createDelegationToken"),
        Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: _TOKEN_PLAINTEXT,
        Errors.DELEGATION_TOKEN_AUTH_DISABLED: _TOKEN_DISABLED,
        Errors.DELEGATION_TOKEN_AUTHORIZATION_FAILED: src(KAFKA_APIS, "handleCreateTokenRequest: an owner other than "
                                                                       "the requester without CREATE_TOKENS on USER"),
        Errors.INVALID_PRINCIPAL_TYPE: src(KAFKA_APIS, "handleCreateTokenRequest: a renewer or owner not of type User")
            + "; " + src(TOKEN_CONTROL, "createDelegationToken -> INVALID_PRINCIPAL_TYPE"),
        Errors.UNSUPPORTED_VERSION: src(TOKEN_CONTROL, "a metadata.version without delegation tokens"),
        Errors.INVALID_REQUEST: src(CONTROLLER_APIS, "handleCreateDelegationTokenRequest: owner_principal_type "
                                                      "without a name (or the reverse)"),
        **FORWARDED_SECURITY,
    },
    ApiKey.RenewDelegationToken: {
        Errors.NONE: src(TOKEN_CONTROL, "renewDelegationToken"),
        Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: _TOKEN_PLAINTEXT,
        Errors.DELEGATION_TOKEN_AUTH_DISABLED: _TOKEN_DISABLED,
        Errors.DELEGATION_TOKEN_NOT_FOUND: src(TOKEN_CONTROL, "renewDelegationToken: no token with that HMAC"),
        Errors.DELEGATION_TOKEN_OWNER_MISMATCH: src(TOKEN_CONTROL, "renewDelegationToken: the requester neither owns "
                                                                    "nor may renew it"),
        Errors.DELEGATION_TOKEN_EXPIRED: src(TOKEN_CONTROL, "renewDelegationToken: the token expired"),
        Errors.UNSUPPORTED_VERSION: src(TOKEN_CONTROL, "a metadata.version without delegation tokens"),
        **FORWARDED_SECURITY,
    },
    ApiKey.ExpireDelegationToken: {
        Errors.NONE: src(TOKEN_CONTROL, "expireDelegationToken"),
        Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: _TOKEN_PLAINTEXT,
        Errors.DELEGATION_TOKEN_AUTH_DISABLED: _TOKEN_DISABLED,
        Errors.DELEGATION_TOKEN_NOT_FOUND: src(TOKEN_CONTROL, "expireDelegationToken: no token with that HMAC"),
        Errors.DELEGATION_TOKEN_OWNER_MISMATCH: src(TOKEN_CONTROL, "expireDelegationToken: the requester neither owns "
                                                                    "nor may renew it"),
        Errors.DELEGATION_TOKEN_EXPIRED: src(TOKEN_CONTROL, "expireDelegationToken: the token expired"),
        Errors.UNSUPPORTED_VERSION: src(TOKEN_CONTROL, "a metadata.version without delegation tokens"),
        **FORWARDED_SECURITY,
    },
    ApiKey.DescribeDelegationToken: {
        Errors.NONE: src(KAFKA_APIS, "handleDescribeTokensRequest: the tokens the requester may describe"),
        Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: _TOKEN_PLAINTEXT,
        Errors.DELEGATION_TOKEN_AUTH_DISABLED: _TOKEN_DISABLED,
        Errors.UNKNOWN_SERVER_ERROR: HANDLE_ERROR,
    },
}

# -- safe values -----------------------------------------------------------------------------

SAFE = {
    ApiKey.CreateDelegationToken: {
        "owner_principal_type": Safe("User", "a user (null: the requester, whom the clean-up cannot tell apart)"),
        "owner_principal_name": Safe(lambda n, v: n.users, "a run user"),
        "max_lifetime_ms": Safe(Choice((-1, 60_000, 3_600_000)), "the broker's, a minute, an hour"),
    },
    ApiKey.RenewDelegationToken: {
        "renew_period_ms": Safe(Choice((-1, 60_000)), "the broker's, a minute"),
    },
    ApiKey.ExpireDelegationToken: {
        "expiry_time_period_ms": Safe(Choice((-1, 60_000)), "now, a minute"),
    },
}

FAMILY = Family("delegation tokens", __name__, DECLARATIONS, codes=ANY_VERSION, safe=SAFE)
