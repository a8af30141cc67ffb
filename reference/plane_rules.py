"""Kafka's rules for what one admin family's change does to another's state (catalogue S2,
``conformance/stateful/plane_model.py`` applies them), as data: each with what it says and
where Kafka's source says so. Where a KIP and Kafka's code disagree the rule follows the
code and says where.

The families of the admin plane S2 drives (``FAMILIES``) and the rules between them
(``RULES``); a rule is *hit* when a step of an example made the situation it speaks of (a
topic deleted while a group held offsets for it), and S2 counts the hits of every example
in its row's coverage (the manifest's ``coverage_by_check``).
"""
from __future__ import annotations

from typing import NamedTuple

from protocol.kafka_sources import KAFKA

#: The admin families S2 drives, in the order its coverage lists them.
FAMILIES = ("topics", "configs", "log", "acls", "quotas", "scram", "groups", "transactions", "features", "tokens",
            "share", "group_configs", "client_metrics", "reassignments", "consumer_groups", "broker_configs")

_REPLICATION = KAFKA + "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java"
_OFFSETS = KAFKA + "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/OffsetMetadataManager.java"
_ZK_GROUPS = KAFKA + "core/src/main/scala/kafka/coordinator/group/GroupMetadataManager.scala"


class CrossRule(NamedTuple):
    id: str
    families: tuple[str, str]
    says: str
    source: str


TOPIC_DELETION_DROPS_OFFSETS = CrossRule(
    "topic-deletion-drops-offsets", ("topics", "groups"),
    "a deleted topic's committed offsets are gone from every group that held them (OffsetFetch answers -1); "
    "the group itself may stay, empty, until the coordinator's next clean-up, so DeleteGroups of it may answer "
    "NONE or GROUP_ID_NOT_FOUND",
    _OFFSETS + " (onPartitionsDeleted), called by " + KAFKA
    + "core/src/main/scala/kafka/server/metadata/BrokerMetadataPublisher.scala for the partitions a metadata "
      "delta deletes; ZooKeeper mode: " + _ZK_GROUPS + " (cleanupGroupMetadata of the deleted partitions, which "
      "also removes a group left empty without offsets)")
TOPIC_DELETION_KEEPS_ACLS = CrossRule(
    "topic-deletion-keeps-acls", ("topics", "acls"),
    "the ACLs naming a deleted topic stay: only DeleteAcls removes a binding",
    _REPLICATION + " (replay of RemoveTopicRecord removes the topic, its partitions and configs, no ACL); "
    + KAFKA + "metadata/src/main/java/org/apache/kafka/controller/AclControlManager.java (bindings go only by "
              "deleteAcls)")
TOPIC_DELETION_DROPS_SHARE_OFFSETS = CrossRule(
    "topic-deletion-drops-share-offsets", ("topics", "share"),
    "a deleted topic's share group start offsets are gone from every share group that held them "
    "(DescribeShareGroupOffsets of every topic no longer lists it; asked by name, start offset -1), the group "
    "staying, and a topic re-created under the name has none (measured on kafka:4.4.0, 2026-12-04)",
    KAFKA + "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupMetadataManager.java "
            "(maybeCleanupShareGroupState: the deleted topic ids leave the group's share-partition metadata), "
            "called for the topics a metadata delta deletes; " + KAFKA
    + "share-coordinator/src/main/java/org/apache/kafka/coordinator/share/ShareCoordinatorService.java "
      "(onTopicsDeleted: their share-partition state deleted)")
GROUP_DELETION_KEEPS_GROUP_CONFIGS = CrossRule(
    "group-deletion-keeps-group-configs", ("groups", "group_configs"),
    "deleting a group (DeleteGroups NONE) leaves the dynamic configs set for its name: DescribeConfigs of the "
    "GROUP resource still shows them (measured on kafka:4.4.0, 2026-12-04: after DeleteGroups, 0.5 s and 3 s)",
    "KIP-1142 \"Allow to list non-existent group which has dynamic config\" (a group's configs outlive it); "
    + KAFKA + "metadata/src/main/java/org/apache/kafka/controller/ConfigurationControlManager.java (GROUP "
              "ConfigRecords, changed only by config requests); " + KAFKA
    + "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupCoordinatorService.java "
      "(deleteGroups writes the group's tombstones to __consumer_offsets only)")
