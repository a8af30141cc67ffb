"""A model of one broker's admin state, for the S1 state machine (``test_stateful.py``).

Pure: no I/O. The model holds the topics one S1 example made (names under its own
sub-prefix), their partition counts, topic ids, config overrides and per-partition log
start / end offsets, plus what a fresh topic looks like on this broker (config defaults
learnt from DescribeConfigs, the broker count learnt from Metadata).

For each admin request the model *predicts* one :class:`Expect` per response entry: the
error codes released Apache Kafka 4.x may answer (``docs/reference-semantics.md``, which
cites the Kafka source for every rule used here), and what changes when the item
succeeds. Where a ZooKeeper-mode broker (3.x, ``mode=zk``) answers otherwise, the model
follows the mode's rules (``reference/modes.py``: the order of checks, a name repeated in
one request, topic deletion that completes in the background). Where Kafka's code does not
do what Kafka means (its KIPs, JIRAs, other code paths), the model follows the intent and
the deviation is a reviewed finding (``reference/kafka_known_deviations.json``; the audit is
the reference's "Code or intent" table). Where Kafka's answer is not certain (marked *code reading* in the reference, or
depending on broker configuration) the prediction allows every candidate code and the
model follows the code the broker actually gave; values it cannot predict are
:class:`Unknown` and are learnt from the next observation, under constraints that still
hold for every candidate. Nothing here asserts behaviour the reference does not pin down.
"""
from __future__ import annotations

from protocol import ZERO_UUID
from protocol.apis import ApiKey
from protocol.schema_facts import RESPONSE, has_field
from protocol.errors import Errors

from reference import topic_names
from reference.modes import CREATE_TOPICS_CHECKS, CREATE_TOPICS_REPEATED, DELETE_TOPICS_REPEATED, DELETING_TOPIC_ANSWERS
from reference.broker_config import DEFAULT_PARTITIONS, DEFAULT_REPLICATION, DELETION_REFUSED

from .model_configs import (INVALID_VALUES, LIST_KEYS, POLICY_ELEMENTS, UNKNOWN_KEY, VALID_VALUES, ConfigsModel,
                            value_verdict)
from .model_state import Defaults, Expect, Fact, Topic, Unknown, Value, _counts, _e, _walk, match, split_list

#: what S1 (conformance/stateful/) reads as the model's, wherever it is defined
__all__ = ["INVALID_VALUES", "LIST_KEYS", "POLICY_ELEMENTS", "UNKNOWN_KEY", "VALID_VALUES", "Defaults", "Expect",
           "Fact", "Model", "Topic", "Unknown", "Value", "match", "split_list", "unified", "valid_name",
           "value_verdict"]


def valid_name(name: str) -> bool:
    """org.apache.kafka.common.internals.Topic.validate."""
    return topic_names.is_legal(name)


def unified(name: str) -> str:
    """Topic.unifyCollisionChars: '.' and '_' collide."""
    return topic_names.collision_key(name)


def _either(e: Expect, other: str) -> Expect:
    """``e`` of one name of a colliding pair in one request: also refused, 17, where the
    other (``other``) is the one created (reference/topic_names.py COLLIDING_PAIR_IN_ONE_REQUEST)."""
    return _e(e.key, e.allowed | {Errors.INVALID_TOPIC_EXCEPTION},
              e.why + f", or refused: collides with {other} of the same request ('.' vs '_'; either may be "
                      "the one created)", e.effect, e.verify)


