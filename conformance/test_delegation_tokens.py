"""H1-H3: delegation tokens (KIP-48: Delegation token support for Kafka; KIP-373: Allow users
to create delegation tokens for other users), as Kafka's broker and controller answer them.

The letter H: a delegation token is named by its HMAC in every request but the one that
creates it (D, T and K are taken).

* **H1**, on a listener without authentication (every target but ``preset=acl``): every
  token request is refused before anything else is looked at. ``KafkaApis.allowTokenRequests``
  is false on a PLAINTEXT listener (and for a token-authenticated principal or one-way SSL),
  and ``handleCreateTokenRequest``, ``handleRenewTokenRequest``, ``handleExpireTokenRequest``
  and ``handleDescribeTokensRequest`` each answer DELEGATION_TOKEN_REQUEST_NOT_ALLOWED then,
  whatever the request holds; Describe lists no token.
* **H2**, on ``kafka:VERSION,preset=acl`` (SASL/PLAIN, ``delegation.token.secret.key`` set;
  ``fixtures/acl.py``): a token is described to its owner, and never to a principal that is
  neither its owner, requester nor renewer and may not describe it.
  ``DelegationTokenManager.filterToken``: an owner filter keeps the tokens some listed owner
  owns, requested or renews; of those the requester sees the tokens it owns, requested or
  renews (``TokenInformation.ownerOrRenewer``) and the others only with DESCRIBE on the token
  or DESCRIBE_TOKENS on the owner's User resource (the super user has every permission).
* **H3**, on ``preset=acl``: the restricted principal (no ACLs) asking for a token of another
  owner (v3+) is refused DELEGATION_TOKEN_AUTHORIZATION_FAILED (``handleCreateTokenRequest``:
  an owner other than the requester needs CREATE_TOKENS on the owner's User resource), and a
  renewer whose type is not User is refused INVALID_PRINCIPAL_TYPE; neither creates a token.

* **H4**, on ``preset=acl``: only a token's owner or one of its renewers may renew or expire
  it (``DelegationTokenControlManager.allowedToRenew``; no exception for a super user:
  DELEGATION_TOKEN_OWNER_MISMATCH); an expiry with a negative period removes the token
  (RemoveDelegationTokenRecord): its owner's describe no longer lists it. A renewal after the
  expiry (DELEGATION_TOKEN_NOT_FOUND by the code) is not judged: on a fresh 4.4.0 broker it
  was answered NONE in 4 of 8 runs of H4 alone (docs/reference-semantics.md).

Kafka's controller creates the token (``DelegationTokenControlManager.createDelegationToken``:
owner = the request's owner or the requester; a KRaft metadata version before 3.6-IV2 answers
UNSUPPORTED_VERSION, KIP-900), brokers describe it from their cache of the metadata log. A
token's HMAC differs on every broker and every run: H4 sends the one its create answered and
notes where it came from (``check.expect_learned``), so a standalone reproducer sends the HMAC
its own create got; H2 and H3 judge owners and requesters, not token ids.

Sources: KIP-48, KIP-373, KIP-900; apache/kafka ``core/src/main/scala/kafka/server/KafkaApis.scala``
(handleCreateTokenRequest, handleRenewTokenRequest, handleExpireTokenRequest,
handleDescribeTokensRequest, allowTokenRequests), ``core/src/main/scala/kafka/server/DelegationTokenManager.scala``
(filterToken), ``metadata/src/main/java/org/apache/kafka/controller/DelegationTokenControlManager.java``,
``clients/src/main/java/org/apache/kafka/common/security/token/delegation/TokenInformation.java``
(ownerOrRenewer), and the four APIs' message schemas.
"""
from __future__ import annotations

import pytest

from fixtures import acl
from fixtures.admin import Admin
from fixtures.harness import Unsupported, expect_setup
from fixtures.waiting import TOKEN_KNOWN_S, VISIBLE_S
from protocol import ApiKey, Errors, schema_facts
from protocol import requests as build
from reference import switches
from reference.release_lines import DELEGATION_TOKENS_ENABLED
from strategies import delegation_tokens as gen

