"""S2's model of the admin plane: S1's cluster model (topics, partitions, configs, the log:
``conformance/cluster_model.py``) and beside it the ACL bindings, client quotas, SCRAM
credentials, committed offsets, group and client metrics configs, reassignments and finalized
feature levels one example made, each changed
as Kafka's controller and coordinators change them, and the cross-family rules between them
(``reference/plane_rules.py``, each with its Kafka source) applied where the step that
triggers them succeeded.

Pure: no I/O. Every name is under the example's sub-prefix: topics and groups
``SUB-a``, users ``SUB-u1`` (their SCRAM credentials, their quotas) and the principals
``User:SUB-u1`` of the ACLs, so a topic, a user and a principal meet in one sequence.
"""
from __future__ import annotations

import copy
import dataclasses
from collections import Counter

from protocol import ConfigSource
from reference import plane_rules as rules
from reference.group_rules import Committed

from .. import cluster_model as cm
from ..acl_model import AclModel
from ..quota_model import QuotaModel

TP = tuple[str, int]


@dataclasses.dataclass
class Consumer:
    """A member of a consumer group (KIP-848): its id, its epoch as last answered, the topics
    it subscribes to."""
    member_id: str
    epoch: int
    topics: list[str]
    step: int = -1          # the check's step that answered the epoch (what a reproducer learns it from)


