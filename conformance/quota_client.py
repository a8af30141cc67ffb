"""The client quota properties' client (Q1-Q5, and S2's quota operations): AlterClientQuotas
and DescribeClientQuotas at a version, judged entry by entry (``reference/quota_rules.py``
has Kafka's rules and their sources).
"""
from __future__ import annotations

from fixtures.admin import Admin
from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors
from protocol import requests as build
from protocol.errors import error_name
from reference.quota_rules import MATCH_EXACT, QuotaEntity

from .quota_model import QuotaModel, show

APIS = (ApiKey.DescribeClientQuotas, ApiKey.AlterClientQuotas)


def entity_of(components) -> QuotaEntity:
    return tuple(sorted((t, n) for t, n in components))


class Quotas:
    """One check's view of the broker's client quotas: the versions it speaks besides the one
    judged, and the requests every property sends."""

    def __init__(self, check):
        for api_key in APIS:
            check.require(api_key)
        check.require_mutations()
        self.check = check
        admin = Admin(check)
        self.client = admin.client
        self.av = admin.version(ApiKey.AlterClientQuotas)
        self.dv = admin.version(ApiKey.DescribeClientQuotas)

    def named(self, value):
        """``value`` with each placeholder (``@...``) replaced by a fresh run-prefixed name,
        the same placeholder by the same name."""
        names: dict[str, str] = {}

        def walk(v):
            if isinstance(v, str) and v.startswith("@"):
                if v not in names:
                    names[v] = self.check.topic("q" + v[1:])
                return names[v]
            if isinstance(v, (list, tuple)):
                return [walk(x) for x in v]
            if isinstance(v, dict):
                return {k: walk(x) for k, x in v.items()}
            return v
        return walk(value)

    def alter(self, entries, version: int | None = None, validate_only: bool = False) -> None:
        v = self.av if version is None else version
        self.client.answered(ApiKey.AlterClientQuotas, v, build.alter_client_quotas(v, entries, validate_only))

    def expect_altered(self, entries, codes: list[int], says: str) -> None:
        """The last AlterClientQuotas answered one entry per entry sent, each with the model's
        code (entries told apart by their entities' names, which no two entries share: the
        answer lists them in no particular order)."""
        c = self.check
        c.expect_field(["entries", "error_code"], count=len(entries), says=f"{says}: one result per entry")
        for code in sorted(set(codes)):
            mine = [e for e, k in zip(entries, codes) if k == code]
            names = [n for e, _ in mine for _, n in e]
            what = ", ".join(show(e) for e, _ in mine)
            c.expect_field(["entries", {"error_code": code}, "error_code"], count=len(mine),
                           says=f"{says}: {len(mine)} entries answer {code} {error_name(code)} ({what})")
            c.expect_field(["entries", {"error_code": code}, "entity", "entity_name"], names, count=len(names),
                           says=f"{says}: the entries answering {code} {error_name(code)} are {what}")

    def describe_entity(self, ent: QuotaEntity, want: dict, version: int | None = None, says: str = "") -> None:
        """DescribeClientQuotas of ``ent`` with a strict filter of exact components lists the
        entity with exactly ``want`` (or nothing when ``want`` is empty)."""
        v = self.dv if version is None else version
        self.client.answered(ApiKey.DescribeClientQuotas, v, build.describe_client_quotas(
            v, [(t, MATCH_EXACT, n) for t, n in ent], True))
        c, n = self.check, 1 if want else 0
        c.expect_field(["error_code"], [Errors.NONE], says=f"DescribeClientQuotas of {show(ent)} (strict): NONE")
        c.expect_field(["entries", "values"], count=n,
                       says=f"{says}: the strict filter of {show(ent)} lists {n} entity ({show(ent)} holds {want})")
        c.expect_field(["entries", "entity", "entity_type"], count=n * len(ent),
                       says=f"{says}: the entity listed is {show(ent)}, no more components")
        for t, name in ent:
            c.expect_field(["entries", "entity", {"entity_type": t}, "entity_name"], [name], count=n,
                           says=f"{says}: the entity listed is {show(ent)}")
        c.expect_field(["entries", "values", "key"], sorted(want), count=len(want),
                       says=f"{says}: {show(ent)} holds exactly the keys {sorted(want)}")
        for k, x in sorted(want.items()):
            c.expect_field(["entries", "values", {"key": k}, "value"], [x], count=1,
                           says=f"{says}: {show(ent)} holds {k}={x}")

    def held_as(self, model: QuotaModel, entities, what: str, version: int | None = None) -> None:
        """DescribeClientQuotas of each of ``entities`` lists what the model holds, within
        VISIBLE_S (a broker applies the controller's records to its image asynchronously)."""
        def look():
            for e in entities:
                self.describe_entity(e, model.of(e), version, what)
        self.check.poll(look, within=VISIBLE_S)
