"""L1-L5: ACLs (CreateAcls, DescribeAcls, DeleteAcls) as released Apache Kafka keeps them.

Kafka's rules, with their sources, are in ``reference/acl_rules.py`` and the model the
answers are held to in ``conformance/acl_model.py``: a filter reaches a binding as
``AclBindingFilter.matches`` says (``ResourcePatternFilter.matches``: LITERAL and PREFIXED
filters by equal name, MATCH by the names a binding would authorize, ANY by equal name of
any pattern type; ``AccessControlEntryFilter.matches``); DescribeAcls lists exactly the
bindings its filter reaches (``StandardAuthorizerData.acls``); DeleteAcls removes and
returns exactly those (``AclControlManager.deleteAclsForFilter``); CreateAcls adds a
binding held already no second time (``AclControlManager.createAcls``) and refuses an
invalid binding alone (``AclApis.handleCreateAcls``, ``AclControlManager.validateNewAcl``).

Each example makes up its own principal (``User:`` + a run-prefixed name) and resource names
(run-prefixed, a chain of names that prefix one another); every filter names that
principal, so whatever it matches is the example's own, on a shared cluster too.

The broker must authorize: ``kafka:VERSION,preset=acl`` (or any broker whose CreateAcls
does not answer SECURITY_DISABLED). A broker that does not advertise one of the three APIs
answers ``unsupported`` naming it.
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures.harness import Unsupported
from protocol import ApiKey, Errors
from protocol import requests as build
from protocol.requests import AclOperation, AclPatternType, AclPermission, AclResourceType
from reference import known_deviations
from reference.acl_rules import Acl, unrepresentable
from strategies import acls as gen

from .acl_model import AclModel, everything_of, named, show
from .acl_client import Acls, expect_deleted, matching_path
from .parametrize import every_api, every_version
from protocol.kafka_sources import KAFKA

RULES = (KAFKA + "clients/src/main/java/org/apache/kafka/common/resource/ResourcePatternFilter.java (matches); "
         + KAFKA + "clients/src/main/java/org/apache/kafka/common/acl/AccessControlEntryFilter.java (matches)")
DESCRIBE_SOURCE = RULES + "; " + KAFKA + ("metadata/src/main/java/org/apache/kafka/metadata/authorizer/"
                                          "StandardAuthorizerData.java (acls)")
DELETE_SOURCE = RULES + "; " + KAFKA + ("metadata/src/main/java/org/apache/kafka/controller/AclControlManager.java "
                                        "(deleteAclsForFilter)")
CREATE_SOURCE = KAFKA + "metadata/src/main/java/org/apache/kafka/controller/AclControlManager.java (createAcls)"
INVALID_SOURCE = (KAFKA + "core/src/main/scala/kafka/server/AclApis.scala (handleCreateAcls); " + KAFKA
                  + "metadata/src/main/java/org/apache/kafka/controller/AclControlManager.java (validateNewAcl)")
STATEFUL_SOURCE = DELETE_SOURCE + "; " + INVALID_SOURCE
#: the three ACL APIs, each check needs them all
#: every check of the family needs an authorizer: on Kafka, preset=acl (fixtures/companions.py)
pytestmark = pytest.mark.needs_broker("preset=acl")


def _example(acls: Acls, value: dict) -> tuple[AclModel, list[Acl], str, list[Acl]]:
    """Create the example's bindings (named) and check they are held; the model, the
    bindings, the principal and the example's filters."""
    base, principal = acls.names()
    bindings = [named(b, base, principal) for b in value["bindings"]]
    model = AclModel()
    acls.create(bindings)
    want = model.create(bindings)
    acls.expect_created(bindings, want, "Kafka creates each valid binding")
    acls.held_as(model, principal, "after CreateAcls")
    return model, bindings, principal, [named(f, base, principal) for f in value.get("filters", [])]


def _with_filters(created_at: int, version: int, size: int = 4):
    """Bindings CreateAcls ``created_at`` can carry, and filters a request at ``version`` can."""
    return gen.bindings(created_at).flatmap(lambda bs: st.fixed_dictionaries(
        {"bindings": st.just(bs), "filters": st.lists(gen.filters(bs, version), min_size=1, max_size=size)}))