class PlaneModel(cm.Model):
    """One S2 example's admin state: S1's topics and, per family, what it holds."""

    def __init__(self, sub: str, defaults: cm.Defaults):
        super().__init__(sub, copy.deepcopy(defaults))      # a broker default moves this example's
        #: the cluster-wide broker defaults the example set: topic synonym -> (value, the fresh
        #: topic's (value, source) it replaced)
        self.broker_defaults: dict[str, tuple[str, tuple | None]] = {}
        self.acls = AclModel()
        self.quotas = QuotaModel()
        #: user -> {mechanism: iterations}
        self.scram: dict[str, dict[int, int]] = {}
        #: group -> {(topic, partition): (offset, metadata)}: the groups that hold offsets
        self.groups: dict[str, dict[TP, Committed]] = {}
        #: groups whose last offsets went with their topic: the coordinator may have removed
        #: them too (TOPIC_DELETION_DROPS_OFFSETS)
        self.emptied: set[str] = set()
        #: every partition a group committed in this example (what the invariant fetches)
        self.asked: dict[str, set[TP]] = {}
        #: the transactional producer SUB-tx1: (producer id, epoch) once initialised, its
        #: transaction's state (None: never initialised) and the partitions it added
        self.producer: tuple[int, int] | None = None
        self.producer_step = -1         # the step InitProducerId answered (its learn note's source)
        self.txn_state: str | None = None
        self.txn_partitions: set[TP] = set()
        #: family (group_configs, client_metrics) -> resource name -> {key: value}: the configs
        #: the example set of the GROUP and CLIENT_METRICS resources, for every one it configured
        self.resource_configs: dict[str, dict[str, dict[str, str]]] = {"group_configs": {}, "client_metrics": {}}
        #: share group -> {(topic, partition): start offset}: every share group the example made
        #: (an AlterShareGroupOffsets answered NONE), its start offsets
        self.share: dict[str, dict[TP, int]] = {}
        #: delegation tokens the example made and did not expire: token id -> Token, in the order made
        self.tokens: dict = {}
        #: consumer group -> member slot -> Consumer: the members of each consumer group the
        #: example made (ConsumerGroupHeartbeat), and the groups made, deleted since or not
        self.consumers: dict[str, dict[str, Consumer]] = {}
        self.consumer_groups_deleted: set[str] = set()
        #: finalized feature levels (name -> level), learnt before the first step
        self.features: dict[str, int] = {}
        #: names deleted in this example and not created since
        self.deleted_names: set[str] = set()
        #: rule id -> how often a step of this example hit it; family -> its steps that succeeded
        self.hits: Counter[str] = Counter()
        self.reached: Counter[str] = Counter()

    # -- names --------------------------------------------------------------------------------
    def user(self, slot: str) -> str:
        return self.name(slot)

    def principal(self, slot: str) -> str:
        return "User:" + self.name(slot)

    def hit(self, rule: rules.CrossRule) -> None:
        self.hits[rule.id] += 1

    # -- topics: what their deletion and re-creation do to the other families ------------------
    def _remover(self, name):
        removed = super()._remover(name)

        def effect(entry):
            removed(entry)
            self.topic_deleted(name)
        return effect

    def topic_deleted(self, name: str) -> None:
        """TOPIC_DELETION_DROPS_OFFSETS, TOPIC_DELETION_KEEPS_ACLS,
        TOPIC_DELETION_UNASSIGNS_PARTITIONS and TOPIC_DELETION_DROPS_SHARE_OFFSETS."""
        self.deleted_names.add(name)
        for group, held in self.groups.items():
            gone = [tp for tp in held if tp[0] == name]
            if gone:
                self.hit(rules.TOPIC_DELETION_DROPS_OFFSETS)
                for tp in gone:
                    del held[tp]
                if not held:
                    self.emptied.add(group)
        if any(b.name == name for b in self.acls.held):
            self.hit(rules.TOPIC_DELETION_KEEPS_ACLS)
        if any(name in c.topics for members in self.consumers.values() for c in members.values()):
            self.hit(rules.TOPIC_DELETION_UNASSIGNS_PARTITIONS)
        for held in self.share.values():
            gone = [tp for tp in held if tp[0] == name]
            if gone:
                self.hit(rules.TOPIC_DELETION_DROPS_SHARE_OFFSETS)
                for tp in gone:
                    del held[tp]

    def _create_one(self, item, validate_only, version) -> cm.Expect:
        """RECREATED_TOPIC_INHERITS_NOTHING: S1's model already makes a created topic anew (no
        id yet, only the configs of the request, an empty log); here it is counted."""
        e = super()._create_one(item, validate_only, version)
        name = item["name"]
        if validate_only or e.effect is None or name not in self.deleted_names:
            return e
        made = e.effect

        def effect(entry):
            made(entry)
            self.deleted_names.discard(name)
            self.hit(rules.RECREATED_TOPIC_INHERITS_NOTHING)
        return dataclasses.replace(e, effect=effect)

    # -- SCRAM credentials: what their changes leave of the other families ----------------------
    def scram_changed(self, user: str, deleted: bool) -> None:
        """SCRAM_DELETION_KEEPS_QUOTAS, SCRAM_DELETION_KEEPS_ACLS, SCRAM_UPSERT_KEEPS_QUOTAS,
        SCRAM_DELETION_KEEPS_TOKENS."""
        quota = any(dict(ent).get("user") == user for ent in self.quotas.held)
        if deleted and quota:
            self.hit(rules.SCRAM_DELETION_KEEPS_QUOTAS)
        if not deleted and quota:
            self.hit(rules.SCRAM_UPSERT_KEEPS_QUOTAS)
        if deleted and any(b.principal == "User:" + user for b in self.acls.held):
            self.hit(rules.SCRAM_DELETION_KEEPS_ACLS)
        if deleted and any(t.owner == user for t in self.tokens.values()):
            self.hit(rules.SCRAM_DELETION_KEEPS_TOKENS)

    # -- share groups ---------------------------------------------------------------------------
    def share_altered(self, group: str, topic: str, starts: list[tuple[int, int]]) -> None:
        self.share.setdefault(group, {}).update({(topic, p): o for p, o in starts})

    def share_deleted(self, group: str, topic: str) -> None:
        held = self.share[group]
        for tp in [tp for tp in held if tp[0] == topic]:
            del held[tp]

    # -- transactions ---------------------------------------------------------------------------
    def txn_added(self, topic: str, partitions: list[int]) -> None:
        self.txn_state = "Ongoing"
        self.txn_partitions.update((topic, p) for p in partitions)

    def txn_ended(self, state: str) -> None:
        """TXN_END_MARKS_THE_LOG and TOPIC_DELETION_SKIPS_TXN_MARKERS."""
        if any(t not in self.topics for t, _ in self.txn_partitions):
            self.hit(rules.TOPIC_DELETION_SKIPS_TXN_MARKERS)
        for t, p in sorted(self.txn_partitions):
            topic = self.topics.get(t)
            if topic is not None and topic.partitions and p < topic.partitions:
                topic.end[p] += 1
                self.hit(rules.TXN_END_MARKS_THE_LOG)
        self.txn_state = state
        self.txn_partitions = set()

    # -- broker configs ---------------------------------------------------------------------------
    def broker_default(self, synonym: str, value: str | None) -> None:
        """BROKER_DEFAULTS_REACH_TOPICS: a dynamic cluster-wide default is the value of every
        topic that does not override its synonym (config_source DYNAMIC_DEFAULT_BROKER_CONFIG),
        the topics made after it too; deleting it brings back the fresh topic's value."""
        configs = self.defaults.configs
        fresh = self.broker_defaults.pop(synonym, (None, configs.get(synonym)))[1]
        if value is None:
            if fresh is not None:
                configs[synonym] = fresh
        else:
            self.broker_defaults[synonym] = (value, fresh)
            configs[synonym] = (value, int(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
        if self.defaults.configs_known and any(synonym not in t.configs for t in self.topics.values()):
            self.hit(rules.BROKER_DEFAULTS_REACH_TOPICS)

    # -- reassignments ---------------------------------------------------------------------------
    def reassigned(self, topic: str, partitions: list[int]) -> None:
        """REASSIGNMENT_KEEPS_THE_LOG: a partition reassigned to its replicas keeps its log and
        the offsets groups hold for it (counted where it has either to keep)."""
        t = self.topics.get(topic)
        for p in partitions:
            if (t is not None and t.end[p] > 0) or any((topic, p) in held for held in self.groups.values()):
                self.hit(rules.REASSIGNMENT_KEEPS_THE_LOG)

    # -- groups ------------------------------------------------------------------------------
    def committed(self, group: str, offsets: dict[TP, Committed]) -> None:
        self.groups.setdefault(group, {}).update(offsets)
        self.asked.setdefault(group, set()).update(offsets)
        self.emptied.discard(group)

    # -- consumer groups (KIP-848) ----------------------------------------------------------------
    def consumer_joined(self, group: str, slot: str, member_id: str, epoch: int, topics: list[str],
                        step: int = -1) -> None:
        self.consumers.setdefault(group, {})[slot] = Consumer(member_id, epoch, topics, step)
        self.consumer_groups_deleted.discard(group)

    def consumer_left(self, group: str, slot: str) -> None:
        self.consumers[group].pop(slot, None)

    def delete_refused(self, group: str) -> bool:
        """MEMBERS_KEEP_THEIR_GROUP: DeleteGroups of a consumer group with a member is refused
        (NON_EMPTY_GROUP) and changes nothing."""
        if self.consumers.get(group):
            self.hit(rules.MEMBERS_KEEP_THEIR_GROUP)
            return True
        return False

    def group_deleted(self, group: str) -> None:
        """GROUP_DELETION_KEEPS_GROUP_CONFIGS: the group's configs stay."""
        if group in self.consumers:
            del self.consumers[group]
            self.consumer_groups_deleted.add(group)
        if self.group_configs.get(group):
            self.hit(rules.GROUP_DELETION_KEEPS_GROUP_CONFIGS)
        self.groups.pop(group, None)
        self.emptied.discard(group)

    @property
    def group_configs(self) -> dict[str, dict[str, str]]:
        return self.resource_configs["group_configs"]

    def resource_configured(self, family: str, name: str, key: str, value: str | None) -> None:
        """CONFIG_RESOURCES_ARE_TYPED: a change of one type's configs of ``name`` leaves the
        other type's of the same name."""
        if any(held.get(name) for f, held in self.resource_configs.items() if f != family):
            self.hit(rules.CONFIG_RESOURCES_ARE_TYPED)
        held = self.resource_configs[family].setdefault(name, {})
        if value is None:
            held.pop(key, None)
        else:
            held[key] = value


__all__ = ["TP", "PlaneModel"]
