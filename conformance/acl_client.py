"""The ACL properties' client (L1-L5, and S2's ACL operations): CreateAcls, DescribeAcls and
DeleteAcls at a version, judged entry by entry, and where an answer lists a binding
(``reference/acl_rules.py`` has Kafka's rules and their sources). A broker that answers
SECURITY_DISABLED has no authorizer: ``unsupported`` with the broker's
``authorizer.class.name`` as the evidence (``reference/broker_config.py`` AUTHORIZER).
"""
from __future__ import annotations

from fixtures import acl as preset
from fixtures.admin import Admin
from fixtures.harness import Unsupported
from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors
from protocol import requests as build
from protocol.errors import error_name
from reference.acl_rules import Acl
from reference.broker_config import AUTHORIZER
from strategies import acls as gen

from .acl_model import AclModel, everything_of, show

APIS = (ApiKey.DescribeAcls, ApiKey.CreateAcls, ApiKey.DeleteAcls)


def _no_authorizer(check, path: list, said: str) -> None:
    """The last step answered SECURITY_DISABLED, Kafka's answer where no authorizer is
    configured (``AuthHelper`` / ``ControllerApis``: SecurityDisabledException): unsupported,
    with the broker's ``authorizer.class.name`` as the evidence, unless the broker shows one
    configured; then the refusal is a finding."""
    shown = AUTHORIZER.shown()
    if shown:
        check.expect_field(path, refused=[Errors.SECURITY_DISABLED],
                           says=f"{said}: no SECURITY_DISABLED, the broker shows authorizer.class.name={shown}")
    raise Unsupported(f"{said} answers SECURITY_DISABLED, Kafka's answer without an authorizer, and the broker shows "
                      + ("an empty authorizer.class.name" if shown is not None else "no authorizer.class.name")
                      + ": needs a broker with an authorizer, kafka:VERSION,preset=acl")


class Acls:
    """One check's view of the broker's ACLs: the versions it speaks besides the one judged,
    and the requests every property sends."""

    def __init__(self, check):
        for api_key in APIS:
            check.require(api_key)
        check.require_mutations()
        check.needs_config(preset.CONFIG_NOTE)
        self.check = check
        self.admin = Admin(check)
        self.client = self.admin.client
        self.cv = self.admin.version(ApiKey.CreateAcls)
        self.dv = self.admin.version(ApiKey.DescribeAcls)
        self.xv = self.admin.version(ApiKey.DeleteAcls)
        probe = self.client.answered(ApiKey.DescribeAcls, self.dv,
                                     build.describe_acl_filter(self.dv, everything_of("User:" + check.topic("u"))))
        if probe.get("error_code") == Errors.SECURITY_DISABLED:
            _no_authorizer(check, ["error_code"], f"DescribeAcls v{self.dv}")

    def names(self) -> tuple[str, str]:
        """A fresh resource-name base and principal for one example."""
        return self.check.topic("acl"), "User:" + self.check.topic("u")

    def create(self, batch: list[Acl], version: int | None = None) -> list[int]:
        v = self.cv if version is None else version
        resp = self.client.answered(ApiKey.CreateAcls, v, build.create_acl_bindings(v, batch))
        codes = [r["error_code"] for r in resp.get("results") or []]
        if codes and set(codes) == {Errors.SECURITY_DISABLED}:
            _no_authorizer(self.check, ["results", "error_code"], f"CreateAcls v{v}")
        return codes

    def describe(self, f: Acl, want: set[Acl], version: int, says: str) -> None:
        """DescribeAcls at ``version`` of the filter ``f`` answers NONE and lists exactly
        ``want``, each once (``says``: which bindings those are)."""
        self.client.answered(ApiKey.DescribeAcls, version, build.describe_acl_filter(version, f))
        c = self.check
        c.expect_field(["error_code"], [Errors.NONE], says=f"DescribeAcls of {show([f])}: NONE")
        c.expect_field(["resources", "acls", "operation"], count=len(want), says=f"{says}: {show(want)}")
        for b in want:
            c.expect_field(binding_path(b, version), count=1, says=f"{says}: {show([b])} listed once")

    def held_as(self, model: AclModel, principal: str, what: str) -> None:
        """DescribeAcls of every binding of ``principal`` lists the model's, each once, within
        VISIBLE_S (the broker's authorizer applies the controller's records asynchronously)."""
        whole = everything_of(principal)
        self.check.poll(lambda: self.describe(whole, model.held, self.dv,
                                              f"{what}: every binding of {principal}, as the model holds"),
                        within=VISIBLE_S)

    def expect_created(self, batch: list[Acl], want: list[int], says: str) -> None:
        """The last CreateAcls answered each creation of ``batch`` the model's code ``want``
        (results by place: ``CreateAclsResponse`` lists one per creation, in order)."""
        c = self.check
        c.expect_field(["results", "error_code"], count=len(batch),
                       says=f"{says}: one result per creation of {show(batch)}")
        for i, (b, code) in enumerate(zip(batch, want)):
            c.expect_field(["results", i, "error_code"], [code], count=1,
                           says=f"{says}: creation {i + 1} of {len(batch)} ({show([b])}) answers "
                                f"{code} {error_name(code)}")


def expect_deleted(check, f: Acl, want: set[Acl], version: int, says: str) -> None:
    """The last DeleteAcls (of the one filter ``f``, at ``version``) answered NONE and returned
    as deleted, each once and NONE, exactly ``want``: the held bindings ``f`` matches."""
    check.expect_field(["filter_results", "error_code"], [Errors.NONE], count=1, says=f"{says}: NONE")
    check.expect_field(["filter_results", "matching_acls", "error_code"], [Errors.NONE], count=len(want),
                       says=f"DeleteAcls of {show([f])} returns as deleted, each NONE, what of the bindings held "
                            f"the filter matches: {show(want)}")
    for b in want:
        check.expect_field(matching_path(b, version), [Errors.NONE], count=1,
                           says=f"DeleteAcls of {show([f])} returns {show([b])} as deleted once")


def binding_path(b: Acl, version: int) -> list:
    """Where a DescribeAcls answer (v0: without pattern type) lists ``b``."""
    resource = {"resource_type": int(b.resource_type), "resource_name": b.name}
    if gen.has_pattern_type(version):
        resource["pattern_type"] = int(b.pattern_type)
    return ["resources", resource, "acls", {"principal": b.principal, "host": b.host, "operation": int(b.operation),
                                            "permission_type": int(b.permission_type)}, "operation"]


def matching_path(b: Acl, version: int) -> list:
    """Where a DeleteAcls answer (one filter) returns ``b`` as deleted."""
    entry = {"resource_type": int(b.resource_type), "resource_name": b.name, "principal": b.principal,
             "host": b.host, "operation": int(b.operation), "permission_type": int(b.permission_type)}
    if gen.has_pattern_type(version):
        entry["pattern_type"] = int(b.pattern_type)
    return ["filter_results", "matching_acls", entry, "error_code"]
