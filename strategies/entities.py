"""Names a run may use, one strategy per kind of thing a request names.

Every name drawn here starts with the run's prefix (``kac-XXXXXX-``), so whatever a request
creates, alters or deletes is the run's own and the end-of-run clean-up can find it
(``fixtures/scope.py``): topics, groups, transactional ids, users and principals
(``User:kac-...``), client quota entities, ACL resources, coordinator keys, feature names (no
feature of that name exists) and log dirs (no broker has the path). Node ids are drawn from
:data:`FAKE_NODE_IDS`, a range no cluster the suite knows uses, so a request to unregister a
broker or to add or remove a controller voter names no real node. What a request field names
is :func:`protocol.schema_facts.entity_fields` (the schemas' ``entityType`` tags and the
declarations' ``names``).
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from protocol.apis import Entity
from reference.known_deviations import SHARE_GROUP_MARK
from reference.topic_names import LEGAL_CHARS

#: Node ids no cluster uses (Kafka's node.id is an operator's small integer; the suite's
#: own clusters number their nodes from 0): requests that unregister a broker or add or
#: remove a voter name one of these, so the answer is an error and nothing is removed.
FAKE_NODE_IDS = (1 << 30, (1 << 31) - 1)

_SUFFIX = st.text(LEGAL_CHARS, min_size=1, max_size=12)


@dataclass(frozen=True)
class RunNames:
    """Strategies for the names of one run (``prefix``); ``topics`` may be given (existing
    topics, invalid names: :mod:`strategies.provoke`), otherwise valid prefixed names."""
    prefix: str
    topics: SearchStrategy[str]

    def _named(self, kind: str) -> SearchStrategy[str]:
        return _SUFFIX.map(lambda s, k=kind: f"{self.prefix}{k}-{s}")

    @property
    def groups(self) -> SearchStrategy[str]:
        """Consumer groups (``<prefix>g-...``); never a name carrying the share-group mark
        (a suffix may draw ``-sg-``), which would make an OffsetCommit the shape of a known
        deviation that the guard refuses to send (an ``error`` row instead of a check)."""
        return self._named("g").filter(lambda n: SHARE_GROUP_MARK not in n)

    @property
    def share_groups(self) -> SearchStrategy[str]:
        """Groups the run's share-group requests name (``<prefix>sg-...``), apart from the
        groups it commits offsets to: an OffsetCommit to a share group is the shape of a
        known deviation of Kafka 4.4 (reference/known_deviations.py)."""
        return self._named("sg")

    @property
    def transactional_ids(self) -> SearchStrategy[str]:
        return self._named("tx")

    @property
    def users(self) -> SearchStrategy[str]:
        return self._named("u")

    @property
    def principals(self) -> SearchStrategy[str]:
        return self.users.map(lambda u: "User:" + u)

    @property
    def features(self) -> SearchStrategy[str]:
        return self._named("feature")

    @property
    def log_dirs(self) -> SearchStrategy[str]:
        return self._named("dir").map(lambda d: "/" + d)

    @property
    def nodes(self) -> SearchStrategy[int]:
        return st.integers(*FAKE_NODE_IDS)

    def of(self, entity: Entity) -> SearchStrategy:
        """The names of one kind."""
        return {
            Entity.TOPIC: self.topics,
            Entity.GROUP: self.groups,
            Entity.TRANSACTIONAL_ID: self.transactional_ids,
            Entity.PRINCIPAL: self.principals,
            Entity.USER: self.users,
            Entity.QUOTA_ENTITY: self.users,
            Entity.ACL_RESOURCE: st.one_of(self.topics, self.groups),
            Entity.CONFIG_RESOURCE: self.topics,
            Entity.COORDINATOR_KEY: st.one_of(self.groups, self.transactional_ids),
            Entity.FEATURE: self.features,
            Entity.LOG_DIR: self.log_dirs,
            Entity.NODE: self.nodes,
        }[entity]


def in_run(prefix: str, entity: Entity, value) -> bool:
    """Whether ``value`` (a name of kind ``entity``) is one a run with ``prefix`` may use."""
    if entity is Entity.NODE:
        return isinstance(value, int) and FAKE_NODE_IDS[0] <= value <= FAKE_NODE_IDS[1]
    if not isinstance(value, str) or not prefix:
        return False
    if entity is Entity.PRINCIPAL:
        return value.partition(":")[2].startswith(prefix)
    if entity is Entity.LOG_DIR:
        return value.lstrip("/").startswith(prefix)
    return value.startswith(prefix)


__all__ = ["FAKE_NODE_IDS", "RunNames", "in_run"]
