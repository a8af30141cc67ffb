"""P6: where a version has ``error_message``, an error carries a message and a success none.

What released Apache Kafka (4.x, KRaft) really sends decides what fails
(``reference/error_codes.py`` ``ERROR_MESSAGE``, docs/reference-semantics.md P6):

* **Success.** CreateTopics, DeleteTopics, CreatePartitions, AlterConfigs and
  IncrementalAlterConfigs answer ``error_message`` null (:data:`ON_SUCCESS`).
  DescribeConfigs answers the empty string: ``ConfigHelperUtils.toDescribeConfigsResult``
  sets only the code, and a string field without ``"default": "null"`` starts as ``""``
  (``MessageDataGenerator.fieldDefault``); its schema says null, so both pass there.
  FindCoordinator v0-v3 and UpdateFeatures' per-feature results (v0-v1) answer the success's
  name, ``"NONE"`` (``FindCoordinatorResponse.prepareOldResponse``, ``QuorumController.
  updateFeatures`` set ``error.message()``), as their code means to: it passes there too.
  Anything else on a success (a text, or ``""`` where Kafka sends null) **fails**. The
  other admin APIs (ACLs, quotas, SCRAM, groups, the cluster APIs, ...) follow
  ``ERROR_MESSAGE``'s null-on-success, read per API from its handler; their top-level
  ``error_message`` (a whole-request verdict: DescribeCluster, UnregisterBroker,
  AlterPartitionReassignments, ...) is judged like a per-item one.
* **Error.** Kafka does *not* always explain an error: whole-request failures (timeouts,
  deletion disabled) carry only the code, DescribeConfigs' unknown topic carries ``""``,
  CreatePartitions' unknown topic null. So a missing message (null or ``""``) **fails** only
  for the (API, code) pairs where every Kafka path sets one (:data:`ALWAYS`, e.g. an
  existing topic, an invalid name, a bad config value); elsewhere it is a *soft finding*:
  the row passes with ``soft: ...`` in its message, saying which ones Kafka omits too.
* **Versions without the field** (CreateTopics v0, DeleteTopics v0-v4, DeleteRecords) must
  not carry one: their answers must decode exactly at the version (a message on the wire
  would leave bytes over, which the codec refuses).

Driver: generated requests, realistic and error-provoking (``strategies/provoke.py``),
per (API, version). Oracle: :func:`message_expectations`, the hard rules as expectations
on the answer's own message and every result item's, which the judge decides;
:func:`soft_findings` notes the rest. The hard rules also screen every answer the suite's
other checks receive (``fixtures/traffic.py``); these checks run last and fold those
findings into their cell.
"""
from __future__ import annotations

import pytest

from fixtures import traffic
from fixtures.harness import Unsupported
from protocol import SPECS, ApiKey, Errors, schema_facts
from protocol import kafka_sources as ks
from protocol.apis import results, spec
from protocol.codec import APIS
from protocol.errors import error_name
from strategies import provoke as provoking

from . import provoked_topics
from .parametrize import ADMIN_KEYS, MUTATING_KEYS, every_version
from reference import error_codes as ec
from reference.modes import DELETE_TOPICS_EXPLAINED

S = ks.src
RC, CA, CAM = ks.REPLICATION_CONTROL, ks.CONTROLLER_APIS, ks.CONFIG_ADMIN_MANAGER
CCM, CCV = ks.CONFIGURATION_CONTROL, ks.CONTROLLER_CONFIG_VALIDATOR
API_ERROR = "clients/src/main/java/org/apache/kafka/common/requests/ApiError.java"

NULL, NULL_OR_EMPTY = frozenset({None}), frozenset({None, ""})
_REQUESTS_ = "clients/src/main/java/org/apache/kafka/common/requests/"