from . import capabilities
from .parametrize import every_version
from protocol.kafka_sources import KAFKA as K

APIS = K + "core/src/main/scala/kafka/server/KafkaApis.scala "
MSG = K + "clients/src/main/resources/common/message/"
KIPS = ("KIP-48 \"Delegation token support for Kafka\"; KIP-373 \"Allow users to create delegation tokens for "
        "other users\"; ")
H1_SOURCE = (KIPS + APIS + "allowTokenRequests (false on a PLAINTEXT listener), handleCreateTokenRequest, "
             "handleRenewTokenRequest, handleExpireTokenRequest, handleDescribeTokensRequest "
             "(DELEGATION_TOKEN_REQUEST_NOT_ALLOWED before anything else)")
H2_SOURCE = (KIPS + APIS + "handleDescribeTokensRequest; " + K + "core/src/main/scala/kafka/server/"
             "DelegationTokenManager.scala filterToken; " + K + "clients/src/main/java/org/apache/kafka/common/security/"
             "token/delegation/TokenInformation.java ownerOrRenewer; " + K + "metadata/src/main/java/org/apache/kafka/"
             "controller/DelegationTokenControlManager.java createDelegationToken (owner: the request's or the "
             "requester; KIP-900: UNSUPPORTED_VERSION before metadata version 3.6-IV2)")
H3_SOURCE = (KIPS + APIS + "handleCreateTokenRequest (an owner other than the requester without CREATE_TOKENS on "
             "its User resource: DELEGATION_TOKEN_AUTHORIZATION_FAILED; a renewer not of type User: "
             "INVALID_PRINCIPAL_TYPE); " + MSG + "CreateDelegationTokenRequest.json (owner from v3)")

H4_SOURCE = (KIPS + K + "metadata/src/main/java/org/apache/kafka/controller/DelegationTokenControlManager.java "
             "renewDelegationToken, expireDelegationToken (allowedToRenew: the owner or a renewer; an expiry period "
             "< 0 removes the token: RemoveDelegationTokenRecord); "
             + K + "core/src/main/scala/kafka/server/DelegationTokenManager.scala renewToken, expireToken "
             "(ZooKeeper mode)")

TOKEN_APIS = (ApiKey.CreateDelegationToken, ApiKey.RenewDelegationToken, ApiKey.ExpireDelegationToken,
              ApiKey.DescribeDelegationToken)
USER = "User"
SUPER_NAME, RESTRICTED_NAME = acl.USERS[acl.SUPER][0], acl.USERS[acl.RESTRICTED][0]


def _authenticating(check) -> None:
    if check.broker.preset != "acl":
        raise Unsupported("needs a SASL listener with the suite's principals and delegation tokens enabled: "
                          "kafka:VERSION,preset=acl (no other target can be configured so)")
    if not DELEGATION_TOKENS_ENABLED.now():
        raise Unsupported("a KRaft broker before 3.6 does not start with delegation tokens enabled (KIP-900; "
                          "reference/release_lines.py DELEGATION_TOKENS_ENABLED): preset=acl leaves them off")
    check.needs_config(acl.CONFIG_NOTE + f"; delegation.token.secret.key={acl.TOKEN_SECRET_KEY}")


def _principals(pairs) -> list[tuple[str, str]]:
    return [tuple(p) for p in pairs]


