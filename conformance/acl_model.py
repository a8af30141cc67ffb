"""The model the ACL properties (catalogue L) check a broker against: the set of bindings
it holds, changed by CreateAcls and DeleteAcls as Kafka's controller changes it and read
through DescribeAcls as Kafka's authorizer lists it (``reference/acl_rules.py`` has the
rules and their sources).

Strategies draw bindings and filters on placeholder names (:data:`BASE`, :data:`PRINCIPAL`);
:func:`named` puts one example's fresh names in their place.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from protocol import Errors
from protocol.requests import AclOperation, AclPatternType, AclPermission, AclResourceType
from reference.acl_rules import Acl, matching, refusal
from strategies.acls import BASE, PRINCIPAL



def named(acl: Acl, base: str, principal: str) -> Acl:
    """``acl`` with the placeholders replaced by one example's names."""
    name = acl.name if acl.name is None or not acl.name.startswith(BASE) else base + acl.name[len(BASE):]
    return acl._replace(name=name, principal=principal if acl.principal == PRINCIPAL else acl.principal)


def everything_of(principal: str) -> Acl:
    """The filter of every binding of ``principal``."""
    return Acl(AclResourceType.ANY, None, AclPatternType.ANY, principal, None, AclOperation.ANY, AclPermission.ANY)


def show(acls) -> str:
    """Bindings as Kafka names their parts, sorted."""
    def one(b: Acl) -> str:
        def name(enum, code):
            try:
                return enum(code).name
            except ValueError:
                return str(code)
        return (f"({name(AclResourceType, b.resource_type)} {b.name!r} {name(AclPatternType, b.pattern_type)} "
                f"{b.principal} {b.host} {name(AclOperation, b.operation)} {name(AclPermission, b.permission_type)})")
    return "[" + ", ".join(sorted(one(b) for b in acls)) + "]"


@dataclass
class AclModel:
    """The bindings a broker holds (of the principals a check made up)."""
    held: set[Acl] = field(default_factory=set)

    def create(self, batch: list[Acl]) -> list[int]:
        """The code of each creation (INVALID_REQUEST for a refused one, alone; NONE for the
        others, a binding held already too); the valid ones are held afterwards. A binding
        with ANY or MATCH is refused alone as well (``validateNewAcl``: Kafka's intent;
        released Kafka fails its whole request, the known deviation
        ``create-acls-any-or-match-binding-fails-the-whole-request``)."""
        codes = []
        for b in batch:
            if refusal(b) is None:
                self.held.add(b)
                codes.append(Errors.NONE)
            else:
                codes.append(Errors.INVALID_REQUEST)
        return codes

    def describe(self, f: Acl) -> set[Acl]:
        return matching(f, self.held)

    def delete(self, f: Acl) -> set[Acl]:
        gone = matching(f, self.held)
        self.held -= gone
        return gone


__all__ = ["AclModel", "everything_of", "named", "show"]
