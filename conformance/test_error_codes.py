"""P5: an error code introduced at version V of an API never appears in a response below V.

Released Apache Kafka keeps a handful of codes off older request versions, because a client
written against that version cannot know them; below V it answers the older code instead
(``reference/error_codes.py`` ``RULES``, one source per row):

* THROTTLING_QUOTA_EXCEEDED (89): CreateTopics v6+, DeleteTopics v5+, CreatePartitions v3+
  (KIP-599; below, the controller mutation quota is permissive: the item succeeds and the
  answer is only throttled: ``ControllerApis`` ``newQuotaFor(request, strictSinceVersion)``);
* TOPIC_DELETION_DISABLED (73): DeleteTopics v3+ (INVALID_REQUEST below;
  ``ControllerApis.deleteTopics``);
* UNKNOWN_TOPIC_ID (100): DeleteTopics v6+ and Metadata v12+, the versions that can name
  a topic by id;
* LISTENER_NOT_FOUND (72): Metadata v6+ (LEADER_NOT_AVAILABLE below; ``KafkaApis``).

POLICY_VIOLATION (44) is not version-gated in released Kafka: CreateTopics (KIP-108),
(Incremental)AlterConfigs (KIP-133/339) and DeleteRecords on a non-``delete`` topic answer
it at every version. DeleteTopics is different: released Kafka has no delete-topic policy
(KIP-201 never shipped), so it answers 44 only when one request holds more than 10,000
topics (the controller's batch limit), and KIP-201 itself ("Rationalising Policy interfaces") keeps 44 off every
version below its new one (UNKNOWN_SERVER_ERROR there). A DeleteTopics answer of 44 to a
small request is flagged at every released version.

Driver: per (API, version), generated requests, realistic and error-provoking
(``strategies/provoke.py``: unknown topics and ids, invalid names, bad configs, timeouts of
0, existing topics). Oracle: every ``error_code`` in the answer is checked against the
gated codes (:func:`later_codes`). "Every response the suite sees": the same oracle screens
every answer any property's Client receives (``fixtures/traffic.py``); these checks run
last and fail their (API, version) cell when another check's answer broke the rule, with
that check named and its request as the counterexample.

Rows exist only for (API, version) where some code is gated (nothing can be downgraded
elsewhere). A row passes only when at least one of its gated codes was **provoked** in the
run: the broker answered it (to any check) at a version of the API that has it, so the
situation exists on this broker and the older version's answers were judged under it (the
Kafka profiles provoke them: ``preset=nodelete`` TOPIC_DELETION_DISABLED, ``preset=quota``
THROTTLING_QUOTA_EXCEEDED; unknown topic ids UNKNOWN_TOPIC_ID). Where nothing provoked any,
the row is ``unsupported`` and names the codes nothing provoked: a broker that never
answers a code has not shown that it keeps the code off older versions. A code leaking into
an older version is a ``fail`` either way.
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures import traffic
from fixtures.harness import Unsupported
from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors, requests, schema_facts
from protocol import kafka_sources as ks
from protocol.codec import APIS
from protocol.errors import error_name
from strategies import provoke as provoking

from . import provoked_topics
from .parametrize import ADMIN_KEYS, MUTATING_KEYS, every_version
from reference import error_codes as ec

#: QuorumController.MAX_RECORDS_PER_USER_OP: a request over it answers POLICY_VIOLATION.
BATCH_LIMIT = 10_000

SOURCE = ("catalogue P5; reference/error_codes.py RULES: "
          + ks.src(ks.CONTROLLER_APIS, "newQuotaFor(request, strictSinceVersion = 6/5/3), deleteTopics "
                                        "apiVersion < 3 -> INVALID_REQUEST")
          + "; " + ks.src(ks.MSG + "*Response.json", '"Version N ... may return X" comments')
          + "; KIP-599; KIP-201")


def _topics_in(api_key: int, request: dict) -> int:
    if api_key != ApiKey.DeleteTopics:
        return 0
    return len(request.get("topic_names") or []) + len(request.get("topics") or [])


def later_codes(api_key: int, version: int, request: dict, response: dict | None = None) -> list[dict]:
    """The oracle, as expectations (docs/results.md): no error code anywhere in the answer
    that ``api_key`` may only answer from a later version than ``version`` (one per code,
    saying what Kafka answers instead); DeleteTopics' POLICY_VIOLATION for a request under
    the batch limit. The judge decides them on every answer (a traffic screen) and on the
    check's own."""
    out = []
    for code in sorted(ec.forbidden_codes(api_key, version)):
        rule = next(r for r in ec.rules_for(api_key) if r.error_code == code)
        instead = rule.downgraded_to
        older = ("the item succeeds (only throttled)" if instead == Errors.NONE else
                 f"Kafka answers {error_name(instead)} ({instead})" if instead is not None else
                 "the code cannot arise")
        out.append({"kind": "field", "path": ["**", "error_code"], "not_in": [int(code)],
                    "says": f"no {rule.error_name} ({code}) at v{version}, a code {APIS[api_key].name} has only "
                            f"from v{rule.since_version}; below it {older} ({rule.source.split(';')[0]})"})
    if api_key == ApiKey.DeleteTopics and _topics_in(api_key, request) <= BATCH_LIMIT:
        out.append({"kind": "field", "path": ["**", "error_code"], "not_in": [int(Errors.POLICY_VIOLATION)],
                    "says": f"no POLICY_VIOLATION (44) at DeleteTopics v{version} for a request of "
                            f"{_topics_in(api_key, request)} topic(s): released Kafka has no delete-topic policy "
                            "(KIP-201 never shipped; 44 only past the 10,000-record batch limit), and KIP-201 "
                            "answers UNKNOWN_SERVER_ERROR (-1) below its own version"})
    return out