def _first(created_at: int, version: int) -> dict:
    """The example every L1/L2 run asks first: PREFIXED and LITERAL bindings on names that
    prefix one another, a MATCH filter that reaches two of them and a filter of every binding
    of the principal (LITERAL only where the version has no pattern type)."""
    prefixed = AclPatternType.PREFIXED if gen.has_pattern_type(created_at) else AclPatternType.LITERAL
    b = [Acl(AclResourceType.TOPIC, gen.BASE + "-a", prefixed, gen.PRINCIPAL, "*", AclOperation.READ,
             AclPermission.ALLOW),
         Acl(AclResourceType.TOPIC, gen.BASE + "-a-b", AclPatternType.LITERAL, gen.PRINCIPAL, "*",
             AclOperation.READ, AclPermission.ALLOW),
         Acl(AclResourceType.GROUP, gen.BASE, prefixed, gen.PRINCIPAL, "192.0.2.7", AclOperation.WRITE,
             AclPermission.DENY)]
    match = AclPatternType.MATCH if gen.has_pattern_type(version) else AclPatternType.LITERAL
    every = AclPatternType.ANY if gen.has_pattern_type(version) else AclPatternType.LITERAL
    return {"bindings": b, "filters": [b[1]._replace(pattern_type=match), everything_of(gen.PRINCIPAL)._replace(
        pattern_type=every)]}


@pytest.mark.prop("L1", source=DESCRIBE_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DescribeAcls,)))
def test_l1_describe_acls_lists_exactly_the_bindings_its_filter_matches(check, api_key, version):
    """After CreateAcls of a few bindings (LITERAL and PREFIXED, on names that prefix one
    another), DescribeAcls at this version of each drawn filter (exact, ANY, MATCH, LITERAL,
    PREFIXED, with "any" or other values in each field) lists exactly the created bindings
    the filter matches, each once, and no other. DescribeAcls v0 has no pattern type: its
    filter is LITERAL, so it never lists a PREFIXED binding (versions without pattern types
    cannot express PREFIXED)."""
    check.require(api_key, version)
    acls = Acls(check)

    def judged(value):
        model, _, _, filters = _example(acls, value)
        for f in filters:
            acls.describe(f, model.describe(f), version, f"of the bindings created, the ones {show([f])} matches")

    check.given(_with_filters(acls.cv, version), judged, first=_first(acls.cv, version))


@pytest.mark.prop("L2", source=DELETE_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DeleteAcls,)))
def test_l2_delete_acls_removes_and_returns_exactly_the_bindings_its_filter_matches(check, api_key, version):
    """After CreateAcls of a few bindings, each drawn filter is sent alone in a DeleteAcls at
    this version: the filter answers NONE and returns exactly the held bindings it matches
    (each once, each NONE), and afterwards DescribeAcls lists exactly the bindings left.
    DeleteAcls v0 has no pattern type: its filter is LITERAL and never removes a PREFIXED
    binding."""
    check.require(api_key, version)
    acls = Acls(check)

    def judged(value):
        model, _, principal, filters = _example(acls, value)
        for f in filters:
            acls.client.answered(ApiKey.DeleteAcls, version, build.delete_acl_filters(version, [f]))
            expect_deleted(check, f, model.delete(f), version, f"DeleteAcls v{version} of {show([f])}")
            acls.held_as(model, principal, f"after DeleteAcls of {show([f])}")

    check.given(_with_filters(acls.cv, version), judged, first=_first(acls.cv, version))


@pytest.mark.prop("L3", source=CREATE_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.CreateAcls,)))
def test_l3_creating_a_binding_twice_leaves_one(check, api_key, version):
    """CreateAcls at this version of bindings held already (a second request, and the same
    binding twice in one request) answers NONE for each, and DescribeAcls lists every
    binding once (``AclControlManager.createAcls`` adds a binding it holds no second time)."""
    check.require(api_key, version)
    acls = Acls(check)

    def judged(value):
        base, principal = acls.names()
        bindings = [named(b, base, principal) for b in value]
        model = AclModel()
        for batch in (bindings, bindings + bindings[:1]):
            acls.create(batch, version)
            want = model.create(batch)
            acls.expect_created(batch, want, "Kafka creates a binding held already without an error")
        acls.held_as(model, principal, "after creating each binding twice")

    check.given(gen.bindings(version, max_size=3), judged)


