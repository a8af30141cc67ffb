"""Q1-Q5: client quotas (DescribeClientQuotas, AlterClientQuotas) as released Apache Kafka
keeps them.

Kafka's rules, with their sources, are in ``reference/quota_rules.py`` and the model the
answers are held to in ``conformance/quota_model.py``: AlterClientQuotas sets and removes
(``remove``) the keys of each entry's entity, refusing an invalid entry alone with
INVALID_REQUEST (``ClientQuotaControlManager.alterClientQuotas``,
``alterClientQuotaEntity``, ``validateEntity``, ``configKeysForEntityType``,
``validateQuotaKeyValue``); ``validate_only`` answers the same and writes nothing
(``QuorumController.alterClientQuotas``: the result without its records);
DescribeClientQuotas lists the entities its filter matches with their values
(``ClientQuotasImage.describe`` and ``matches``).

Each example makes up its own entities (users and client ids named with the run prefix);
every filter has an exact component naming one of them, so what it matches is the example's
own, on a shared cluster too, and the end-of-run clean-up removes them
(``fixtures/leftovers.py``). No default (null-named) entity is altered.

A broker that does not advertise one of the two APIs answers ``unsupported`` naming it.
"""
from __future__ import annotations

import threading

import pytest

from protocol import ApiKey, Errors
from protocol import requests as build
from reference.quota_rules import CLIENT_ID, ENTITY_TYPES, IP, MATCH_EXACT, USER, QuotaEntity
from strategies import client_quotas as gen

from .parametrize import every_version
from .quota_model import QuotaModel, show
from .quota_client import APIS, Quotas, entity_of
from protocol.kafka_sources import KAFKA

CQCM = KAFKA + "metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java"
IMAGE = KAFKA + "metadata/src/main/java/org/apache/kafka/image/ClientQuotasImage.java (describe, matches)"
ALTER_SOURCE = CQCM + " (alterClientQuotas, alterClientQuotaEntity); " + IMAGE
VALIDATE_SOURCE = (KAFKA + "metadata/src/main/java/org/apache/kafka/controller/QuorumController.java "
                   "(alterClientQuotas: validateOnly returns the result without its records); " + CQCM
                   + " (alterClientQuotas)")
INVALID_SOURCE = (CQCM + " (alterClientQuotas, validateEntity, configKeysForEntityType, validateQuotaKeyValue); "
                  + KAFKA + "server-common/src/main/java/org/apache/kafka/server/config/QuotaConfig.java "
                  "(userAndClientQuotaConfigs, ipConfigs)")


def _describable(ent: QuotaEntity) -> bool:
    types = [t for t, _ in ent]
    return bool(ent) and set(types) <= set(ENTITY_TYPES) and IP not in types


def _ops(ops) -> list[tuple]:
    return [tuple(o) for o in ops]


def _with_invalid(quotas: Quotas, valid: list, value: dict) -> list:
    """``valid`` with the example's refused entry (``kind``, on names of its own) inserted at
    ``at``, or ``valid`` itself without a kind."""
    if value.get("kind") is None:
        return list(valid)
    e, ops = quotas.named(list(gen.INVALID[value["kind"]]))
    batch = list(valid)
    batch.insert(value["at"] % (len(batch) + 1), (entity_of(e), _ops(ops)))
    return batch


def _q1_first() -> dict:
    """The example every Q1 run asks first: a user's keys set, one changed and one removed,
    then the last removed (the entity is gone)."""
    return {"entity": [[USER, "@u0"]],
            "steps": [[["producer_byte_rate", 1048576.0], ["request_percentage", 12.5]],
                      [["producer_byte_rate", 2097152.0], ["request_percentage", None], ["consumer_byte_rate", None]],
                      [["producer_byte_rate", None]]]}


@pytest.mark.prop("Q1", source=ALTER_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version(APIS))
def test_q1_alter_then_strict_describe_gives_exactly_what_was_set(check, api_key, version):
    """A sequence of AlterClientQuotas of one entity (a user, a client id, or both; sets and
    removals): each answers NONE, and afterwards DescribeClientQuotas with a strict filter of
    that entity lists exactly the keys and values set and not removed (nothing once every key
    is removed). The API judged is asked at this version, the other at the highest both
    sides speak."""
    check.require(api_key, version)
    quotas = Quotas(check)
    av = version if api_key == ApiKey.AlterClientQuotas else None
    dv = version if api_key == ApiKey.DescribeClientQuotas else None

    def judged(value):
        ent = entity_of(quotas.named(value["entity"]))
        # a neighbour holding a key: the entity with a client id added, or the user alone, so a
        # filter that is not strict would list it too
        if len(ent) == 1:
            other = CLIENT_ID if ent[0][0] == USER else USER
            neighbour = entity_of([*ent, (other, check.topic("qn"))])
        else:
            neighbour = entity_of([c for c in ent if c[0] == USER])
        model = QuotaModel()
        quotas.alter([(neighbour, [("consumer_byte_rate", 4096.0)])])
        quotas.expect_altered([(neighbour, [])], model.alter([(neighbour, [("consumer_byte_rate", 4096.0)])]),
                              f"AlterClientQuotas of the neighbour {show(neighbour)}")
        for n, ops in enumerate(value["steps"], 1):
            ops = _ops(ops)
            quotas.alter([(ent, ops)], av)
            quotas.expect_altered([(ent, ops)], model.alter([(ent, ops)]), f"step {n}: AlterClientQuotas of {ops}")
            quotas.held_as(model, [ent], f"after step {n} ({ops})", dv)

    check.given(gen.q1_sequences(), judged, first=_q1_first())


