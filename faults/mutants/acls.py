"""ACL faults (catalogue L1-L5): filter matching that forgets a pattern type, a DeleteAcls
that removes more than it reports, a CreateAcls that adds a binding it holds already again,
and invalid bindings judged for the whole batch where Kafka refuses them alone; and a shim
answering an ANY or MATCH binding as Kafka means to (alone), where released Kafka fails the
whole request (a known deviation).
Measured over ``kafka:4.4.0,preset=acl`` (the only target with an authorizer; the proxy
forwards the SASL handshake untouched, and its side channel speaks as the suite's super
user)."""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors
from protocol.requests import AclPatternType
from reference.acl_rules import Acl, refusal, unrepresentable
from .mutant import KAFKA_OVER, Mutant, Reply, mutant

OVER = f"{KAFKA_OVER},preset=acl"


def _creations(request: dict) -> list[Acl]:
    return [Acl(c["resource_type"], c["resource_name"], c.get("resource_pattern_type", AclPatternType.LITERAL),
                c["principal"], c["host"], c["operation"], c["permission_type"])
            for c in request.get("creations") or []]


def _answer(codes: list[int]) -> dict:
    return {"throttle_time_ms": 0,
            "results": [{"error_code": c, "error_message": None if c == Errors.NONE else "refused by the mutant"}
                        for c in codes]}


@mutant
class DescribeAclsMatchIgnoresPrefixed(Mutant):
    """DescribeAcls with a MATCH filter leaves out the PREFIXED bindings it matches (only
    LITERAL ones by name, as if MATCH were LITERAL plus the wildcard)."""
    name = "describe-acls-match-ignores-prefixed"
    catches = ("L1",)
    apis = (ApiKey.DescribeAcls,)
    over = OVER

    def response(self, seen, body):
        if seen.request.get("pattern_type_filter") != AclPatternType.MATCH:
            return None
        kept = [r for r in body.get("resources") or [] if r.get("pattern_type") != AclPatternType.PREFIXED]
        return {**body, "resources": kept}


@mutant
class DeleteAclsReturnsFewer(Mutant):
    """DeleteAcls deletes every binding a filter matches but returns one fewer of them."""
    name = "delete-acls-returns-fewer"
    catches = ("L2", "L5")
    apis = (ApiKey.DeleteAcls,)
    over = OVER

    def response(self, seen, body):
        results = body.get("filter_results") or []
        if not any(r.get("matching_acls") for r in results):
            return None
        return {**body, "filter_results": [{**r, "matching_acls": (r.get("matching_acls") or [])[:-1]}
                                           for r in results]}


@mutant
class CreateAclsFailsTheBatch(Mutant):
    """CreateAcls refuses a whole batch with INVALID_REQUEST for one binding Kafka refuses
    alone (a CLUSTER resource not named kafka-cluster, an unknown code): nothing of it is
    created."""
    name = "create-acls-fails-the-batch"
    catches = ("L4", "L5")
    apis = (ApiKey.CreateAcls,)
    over = OVER

    def request(self, seen):
        batch = _creations(seen.request)
        if any(unrepresentable(b) for b in batch) or not any(refusal(b) for b in batch):
            return None
        return Reply(_answer([Errors.INVALID_REQUEST] * len(batch)))


@mutant
class CreateAclsRefusesAnyAlone(Mutant):
    """Not a fault: CreateAcls refuses a binding with ANY or MATCH alone (INVALID_REQUEST, as
    validateNewAcl means) and creates the others, where released Kafka fails the whole
    request (the known deviation create-acls-any-or-match-binding-fails-the-whole-request):
    Kafka answering as it means to, which L4's dedicated check passes."""
    name = "create-acls-refuses-any-alone"
    catches = ("-",)
    apis = (ApiKey.CreateAcls,)
    over = OVER
    shim = True

    def request(self, seen):
        batch = _creations(seen.request)
        if not any(unrepresentable(b) for b in batch):
            return None
        keep = [c for c, b in zip(seen.request["creations"], batch) if not unrepresentable(b)]
        created = iter(self.upstream(ApiKey.CreateAcls, seen.api_version, {**seen.request, "creations": keep})
                       .get("results") or [])
        return Reply(_answer([Errors.INVALID_REQUEST if unrepresentable(b) else next(created)["error_code"]
                              for b in batch]))


@mutant
class CreateAclsAddsTwice(Mutant):
    """A binding created while it is held already is held twice: DescribeAcls lists it
    once per creation."""
    name = "create-acls-adds-twice"
    catches = ("L3",)
    apis = (ApiKey.CreateAcls, ApiKey.DescribeAcls)
    over = OVER

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.created: dict[Acl, int] = {}

    def response(self, seen, body):
        if seen.api_key == ApiKey.CreateAcls:
            for b, r in zip(_creations(seen.request), body.get("results") or []):
                if r.get("error_code") == Errors.NONE:
                    self.created[b] = self.created.get(b, 0) + 1
            return None

        def times(r, a) -> int:
            b = Acl(r["resource_type"], r["resource_name"], r.get("pattern_type", AclPatternType.LITERAL),
                    a["principal"], a["host"], a["operation"], a["permission_type"])
            return max(1, self.created.get(b, 1))
        resources = [{**r, "acls": [a for a in r.get("acls") or [] for _ in range(times(r, a))]}
                     for r in body.get("resources") or []]
        return {**body, "resources": resources}