_PROBE = Acl(AclResourceType.TOPIC, "t", AclPatternType.LITERAL, "User:u", "*", AclOperation.READ, AclPermission.ALLOW)
#: the invalid kinds released Kafka cannot make a binding of (ANY, MATCH): it fails their whole
#: request, the known deviation ANY_OR_MATCH (reference/acl_rules.py ``unrepresentable``)
WHOLE_KINDS = tuple(k for k, (change, _) in gen.INVALID.items() if unrepresentable(change(_PROBE)))
ANY_OR_MATCH = "create-acls-any-or-match-binding-fails-the-whole-request"


def _kinds():
    """The invalid kinds Kafka refuses alone (the others: WHOLE_KINDS)."""
    return [pytest.param(k, id=k) for k in gen.INVALID if k not in WHOLE_KINDS]


def _carried(version: int, kind: str) -> None:
    """Unsupported where CreateAcls at this version cannot carry the ``kind`` of binding."""
    if version < gen.INVALID[kind][1]:
        raise Unsupported(f"CreateAcls v{version} cannot carry the kind {kind!r} (no pattern type before v1)")


def _invalid_batch(acls, kind, value):
    """The example's named valid bindings and its batch with the ``kind`` of invalid binding
    inserted."""
    change = gen.INVALID[kind][0]
    base, principal = acls.names()
    bindings = [named(b, base, principal) for b in value["bindings"]]
    batch = list(bindings)
    batch.insert(value["at"] % (len(batch) + 1), change(bindings[0]))
    return bindings, batch, principal


def _invalid_examples(version: int):
    return st.fixed_dictionaries({"bindings": gen.bindings(version, max_size=3), "at": st.integers(0, 3)})


@pytest.mark.prop("L4", source=INVALID_SOURCE)
@pytest.mark.parametrize("kind", _kinds())
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.CreateAcls,)))
def test_l4_an_invalid_binding_fails_alone_and_the_others_are_created(check, api_key, version, kind):
    """One invalid binding among valid ones in a CreateAcls at this version (``kind``: a
    CLUSTER resource not named kafka-cluster, or a code no resource type / pattern type /
    operation / permission has, which Kafka reads as UNKNOWN) answers INVALID_REQUEST; every
    other binding answers NONE and is held afterwards."""
    _invalid(check, api_key, version, kind, "refuses the {kind} alone", lambda bindings, batch: [
        (["results", {"error_code": Errors.INVALID_REQUEST}, "error_code"], None, 1),
        (["results", {"error_code": Errors.NONE}, "error_code"], None, len(bindings))])


@pytest.mark.prop("L4", source=INVALID_SOURCE + "; " + KAFKA
                  + "clients/src/main/java/org/apache/kafka/common/requests/CreateAclsRequest.java "
                    "(aclBinding, getErrorResponse); known deviation " + ANY_OR_MATCH)
@pytest.mark.known_deviation(ANY_OR_MATCH)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.CreateAcls,)))
def test_l4_a_binding_with_any_or_match_is_refused_alone_and_the_others_are_created(check, api_key, version):
    """One binding with ANY (resource type, pattern type, operation or permission) or a
    MATCH pattern type among valid ones in a CreateAcls at this version answers
    INVALID_REQUEST; every other binding answers NONE and is held afterwards. That is
    Kafka's intent: ``AclControlManager.validateNewAcl`` refuses each of these values for
    its binding alone. Released Kafka turns every creation into an AclBinding before it
    validates any (``AclApis.handleCreateAcls``, ``CreateAclsRequest.aclBinding``),
    ``ResourcePattern`` and ``AccessControlEntry`` throw IllegalArgumentException for these
    values, and the error path answers UNKNOWN_SERVER_ERROR for every creation, creating
    none: the known deviation ``create-acls-any-or-match-binding-fails-the-whole-request``.
    This check draws that shape at every version on every broker, every run; L5 leaves it
    out where the entry names the broker."""
    check.require(api_key, version)
    kinds = [k for k in WHOLE_KINDS if version >= gen.INVALID[k][1]]
    _invalid(check, api_key, version, st.sampled_from(kinds), "refuses the {kind} alone", lambda bindings, batch: [
        (["results", {"error_code": Errors.INVALID_REQUEST}, "error_code"], None, 1),
        (["results", {"error_code": Errors.NONE}, "error_code"], None, len(bindings))])


