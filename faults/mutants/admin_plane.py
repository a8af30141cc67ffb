"""Faults of one admin family's change to another's state (catalogue S2,
``conformance/test_admin_plane.py``; the rules they break are ``reference/plane_rules.py``).

Each request, looked at alone, gets Kafka's answer, and each family's own properties see
nothing wrong: only a sequence that crosses two families shows them (a topic deleted while
a group held offsets for it, ACLs named it, its configs were overridden; a user's SCRAM
credential deleted while quotas were set for it; a feature update among committed
offsets). Where it is simple the mutant changes the broker's real state through its side
channel (``self.upstream``, as the suite's super user), so that every describe honestly
shows the fault; where Kafka cannot be made to hold the wrong state (offsets of a topic
that no longer exists) it rewrites the answers.

All run over ``kafka:4.4.0,preset=acl``: S2 runs on the companion whose authorizer serves
the ACL family, and neither local broker serves ACLs or client quotas.
"""
from __future__ import annotations

import uuid

from protocol import AlterConfigOp, ConfigResourceType, ConfigSource, ZERO_UUID, requests, schema_facts
from protocol.apis import ApiKey, items
from protocol.errors import Errors
from protocol.requests import AclOperation, AclPatternType, AclPermission, AclResourceType
from .client_quotas import _held
from .configs import _overrides
from .mutant import KAFKA_OVER, Mutant, mutant

OVER = f"{KAFKA_OVER},preset=acl"
NO_OFFSET = -1


def _deleted(seen, body) -> list[tuple[str, uuid.UUID]]:
    """(name, topic id) of every topic a DeleteTopics answer says it deleted (NONE)."""
    return [(r.get("name"), r.get("topic_id") or ZERO_UUID) for r in items(ApiKey.DeleteTopics, body)
            if r.get("error_code") == Errors.NONE and r.get("name")]


class _TopicNames(Mutant):
    """A mutant that learns each topic id's name from the answers that carry both (Metadata,
    CreateTopics, DeleteTopics), for requests that name a topic by id only (OffsetCommit
    v10+, DeleteTopics v6+)."""
    NAMING = (ApiKey.Metadata, ApiKey.CreateTopics, ApiKey.DeleteTopics)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.names: dict[uuid.UUID, str] = {}

    def _learn_names(self, seen, body) -> None:
        for entry in items(seen.api_key, body) if seen.api_key in self.NAMING else ():
            if entry.get("name") and entry.get("topic_id") not in (None, ZERO_UUID):
                self.names[entry["topic_id"]] = entry["name"]

    def _name(self, entry: dict) -> str | None:
        return entry.get("name") or self.names.get(entry.get("topic_id"))


# -- topics and groups ----------------------------------------------------------------------------

def _with_partitions(seen, body, change) -> dict:
    """The OffsetFetch answer with ``change(group, topic entry, partition)`` applied to each
    partition (one group until v7, a ``groups`` list from v8)."""
    def topics(group, ts):
        return [{**t, "partitions": [change(group, t, p) for p in t.get("partitions") or []]} for t in ts or []]
    if body.get("groups") is not None:
        return {**body, "groups": [{**g, "topics": topics(g.get("group_id"), g.get("topics"))} for g in body["groups"]]}
    return {**body, "topics": topics(seen.request.get("group_id"), body.get("topics"))}


