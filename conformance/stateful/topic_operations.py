"""S1's operations on topics: CreateTopics, DeleteTopics, CreatePartitions and Metadata.

Sources: CreateTopics and DeleteTopics are KIP-4 "Command line and centralized administrative
operations"; CreateTopics' -1 partitions and replication factor (the broker's defaults) from
v4 are KIP-464 "Defaults for AdminClient#createTopic"; DeleteTopics by topic id from v6 is
KIP-516 "Topic Identifiers"; CreatePartitions is KIP-195 "AdminClient.createPartitions";
Metadata's ``allow_auto_topic_creation`` from v4 is in ``MetadataRequest.json``
(apache/kafka ``clients/src/main/resources/common/message/``). What Kafka answers is the
model's (``conformance/cluster_model.py``, after ``docs/reference-semantics.md``:
``ReplicationControlManager``, ``ControllerApis``).
"""
from __future__ import annotations

import uuid

from hypothesis import strategies as st

from protocol import apis, requests, schema_facts
from protocol.apis import ApiKey
from reference.request_rules import BROKER_DEFAULT, BROKER_DEFAULTS
from strategies import stateful as draws

from .operation import Operation


class CreateTopics(Operation):
    api = ApiKey.CreateTopics
    config_row = log_row = True

    def draw(self, s, focused, slots=None, max_topics=3):
        brokers = s.row.defaults.brokers
        if focused:
            item = st.fixed_dictionaries({
                "slot": s.slot(True),
                "partitions": st.sampled_from([1, 2, 3, 1, 2, 4, -1, 0, -3]),
                "rf": st.sampled_from([1, 1, 1, -1, 0, brokers + 1]),
                "configs": st.lists(s.pair(True), max_size=2, unique_by=lambda kv: kv[0])})
            topics = st.lists(item, min_size=1, max_size=max_topics)
            # never two colliding names in one request: which of the pair is created Kafka
            # does not define (reference/topic_names.py COLLIDING_PAIR_IN_ONE_REQUEST), so a
            # model cannot know which exists afterwards; T1's dedicated check asks the pair
            topics = topics.filter(lambda ts: not draws.both_colliding({t["slot"] for t in ts}))
            vo = st.booleans()
        else:
            item = st.fixed_dictionaries({
                "slot": st.sampled_from(slots or draws.PLAIN_SLOTS), "partitions": st.integers(1, 3),
                "rf": st.just(1), "configs": st.lists(s.pair(False), max_size=1)})
            topics = st.lists(item, min_size=1, max_size=max_topics if slots else 1,
                              unique_by=lambda i: i["slot"])
            vo = st.just(False)
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, focused),
                                      "validate_only": vo, "topics": topics})

    def first(self, s):
        """The first step of every example: one or two topics (a, b)."""
        return self.draw(s, False, slots=("a", "b"), max_topics=2)

    def keep_plain(self, m, items):
        return [t for t in items if m.name(t["slot"]) not in m.topics]

    def resolve(self, run, op):
        if not schema_facts.has_field(self.api, op["v"], "validate_only"):
            op["validate_only"] = False
        if not BROKER_DEFAULTS.holds_at(op["v"]):
            op["topics"] = [{**t, "partitions": 1 if t["partitions"] == BROKER_DEFAULT else t["partitions"],
                             "rf": 1 if t["rf"] == BROKER_DEFAULT else t["rf"]} for t in op["topics"]]
        return op

    def render(self, op, n):
        items = []
        for t in op["topics"]:
            bits = [f"{t['partitions']} partition{'s' if t['partitions'] != 1 else ''}"]
            if t["rf"] != 1:
                bits.append(f"rf {t['rf']}")
            bits += [f"{k}={v}" for k, v in t["configs"]]
            items.append(f"{n(t['slot'])} ({', '.join(bits)})")
        return f"topics: [{', '.join(items)}]"

    def items(self, run, op):
        return [{"name": run.model.name(t["slot"]), "partitions": t["partitions"], "rf": t["rf"],
                 "configs": [list(kv) for kv in t["configs"]]} for t in op["topics"]]

    def predict(self, run, items, op):
        return run.model.create_topics(items, op["validate_only"], op["v"])

    def request(self, v, items, op):
        return requests.create_topics(v, [requests.topic(i["name"], i["partitions"], i["rf"], i["configs"])
                                          for i in items], validate_only=op["validate_only"])


