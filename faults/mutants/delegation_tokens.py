"""Delegation-token faults (catalogue H1-H4): a broker that takes token requests on a listener
without authentication, one whose DescribeDelegationToken lists no token, one that lets a
principal create a token for another owner without CREATE_TOKENS, one that lets anyone renew
or expire a token. The first is measured over
``kafka:4.4.0`` (a PLAINTEXT listener), the others over ``kafka:4.4.0,preset=acl`` (SASL, tokens
enabled); tansu and noida serve no token API.
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import KAFKA_OVER, Mutant, Recoding, declared, mutant

ACL = f"{KAFKA_OVER},preset=acl"


declared(Recoding, "delegation-tokens-without-authentication",
         """Every token request on a listener without authentication is answered NONE where Kafka
         answers DELEGATION_TOKEN_REQUEST_NOT_ALLOWED (``KafkaApis.allowTokenRequests`` skipped).""",
         catches=("H1",), apis=(ApiKey.CreateDelegationToken, ApiKey.RenewDelegationToken,
                                ApiKey.ExpireDelegationToken, ApiKey.DescribeDelegationToken),
         over=KAFKA_OVER, recodes=(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, Errors.NONE))


@mutant
class DescribeListsNoToken(Mutant):
    """DescribeDelegationToken answers NONE with no token, whoever asks and whatever the
    filter, as a broker whose token cache never learns the controller's tokens."""
    name = "describe-delegation-token-lists-no-token"
    catches = ("H2",)
    apis = (ApiKey.DescribeDelegationToken,)
    over = ACL

    def response(self, seen, body):
        return {**body, "tokens": []}


declared(Recoding, "create-delegation-token-for-another-owner-allowed",
         """CreateDelegationToken for an owner other than the requester, refused by Kafka without
         CREATE_TOKENS on that owner (DELEGATION_TOKEN_AUTHORIZATION_FAILED), is answered NONE.""",
         catches=("H3",), apis=(ApiKey.CreateDelegationToken,), over=ACL,
         recodes=(Errors.DELEGATION_TOKEN_AUTHORIZATION_FAILED, Errors.NONE))


declared(Recoding, "delegation-token-renewed-by-anyone",
         """RenewDelegationToken and ExpireDelegationToken by a principal that is neither the
         token's owner nor one of its renewers, refused by Kafka (DELEGATION_TOKEN_OWNER_MISMATCH),
         are answered NONE.""",
         catches=("H4",), apis=(ApiKey.RenewDelegationToken, ApiKey.ExpireDelegationToken), over=ACL,
         recodes=(Errors.DELEGATION_TOKEN_OWNER_MISMATCH, Errors.NONE))
