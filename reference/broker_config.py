"""Broker settings that decide answers, and what Kafka answers under each.

The suite's expectations were first written for a broker with Kafka's defaults. A cluster
may be configured otherwise (``delete.topic.enable=false`` is a common production setting;
automatic topic creation off; other default partition counts), and then Kafka answers
otherwise. Each :class:`Setting` here is one broker property that changes answers the
suite checks: its key, Kafka's default, where Kafka reads it, and what it changes. Each
:class:`ConfigRule` says what Kafka answers under a value of one setting, with its source
in apache/kafka; the checks ask the rule (``RULE.now()``) instead of testing the setting
themselves.

Where the values come from (``fixtures/brokers/configuration.py``): the broker itself,
DescribeConfigs of its BROKER resource, read once per broker per run and recorded in the
manifest (``brokers[].config``); for a ``kafka:VERSION`` target the spec says the same
(presets and ``config.KEY=VALUE``), and the two must agree. A setting the broker did not
show (a broker without DescribeConfigs of BROKER resources: tansu, noida-db) is taken at
Kafka's default, which is what the expectations assumed before. The plugin sets the
settings of the broker under check before each check (:func:`use`), as it sets the
release line (:mod:`reference.release_lines`).

In KRaft the controller applies ``delete.topic.enable``, ``num.partitions`` and
``default.replication.factor``; DescribeConfigs shows the broker's own values. On the
suite's Kafka targets every node is both and reads one ``server.properties``; on a
cluster with separate controllers the broker's values are taken to be the controllers'.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from protocol import ApiKey, Errors

from . import error_codes

CONTROLLER_APIS = "apache/kafka core/src/main/scala/kafka/server/ControllerApis.scala"
KAFKA_APIS = "apache/kafka core/src/main/scala/kafka/server/KafkaApis.scala"
RCM = "apache/kafka metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java"
CONTROLLER_SERVER = "apache/kafka core/src/main/scala/kafka/server/ControllerServer.scala"


@dataclass(frozen=True)
class Setting:
    """A broker property that changes answers: ``default`` is Kafka's (typed: bool, int
    or str), ``decides`` which answers it changes, ``source`` where Kafka reads it."""
    key: str
    default: object
    decides: str
    source: str

    def parse(self, text: str | None) -> object:
        """The typed value of ``text`` as DescribeConfigs shows it (None: Kafka's default)."""
        if text is None:
            return self.default
        if isinstance(self.default, bool):
            return text.strip().lower() == "true"
        if isinstance(self.default, int):
            try:
                return int(text.strip())
            except ValueError:
                return self.default
        return text

    def of(self, config: Mapping[str, str | None]) -> object:
        """This setting's value in ``config`` (key -> text), Kafka's default when absent."""
        return self.parse(config.get(self.key))

    def now(self) -> object:
        """The value of the broker under check."""
        return self.of(_current)

    def shown(self) -> object | None:
        """The value of the broker under check if it showed one (or its spec set one), None
        where Kafka's default is only assumed (a broker that shows no configuration)."""
        return self.of(_current) if _current.get(self.key) is not None else None


DELETE_TOPIC_ENABLE = Setting(
    "delete.topic.enable", True, "DeleteTopics: whether any topic can be deleted",
    f"{CONTROLLER_APIS} deleteTopics (if (!config.deleteTopicEnable) ... before anything else)")
AUTO_CREATE_TOPICS_ENABLE = Setting(
    "auto.create.topics.enable", True,
    "Metadata naming a missing topic with allow_auto_topic_creation (v0-v3 always ask): the topic is created",
    f"{KAFKA_APIS} handleTopicMetadataRequest (metadataRequest.allowAutoTopicCreation && "
    "config.autoCreateTopicsEnable); apache/kafka core/src/main/scala/kafka/server/AutoTopicCreationManager.scala")
NUM_PARTITIONS = Setting(
    "num.partitions", 1, "CreateTopics num_partitions -1 (v4+, KIP-464) and auto-created topics: the partition count",
    f"{RCM} createTopic (topic.numPartitions() == -1 ? defaultNumPartitions); {CONTROLLER_SERVER} "
    "(setDefaultNumPartitions(config.numPartitions))")
DEFAULT_REPLICATION_FACTOR = Setting(
    "default.replication.factor", 1,
    "CreateTopics replication_factor -1 (v4+, KIP-464) and auto-created topics: the replication factor "
    "(INVALID_REPLICATION_FACTOR when above the live brokers)",
    f"{RCM} createTopic (topic.replicationFactor() == -1 ? defaultReplicationFactor); {CONTROLLER_SERVER} "
    "(setDefaultReplicationFactor(config.defaultReplicationFactor))")
MIN_INSYNC_REPLICAS = Setting(
    "min.insync.replicas", 1,
    "Produce with acks=-1: NOT_ENOUGH_REPLICAS when a partition has fewer in-sync replicas; the default "
    "of the topic config min.insync.replicas",
    "apache/kafka core/src/main/scala/kafka/cluster/Partition.scala appendRecordsToLeader "
    "(inSyncSize < minIsr && requiredAcks == -1 -> NotEnoughReplicasException)")
CREATE_TOPIC_POLICY = Setting(
    "create.topic.policy.class.name", None, "CreateTopics: POLICY_VIOLATION for what the policy refuses (KIP-108)",
    f"{RCM} createTopic (createTopicPolicy.validate)")
ALTER_CONFIG_POLICY = Setting(
    "alter.config.policy.class.name", None,
    "AlterConfigs, IncrementalAlterConfigs and CreateTopics' configs: POLICY_VIOLATION (KIP-133)",
    "apache/kafka metadata/src/main/java/org/apache/kafka/controller/ConfigurationControlManager.java "
    "(alterConfigPolicy.validate)")
AUTHORIZER = Setting(
    "authorizer.class.name", "", "every API: *_AUTHORIZATION_FAILED for principals without the ACL",
    f"{KAFKA_APIS} / {CONTROLLER_APIS} (authHelper.authorize)")

#: The group types the coordinator serves (``GroupCoordinatorConfig``): "classic" alone by
#: default before 4.0, with "consumer" from 4.0 (the default here is the newest line's; which
#: line has which is ``reference/switches.py`` CONSUMER_GROUPS).
GROUP_PROTOCOLS = Setting(
    "group.coordinator.rebalance.protocols", "classic,consumer",
    "ConsumerGroupHeartbeat / ConsumerGroupDescribe: served only with \"consumer\" among the protocols",
    "apache/kafka group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupCoordinatorConfig.java "
    f"(GROUP_COORDINATOR_REBALANCE_PROTOCOLS_CONFIG); {KAFKA_APIS} isConsumerGroupProtocolEnabled")

#: Every setting the suite reads from a broker, in the order the manifest lists them.
SETTINGS: tuple[Setting, ...] = (DELETE_TOPIC_ENABLE, AUTO_CREATE_TOPICS_ENABLE, NUM_PARTITIONS,
                                 DEFAULT_REPLICATION_FACTOR, MIN_INSYNC_REPLICAS, CREATE_TOPIC_POLICY,
                                 ALTER_CONFIG_POLICY, AUTHORIZER, GROUP_PROTOCOLS)
KEYS: tuple[str, ...] = tuple(s.key for s in SETTINGS)
BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}