@pytest.mark.prop("H1", source=H1_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version(TOKEN_APIS))
def test_h1_token_requests_on_a_listener_without_authentication_are_refused(check, api_key, version):
    """On a listener without authentication (PLAINTEXT), a CreateDelegationToken,
    RenewDelegationToken, ExpireDelegationToken or DescribeDelegationToken at this version,
    whatever it holds (renewers, lifetimes, an HMAC, an owner filter), answers
    DELEGATION_TOKEN_REQUEST_NOT_ALLOWED; DescribeDelegationToken lists no token."""
    check.require(api_key, version)
    if check.broker.preset == "acl":
        raise Unsupported("every listener of kafka:VERSION,preset=acl authenticates (SASL_PLAINTEXT); H1 asks a "
                          "listener without authentication")
    if api_key == ApiKey.CreateDelegationToken:
        check.require_mutations()
    client = check.client()
    name = f"{ApiKey(api_key).name} v{version}"

    def refused(ask):
        if api_key == ApiKey.CreateDelegationToken:
            body = build.create_delegation_token(version, _principals(ask["renewers"]), ask["lifetime"])
        elif api_key == ApiKey.RenewDelegationToken:
            body = build.renew_delegation_token(version, bytes.fromhex(ask["hmac"]), ask["period"])
        elif api_key == ApiKey.ExpireDelegationToken:
            body = build.expire_delegation_token(version, bytes.fromhex(ask["hmac"]), ask["period"])
        else:
            owners = None if ask["owners"] is None else [(USER, n) for n in ask["owners"]]
            body = build.describe_delegation_token(version, owners)
        client.answered(api_key, version, body)
        check.expect_field(["error_code"], [Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED],
                           says=f"{name} on a listener without authentication: DELEGATION_TOKEN_REQUEST_NOT_ALLOWED "
                                "(KafkaApis.allowTokenRequests)")
        if api_key == ApiKey.DescribeDelegationToken:
            check.expect_field(["tokens", "token_id"], [], count=0, says=f"{name}: no token listed")

    check.given(gen.unauthenticated(), refused, first=gen.FIRST_UNAUTHENTICATED)


@pytest.mark.prop("H2", source=H2_SOURCE)
@pytest.mark.needs_broker("preset=acl")
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.DescribeDelegationToken]))
def test_h2_a_token_is_described_to_its_owner_and_to_no_principal_without_a_part_in_it(check, api_key, version):
    """The restricted principal (no ACLs) creates a token of its own, the super user one with
    renewers that are neither of them. Then DescribeDelegationToken at this version, with an
    owner filter (none, or a list of Users): as the restricted principal it lists only tokens
    it owns (never the super user's), and its own token whenever the filter names it or there
    is none; as the super user, filtered by the super user, it lists the super user's tokens
    (at least the new one) and no other owner's."""
    check.require(api_key, version)
    check.require(ApiKey.CreateDelegationToken)
    check.require_mutations()
    _authenticating(check)
    restricted = check.client(principal=acl.RESTRICTED)
    admin = check.client()
    create_v = Admin(check, admin).version(ApiKey.CreateDelegationToken)
    own = restricted.answered(ApiKey.CreateDelegationToken, create_v, build.create_delegation_token(create_v))
    capabilities.expect_served(check, switches.DELEGATION_TOKENS, ["error_code"],
                               f"CreateDelegationToken v{create_v} as {RESTRICTED_NAME}")
    expect_setup(own.get("error_code") == Errors.NONE,
                 f"setup: CreateDelegationToken v{create_v} as {RESTRICTED_NAME} answered {own.get('error_code')}, "
                 "expected NONE")
    name = f"DescribeDelegationToken v{version}"

    def described(ask):
        renewers = _principals(ask["renewers"])
        admin.answered(ApiKey.CreateDelegationToken, create_v,
                       build.create_delegation_token(create_v, renewers, ask["lifetime"]))
        check.expect_field(["error_code"], [Errors.NONE], setup=True,
                           says=f"setup: CreateDelegationToken v{create_v} as {SUPER_NAME}: NONE")
        owners = ask["owners"]
        filtered = None if owners is None else [(USER, n) for n in owners]
        restricted.answered(ApiKey.DescribeDelegationToken, version, build.describe_delegation_token(version, filtered))
        by = "no owner filter" if owners is None else f"owners {owners}"
        check.expect_field(["error_code"], [Errors.NONE], says=f"{name} as {RESTRICTED_NAME} ({by}): NONE")
        sees_own = owners is None or RESTRICTED_NAME in owners
        # a token the controller made reaches the broker's cache with the metadata log: its
        # owner may see it only after a moment (polled, as every "becomes visible" here)
        check.expect_field(["tokens", "principal_name"], [RESTRICTED_NAME],
                           min_count=1 if sees_own else None, count=None if sees_own else 0,
                           retry_s=VISIBLE_S if sees_own else None,
                           says=f"{name} as {RESTRICTED_NAME} ({by}): only tokens {RESTRICTED_NAME} owns "
                                "(DelegationTokenManager.filterToken), its own "
                                + ("among them" if sees_own else "left out by the filter, so none"))
        admin.answered(ApiKey.DescribeDelegationToken, version,
                       build.describe_delegation_token(version, [(USER, SUPER_NAME)]))
        check.expect_field(["error_code"], [Errors.NONE], says=f"{name} as {SUPER_NAME} (owners [{SUPER_NAME}]): NONE")
        check.expect_field(["tokens", "principal_name"], [SUPER_NAME], min_count=1, retry_s=VISIBLE_S,
                           says=f"{name} as {SUPER_NAME} (owners [{SUPER_NAME}]): the super user's tokens, the new "
                                "one among them, and no other owner's (no other owner names it a renewer)")

    check.given(gen.described(), described, first=gen.FIRST_DESCRIBED)


