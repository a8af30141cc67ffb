"""A1: topic-management policies (KIP-108 CreateTopicPolicy, KIP-133 AlterConfigPolicy;
KIP-201's rationale): a violating item gets POLICY_VIOLATION with the policy's
message, the other items of the batch are unaffected, validate_only gives the same verdict
and changes nothing, and the policy saw exactly the requested state.

The broker must run the suite's own policies (``kafka:VERSION,preset=policy``: Java
sources in ``fixtures/brokers/plugins``, compiled against the target's kafka-clients).
Their verdicts are derivable: a topic name carrying ``policy-reject`` is refused by the
create-topic policy; ``retention.ms=1000013`` is refused by the alter-config policy. Each
policy appends what it was shown to a log the suite reads. On any other broker every row
is ``unsupported``: no other target can be configured with a policy.

What released Kafka does (read in its code, checked on kafka:4.4.0):

* CreateTopics: ``ReplicationControlManager.createTopic`` validates a new topic's configs
  through ``ConfigurationControlManager`` (so the **alter-config** policy sees them, and
  refuses ``retention.ms=1000013`` before the create-topic policy is asked), then calls
  ``CreateTopicPolicy.validate`` with the topic, partition count, replication factor,
  assignments and configs as requested; a ``PolicyViolationException`` becomes
  ``POLICY_VIOLATION`` (44) with the exception's message, for that topic only.
  validate_only requests are validated the same way (the records are dropped).
* AlterConfigs / IncrementalAlterConfigs: ``ConfigurationControlManager`` calls
  ``AlterConfigPolicy.validate`` per resource (what it is shown is recorded, and checked
  against the request below).
* ZooKeeper mode (3.x): ``ZkAdminManager.createTopics`` asks only the CreateTopicPolicy,
  which is then shown every topic, the refused config too (the suite's create-topic policy
  refuses ``retention.ms=1000013`` with the same message, so the verdicts are the same);
  the alter-config policy never sees CreateTopics (reference/modes.py
  ``CREATE_TOPICS_ALTER_CONFIG_POLICY``). AlterConfigs / IncrementalAlterConfigs ask the
  alter-config policy as in KRaft.
* CreatePartitions applies no policy in released Kafka (``ReplicationControlManager
  .createPartitions``; KIP-201's partition policy was never released): unsupported.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import Unsupported
from fixtures.waiting import VISIBLE_S
from protocol import AlterConfigOp, ApiKey, Errors, schema_facts
from protocol import requests as build
from protocol.apis import SPECS

from .parametrize import every_version
from reference.modes import CREATE_TOPICS_ALTER_CONFIG_POLICY

NAME_MARKER = "policy-reject"
REFUSED = ("retention.ms", "1000013")
ACCEPTED_RETENTION = "86400017"
CREATE_MESSAGE = "kac-policy: topic name {name} carries the marker " + NAME_MARKER
CONFIG_MESSAGE = f"kac-policy: {REFUSED[0]}={REFUSED[1]} is refused"
SOURCE = ("KIP-108 (CreateTopicPolicy), KIP-133 (AlterConfigPolicy), KIP-201 (Rationalising Policy interfaces); apache/kafka "
          "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java createTopic "
          "(createTopicPolicy.validate -> POLICY_VIOLATION with the message), ConfigurationControlManager.java "
          "(alterConfigPolicy.validate)")
APIS = (ApiKey.CreateTopics, ApiKey.AlterConfigs, ApiKey.IncrementalAlterConfigs, ApiKey.CreatePartitions)

#: item kinds: ok, refused by the topic name (CreateTopics), refused by a config value
KINDS = {ApiKey.CreateTopics: ("ok", "name", "config"), ApiKey.AlterConfigs: ("ok", "config"),
         ApiKey.IncrementalAlterConfigs: ("ok", "config")}


def policy_target(check):
    """The target's policy logs; Unsupported unless the broker runs the suite's policies."""
    info = check.broker
    target = check.context.pool.targets.get(check.spec)
    if info.preset != "policy" or not hasattr(target, "policy_logs"):
        raise Unsupported("needs a broker running the suite's policies: kafka:VERSION,preset=policy "
                          "(no other target can load a policy)")
    return target


def policy_saw(target, names: set[str]) -> list[dict]:
    out = []
    for path in target.policy_logs():
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        for line in lines:
            entry = json.loads(line)
            if entry.get("topic", entry.get("resource_name")) in names:
                out.append(entry)
    return out


def has_error_message(api_key: int, version: int) -> bool:
    return schema_facts.item_has(api_key, version, "error_message")


def _batch(api_key, version):
    kinds = st.sampled_from(KINDS[api_key])
    return st.fixed_dictionaries({
        "items": st.lists(kinds, min_size=1, max_size=4),
        "validate_only": st.booleans() if schema_facts.has_field(api_key, version, "validate_only") else st.just(False),
        "partitions": st.integers(1, 3),
    })


@pytest.mark.prop("A1", source=SOURCE)
@pytest.mark.needs_broker("preset=policy")
@pytest.mark.parametrize("api_key,version", every_version(APIS))
def test_a1_a_policy_refuses_only_the_violating_items_with_its_message(check, api_key, version):
    """Per item: POLICY_VIOLATION (44) and the policy's message (where the version has
    error_message) for a violating item, NONE for the others; validate_only answers the
    same and changes nothing; what the policy was shown equals what was requested."""
    check.require(api_key, version)
    check.require_mutations()
    target = policy_target(check)
    if api_key == ApiKey.CreatePartitions:
        raise Unsupported("released Kafka applies no policy to CreatePartitions "
                          "(ReplicationControlManager.createPartitions; KIP-201 was never released)")
    admin = Admin(check)

    def judged(case):
        kinds, vo, partitions = case["items"], case["validate_only"], case["partitions"]
        names = [check.topic(NAME_MARKER if k == "name" else "a1") for k in kinds]
        value = {"ok": ACCEPTED_RETENTION, "config": REFUSED[1]}
        if api_key == ApiKey.CreateTopics:
            topics = [build.topic(n, partitions, 1, configs=[(REFUSED[0], REFUSED[1] if k == "config"
                                                              else ACCEPTED_RETENTION)])
                      for n, k in zip(names, kinds)]
            body = build.create_topics(version, topics, timeout_ms=30000, validate_only=vo)
        else:
            for n in names:
                admin.create_topic(n)
            if api_key == ApiKey.AlterConfigs:
                body = build.alter_configs(version, [(n, [(REFUSED[0], value[k])]) for n, k in zip(names, kinds)],
                                           validate_only=vo)
            else:
                body = build.incremental_alter_configs(
                    version, [(n, [(REFUSED[0], AlterConfigOp.SET, value[k])]) for n, k in zip(names, kinds)],
                    validate_only=vo)
        admin.client.answered(api_key, version, body)
        _state_expectations(check, api_key, version, names, kinds)      # the judge decides
        _no_change_unless_accepted(admin, api_key, names, kinds, vo, partitions)
        _policy_saw_the_request(check, target, api_key, names, kinds, partitions)

    check.needs_config("an Apache Kafka broker with the suite's policies loaded: "
                       "create.topic.policy.class.name=kac.KacCreateTopicPolicy and "
                       "alter.config.policy.class.name=kac.KacAlterConfigPolicy (kafka:VERSION,preset=policy; "
                       "sources in fixtures/brokers/plugins/)")
    check.given(_batch(api_key, version), judged)


def refused(api_key: int, kind: str) -> bool:
    """Does a policy refuse an item of ``kind``? Every kind but ``ok``: a CreateTopics config
    item is refused by the alter-config policy in KRaft and by the create-topic policy in
    ZooKeeper mode (the suite's create-topic policy refuses the same value, same message)."""
    return kind != "ok"


def _state_expectations(check, api_key, version, names, kinds) -> None:
    """The verdict on the request just sent, as data for the reproducer: per item, NONE or
    POLICY_VIOLATION, and the policy's message where the version has error_message."""
    spec = SPECS[api_key]
    for n, k in zip(names, kinds):
        entry = [spec.results, {spec.item: n}]
        want = Errors.POLICY_VIOLATION if refused(api_key, k) else Errors.NONE
        check.expect_field(entry + ["error_code"], [int(want)], count=1,
                           says=f"{k} item {n}: {want.name}")
        if want and has_error_message(api_key, version):
            text = CREATE_MESSAGE.format(name=n) if k == "name" else CONFIG_MESSAGE
            check.expect_field(entry + ["error_message"], [text], says=f"{k} item {n}: the policy's message")


def _no_change_unless_accepted(admin, api_key, names, kinds, validate_only, partitions):
    """Only accepted items of a real request change anything (every broker agrees), polled
    until it settles: Metadata of every broker lists exactly the topics created (CreateTopics),
    DescribeConfigs shows the accepted retention.ms only where it was applied and never the
    refused one."""
    check = admin.check
    vo = "validate_only " if validate_only else ""

    def look():
        for n, k in zip(names, kinds):
            applied = not refused(api_key, k) and not validate_only
            if api_key == ApiKey.CreateTopics:
                for a in admin.everywhere():
                    a.metadata([n])
                    if applied:
                        check.expect_field(["topics", {"name": n}, "error_code"], [Errors.NONE], count=1,
                                           says=f"{vo}state after the request: topic {n} ({k}) exists")
                    else:
                        check.expect_field(["topics", {"name": n}, "error_code"], refused=[Errors.NONE],
                                           says=f"{vo}state after the request: topic {n} ({k}) was not created")
            else:
                admin.describe_configs(n, [REFUSED[0]])
                at = ["results", {"resource_name": n}, "configs", {"name": REFUSED[0]}, "value"]
                if applied:
                    check.expect_field(at, [ACCEPTED_RETENTION], count=1,
                                       says=f"{vo}state after the request: {n} ({k}) has {REFUSED[0]}={ACCEPTED_RETENTION}")
                else:
                    check.expect_field(at, refused=[ACCEPTED_RETENTION, REFUSED[1]],
                                       says=f"{vo}state after the request: {n} ({k}) keeps its {REFUSED[0]}")

    check.poll(look, VISIBLE_S)


def _policy_saw_the_request(check, target, api_key, names, kinds, partitions):
    """The policies were shown each item as requested (the alter-config policy decides a
    refused config before the create-topic policy is asked, so those are not shown to it):
    what their logs say, judged as the suite's observation (a reproducer cannot see it)."""
    saw = policy_saw(target, set(names))
    for n, k in zip(names, kinds):
        mine = [e for e in saw if e.get("topic", e.get("resource_name")) == n]
        value = REFUSED[1] if k == "config" else ACCEPTED_RETENTION
        configs = [e for e in mine if e["policy"] == "alter_config"]
        alter_policy = api_key != ApiKey.CreateTopics or CREATE_TOPICS_ALTER_CONFIG_POLICY.now()
        if alter_policy:
            check.expect_observed(f"the {REFUSED[0]} values the alter-config policy was shown for {n}",
                                  [e["configs"].get(REFUSED[0]) for e in configs], has=[value],
                                  says=f"{n}: the alter-config policy was shown {REFUSED[0]}={value}")
        else:
            check.expect_observed(f"what the alter-config policy was shown for CreateTopics item {n}", configs, [[]],
                                  says=f"{n}: the alter-config policy is not shown a CreateTopics item (ZooKeeper "
                                       "mode's ZkAdminManager.createTopics never asks it)")
        if api_key == ApiKey.CreateTopics and (k != "config" or not alter_policy):
            shown = {"partitions": partitions, "replication_factor": 1, "configs": {REFUSED[0]: value}}
            created = [{key: e.get(key) for key in shown} for e in mine if e["policy"] == "create_topic"]
            check.expect_observed(f"what the create-topic policy was shown for {n}", created, has=[shown],
                                  says=f"{n}: the create-topic policy was shown {shown}")
