"""D6: DeleteTopics (API 20) names topics by id as well as by name (KIP-516), from the
first version whose request carries ``topics.topic_id``; ``ControllerApis.deleteTopics``
checks ids and names entry by entry. The driver, the deletion-refusal rule and the
sources are D1-D5's (``test_delete_topics.py``).
"""
from __future__ import annotations

import uuid

import pytest
from hypothesis import strategies as st

from fixtures.harness import Unsupported
from protocol import ZERO_UUID, ApiKey, Errors, schema_facts
from protocol.codec import APIS
from reference.known_deviations import DELETE_TOPICS_ENTRY_NAMING_NOTHING
from reference.modes import DELETE_TOPICS_NAME_AND_ID, DELETE_TOPICS_REPEATED

from .test_delete_topics import (ALL_VERSIONS, KAFKA_CONTROLLER_APIS, KAFKA_REPLICATION, KAFKA_TEST,
                                 _create, _delete, _expect_gone, _expect_kept, _is_zero, _name, _refusal, _refused,
                                 _setup)

KAFKA_APIS = "apache/kafka core/src/main/scala/kafka/server/KafkaApis.scala"
ID_VERSIONS = [p for p in ALL_VERSIONS if schema_facts.has_field(ApiKey.DeleteTopics, p.values[1], "topics.topic_id")]


#: Kinds of DeleteTopics v6 entries (``ControllerApis.deleteTopics``):
#: by-id / by-name an existing topic -> NONE, deleted; unknown-id -> UNKNOWN_TOPIC_ID;
#: both (name and that topic's id in one entry) -> INVALID_REQUEST, kept; neither (null
#: name, zero id) -> INVALID_REQUEST; dup-id (an id twice) -> one INVALID_REQUEST, kept;
#: split (a topic by name in one entry and by id in another) -> one INVALID_REQUEST, kept.
ID_KINDS = ("by-id", "by-name", "unknown-id", "both", "neither", "dup-id", "split")
NEEDS_ID = {"by-id", "dup-id", "split"}
#: The first Metadata version whose answer lists topic ids (KIP-516), read from its schema.
METADATA_IDS_SINCE = schema_facts.first_version_with(ApiKey.Metadata, "topics.topic_id", side=schema_facts.RESPONSE)
ENTRIES_PER_KIND = {"by-id": 1, "by-name": 1, "unknown-id": 1, "both": 1, "neither": 1, "dup-id": 2, "split": 2}
_RANDOM_ID = st.integers(1 << 64, (1 << 128) - 1)      # never zero nor Kafka's reserved ids


def _d6_layout(kinds):
    """(kinds, the order of their entries, a random id per kind). The random ids differ: two
    unknown-id entries with one id are an id twice, which ``ControllerApis.deleteTopics``
    answers with one INVALID_REQUEST ('Duplicate topic id.') before it looks the id up, as
    the dup-id kind asks (seed 896750538 drew 1 << 64 twice on kafka:4.4.0)."""
    n = sum(ENTRIES_PER_KIND[k] for k in kinds)
    return st.tuples(st.just(kinds), st.permutations(range(n)),
                     st.lists(_RANDOM_ID, min_size=len(kinds), max_size=len(kinds), unique=True))


def _d6(avoided: frozenset[str]):
    """D6's draws: lists of kinds. Where the broker under check has the known deviation of an
    entry naming nothing (DELETE_TOPICS_ENTRY_NAMING_NOTHING), "neither" is left to D6's
    dedicated check (:func:`test_d6_an_entry_naming_neither_name_nor_id_answers_invalid_request`)."""
    kinds = [k for k in ID_KINDS if not (k == "neither" and DELETE_TOPICS_ENTRY_NAMING_NOTHING in avoided)]
    return st.lists(st.sampled_from(kinds), min_size=1, max_size=4).flatmap(_d6_layout)



#: D6, per kind of entry: the answer entry's key field, its code, and what a conforming
#: broker answers (KafkaApis/ControllerApis.deleteTopics: ids and names checked per entry)
D6_ANSWERS = {
    "unknown-id": ("topic_id", Errors.UNKNOWN_TOPIC_ID, "unknown topic id {tid}: one entry 100 UNKNOWN_TOPIC_ID"),
    "by-name": ("name", Errors.NONE, "existing topic {name!r} by name: one entry 0 NONE"),
    "by-id": ("topic_id", Errors.NONE, "existing topic {name!r} by its id: one entry 0 NONE"),
    "dup-id": ("topic_id", Errors.INVALID_REQUEST, "the id of {name!r} twice: one entry 42 INVALID_REQUEST"),
    "both": ("name", Errors.INVALID_REQUEST, "{name!r} by name and id in one entry: 42 INVALID_REQUEST"),
}