@pytest.mark.prop("H3", source=H3_SOURCE)
@pytest.mark.needs_broker("preset=acl")
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.CreateDelegationToken]))
def test_h3_a_token_for_another_owner_or_a_non_user_renewer_is_refused(check, api_key, version):
    """As the restricted principal (no ACLs), a CreateDelegationToken at this version for the
    super user as owner (v3+) answers DELEGATION_TOKEN_AUTHORIZATION_FAILED, and one naming a
    renewer of type Group among User renewers answers INVALID_PRINCIPAL_TYPE; afterwards the
    super user's DescribeDelegationToken (v3+, which shows requesters) lists no token the
    restricted principal requested for another owner."""
    check.require(api_key, version)
    check.require_mutations()
    _authenticating(check)
    restricted = check.client(principal=acl.RESTRICTED)
    admin = check.client()
    name = f"CreateDelegationToken v{version}"
    describe_v = Admin(check, admin).version(ApiKey.DescribeDelegationToken)

    def refused(ask):
        renewers = _principals(ask["renewers"])
        if ask["bad"] == "owner" and schema_facts.has_field(api_key, version, "owner_principal_name"):
            body = build.create_delegation_token(version, renewers, ask["lifetime"], owner=(USER, SUPER_NAME))
            want, why = Errors.DELEGATION_TOKEN_AUTHORIZATION_FAILED, f"for owner {SUPER_NAME} without CREATE_TOKENS"
        else:
            renewers.insert(min(ask["at"], len(renewers)), ("Group", "kac-group"))
            body = build.create_delegation_token(version, renewers, ask["lifetime"])
            want, why = Errors.INVALID_PRINCIPAL_TYPE, "with a renewer of type Group"
        restricted.answered(ApiKey.CreateDelegationToken, version, body)
        check.expect_field(["error_code"], [want], says=f"{name} as {RESTRICTED_NAME} {why}: {want.name}")
        if describe_v >= 3:
            admin.answered(ApiKey.DescribeDelegationToken, describe_v,
                           build.describe_delegation_token(describe_v, [(USER, SUPER_NAME)]))
            check.expect_field(["tokens", "token_requester_principal_name"], refused=[RESTRICTED_NAME],
                               says=f"DescribeDelegationToken v{describe_v} as {SUPER_NAME}: no token of "
                                    f"{SUPER_NAME}'s requested by {RESTRICTED_NAME} (the refused create made none)")

    check.given(gen.refused(), refused, first=gen.FIRST_REFUSED)


@pytest.mark.prop("H4", source=H4_SOURCE)
@pytest.mark.needs_broker("preset=acl")
@pytest.mark.parametrize("api_key,version", every_version([ApiKey.RenewDelegationToken,
                                                           ApiKey.ExpireDelegationToken]))