class DeleteTopics(Operation):
    """By name; from v6 also by the id of a slot's topic, or by a made-up id."""
    api = ApiKey.DeleteTopics
    log_row = True

    def draw(self, s, focused):
        if not focused:
            return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, False),
                                          "topics": st.lists(st.fixed_dictionaries({"slot": s.slot(False)}),
                                                             min_size=1, max_size=1)})

        def body(v):
            by_name = st.fixed_dictionaries({"slot": s.slot(True)})
            by_id = schema_facts.has_field(self.api, v, "topics.topic_id")      # KIP-516
            item = by_name if not by_id else st.one_of(
                by_name, by_name, st.fixed_dictionaries({"id_of": s.slot(False)}),
                st.fixed_dictionaries({"id": st.uuids(version=4).map(str)}))
            return st.fixed_dictionaries({"api": st.just(self.name), "v": st.just(v),
                                          "topics": st.lists(item, min_size=1, max_size=3)})
        return s.version(self.api, True).flatmap(body)

    def resolve(self, run, op):
        """``id_of`` a slot the same request also names by name is sent as an unknown id."""
        named = {t["slot"] for t in op["topics"] if "slot" in t}
        op["topics"] = [{"id": str(self.unknown_id(run, t["id_of"]))} if "id_of" in t and t["id_of"] in named else t
                        for t in op["topics"]]
        return op

    def render(self, op, n):
        items = [n(t["slot"]) if "slot" in t else f"id of {n(t['id_of'])}" if "id_of" in t else f"id {t['id'][:8]}"
                 for t in op["topics"]]
        return f"topics: [{', '.join(items)}]"

    @staticmethod
    def unknown_id(run, slot) -> uuid.UUID:
        return uuid.uuid5(uuid.NAMESPACE_URL, f"kac-s1-unknown/{run.sub}/{slot}")

    def id_of(self, run, slot) -> uuid.UUID:
        t = run.model.topics.get(run.model.name(slot))
        return t.topic_id if t is not None and t.topic_id is not None else self.unknown_id(run, slot)

    def items(self, run, op):
        out = []
        for t in op["topics"]:
            if "slot" in t:
                out.append({"name": run.model.name(t["slot"])})
            else:
                out.append({"id": self.id_of(run, t["id_of"]) if "id_of" in t else uuid.UUID(t["id"])})
        return out

    def predict(self, run, items, op):
        # an id of a model topic is the broker's id of that topic: a reproducer sends the id
        # its own run learned (expect_id_of; the step about to be sent is len(steps))
        for t, i in zip(op["topics"], items):
            owner = run.model.topics.get(run.model.name(t["id_of"])) if "id_of" in t else None
            if owner is not None and owner.topic_id == i.get("id"):
                run.check.expect_id_of(run.model.name(t["id_of"]), i["id"], step=len(run.check.steps))
        return run.model.delete_topics(items, op["v"])

    def request(self, v, items, op):
        return requests.delete_topics_entries(v, [(i.get("name"), i.get("id")) for i in items])

    def entries(self, run, resp, items, op):
        ids = {i["id"] for i in items if "id" in i}
        out = []
        for r in apis.results(self.api, resp):
            tid = r.get("topic_id") if schema_facts.has_field(
                self.api, op["v"], "responses.topic_id", schema_facts.RESPONSE) else None
            key = ("id", tid) if tid in ids else ("name", r.get("name"))
            out.append((key, r["error_code"], r))
        return out


class CreatePartitions(Operation):
    """Drawn as a delta to the model's partition count, resolved to the new total."""
    api = ApiKey.CreatePartitions
    log_row = True

    def draw(self, s, focused):
        item = st.fixed_dictionaries({"slot": s.slot(focused),
                                      "delta": st.sampled_from([1, 2, 0, -1, 3] if focused else [1, 2])})
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, focused),
                                      "validate_only": st.booleans() if focused else st.just(False),
                                      "topics": st.lists(item, min_size=1, max_size=2 if focused else 1)})

    def resolve(self, run, op):
        m, topics = run.model, []
        for t in op["topics"]:
            if "count" in t:
                topics.append(t)
                continue
            cur = m.topics.get(m.name(t["slot"]))
            base = cur.partitions if cur is not None and cur.partitions is not None else 1
            topics.append({"slot": t["slot"], "count": base + t["delta"]})
        op["topics"] = topics
        return op

    def render(self, op, n):
        return "topics: [" + ", ".join(f"{n(t['slot'])} -> {t['count']}" for t in op["topics"]) + "]"

    def items(self, run, op):
        return [{"name": run.model.name(t["slot"]), "count": t["count"]} for t in op["topics"]]

    def predict(self, run, items, op):
        return run.model.create_partitions(items, op["validate_only"])

    def request(self, v, items, op):
        return requests.create_partitions(v, [(i["name"], i["count"]) for i in items],
                                          validate_only=op["validate_only"])


class Metadata(Operation):
    """Named topics or all (null); below v4 only topics that exist (Kafka may auto-create)."""
    api = ApiKey.Metadata
    plain = False

    def draw(self, s, focused):
        def body(v):
            names = st.lists(s.slot(True), min_size=1, max_size=3, unique=True)
            topics = st.none() | names if schema_facts.nullable(self.api, v, "topics") else names
            return st.fixed_dictionaries({"api": st.just(self.name), "v": st.just(v), "topics": topics})
        return s.version(self.api, True).flatmap(body)

    def resolve(self, run, op):
        m = run.model
        exists = [s for s in draws.SLOTS + draws.COLLIDING if m.name(s) in m.topics]
        every = schema_facts.nullable(self.api, op["v"], "topics")      # null: every topic; v0: []
        if op["topics"] is None and not every:
            op["topics"] = exists
        if op["topics"] is not None and not schema_facts.has_field(self.api, op["v"], "allow_auto_topic_creation"):
            op["topics"] = [s for s in op["topics"] if s in exists]     # Kafka may auto-create them
        if not every and not op["topics"]:
            return None
        return op

    def render(self, op, n):
        return "topics: " + ("all (null)" if op["topics"] is None else "[" + ", ".join(n(s) for s in op["topics"]) + "]"
                             + ("" if op["topics"] else " (none)"))

    def items(self, run, op):
        return None if op["topics"] is None else [run.model.name(s) for s in op["topics"]]

    def predict(self, run, items, op):
        return run.model.metadata(items, op["v"])

    def request(self, v, items, op):
        return requests.metadata(v, items)

    def entries(self, run, resp, items, op):
        """All topics (null): the example's own only."""
        return [(("name", t.get("name")), t["error_code"], t) for t in apis.results(self.api, resp)
                if items is not None or run.model.owns(t.get("name"))]