@mutant
class OffsetsKeptAfterTopicDeletion(_TopicNames):
    """After a DeleteTopics answered NONE for a topic, OffsetFetch answers each group's
    partitions of it with the offset and metadata last committed before the deletion, where
    Kafka answers -1 (``OffsetMetadataManager.onPartitionsDeleted`` drops them): a
    coordinator that never hears of the deletion."""
    name = "offsets-kept-after-topic-deletion"
    catches = ("S2",)
    apis = (ApiKey.OffsetCommit, ApiKey.OffsetFetch, ApiKey.DeleteTopics, ApiKey.DeleteGroups, ApiKey.Metadata,
            ApiKey.CreateTopics)
    over = OVER

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: (group, topic name, partition) -> (offset, metadata): committed and answered NONE
        self.committed: dict[tuple[str, str, int], tuple[int, str]] = {}
        #: the same, for the topics deleted since: what the mutant answers instead of -1
        self.ghosts: dict[tuple[str, str, int], tuple[int, str]] = {}

    def response(self, seen, body):
        self._learn_names(seen, body)
        if seen.api_key == ApiKey.OffsetCommit:
            self._commit(seen, body)
        elif seen.api_key == ApiKey.DeleteTopics:
            for name, _ in _deleted(seen, body):
                for key in [k for k in self.committed if k[1] == name]:
                    self.ghosts[key] = self.committed.pop(key)
        elif seen.api_key == ApiKey.DeleteGroups:
            gone = {r.get("group_id") for r in body.get("results") or [] if r.get("error_code") == Errors.NONE}
            for store in (self.committed, self.ghosts):
                for key in [k for k in store if k[0] in gone]:
                    del store[key]
        elif seen.api_key == ApiKey.OffsetFetch and self.ghosts:
            return self._fetched(seen, body)
        return None

    def _commit(self, seen, body) -> None:
        group = seen.request.get("group_id")
        asked = {(self._name(t), p["partition_index"]): (p["committed_offset"], p.get("committed_metadata") or "")
                 for t in seen.request.get("topics") or [] for p in t.get("partitions") or []}
        for t in body.get("topics") or []:
            name = self._name(t)
            for p in t.get("partitions") or []:
                key = (name, p.get("partition_index"))
                if name and p.get("error_code") == Errors.NONE and key in asked:
                    self.committed[(group, *key)] = asked[key]

    def _fetched(self, seen, body):
        changed = False

        def change(group, t, p):
            nonlocal changed
            ghost = self.ghosts.get((group, self._name(t), p.get("partition_index")))
            if ghost is None or p.get("committed_offset", NO_OFFSET) != NO_OFFSET:
                return p
            changed = True
            return {**p, "committed_offset": ghost[0], "metadata": ghost[1], "error_code": Errors.NONE}
        out = _with_partitions(seen, body, change)
        return out if changed else None


@mutant
class FeatureUpdateResetsGroupState(Mutant):
    """Any UpdateFeatures answered NONE (validate_only too) resets the group coordinator's
    state: every group that committed offsets is deleted (through the side channel), so
    OffsetFetch answers -1 for all their partitions, where Kafka's UpdateFeatures touches
    only the finalized levels (``FeatureControlManager.updateFeatures``; validate_only
    applies nothing)."""
    name = "feature-update-resets-group-state"
    catches = ("S2",)
    apis = (ApiKey.OffsetCommit, ApiKey.UpdateFeatures)
    over = OVER

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.groups: set[str] = set()       # the groups committed to, in order of first commit

    def response(self, seen, body):
        if seen.api_key == ApiKey.OffsetCommit:
            if any(p.get("error_code") == Errors.NONE for t in body.get("topics") or [] for p in t.get("partitions") or []):
                self.groups.add(seen.request.get("group_id"))
            return None
        codes = [body.get("error_code", Errors.NONE)] + [r.get("error_code") for r in body.get("results") or []]
        if self.groups and all(c == Errors.NONE for c in codes):
            self.upstream(ApiKey.DeleteGroups, 0, requests.delete_groups(0, sorted(self.groups)))
            self.groups.clear()
        return None


# -- topics and configs -----------------------------------------------------------------------------

@mutant
class RecreatedTopicInheritsConfigs(_TopicNames):
    """A topic created again under a deleted topic's name gets the deleted topic's config
    overrides back (a config store keyed by name that deletion does not clear; the keys the
    CreateTopics names itself win), where Kafka deletes a topic's configs with it
    (``ReplicationControlManager`` replay of RemoveTopicRecord: ``deleteTopicConfigs``):
    right after the CreateTopics succeeds, the side channel sets them on the new topic."""
    name = "recreated-topic-inherits-configs"
    catches = ("S2",)
    apis = (ApiKey.DeleteTopics, ApiKey.CreateTopics, ApiKey.Metadata)
    over = OVER

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ghosts: dict[str, dict[str, str]] = {}      # deleted topic -> its overrides

    def request(self, seen):
        if seen.api_key != ApiKey.DeleteTopics:
            return None
        if schema_facts.has_field(ApiKey.DeleteTopics, seen.api_version, "topics"):
            names = [self._name(t) for t in seen.request.get("topics") or []]
        else:
            names = list(seen.request.get("topic_names") or [])
        seen.connection[("overrides", seen.correlation_id)] = {n: _overrides(self.upstream, n) for n in names if n}
        return None

    def response(self, seen, body):
        self._learn_names(seen, body)
        if seen.api_key == ApiKey.DeleteTopics:
            before = seen.connection.pop(("overrides", seen.correlation_id), {})
            for name, _ in _deleted(seen, body):
                if before.get(name):
                    self.ghosts[name] = before[name]
        elif seen.api_key == ApiKey.CreateTopics and not seen.request.get("validate_only"):
            asked = {t["name"]: {c["name"] for c in t.get("configs") or []} for t in seen.request.get("topics") or []}
            for r in items(ApiKey.CreateTopics, body):
                name = r.get("name")
                if r.get("error_code") == Errors.NONE and name in self.ghosts:
                    ops = [(k, AlterConfigOp.SET, v) for k, v in sorted(self.ghosts.pop(name).items())
                           if k not in asked.get(name, ())]
                    if ops:
                        self.upstream(ApiKey.IncrementalAlterConfigs, 0,
                                      requests.incremental_alter_configs(0, [(name, ops)]))
                        self.until_shown(lambda n=name, ops=ops: all(
                            _overrides(self.upstream, n).get(k) == v for k, _, v in ops))
        return None