@pytest.mark.prop("Q2", source=VALIDATE_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.AlterClientQuotas,)))
def test_q2_validate_only_changes_nothing_and_answers_as_executed(check, api_key, version):
    """Entities are given quotas; then a batch of sets and removals on them (perhaps with one
    entry Kafka refuses) is sent with validate_only at this version: each entry answers the
    model's code, and, once a later executed alteration is visible, DescribeClientQuotas
    shows every entity as before. The same batch executed answers the same codes, and its
    changes are described afterwards."""
    check.require(api_key, version)
    quotas = Quotas(check)

    def judged(value):
        initial = [(entity_of(e), _ops(ops)) for e, ops in quotas.named(value["initial"])]
        model = QuotaModel()
        quotas.alter(initial)
        quotas.expect_altered(initial, model.alter(initial), "the initial AlterClientQuotas")
        ents = [e for e, _ in initial]
        quotas.held_as(model, ents, "after the initial AlterClientQuotas")
        batch = _with_invalid(quotas, [(e, _ops(ops)) for e, ops in zip(ents, value["ops"])], value)
        quotas.alter(batch, version, validate_only=True)
        dry = check.last_step
        codes = model.alter(batch, validate_only=True)
        quotas.expect_altered(batch, codes, "AlterClientQuotas with validate_only")
        marker = entity_of([(USER, check.topic("qm"))])
        quotas.alter([(marker, [("request_percentage", 1.0)])])
        model.alter([(marker, [("request_percentage", 1.0)])])
        quotas.held_as(model, [marker, *ents], "after the validate_only AlterClientQuotas (and a later "
                                               "executed one, now visible): nothing it asked changed")
        quotas.alter(batch, version)
        quotas.expect_altered(batch, model.alter(batch), "the same AlterClientQuotas executed")
        check.expect_same(["entries", "error_code"], dry,
                          says="the executed request answers the codes the validate_only one did")
        quotas.held_as(model, ents, "after the executed AlterClientQuotas")

    check.given(gen.validate_only_cases(), judged)


@pytest.mark.prop("Q3", source=INVALID_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.AlterClientQuotas,)))
def test_q3_an_invalid_entry_fails_alone_and_the_others_are_applied(check, api_key, version):
    """One entry Kafka refuses among valid ones in an AlterClientQuotas at this version (ip
    with a user or a client id, an unknown entity type, an empty entity, an unknown key or
    one of the other kind's, a value <= 0, a fractional byte rate, a key twice) answers
    INVALID_REQUEST; every other entry answers NONE and is described afterwards, and nothing
    of the refused entry is held (a valid key beside an unknown one neither)."""
    check.require(api_key, version)
    quotas = Quotas(check)

    def judged(value):
        valid = [(entity_of(e), _ops(ops)) for e, ops in quotas.named(value["entries"])]
        batch = _with_invalid(quotas, valid, value)
        model = QuotaModel()
        quotas.alter(batch, version)
        codes = model.alter(batch)
        quotas.expect_altered(batch, codes, f"AlterClientQuotas with one entry of kind {value['kind']!r}")
        refused = [e for (e, _), c in zip(batch, codes) if c != Errors.NONE and _describable(e)]
        quotas.held_as(model, [e for e, _ in valid] + refused, f"after AlterClientQuotas with a {value['kind']}")

    check.given(gen.invalid_batches(), judged,
                first={"entries": [[[[USER, "@u0"]], [["producer_byte_rate", 1024.0]]],
                                   [[[CLIENT_ID, "@c1"]], [["request_percentage", 50.0]]]],
                       "kind": "ip with user", "at": 1})