#: ``ConfigRule.then``: the answer is the setting's value itself (a default partition count).
VALUE = "the setting's value"


@dataclass(frozen=True)
class ConfigRule:
    """What Kafka answers under ``setting``: ``then`` where the broker's value is ``when``,
    ``otherwise`` else (``then=VALUE``: the setting's value itself). ``measured``: the
    targets the rule was seen to hold on (``docs/kafka.md``)."""
    name: str
    setting: Setting
    then: object
    source: str
    when: object = None
    otherwise: object = None
    measured: tuple[str, ...] = ()

    def at(self, config: Mapping[str, str | None]) -> object:
        value = self.setting.of(config)
        if self.then is VALUE:
            return value
        return self.then if value == self.when else self.otherwise

    def now(self) -> object:
        """The answer for the broker under check."""
        return self.at(_current)

    def shown(self) -> object | None:
        """The answer for the broker under check where it showed the setting, else None."""
        return None if self.setting.shown() is None else self.now()

    def why(self) -> str:
        """``delete.topic.enable=false`` as the broker under check has it, for messages."""
        value = self.setting.now()
        shown = str(value).lower() if isinstance(value, bool) else value
        return f"{self.setting.key}={shown}"


@dataclass(frozen=True)
class Refusal:
    """A request refused as a whole before any of its entries is read: every entry of the
    request gets ``code`` (below the code's first version, what ``error_codes.RULES`` says
    that version answers instead), one answer entry per requested entry *as sent* (a name
    listed twice is answered twice, an id is echoed, an entry naming nothing is answered
    with no name), no ``error_message``, and nothing changes."""
    api_key: ApiKey
    code: Errors
    source: str

    def code_at(self, version: int) -> Errors:
        code = error_codes.answered_as(self.api_key, self.code, version)
        return Errors(self.code if code is None else code)


