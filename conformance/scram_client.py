"""The SCRAM properties' client (U1-U3, and S2's SCRAM operations): AlterUserScramCredentials
and DescribeUserScramCredentials at a version, judged user by user, and the check that an
answer spells no salt or salted password (``reference/scram_rules.py`` has Kafka's rules
and their sources; KIP-554).
"""
from __future__ import annotations

import base64

from fixtures.admin import Admin
from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors
from protocol import requests as build
from protocol.errors import error_name
from reference.scram_rules import mechanism_name

APIS = (ApiKey.DescribeUserScramCredentials, ApiKey.AlterUserScramCredentials)


class Scram:
    """One check's view of the broker's SCRAM credentials."""

    def __init__(self, check):
        for api_key in APIS:
            check.require(api_key)
        check.require_mutations()
        self.check = check
        self.admin = Admin(check)
        self.client = self.admin.client
        self.dv = self.admin.version(ApiKey.DescribeUserScramCredentials)
        self.av = self.admin.version(ApiKey.AlterUserScramCredentials)

    def names(self, entries) -> dict[str, str]:
        """A fresh run-prefixed name for each placeholder user of ``entries`` ("" stays "")."""
        return {e.name: (self.check.topic("scram") if e.name else "") for e in entries}

    def alter(self, deletions=(), upsertions=(), version: int | None = None) -> dict:
        v = self.av if version is None else version
        return self.client.answered(ApiKey.AlterUserScramCredentials, v,
                                    build.alter_scram_credentials(v, deletions, upsertions))

    def expect_altered(self, codes: dict[str, int], says: str) -> None:
        """The last AlterUserScramCredentials answered one result per user, each its code."""
        c = self.check
        c.expect_field(["results", "error_code"], count=len(codes),
                       says=f"{says}: one result per user named ({len(codes)})")
        for user, code in codes.items():
            c.expect_field(["results", {"user": user}, "error_code"], [code], count=1,
                           says=f"{says}: {user!r} answers {code} {error_name(code)}")

    def forget(self, held: dict[str, dict[int, int]]) -> None:
        """Delete what the example holds (unjudged, deletions only), so that the next
        example, and the dedicated check of the known deviation, start from no credential."""
        for k in range(max((len(ms) for ms in held.values()), default=0)):     # each user once per request
            dels = [(u, sorted(ms)[k]) for u, ms in held.items() if len(ms) > k]
            self.client.send(ApiKey.AlterUserScramCredentials, self.av, build.alter_scram_credentials(self.av, dels))

    def describe(self, users: list[str], version: int | None = None):
        v = self.dv if version is None else version
        return self.client.send(ApiKey.DescribeUserScramCredentials, v, build.describe_scram_credentials(v, users),
                                answer=True)

    def expect_described(self, held: dict[str, dict[int, int]], users: list[str], says: str) -> None:
        """The last describe (of ``users``, each once) answered NONE, and each user as
        ``held`` has it: its mechanisms and their iterations, or RESOURCE_NOT_FOUND."""
        c = self.check
        c.expect_field(["error_code"], [Errors.NONE], says=f"{says}: NONE at the top level")
        c.expect_field(["results", "error_code"], count=len(users), says=f"{says}: one result per user named")
        for u in users:
            infos = ["results", {"user": u}, "credential_infos"]
            if u in held:
                c.expect_field(["results", {"user": u}, "error_code"], [Errors.NONE], count=1,
                               says=f"{says}: {u!r} holds {show(held[u])}: NONE")
                c.expect_field(infos + ["mechanism"], sorted(held[u]), count=len(held[u]), distinct=True,
                               says=f"{says}: {u!r} lists exactly its mechanisms {show(held[u])}")
                for m, it in held[u].items():
                    c.expect_field(infos + [{"mechanism": m}, "iterations"], [it], count=1,
                                   says=f"{says}: {u!r} {mechanism_name(m)} with {it} iterations")
            else:
                c.expect_field(["results", {"user": u}, "error_code"], [Errors.RESOURCE_NOT_FOUND], count=1,
                               says=f"{says}: {u!r} holds no credential: RESOURCE_NOT_FOUND")
                c.expect_field(infos + ["mechanism"], count=0, says=f"{says}: {u!r} lists no credential")

    def held_as(self, held: dict[str, dict[int, int]], users: list[str], says: str,
                secrets: list[bytes] = (), version: int | None = None) -> None:
        """Describe ``users`` until the answer is ``held``'s (within VISIBLE_S); the raw
        answer carries none of ``secrets`` (salts and salted passwords), in any spelling."""
        def look():
            ex = self.describe(users, version)
            self.expect_described(held, users, says)
            if secrets:
                words = sorted({w for sec in secrets for w in texts(sec)})
                for path in (["error_message"], ["results", "error_message"]):
                    self.check.expect_field(path, refused=words,
                                            says=f"{says}: no message spells a salt or salted password")
                self.check.expect_observed("salts and salted passwords in the raw DescribeUserScramCredentials "
                                           "answer", leaked(ex.raw or b"", secrets), [[]],
                                           says=f"{says}: the answer carries no salt or salted password "
                                                f"(its schema has no such field)")
        self.check.poll(look, within=VISIBLE_S)


def show(mechs: dict[int, int]) -> str:
    return "{" + ", ".join(f"{mechanism_name(m)}: {it}" for m, it in sorted(mechs.items())) + "}"


def spellings(secret: bytes) -> dict[str, bytes]:
    """The ways a secret could be written into an answer: raw, hex, base64."""
    b64 = base64.b64encode(secret)
    return {"bytes": secret, "hex": secret.hex().encode(), "HEX": secret.hex().upper().encode(),
            "base64": b64.rstrip(b"="), "base64url": base64.urlsafe_b64encode(secret).rstrip(b"=")}


def texts(secret: bytes) -> set[str]:
    """The secret as a whole message could carry it (the replayable half of the leak check)."""
    b64 = base64.b64encode(secret).decode()
    return {secret.hex(), secret.hex().upper(), b64, b64.rstrip("="),
            base64.urlsafe_b64encode(secret).decode().rstrip("="), secret.decode("latin-1")}


def leaked(raw: bytes, secrets) -> list[str]:
    """Which of ``secrets`` (by place) appear in ``raw``, and how."""
    return [f"secret {i + 1} as {how}" for i, s in enumerate(secrets)
            for how, form in spellings(s).items() if form in raw]