def _invalid(check, api_key, version, kind, kafka: str, fields) -> None:
    """L4: CreateAcls at ``version`` of valid bindings with one of ``kind`` (a kind, or a
    strategy of kinds) answers the model's codes (``fields(bindings, batch)``: their data
    form, ``(path, allowed, count)``), and afterwards DescribeAcls lists what the model holds."""
    check.require(api_key, version)
    acls = Acls(check)
    if isinstance(kind, str):
        _carried(version, kind)
        examples = _invalid_examples(version).map(lambda v: {**v, "kind": kind})
    else:
        examples = kind.flatmap(lambda k: _invalid_examples(version).map(lambda v, k=k: {**v, "kind": k}))

    def judged(value):
        kind = value["kind"]
        bindings, batch, principal = _invalid_batch(acls, kind, value)
        model = AclModel()
        acls.create(batch, version)
        want = model.create(batch)
        for path, allowed, count in fields(bindings, batch):
            check.expect_field(path, allowed, count=count)
        acls.expect_created(batch, want, "Kafka " + kafka.format(kind=kind))
        acls.held_as(model, principal, f"after CreateAcls with a {kind}")

    check.given(examples, judged)


#: the refused bindings the stateful run mixes in
STATEFUL_KINDS = tuple(gen.INVALID)


def _stateful_kinds(check) -> tuple[str, ...]:
    """STATEFUL_KINDS, without the ANY and MATCH ones where the known deviation ANY_OR_MATCH
    names the broker (its dedicated check asks them; reference/known_deviations.py)."""
    if known_deviations.CREATE_ACLS_ANY_OR_MATCH in check.avoided_shapes:
        return tuple(k for k in STATEFUL_KINDS if k not in WHOLE_KINDS)
    return STATEFUL_KINDS


@pytest.mark.prop("L5", source=STATEFUL_SOURCE)
@pytest.mark.parametrize("api_key,version", every_api((ApiKey.CreateAcls,)))
def test_l5_creates_and_deletes_keep_describe_acls_equal_to_the_model(check, api_key, version):
    """A random sequence of CreateAcls (with repeated and refused bindings) and DeleteAcls
    (one filter each) on one principal's bindings: after every step each answer is the
    model's (the creation codes; the bindings a delete returns) and DescribeAcls of every
    binding of the principal lists exactly the model's."""
    acls = Acls(check)

    def judged(steps):
        base, principal = acls.names()
        model = AclModel()
        for n, (op, arg) in enumerate(steps, 1):
            if op == "create":
                batch = [named(b, base, principal) for b in arg]
                acls.create(batch)
                want = model.create(batch)
                check.expect_field(["results", {"error_code": Errors.NONE}, "error_code"],
                                   count=want.count(Errors.NONE))
                acls.expect_created(batch, want, f"step {n}: as the model")
            else:
                f = named(arg, base, principal)
                acls.client.answered(ApiKey.DeleteAcls, acls.xv, build.delete_acl_filters(acls.xv, [f]))
                want = model.delete(f)
                check.expect_field(["filter_results", "matching_acls", "error_code"], [Errors.NONE], count=len(want),
                                   says=f"step {n}: DeleteAcls of {show([f])} returns as deleted what the model "
                                        f"does: {show(want)}")
                for b in want:
                    check.expect_field(matching_path(b, acls.xv), [Errors.NONE], count=1,
                                       says=f"step {n}: DeleteAcls of {show([f])} returns {show([b])} as deleted once")
            acls.held_as(model, principal, f"after step {n} ({op})")

    kinds = _stateful_kinds(check)
    check.given(gen.ops(acls.cv, kinds), judged, first=_stateful_first(acls.cv, kinds))


def _stateful_first(version: int, kinds=STATEFUL_KINDS) -> list:
    """The sequence every L5 run asks first: two creations, the same with a binding CLUSTER
    not named kafka-cluster, then with an ANY operation (where ``kinds`` has it), each
    refused alone, and a delete of them all."""
    b = _first(version, version)["bindings"][:2]
    alone = "CLUSTER resource not named kafka-cluster"
    anything = "ANY operation"
    return [("create", b), ("create", [gen.INVALID[alone][0](b[0]), *b])] + (
        [("create", [gen.INVALID[anything][0](b[0]), b[1]])] if anything in kinds else []) + [
        ("delete", everything_of(gen.PRINCIPAL)._replace(pattern_type=AclPatternType.ANY if gen.has_pattern_type(version)
                                                         else AclPatternType.LITERAL))]
