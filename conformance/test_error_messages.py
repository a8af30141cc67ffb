"""P6: where a version has ``error_message``, an error carries a message and a success none.

What released Apache Kafka (4.x, KRaft) really sends decides what fails
(``reference/error_codes.py`` ``ERROR_MESSAGE``, docs/reference-semantics.md P6):

* **Success.** CreateTopics, DeleteTopics, CreatePartitions, AlterConfigs and
  IncrementalAlterConfigs answer ``error_message`` null (:data:`ON_SUCCESS`).
  DescribeConfigs answers the empty string: ``ConfigHelperUtils.toDescribeConfigsResult``
  sets only the code, and a string field without ``"default": "null"`` starts as ``""``
  (``MessageDataGenerator.fieldDefault``); its schema says null, so both pass there.
  Anything else on a success (a text, or ``""`` where Kafka sends null) **fails**.
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
per result item, which the judge decides; :func:`soft_findings` notes the rest. The hard
rules also screen every answer the suite's other checks receive (``fixtures/traffic.py``);
these checks run last and fold those findings into their cell.
"""
from __future__ import annotations

import pytest

from fixtures import traffic
from fixtures.harness import Unsupported
from protocol import SPECS, ApiKey, Errors, schema_facts
from protocol.apis import results, spec
from protocol.codec import APIS
from protocol.errors import error_name
from strategies import provoke as provoking

from . import provoked_topics
from .parametrize import MUTATING_KEYS, every_version
from reference import error_codes as ec

S = ec._src
RC, CA, CAM = ec.REPLICATION_CONTROL, ec.CONTROLLER_APIS, ec.CONFIG_ADMIN_MANAGER
CCM, CCV = ec.CONFIGURATION_CONTROL, ec.CONTROLLER_CONFIG_VALIDATOR
API_ERROR = "clients/src/main/java/org/apache/kafka/common/requests/ApiError.java"

NULL, NULL_OR_EMPTY = frozenset({None}), frozenset({None, ""})

#: api -> (what a success may carry, source)
ON_SUCCESS: dict[int, tuple[frozenset, str]] = {
    ApiKey.CreateTopics: (
        NULL, S(RC, "createTopic success result setErrorMessage(null)") + "; "
        + S("metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java",
            "expects CreatableTopicResult ... setErrorMessage(null).setErrorCode(0)")),
    ApiKey.DeleteTopics: (
        NULL, S(CA, "deleteTopics appendResponse(name, id, ApiError.NONE) setErrorMessage(error.message) (null)")
        + "; " + S(ec.MSG + "DeleteTopicsResponse.json", 'ErrorMessage "default": "null"')),
    ApiKey.DescribeConfigs: (
        NULL_OR_EMPTY, S("server/src/main/java/org/apache/kafka/server/ConfigHelperUtils.java",
                         "toDescribeConfigsResult setErrorCode(NONE) only -> the field's default \"\"")
        + "; " + S(ec.MSG + "DescribeConfigsResponse.json", '"or null if we were able to successfully describe"')),
    ApiKey.AlterConfigs: (
        NULL, S(CA, "handleLegacyAlterConfigs setErrorMessage(entry.getValue.message()) (ApiError.NONE: null)")
        + "; " + S(CAM, "reassembleLegacyResponse keeps the controller's message")),
    ApiKey.CreatePartitions: (
        NULL, S(RC, "createPartitions: ApiError.NONE -> setErrorMessage(apiError.message()) (null)")
        + "; " + S(ec.MSG + "CreatePartitionsResponse.json", 'ErrorMessage "default": "null"')),
    ApiKey.IncrementalAlterConfigs: (
        NULL, S(CA, "handleIncrementalAlterConfigs setErrorMessage(entry.getValue.message()) (ApiError.NONE: null)")
        + "; " + S(CAM, "reassembleIncrementalResponse new ApiError(code, errorMessage)")),
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
            S(ec.CONFIG_HELPER, "describeConfigs: Topic.validate -> ApiError.fromThrowable keeps the text")},
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
        S(ec.CONFIG_HELPER, "describeConfigs: setErrorCode(UNKNOWN_TOPIC_OR_PARTITION) only (\"\")"),
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
          + "; " + S(ec.MSG + "*Response.json", "ErrorMessage versions/nullableVersions/default"))

APIS_WITH_MESSAGES = (ApiKey.CreateTopics, ApiKey.DeleteTopics, ApiKey.DeleteRecords, ApiKey.DescribeConfigs,
                      ApiKey.AlterConfigs, ApiKey.CreatePartitions, ApiKey.IncrementalAlterConfigs)