def test_h4_only_the_owner_or_a_renewer_renews_or_expires_a_token_and_an_expired_one_is_gone(check, api_key, version):
    """The restricted principal creates a token (renewers that are neither of the suite's
    principals). At this version of this API, the super user's renewal or expiry of it answers
    DELEGATION_TOKEN_OWNER_MISMATCH (only the owner or a renewer may: no super-user
    exception); the owner's renewal answers NONE, its expiry with a negative period NONE, and
    then the owner's describe no longer lists the token. (A renewal after the expiry is not
    asked: see docs/reference-semantics.md, H4.)"""
    check.require(api_key, version)
    check.require(ApiKey.CreateDelegationToken)
    check.require(ApiKey.DescribeDelegationToken)
    check.require_mutations()
    _authenticating(check)
    restricted = check.client(principal=acl.RESTRICTED)
    admin = check.client()
    newest = Admin(check, admin).version
    renew_v = version if api_key == ApiKey.RenewDelegationToken else newest(ApiKey.RenewDelegationToken)
    expire_v = version if api_key == ApiKey.ExpireDelegationToken else newest(ApiKey.ExpireDelegationToken)
    create_v, describe_v = newest(ApiKey.CreateDelegationToken), newest(ApiKey.DescribeDelegationToken)
    name = f"{ApiKey(api_key).name} v{version}"

    def renewed(ask):
        made = restricted.answered(ApiKey.CreateDelegationToken, create_v,
                                   build.create_delegation_token(create_v, _principals(ask["renewers"]),
                                                                 ask["lifetime"]))
        check.expect_field(["error_code"], [Errors.NONE], setup=True,
                           says=f"setup: CreateDelegationToken v{create_v} as {RESTRICTED_NAME}: NONE")
        created, hmac = check.last_step, bytes(made["hmac"])

        def send(client, key, v, body):
            client.answered(key, v, body)
            check.expect_learned(hmac, created, ["hmac"])

        def renew(client):
            send(client, ApiKey.RenewDelegationToken, renew_v,
                 build.renew_delegation_token(renew_v, hmac, ask["period"]))

        def expire(client, period):
            send(client, ApiKey.ExpireDelegationToken, expire_v,
                 build.expire_delegation_token(expire_v, hmac, period))

        renew(admin) if api_key == ApiKey.RenewDelegationToken else expire(admin, ask["period"])
        # the controller knows the token once its metadata publisher has applied the create:
        # until then it answers DELEGATION_TOKEN_NOT_FOUND (polled, for TOKEN_KNOWN_S)
        check.expect_field(["error_code"], [Errors.DELEGATION_TOKEN_OWNER_MISMATCH], retry_s=TOKEN_KNOWN_S,
                           says=f"{name} as {SUPER_NAME} (neither owner nor renewer): DELEGATION_TOKEN_OWNER_MISMATCH "
                                "(DelegationTokenControlManager.allowedToRenew: no super-user exception)")
        renew(restricted)
        check.expect_field(["error_code"], [Errors.NONE],
                           says=f"RenewDelegationToken v{renew_v} as its owner {RESTRICTED_NAME}: NONE")
        expire(restricted, -1)
        check.expect_field(["error_code"], [Errors.NONE],
                           says=f"ExpireDelegationToken v{expire_v} as its owner, period -1 (now): NONE")
        restricted.answered(ApiKey.DescribeDelegationToken, describe_v,
                            build.describe_delegation_token(describe_v, [(USER, RESTRICTED_NAME)]))
        check.expect_same(["tokens", "token_id"], created, ["token_id"], differ=True, retry_s=VISIBLE_S,
                          says=f"DescribeDelegationToken v{describe_v} as {RESTRICTED_NAME}: the expired token "
                               "is no longer listed")

    check.given(gen.renewed(), renewed, first=gen.FIRST_RENEWED)
