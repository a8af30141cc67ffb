"""Rules that differ between KRaft and ZooKeeper mode (``kafka:VERSION,mode=zk``, 3.x).

A ZooKeeper-mode broker answers admin requests on other code paths than a KRaft one: the
ZooKeeper branches of ``KafkaApis`` and ``ZkAdminManager`` instead of ``ControllerApis``
and the quorum controller's ``ReplicationControlManager``, and the controller's
``TopicDeletionManager`` deletes topics in the background. Where that legitimately changes
the answer, the rule is here, each with its KRaft and its ZooKeeper-mode value and the
Kafka source of both (apache/kafka, the 3.x branches); the checks use ``RULE.now()``, the
value of the broker under check (:mod:`reference.release_lines`). Where the ZooKeeper
path is simply wrong, that is a known deviation (``kafka_known_deviations.json``), not a
rule here.

``measured``: the targets each rule was seen to hold on (``python -m pytest conformance
--broker kafka:VERSION[,mode=zk] --profile ci``; docs/kafka-releases.md).
"""
from __future__ import annotations

from dataclasses import dataclass

from protocol.errors import Errors

from .release_lines import OLDEST, Rule

_ZK_LINES = ("3.3.2", "3.4.1", "3.5.2", "3.6.2", "3.7.2", "3.8.1", "3.9.2")
_KRAFT_LINES = _ZK_LINES + ("4.0.2", "4.1.2", "4.2.2", "4.3.1", "4.4.0")
MEASURED = tuple(f"kafka:{v}" for v in _KRAFT_LINES) + tuple(f"kafka:{v},mode=zk" for v in _ZK_LINES)

KAFKA_APIS = "apache/kafka core/src/main/scala/kafka/server/KafkaApis.scala"
ZK_ADMIN = "apache/kafka core/src/main/scala/kafka/server/ZkAdminManager.scala"
CONTROLLER_APIS = "apache/kafka core/src/main/scala/kafka/server/ControllerApis.scala"
RCM = "apache/kafka metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java"


def by_mode(name: str, kraft: object, zk: object, source: str, zk_source: str) -> Rule:
    """A rule that holds on every line the suite knows and differs only by mode."""
    return Rule(name, OLDEST, kraft, kraft, source, zk=zk, zk_source=zk_source, measured=MEASURED)


@dataclass(frozen=True)
class Repeated:
    """How a request naming one topic more than once is answered: ``entries`` "one" (one
    entry for the name) or "each" (one per listing); ``code`` the code of those entries,
    or None: as if the topic had been named once (deleted: NONE, absent:
    UNKNOWN_TOPIC_OR_PARTITION)."""
    entries: str
    code: int | None


#: CreateTopics naming a topic twice. KRaft: one INVALID_REQUEST entry ("Duplicate topic
#: name."); ZooKeeper mode: every listing gets its own INVALID_REQUEST entry ("Found multiple
#: entries for this topic.": ``results.add`` per requested topic). Neither creates it.
CREATE_TOPICS_REPEATED = by_mode(
    "CreateTopics naming a topic twice", Repeated("one", Errors.INVALID_REQUEST),
    Repeated("each", Errors.INVALID_REQUEST),
    f"{CONTROLLER_APIS} createTopics (duplicateTopicNames -> one CreatableTopicResult, 'Duplicate topic name.')",
    f"{KAFKA_APIS} handleCreateTopicsRequest, ZooKeeper branch (a result per requested topic; "
    "results.findAll(name).size > 1 -> INVALID_REQUEST 'Found multiple entries for this topic.')")

#: DeleteTopics naming a topic twice (by name, by id, or once by each: v6). KRaft: one
#: INVALID_REQUEST entry, the topic stays; ZooKeeper mode: an entry per listing (an id is
#: resolved to its name) and the name is deleted once (``toDelete`` is a set), so every
#: entry answers as a single listing would (NONE, or UNKNOWN_TOPIC_OR_PARTITION).
DELETE_TOPICS_REPEATED = by_mode(
    "DeleteTopics naming a topic twice", Repeated("one", Errors.INVALID_REQUEST), Repeated("each", None),
    f"{CONTROLLER_APIS} deleteTopics (duplicateProvidedNames -> INVALID_REQUEST 'Duplicate topic name.')",
    f"{KAFKA_APIS} handleDeleteTopicsRequest, ZooKeeper branch (results.add per requested topic, "
    "toDelete += name, a mutable.Set; no duplicate check)")