#: api -> (what a success may carry, source)
ON_SUCCESS: dict[int, tuple[frozenset, str]] = {
    ApiKey.CreateTopics: (
        NULL, S(RC, "createTopic success result setErrorMessage(null)") + "; "
        + S("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java",
            "expects CreatableTopicResult ... setErrorMessage(null).setErrorCode(0)")),
    ApiKey.DeleteTopics: (
        NULL, S(CA, "deleteTopics appendResponse(name, id, ApiError.NONE) setErrorMessage(error.message) (null)")
        + "; " + S(ks.MSG + "DeleteTopicsResponse.json", 'ErrorMessage "default": "null"')),
    ApiKey.DescribeConfigs: (
        NULL_OR_EMPTY, S("server/src/main/java/org/apache/kafka/server/ConfigHelperUtils.java",
                         "toDescribeConfigsResult setErrorCode(NONE) only -> the field's default \"\"")
        + "; " + S(ks.MSG + "DescribeConfigsResponse.json", '"or null if we were able to successfully describe"')),
    ApiKey.AlterConfigs: (
        NULL, S(CA, "handleLegacyAlterConfigs setErrorMessage(entry.getValue.message()) (ApiError.NONE: null)")
        + "; " + S(CAM, "reassembleLegacyResponse keeps the controller's message")),
    ApiKey.CreatePartitions: (
        NULL, S(RC, "createPartitions: ApiError.NONE -> setErrorMessage(apiError.message()) (null)")
        + "; " + S(ks.MSG + "CreatePartitionsResponse.json", 'ErrorMessage "default": "null"')),
    ApiKey.IncrementalAlterConfigs: (
        NULL, S(CA, "handleIncrementalAlterConfigs setErrorMessage(entry.getValue.message()) (ApiError.NONE: null)")
        + "; " + S(CAM, "reassembleIncrementalResponse new ApiError(code, errorMessage)")),
    ApiKey.FindCoordinator: (
        frozenset({None, "", "NONE"}),
        S(_REQUESTS_ + "FindCoordinatorResponse.java", "prepareOldResponse (v0-v3) setErrorMessage(error.message()): "
                                                       "Errors.NONE.message() is its name, \"NONE\"")
        + "; v4+: the coordinator entry's ErrorMessage has no \"default\": \"null\", so a success carries \"\""),
    ApiKey.UpdateFeatures: (
        frozenset({None, "", "NONE"}),
        S("metadata/src/main/java/org/apache/kafka/controller/QuorumController.java",
          "updateFeatures: v0-v1 per-feature results setErrorMessage(result.error().message()): \"NONE\" on success")
        + "; top-level: result.message() (null)"),
}

_CONFIG_ERRORS = {
    Errors.UNKNOWN_TOPIC_OR_PARTITION:
        S(CCM, "validateAlterConfig: existence check -> \"The topic 'x' does not exist.\"") + "; "
        + S("server/src/test/java/org/apache/kafka/server/KRaftClusterTest.java", "testIncrementalAlterConfigs"),
    Errors.INVALID_TOPIC_EXCEPTION:
        S(CCV, "validateTopicName: Topic.validate(name) -> ApiError.fromThrowable keeps its text"),
    Errors.INVALID_CONFIG:
        S(CCM, "validateAlterConfig: catch ConfigException -> new ApiError(INVALID_CONFIG, e.getMessage())"),
    Errors.INVALID_REQUEST:
        S(CAM, 'preprocess: "Each resource must appear at most once." / "Error due to duplicate config keys" / '
               '"Null value not supported for : k"') + "; " + S(CCV, '"Default topic resources are not allowed."'),
}