def d6_expected(kinds) -> dict[str, tuple[int, int]]:
    """Per kind of entry: (how many answer entries, their code) for the broker under check.
    KRaft's as listed in D6_ANSWERS; a ZooKeeper-mode broker answers a topic named twice
    (dup-id, split) once per listing as a single listing, and fails the whole request when
    an entry has name and id (reference/modes.py)."""
    if "both" in kinds and DELETE_TOPICS_NAME_AND_ID.now() == "the request":
        return {k: (ENTRIES_PER_KIND[k], Errors.INVALID_REQUEST) for k in ID_KINDS}
    out = {k: (1, code) for k, (_, code, _) in D6_ANSWERS.items()}
    out.update({"neither": (1, Errors.INVALID_REQUEST), "split": (1, Errors.INVALID_REQUEST)})
    if DELETE_TOPICS_REPEATED.now().code is None:
        out.update({"dup-id": (2, Errors.NONE), "split": (2, Errors.NONE)})
    return out


@pytest.mark.prop("D6", source=f"{KAFKA_CONTROLLER_APIS} deleteTopics ('You may not specify both topic name "
                               "and topic id.', 'Neither topic name nor id were specified.', 'Duplicate topic id.', "
                               "'The provided topic name maps to an ID that was already supplied.'); "
                               f"{KAFKA_REPLICATION} findTopicNames (unknown id -> UNKNOWN_TOPIC_ID); "
                               f"{KAFKA_TEST} testValidDeleteTopicRequests ('Topic Ids')")
@pytest.mark.parametrize("api_key,version", ID_VERSIONS)
def test_d6_topics_can_be_deleted_by_id_and_unknown_ids_answer_unknown_topic_id(check, api_key, version):
    """DeleteTopics v6 names topics by id as well as by name, as ``ControllerApis.deleteTopics``:

    * an existing topic by id: NONE, the entry carries the id, the topic goes;
    * an unknown id: UNKNOWN_TOPIC_ID (100), the entry carries the id;
    * name and id in one entry: INVALID_REQUEST, the topic stays;
    * neither (null name, zero id): INVALID_REQUEST, one entry each;
    * one id twice: one INVALID_REQUEST entry, the topic stays;
    * a topic by name and by its id in two entries: one INVALID_REQUEST entry, it stays.

    A ZooKeeper-mode broker (3.x) answers the last two as it answers a name listed twice (an
    entry per listing, deleted: ``DELETE_TOPICS_REPEATED``) and refuses a whole request with
    a name-and-id entry (``DELETE_TOPICS_NAME_AND_ID``, reference/modes.py).

    Ids come from Metadata (v10+). A broker that advertises DeleteTopics v6 (topics by id,
    KIP-516 "Topic Identifiers") but reports a zero topic id in Metadata v10+ for a topic it
    created fails the property: KIP-516 gives every topic an id. Only a broker that does not
    advertise Metadata v10+ (no way to learn ids) leaves the row unsupported. A broker that
    refuses every deletion (``delete.topic.enable=false``) reads none of the entries: each
    entry as sent (an id twice: two) answers TOPIC_DELETION_DISABLED with the name and id
    it was sent with, and every topic stays."""
    client, admin = _setup(check, version)
    md = check.broker.advertised(ApiKey.Metadata)
    if md is None or min(md[1], APIS[ApiKey.Metadata].max_version) < METADATA_IDS_SINCE:
        raise Unsupported(f"topic ids are learnt from Metadata v{METADATA_IDS_SINCE}+, which the broker does not "
                          f"advertise ({'none' if md is None else f'v{md[0]}-{md[1]}'})")
    refused = _refused(version)

    def by_id(value):
        kinds, order, random_ids = value
        items = []                      # (kind, topic name or None, id or None)
        real = {}                       # name -> the id Metadata gave it
        for kind, random_id in zip(kinds, random_ids):
            name = _create(admin, check, "d6") if kind in ("by-id", "by-name", "both", "dup-id", "split") else None
            tid = admin.topic(name).topic_id if name else None
            if name and not _is_zero(tid):
                real[name] = tid
            if kind in NEEDS_ID and _is_zero(tid):
                at = admin.version(ApiKey.Metadata, at_least=1)
                # the zero id reads as None, as the suite's codec and repro.py read it: the judge decides
                check.expect_field(["topics", {"name": name}, "topic_id"], refused=[None, ZERO_UUID], count=1,
                                   says=f"Metadata v{at} gives {name}, which the broker created, its topic id "
                                        f"(KIP-516; DeleteTopics v{version} names topics by id)")
            if kind == "unknown-id" or (kind == "both" and _is_zero(tid)):
                tid = uuid.UUID(int=random_id)
            items.append((kind, name, tid))
        entries = []
        for kind, name, tid in items:
            entries += {"by-id": [(None, tid)], "by-name": [(name, None)], "unknown-id": [(None, tid)],
                        "both": [(name, tid)], "neither": [(None, None)], "dup-id": [(None, tid), (None, tid)],
                        "split": [(name, None), (None, tid)]}[kind]
        order = [i for i in order if i < len(entries)]     # fewer entries when ids were missing
        for kind, name, tid in items:   # a replay sends the ids its own run learned from Metadata
            if name is not None and tid is not None and real.get(name) == tid:
                check.expect_id_of(name, tid, step=len(check.steps))
        sent = [entries[i] for i in order]
        _delete(client, version, sent, 30_000)
        if refused is not None:
            _judge_ids_refused(admin, refused, sent, [n for _, n, _ in items if n])
            return
        want = d6_expected([kind for kind, _, _ in items])
        for kind, name, tid in items:
            if kind in D6_ANSWERS:
                field, code, says = D6_ANSWERS[kind]
                count, code = want[kind]
                if (count, code) != (1, D6_ANSWERS[kind][1]):
                    says = f"{kind} {name!r}: {count} entr{'y' if count == 1 else 'ies'} {_name(code)}"
                check.expect_field(["responses", {field: tid if field == "topic_id" else name}, "error_code"],
                                   [code], count=count, says=says.format(name=name, tid=tid))
            elif kind == "split":       # its entry may carry the name, the id or both
                count, code = want[kind]
                for field, key in (("name", name), ("topic_id", tid)):
                    check.expect_field(["responses", {field: key}, "error_code"], [code],
                                       says=f"{name!r} by name and by its id in two entries: {_name(code)}")
        neither = sum(1 for kind, _, _ in items if kind == "neither")
        check.expect_field(["responses", {"name": None, "topic_id": None}, "error_code"], [Errors.INVALID_REQUEST],
                           count=neither, says=f"{neither} entries with neither name nor id, each 42 INVALID_REQUEST")
        check.expect_field(["responses", "error_code"], count=sum(want[kind][0] for kind, _, _ in items),
                           says="one entry per requested topic (a repeated id or a topic named twice: one, "
                                "or one per listing on a ZooKeeper-mode broker)")
        # every entry answers a requested one: its name (or none) and its id (or none) were sent
        check.expect_field(["responses", "name"], sorted({n for _, n, _ in items if n}) + [None],
                           says="entries only for the names requested")
        check.expect_field(["responses", "topic_id"], sorted({str(t) for _, _, t in items if t}) + [None],
                           says="entries only for the topic ids requested")
        _expect_gone(admin, [name for kind, name, _ in items if name is not None and want[kind][1] == Errors.NONE])
        _expect_kept(admin, [name for kind, name, _ in items if name is not None and want[kind][1] != Errors.NONE],
                     "answered INVALID_REQUEST")

    check.given(_d6(check.avoided_shapes), by_id)