#: DeleteTopics v6 naming one topic by name and id in the same entry. KRaft: that entry
#: answers INVALID_REQUEST ("You may not specify both topic name and topic id."), the rest
#: of the request is served; ZooKeeper mode: the ZooKeeper branch throws
#: InvalidRequestException while it reads the entries, so the whole request fails and every
#: entry answers INVALID_REQUEST (DeleteTopicsRequest.getErrorResponse); nothing is deleted.
DELETE_TOPICS_NAME_AND_ID = by_mode(
    "DeleteTopics v6 naming a topic by name and id in one entry refuses", "the entry", "the request",
    f"{CONTROLLER_APIS} deleteTopics ('You may not specify both topic name and topic id.', per entry)",
    f"{KAFKA_APIS} handleDeleteTopicsRequest, ZooKeeper branch (throw new InvalidRequestException('Topic name "
    "and topic ID can not both be specified.') -> KafkaApis.handleError -> DeleteTopicsRequest.getErrorResponse)")

#: DeleteTopics error entries carry an ``error_message`` (v5+). KRaft: always (ApiError's
#: message, e.g. UNKNOWN_TOPIC_OR_PARTITION's default text); ZooKeeper mode: never, the
#: ZooKeeper branch sets only ``setErrorCode``.
DELETE_TOPICS_EXPLAINED = by_mode(
    "DeleteTopics error entries carry an error_message", True, False,
    f"{CONTROLLER_APIS} deleteTopics; {RCM} deleteTopics / findTopicIds (new ApiError(code) carries "
    "the error's default message)",
    f"{KAFKA_APIS} handleDeleteTopicsRequest, ZooKeeper branch (DeletableTopicResult.setErrorCode only; "
    "ZkAdminManager.deleteTopics hands back Errors, not ApiError)")

#: The order in which CreateTopics checks one topic: it answers the code of the first check
#: the topic fails. KRaft (ReplicationControlManager.createTopics / createTopic): the name
#: (INVALID_TOPIC_EXCEPTION), existence (TOPIC_ALREADY_EXISTS: createTopics overwrites the
#: answer of validateNewTopicNames for every existing name), a collision with an existing
#: name, the configs (INVALID_CONFIG), an assignment next to counts
#: (INVALID_REQUEST), the replication factor, the partition count, more replicas than
#: brokers. ZooKeeper mode (ZkAdminManager.createTopics): existence in the metadata cache,
#: null config values, an assignment next to counts, then AdminUtils.assignReplicasToBrokers
#: (partition count before replication factor), then AdminZkClient.validateTopicCreate (the
#: name, a topic still being deleted, a collision, the configs).
CREATE_TOPICS_CHECKS = by_mode(
    "the order of CreateTopics' checks of one topic",
    ("name", "exists", "collision", "config", "assignment", "replication_factor", "partitions", "brokers"),
    ("exists", "null_config", "assignment", "partitions", "replication_factor", "brokers", "name", "deleting",
     "collision", "config"),
    f"{RCM} createTopics (validateNewTopicNames, existence), createTopic (configs, assignment, "
    "replication factor before partition count)",
    f"{ZK_ADMIN} createTopics (metadataCache.contains, null configs, assignments next to counts); "
    "apache/kafka server-common/src/main/java/org/apache/kafka/admin/AdminUtils.java assignReplicasToBrokers "
    "(nPartitions <= 0 before replicationFactor <= 0); core/src/main/scala/kafka/zk/AdminZkClient.scala "
    "validateTopicCreate (Topic.validate, isTopicMarkedForDeletion, collisions, LogConfig.validate)")

