"""SCRAM credential faults (catalogue U1-U3): a describe that leaks a salt or mixes up a
user's mechanisms' iterations, a deletion that keeps the credential, a user named twice applied instead of
refused, iterations above Kafka's bound accepted, and an unknown user failing the whole
describe. Measured over ``kafka:4.4.0`` (KRaft serves both APIs without a SCRAM listener)."""
from __future__ import annotations

import base64

from protocol.apis import ApiKey
from protocol.errors import Errors
from reference.scram_rules import MAX_ITERATIONS, SHA_256, SHA_512
from .mutant import KAFKA_OVER, Mutant, Reply, mutant

OVER = KAFKA_OVER


def _answer(users: list[str], upstream: dict | None = None) -> dict:
    """An AlterUserScramCredentials answer: NONE for ``users``, then ``upstream``'s results."""
    return {"throttle_time_ms": 0,
            "results": [{"user": u, "error_code": Errors.NONE, "error_message": None} for u in users]
            + list((upstream or {}).get("results") or [])}


@mutant
class DescribeScramLeaksTheSalt(Mutant):
    """DescribeUserScramCredentials answers a held user with its last upserted salt, in
    base64, as the result's error message."""
    name = "describe-scram-leaks-the-salt"
    catches = ("U1",)
    apis = (ApiKey.AlterUserScramCredentials, ApiKey.DescribeUserScramCredentials)
    over = OVER

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.salts: dict[str, bytes] = {}

    def response(self, seen, body):
        if seen.api_key == ApiKey.AlterUserScramCredentials:
            for u in seen.request.get("upsertions") or []:
                self.salts[u["name"]] = bytes(u["salt"])
            return None
        results = [{**r, "error_message": base64.b64encode(self.salts[r["user"]]).decode()}
                   if r.get("error_code") == Errors.NONE and r.get("user") in self.salts else r
                   for r in body.get("results") or []]
        return {**body, "results": results}


@mutant
class DescribeScramMixesUpMechanisms(Mutant):
    """DescribeUserScramCredentials lists a user holding both mechanisms with its
    SCRAM-SHA-256 iterations for SCRAM-SHA-512 too (one record read for both)."""
    name = "describe-scram-mixes-up-mechanisms"
    catches = ("U1", "U3")
    apis = (ApiKey.DescribeUserScramCredentials,)
    over = OVER

    def response(self, seen, body):
        def mixed(infos):
            first = {c.get("mechanism"): c.get("iterations") for c in infos}.get(SHA_256)
            return [{**c, "iterations": first} if c.get("mechanism") == SHA_512 and first is not None else c
                    for c in infos]
        results = [{**r, "credential_infos": mixed(r.get("credential_infos") or [])}
                   for r in body.get("results") or []]
        return {**body, "results": results}


@mutant
class AlterScramDeletionKeeps(Mutant):
    """AlterUserScramCredentials of deletions only (each user once) answers NONE for each
    but deletes nothing."""
    name = "alter-scram-deletion-keeps-the-credential"
    catches = ("U1",)
    apis = (ApiKey.AlterUserScramCredentials,)
    over = OVER

    def request(self, seen):
        names = [d["name"] for d in seen.request.get("deletions") or []]
        if not names or seen.request.get("upsertions") or len(set(names)) < len(names):
            return None
        return Reply(_answer(names))


@mutant
class AlterScramDuplicateApplied(Mutant):
    """AlterUserScramCredentials naming a user twice applies the user's first entry (NONE)
    instead of refusing both with DUPLICATE_RESOURCE."""
    name = "alter-scram-duplicate-applied"
    catches = ("U2",)
    apis = (ApiKey.AlterUserScramCredentials,)
    over = OVER

    def request(self, seen):
        seen_names: set[str] = set()
        out = {"deletions": [], "upsertions": []}
        twice = False
        for key in ("deletions", "upsertions"):
            for e in seen.request.get(key) or []:
                if e["name"] in seen_names:
                    twice = True
                    continue
                seen_names.add(e["name"])
                out[key].append(e)
        if not twice:
            return None
        return Reply(self.upstream(ApiKey.AlterUserScramCredentials, seen.api_version, {**seen.request, **out}))


@mutant
class AlterScramIterationsUnbounded(Mutant):
    """AlterUserScramCredentials accepts iterations above Kafka's maximum (16384), storing
    the maximum, where Kafka answers UNACCEPTABLE_CREDENTIAL."""
    name = "alter-scram-iterations-unbounded"
    catches = ("U2",)
    apis = (ApiKey.AlterUserScramCredentials,)
    over = OVER

    def request(self, seen):
        ups = seen.request.get("upsertions") or []
        if not any(u.get("iterations", 0) > MAX_ITERATIONS for u in ups):
            return None
        clamped = [{**u, "iterations": min(u["iterations"], MAX_ITERATIONS)} for u in ups]
        return Reply(self.upstream(ApiKey.AlterUserScramCredentials, seen.api_version,
                                   {**seen.request, "upsertions": clamped}))


@mutant
class DescribeScramUnknownFailsAll(Mutant):
    """DescribeUserScramCredentials naming one user without credentials beside others
    answers every user RESOURCE_NOT_FOUND, without credentials (as if one unknown user
    failed the request)."""
    name = "describe-scram-unknown-fails-all"
    catches = ("U3",)
    apis = (ApiKey.DescribeUserScramCredentials,)
    over = OVER

    def response(self, seen, body):
        results = body.get("results") or []
        if [r.get("error_code") for r in results].count(Errors.RESOURCE_NOT_FOUND) != 1 or len(results) < 2:
            return None
        return {**body, "results": [{**r, "error_code": Errors.RESOURCE_NOT_FOUND, "credential_infos": [],
                                     "error_message": "Attempt to describe a user credential that does not exist"}
                                    for r in results]}