# -- topics and ACLs ----------------------------------------------------------------------------------

@mutant
class AclsDroppedWithTheirTopic(Mutant):
    """A DeleteTopics answered NONE also deletes every ACL whose resource is that topic by its
    literal name (through the side channel), where Kafka keeps them: only DeleteAcls removes
    a binding (``AclControlManager``; RemoveTopicRecord touches no ACL)."""
    name = "acls-dropped-with-their-topic"
    catches = ("S2",)
    apis = (ApiKey.DeleteTopics,)
    over = OVER

    def response(self, seen, body):
        names = [n for n, _ in _deleted(seen, body)]
        if names:
            filters = [(AclResourceType.TOPIC, n, AclPatternType.LITERAL, None, None, AclOperation.ANY,
                        AclPermission.ANY) for n in names]
            self.upstream(ApiKey.DeleteAcls, 1, requests.delete_acl_filters(1, filters))
            self.until_shown(lambda: not any(
                self.upstream(ApiKey.DescribeAcls, 1, requests.describe_acl_filter(1, f)).get("resources")
                for f in filters))
        return None


# -- SCRAM credentials and quotas -------------------------------------------------------------------

@mutant
class QuotaLostWithScramDeletion(Mutant):
    """An AlterUserScramCredentials deletion answered NONE for a user also removes that
    user's client quotas (through the side channel: every key its ``user`` entity holds),
    where Kafka keeps them (``ScramControlManager``: RemoveUserScramCredentialRecord touches
    credentials only)."""
    name = "quota-lost-with-scram-deletion"
    catches = ("S2",)
    apis = (ApiKey.AlterUserScramCredentials,)
    over = OVER

    def response(self, seen, body):
        deleted = {d["name"] for d in seen.request.get("deletions") or []}
        for r in body.get("results") or []:
            user = r.get("user")
            if user in deleted and r.get("error_code") == Errors.NONE:
                keys = _held(self.upstream, 0, (("user", user),))
                if keys:
                    self.upstream(ApiKey.AlterClientQuotas, 0, requests.alter_client_quotas(
                        0, [((("user", user),), [(k, None) for k in sorted(keys)])]))
                    self.until_shown(lambda u=user: not _held(self.upstream, 0, (("user", u),)))
        return None


# -- SCRAM credentials and delegation tokens ------------------------------------------------------

def _tokens_of(upstream, user: str) -> list:
    """The tokens DescribeDelegationToken (v1) lists for the owner ``user``."""
    answer = upstream(ApiKey.DescribeDelegationToken, 1, requests.describe_delegation_token(1, [("User", user)]))
    return [t for t in answer.get("tokens") or [] if t.get("principal_name") == user]


@mutant
class TokensLostWithScramDeletion(Mutant):
    """An AlterUserScramCredentials deletion answered NONE for a user also expires the
    delegation tokens that user owns (through the side channel, as the super user, their
    renewer in S2: ExpireDelegationToken with a negative period of each HMAC a
    CreateDelegationToken answer gave it), where Kafka keeps them (``ScramControlManager``:
    RemoveUserScramCredentialRecord touches credentials only; ``DelegationTokenControlManager``
    removes a token only on its expiry)."""
    name = "tokens-lost-with-scram-deletion"
    catches = ("S2",)
    apis = (ApiKey.CreateDelegationToken, ApiKey.AlterUserScramCredentials)
    over = OVER

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.hmacs: dict[str, list[bytes]] = {}

    def response(self, seen, body):
        if seen.api_key == ApiKey.CreateDelegationToken:
            if body.get("error_code") == Errors.NONE and body.get("principal_name"):
                self.hmacs.setdefault(body["principal_name"], []).append(bytes(body["hmac"]))
            return None
        deleted = {d["name"] for d in seen.request.get("deletions") or []}
        for r in body.get("results") or []:
            user = r.get("user")
            if user in deleted and r.get("error_code") == Errors.NONE and self.hmacs.get(user):
                for hmac in self.hmacs.pop(user):
                    self.upstream(ApiKey.ExpireDelegationToken, 1, requests.expire_delegation_token(1, hmac, -1))
                self.until_shown(lambda u=user: not _tokens_of(self.upstream, u))
        return None