#: The order in which AlterConfigs / IncrementalAlterConfigs check one topic resource
#: (after the request-level checks of ConfigAdminManager.preprocess, shared by both modes).
#: KRaft: the name (INVALID_TOPIC_EXCEPTION), the resulting config (INVALID_CONFIG), then
#: existence (UNKNOWN_TOPIC_OR_PARTITION). ZooKeeper mode: existence in the metadata cache
#: first, then the config; the name is never validated, so an illegal name is a topic that
#: does not exist.
TOPIC_CONFIG_CHECKS = by_mode(
    "the order of AlterConfigs' and IncrementalAlterConfigs' checks of one topic",
    ("name", "config", "exists"), ("exists", "config"),
    "apache/kafka metadata/src/main/java/org/apache/kafka/controller/ConfigurationControlManager.java "
    "incrementalAlterConfigResource / legacyAlterConfigResource (validate before the topic lookup in "
    "ControllerApis / ReplicationControlManager)",
    f"{ZK_ADMIN} alterTopicConfigs (metadataCache.contains -> UnknownTopicOrPartitionException, then "
    "AdminZkClient.validateTopicConfig)")

#: What a deleted topic's name can still answer after DeleteTopics answered NONE, until the
#: deletion is complete. KRaft: nothing (the topic is gone with the controller's record).
#: ZooKeeper mode: DeleteTopics answers once the brokers' metadata no longer lists the topic
#: (DelayedDeleteTopics), while the controller's TopicDeletionManager still removes the
#: replicas and the znodes; meanwhile CreateTopics answers TOPIC_ALREADY_EXISTS ("Topic
#: ... is marked for deletion.") and CreatePartitions INVALID_TOPIC_EXCEPTION ("The topic
#: is queued for deletion.").
DELETING_TOPIC_ANSWERS = by_mode(
    "what a just-deleted topic's name answers while the deletion completes", {},
    {"CreateTopics": Errors.TOPIC_ALREADY_EXISTS, "CreatePartitions": Errors.INVALID_TOPIC_EXCEPTION},
    f"{RCM} deleteTopics (the topic is removed in the same metadata record batch)",
    "apache/kafka core/src/main/scala/kafka/controller/TopicDeletionManager.scala (asynchronous: "
    "StopReplica, then the znodes); core/src/main/scala/kafka/server/DelayedDeleteTopics.scala (answers once "
    "the metadata cache drops the topic); core/src/main/scala/kafka/zk/AdminZkClient.scala validateTopicCreate "
    f"('is marked for deletion.'); {KAFKA_APIS} handleCreatePartitionsRequest ('The topic is queued for deletion.')")

#: Whether CreateTopics' configs are shown to the AlterConfigPolicy (KIP-133). KRaft: yes,
#: ReplicationControlManager.createTopic validates a new topic's configs through
#: ConfigurationControlManager, which asks the alter-config policy (so it can refuse them,
#: POLICY_VIOLATION) before the CreateTopicPolicy; ZooKeeper mode: no, ZkAdminManager.createTopics
#: asks only the CreateTopicPolicy (validateTopicCreatePolicy), which is shown the configs.
CREATE_TOPICS_ALTER_CONFIG_POLICY = by_mode(
    "CreateTopics' configs are judged by the alter-config policy too", True, False,
    f"{RCM} createTopic (configurationControl.validateAlterConfig -> AlterConfigPolicy.validate) and "
    "createTopicPolicy.validate",
    f"{ZK_ADMIN} createTopics (validateTopicCreatePolicy -> CreateTopicPolicy.validate only; "
    "alterConfigPolicy is asked by alterConfigs / incrementalAlterConfigs only)")

#: DeleteTopics of a missing topic the principal may describe but not delete (KIP-4 ACLs,
#: preset=acl). KRaft: UNKNOWN_TOPIC_OR_PARTITION (ControllerApis looks the name up for
#: describable topics before authorizing the deletion); ZooKeeper mode:
#: TOPIC_AUTHORIZATION_FAILED, the ZooKeeper branch authorizes DELETE before it looks the
#: topic up in the metadata cache.
DELETE_TOPICS_DESCRIBABLE_MISSING = by_mode(
    "DeleteTopics of a missing topic the principal may describe but not delete",
    Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.TOPIC_AUTHORIZATION_FAILED,
    f"{CONTROLLER_APIS} deleteTopics (describable names missing -> UNKNOWN_TOPIC_OR_PARTITION before the "
    "DELETE authorization)",
    f"{KAFKA_APIS} handleDeleteTopicsRequest, ZooKeeper branch (!authorizedDeleteTopics.contains(name) -> "
    "TOPIC_AUTHORIZATION_FAILED is tested before !metadataCache.contains(name))")

