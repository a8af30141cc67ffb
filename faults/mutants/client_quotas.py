"""Client quota faults (catalogue Q1-Q5): a removal that keeps the key, validate_only that
applies, a refused entry that fails the whole batch, a strict filter read as not strict, a
default filter component read as any specified name, and an alteration written back whole
from a stale per-connection copy (a concurrent writer's keys lost). Measured over
``kafka:4.4.0`` (noida and tansu do not serve the quota APIs)."""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors
from reference.quota_rules import MATCH_DEFAULT, MATCH_EXACT, MATCH_SPECIFIED, alter_code
from .mutant import KAFKA_OVER, Ignoring, Mutant, Reply, declared, mutant

OVER = KAFKA_OVER


def _entity(entry: dict) -> tuple:
    return tuple(sorted((c["entity_type"], c["entity_name"]) for c in entry.get("entity") or []))


def _ops(entry: dict) -> list:
    return [(o["key"], None if o.get("remove") else o["value"]) for o in entry.get("ops") or []]


def _held(upstream, version: int, entity: tuple) -> dict[str, float]:
    """What the broker holds for ``entity`` (a strict DescribeClientQuotas of it)."""
    resp = upstream(ApiKey.DescribeClientQuotas, 0, {"components": [
        {"entity_type": t, "match_type": MATCH_EXACT, "match": n} for t, n in entity], "strict": True})
    return {v["key"]: v["value"] for e in resp.get("entries") or [] for v in e.get("values") or []}


@mutant
class QuotaRemovalKeepsKey(Mutant):
    """AlterClientQuotas ignores removals (``remove``): the key keeps its value."""
    name = "quota-removal-keeps-key"
    catches = ("Q1",)
    apis = (ApiKey.AlterClientQuotas,)
    over = OVER

    def request(self, seen):
        entries = seen.request.get("entries") or []
        if not any(o.get("remove") for e in entries for o in e.get("ops") or []):
            return None
        return {**seen.request, "entries": [{**e, "ops": [o for o in e.get("ops") or [] if not o.get("remove")]}
                                            for e in entries]}


declared(Ignoring, "quota-validate-only-applies", """AlterClientQuotas with validate_only is executed.""",
         catches=("Q2",), apis=(ApiKey.AlterClientQuotas,), over=OVER, ignores=("validate_only", False))


@mutant
class QuotaInvalidEntryFailsTheBatch(Mutant):
    """An AlterClientQuotas with one entry Kafka refuses alone answers INVALID_REQUEST for
    every entry and applies none."""
    name = "quota-invalid-entry-fails-the-batch"
    catches = ("Q3",)
    apis = (ApiKey.AlterClientQuotas,)
    over = OVER

    def request(self, seen):
        entries = seen.request.get("entries") or []
        if all(alter_code(_entity(e), _ops(e)) == Errors.NONE for e in entries):
            return None
        return Reply({"throttle_time_ms": 0, "entries": [
            {"error_code": Errors.INVALID_REQUEST, "error_message": "refused by the mutant",
             "entity": e.get("entity") or []} for e in entries]})


declared(Ignoring, "quota-strict-filter-ignored",
         """DescribeClientQuotas reads a strict filter as not strict: entities with more
         components than the filter names are listed too.""",
         catches=("Q1", "Q4"), apis=(ApiKey.DescribeClientQuotas,), over=OVER, ignores=("strict", False))


@mutant
class QuotaDefaultMatchesAnyName(Mutant):
    """DescribeClientQuotas reads a component of match type default (1) as any specified name
    (2): named entities are listed where only the default one should be."""
    name = "quota-default-matches-any-name"
    catches = ("Q4",)
    apis = (ApiKey.DescribeClientQuotas,)
    over = OVER

    def request(self, seen):
        comps = seen.request.get("components") or []
        if not any(c.get("match_type") == MATCH_DEFAULT for c in comps):
            return None
        return {**seen.request, "components": [{**c, "match_type": MATCH_SPECIFIED}
                                               if c.get("match_type") == MATCH_DEFAULT else c for c in comps]}


@mutant
class QuotaStaleCopyWrittenBack(Mutant):
    """AlterClientQuotas is a read-modify-write on a per-connection copy of each entity's
    quotas taken at the connection's first alteration of it: after each one the copy is
    written back whole (keys it lacks removed), so another connection's keys are lost (one
    client alone sees nothing wrong)."""
    name = "quota-stale-copy-written-back"
    catches = ("Q5",)
    apis = (ApiKey.AlterClientQuotas,)
    over = OVER

    def request(self, seen):
        if seen.request.get("validate_only"):
            return None
        copies = seen.connection.setdefault("copies", {})
        for e in seen.request.get("entries") or []:
            ent = _entity(e)
            if ent and alter_code(ent, _ops(e)) == Errors.NONE and ent not in copies:
                copies[ent] = _held(self.upstream, seen.api_version, ent)
        return None

    def response(self, seen, body):
        if seen.request.get("validate_only"):
            return None
        copies = seen.connection.get("copies", {})
        ok = {_entity(r) for r in body.get("entries") or [] if r.get("error_code") == Errors.NONE}
        for e in seen.request.get("entries") or []:
            ent = _entity(e)
            if ent not in ok or ent not in copies:
                continue
            copy = copies[ent]
            for k, v in _ops(e):
                if v is None:
                    copy.pop(k, None)
                else:
                    copy[k] = v
            now = _held(self.upstream, seen.api_version, ent)
            ops = [{"key": k, "value": v, "remove": False} for k, v in copy.items()]
            ops += [{"key": k, "value": 0.0, "remove": True} for k in now if k not in copy]
            self.upstream(ApiKey.AlterClientQuotas, seen.api_version,
                          {"entries": [{"entity": e.get("entity") or [], "ops": ops}], "validate_only": False})
        return None
