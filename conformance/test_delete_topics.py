"""D1-D5: DeleteTopics (API 20) as released Apache Kafka answers it, at every version (D6,
topics named by id, is ``test_delete_topics_by_id.py``).

Sources: KIP-4's DeleteTopics schema vote (KAFKA-2946, which defined v0) and released Apache Kafka
4.x, which is the reference where the two differ (docs/reference-semantics.md, "D").
Kafka's KRaft broker forwards DeleteTopics whole to the controller, whose
``ControllerApis.deleteTopics`` checks names and ids, and ``ReplicationControlManager``
deletes. Kafka 3.x in KRaft mode served v0 through that same method, so one oracle
holds at every version, v0 included (4.0 removed v0 by KIP-896; a broker that still
advertises it is held to the same answers).

Where KIP-4 and Kafka differ, the tests say so:

* unknown topic: KIP-4 said InvalidTopic; Kafka answers UNKNOWN_TOPIC_OR_PARTITION (D1);
* duplicate names: KIP-4 said "the extra request will be ignored"; Kafka's KRaft
  controller answers one INVALID_REQUEST entry and deletes nothing for that name (D2);
* timeout <= 0: KIP-4 said the deletion is triggered and the call returns at once; the
  KRaft controller drops events whose deadline has passed, so it answers
  REQUEST_TIMED_OUT and deletes nothing (D5 accepts both and records which).

A broker with ``delete.topic.enable=false`` refuses every DeleteTopics request as a whole
before it reads a name (``reference/broker_config.py`` DELETION_REFUSED): D1, D2, D5 and
D6 then expect that refusal for every entry as sent (TOPIC_DELETION_DISABLED from v3,
INVALID_REQUEST below) and nothing deleted; D4, whose question is what a deletion leaves,
shows the refusal once and is ``unsupported``; D3 compares answers and holds either way.

Each example uses fresh topics (``check.topic()``); the requests a property judges are
sent at the row's version, the setup (CreateTopics, Metadata) at the newest version both
sides know.
"""
from __future__ import annotations

import uuid

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import Unsupported
from fixtures.waiting import SETTLE_S, settled
from protocol import ZERO_UUID, ApiKey, Errors, OffsetSpec
from protocol import requests as build
from protocol.errors import error_name
from strategies.domain import INT32_MAX, INT32_MIN, LEGAL_CHARS

from .parametrize import every_version
from reference.broker_config import DELETION_REFUSED
from reference.kips import KIP_4_DELETE_TOPICS
from reference.modes import DELETE_TOPICS_REPEATED

KIP4 = KIP_4_DELETE_TOPICS
KAFKA_CONTROLLER_APIS = "apache/kafka core/src/main/scala/kafka/server/ControllerApis.scala"
KAFKA_REPLICATION = "apache/kafka metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java"
KAFKA_TEST = "apache/kafka core/src/test/scala/unit/kafka/server/DeleteTopicsRequestTest.scala"

#: How long a topic whose deletion succeeded may still show in Metadata: Kafka's brokers
#: apply the RemoveTopicRecord asynchronously and its own test polls (waitUntilTrue, 15 s).
#: The suite waits ``--request-timeout`` seconds (default 15).
#: "Returns at once" (D5): Kafka answers a timeout <= 0 in milliseconds; this leaves room
#: for a loaded machine without mistaking a broker that waits for the deletion.
AT_ONCE_S = 3.0
#: Positive timeouts for the properties that expect the deletion to finish in time.
TIMEOUTS = st.sampled_from([5_000, 15_000, 30_000, 60_000, INT32_MAX])

ALL_VERSIONS = every_version([ApiKey.DeleteTopics])


def _name(code):
    """``"3 UNKNOWN_TOPIC_OR_PARTITION"``; a code Kafka does not define, the number alone."""
    return f"{code} {error_name(code)}" if code in Errors.__members__.values() else str(code)


# -- driver ---------------------------------------------------------------------------

def _is_zero(topic_id) -> bool:
    return topic_id is None or topic_id == ZERO_UUID