#: AlterClientQuotas of an entry naming a quota key twice (catalogue Q2, Q3): refused alone
#: with INVALID_REQUEST in KRaft (every line), accepted in ZooKeeper mode (the ops applied in
#: order, the last value of a key kept). The values' own checks changed by line:
#: ``reference/release_lines.py`` QUOTA_VALUES_CHECKED.
QUOTA_DUPLICATE_KEY_REFUSED = by_mode(
    "AlterClientQuotas refuses a key named twice", True, False,
    "apache/kafka metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java "
    "alterClientQuotas ('Duplicate quota key', 3.3.0 and later)",
    f"{ZK_ADMIN} alterClientQuotas (alterEntityQuotas: props.setProperty per op, in order)")

#: OffsetCommit v0 and OffsetFetch v0 keep a group's offsets in ZooKeeper, not in the group
#: coordinator (OffsetCommitRequest.json, OffsetFetchRequest.json). A 3.x KRaft broker still
#: advertises v0 but refuses it, UNSUPPORTED_VERSION for every partition ("Version 0 offset
#: commit requests", "Version 0 offset fetch requests" are unsupported without ZooKeeper);
#: ZooKeeper mode serves it. Kafka 4.0 removed both v0s (KIP-896): a 4.x broker does not
#: advertise them. Measured: kafka:3.3.2-3.9.2 answer 35 at v0, kafka:3.9.2,mode=zk serves it.
OFFSETS_V0_SERVED = by_mode(
    "OffsetCommit and OffsetFetch v0 (offsets in ZooKeeper) are served", False, True,
    f"{KAFKA_APIS} handleOffsetCommitRequest (commitOffsetsToZookeeper: metadataSupport.requireZkOrThrow("
    "KafkaApis.unsupported(\"Version 0 offset commit requests\"))) and handleOffsetFetchRequest (requireZkOrThrow("
    "KafkaApis.unsupported(\"Version 0 offset fetch requests\"))), 3.x",
    f"{KAFKA_APIS} commitOffsetsToZookeeper (zkClient.setOrCreateConsumerOffset) and handleOffsetFetchRequest "
    "(zkClient.getConsumerOffset), 3.x")

#: AlterUserScramCredentials naming one user twice: KRaft's ScramControlManager.alterCredentials
#: keys the request by user, so any second entry of the user answers DUPLICATE_RESOURCE; a
#: ZooKeeper-mode broker (ZkAdminManager.alterUserScramCredentials) refuses only a (user,
#: mechanism) pair named twice and applies a user's entries for its two mechanisms (deletions,
#: then upsertions). Found on kafka:3.3.2 and 3.4.1 in ZooKeeper mode: U2's "two upsertions of
#: both mechanisms" answered NONE (reference/scram_rules.py alter_in_zookeeper).
SCRAM_DUPLICATE_PER_MECHANISM = by_mode(
    "AlterUserScramCredentials refuses a (user, mechanism) pair named twice, not a user", False, True,
    "apache/kafka metadata/src/main/java/org/apache/kafka/controller/ScramControlManager.java alterCredentials "
    "(one entry per user name: DUPLICATE_RESOURCE for a user named twice)",
    f"{ZK_ADMIN} alterUserScramCredentials (usersWithDuplicateUserMechanismPairs: 'A user credential cannot be "
    "altered twice in the same request')")

RULES = (CREATE_TOPICS_REPEATED, DELETE_TOPICS_REPEATED, DELETE_TOPICS_NAME_AND_ID, DELETE_TOPICS_EXPLAINED, CREATE_TOPICS_CHECKS,
         TOPIC_CONFIG_CHECKS, DELETING_TOPIC_ANSWERS, CREATE_TOPICS_ALTER_CONFIG_POLICY,
         DELETE_TOPICS_DESCRIBABLE_MISSING, QUOTA_DUPLICATE_KEY_REFUSED,
         OFFSETS_V0_SERVED, SCRAM_DUPLICATE_PER_MECHANISM)