traffic.screen("P5")(later_codes)


def gated_cells():
    """(API, version) where some code is gated: below a RULES row, or DeleteTopics (44)."""
    gated = dict.fromkeys(r.api_key for r in ec.RULES if r.api_key in ADMIN_KEYS)
    return [p for p in every_version(tuple(gated))
            if ec.forbidden_codes(*p.values) or p.values[0] == ApiKey.DeleteTopics]


@pytest.mark.prop("P5", source=SOURCE)
@pytest.mark.reads_traffic
@pytest.mark.parametrize("api_key,version", gated_cells())
def test_p5_codes_introduced_later_never_answer_older_versions(check, api_key, version):
    """No answer at this version carries a code the API only has from a later version
    (generated requests here, and every answer the suite's other checks saw)."""
    check.require(api_key, version)
    if api_key in MUTATING_KEYS:
        check.require_mutations()
    client = check.client()
    existing = provoked_topics.existing_topics(check, api_key) if provoked_topics.names_topics(api_key) else []

    def no_later_code(value):
        body = value["body"]
        client.answered(api_key, version, body)
        for e in later_codes(api_key, version, body):     # the judge decides
            check.expect_data(e)

    check.given(check.avoiding(api_key, provoking.requests(api_key, version, check.prefix, existing,
                                                         prefixed_only=check.broker.external))
                .map(lambda b: {"body": b}),
                no_later_code)
    screened = traffic.judge_seen(check, "P5", api_key, version)
    gated = sorted(ec.forbidden_codes(api_key, version)) + (
        [Errors.POLICY_VIOLATION] if api_key == ApiKey.DeleteTopics else [])
    provoked = provoked_codes(check, api_key, gated)
    if not provoked:
        raise Unsupported(f"nothing in this run provoked {', '.join(_where(api_key, c) for c in gated)}: no "
                          f"answer at v{version} could show it kept off ({screened} answers screened, none "
                          "carried a later code)")
    unprovoked = [c for c in gated if c not in provoked]
    check.message = (f"none of {', '.join(error_name(c) for c in gated)} in {check.examples} "
                     f"generated answers and {max(screened - check.examples, 0)} answers to other checks; provoked "
                     f"in the run: {', '.join(_where(api_key, c) for c in provoked)}"
                     + (f"; never provoked: {', '.join(error_name(c) for c in unprovoked)}" if unprovoked else ""))


def _since(api_key: int, code: int) -> int | None:
    """The first version of ``api_key`` that may answer ``code`` (None: no released one,
    DeleteTopics' POLICY_VIOLATION for a small request)."""
    return next((r.since_version for r in ec.rules_for(api_key) if r.error_code == code), None)


def _where(api_key: int, code: int) -> str:
    since = _since(api_key, code)
    return f"{error_name(code)} ({code}, {APIS[api_key].name} v{since}+)" if since is not None else \
        f"{error_name(code)} ({code}, no released {APIS[api_key].name} version)"


def provoked_codes(check, api_key: int, gated) -> list[int]:
    """The gated codes this broker answered in the run at a version of ``api_key`` that has them."""
    log = traffic.log_of(check)
    rng = check.broker.advertised(api_key)
    if log is None or rng is None:
        return []
    out = []
    for code in gated:
        since = _since(api_key, code)
        if since is not None and any(code in log.codes(check.spec, api_key, v)
                                     for v in range(max(since, rng[0]), rng[1] + 1)):
            out.append(code)
    return out


SHARE_COMMIT = "offset-commit-to-share-group-answers-group-id-not-found-below-v9"


def codes_of_version(api_key: int, version: int) -> list[int]:
    """The codes an item of ``api_key`` may carry at ``version``: those the API has
    (reference/error_codes.py, from the message schemas and Kafka's code) but the
    version-gated ones it does not have yet."""
    return sorted(ec.allowed_codes(api_key, version) - ec.forbidden_codes(api_key, version))


