"""What a family module declares its APIs with: the shape of a declaration, of an error-code
row and of a safe value, and the :class:`Family` that holds them for ``protocol.apis``.

One module per admin API family under ``protocol/families/`` holds, for its APIs, the
:class:`ApiSpec` declarations, the request builders (:func:`protocol.building.builds`), the
error-code rows with their Kafka sources and the safe values of generated requests, as data
(a :class:`Family`); ``protocol.apis`` builds the one declaration table from the families
``protocol/families/__init__.py`` lists, as franz-go's kfake registers each API key from the
file that serves it (twmb/franz-go pkg/kfake/42_delete_groups.go ``regKey``). These types
live apart from ``protocol.apis`` so that a family module imports them without importing the
table it is part of (no import circle).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Mapping, Optional

from kafka.protocol.api_key import ApiKey

from . import kafka_clients
from .building import TIMEOUT_MS
from .errors import Errors


class Role(Enum):
    """What the suite uses an API for.

    An API is ``ADMIN`` when Kafka's Java Admin client (apache/kafka
    clients/src/main/java/org/apache/kafka/clients/admin/KafkaAdminClient.java and its
    ``admin/internals`` handlers) sends it to carry out an Admin operation and the request
    administers the cluster from outside: it describes, lists, creates, alters or deletes
    something (topics, configs, partitions, records, ACLs, quotas, SCRAM credentials,
    delegation tokens, log dirs, reassignments, leaders, groups and their offsets,
    producers and transactions, features, the quorum, brokers). An API is not ``ADMIN``
    when it makes its sender a participant: a group member (JoinGroup, Heartbeat, SyncGroup,
    LeaveGroup, the *GroupHeartbeat APIs), a producer or a transaction (InitProducerId,
    AddPartitionsToTxn, AddOffsetsToTxn, EndTxn, TxnOffsetCommit), a consumer reading
    records (Fetch, ShareFetch, ShareAcknowledge), a broker or controller talking to another
    (WriteTxnMarkers, the share-group state APIs, the Raft and registration APIs). The Admin
    client borrows three of those for one operation each (InitProducerId for
    ``fenceProducers``, WriteTxnMarkers for ``abortTransaction``, LeaveGroup for
    ``removeMembersFromConsumerGroup``); they keep the role of what they are. The
    participants' APIs the suite speaks are ``DATA``: it makes a group member over the wire
    (JoinGroup, SyncGroup, LeaveGroup) to see what a group with members is refused, a member
    of a consumer group (ConsumerGroupHeartbeat, KIP-848) and of a share group
    (ShareGroupHeartbeat, KIP-932) to see them described, an idempotent producer
    (InitProducerId) to see DescribeProducers list it, and a transactional producer
    (InitProducerId, AddPartitionsToTxn, EndTxn) to see its transaction listed and
    described. ``protocol.apis.NOT_DECLARED`` gives, for every other API Kafka serves, the
    reason it is not declared.
    """
    ADMIN = "admin"   #: the generic properties are parametrised over these, at every version
    DATA = "data"     #: set up and observe state (produce records, read them, be a member)
    SETUP = "setup"   #: configure a broker the suite started (SASL)


class Entity(Enum):
    """What a request field names, for the names a run may use (its prefix) and the
    external-cluster guard. The schemas tag topics, groups and transactional ids
    (``entityType``); the other fields are declared per API (:attr:`ApiSpec.names`)."""
    TOPIC = "topic"
    GROUP = "group"
    TRANSACTIONAL_ID = "transactional id"
    PRINCIPAL = "principal"              #: ``Type:name`` (``User:alice``)
    USER = "user"                        #: a bare user name (SCRAM, a token's owner)
    QUOTA_ENTITY = "quota entity"        #: a client quota entity's name (user, client id, ip)
    ACL_RESOURCE = "ACL resource"        #: an ACL's resource name (topic, group, ...)
    CONFIG_RESOURCE = "config resource"  #: a config resource's name (its kind: resource_type)
    COORDINATOR_KEY = "coordinator key"  #: a group or transactional id to find a coordinator for
    FEATURE = "feature"                  #: a KIP-584 feature name
    LOG_DIR = "log dir"                  #: a broker's log directory
    NODE = "node"                        #: a broker or controller id


#: The schemas' ``entityType`` tags the suite keeps inside a run (the others, brokerId and
#: producerId, are numbers no run owns).
SCHEMA_ENTITIES = {"topicName": Entity.TOPIC, "groupId": Entity.GROUP, "transactionalId": Entity.TRANSACTIONAL_ID}


@dataclass(frozen=True)
class MessageSchemas:
    """An API's request and response schemas in Kafka's message-schema JSON
    (apache/kafka clients/src/main/resources/common/message/*.json), for an API whose
    classes kafka-python does not ship (or ships at an older version than Kafka serves):
    e.g. the files vendored from the ``kafka-clients`` jar of a release
    (:mod:`protocol.kafka_clients`). ``load`` returns ``(request schema, response schema)``
    as parsed JSON; ``origin`` says where they come from (a jar and path, a KIP)."""
    origin: str
    load: Callable[[], tuple[dict, dict]]


def from_kafka_clients(name: str) -> MessageSchemas:
    """The schemas of ``name`` vendored from the pinned kafka-clients jar."""
    return MessageSchemas(f"{kafka_clients.origin()}{name}Request.json, {name}Response.json",
                          lambda: kafka_clients.schemas(name))


# -- item paths: which items a request names, and where the answer has one result each ----------

@dataclass(frozen=True)
class Level:
    """One array on the way to an item: ``array[key]``. ``key`` is a tuple of entry fields
    naming the item (several: a composite key, ``resources[resource_type,resource_name]``);
    ``fallback``: the fields are alternatives, the first non-null one names it
    (``topics[name|topic_id]``); ``()`` for an array of plain values (``groups_names[]``);
    ``POSITION`` (``[#]``) for results matched by their place; ``FLAT`` (``[*]``) for an
    array walked through without naming anything (``dirs[*].topics[name]``)."""
    array: str
    key: tuple[str, ...]
    fallback: bool = False

    @property
    def plain(self) -> bool:
        return self.key == ()


POSITION, FLAT = ("#",), ("*",)


def parse_path(text: str) -> tuple[Level, ...]:
    """``"topics[name].partitions[partition_index]"`` -> its levels (see :class:`Level`)."""
    levels = []
    for part in text.split("."):
        array, _, rest = part.partition("[")
        if not array or not rest.endswith("]"):
            raise ValueError(f"item path {text!r}: {part!r} is not array[key]")
        inner = rest[:-1]
        if inner in ("#", "*"):
            levels.append(Level(array, (inner,)))
        elif "|" in inner:
            levels.append(Level(array, tuple(inner.split("|")), fallback=True))
        else:
            levels.append(Level(array, tuple(filter(None, inner.split(",")))))
    return tuple(levels)


def _paths(value) -> tuple[tuple[tuple[Level, ...], ...], ...]:
    """A declaration's ``asks`` / ``answers``: alternatives (the first whose top array the
    version has), each a union of paths joined by ``+``."""
    if value is None:
        return ()
    alternatives = (value,) if isinstance(value, str) else tuple(value)
    return tuple(tuple(parse_path(p) for p in alt.split("+")) for alt in alternatives)


@dataclass(frozen=True)
class ApiSpec:
    """One API the suite speaks, declared once; every list of APIs is derived from these.

    * ``role``: what the suite uses it for (:class:`Role`); the codec's ``ADMIN_APIS`` /
      ``DATA_APIS`` / ``SETUP_APIS`` and the admin APIs the generic properties run on
      follow it;
    * ``answers``: where the response has one result per requested item, as an item path
      (``"topics[name].partitions[partition_index]"``, :func:`parse_path`; a tuple of paths:
      alternatives by version); ``results`` / ``item`` / ``partitions`` are read from it.
      None: the response has no per-item results (a description, a listing);
    * ``asks``: the items a request names, in the same notation (``"groups_names[]"``,
      ``"deletions[name]+upsertions[name]"`` for the union of two arrays), matched to
      ``answers`` by their keys' values (one result per item, no other);
    * ``mutates``: what a request does to a cluster, as the external-cluster guard says it
      ("creates topics"); None for an API that only reads;
    * ``names``: request fields (dotted paths) naming an :class:`Entity` the schema does
      not tag (``{"creations.principal": Entity.PRINCIPAL}``); the schema's own
      ``entityType`` tags (topics, groups, transactional ids) need no declaring;
    * ``schemas``: where its message schemas come from; None: kafka-python's classes
      ``<Name>Request`` / ``<Name>Response`` (Kafka's own JSON, shipped inside it);
    * ``ordered``: response arrays (dotted paths) whose order Kafka defines, each with why
      (every other array's order is no part of the answer: ``protocol.array_order``);
    * ``identity``: the entry fields identifying an entry of a response array where neither
      ``answers`` nor the schema's ``mapKey`` says it.

    From which version a request may name topics by id alone is read from the schema
    (:func:`protocol.schema_facts.by_id_from`), not declared; Kafka's error codes for it
    are rows of its family (:class:`Family`)."""
    key: ApiKey
    role: Role
    answers: str | tuple[str, ...] | None = None
    asks: str | tuple[str, ...] | None = None
    mutates: str | None = None
    names: dict[str, Entity] | None = None
    schemas: MessageSchemas | None = None
    ordered: dict[str, str] | None = None
    identity: dict[str, tuple[str, ...]] | None = None

    def __post_init__(self):
        _paths(self.answers), _paths(self.asks)        # a misspelt path fails at import

    @property
    def name(self) -> str:
        return self.key.name

    @property
    def answer_paths(self):
        return _paths(self.answers)

    @property
    def ask_paths(self):
        return _paths(self.asks)

    def _levels(self) -> tuple[Level, ...]:
        return self.answer_paths[0][0] if self.answers else ()

    @property
    def results(self) -> str | None:
        """The response field listing the per-item results (the first alternative's)."""
        levels = self._levels()
        return levels[0].array if levels else None

    @property
    def item(self) -> str | None:
        """The result field naming an item (of a composite key its last field, of a
        fallback its first; None for results matched by position)."""
        levels = self._levels()
        if not levels or levels[0].key in (POSITION, FLAT, ()):
            return None
        key = levels[0].key
        return key[0] if levels[0].fallback else key[-1]

    @property
    def partitions(self) -> str | None:
        """The nested per-partition list, where results are per partition."""
        levels = self._levels()
        return levels[1].array if len(levels) > 1 else None

    @property
    def partition_item(self) -> str | None:
        levels = self._levels()
        return levels[1].key[0] if len(levels) > 1 and levels[1].key not in (POSITION, FLAT, ()) else None


ADMIN, DATA, SETUP = Role.ADMIN, Role.DATA, Role.SETUP


# -- error-code rows ----------------------------------------------------------------------------

@dataclass(frozen=True)
class ErrorRule:
    """A code an API answers from ``since_version`` on; ``below`` says what Kafka does for
    older requests: ``"forbidden"`` (the code never appears there: nothing stands in for
    it), ``"downgraded_to:<NAME>"`` (Kafka answers ``Errors.NAME`` instead;
    ``downgraded_to:NONE``: the item succeeds, e.g. only throttled) or ``"n/a"`` (no older
    version exists). ``source``: where in apache/kafka it was read."""
    api_key: int
    error_code: Errors
    since_version: int
    below: str = "forbidden"  # "forbidden" | "downgraded_to:<Errors name>" | "n/a"
    source: str = ""
    scope: str = "item"  # "item" (per topic/resource/partition), "partition", "request"
    note: str = ""

    @property
    def error_name(self) -> str:
        return self.error_code.name

    @property
    def downgraded_to(self) -> Optional[Errors]:
        if self.below.startswith("downgraded_to:"):
            return Errors[self.below.split(":", 1)[1]]
        return None


# -- safe values of generated requests, as data ------------------------------------------------

@dataclass(frozen=True)
class Range:
    """An integer from ``lo`` to ``hi``, both included."""
    lo: int
    hi: int


@dataclass(frozen=True)
class Choice:
    """One of ``values``, each as likely as its repeats make it."""
    values: tuple


@dataclass(frozen=True)
class Distinct:
    """A list of ``min_size`` to ``max_size`` distinct values, each drawn as ``of`` says."""
    of: object
    min_size: int = 0
    max_size: int = 3


@dataclass(frozen=True)
class Maybe:
    """None (the field's "any" or "unset") or what ``of`` draws."""
    of: object


@dataclass(frozen=True)
class OneOf:
    """What one of ``alternatives`` draws."""
    alternatives: tuple


@dataclass(frozen=True)
class Safe:
    """What a generated request carries at one request path instead of what the schema
    alone would draw, and why: a value, a :class:`Range`, a :class:`Choice`, a
    :class:`Distinct` list, a :class:`Maybe`, a :class:`OneOf`, or ``fn(names, version)``
    returning one of those (``names``: the run's names, ``strategies.entities.RunNames``,
    whose attributes draw the run's topics, groups, users ...). ``strategies/safe_values.py``
    turns these into hypothesis strategies."""
    draw: object
    why: str


#: The safe values several families' requests share.
SUITE_TIMEOUT = Safe(TIMEOUT_MS, "the suite's timeout, long enough for a loaded broker")
RUN_PARTITION = Safe(Range(0, 3), "partitions a run's topic may have")
RUN_PARTITIONS = Safe(Distinct(Range(0, 3), min_size=1), "distinct partitions a run's topic may have")


# -- a family's module ---------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Family:
    """What one module of ``protocol/families/`` registers: its APIs' declarations and, keyed
    by those APIs only (any other key fails at import), Kafka's error codes with their
    sources and the safe values of generated requests.

    * ``name``: what the Admin client administers with its admin APIs (``"ACLs"``), the
      family's name in ``protocol.apis.API_FAMILIES`` and the docs;
    * ``codes``: per API, the codes every version may answer, each with its source;
    * ``gated``: the codes an API answers from a version on (:class:`ErrorRule`);
    * ``messages``: per API, ``(null on success, note)``: what Kafka puts in
      ``error_message`` (False: a success may carry Kafka's generated default ``""``);
    * ``not_produced``: ``(API, code)`` Kafka never answers through a broker, and why;
    * ``known_codes``: the codes of an API whose answers the per-version tables above do
      not describe (ApiVersions: a version the broker lacks is answered in v0's shape);
    * ``safe``: per API, request path -> :class:`Safe`.
    """
    name: str
    module: str
    declarations: tuple[ApiSpec, ...]
    codes: Mapping[ApiKey, Mapping[int, str]] = field(default_factory=dict)
    gated: tuple[ErrorRule, ...] = ()
    messages: Mapping[ApiKey, tuple[bool, str]] = field(default_factory=dict)
    not_produced: Mapping[tuple[ApiKey, int], str] = field(default_factory=dict)
    known_codes: Mapping[ApiKey, Mapping[int, str]] = field(default_factory=dict)
    safe: Mapping[ApiKey, Mapping[str, Safe]] = field(default_factory=dict)

    def __post_init__(self):
        elsewhere = sorted({ApiKey(k).name for k in self.keyed()} - {s.key.name for s in self.declarations})
        if elsewhere:
            raise ValueError(f"{self.module} has rows of APIs it does not declare: {elsewhere} (an API's error "
                             "codes and safe values are in the module that declares it)")

    def keyed(self) -> set[int]:
        """Every API this family's error-code rows and safe values are keyed by."""
        return (set(self.codes) | {r.api_key for r in self.gated} | set(self.messages)
                | {k for k, _ in self.not_produced} | set(self.known_codes) | set(self.safe))


__all__ = ["ADMIN", "DATA", "FLAT", "POSITION", "SCHEMA_ENTITIES", "SETUP", "ApiKey", "ApiSpec", "Choice",
           "Distinct", "Entity", "ErrorRule", "Family", "Level", "Maybe", "MessageSchemas", "OneOf", "RUN_PARTITION",
           "RUN_PARTITIONS", "Range", "Role", "SUITE_TIMEOUT", "Safe", "from_kafka_clients", "parse_path"]