_GROUPS = KAFKA + "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupMetadataManager.java"
TOPIC_DELETION_UNASSIGNS_PARTITIONS = CrossRule(
    "topic-deletion-unassigns-partitions", ("topics", "consumer_groups"),
    "a deleted topic's partitions leave every consumer group member's target assignment (ConsumerGroupDescribe "
    "lists none of them), the member's subscription still naming the topic (measured on kafka:4.4.0 and 4.0.2, "
    "2026-12-04: within 1 s, with no heartbeat between)",
    "KIP-848; " + _GROUPS + " (onNewMetadataImage: the groups subscribed to a changed or deleted topic get their "
                            "subscription metadata refreshed and a new target assignment)")
MEMBERS_KEEP_THEIR_GROUP = CrossRule(
    "members-keep-their-consumer-group", ("groups", "consumer_groups"),
    "DeleteGroups of a consumer group with a member answers NON_EMPTY_GROUP and leaves the group and its members; "
    "once every member left (ConsumerGroupHeartbeat epoch -1) it is Empty and DeleteGroups removes it (measured "
    "on kafka:4.4.0, 2026-12-04)",
    _GROUPS + " (deleteGroups -> validateDeleteGroup); " + KAFKA
    + "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/modern/consumer/ConsumerGroup.java "
      "(validateDeleteGroup: NON_EMPTY_GROUP unless the group is EMPTY)")
BROKER_DEFAULTS_REACH_TOPICS = CrossRule(
    "broker-defaults-reach-topics", ("broker_configs", "configs"),
    "a dynamic cluster-wide broker default (log.retention.ms) is the retention.ms of every topic that does not "
    "override it, config_source DYNAMIC_DEFAULT_BROKER_CONFIG, and of the topics created after it; a topic's "
    "override wins (TOPIC_CONFIG); deleting the default brings back the static one (measured on kafka:4.4.0 and "
    "3.9.2,mode=zk, 2026-12-04)",
    "KIP-226 (the order of a config's sources: topic, per-broker dynamic, cluster-wide dynamic, static, default); "
    + KAFKA + "core/src/main/scala/kafka/server/DynamicBrokerConfig.scala (updateDefaultConfig, the log configs "
              "reconfigured: DynamicLogConfig); " + KAFKA + "core/src/main/scala/kafka/server/ConfigHelper.scala "
              "(describeConfigs of a topic: the synonyms in that order)")
CONFIG_RESOURCES_ARE_TYPED = CrossRule(
    "config-resources-are-typed", ("group_configs", "client_metrics"),
    "a config resource is its type and its name: the GROUP configs and the CLIENT_METRICS configs of one name are "
    "apart, setting or deleting a key of one leaves the other's (measured on kafka:4.4.0, 2026-12-04: a client "
    "metrics subscription and a group both named SUB-g1, each described with only its own overrides)",
    "KIP-714 (CLIENT_METRICS resources), KIP-848 (GROUP resources); " + KAFKA
    + "metadata/src/main/java/org/apache/kafka/controller/ConfigurationControlManager.java (configData keyed by "
      "ConfigResource: type and name)")
REASSIGNMENT_KEEPS_THE_LOG = CrossRule(
    "reassignment-keeps-the-log", ("reassignments", "log"),
    "a partition reassigned to the replicas it has (AlterPartitionReassignments NONE) moves nothing and leaves no "
    "reassignment in progress: its log start and end offsets and the offsets groups committed for it stay",
    _REPLICATION + " (alterPartitionReassignment, changePartitionReassignment: a target equal to the current "
                   "replicas completes with no adding or removing replica); KIP-455")
RECREATED_TOPIC_INHERITS_NOTHING = CrossRule(
    "recreated-topic-inherits-nothing", ("topics", "configs"),
    "a topic created again under a deleted name is a new topic: a new topic id, the default configs, an empty log "
    "and no committed offsets",
    _REPLICATION + " (replay of RemoveTopicRecord: configurationControl.deleteTopicConfigs(topic.name); "
                   "createTopic gives a new Uuid)")
SCRAM_DELETION_KEEPS_QUOTAS = CrossRule(
    "scram-deletion-keeps-quotas", ("scram", "quotas"),
    "deleting a user's SCRAM credentials leaves the client quotas of that user",
    KAFKA + "metadata/src/main/java/org/apache/kafka/controller/ScramControlManager.java (RemoveUserScramCredential"
            "Record touches credentials only); " + KAFKA
    + "metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java (quotas by entity)")
SCRAM_DELETION_KEEPS_ACLS = CrossRule(
    "scram-deletion-keeps-acls", ("scram", "acls"),
    "deleting a user's SCRAM credentials leaves the ACLs of its principal User:NAME",
    KAFKA + "metadata/src/main/java/org/apache/kafka/controller/ScramControlManager.java; " + KAFKA
    + "metadata/src/main/java/org/apache/kafka/controller/AclControlManager.java (bindings go only by deleteAcls)")
