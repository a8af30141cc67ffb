"""S2's operations on ACLs: CreateAcls and DeleteAcls (KIP-140 "Add administrative RPCs for
adding, deleting, and listing ACLs"; prefixed bindings from v1: KIP-290 "Support for Prefixed
ACLs"), on the example's principals ``User:SUB-u1``/``-u2`` and its topics and groups, judged
as the ACL properties judge them (``conformance/acl_client.py``; Kafka's rules and their
sources in ``reference/acl_rules.py``: ``AclControlManager.createAcls`` /
``deleteAclsForFilter``, ``ResourcePatternFilter.matches``). DescribeAcls is the family's
invariant (``plane_invariants.py``).
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol import ApiKey, Errors
from protocol import requests as build
from protocol.requests import AclOperation, AclPatternType, AclPermission, AclResourceType
from reference.acl_rules import Acl
from strategies import acls as acl_draws
from strategies import admin_plane as draws

from ..acl_client import expect_deleted
from ..acl_model import show
from .operation import FamilyOperation

_TYPES = {"topic": AclResourceType.TOPIC, "group": AclResourceType.GROUP, "any": AclResourceType.ANY}


def binding(m, b: dict, v: int) -> Acl:
    """A drawn binding on the example's names: a topic or group of it (literal), or every
    topic of it (prefixed by the sub-prefix; at a version without pattern types, literal
    ``SUB-``, which names no topic)."""
    prefixed = b["res"] == "prefixed" and acl_draws.has_pattern_type(v)
    kind = "topic" if b["res"] == "prefixed" else b["res"]
    name = m.sub + "-" if b["res"] == "prefixed" else m.name(b["slot"])
    return Acl(_TYPES[kind], name, AclPatternType.PREFIXED if prefixed else AclPatternType.LITERAL,
               m.principal(b["user"]), "*", b["op"], b["perm"])


def acl_filter(m, f: dict, v: int) -> Acl:
    """A drawn filter: always of one of the example's principals (so it matches nothing
    outside the example); of one resource of it, or any."""
    literal = not acl_draws.has_pattern_type(v)
    if f["res"] == "any":
        return Acl(AclResourceType.ANY, None, AclPatternType.LITERAL if literal else AclPatternType.ANY,
                   m.principal(f["user"]), None, f["op"], AclPermission.ANY)
    return Acl(_TYPES[f["res"]], m.name(f["slot"]), AclPatternType.LITERAL if literal else AclPatternType.ANY,
               m.principal(f["user"]), None, f["op"], AclPermission.ANY)


class CreateAcls(FamilyOperation):
    api = ApiKey.CreateAcls
    family = "acls"
    field = "bindings"

    def draw(self, s, focused=False):
        item = draws.resource().flatmap(lambda res: st.fixed_dictionaries({
            **{k: st.just(v) for k, v in res.items()}, "user": draws.USERS,
            "op": st.sampled_from((AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE, AclOperation.ALL)),
            "perm": st.sampled_from((AclPermission.ALLOW, AclPermission.DENY))}))
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "bindings": st.lists(item, min_size=1, max_size=2)})

    def render(self, op, n):
        return "bindings: [" + ", ".join(f"{b['res']} {n(b.get('slot', ''))} {n(b['user'])} "
                                         f"{AclOperation(b['op']).name} {AclPermission(b['perm']).name}"
                                         for b in op["bindings"]) + "]"

    def perform(self, run, op, line):
        m, v, acls = run.model, op["v"], run.row.acls
        batch = [binding(m, b, v) for b in op["bindings"]]
        run.send(self.api, v, build.create_acl_bindings(v, batch), line)
        codes = m.acls.create(list(batch))
        with run.judging(lambda: f"{line} -> not as the model: {codes}"):
            acls.expect_created(batch, codes, f"CreateAcls v{v}")
        self.settled(run, line, ", ".join(Errors(c).name for c in codes))


class DeleteAcls(FamilyOperation):
    api = ApiKey.DeleteAcls
    family = "acls"
    field = "filters"

    def draw(self, s, focused=False):
        item = draws.resource(prefixed=False, any_=True).flatmap(lambda res: st.fixed_dictionaries({
            **{k: st.just(v) for k, v in res.items()}, "user": draws.USERS,
            "op": st.sampled_from((AclOperation.ANY, AclOperation.READ, AclOperation.ALL))}))
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "filters": st.lists(item, min_size=1, max_size=1)})

    def render(self, op, n):
        return "filters: [" + ", ".join(f"{f['res']} {'' if f['res'] == 'any' else n(f['slot']) + ' '}"
                                        f"{n(f['user'])} {AclOperation(f['op']).name}" for f in op["filters"]) + "]"

    def perform(self, run, op, line):
        m, v, check = run.model, op["v"], run.check
        f = acl_filter(m, op["filters"][0], v)
        run.send(self.api, v, build.delete_acl_filters(v, [f]), line)
        want = m.acls.delete(f)
        with run.judging(lambda: f"{line} -> not as the model: deletes {show(want)}"):
            expect_deleted(check, f, want, v, f"DeleteAcls v{v} of {show([f])}")
        self.settled(run, line, f"NONE, {len(want)} deleted")