def has_field(api_key: int, version: int) -> bool:
    return schema_facts.item_has(api_key, version, "error_message")


def item_name(api_key: int, item: dict):
    """What names a result item: the resource, the topic, or ``("id", topic_id)`` for a
    DeleteTopics entry without a name (DeleteRecords' partitions: None)."""
    if api_key == ApiKey.DeleteTopics and item.get("name") is None:
        return ("id", str(item.get("topic_id")))
    return item.get(spec(api_key).item)


def soft_findings(api_key: int, version: int, response: dict) -> list[str]:
    """Errors without a message that Kafka does not always explain either (not verdicts:
    the row's note)."""
    soft = []
    if not has_field(api_key, version):
        return soft
    name = APIS[api_key].name
    for item in results(api_key, response):
        code, msg = item.get("error_code"), item.get("error_message")
        if code != Errors.NONE and not msg and code not in ALWAYS.get(api_key, {}):
            soft.append(f"{name} {error_name(code)} without a message" +
                        (", as Kafka" if (api_key, code) in KAFKA_OMITS else ""))
    return soft


def message_expectations(api_key: int, version: int, response: dict) -> list[dict]:
    """The oracle's hard rules as expectations (docs/results.md), per result item of
    ``response`` (DeleteRecords' partitions aside): the item's entry, with the code it
    answered, carries no message on NONE (Kafka's exceptions aside) and one where Kafka
    always explains the code. The judge decides them on every answer (a traffic screen) and
    on the check's own."""
    if not has_field(api_key, version) or api_key == ApiKey.DeleteRecords or api_key not in ON_SUCCESS:
        return []
    key, nk = SPECS[api_key].results, SPECS[api_key].item
    out = []
    for item in results(api_key, response):
        code, name = item.get("error_code"), item.get(nk)
        who = {nk: name} if name is not None else {"topic_id": str(item.get("topic_id"))}
        path = [key, {**who, "error_code": code}, "error_message"]
        shown = repr(item_name(api_key, item))
        if code == Errors.NONE:
            allowed, source = ON_SUCCESS[api_key]
            out.append({"kind": "field", "path": path, "in": sorted(allowed, key=str),
                        "says": f"{APIS[api_key].name} v{version} {shown} answered NONE: error_message "
                                f"{' or '.join(repr(a) for a in sorted(allowed, key=str))} ({source})"})
        elif code in ALWAYS.get(api_key, {}):
            out.append({"kind": "field", "path": path, "not_in": [None, ""],
                        "says": f"{APIS[api_key].name} v{version} {shown} answered {error_name(code)} ({code}): "
                                f"an error_message, Kafka always explains it ({ALWAYS[api_key][code]})"})
    return out


@traffic.screen("P6")
def _hard_problems(api_key, version, request, response):
    return message_expectations(api_key, version, response) if api_key in ON_SUCCESS else []


@pytest.mark.prop("P6", source=SOURCE)
@pytest.mark.reads_traffic
@pytest.mark.parametrize("api_key,version", every_version(APIS_WITH_MESSAGES))
def test_p6_errors_carry_a_message_and_successes_none(check, api_key, version):
    """Where the version has error_message: a success carries none (null; "" only for
    DescribeConfigs, as Kafka), an error Kafka always explains carries a message; other
    unexplained errors are soft findings. Versions without the field answer without one."""
    check.require(api_key, version)
    if not has_field(api_key, version):   # nothing to ask: P1 judges the decoding
        raise Unsupported(f"{APIS[api_key].name} v{version} has no error_message field "
                          f"(from v{ec.ERROR_MESSAGE.get(api_key, ('?',))[0]})")
    if api_key in MUTATING_KEYS:
        check.require_mutations()
    client = check.client()
    existing = provoked_topics.existing_topics(check, api_key)
    soft: set[str] = set()

    def messages_as_kafka(value):
        resp = client.answered(api_key, version, value["body"])
        for e in message_expectations(api_key, version, resp):     # the judge decides
            check.expect_data(e)
        soft.update(soft_findings(api_key, version, resp))

    check.given(provoking.requests(api_key, version, check.prefix, existing,
                                 prefixed_only=check.broker.external).map(lambda b: {"body": b}),
                messages_as_kafka)
    traffic.judge_seen(check, "P6", api_key, version)
    if soft:
        check.message = "soft: " + "; ".join(sorted(soft))
