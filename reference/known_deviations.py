"""Released Kafka's reviewed defects (``kafka_known_deviations.json``) as the suite uses them.

Each entry names one request *shape* (:data:`SHAPES`: a predicate over a request body, as
the codec writes it) that a release line of Apache Kafka answers wrongly, and the one
dedicated check that asks exactly that shape (the test marked
``@pytest.mark.known_deviation(ENTRY_ID)``). Where an entry applies to the broker under
check (:func:`applying`: its implementation, release line and, when the entry lists
modes, its mode), the generators of every other check leave the shape out
(:func:`avoided_shapes`), so one defect costs one row per version of its dedicated check
instead of muting every check that happens to draw it; on every other broker the shape is
drawn as usual and the dedicated check is an ordinary check of the conforming answer.

``reports/known.py`` reads the same file (it imports nothing of the suite) and matches a
failing row by the entry's whole shape: property, dedicated test, API and versions,
release line, the anchored ``message_regex``, the ``request_regex`` over the request and,
where given, the ``input_regex`` over the counterexample's input (a race's writers).
``tests/test_known_deviations.py`` checks that the regex and the predicate agree.

A broker an entry does not apply to (tansu, noida, a Kafka release or mode the entry does
not list) that answers exactly as the entry's Kafka does keeps its ``fail``: the row's
message names the entry (:func:`answered_as`, :func:`note`, written by ``fixtures/plugin/rows.py``;
"as Apache Kafka 3.3-4.4 answers: known deviation ID"), as s3-tests marks ``fails_on_aws``,
so the reports show it apart from that broker's own deviations without ever calling it known.

Adding an entry: a predicate in :data:`SHAPES` (and, where a generator can draw the
shape, that generator leaving it out when :func:`avoided_shapes` names it), the entry in
the JSON file, its dedicated check beside the property it concerns, and its documented
answer and worse neighbours in ``tests/test_known_neighbours.py``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from protocol import ZERO_UUID, AlterConfigOp, ConfigResourceType, OffsetSpec
from protocol.apis import ApiKey

from . import KNOWN_DEVIATIONS, features, topic_names
from .release_lines import NEWEST, OLDEST
from .scram_rules import last_holder_deleted_beside_an_upsertion
from .topic_config import CONFIGS

FORMAT = "kafka-admin-conformance/known-deviations/2"


@dataclass(frozen=True)
class Shape:
    """A request shape: ``holds(body)`` for a request of ``api_key`` (any version)."""
    id: str
    api_key: ApiKey
    says: str
    holds: Callable[[dict], bool]

    def of(self, api_key: int, body: dict) -> bool:
        return int(api_key) == int(self.api_key) and bool(self.holds(body or {}))


def _a_resource_named_twice(body: dict) -> bool:
    seen = set()
    for r in body.get("resources") or []:
        key = (r.get("resource_type"), r.get("resource_name"))
        if key in seen:
            return True
        seen.add(key)
    return False


def _two_names_colliding(body: dict) -> bool:
    """Two different legal names of one CreateTopics request equal once '.' and '_' are the
    same (apache/kafka clients/src/main/java/org/apache/kafka/common/internals/Topic.java
    hasCollision, unifyCollisionChars; an illegal name is refused before any collision)."""
    seen: dict[str, str] = {}
    for t in body.get("topics") or []:
        name = t.get("name")
        if not isinstance(name, str) or ("." not in name and "_" not in name) or not topic_names.is_legal(name):
            continue
        key = topic_names.collision_key(name)
        if seen.get(key, name) != name:
            return True
        seen[key] = name
    return False


#: IncrementalAlterConfigs' operations (IncrementalAlterConfigsRequest.json ConfigOperation:
#: SET, DELETE, APPEND, SUBTRACT).
_OPERATIONS = frozenset(range(4))


def _an_unknown_operation_on_a_topic(body: dict) -> bool:
    return any(r.get("resource_type") == ConfigResourceType.TOPIC
               and any(c.get("config_operation") not in _OPERATIONS for c in r.get("configs") or [])
               for r in body.get("resources") or [])


def _a_partition_above_1(body: dict) -> bool:
    """A DescribeShareGroupOffsets partition index above 1: the suite's topics that exist
    have partitions 0 and 1, so a higher index names a partition an existing topic may lack
    (a topic that does not exist is answered at once)."""
    return any(isinstance(p, int) and p >= 2 for g in body.get("groups") or []
               for t in g.get("topics") or [] for p in t.get("partitions") or [])


def _a_list_op_on_an_unknown_key(body: dict) -> bool:
    """APPEND or SUBTRACT of a key no topic config of the suite's table has, on a topic
    (reference/topic_config.py CONFIGS: wider than Kafka's unknown keys, which is what a
    generator leaving the shape out needs)."""
    return any(r.get("resource_type") == ConfigResourceType.TOPIC
               and any(c.get("config_operation") in (AlterConfigOp.APPEND, AlterConfigOp.SUBTRACT)
                       and c.get("name") not in CONFIGS for c in r.get("configs") or [])
               for r in body.get("resources") or [])


def _an_entry_naming_nothing(body: dict) -> bool:
    """A DeleteTopics v6+ entry with a null name and the zero topic id (the codec writes
    ``Uuid.ZERO_UUID`` as None or ZERO_UUID)."""
    return any(isinstance(t, dict) and t.get("name") is None and t.get("topic_id") in (None, ZERO_UUID)
               for t in body.get("topics") or [])


#: The run's share groups are named ``<prefix>sg-...`` (strategies/entities.py ``share_groups``),
#: apart from the groups it commits offsets to (``<prefix>g-...``).
SHARE_GROUP_MARK = "-sg-"


def _to_a_share_group(body: dict) -> bool:
    return SHARE_GROUP_MARK in str(body.get("group_id") or "")


#: AlterConfigs naming one resource (type and name) twice: Kafka never answers it
#: (entry ``alter-configs-duplicate-resource-never-answered``).
ALTER_CONFIGS_RESOURCE_TWICE = "alter-configs-resource-named-twice"
#: One CreateTopics naming two names that collide by '.'/'_': KRaft Kafka creates both
#: (entry ``create-topics-colliding-names-in-one-request-both-created``).
CREATE_TOPICS_NAMES_COLLIDING = "create-topics-names-colliding-in-one-request"
#: IncrementalAlterConfigs with an operation byte none of the four on a TOPIC resource: Kafka's
#: controller fails over (entry ``incremental-alter-configs-unknown-operation-fails-the-controller-over``).
INCREMENTAL_ALTER_CONFIGS_UNKNOWN_OPERATION = "incremental-alter-configs-unknown-operation"
#: DescribeShareGroupOffsets naming a partition above 1: Kafka answers a partition an existing
#: topic lacks only after 25-33 s, often after the Admin's request.timeout.ms (entry
#: ``describe-share-group-offsets-missing-partition-stalls``).
SHARE_GROUP_OFFSETS_PARTITION_ABOVE_1 = "describe-share-group-offsets-partition-above-1"
#: OffsetCommit to a share group (below v9 Kafka answers GROUP_ID_NOT_FOUND, a v9+ code:
#: entry ``offset-commit-to-share-group-answers-group-id-not-found-below-v9``).
OFFSET_COMMIT_TO_A_SHARE_GROUP = "offset-commit-to-a-share-group"

#: IncrementalAlterConfigs APPEND/SUBTRACT of an unknown key on a topic: ZooKeeper-mode Kafka
#: answers UNKNOWN_SERVER_ERROR (entry ``incremental-alter-configs-append-unknown-key-unknown-server-error``).
INCREMENTAL_ALTER_CONFIGS_LIST_OP_ON_AN_UNKNOWN_KEY = "incremental-alter-configs-list-op-on-an-unknown-key"
#: A DeleteTopics entry with neither name nor id: ZooKeeper-mode Kafka answers
#: TOPIC_AUTHORIZATION_FAILED (entry ``delete-topics-neither-name-nor-id-authorization-failed``).
DELETE_TOPICS_ENTRY_NAMING_NOTHING = "delete-topics-entry-naming-nothing"
#: AlterUserScramCredentials deleting one user's credential of a mechanism beside another
#: user's upsertion of it: Kafka loses the upsertion where the deletion empties the mechanism
#: (entry ``scram-upsertion-lost-when-a-deletion-empties-its-mechanism``).
SCRAM_DELETION_BESIDE_AN_UPSERTION = "scram-deletion-beside-an-upsertion-of-its-mechanism"

#: UpdateFeatures v0 allowing the downgrade of a feature the suite moves: KRaft Kafka 4.x reads
#: the v1+ upgrade type (default UPGRADE) and refuses it (entry
#: ``update-features-v0-allow-downgrade-ignored``).
UPDATE_FEATURES_V0_DOWNGRADE = "update-features-v0-downgrade"


def _a_v0_downgrade_of_a_moved_feature(body: dict) -> bool:
    return any(u.get("allow_downgrade") and u.get("feature") in features.DOWNGRADABLE
               for u in body.get("feature_updates") or [])


#: Concurrent IncrementalAlterConfigs of one topic on several connections: ZooKeeper-mode Kafka
#: loses acknowledged writes (entry ``incremental-alter-configs-concurrent-writers-lose-updates``).
#: A race has no single request that shows it: no generator leaves anything out (C2 alone
#: races writers), and the entry's dedicated check is C2 itself.
CONCURRENT_TOPIC_CONFIG_WRITERS = "incremental-alter-configs-concurrent-writers-of-one-topic"
#: The same for AlterClientQuotas of one entity (entry ``alter-client-quotas-concurrent-writers-lose-updates``;
#: Q5 alone races writers).
CONCURRENT_QUOTA_WRITERS = "alter-client-quotas-concurrent-writers-of-one-entity"
#: ListOffsets MAX_TIMESTAMP (KIP-734): Kafka 3.7 answers the last offset of the batch holding the
#: largest timestamp (entry ``list-offsets-max-timestamp-answers-the-batchs-last-offset``).
LIST_OFFSETS_MAX_TIMESTAMP = "list-offsets-max-timestamp"


def _a_race(body: dict) -> bool:
    """No one request: the shape of a race between requests."""
    return False


def _max_timestamp(body: dict) -> bool:
    return any(p.get("timestamp") == OffsetSpec.MAX_TIMESTAMP for t in body.get("topics") or []
               for p in t.get("partitions") or [])


#: CreateAcls with a binding of an ANY resource type, pattern type, operation or permission,
#: or a MATCH pattern type: Kafka fails the whole request (entry
#: ``create-acls-any-or-match-binding-fails-the-whole-request``).
CREATE_ACLS_ANY_OR_MATCH = "create-acls-any-or-match-binding"


def _an_any_or_match_binding(body: dict) -> bool:
    """A creation no AclBinding can hold (reference/acl_rules.py ``unrepresentable``: the
    wire's ANY code 1 of ResourceType, PatternType, AclOperation, AclPermissionType, and
    PatternType MATCH 2; a version without pattern types sends LITERAL)."""
    return any(c.get("resource_type") == 1 or c.get("resource_pattern_type") in (1, 2) or c.get("operation") == 1
               or c.get("permission_type") == 1 for c in body.get("creations") or [] if isinstance(c, dict))


#: Shapes of races between requests (their entries' ``race``): a request never has them.
RACES = frozenset({CONCURRENT_TOPIC_CONFIG_WRITERS, CONCURRENT_QUOTA_WRITERS})


SHAPES: dict[str, Shape] = {s.id: s for s in (
    Shape(ALTER_CONFIGS_RESOURCE_TWICE, ApiKey.AlterConfigs,
          "an AlterConfigs request naming one resource (type and name) twice", _a_resource_named_twice),
    Shape(CREATE_TOPICS_NAMES_COLLIDING, ApiKey.CreateTopics,
          "a CreateTopics request naming two topics that collide by '.'/'_'", _two_names_colliding),
    Shape(INCREMENTAL_ALTER_CONFIGS_UNKNOWN_OPERATION, ApiKey.IncrementalAlterConfigs,
          "an IncrementalAlterConfigs request with an unknown operation on a topic", _an_unknown_operation_on_a_topic),
    Shape(SHARE_GROUP_OFFSETS_PARTITION_ABOVE_1, ApiKey.DescribeShareGroupOffsets,
          "a DescribeShareGroupOffsets request naming a partition above 1", _a_partition_above_1),
    Shape(OFFSET_COMMIT_TO_A_SHARE_GROUP, ApiKey.OffsetCommit,
          "an OffsetCommit request to one of the run's share groups", _to_a_share_group),
    Shape(INCREMENTAL_ALTER_CONFIGS_LIST_OP_ON_AN_UNKNOWN_KEY, ApiKey.IncrementalAlterConfigs,
          "an IncrementalAlterConfigs request appending to or subtracting from an unknown topic config",
          _a_list_op_on_an_unknown_key),
    Shape(DELETE_TOPICS_ENTRY_NAMING_NOTHING, ApiKey.DeleteTopics,
          "a DeleteTopics request with an entry naming neither a topic nor an id", _an_entry_naming_nothing),
    Shape(UPDATE_FEATURES_V0_DOWNGRADE, ApiKey.UpdateFeatures,
          "an UpdateFeatures v0 update allowing the downgrade of a finalized feature the suite moves",
          _a_v0_downgrade_of_a_moved_feature),
    Shape(CONCURRENT_TOPIC_CONFIG_WRITERS, ApiKey.IncrementalAlterConfigs,
          "IncrementalAlterConfigs requests of several connections racing on one topic (a race: no request alone)",
          _a_race),
    Shape(CONCURRENT_QUOTA_WRITERS, ApiKey.AlterClientQuotas,
          "AlterClientQuotas requests of several connections racing on one entity (a race: no request alone)",
          _a_race),
    Shape(LIST_OFFSETS_MAX_TIMESTAMP, ApiKey.ListOffsets,
          "a ListOffsets request asking a partition's MAX_TIMESTAMP (-3)", _max_timestamp),
    Shape(CREATE_ACLS_ANY_OR_MATCH, ApiKey.CreateAcls,
          "a CreateAcls request with a binding of an ANY resource type, pattern type, operation or permission, "
          "or a MATCH pattern type", _an_any_or_match_binding),
    Shape(SCRAM_DELETION_BESIDE_AN_UPSERTION, ApiKey.AlterUserScramCredentials,
          "an AlterUserScramCredentials request deleting one user's credential of a mechanism and upserting "
          "another user's of the same mechanism", last_holder_deleted_beside_an_upsertion),
)}


@dataclass(frozen=True)
class Entry:
    """One reviewed defect: which brokers it applies to, its shape and its dedicated check."""
    id: str
    broker_impl: str
    releases: tuple[str, ...]       # release lines "X.Y"
    modes: tuple[str, ...] | None   # None: every mode
    property: str
    test: str
    shape: Shape
    api_versions: tuple[int, ...]
    doc: dict

    @property
    def unanswered(self) -> bool:
        """Kafka leaves the shape's request unanswered for as long as a request timeout or
        longer: its dedicated check's row says it got no answer (``message_regex``: "got
        timeout"), or the entry is about a late answer (``deviating_answer.answer_after_s``;
        the dedicated check waits that long). fixtures/shards.py spreads such checks."""
        return ("got timeout" in self.doc.get("message_regex", "")
                or "answer_after_s" in (self.doc.get("deviating_answer") or {}))

    @property
    def of_a_history(self) -> bool:
        """The entry is about a whole history (``history``: S3's row is one per history and
        names no API): the row's API and version are None, and the request looked at is the
        last of the shape's API in the counterexample, at one of ``api_versions``."""
        return bool(self.doc.get("history"))

    def applies(self, impl: str | None, version: str | None, mode: str | None = None) -> bool:
        return (impl == self.broker_impl and release_line(version) in self.releases
                and (self.modes is None or (mode or "kraft") in self.modes))

    @property
    def _regexes(self) -> tuple[re.Pattern, re.Pattern, re.Pattern | None]:
        d = self.doc
        return (_compiled(d["message_regex"]), _compiled(d["request_regex"]),
                _compiled(d["input_regex"]) if d.get("input_regex") else None)

    def answers_like(self, prop: str, check: str | None, api_key: int | None, api_version: int | None,
                     message: str | None, counterexample: dict | None) -> bool:
        """A failing row of these fields has the entry's whole shape apart from the broker
        (implementation, release line, mode): its property, its dedicated check (``check``:
        the test function and its parameters, ``test_c4_...[kind=unknown operation]``), API
        and version, the whole message, the last request of the API and, where the entry
        has one, the counterexample's input. ``reports/known.py`` ``Known.matches`` is the
        same rule with the broker too (``tests/test_known_neighbours.py`` holds them equal)."""
        message_rx, request_rx, input_rx = self._regexes
        name = (check or "") if "[" in self.test else (check or "").split("[", 1)[0]
        key = int(self.shape.api_key)
        row_api = (api_key is None and api_version is None) if self.of_a_history else (
            api_key == key and api_version in self.api_versions)
        if not (prop == self.property and name == self.test and row_api and message_rx.fullmatch(message or "")):
            return False
        ce = counterexample if isinstance(counterexample, dict) else {}
        step = next((st for st in reversed(ce.get("steps") or [])
                     if isinstance(st, dict) and st.get("api_key") == key), None)
        if step is None or step.get("api_version") not in self.api_versions:
            return False
        if not request_rx.search(json.dumps(step.get("request"), sort_keys=True, default=str)):
            return False
        return input_rx is None or bool(input_rx.search(json.dumps(ce.get("input"), sort_keys=True, default=str)))

    def where(self) -> str:
        """The Kafka this entry is about, in words: "Apache Kafka 3.3-4.4", with "in ZooKeeper
        mode" / "in KRaft mode" for an entry of one mode."""
        mode = {("zk",): " in ZooKeeper mode", ("kraft",): " in KRaft mode"}.get(self.modes or (), "")
        return f"Apache Kafka {spans(self.releases)}{mode}"