@pytest.mark.prop("P5", source=f"{SOURCE}; known deviation {SHARE_COMMIT} (apache/kafka group-coordinator/src/main/"
                               "java/org/apache/kafka/coordinator/group/modern/share/ShareGroup.java "
                               "validateOffsetCommit throws GroupIdNotFoundException at every version)")
@pytest.mark.known_deviation(SHARE_COMMIT)
@pytest.mark.parametrize("api_key,version", [p for p in every_version((ApiKey.OffsetCommit,))
                                             if Errors.GROUP_ID_NOT_FOUND in ec.forbidden_codes(*p.values)])
def test_p5_offset_commit_below_v9_to_a_share_group_answers_a_code_of_its_version(check, api_key, version):
    """An OffsetCommit (generation -1, as the Admin client commits) below v9 to a group that
    exists as a share group answers a code OffsetCommit has at that version (any of them:
    what a group of another type gets below v9 Kafka says nowhere), never GROUP_ID_NOT_FOUND
    (69), a code OffsetCommit has only from v9 (OffsetCommitResponse.json). Kafka 4.4 answers
    69 (a reviewed known deviation): every other check names its share groups apart from the
    groups it commits to. The share group is made by AlterShareGroupOffsets: where that is
    refused, the row is an ``error`` saying what was answered (UNSUPPORTED_VERSION from a broker
    that advertises the API and has share groups on is a ``fail``); where the broker's finalized
    features show share groups off, ``unsupported``."""
    from fixtures.admin import Admin

    from .group_client import TRANSIENT
    from .test_share_groups import _share_groups_on

    check.require(api_key, version)
    alter = ApiKey.AlterShareGroupOffsets
    low, high = check.require(alter)
    _share_groups_on(check, alter)
    check.require_mutations()
    client = check.client()
    topic, group = f"{check.prefix}P5-share-{version}", f"{check.prefix}sg-commit-{version}"
    Admin(check).create_topic(topic, partitions=2)      # a failure is the row's error, with what was seen
    v = min(high, APIS[alter].max_version)
    share = {"group_id": group, "topics": [{"topic_name": topic, "partitions": [{"partition_index": 0,
                                                                                  "start_offset": 0}]}]}
    # as Kafka's Admin does (AlterShareGroupOffsetsHandler is a coordinator strategy): the
    # group coordinator's topic is made on the first FindCoordinator, and until it is, every
    # share-group request answers NOT_COORDINATOR (measured on kafka:4.4.0: 22 s of it)
    find = check.broker.advertised(ApiKey.FindCoordinator)
    if find is not None:
        fv = min(find[1], APIS[ApiKey.FindCoordinator].max_version)
        client.send(ApiKey.FindCoordinator, fv, requests.find_coordinator(fv, group))
    client.answered(alter, v, share)
    check.expect_field(["error_code"], refused=sorted(TRANSIENT), setup=True, retry_s=20,
                       says=f"setup: the group coordinator is ready for AlterShareGroupOffsets v{v}")
    check.expect_field(["responses", "partitions", "error_code"], refused=[Errors.UNKNOWN_TOPIC_OR_PARTITION],
                       setup=True, retry_s=VISIBLE_S,
                       says=f"setup: the share coordinator knows the topic of AlterShareGroupOffsets v{v}")
    check.expect_field(["error_code"], refused=[Errors.UNSUPPORTED_VERSION],
                       says=f"AlterShareGroupOffsets v{v}, which the broker advertises, is served (not 35 "
                            "UNSUPPORTED_VERSION)")
    check.expect_field(["error_code"], [Errors.NONE], setup=True,
                       says=f"setup: AlterShareGroupOffsets v{v} makes share group {group!r}")
    check.expect_field(["responses", "partitions", "error_code"], [Errors.NONE], setup=True,
                       says=f"setup: AlterShareGroupOffsets v{v} sets {topic}-0 of share group {group!r}")
    codes = codes_of_version(api_key, version)
    assert Errors.GROUP_ID_NOT_FOUND not in codes       # the parametrisation's premise

    def commit(offset):
        body = {"group_id": group, "generation_id_or_member_epoch": -1, "member_id": "", "group_instance_id": None,
                "retention_time_ms": -1, "topics": [{"name": topic, "partitions": [
                    {"partition_index": 0, "committed_offset": offset, "committed_leader_epoch": -1,
                     "committed_metadata": None}]}]}
        body = {k: val for k, val in body.items() if schema_facts.defines(api_key, k)
                and schema_facts.has_field(api_key, version, k)}
        client.answered(api_key, version, body)
        check.expect_field(["topics", "partitions", "error_code"], codes, count=1,
                           says=f"OffsetCommit v{version} to share group {group!r}: a code OffsetCommit v{version} "
                                f"has, never {int(Errors.GROUP_ID_NOT_FOUND)} GROUP_ID_NOT_FOUND (OffsetCommit's "
                                "from v9 only)")

    check.given(st.integers(0, 5), commit, max_examples=1)