@pytest.mark.prop("Q4", source=IMAGE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DescribeClientQuotas,)))
def test_q4_filters_match_as_kafkas_client_quotas_image(check, api_key, version):
    """Entities of two users and two client ids (alone and paired) each get a quota (a value
    of their own, which tells them apart); DescribeClientQuotas at this version of each drawn
    filter (a user and/or client-id component of match type exact, default or any specified,
    strict or not, at least one exact) lists exactly the entities
    ``ClientQuotasImage.matches`` reaches, each with its value."""
    check.require(api_key, version)
    quotas = Quotas(check)

    def judged(value):
        named = quotas.named(value)
        ents = [entity_of(e) for e in named["entities"]]
        tag = {e: float(i + 1) for i, e in enumerate(ents)}
        entries = [(e, [(gen.TAG, tag[e])]) for e in ents]
        model = QuotaModel()
        quotas.alter(entries)
        quotas.expect_altered(entries, model.alter(entries), "AlterClientQuotas of the example's entities")
        quotas.held_as(model, ents, "after AlterClientQuotas")
        for f in named["filters"]:
            comps = [tuple(c) for c in f["components"]]
            strict = f["strict"]
            quotas.client.answered(ApiKey.DescribeClientQuotas, version,
                                   build.describe_client_quotas(version, comps, strict))
            want = model.describe(comps, strict)
            what = f"the filter {comps} (strict={strict})"
            listed = ", ".join(show(e) for e in want) or "none"
            check.expect_field(["error_code"], [Errors.NONE], says=f"DescribeClientQuotas of {what}: NONE")
            check.expect_field(["entries", "values"], count=len(want),
                               says=f"{what} lists the entities ClientQuotasImage.matches reaches: {listed}")
            check.expect_field(["entries", "values", {"key": gen.TAG}, "value"], sorted(tag[e] for e in want),
                               count=len(want), distinct=True, says=f"{what} lists exactly {listed}")
            for e in want:
                sel = {"values": [{"key": gen.TAG, "value": tag[e]}]}
                check.expect_field(["entries", sel, "entity", "entity_type"], count=len(e),
                                   says=f"{what}: the entity with {gen.TAG}={tag[e]} is {show(e)}")
                for t, n in e:
                    check.expect_field(["entries", sel, "entity", {"entity_type": t}, "entity_name"], [n], count=1,
                                       says=f"{what}: the entity with {gen.TAG}={tag[e]} is {show(e)}")

    check.given(gen.filter_cases(), judged, first={
        "entities": [[[USER, "@u1"]], [[USER, "@u1"], [CLIENT_ID, "@c1"]], [[USER, "@u1"], [CLIENT_ID, "@c2"]],
                     [[CLIENT_ID, "@c1"]]],
        "filters": [{"components": [[USER, MATCH_EXACT, "@u1"]], "strict": False},
                    {"components": [[USER, MATCH_EXACT, "@u1"]], "strict": True},
                    {"components": [[USER, MATCH_EXACT, "@u1"], [CLIENT_ID, 2, None]], "strict": False},
                    {"components": [[CLIENT_ID, MATCH_EXACT, "@c1"], [USER, 1, None]], "strict": False},
                    {"components": [[CLIENT_ID, MATCH_EXACT, "@c1"]], "strict": False}]})


@pytest.mark.prop("Q5", source=CQCM + " (alterClientQuotas: each request computed against the current quotas in "
                                      "one controller write event); " + IMAGE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.AlterClientQuotas,)))
@pytest.mark.known_deviation("alter-client-quotas-concurrent-writers-lose-updates")
def test_q5_concurrent_alters_of_different_keys_lose_no_acknowledged_update(check, api_key, version):
    """The suite's added property, not a promise of KIP-546 (which says what one request's ops
    do, and nothing of concurrent requests): 2-3 clients, each on its own connection and
    owning different keys of one user's quotas, send AlterClientQuotas sets of unique values
    at this version concurrently: each answers NONE, and afterwards DescribeClientQuotas of
    the user lists every key with its writer's last acknowledged value (KRaft Kafka applies
    each request's ops to the quotas held when the controller handles it, so writers of
    different keys never lose each other's writes; ZooKeeper mode keeps the last writer's
    copy of the whole entity by design, a reviewed known deviation from this property)."""
    check.require(api_key, version)
    quotas = Quotas(check)

    def judged(plan):
        ent = entity_of([(USER, check.topic("qw"))])
        owned = gen.OWNED[len(plan)]
        clients = [check.client() for _ in plan]
        acked: list[tuple[int, str]] = []       # (step, what) of every alter, judged after the threads
        last: dict[str, float] = {}
        failures: list[BaseException] = []

        def writer(i: int):
            try:
                for seq in range(plan[i]):
                    ops = [(k, float(1_000_000 + 10_000 * i + 100 * seq + j)) for j, k in enumerate(owned[i])]
                    clients[i].answered(ApiKey.AlterClientQuotas, version,
                                        build.alter_client_quotas(version, [(ent, ops)]))
                    acked.append((check.last_step, f"writer {i}: {ops}"))
                    last.update(ops)
            except BaseException as exc:       # noqa: BLE001 - re-raised in the main thread
                failures.append(exc)

        threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(len(plan))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        if failures:
            raise failures[0]
        for at, what in acked:
            check.expect_field(["entries", "error_code"], [Errors.NONE], count=1, step=at,
                               says=f"{what}: one entry, NONE")
        check.expect_caveat("Q5's concurrent writers are replayed one request after another: the final "
                            "values are judged, the race is not")
        model = QuotaModel({ent: dict(last)})
        quotas.held_as(model, [ent], "after every writer finished: each key holds its writer's last "
                                     "acknowledged value")

    check.given(gen.writer_plans(), judged, first=[3, 3, 2])
