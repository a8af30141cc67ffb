"""A2: authorization never reveals whether a topic exists (KIP-4's DeleteTopics vote, point 5), as
released Apache Kafka authorizes each admin API.

The broker must authorize (``kafka:VERSION,preset=acl``: KRaft's ``StandardAuthorizer``
behind SASL/PLAIN, ``fixtures/acl.py``). Each check creates, as the suite's super user, two
topics and names three more that do not exist, gives the **restricted** principal exactly
these ACLs (LITERAL, ALLOW) and removes them when it ends:

| role | exists | the restricted principal may |
|---|---|---|
| ``hidden-existing`` / ``hidden-missing`` | yes / no | nothing |
| ``described-existing`` / ``described-missing`` | yes / no | DESCRIBE |
| ``granted-missing`` | no | the operation the API needs (Delete, Alter, ...; Describe for Metadata) |

then sends the API's request naming all five as the restricted principal (validate_only
first where the version has it, then the real request) and holds each answer to Kafka's.
The ``granted-missing`` name shows the principal's own ACLs are in force: it is also the
broker's signal the check waits for (the restricted principal's answer for it stops being
TOPIC_AUTHORIZATION_FAILED) before it judges anything.

What Kafka answers, read in its code (apache/kafka, 4.x), where it differs from the
catalogue's summary ("Describe but not Delete/Alter: existing -> TOPIC_AUTHORIZATION_FAILED,
unknown -> UNKNOWN_TOPIC_OR_PARTITION"):

* **DeleteTopics** (``ControllerApis.deleteTopics``): by name, not describable ->
  TOPIC_AUTHORIZATION_FAILED whether or not it exists; describable but unknown ->
  UNKNOWN_TOPIC_OR_PARTITION; describable, existing, not deletable ->
  TOPIC_AUTHORIZATION_FAILED: the summary exactly. **By id** (v6+) an unknown id answers
  UNKNOWN_TOPIC_ID before any authorization (ids are not names), and a known id the
  principal may not delete answers TOPIC_AUTHORIZATION_FAILED with the name left null
  unless the topic is describable (the id does not reveal the name).
* **DeleteRecords** (``KafkaApis.handleDeleteRecordsRequest``): only DELETE is checked,
  before existence: without it every topic answers TOPIC_AUTHORIZATION_FAILED, Describe or
  not; an unknown one answers UNKNOWN_TOPIC_OR_PARTITION only to a principal that may delete.
* **CreatePartitions** (``ControllerApis.createPartitions``): only ALTER, before existence:
  TOPIC_AUTHORIZATION_FAILED for every topic without it (Describe or not, existing or not).
* **DescribeConfigs** (``ConfigHelper.handleDescribeConfigsRequest``): DESCRIBE_CONFIGS, an
  operation of its own (Describe does not imply it): TOPIC_AUTHORIZATION_FAILED for every
  topic without it, existing or not.
* **AlterConfigs / IncrementalAlterConfigs** (``ControllerApis.authorizeAlterResource``):
  ALTER_CONFIGS, before existence: TOPIC_AUTHORIZATION_FAILED without it.
* **CreateTopics** (``ControllerApis.createTopics``): CREATE on the cluster or the topic,
  checked before the controller sees the topic: TOPIC_AUTHORIZATION_FAILED ("Authorization
  failed.") without it, also for a topic that exists (never TOPIC_ALREADY_EXISTS).
  CLUSTER_AUTHORIZATION_FAILED does not arise: lacking cluster CREATE only means each topic
  is checked on its own.
* **Metadata** (``KafkaApis.handleTopicMetadataRequest``): a request for every topic leaves
  out the topics the principal may not describe; a request naming them answers
  TOPIC_AUTHORIZATION_FAILED for each, existing or not, without partitions and with a zero
  topic id (v10+). A describable unknown topic answers UNKNOWN_TOPIC_OR_PARTITION when the
  request does not ask for auto-creation (v4+, the suite says false); v0-v3 always ask
  for it, and with ``auto.create.topics.enable`` (Kafka's default) a principal without
  CREATE gets TOPIC_AUTHORIZATION_FAILED for it (``unauthorizedForCreateTopics``); a
  broker with auto-creation off answers UNKNOWN_TOPIC_OR_PARTITION there too
  (``reference/broker_config.py`` METADATA_AUTO_CREATES).

A ZooKeeper-mode broker (3.x, ``AclAuthorizer``) answers the same, except DeleteTopics of
a describable missing topic: TOPIC_AUTHORIZATION_FAILED, as its ZooKeeper branch authorizes
DELETE before it looks the topic up (reference/modes.py ``DELETE_TOPICS_DESCRIBABLE_MISSING``).

validate_only is authorized exactly like the real request: the same codes for every name
(the authorization happens before the controller is told it is only a validation).
Neither request changes the topics the principal may not touch (they still exist, with
their one partition).

On any other broker every row is ``unsupported``: no other target can be configured with
an authorizer and the suite's principals.
"""
from __future__ import annotations