def spans(lines) -> str:
    """Release lines as runs of lines that follow each other in Kafka's release order
    (reference/release_lines.py, OLDEST to NEWEST; 3.9 is followed by 4.0): ("3.3", "3.6",
    "3.9", "4.0", "4.1") -> "3.3, 3.6, 3.9-4.1"."""
    order = [(major, minor) for major in range(OLDEST[0], NEWEST[0] + 1) for minor in range(10)
             if OLDEST <= (major, minor) <= NEWEST]
    keys = sorted({tuple(int(x) for x in line.split(".")) for line in lines})
    runs: list[list[tuple[int, int]]] = []
    for k in keys:
        last = runs[-1][-1] if runs else None
        if last in order and k in order and order.index(k) == order.index(last) + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    text = (lambda k: f"{k[0]}.{k[1]}")
    return ", ".join(text(r[0]) if len(r) == 1 else f"{text(r[0])}-{text(r[-1])}" for r in runs)


#: What a row's message ends with when the broker answered as a known deviation of Kafka
#: that does not apply to it (:func:`note`; reports/known.py reads it back as ``NOTE``).
NOTE = " (as {where} answers: known deviation {id})"


def answered_as(impl: str | None, version: str | None, mode: str | None, prop: str, check: str | None,
                api_key: int | None, api_version: int | None, message: str | None,
                counterexample: dict | None) -> Entry | None:
    """The entry a failing row of a broker it does not apply to answers exactly as (the
    entry's whole shape but the broker: :meth:`Entry.answers_like`), else None; None too for
    a row an entry that applies to its broker matches (it is that known deviation: a KRaft
    row of an entry whose ZooKeeper-mode twin has the same shape). The row stays ``fail``:
    the same answer is a defect whoever gives it."""
    alike = [e for e in entries() if e.answers_like(prop, check, api_key, api_version, message, counterexample)]
    if any(e.applies(impl, version, mode) for e in alike):
        return None
    return alike[0] if alike else None