class Model(ConfigsModel):
    def __init__(self, sub: str, defaults: Defaults):
        self.sub = sub
        self.defaults = defaults
        self.topics: dict[str, Topic] = {}
        #: names deleted on a broker that deletes in the background (ZooKeeper mode) and not
        #: created again since: they may still answer as a topic being deleted
        self.deleting: set[str] = set()
        #: names the example deleted and has not created again: Metadata must not list them
        #: (stated in every look, so a reproducer waits for the deletion as the run did)
        self.deleted: set[str] = set()

    def name(self, slot: str) -> str:
        return f"{self.sub}-{slot}"

    def owns(self, name: str | None) -> bool:
        return bool(name) and name.startswith(self.sub + "-")

    def _collides(self, name: str) -> bool:
        """Does ``name`` collide with a topic the model has (other than itself)?"""
        if not _collision_chars(name):
            return False
        return any(other != name and unified(other) == unified(name) for other in self.topics)

    # -- CreateTopics (ReplicationControlManager.createTopics / createTopic, ControllerApis) --
    def create_topics(self, items: list[dict], validate_only: bool, version: int) -> list[Expect]:
        """items: {"name", "partitions", "rf", "configs": [[key, value-or-None], ...]}

        A name given twice is refused whole (ControllerApis.createTopics removes
        duplicates before the controller sees them), so it does not count as an earlier
        name of the request for :meth:`_earlier_collision`."""
        counts = _counts(i["name"] for i in items)
        repeated = CREATE_TOPICS_REPEATED.now()
        out, seen = [], set()
        earlier: dict[str, list[tuple[str, frozenset]]] = {}     # collision key -> (name, codes)
        for item in items:
            name = item["name"]
            if counts[name] > 1:
                if name not in seen or repeated.entries == "each":
                    out.append(_e(("name", name), repeated.code, "duplicate name"))
                    seen.add(name)
                continue
            e = self._earlier_collision(self._create_one(item, validate_only, version), earlier)
            out.append(e)
            if valid_name(name):
                earlier.setdefault(unified(name), []).append((name, e.allowed))
        return [self._first_of_a_pair(e, earlier) for e in out]

    def _first_of_a_pair(self, e: Expect, earlier: dict[str, list[tuple[str, frozenset]]]) -> Expect:
        """``e``, widened as :meth:`_earlier_collision` widens the later names where it is
        the first name of a colliding pair of its request (the later one may be the one
        created)."""
        name = e.key[1]
        if e.key[0] != "name" or not valid_name(name) or not _collision_chars(name):
            return e
        group = earlier.get(unified(name), [])
        if len(group) < 2 or group[0][0] != name or e.allowed & {Errors.INVALID_TOPIC_EXCEPTION,
                                                                 Errors.TOPIC_ALREADY_EXISTS}:
            return e
        return _either(e, group[1][0])

    def _create_one(self, item, validate_only, version) -> Expect:
        name, p, rf = item["name"], item["partitions"], item["rf"]
        key = ("name", name)
        verdicts = [value_verdict(k, v) for k, v in item["configs"]]
        outcomes: dict[str, tuple[bool, int, str]] = {}      # check -> (certain, code, why)
        if not valid_name(name):
            outcomes["name"] = (True, Errors.INVALID_TOPIC_EXCEPTION, "invalid name")
        if self._collides(name):
            outcomes["collision"] = (True, Errors.INVALID_TOPIC_EXCEPTION, "collides with an existing topic ('.' vs '_')")
        # Existence before collision in both modes (CREATE_TOPICS_CHECKS): KRaft's
        # validateNewTopicNames answers 17 for a name that collides, then createTopics
        # overwrites the entry of every existing name with TOPIC_ALREADY_EXISTS (measured on
        # 3.9.2, 4.1.0 and 4.4.0); ZooKeeper mode checked existence first on purpose
        # (AdminZkClient.validateTopicCreate, KAFKA-4687).
        if name in self.topics:
            outcomes["exists"] = (True, Errors.TOPIC_ALREADY_EXISTS, "exists")
        if name in self.deleting and "CreateTopics" in DELETING_TOPIC_ANSWERS.now():
            outcomes["deleting"] = (False, DELETING_TOPIC_ANSWERS.now()["CreateTopics"], "still being deleted")
        if any(v is None for _, v in item["configs"]):
            outcomes["null_config"] = (True, Errors.INVALID_CONFIG, "null config value")
        if any(v is False for v in verdicts):
            outcomes["config"] = (True, Errors.INVALID_CONFIG, "bad config")
        elif None in verdicts:
            outcomes["config"] = (False, Errors.INVALID_CONFIG, "config not certain")
        if rf == 0 or rf < -1:
            outcomes["replication_factor"] = (True, Errors.INVALID_REPLICATION_FACTOR, "replication factor < 1")
        if p == 0 or p < -1:
            outcomes["partitions"] = (True, Errors.INVALID_PARTITIONS, "partitions < 1")
        if rf > self.defaults.brokers:
            outcomes["brokers"] = (True, Errors.INVALID_REPLICATION_FACTOR,
                                   f"replication factor > {self.defaults.brokers} broker(s)")
        elif rf == -1:         # default.replication.factor: certain where the broker showed it
            default_rf = DEFAULT_REPLICATION.shown()
            if default_rf is None:
                outcomes["brokers"] = (False, Errors.INVALID_REPLICATION_FACTOR, "default replication factor")
            elif default_rf > self.defaults.brokers:
                outcomes["brokers"] = (True, Errors.INVALID_REPLICATION_FACTOR,
                                       f"default.replication.factor={default_rf} > {self.defaults.brokers} broker(s)")
        codes, whys, refused = _walk(CREATE_TOPICS_CHECKS.now(), outcomes)
        if refused:
            return _e(key, codes, " or ".join(whys))
        codes.add(Errors.NONE)
        why = "valid" + (" (validate_only)" if validate_only else "")

        answers_partitions = has_field(ApiKey.CreateTopics, version, "topics.num_partitions", RESPONSE)
        answers_id = has_field(ApiKey.CreateTopics, version, "topics.topic_id", RESPONSE)

        want = p if p > 0 else DEFAULT_PARTITIONS.shown()       # -1: the broker's num.partitions

        def verify(entry):
            if answers_partitions and not validate_only and want is not None:
                return [{"kind": "field", "path": ["num_partitions"], "in": [want], "count": 1,
                         "says": (f"num_partitions {p} in the answer, as requested" if p > 0 else
                                  f"num_partitions {want} in the answer, the broker's num.partitions for -1")}]
            return []

        def effect(entry):
            if validate_only:
                return
            t = Topic(None, {k: v for k, v in item["configs"]})
            if p > 0:
                t.set_partitions(p)
            elif answers_partitions and (entry.get("num_partitions") or 0) > 0:
                t.set_partitions(entry["num_partitions"])
            elif want is not None:
                t.set_partitions(want)
            if answers_id and entry.get("topic_id") not in (None, ZERO_UUID):
                t.topic_id = entry["topic_id"]
            self.topics[name] = t
            self.deleting.discard(name)
            self.deleted.discard(name)

        return _e(key, codes, why, effect, verify)

    def _earlier_collision(self, e: Expect, earlier: dict[str, list[tuple[str, frozenset]]]) -> Expect:
        """A name that collides ('.' vs '_') with an earlier name of the same request: one of
        the pair is created and the other refused, INVALID_TOPIC_EXCEPTION, and which one
        Kafka does not define (``reference/topic_names.py`` COLLIDING_PAIR_IN_ONE_REQUEST:
        ZooKeeper mode follows its map's order; KAFKA-13743 gave KRaft the check to keep the
        pair from existing, and released KRaft creates both, the known deviation
        ``create-topics-colliding-names-in-one-request-both-created``). So each name of the
        pair may answer 17 beside what it answers alone (:meth:`create_topics` widens the
        earlier one too); the model cannot say which, so S1 never sends such a pair (T1's
        dedicated check asks it, judging exactly one created)."""
        name = e.key[1]
        if e.allowed & {Errors.INVALID_TOPIC_EXCEPTION, Errors.TOPIC_ALREADY_EXISTS} or not _collision_chars(name):
            return e
        before = [(n, codes) for n, codes in earlier.get(unified(name), []) if n != name]
        if not before:
            return e
        return _either(e, before[0][0])

    # -- DeleteTopics (ControllerApis.deleteTopics, ReplicationControlManager) -------------
    def delete_topics(self, items: list[dict], version: int) -> list[Expect]:
        """items: {"name": n} or {"id": uuid}. A broker that refuses every deletion
        (``delete.topic.enable=false``) answers each item as sent with the refusal's code and
        deletes nothing (``reference/broker_config.py`` DELETION_REFUSED)."""
        refusal = DELETION_REFUSED.now()
        if refusal is not None:
            why = f"{DELETION_REFUSED.why()}: the request is refused"
            return [_e(("name", i["name"]) if "name" in i else ("id", i["id"]), refusal.code_at(version), why)
                    for i in items]
        names = _counts(i["name"] for i in items if "name" in i)
        ids = _counts(i["id"] for i in items if "id" in i)
        repeated = DELETE_TOPICS_REPEATED.now()
        out, seen = [], set()
        by_id = {t.topic_id: n for n, t in self.topics.items() if t.topic_id is not None}
        # an item names its topic by name or by id: how often each is asked, what a repeat
        # answers, which topics it names, and what an unknown one answers
        kinds = {"name": (names, (repeated.code, "duplicate name"), {n: n for n in self.topics},
                          (Errors.UNKNOWN_TOPIC_OR_PARTITION, "no such topic")),
                 "id": (ids, (Errors.INVALID_REQUEST, "duplicate id"), by_id,
                        (Errors.UNKNOWN_TOPIC_ID, "no such topic id"))}
        for item in items:
            kind = "name" if "name" in item else "id"
            asked, duplicate, topic_of, unknown = kinds[kind]
            key = (kind, item[kind])
            if key in seen and repeated.entries == "one":
                continue
            seen.add(key)
            if asked[item[kind]] > 1 and repeated.code is not None:
                out.append(_e(key, *duplicate))
            elif item[kind] not in topic_of:
                out.append(_e(key, *unknown))
            else:
                out.append(_e(key, Errors.NONE, "exists", self._remover(topic_of[item[kind]])))
        return out

    def _remover(self, name):
        def effect(entry):
            self.topics.pop(name, None)
            self.deleted.add(name)
            if DELETING_TOPIC_ANSWERS.now():
                self.deleting.add(name)
        return effect

    # -- CreatePartitions (ReplicationControlManager.createPartitions) ---------------------
    def create_partitions(self, items: list[dict], validate_only: bool) -> list[Expect]:
        """items: {"name", "count"}"""
        counts = _counts(i["name"] for i in items)
        out, seen = [], set()
        for item in items:
            name, count = item["name"], item["count"]
            key = ("name", name)
            if key in seen:
                continue
            seen.add(key)
            t = self.topics.get(name)
            deleting = DELETING_TOPIC_ANSWERS.now().get("CreatePartitions") if name in self.deleting else None
            if counts[name] > 1:
                out.append(_e(key, Errors.INVALID_REQUEST, "duplicate name"))
            elif t is None:
                out.append(_e(key, {Errors.UNKNOWN_TOPIC_OR_PARTITION} | ({deleting} if deleting else set()),
                              "no such topic" + (" (or still being deleted)" if deleting else "")))
            elif t.partitions is None:
                out.append(_e(key, {Errors.NONE, Errors.INVALID_PARTITIONS}, "partition count not known yet",
                              None if validate_only else (lambda e, t=t, c=count: t.set_partitions(c))))
            elif count <= t.partitions:
                out.append(_e(key, Errors.INVALID_PARTITIONS, f"{count} is not more than {t.partitions}"))
            else:
                out.append(_e(key, Errors.NONE, f"{t.partitions} -> {count}" + (" (validate_only)" if validate_only else ""),
                              None if validate_only else (lambda e, t=t, c=count: t.set_partitions(c))))
        return out

    # -- DeleteRecords (KafkaApis.handleDeleteRecordsRequest, Partition.deleteRecordsOnLeader) --
    def delete_records(self, topics: list[dict], unsettled: frozenset = frozenset()) -> list[Expect]:
        """topics: {"name", "partitions": [[index, offset], ...]} (names distinct; a partition
        given twice collapses to one result, the last offset wins). ``unsettled``: topics
        whose cleanup.policy changed so recently that the log may not have applied it."""
        out = []
        for tp in topics:
            name = tp["name"]
            last = {}
            for p, off in tp["partitions"]:
                last[p] = off
            t = self.topics.get(name)
            for p, off in last.items():
                key = ("partition", name, p)
                if t is None or t.partitions is None or p >= t.partitions or p < 0:
                    codes = {Errors.UNKNOWN_TOPIC_OR_PARTITION}
                    if t is not None and t.partitions is None:
                        codes.add(Errors.NONE)
                    out.append(_e(key, codes, "no such partition"))
                    continue
                deletes = self.policy_deletes(t)
                normal = self._delete_records_one(t, name, p, off)
                if deletes is False and name not in unsettled:
                    out.append(_e(key, Errors.POLICY_VIOLATION, "cleanup.policy lacks delete"))
                elif deletes is True and name not in unsettled:
                    out.append(normal)
                else:
                    out.append(_e(key, normal.allowed | {Errors.POLICY_VIOLATION}, normal.why + " (policy not known)",
                                  normal.effect, normal.verify))
        return out

    def _delete_records_one(self, t: Topic, name: str, p: int, off: int) -> Expect:
        key = ("partition", name, p)
        start, end = t.start[p], t.end[p]
        target = end if off == -1 else off
        if target < 0:
            return _e(key, Errors.OFFSET_OUT_OF_RANGE, f"offset {off} is negative")
        if target > end:
            return _e(key, Errors.OFFSET_OUT_OF_RANGE, f"offset {off} > high watermark {end}")
        lw = max(start, target)

        def verify(entry):
            return [{"kind": "field", "path": ["low_watermark"], "in": [lw], "count": 1,
                     "says": f"low_watermark {lw} (log start {start}, offset {off}; it never moves back)"}]

        def effect(entry):
            t.start[p] = lw
        return _e(key, Errors.NONE, f"{start} -> {lw}", effect, verify)

    def policy_deletes(self, t: Topic) -> bool | None:
        """Does the topic's cleanup.policy include delete? None: not known."""
        v = t.configs.get("cleanup.policy")
        if v is None:
            default = self.defaults.configs.get("cleanup.policy")
            if default is None or default[0] is None:
                return None
            v = default[0]
        if isinstance(v, Unknown):
            return True if "delete" in v.contains else False if "delete" in v.lacks and v.contains else None
        if not split_list(v):
            return None        # an empty policy: what DeleteRecords answers is not pinned down
        return "delete" in split_list(v)

    # -- Metadata (KafkaApis.handleTopicMetadataRequest, no auto-creation) -----------------
    def metadata(self, names: list[str] | None, version: int) -> list[Expect]:
        """Only names that exist, or (v4+, allow_auto_topic_creation=false) any name."""
        if names is None:
            names = sorted(self.topics)
        out = []
        for name in dict.fromkeys(names):
            key = ("name", name)
            t = self.topics.get(name)
            if t is not None:
                out.append(_e(key, Errors.NONE, "exists", lambda e, t=t, v=version: self.learn_topic(t, e, v),
                              lambda e, t=t, v=version: self.topic_facts(t, e, v)))
            elif not valid_name(name):
                out.append(_e(key, Errors.INVALID_TOPIC_EXCEPTION, "invalid name"))
            else:
                out.append(_e(key, Errors.UNKNOWN_TOPIC_OR_PARTITION, "no such topic"))
        return out

    def topic_facts(self, t: Topic, entry: dict, version: int) -> list[Fact]:
        """What a Metadata entry for ``t`` shows (facts below the topic entry): the model's
        partitions, indexed 0..n-1 (as many as ``entry`` shows where the model does not know
        the count yet: the broker's default), and the topic id the broker gave it first."""
        n = t.partitions if t.partitions is not None else len(entry.get("partitions") or [])
        facts = [{"kind": "field", "path": ["partitions", "partition_index"], "in": list(range(n)), "count": n,
                  "distinct": True, "says": f"{n} partition(s), indexed 0..{n - 1}"}]
        if t.id_seen is not None and has_field(ApiKey.Metadata, version, "topics.topic_id", RESPONSE):
            facts.append({"kind": "same", "path": ["topic_id"], "other": {"step": t.id_seen[0], "path": t.id_seen[1]},
                          "when": {"path": ["topic_id"], "not_in": [None]},
                          "says": "the topic id the broker gave the topic when it was created"})
        return facts

    def learn_topic(self, t: Topic, entry: dict, version: int) -> None:
        if t.partitions is None:
            t.set_partitions(len(entry.get("partitions") or []))
        tid = entry.get("topic_id") if has_field(ApiKey.Metadata, version, "topics.topic_id", RESPONSE) else None
        if t.topic_id is None and tid not in (None, ZERO_UUID):
            t.topic_id = tid

    # -- Produce (support: grows the log end offset) -------------------------------------
    def produced(self, name: str, p: int, count: int) -> None:
        self.topics[name].end[p] += count


def _collision_chars(name: str) -> bool:
    """Topic.hasCollisionChars: a '.' or '_' in the name."""
    return "." in name or "_" in name