import uuid

import pytest
from hypothesis import strategies as st

from fixtures import acl
from fixtures.admin import Admin
from fixtures.harness import Unsupported, expect_setup
from fixtures.waiting import VISIBLE_S, eventually
from protocol import AlterConfigOp, ApiKey, Errors, schema_facts
from protocol import requests as build
from protocol.apis import SPECS
from protocol.requests import AclOperation

from .parametrize import MUTATING_KEYS, every_version
from reference import error_codes as ec
from reference.broker_config import METADATA_AUTO_CREATES
from reference.kips import KIP_4_DELETE_TOPICS
from reference.modes import DELETE_TOPICS_DESCRIBABLE_MISSING
from protocol.kafka_sources import KAFKA

SOURCE = (KIP_4_DELETE_TOPICS + " point 5 (no existence leak); " + KAFKA
          + "core/src/main/scala/kafka/server/ControllerApis.scala (deleteTopics, createTopics, createPartitions, "
          "authorizeAlterResource), core/src/main/scala/kafka/server/KafkaApis.scala (handleTopicMetadataRequest, "
          "handleDeleteRecordsRequest), core/src/main/scala/kafka/server/ConfigHelper.scala "
          "(handleDescribeConfigsRequest: DESCRIBE_CONFIGS)")
#: the ACL operation each API needs on the topic (Kafka's AclOperation), in API-key order
NEEDS = {ApiKey.Metadata: AclOperation.DESCRIBE, ApiKey.CreateTopics: AclOperation.CREATE,
         ApiKey.DeleteTopics: AclOperation.DELETE, ApiKey.DeleteRecords: AclOperation.DELETE,
         ApiKey.DescribeConfigs: AclOperation.DESCRIBE_CONFIGS, ApiKey.AlterConfigs: AclOperation.ALTER_CONFIGS,
         ApiKey.CreatePartitions: AclOperation.ALTER, ApiKey.IncrementalAlterConfigs: AclOperation.ALTER_CONFIGS}
#: the APIs A2 judges: those whose ACL need it knows
APIS = tuple(NEEDS)
ROLES = ("hidden-existing", "hidden-missing", "described-existing", "described-missing", "granted-missing")
EXISTING = ("hidden-existing", "described-existing")
DESCRIBED = ("described-existing", "described-missing")
RETENTION = ("retention.ms", "86400019")
TAF, UNKNOWN = Errors.TOPIC_AUTHORIZATION_FAILED, Errors.UNKNOWN_TOPIC_OR_PARTITION


def expected(api_key: int, version: int, role: str) -> Errors | None:
    """Kafka's answer for a name of ``role`` (None: Metadata for every topic leaves it out
    / lists it; see the module docstring for each rule's source)."""
    if role.startswith("hidden"):
        return TAF
    if api_key == ApiKey.Metadata:
        if role == "described-existing":
            return Errors.NONE
        # missing and describable; a version without allow_auto_topic_creation asks for
        # auto-creation, which only a broker with auto.create.topics.enable=true attempts
        asks = not schema_facts.has_field(api_key, version, "allow_auto_topic_creation")
        return TAF if asks and METADATA_AUTO_CREATES.now() else UNKNOWN
    if role == "granted-missing":
        return Errors.NONE if api_key == ApiKey.CreateTopics else UNKNOWN
    if role == "described-missing" and api_key == ApiKey.DeleteTopics:
        return DELETE_TOPICS_DESCRIBABLE_MISSING.now()      # ZooKeeper mode: TAF (reference/modes.py)
    return TAF


def has_validate_only(api_key: int, version: int) -> bool:
    return schema_facts.defines(api_key, "validate_only") and schema_facts.has_field(api_key, version, "validate_only")


def request(api_key: int, version: int, names: list[str], validate_only: bool = False) -> dict:
    """The API's request naming ``names`` (one item each)."""
    if api_key == ApiKey.Metadata:
        return build.metadata(version, names)
    if api_key == ApiKey.CreateTopics:
        return build.create_topics(version, [build.topic(n) for n in names], timeout_ms=30000,
                                   validate_only=validate_only)
    if api_key == ApiKey.DeleteTopics:
        return build.delete_topics(version, names, timeout_ms=30000)
    if api_key == ApiKey.DeleteRecords:
        return build.delete_records(version, [(n, [(0, 0)]) for n in names], timeout_ms=30000)
    if api_key == ApiKey.CreatePartitions:
        return build.create_partitions(version, [(n, 2) for n in names], timeout_ms=30000,
                                       validate_only=validate_only)
    if api_key == ApiKey.DescribeConfigs:
        return build.describe_configs(version, [(n, None) for n in names])
    if api_key == ApiKey.AlterConfigs:
        return build.alter_configs(version, [(n, [RETENTION]) for n in names], validate_only=validate_only)
    return build.incremental_alter_configs(version, [(n, [(RETENTION[0], AlterConfigOp.SET, RETENTION[1])])
                                                     for n in names], validate_only=validate_only)