def note(entry: Entry) -> str:
    """The words a row's message gains when its broker answered as ``entry``'s Kafka does."""
    return NOTE.format(where=entry.where(), id=entry.id)


_compiled = lru_cache(maxsize=None)(re.compile)


def release_line(version: str | None) -> str | None:
    m = re.match(r"(\d+)\.(\d+)", version or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


def read(path: str = KNOWN_DEVIATIONS) -> tuple[Entry, ...]:
    """The entries of the list; ValueError (one line) when the list is malformed."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read the known deviations {path}: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"{path}: not a known-deviations file (format {FORMAT})")
    out = []
    for i, e in enumerate(doc.get("deviations") or [], 1):
        try:
            shape = SHAPES[e["shape"]]
            out.append(Entry(e["id"], e["broker_impl"], tuple(e["releases"]),
                             tuple(e["modes"]) if e.get("modes") else None, e["property"], e["test"],
                             shape, tuple(e["api_versions"]), e))
        except KeyError as k:
            raise ValueError(f"{path}: entry {e.get('id', i)}: missing or unknown {k}") from None
    return tuple(out)


_ENTRIES: tuple[Entry, ...] | None = None


def entries() -> tuple[Entry, ...]:
    global _ENTRIES
    if _ENTRIES is None:
        _ENTRIES = read()
    return _ENTRIES


def entry(entry_id: str) -> Entry:
    found = [e for e in entries() if e.id == entry_id]
    if not found:
        raise KeyError(f"no known deviation {entry_id!r} in {KNOWN_DEVIATIONS}")
    return found[0]


def applying(impl: str | None, version: str | None, mode: str | None = None) -> tuple[Entry, ...]:
    """The entries that apply to a broker of this implementation, version and mode."""
    return tuple(e for e in entries() if e.applies(impl, version, mode))


def avoided_shapes(impl: str | None, version: str | None, mode: str | None = None,
                   asked: str | tuple[str, ...] | None = None) -> frozenset[str]:
    """The shapes generators leave out on such a broker: every applying entry's, except those
    of ``asked``, the entry (or entries: one check may be the dedicated check of one entry per
    mode, e.g. a KRaft and a ZooKeeper-mode root cause of one request shape) the dedicated
    check asks."""
    mine = {asked} if isinstance(asked, str) else set(asked or ())
    return frozenset(e.shape.id for e in applying(impl, version, mode) if e.id not in mine)