#: api -> {code: source}: the errors for which every path of Kafka sets a message.
ALWAYS: dict[int, dict[int, str]] = {
    ApiKey.CreateTopics: {
        Errors.INVALID_TOPIC_EXCEPTION:
            S(RC, "validateNewTopicNames: new ApiError(INVALID_TOPIC_EXCEPTION, e.getMessage())"),
        Errors.TOPIC_ALREADY_EXISTS:
            S(RC, "createTopics: new ApiError(TOPIC_ALREADY_EXISTS, \"Topic 'x' already exists.\")"),
        Errors.INVALID_PARTITIONS:
            S(RC, 'createTopic: "Number of partitions was set to an invalid non-positive value."'),
        Errors.INVALID_REPLICATION_FACTOR:
            S(RC, 'createTopic: "Replication factor must be larger than 0, or -1 to use the default value." / '
                  '"Unable to replicate the partition N time(s): ..."'),
        Errors.INVALID_REPLICA_ASSIGNMENT:
            S(RC, "createTopic / validateManualPartitionAssignment: INVALID_REPLICA_ASSIGNMENT with its reason"),
        Errors.INVALID_CONFIG:
            S(RC, 'computeConfigChanges "Null value not supported for topic configs: k"') + "; "
            + S(CCM, "validateAlterConfig: new ApiError(INVALID_CONFIG, e.getMessage())"),
        Errors.INVALID_REQUEST:
            S(CA, 'createTopics "Duplicate topic name."') + "; "
            + S(RC, 'createTopic "A manual partition assignment was specified, but ..."')},
    ApiKey.DeleteTopics: {
        Errors.UNKNOWN_TOPIC_OR_PARTITION:
            S(RC, "findTopicIds: new ApiError(UNKNOWN_TOPIC_OR_PARTITION)") + " + "
            + S(API_ERROR, "ApiError(Errors error) = this(error, error.message()) (the code's description)"),
        Errors.UNKNOWN_TOPIC_ID:
            S(RC, "findTopicNames: new ApiError(UNKNOWN_TOPIC_ID)") + " + " + S(API_ERROR, "ApiError(Errors)"),
        Errors.INVALID_REQUEST:
            S(CA, 'deleteTopics: "Duplicate topic name." / "Neither topic name nor id were specified." / '
                  '"You may not specify both topic name and topic id."')},
    ApiKey.DescribeConfigs: {
        Errors.INVALID_TOPIC_EXCEPTION:
            S(ks.CONFIG_HELPER, "describeConfigs: Topic.validate -> ApiError.fromThrowable keeps the text")},
    ApiKey.AlterConfigs: _CONFIG_ERRORS,
    ApiKey.CreatePartitions: {
        Errors.INVALID_PARTITIONS:
            S(RC, 'createPartitions: "Topic already has N partition(s)." / "... would not be an increase."'),
        Errors.INVALID_REPLICA_ASSIGNMENT:
            S(RC, 'createPartitions: "Attempted to add X additional partition(s), but only Y assignment(s) '
                  'were specified."'),
        Errors.INVALID_REQUEST: S(CA, 'createPartitions: "Duplicate topic name."')},
    ApiKey.IncrementalAlterConfigs: _CONFIG_ERRORS,
}



def explained(api_key: int) -> dict[int, str]:
    """:data:`ALWAYS` for the broker under check: a ZooKeeper-mode broker (3.x) explains no
    DeleteTopics error (reference/modes.py ``DELETE_TOPICS_EXPLAINED``), so there a missing
    message is a soft finding, as Kafka."""
    if api_key == ApiKey.DeleteTopics and not DELETE_TOPICS_EXPLAINED.now():
        return {}
    return ALWAYS.get(api_key, {})


_REQUESTS = "clients/src/main/java/org/apache/kafka/common/requests/"

#: (api, code) -> source: errors Kafka itself answers without a message (soft findings).
KAFKA_OMITS: dict[tuple[int, int], str] = {
    (ApiKey.CreateTopics, Errors.REQUEST_TIMED_OUT):
        S(_REQUESTS + "CreateTopicsRequest.java",
          "getErrorResponse: ApiError.fromThrowable(new TimeoutException()) -> null"),
    (ApiKey.DeleteTopics, Errors.REQUEST_TIMED_OUT):
        S(_REQUESTS + "DeleteTopicsRequest.java", "getErrorResponse sets only the code"),
    (ApiKey.DeleteTopics, Errors.TOPIC_DELETION_DISABLED):
        S(_REQUESTS + "DeleteTopicsRequest.java", "getErrorResponse sets only the code"),
    (ApiKey.DescribeConfigs, Errors.UNKNOWN_TOPIC_OR_PARTITION):
        S(ks.CONFIG_HELPER, "describeConfigs: setErrorCode(UNKNOWN_TOPIC_OR_PARTITION) only (\"\")"),
    (ApiKey.CreatePartitions, Errors.UNKNOWN_TOPIC_OR_PARTITION):
        S(RC, "createPartitions: new UnknownTopicOrPartitionException() -> message null"),
    (ApiKey.CreatePartitions, Errors.REQUEST_TIMED_OUT):
        S(_REQUESTS + "CreatePartitionsRequest.java",
          "getErrorResponse: ApiError.fromThrowable(TimeoutException) -> null"),
    (ApiKey.CreatePartitions, Errors.TOPIC_AUTHORIZATION_FAILED):
        S(CA, "createPartitions: TOPIC_AUTHORIZATION_FAILED without a message"),
}