def _delete(client, version: int, entries: list[tuple[str | None, uuid.UUID | None]],
            timeout_ms: int) -> tuple[list[dict], float]:
    """Send one DeleteTopics request of ``entries``, (name, topic_id) pairs in order (below
    v6 only names can be sent); (response entries, seconds it took). The answer must come,
    decodable and with the request's correlation id: the judge's "an answer within the
    timeout" (``Client.answered``)."""
    body = build.delete_topics_entries(version, entries, timeout_ms=timeout_ms)
    response = client.answered(ApiKey.DeleteTopics, version, body)
    check = client.check
    return list(response.get("responses") or []), check.answers[check.last_step].seconds


def _expect_one_per_name(check, names, count: int | None = None) -> None:
    """The last DeleteTopics answer has ``count`` entries (default: one per name) and
    names no topic it was not asked about."""
    check.expect_field(["responses", "error_code"], count=len(names) if count is None else count,
                       says="one entry per requested name" if count is None else
                            f"{count} entries for the {len(set(names))} requested name(s)")
    check.expect_field(["responses", "name"], sorted(set(names)), says="entries only for the names requested")


def _codes_by_name(entries: list[dict]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for e in entries:
        out.setdefault(e.get("name"), []).append(e["error_code"])
    return out


def _exists(admin: Admin, name: str) -> bool:
    """Is ``name`` listed (what a row's message says it saw, not a verdict)?"""
    return admin.topic(name).error_code == Errors.NONE


def _expect_kept(admin: Admin, names, says: str) -> None:
    """Metadata lists each of ``names`` (one entry, NONE): a topic the request must not
    have deleted. The judge decides."""
    if not names:
        return
    admin.metadata(sorted(names))
    for n in sorted(names):
        admin.check.expect_field(["topics", {"name": n}, "error_code"], [Errors.NONE], count=1,
                                 says=f"Metadata still lists {n!r} ({says})")


def _expect_not_created(admin: Admin, names) -> None:
    """Metadata does not list any of ``names`` (names no topic had: asking to delete them
    creates nothing). The judge decides."""
    admin.metadata(sorted(names))
    for n in sorted(names):
        admin.check.expect_field(["topics", {"name": n}, "error_code"], refused=[Errors.NONE],
                                 says=f"Metadata does not list {n!r}: deleting an unknown topic creates nothing")


def _settle(admin: Admin) -> float:
    return admin.check.request_timeout


def _expect_gone(admin: Admin, names, when=None) -> None:
    """Every broker's Metadata stops listing each of ``names``, polled (as Kafka's own test
    does) for ``--request-timeout`` seconds: the last look is the verdict, the judge's.
    ``when(name)``: the condition under which that name must go (D5: where the broker
    answered NONE in this run or a replay)."""
    names = sorted(set(names))
    if not names:
        return
    for a in admin.everywhere():            # every broker's metadata (D4 on a cluster)
        def look(a=a):
            a.metadata(names)
            for n in names:
                admin.check.expect_field(["topics", {"name": n}, "error_code"], refused=[Errors.NONE],
                                         says=f"Metadata no longer lists {n!r}", when=when(n) if when else None)
        admin.check.poll(look, _settle(admin))


def _create(admin: Admin, check, hint: str, partitions: int = 1) -> str:
    name = check.topic(hint)
    admin.create_topic(name, partitions=partitions)
    return name


def _absent(check) -> str:
    """A name no topic has: fresh under the run prefix and never created."""
    return check.topic("absent")


def _setup(check, version: int):
    check.require(ApiKey.DeleteTopics, version)
    check.require_mutations()
    client = check.client()
    return client, Admin(check, client)


# -- a broker that refuses every deletion (delete.topic.enable=false) ----------------------

def _refused(version: int) -> Errors | None:
    """The code every entry of a DeleteTopics request at ``version`` gets where the broker
    under check refuses the request as a whole (``DELETION_REFUSED``), else None."""
    refusal = DELETION_REFUSED.now()
    return None if refusal is None else refusal.code_at(version)


def _refusal(code) -> str:
    """``73 TOPIC_DELETION_DISABLED (delete.topic.enable=false: ...)`` for messages."""
    return (f"{_name(code)} ({DELETION_REFUSED.why()}: the request is refused before any name is "
            "looked up, each entry as sent)")


def _needs_deletion(check, client, admin, version: int) -> None:
    """A property whose question is what a deletion leaves cannot be asked of a broker that
    refuses every deletion: one deletion of a fresh topic shows the refusal (its code, the
    topic still listed; anything else fails the row), and the row is unsupported, saying why."""
    code = _refused(version)
    if code is None:
        return

    def refused(_):
        name = _create(admin, check, "refused")
        _delete(client, version, [(name, None)], 30_000)
        check.expect_field(["responses", {"name": name}, "error_code"], [code], count=1,
                           says=f"existing topic {name!r}: one entry {_refusal(code)}")
        _expect_kept(admin, [name], f"answered {_name(code)}")

    check.given(st.just(None), refused, max_examples=1)
    raise Unsupported(f"needs topic deletion; the broker has {DELETION_REFUSED.why()} (DeleteTopics v{version} "
                      f"answered {_name(code)} for an existing topic, which is still listed)")


# -- D1 -----------------------------------------------------------------------------------

_SUFFIXES = st.lists(st.text(LEGAL_CHARS, min_size=1, max_size=12), min_size=1, max_size=3, unique=True)


@pytest.mark.prop("D1", source=f"{KIP4} point 3 (said InvalidTopic); released Kafka: "
                               f"{KAFKA_REPLICATION} findTopicIds (unknown name -> UNKNOWN_TOPIC_OR_PARTITION); "
                               f"{KAFKA_TEST} testErrorDeleteTopicRequests ('invalid-topic')")
@pytest.mark.parametrize("api_key,version", ALL_VERSIONS)
def test_d1_deleting_an_unknown_topic_answers_unknown_topic_or_partition(check, api_key, version):
    """Each name no topic has gets exactly one entry with UNKNOWN_TOPIC_OR_PARTITION (3).

    KIP-4's vote (point 3) said an InvalidTopic error; released Kafka answers
    UNKNOWN_TOPIC_OR_PARTITION (``ReplicationControlManager.findTopicIds``), and so
    must the broker. Nothing is created by asking. Where the broker refuses every deletion
    (``delete.topic.enable=false``) no name is looked up: each answers the refusal
    (TOPIC_DELETION_DISABLED from v3, INVALID_REQUEST below)."""
    client, admin = _setup(check, version)
    refused = _refused(version)
    want = Errors.UNKNOWN_TOPIC_OR_PARTITION if refused is None else refused
    why = ("as released Kafka; KIP-4 said InvalidTopic" if refused is None else
           f"{DELETION_REFUSED.why()}: the request is refused before any name is looked up")

    def unknown_topics(suffixes):
        base = _absent(check)
        names = [f"{base}-{s}" for s in suffixes]
        _delete(client, version, [(n, None) for n in names], 30_000)
        for n in names:
            check.expect_field(["responses", {"name": n}, "error_code"], [want], count=1,
                               says=f"unknown topic {n!r}: one entry {_name(want)} ({why})")
        _expect_one_per_name(check, names)
        _expect_not_created(admin, names)

    check.given(_SUFFIXES, unknown_topics)


# -- D2 -----------------------------------------------------------------------------------

def _layout(roles: list[tuple[str, int]]):
    """Roles (kind, how many times the name is listed) and an order for all entries."""
    total = sum(c for _, c in roles)
    return st.tuples(st.just(roles), st.permutations(range(total)))


_DUPLICATED = st.tuples(st.sampled_from(["existing", "absent"]), st.integers(2, 3))
_D2_ROLES = st.tuples(st.lists(_DUPLICATED, min_size=1, max_size=2),
                      st.lists(st.just(("existing", 1)), max_size=2)).map(lambda t: t[0] + t[1])


def _materialise(check, admin, roles, order, hint):
    """Topic names for the roles (existing ones created) and the entries in ``order``."""
    names = [_create(admin, check, hint) if kind == "existing" else _absent(check) for kind, _ in roles]
    flat = [names[i] for i, (_, count) in enumerate(roles) for _ in range(count)]
    return names, [flat[i] for i in order]


@pytest.mark.prop("D2", source=f"{KIP4} point 2 (extra entries ignored); released Kafka: "
                               f"{KAFKA_CONTROLLER_APIS} deleteTopics (duplicateProvidedNames -> "
                               "INVALID_REQUEST 'Duplicate topic name.', not deleted); ZooKeeper mode: "
                               "reference/modes.py DELETE_TOPICS_REPEATED")
@pytest.mark.parametrize("api_key,version", ALL_VERSIONS)
def test_d2_a_name_listed_twice_answers_one_invalid_request_and_is_not_deleted(check, api_key, version):
    """A name listed more than once in one request gets one entry, INVALID_REQUEST (42),
    and its topic is not deleted; the other topics of the request are deleted as usual.

    This is ``ControllerApis.deleteTopics``: ``addProvidedName`` moves a repeated name to
    ``duplicateProvidedNames``, which answer "Duplicate topic name." and are never looked
    up. KIP-4's vote (point 2) had said the extra entries are ignored. A ZooKeeper-mode
    broker (3.x) answers every listing as it would a single one and deletes the topic
    (``KafkaApis``' ZooKeeper branch; reference/modes.py ``DELETE_TOPICS_REPEATED``).

    A broker that refuses every deletion (``delete.topic.enable=false``) never reaches
    that check: it answers each entry as sent, so a name listed twice gets two entries
    with the refusal's code, and nothing is deleted (``DELETION_REFUSED``)."""
    client, admin = _setup(check, version)
    rule = DELETE_TOPICS_REPEATED.now()
    refused = _refused(version)

    def wanted(kind: str, count: int) -> list[int]:
        single = Errors.NONE if kind == "existing" else Errors.UNKNOWN_TOPIC_OR_PARTITION
        if count == 1:
            return [single]
        code = single if rule.code is None else rule.code
        return [code] * (count if rule.entries == "each" else 1)

    def duplicates(layout):
        roles, order = layout
        names, entries = _materialise(check, admin, roles, order, "d2")
        _delete(client, version, [(n, None) for n in entries], 30_000)
        if refused is not None:
            _judge_refused(check, admin, refused, names, roles, entries)
            return
        kept = [n for n, (kind, count) in zip(names, roles) if count > 1 and kind == "existing" and rule.code is not None]
        for n, (kind, count) in zip(names, roles):
            want = wanted(kind, count)
            check.expect_field(["responses", {"name": n}, "error_code"], want[:1], count=len(want),
                               says=f"{kind} topic {n!r} listed {count} time(s): {len(want)} entr"
                                    f"{'y' if len(want) == 1 else 'ies'} {_name(want[0])}")
        _expect_one_per_name(check, names, count=sum(len(wanted(kind, count)) for kind, count in roles))
        _expect_kept(admin, kept, "a topic listed more than once is not deleted")
        singles = [n for n, (kind, count) in zip(names, roles) if kind == "existing" and (count == 1 or rule.code is None)]
        _expect_gone(admin, singles)
        _expect_kept(admin, kept, "a topic listed more than once is not deleted later either")

    check.given(_D2_ROLES.flatmap(_layout), duplicates)


def _judge_refused(check, admin, code, names, roles, entries) -> None:
    """D2 on a broker that refuses every deletion: one entry per listing, each the refusal,
    and every existing topic still listed."""
    for n, (kind, count) in zip(names, roles):
        check.expect_field(["responses", {"name": n}, "error_code"], [code], count=count,
                           says=f"{kind} topic {n!r} listed {count} time(s): {count} entries {_refusal(code)}")
    _expect_one_per_name(check, names, count=len(entries))
    _expect_kept(admin, [n for n, (kind, _) in zip(names, roles) if kind == "existing"], f"answered {_name(code)}")


# -- D3 -----------------------------------------------------------------------------------

_ROLE = st.tuples(st.sampled_from(["existing", "absent"]), st.sampled_from([1, 1, 1, 2]))
_D3_ROLES = st.lists(_ROLE, min_size=2, max_size=4)


def _outcome(admin, client, version, names, requests) -> dict:
    """Send ``requests`` (lists of names; each answer names only the names it was asked
    about), wait until every topic answered NONE is gone, then ask Metadata about every
    name: the step of each name's deletion and (``"listed"``) of that Metadata."""
    codes: dict[str, list[int]] = {n: [] for n in names}
    at = {}
    for req in requests:
        got, _ = _delete(client, version, [(n, None) for n in req], 30_000)
        admin.check.expect_field(["responses", "name"], sorted(set(req)), says="entries only for the names requested")
        for n in req:
            at[n] = admin.check.last_step
        for n, c in _codes_by_name(got).items():
            codes.setdefault(n, []).extend(c)
    _expect_gone(admin, [n for n in names if Errors.NONE in codes[n]])
    admin.metadata(names)
    at["listed"] = admin.check.last_step
    return at


@pytest.mark.prop("D3", source=f"{KIP4} point 8 (not transactional, errors reported independently); "
                               f"{KAFKA_REPLICATION} deleteTopics (per-topic ApiException); "
                               f"{KAFKA_CONTROLLER_APIS} deleteTopics")
@pytest.mark.parametrize("api_key,version", ALL_VERSIONS)
def test_d3_deleting_a_batch_equals_deleting_each_topic_alone(check, api_key, version):
    """Metamorphic: a batch mixing existing, unknown and repeated names gives every name
    the same entries (codes) and the same end state as sending that name's entries in a
    request of its own, from the same starting state.

    KIP-4's vote, point 8: "the request is not transactional ... errors are reported
    independently"; Kafka's controller gives each topic its own verdict. The relation
    holds whatever a broker answers for unknown or repeated names (D1/D2 judge those)."""
    client, admin = _setup(check, version)

    def independence(layout):
        roles, order = layout
        batch_names, batch = _materialise(check, admin, roles, order, "d3b")
        alone_names = [_create(admin, check, "d3a") if kind == "existing" else _absent(check)
                       for kind, _ in roles]
        b_at = _outcome(admin, client, version, batch_names, [batch])
        a_at = _outcome(admin, client, version, alone_names, [[n] * count for n, (_, count) in zip(alone_names, roles)])
        for bn, an in zip(batch_names, alone_names):    # D3's verdict as data: batch == alone
            check.expect_same(["responses", {"name": bn}, "error_code"], a_at[an], ["responses", {"name": an}, "error_code"],
                              step=b_at[bn], says=f"{bn!r} in the batch gets the codes {an!r} gets alone")
            check.expect_same(["topics", {"name": bn}, "error_code"], a_at["listed"], ["topics", {"name": an}, "error_code"],
                              step=b_at["listed"], says=f"afterwards {bn!r} is listed as {an!r} is")

    check.given(_D3_ROLES.flatmap(_layout), independence)


# -- D4 -----------------------------------------------------------------------------------

_D4 = st.tuples(st.lists(st.tuples(st.integers(1, 3), st.integers(0, 4)), min_size=1, max_size=3),
                TIMEOUTS)


@pytest.mark.prop("D4", source=f"{KIP4} point 6 (timeout > 0 blocks until metadata no longer holds "
                               f"the topic); {KAFKA_TEST} validateValidDeleteTopicRequests / "
                               f"validateTopicIsDeleted (poll); {KAFKA_REPLICATION} replay(RemoveTopicRecord)")
@pytest.mark.parametrize("api_key,version", ALL_VERSIONS)
def test_d4_a_deleted_topic_leaves_metadata_and_its_name_can_be_created_again(check, api_key, version):
    """After NONE with a timeout > 0, Metadata stops listing the topic (polled, as Kafka's
    own test does after ``ensureConsistentKRaftMetadata``), the name can be created
    again, and the new topic is new: its partition count is the new one, it holds none
    of the old records, and (where the broker reports topic ids) it has a new id.

    KIP-4's vote, point 6, says a timeout > 0 blocks until the metadata no longer holds the
    topic; Kafka 4 answers once the controller committed the removal, brokers may lag a
    little, so the suite polls (up to ``--request-timeout``, 15 s by default). A broker
    that refuses every deletion (``delete.topic.enable=false``) leaves nothing to observe:
    one deletion shows the refusal and the row is unsupported."""
    client, admin = _setup(check, version)
    _needs_deletion(check, client, admin, version)

    def completion(value):
        shapes, timeout_ms = value
        names, old_ids = [], {}
        for partitions, records in shapes:
            n = _create(admin, check, "d4", partitions)
            if records:
                admin.produce(n, 0, records)
            names.append(n)
            admin.topic(n)
            old_ids[n] = check.last_step         # the Metadata step showing the old topic's id
        _delete(client, version, [(n, None) for n in names], timeout_ms)
        for n in names:
            check.expect_field(["responses", {"name": n}, "error_code"], [Errors.NONE], count=1,
                               says=f"existing topic {n!r} (timeout_ms={timeout_ms}): one entry 0 NONE")
        _expect_gone(admin, names)
        for n, (partitions, records) in zip(names, shapes):
            again = partitions % 3 + 1          # a different count: the old topic must not come back
            _recreate(admin, n, again)
            admin.topic(n)
            at = ["topics", {"name": n}]
            check.expect_field(at + ["partitions", "partition_index"], list(range(again)),
                               count=again, says=f"re-created {n!r} has {again} partition(s)")
            # where the broker reports topic ids (neither is the zero id, which reads as None)
            check.expect_same(at + ["topic_id"], old_ids[n], differ=True, unless=(old_ids[n], at + ["topic_id"], [None]),
                              says=f"re-created {n!r} has a new topic id, not the deleted topic's")
            if records and _high_watermark(admin, n):
                check.expect_field(["topics", {"name": n}, "partitions", "offset"], [0],
                                   says=f"re-created {n!r} holds none of the deleted topic's {records} records "
                                        "(high watermark 0)")

    check.given(_D4, completion)


def _recreate(admin: Admin, name: str, partitions: int) -> None:
    # the deletion may still be finishing: "already exists" is asked again for a while
    settled(lambda: admin.create_topics([{"name": name, "num_partitions": partitions}]).get(name, (None, None)),
            lambda answer: answer[0] != Errors.TOPIC_ALREADY_EXISTS, within=SETTLE_S, every=0.1)
    admin.check.expect_field(["topics", {"name": name}, "error_code"], [Errors.NONE], count=1, retry_s=SETTLE_S,
                             says=f"the name {name!r} of the deleted topic can be created again")
    admin.wait_everywhere(lambda a: _exists(a, name), f"re-created topic {name} to appear in Metadata")


def _high_watermark(admin: Admin, name: str) -> bool:
    """Ask ListOffsets LATEST of partition 0, re-sent while it answers an error (a new
    topic's leader may not serve it yet; the judge decides NONE); False without ListOffsets."""
    try:
        admin.offset(name, 0, OffsetSpec.LATEST)
    except Unsupported:
        return False
    admin.check.expect_field(["topics", "partitions", "error_code"], [Errors.NONE], retry_s=SETTLE_S,
                             says=f"ListOffsets LATEST of {name}-0: NONE")
    return True


# -- D5 -----------------------------------------------------------------------------------

_D5 = st.tuples(st.integers(1, 3), st.integers(0, 2),
                st.one_of(st.sampled_from([0, -1]), st.integers(INT32_MIN, 0)))


@pytest.mark.prop("D5", source=f"{KIP4} point 7 (timeout <= 0 triggers the delete and returns at once); "
                               f"released Kafka: {KAFKA_CONTROLLER_APIS} handleDeleteTopics "
                               "(deadline now + timeoutMs); apache/kafka server-common/.../queue/KafkaEventQueue.java "
                               f"(expired events fail with TimeoutException); {KAFKA_TEST} testErrorDeleteTopicRequests "
                               "(ZK-only: 'The KRaft controller doesn't perform operations that have timed out.')")
@pytest.mark.parametrize("api_key,version", ALL_VERSIONS)
def test_d5_a_timeout_of_zero_or_less_answers_at_once_with_none_or_request_timed_out(check, api_key, version):
    """With timeout_ms <= 0 the answer comes at once (within 3 s), each existing topic
    answers NONE or REQUEST_TIMED_OUT (7), each unknown one UNKNOWN_TOPIC_OR_PARTITION or
    REQUEST_TIMED_OUT, and a topic answered NONE is really deleted.

    What is accepted, and why:

    * REQUEST_TIMED_OUT for every entry, topic kept: released Kafka (KRaft). The
      controller's event deadline is ``now + timeoutMs``; the event queue fails expired
      events without running them, so nothing is looked up or deleted.
    * REQUEST_TIMED_OUT, topic deleted later: KIP-4's vote (point 7, ZooKeeper Kafka):
      "you can assume the message was valid and the topic deletion was triggered".
    * NONE and the topic deleted: the catalogue's "success or REQUEST_TIMED_OUT", and KIP-4's
      response semantics point 1 ("the topics that did complete successfully will have no
      error"); a broker that deletes synchronously at once loses nothing.

    An unknown topic: Kafka answers REQUEST_TIMED_OUT (its lookup expired too); KIP-4's
    "argument validation exception" is UNKNOWN_TOPIC_OR_PARTITION. Both are accepted.

    A failure is: a slow answer, any other code, or NONE for a topic that stays. The
    row's message records which behaviour the broker showed.

    A broker that refuses every deletion (``delete.topic.enable=false``) refuses before it
    looks at the deadline: every entry answers the refusal (TOPIC_DELETION_DISABLED from
    v3, INVALID_REQUEST below), at once, and every topic stays."""
    client, admin = _setup(check, version)
    refused = _refused(version)
    seen: set[str] = set()

    def nonpositive(value):
        n_existing, n_unknown, timeout_ms = value
        existing = [_create(admin, check, "d5") for _ in range(n_existing)]
        unknown = [_absent(check) for _ in range(n_unknown)]
        got, _ = _delete(client, version, [(n, None) for n in existing + unknown], timeout_ms)
        at = check.last_step
        check.expect_within(AT_ONCE_S, verdict=True, says=f"timeout_ms={timeout_ms}: an answer at once "
                                                          f"(within {AT_ONCE_S:g}s)")
        for n in existing + unknown:
            ok = ([refused] if refused is not None else [Errors.NONE, Errors.REQUEST_TIMED_OUT] if n in existing
                  else [Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.REQUEST_TIMED_OUT])
            check.expect_field(["responses", {"name": n}, "error_code"], ok, count=1,
                               says=f"{'existing' if n in existing else 'unknown'} topic {n!r}: one entry, "
                                    f"{' or '.join(_name(c) for c in ok)}")
        _expect_one_per_name(check, existing + unknown)
        codes = _codes_by_name(got)
        answered_none = [n for n in existing if codes[n] == [Errors.NONE]]
        # a replay judges "gone" only where the broker answered NONE again
        _expect_gone(admin, answered_none, when=lambda n: (at, ["responses", {"name": n}, "error_code"], [Errors.NONE]))
        if refused is not None:
            _expect_kept(admin, existing, f"answered {_name(refused)}")
        for n in existing:              # what the broker did, for the row's message (the judge decided above)
            if refused is not None:
                seen.add(f"every entry answered {_refusal(refused)} and the topics were kept")
            elif codes[n] == [Errors.NONE]:
                seen.add("existing topics answered NONE and were deleted (KIP-4's asynchronous mode, done at once)")
            elif _exists(admin, n):
                seen.add("existing topics answered REQUEST_TIMED_OUT and were kept (as released Kafka's KRaft controller)")
            else:
                seen.add("existing topics answered REQUEST_TIMED_OUT and were deleted anyway (KIP-4 / ZooKeeper Kafka)")
        for n in unknown:
            if refused is None:
                seen.add(f"unknown topics answered {_name(codes[n][0])}")

    check.given(_D5, nonpositive)
    check.message = "timeout_ms <= 0: " + "; ".join(sorted(seen))