def code_path(api_key: int, name: str) -> list:
    """Where ``name``'s error code(s) sit in the API's answer (per partition for DeleteRecords)."""
    s = SPECS[api_key]
    return [s.results, {s.item: name}, *([s.partitions] if s.partitions else []), "error_code"]


def codes(api_key: int, response: dict) -> dict[str, set[int]]:
    """name -> the error codes its entries carry."""
    s = SPECS[api_key]
    out: dict[str, set[int]] = {}
    for e in response.get(s.results) or []:
        found = [p["error_code"] for p in e.get(s.partitions) or []] if s.partitions else [e["error_code"]]
        out.setdefault(e.get(s.item), set()).update(found)
    return out


def acl_target(check) -> None:
    if check.broker.preset != "acl":
        raise Unsupported("needs an authorizing broker with the suite's principals: kafka:VERSION,preset=acl "
                          "(no other target can be configured so)")


@pytest.mark.prop("A2", source=SOURCE)
@pytest.mark.needs_broker("preset=acl")
@pytest.mark.parametrize("api_key,version", every_version(APIS))
def test_a2_authorization_errors_do_not_reveal_whether_a_topic_exists(check, api_key, version):
    """As the restricted principal: each name answers what Kafka answers for its role
    (TOPIC_AUTHORIZATION_FAILED alike for existing and missing topics the principal may not
    describe), Metadata for every topic lists only describable ones, validate_only answers
    exactly like the real request, and nothing the principal may not touch changes."""
    check.require(api_key, version)
    if api_key in MUTATING_KEYS:
        check.require_mutations()
    acl_target(check)
    check.needs_config(acl.CONFIG_NOTE)
    admin = Admin(check)
    restricted = check.client(principal=acl.RESTRICTED)

    def judged(case):
        names = {role: check.topic("a2-" + role.split("-")[0][:4]) for role in ROLES}
        for role in EXISTING:
            admin.create_topic(names[role])
        grants = [(names[r], AclOperation.DESCRIBE) for r in DESCRIBED] + [(names["granted-missing"], NEEDS[api_key])]
        with acl.Grants(check, admin) as granted:
            granted.allow(grants)
            _in_force(check, restricted, api_key, version, names)
            ordered = [names[r] for r in case["order"]]
            sent = []       # the judge decides: each role's code, and the real request's equal to validate_only's
            for vo in ([True, False] if has_validate_only(api_key, version) else [False]):
                restricted.answered(api_key, version, request(api_key, version, ordered, vo))
                sent.append(len(check.steps) - 1)
                _expect_codes(check, api_key, version, names)
            if len(sent) == 2:
                for role in ROLES:
                    check.expect_same(code_path(api_key, names[role]), sent[0],
                                      says=f"{role}: the real request answers what validate_only answered")
            if api_key == ApiKey.Metadata:
                _every_topic_lists_only_describable(check, restricted, version, names)
            if api_key == ApiKey.DeleteTopics and schema_facts.has_field(api_key, version, "topics.topic_id"):
                _delete_by_id(check, admin, restricted, version, names)
            _untouched(admin, api_key, names)

    check.given(st.fixed_dictionaries({"order": st.permutations(ROLES)}), judged,
                max_examples=min(2, check.context.budget.max_examples))


def _names(found) -> str:
    return "/".join(f"{c} {ec.ERRORS.get(c, '')}".strip() for c in sorted(found)) if found else "no entry"


def _expect_codes(check, api_key, version, names) -> None:
    for role in ROLES:
        check.expect_field(code_path(api_key, names[role]), [expected(api_key, version, role)], min_count=1,
                           says=f"{role}: {_names({expected(api_key, version, role)})}")