def first_failed(order: tuple[str, ...], failing: dict[str, object]) -> object | None:
    """The answer of the first check in ``order`` that fails (``failing``: check -> its
    answer), None when none does."""
    return next((failing[c] for c in order if c in failing), None)


@dataclass(frozen=True)
class FeatureRefusal:
    """How UpdateFeatures answers a request with an update it refuses: ``whole`` (the
    request fails at the top level with ``code``, no per-feature result, nothing applied)
    or not (the top level NONE, each refused feature its own result ``code``, the others
    applied)."""
    whole: bool
    code: int


#: UpdateFeatures with an update that cannot be applied (a feature the cluster does not
#: support, a level below 0, a lower level without a downgrade type). KRaft from 4.0: the
#: quorum controller stops at the first refused update and answers it for the whole request,
#: INVALID_UPDATE_VERSION, writing nothing ("The update failed for all features since the
#: following feature had an error": ``QuorumController.updateFeatures``;
#: ``FeatureControlManager.updateFeatures`` returns one ApiError). KRaft 3.x: each update is
#: judged alone, INVALID_UPDATE_VERSION in its own result, the top level NONE and the others
#: applied (``FeatureControlManager.updateFeatures`` of 3.x, a result per feature).
#: ZooKeeper mode: each alone, INVALID_REQUEST ("Could not apply finalized feature update
#: because the provided feature is not supported.").
UPDATE_FEATURES_REFUSAL = Rule(
    "UpdateFeatures refusing an update", (4, 0), FeatureRefusal(False, Errors.INVALID_UPDATE_VERSION),
    FeatureRefusal(True, Errors.INVALID_UPDATE_VERSION),
    "apache/kafka metadata/src/main/java/org/apache/kafka/controller/QuorumController.java (updateFeatures) and "
    "FeatureControlManager.java (updateFeatures, updateFeature), 4.0+: one error for the request; 3.x: "
    "a result per feature",
    zk=FeatureRefusal(False, Errors.INVALID_REQUEST),
    zk_source="apache/kafka core/src/main/scala/kafka/controller/KafkaController.scala (processFeatureUpdates, "
              "validateFeatureUpdate: an error per feature)",
    measured=("kafka:4.4.0", "kafka:4.3.1", "kafka:4.2.2", "kafka:4.1.2", "kafka:4.0.2", "kafka:3.9.2",
              "kafka:3.9.2,mode=zk"))

#: The order in which AlterPartitionReassignments checks one partition; it answers the code of
#: the first check the partition fails. KRaft: the topic and the partition exist
#: (UNKNOWN_TOPIC_OR_PARTITION), then a cancel needs a reassignment in progress
#: (NO_REASSIGNMENT_IN_PROGRESS), else the replicas must be valid and registered
#: (INVALID_REPLICA_ASSIGNMENT). ZooKeeper mode: the replicas first (empty, duplicate,
#: negative, a broker not alive: INVALID_REPLICA_ASSIGNMENT, "Replica assignment has brokers
#: that are not alive"), then a cancel (NO_REASSIGNMENT_IN_PROGRESS, whether the partition
#: exists or not), then the partition's existence when the reassignment is triggered.
REASSIGNMENT_CHECKS = Rule(
    "AlterPartitionReassignments' order of checks", OLDEST, ("exists", "cancel", "replicas"),
    ("exists", "cancel", "replicas"),
    f"{RCM} alterPartitionReassignment (topic, then partition, then cancelPartitionReassignment or "
    "changePartitionReassignment -> validateManualPartitionAssignment)",
    zk=("replicas", "cancel", "exists"),
    zk_source="apache/kafka core/src/main/scala/kafka/controller/KafkaController.scala "
              "(processApiPartitionReassignment: validateReplicas, then maybeBuildReassignment -> "
              "NO_REASSIGNMENT_IN_PROGRESS, then maybeTriggerPartitionReassignment -> UNKNOWN_TOPIC_OR_PARTITION)",
    measured=("kafka:4.4.0", "kafka:3.9.2", "kafka:3.9.2,mode=zk"))