#: ZooKeeper-mode Kafka answers an entry naming nothing TOPIC_AUTHORIZATION_FAILED.
NEITHER_ENTRY = "delete-topics-neither-name-nor-id-authorization-failed"


@pytest.mark.prop("D6", source=f"{KAFKA_CONTROLLER_APIS} deleteTopics ('Neither topic name nor id were specified.'); "
                               f"known deviation {NEITHER_ENTRY} ({KAFKA_APIS} handleDeleteTopicsRequest, ZooKeeper "
                               "branch: a null name is never authorized)")
@pytest.mark.known_deviation(NEITHER_ENTRY)
@pytest.mark.parametrize("api_key,version", ID_VERSIONS)
def test_d6_an_entry_naming_neither_name_nor_id_answers_invalid_request(check, api_key, version):
    """A DeleteTopics v6+ entry with a null name and the zero topic id names no topic: it
    answers INVALID_REQUEST (``ControllerApis.deleteTopics``, KIP-516 "Topic Identifiers"),
    one entry, nothing deleted. ZooKeeper-mode Kafka 3.x answers TOPIC_AUTHORIZATION_FAILED
    even without an authorizer (a reviewed known deviation): D6's other check leaves such
    entries out there and this one asks it on every broker. A broker that refuses every
    deletion answers the entry with the refusal's code (``DELETION_REFUSED``)."""
    client, admin = _setup(check, version)
    refused = _refused(version)
    want = Errors.INVALID_REQUEST if refused is None else refused

    def neither(_):
        _delete(client, version, [(None, None)], 30_000)
        check.expect_field(["responses", "error_code"], [want], count=1,
                           says=f"one entry with neither name nor id: {_name(want)}")

    check.given(st.just(None), neither, max_examples=1)


def _judge_ids_refused(admin, code, sent, created) -> None:
    """D6 on a broker that refuses every deletion: one answer per entry as sent, with its
    name and id (the zero id reads as None), each the refusal's code, and every topic
    still listed."""
    check = admin.check
    check.expect_field(["responses", "error_code"], [code], count=len(sent),
                       says=f"every entry as sent (a repeated one too): {_refusal(code)}")
    as_sent: dict[tuple, int] = {}
    for name, tid in sent:
        key = (name, None if _is_zero(tid) else tid)
        as_sent[key] = as_sent.get(key, 0) + 1
    for (name, tid), count in as_sent.items():
        check.expect_field(["responses", {"name": name, "topic_id": tid}, "error_code"], [code], count=count,
                           says=f"{count} entr{'y' if count == 1 else 'ies'} (name={name!r}, id={tid}) as sent: "
                                f"{_refusal(code)}")
    _expect_kept(admin, created, f"answered {_name(code)}")