SOURCE = ("catalogue P6; reference/error_codes.py ERROR_MESSAGE; "
          + S(API_ERROR, "fromThrowable: no message when it equals the code's default text")
          + "; " + S(ks.MSG + "*Response.json", "ErrorMessage versions/nullableVersions/default"))

#: The admin APIs whose responses have an error_message (top-level or per item) in some
#: version, and DeleteRecords, whose versions must answer without one.
APIS_WITH_MESSAGES = tuple(k for k in ADMIN_KEYS if schema_facts.message_paths(k) or k == ApiKey.DeleteRecords)


def has_field(api_key: int, version: int) -> bool:
    return any(schema_facts.has_field(api_key, version, p, schema_facts.RESPONSE)
               for p in schema_facts.message_paths(api_key))


def on_success(api_key: int) -> tuple[frozenset, str]:
    """What a success may carry in error_message, and why: :data:`ON_SUCCESS` where it was
    read for each API, else ``reference/error_codes.py`` ``ERROR_MESSAGE`` (null, or null or
    "" where Kafka's generated default is the empty string)."""
    if api_key in ON_SUCCESS:
        return ON_SUCCESS[api_key]
    null_on_success, note = ec.ERROR_MESSAGE[api_key][1:] if api_key in ec.ERROR_MESSAGE else (False, "")
    return (NULL if null_on_success else NULL_OR_EMPTY), note


def _sites(api_key: int, response: dict) -> list[tuple[str, dict]]:
    """(where, entry) of every error_code the answer explains with an error_message: the
    response itself (a whole-request verdict) and each per-item result."""
    out = [("", response)] if "error_message" in response and "error_code" in response else []
    if api_key in SPECS:
        out += [(repr(item_name(api_key, e)), e) for e in results(api_key, response) if "error_message" in e]
    return out


def item_name(api_key: int, item: dict):
    """What names a result item: the resource, the topic, or ``("id", topic_id)`` for a
    DeleteTopics entry without a name (DeleteRecords' partitions: None)."""
    if api_key == ApiKey.DeleteTopics and item.get("name") is None:
        return ("id", str(item.get("topic_id")))
    s = spec(api_key)
    return item.get(s.item) if s.item in item else item.get(s.partition_item)


def soft_findings(api_key: int, version: int, response: dict) -> list[str]:
    """Errors without a message that Kafka does not always explain either (not verdicts:
    the row's note), on the answer's own message and every result item's."""
    soft = []
    if not has_field(api_key, version):
        return soft
    name = APIS[api_key].name
    for _, item in _sites(api_key, response):
        code, msg = item.get("error_code"), item.get("error_message")
        if code != Errors.NONE and not msg and code not in explained(api_key):
            soft.append(f"{name} {error_name(code)} without a message" +
                        (", as Kafka" if (api_key, code) in KAFKA_OMITS else ""))
    return soft


def _site_path(api_key: int, where: str, item: dict) -> list:
    """The judge's path to the error_message of one site of :func:`_sites`: the answer's own
    (``where`` empty), or the result item's, found by what names it and the code it
    answered (the rules depend on the code only, so an item without a name is found by its
    code)."""
    code = item.get("error_code")
    if not where:
        return [{"error_code": code}, "error_message"]
    s = spec(api_key)
    who = ({"topic_id": str(item.get("topic_id"))} if api_key == ApiKey.DeleteTopics and item.get("name") is None
           else {k: item[k] for k in (s.item if s.item in item else s.partition_item,) if k and item.get(k) is not None})
    return ["**", {**who, "error_code": code}, "error_message"]