def _in_force(check, restricted, api_key, version, names) -> None:
    """Wait until the broker applies the check's ACLs, by the restricted principal's own
    answers: Metadata shows the described topic, and the API answers the granted name with
    something other than TOPIC_AUTHORIZATION_FAILED (validate_only where it has it)."""
    mv = min(check.broker.advertised(ApiKey.Metadata)[1], 12)
    probe = build.metadata(mv, [names["described-existing"]])
    held, got = eventually(lambda: codes(ApiKey.Metadata, restricted.answered(ApiKey.Metadata, mv, probe)),
                           lambda c: c.get(names["described-existing"]) == {Errors.NONE}, within=VISIBLE_S)
    expect_setup(held, f"setup: the restricted principal's DESCRIBE ACL is not in force after {VISIBLE_S}s ({got})")
    check.expect_field(["topics", {"name": names["described-existing"]}, "error_code"], [Errors.NONE],
                       setup=True, retry_s=VISIBLE_S)
    if api_key == ApiKey.Metadata:
        return
    gm = names["granted-missing"]
    probe_version = version
    if api_key == ApiKey.CreateTopics and not has_validate_only(api_key, version):
        # CreateTopics v0 (3.x lines) has no validate_only: probing with it would create the
        # topic the check then asks to create; the ACL is the same at v1 (validate_only)
        probe_version = 1 if check.broker.advertised(api_key)[1] >= 1 else version
    body = request(api_key, probe_version, [gm], validate_only=has_validate_only(api_key, probe_version))
    held, got = eventually(lambda: codes(api_key, restricted.answered(api_key, probe_version, body)),
                           lambda c: c.get(gm) not in (None, {TAF}), within=VISIBLE_S)
    expect_setup(held, f"setup: the restricted principal's {NEEDS[api_key].name} ACL on {gm} is not in force after "
                 f"{VISIBLE_S}s ({got})")
    check.expect_field(code_path(api_key, gm), refused=[TAF], setup=True, retry_s=VISIBLE_S)


def _every_topic_lists_only_describable(check, restricted, version, names) -> None:
    """Metadata for every topic (v0: an empty list) lists the described topic and never a
    topic the principal may not describe."""
    restricted.answered(ApiKey.Metadata, version, build.metadata(version, None))
    check.expect_field(["topics", {"name": names["hidden-existing"]}, "error_code"], count=0,
                       says=f"Metadata v{version} for every topic leaves out {names['hidden-existing']}, which the "
                            "principal may not describe (KafkaApis leaves it out)")
    check.expect_field(["topics", {"name": names["described-existing"]}, "error_code"], [Errors.NONE], count=1,
                       says=f"Metadata v{version} for every topic lists {names['described-existing']}, which the "
                            "principal may describe")


def _delete_by_id(check, admin, restricted, version, names) -> None:
    """DeleteTopics by id (v6+): an unknown id answers UNKNOWN_TOPIC_ID (ids are resolved
    before authorization); a known id the principal may not delete answers
    TOPIC_AUTHORIZATION_FAILED, with the name only when the principal may describe it."""
    hidden, described = names["hidden-existing"], names["described-existing"]
    ids = {n: admin.topic(n).topic_id for n in (hidden, described)}
    unknown = uuid.uuid4()
    restricted.answered(ApiKey.DeleteTopics, version,
                        build.delete_topics(version, ids=[ids[hidden], ids[described], unknown], timeout_ms=30000))
    want = {ids[hidden]: (TAF, None), ids[described]: (TAF, described), unknown: (Errors.UNKNOWN_TOPIC_ID, None)}
    for tid, (code, name) in want.items():
        check.expect_field(["responses", {"topic_id": tid}, "error_code"], [code], count=1,
                           says=f"DeleteTopics v{version} by id {tid}: {_names({code})}")
        check.expect_field(["responses", {"topic_id": tid}, "name"], [name], count=1,
                           says=f"DeleteTopics v{version} by id {tid}: name {name!r}")


def _untouched(admin, api_key, names) -> None:
    """The topics the principal may not change still exist with their one partition (and,
    for the alter-config APIs, without the requested retention.ms)."""
    check = admin.check
    if api_key in (ApiKey.AlterConfigs, ApiKey.IncrementalAlterConfigs):
        for r in EXISTING:
            admin.describe_configs(names[r], [RETENTION[0]])
            check.expect_field(["results", {"resource_name": names[r]}, "configs", {"name": RETENTION[0]}, "value"],
                               refused=[RETENTION[1]],
                               says=f"{r} {names[r]}: the refused request did not set {RETENTION[0]}={RETENTION[1]}")
        return
    if api_key not in (ApiKey.DeleteTopics, ApiKey.CreatePartitions, ApiKey.CreateTopics):
        return
    for r in EXISTING:
        admin.metadata([names[r]])
        at = ["topics", {"name": names[r]}]
        check.expect_field(at + ["error_code"], [Errors.NONE], count=1,
                           says=f"{r} {names[r]} still exists after the refused request")
        check.expect_field(at + ["partitions", "partition_index"], [0], count=1,
                           says=f"{r} {names[r]} keeps its one partition")