#: ``delete.topic.enable=false``: DeleteTopics is refused before its entries are read, in
#: KRaft from 3.3 to 4.4 alike (``ControllerApis.deleteTopics`` tests the setting first:
#: InvalidRequestException below v3, TopicDeletionDisabledException from v3; 3.x throws it,
#: 4.x returns it as a failed future), and the answer is ``DeleteTopicsRequest
#: .getErrorResponse``: a result per ``topics()`` entry of the request, name and id as
#: sent, only the error code set (read in the 3.3.2 and 4.4.0 jars with ``javap -c``). So
#: unknown names answer 73 (not UNKNOWN_TOPIC_OR_PARTITION), unknown ids 73 (not
#: UNKNOWN_TOPIC_ID), and a repeated name one 73 per listing (not one INVALID_REQUEST):
#: the per-entry checks that answer those are never reached. This is the shape of every
#: request-level refusal of DeleteTopics (REQUEST_TIMED_OUT for an expired deadline too),
#: not a defect: a rule.
DELETION_REFUSED = ConfigRule(
    "DeleteTopics refuses the whole request", DELETE_TOPIC_ENABLE, when=False,
    then=Refusal(ApiKey.DeleteTopics, Errors.TOPIC_DELETION_DISABLED,
                 f"{CONTROLLER_APIS} deleteTopics; apache/kafka clients/src/main/java/org/apache/kafka/common/"
                 "requests/DeleteTopicsRequest.java getErrorResponse (one DeletableTopicResult per topics() entry, "
                 "setName/setTopicId/setErrorCode)"),
    source=f"{CONTROLLER_APIS} deleteTopics (config.deleteTopicEnable tested first); apache/kafka core/src/test/"
           "scala/unit/kafka/server/DeleteTopicsRequestWithDeletionDisabledTest.scala",
    measured=("kafka:4.4.0,preset=nodelete", "bootstrap: kafka 4.4.0 with delete.topic.enable=false"))

#: Metadata naming a topic that does not exist, asking for auto-creation (v4+ with
#: allow_auto_topic_creation=true; v0-v3 always ask): Kafka creates it only where
#: ``auto.create.topics.enable`` is true, and only then does a principal without CREATE get
#: TOPIC_AUTHORIZATION_FAILED for it; otherwise the name answers UNKNOWN_TOPIC_OR_PARTITION.
METADATA_AUTO_CREATES = ConfigRule(
    "Metadata asking for auto-creation creates a missing topic", AUTO_CREATE_TOPICS_ENABLE, when=True,
    then=True, otherwise=False,
    source=f"{KAFKA_APIS} handleTopicMetadataRequest (if (metadataRequest.allowAutoTopicCreation && "
           "config.autoCreateTopicsEnable && nonExistingTopics.nonEmpty) ... unauthorizedForCreateTopics)")

#: CreateTopics v4+ with num_partitions -1 (no assignment): the broker's ``num.partitions``.
DEFAULT_PARTITIONS = ConfigRule(
    "partitions of a topic created with num_partitions -1", NUM_PARTITIONS, then=VALUE, source=NUM_PARTITIONS.source)

#: CreateTopics v4+ with replication_factor -1 (no assignment): ``default.replication.factor``.
DEFAULT_REPLICATION = ConfigRule(
    "replication factor of a topic created with replication_factor -1", DEFAULT_REPLICATION_FACTOR, then=VALUE,
    source=DEFAULT_REPLICATION_FACTOR.source)

#: Produce with acks=-1 to a partition with fewer in-sync replicas than the topic's
#: ``min.insync.replicas`` (by default the broker's) answers NOT_ENOUGH_REPLICAS and appends
#: nothing. The suite's topics have one replica, so a broker with ``min.insync.replicas`` > 1
#: takes none of the records a set-up produces (the checks that need them are unsupported).
ACKS_ALL_IN_SYNC = ConfigRule(
    "in-sync replicas a Produce with acks=-1 needs", MIN_INSYNC_REPLICAS, then=VALUE, source=MIN_INSYNC_REPLICAS.source)

RULES: tuple[ConfigRule, ...] = (DELETION_REFUSED, METADATA_AUTO_CREATES, DEFAULT_PARTITIONS, DEFAULT_REPLICATION,
                                 ACKS_ALL_IN_SYNC)

_current: dict[str, str | None] = {}


def use(config: Mapping[str, str | None] | None) -> None:
    """Set the settings of the broker under check (the plugin calls this before each check)."""
    global _current
    _current = dict(config or {})


def current() -> dict[str, str | None]:
    return dict(_current)


def differing(config: Mapping[str, str | None]) -> dict[str, object]:
    """The settings of ``config`` that are not Kafka's defaults (typed), for messages."""
    return {s.key: s.of(config) for s in SETTINGS if s.of(config) != s.default}