def message_expectations(api_key: int, version: int, response: dict) -> list[dict]:
    """The oracle's hard rules as expectations (docs/results.md), on the answer's own
    message and every result item's (:func:`_sites`): the site, with the code it answered,
    carries no message on NONE (Kafka's exceptions aside, :func:`on_success`) and one where
    Kafka always explains the code (:func:`explained`). The judge decides them on every
    answer (a traffic screen) and on the check's own."""
    if not has_field(api_key, version):
        return []
    name = APIS[api_key].name
    allowed, source = on_success(api_key)
    out = []
    for where, item in _sites(api_key, response):
        code = item.get("error_code")
        who = f"{name} v{version}" + (f" {where}" if where else "")
        path = _site_path(api_key, where, item)
        if code == Errors.NONE:
            out.append({"kind": "field", "path": path, "in": sorted(allowed, key=str),
                        "says": f"{who} answered NONE: error_message "
                                f"{' or '.join(repr(a) for a in sorted(allowed, key=str))} ({source})"})
        elif code in explained(api_key):
            out.append({"kind": "field", "path": path, "not_in": [None, ""],
                        "says": f"{who} answered {error_name(code)} ({code}): an error_message, Kafka always "
                                f"explains it ({explained(api_key)[code]})"})
    return out


@traffic.screen("P6")
def _hard_problems(api_key, version, request, response):
    return message_expectations(api_key, version, response) if api_key in APIS_WITH_MESSAGES else []


@pytest.mark.prop("P6", source=SOURCE)
@pytest.mark.reads_traffic
@pytest.mark.parametrize("api_key,version", every_version(APIS_WITH_MESSAGES))
def test_p6_errors_carry_a_message_and_successes_none(check, api_key, version):
    """Where the version has error_message: a success carries none (null; "" only for
    DescribeConfigs, as Kafka), an error Kafka always explains carries a message; other
    unexplained errors are soft findings. Versions without the field answer without one."""
    check.require(api_key, version)
    if not has_field(api_key, version):   # nothing to ask: P1 judges the decoding
        first = schema_facts.first_message_version(api_key)
        raise Unsupported(f"{APIS[api_key].name} v{version} has no error_message field"
                          + (f" (from v{first})" if first is not None else ""))
    if api_key in MUTATING_KEYS:
        check.require_mutations()
    client = check.client()
    existing = provoked_topics.existing_topics(check, api_key) if provoked_topics.names_topics(api_key) else []
    soft: set[str] = set()
    codes: set[int] = set()     # what this check's answers said where they can carry a message

    def messages_as_kafka(value):
        resp = client.answered(api_key, version, value["body"])
        for e in message_expectations(api_key, version, resp):     # the judge decides
            check.expect_data(e)
        codes.update(item.get("error_code") for _, item in _sites(api_key, resp))
        soft.update(soft_findings(api_key, version, resp))

    check.given(check.avoiding(api_key, provoking.requests(api_key, version, check.prefix, existing,
                                                         prefixed_only=check.broker.external))
                .map(lambda b: {"body": b}), messages_as_kafka)
    screened = traffic.judge_seen(check, "P6", api_key, version)
    always = explained(api_key)
    seen = codes | traffic_codes(check, api_key, version)
    errors = sorted(seen & set(always))
    asked = (f"{check.examples} generated answers and {max(screened - check.examples, 0)} answers to other checks "
             "screened")
    if always and not errors:
        # the successes were judged, the errors Kafka always explains never asked: half a
        # property is no pass (where Kafka explains no code always, successes are all of it)
        raise Unsupported(f"nothing in this run provoked an error {APIS[api_key].name} always explains "
                          f"({', '.join(error_name(c) for c in sorted(always))}) at v{version}: {asked}")
    if not codes & ({Errors.NONE} | set(always)):
        # the run's other answers are screened for findings only: this check's own answers
        # are what its row judges, and none was a success or an error Kafka always explains
        raise Unsupported(f"nothing this check asked got an answer P6 judges at {APIS[api_key].name} v{version}: "
                          f"its {check.examples} generated answers carried "
                          f"{', '.join(error_name(c) for c in sorted(c for c in codes if c is not None)) or 'no code'}"
                          ", no success and no error Kafka always explains")
    check.message = "; ".join(
        ([f"errors judged: {', '.join(error_name(c) for c in errors)}"] if errors else
         [f"only successes to judge ({APIS[api_key].name} has no error Kafka always explains)"])
        + ([f"soft: {'; '.join(sorted(soft))}"] if soft else []))


def traffic_codes(check, api_key: int, version: int) -> set[int]:
    """Every error code this broker answered ``api_key`` at ``version`` with in the run so
    far (other checks' answers included: fixtures/traffic.py)."""
    log = traffic.log_of(check)
    return set(log.codes(check.spec, api_key, version)) if log is not None else set()
