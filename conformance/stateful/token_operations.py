"""S2's operations on delegation tokens (KIP-48 "Delegation token support for Kafka", KIP-373
"Allow users to create delegation tokens for other users"), on ``preset=acl`` where a
SASL listener and ``delegation.token.secret.key`` let tokens be made (the family is off
elsewhere, with the broker's answer as evidence: ``admin_plane.PlaneRow._tokens``).

* CreateDelegationToken (from v3, the first with an owner: every token is the example's
  user's ``User:SUB-u1``/``-u2``, never the requester's, so that the describe of the
  example's users lists exactly its tokens): the super user asks for one the super user may
  renew, with a lifetime of an hour at most, so a token a killed run leaves expires on its
  own. NONE, the owner and (v3) the requester as asked; the token's HMAC is learnt for the
  steps that name it (``check.expect_learned``: a reproducer sends its own run's).
* RenewDelegationToken and ExpireDelegationToken of one of the example's tokens, by the
  super user, its renewer (``DelegationTokenControlManager.allowedToRenew``): NONE, asked
  again while the controller's token cache has not applied the creation
  (DELEGATION_TOKEN_NOT_FOUND, ``fixtures.waiting.TOKEN_KNOWN_S``, as H4 asks it). An
  expiry with a negative period removes the token (RemoveDelegationTokenRecord); a positive
  one only moves its expiry (within the hour the token lives, so it stays listed).

DescribeDelegationToken of the example's users is the family's invariant
(``plane_invariants.py``); what deleting the owner's SCRAM credentials does to its tokens
(nothing) is the rule SCRAM_DELETION_KEEPS_TOKENS (``reference/plane_rules.py``).
"""
from __future__ import annotations

from typing import NamedTuple

from hypothesis import strategies as st

from fixtures import acl
from fixtures.waiting import TOKEN_KNOWN_S
from protocol import ApiKey, Errors, schema_facts
from protocol import requests as build
from strategies import admin_plane as draws

from .operation import FamilyOperation

#: the first CreateDelegationToken with an owner (CreateDelegationTokenRequest.json)
OWNER_FROM = schema_facts.first_version_with(ApiKey.CreateDelegationToken, "owner_principal_name")
SUPER_NAME = acl.USERS[acl.SUPER][0]
#: every token's renewer: the super user the suite asks as
RENEWERS = [("User", SUPER_NAME)]
#: lifetimes (ms) a token is asked for: at most an hour, past every run
LIFETIMES = st.sampled_from((3_600_000, 1_800_000))
#: periods (ms) of a renewal, and of an expiry (< 0: now, which removes the token)
RENEW_PERIODS = st.sampled_from((-1, 600_000))
EXPIRY_PERIODS = st.sampled_from((-1, -1, 600_000))


class Token(NamedTuple):
    """One token of the example: its owner (a user's name), HMAC and the step that made it."""
    owner: str
    hmac: bytes
    step: int


class CreateDelegationToken(FamilyOperation):
    api = ApiKey.CreateDelegationToken
    family = "tokens"
    min_version = OWNER_FROM

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "user": draws.USERS, "lifetime": LIFETIMES})

    def render(self, op, n):
        return f"owner User:{n(op['user'])}, renewer User:{SUPER_NAME}, max lifetime {op['lifetime']} ms"

    def perform(self, run, op, line):
        m, v, check = run.model, op["v"], run.check
        owner = m.user(op["user"])
        answer = run.send(self.api, v, build.create_delegation_token(v, RENEWERS, op["lifetime"],
                                                                    owner=("User", owner)), line)
        with run.judging(lambda: f"{line} -> not NONE"):
            check.expect_field(["error_code"], [Errors.NONE],
                               says=f"CreateDelegationToken v{v} by {SUPER_NAME} for User:{owner}: NONE")
            check.expect_field(["principal_name"], [owner], says=f"the token's owner is {owner}")
            if schema_facts.has_field(self.api, v, "token_requester_principal_name", schema_facts.RESPONSE):
                check.expect_field(["token_requester_principal_name"], [SUPER_NAME],
                                   says=f"the token's requester is {SUPER_NAME}")
        m.tokens[answer["token_id"]] = Token(owner, bytes(answer["hmac"]), check.last_step)
        self.settled(run, line, "NONE")


class _OfAToken(FamilyOperation):
    """A request that names one of the example's tokens by its HMAC: the ``pick``-th it
    holds, in the order they were made (so a replay picks the same)."""
    family = "tokens"
    periods = RENEW_PERIODS

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "pick": st.integers(0, 3), "period": self.periods})

    def resolve(self, run, op):
        return op if run.model.tokens else None

    def token(self, run, op) -> tuple[str, Token]:
        held = list(run.model.tokens.items())
        return held[op["pick"] % len(held)]

    def render(self, op, n):
        return f"token #{op['pick']} of the example's, period {op['period']} ms"

    def body(self, v: int, hmac: bytes, period: int) -> dict:
        raise NotImplementedError

    def perform(self, run, op, line):
        v, check = op["v"], run.check
        token_id, token = self.token(run, op)
        run.send(self.api, v, self.body(v, token.hmac, op["period"]), line)
        check.expect_learned(token.hmac, token.step, ["hmac"])
        with run.judging(lambda: f"{line} -> not NONE"):
            check.expect_field(["error_code"], [Errors.NONE], retry_s=TOKEN_KNOWN_S,
                               says=f"{self.name} v{v} by {SUPER_NAME}, a renewer of {token.owner}'s token: NONE "
                                    "(asked again while the controller's token cache lacks it)")
        self.done(run, op, token_id)
        self.settled(run, line, "NONE")

    def done(self, run, op, token_id: str) -> None:
        pass


class RenewDelegationToken(_OfAToken):
    api = ApiKey.RenewDelegationToken

    def body(self, v, hmac, period):
        return build.renew_delegation_token(v, hmac, period)


class ExpireDelegationToken(_OfAToken):
    api = ApiKey.ExpireDelegationToken
    periods = EXPIRY_PERIODS

    def body(self, v, hmac, period):
        return build.expire_delegation_token(v, hmac, period)

    def done(self, run, op, token_id):
        if op["period"] < 0:            # RemoveDelegationTokenRecord: gone from every describe
            del run.model.tokens[token_id]