# -- topics and share groups ------------------------------------------------------------------------

@mutant
class ShareOffsetsKeptAfterTopicDeletion(Mutant):
    """After a DeleteTopics answered NONE for a topic, DescribeShareGroupOffsets of every topic
    of a share group still lists that topic with the start offsets last altered for it (until
    the name is given start offsets again), where Kafka drops them
    (``GroupMetadataManager.maybeCleanupShareGroupState``, ``ShareCoordinatorService.onTopicsDeleted``):
    a share coordinator that never hears of the deletion."""
    name = "share-offsets-kept-after-topic-deletion"
    catches = ("S2",)
    apis = (ApiKey.AlterShareGroupOffsets, ApiKey.DeleteShareGroupOffsets, ApiKey.DeleteTopics,
            ApiKey.DescribeShareGroupOffsets)
    over = OVER

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: (group, topic) -> {partition: start offset}: altered and answered NONE
        self.altered: dict[tuple[str, str], dict[int, int]] = {}
        #: the same, for the topics deleted since: what the mutant still lists
        self.ghosts: dict[tuple[str, str], dict[int, int]] = {}

    def response(self, seen, body):
        req = seen.request
        if seen.api_key == ApiKey.AlterShareGroupOffsets and body.get("error_code") == Errors.NONE:
            for t in req.get("topics") or []:
                key = (req.get("group_id"), t["topic_name"])
                self.ghosts.pop(key, None)
                self.altered.setdefault(key, {}).update({p["partition_index"]: p["start_offset"]
                                                         for p in t.get("partitions") or []})
        elif seen.api_key == ApiKey.DeleteShareGroupOffsets:
            for t in req.get("topics") or []:
                self.altered.pop((req.get("group_id"), t["topic_name"]), None)
        elif seen.api_key == ApiKey.DeleteTopics:
            for name, _ in _deleted(seen, body):
                for key in [k for k in self.altered if k[1] == name]:
                    self.ghosts[key] = self.altered.pop(key)
        elif seen.api_key == ApiKey.DescribeShareGroupOffsets and self.ghosts:
            return self._described(seen, body)
        return None

    def _described(self, seen, body):
        asked_all = {g.get("group_id") for g in seen.request.get("groups") or [] if g.get("topics") is None}
        changed = False
        groups = []
        for g in body.get("groups") or []:
            topics = list(g.get("topics") or [])
            if g.get("group_id") in asked_all:
                listed = {t.get("topic_name") for t in topics}
                for (group, topic), starts in sorted(self.ghosts.items()):
                    if group == g.get("group_id") and topic not in listed:
                        changed = True
                        topics.append({"topic_name": topic, "topic_id": ZERO_UUID, "partitions": [
                            {"partition_index": p, "start_offset": o, "leader_epoch": 0, "lag": -1,
                             "error_code": Errors.NONE, "error_message": None} for p, o in sorted(starts.items())]})
            groups.append({**g, "topics": topics})
        return {**body, "groups": groups} if changed else None


# -- groups and their configs -----------------------------------------------------------------------

def _group_overrides(upstream, group: str) -> list[str]:
    """The keys a group's DescribeConfigs (v4, GROUP resource) shows as its own (GROUP_CONFIG)."""
    answer = upstream(ApiKey.DescribeConfigs, 4, requests.describe_configs(
        4, [(group, None)], resource_type=ConfigResourceType.GROUP))
    return [c["name"] for r in answer.get("results") or [] for c in r.get("configs") or []
            if c.get("config_source") == ConfigSource.GROUP_CONFIG]


@mutant
class GroupConfigsDroppedWithTheirGroup(Mutant):
    """A DeleteGroups answered NONE for a group also deletes the dynamic configs set for it
    (through the side channel: IncrementalAlterConfigs DELETE of each key its GROUP resource
    overrides), where Kafka keeps them (KIP-1142; ``ConfigurationControlManager``: GROUP
    ConfigRecords change only by config requests)."""
    name = "group-configs-dropped-with-their-group"
    catches = ("S2",)
    apis = (ApiKey.DeleteGroups,)
    over = OVER

    def response(self, seen, body):
        for r in body.get("results") or []:
            group = r.get("group_id")
            if r.get("error_code") != Errors.NONE or not group:
                continue
            keys = _group_overrides(self.upstream, group)
            if keys:
                self.upstream(ApiKey.IncrementalAlterConfigs, 1, requests.incremental_alter_configs(
                    1, [(group, [(k, AlterConfigOp.DELETE, None) for k in keys])],
                    resource_type=ConfigResourceType.GROUP))
                self.until_shown(lambda g=group: not _group_overrides(self.upstream, g))
        return None