SCRAM_UPSERT_KEEPS_QUOTAS = CrossRule(
    "scram-upsert-keeps-quotas", ("scram", "quotas"),
    "upserting a SCRAM credential for a user leaves the quotas set for that user before",
    KAFKA + "metadata/src/main/java/org/apache/kafka/controller/ScramControlManager.java (UserScramCredentialRecord"
            " touches credentials only)")
SCRAM_DELETION_KEEPS_TOKENS = CrossRule(
    "scram-deletion-keeps-tokens", ("scram", "tokens"),
    "deleting a user's SCRAM credentials leaves the delegation tokens it owns (DescribeDelegationToken still lists "
    "them): a token is a record of its own, not a credential of its owner's",
    KAFKA + "metadata/src/main/java/org/apache/kafka/controller/ScramControlManager.java (RemoveUserScramCredential"
            "Record touches credentials only); " + KAFKA
    + "metadata/src/main/java/org/apache/kafka/controller/DelegationTokenControlManager.java (a token goes only by "
      "an expiry: RemoveDelegationTokenRecord); ZooKeeper mode: " + KAFKA
    + "core/src/main/scala/kafka/server/DelegationTokenManager.scala (tokens under /delegation_token, apart from "
      "the users' SCRAM configs)")
FEATURES_STAY = CrossRule(
    "features-stay", ("features", "groups"),
    "no admin request but an applied UpdateFeatures changes a finalized feature level (ApiVersions lists the same "
    "levels after group, topic and credential changes; a validate_only UpdateFeatures applies nothing)",
    KAFKA + "metadata/src/main/java/org/apache/kafka/controller/FeatureControlManager.java (FeatureLevelRecord only "
            "from updateFeatures with validateOnly false)")

TOPIC_DELETION_SKIPS_TXN_MARKERS = CrossRule(
    "topic-deletion-skips-txn-markers", ("topics", "transactions"),
    "an open transaction that added a topic's partitions is not changed by the topic's deletion (DescribeTransactions "
    "still lists them, Ongoing); it still commits or aborts, the markers to the deleted partitions skipped, and "
    "completes with no partition",
    KAFKA + "core/src/main/scala/kafka/coordinator/transaction/TransactionMarkerChannelManager.scala "
            "(addTxnMarkersToBrokerQueue: a partition without a leader is \"likely deleted already and hence can be "
            "skipped\", removed from the transaction, which then completes); the transaction coordinator has no "
            "topic-deletion hook")

TXN_END_MARKS_THE_LOG = CrossRule(
    "txn-end-marks-the-log", ("transactions", "log"),
    "a transaction's commit or abort writes a control batch (the marker) to every partition it added that exists: "
    "each one's log end offset grows by one, data or not (a partition of a topic re-created under the name gets it "
    "too: markers go by name)",
    KAFKA + "core/src/main/scala/kafka/server/KafkaApis.scala (handleWriteTxnMarkersRequest: "
            "MemoryRecords.withEndTransactionMarker appended per partition); " + KAFKA
    + "clients/src/main/java/org/apache/kafka/common/record/EndTransactionMarker.java")

RULES: tuple[CrossRule, ...] = (TOPIC_DELETION_DROPS_OFFSETS, TOPIC_DELETION_KEEPS_ACLS, TOPIC_DELETION_SKIPS_TXN_MARKERS,
                                RECREATED_TOPIC_INHERITS_NOTHING, SCRAM_DELETION_KEEPS_QUOTAS,
                                SCRAM_DELETION_KEEPS_ACLS, SCRAM_UPSERT_KEEPS_QUOTAS, TXN_END_MARKS_THE_LOG, FEATURES_STAY,
                                SCRAM_DELETION_KEEPS_TOKENS, TOPIC_DELETION_DROPS_SHARE_OFFSETS,
                                GROUP_DELETION_KEEPS_GROUP_CONFIGS, CONFIG_RESOURCES_ARE_TYPED,
                                REASSIGNMENT_KEEPS_THE_LOG, TOPIC_DELETION_UNASSIGNS_PARTITIONS,
                                MEMBERS_KEEP_THEIR_GROUP, BROKER_DEFAULTS_REACH_TOPICS)
BY_ID = {r.id: r for r in RULES}

__all__ = ["BY_ID", "FAMILIES", "RULES", "CrossRule"] + [name for name, v in dict(globals()).items()
                                                          if isinstance(v, CrossRule)]
