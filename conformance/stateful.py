"""S1's state machine and driver (the property is ``test_stateful.py``): random sequences
of admin requests keep the broker equal to a model of the cluster.

A hypothesis ``RuleBasedStateMachine`` drives one broker with CreateTopics, DeleteTopics
(by name, by id at v6, duplicates, unknown names), CreatePartitions, IncrementalAlterConfigs
(SET/DELETE/APPEND/SUBTRACT), AlterConfigs (full replace), DescribeConfigs, DeleteRecords,
Produce (to grow the log end offset) and Metadata, each at a version the broker advertises
(advertised range ∩ the suite's schemas), validate_only on and off, batches with bad
items. The model (``cluster_model.py``) predicts every response entry's error code from
released Kafka 4.x semantics (``docs/reference-semantics.md``) and is updated from the
answer; after every step the invariants are checked:

* Metadata of the example's topics == the model's topics and partition counts (polled
  until it settles: Kafka applies metadata asynchronously);
* ListOffsets: every partition's log start and end offset == the model's (so offsets
  are monotone: a start offset that moves back or an end offset that shrinks fails);
* in the config-focused rows, DescribeConfigs of every model topic == the model (override
  values with config_source TOPIC_CONFIG, defaults as a fresh topic shows them).

Rows: one per broker and *focus* API (``api_key`` = the focus, ``api_version`` null). In
the row of API X, X's requests are generated in full (every advertised version, bad
items, duplicates, validate_only) while the other APIs only set up and move state with
plain valid requests at their newest version. A deviation in how a broker answers X, or
in the state X leaves behind, is then reported in X's row instead of masking every other
API behind the first one found; sequences still interleave every API. The rows of APIs a
broker does not advertise are ``unsupported``.

Each example works under its own sub-prefix (``<run prefix>s1-N-<slot>``, slots ``a``,
``b``, ``c``, the colliding pair ``x.y``/``x_y`` and the invalid ``bad!``), looks only at
those topics, and deletes them when it ends. A failure shrinks to a minimal sequence,
printed as a script of requests (``CreateTopics v5 {topics: [kac-..-a (2 partitions)]} ->
NONE``), and is stored in the row's counterexample as ``input.steps`` (the executed
operations, JSON); ``--replay FILE:ROW`` re-runs exactly those operations, without
hypothesis, under a fresh sub-prefix on any broker.

Where released Kafka's answer is not certain (marked *code reading* in the reference, or
depending on broker configuration) the model accepts every candidate and follows the
broker; the family properties (T, C, D, R, V) assert those points.

Layout: one class per API (:class:`CreateTopics`, :class:`DeleteTopics`, ...), arranged as
hypothesis arranges rules: each carries how its operation is drawn (its strategy in the
row, and the precondition of its plain requests), how a drawn operation is resolved
against the model (and which ``cluster_model.Model`` method predicts its answer), how it
reads as a script line, how it is sent (``protocol.requests``) and how the answer's
entries are read (``protocol.apis``). ``OPERATIONS`` lists them; the rest of this module
(the driver, the invariants, the state machine, shrinking, replay) names no API it does
not need itself. Adding an API to S1 is one class here, one model method, and its place
in ``OPERATIONS``.
"""
from __future__ import annotations

import re
import time
import uuid
from contextlib import contextmanager

from hypothesis import HealthCheck, Phase, seed, settings, strategies as st
from hypothesis.errors import FlakyFailure
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test
from hypothesis.strategies import SearchStrategy
from kafka.record.memory_records import MemoryRecordsBuilder

from fixtures import waiting
from fixtures.harness import BrokerGone, Counterexample, Unsupported, Violation
from protocol import apis, requests
from protocol.apis import AlterConfigOp, ApiKey, ConfigSource, OffsetSpec
from protocol.codec import APIS
from protocol.errors import Errors, error_name
from strategies import stateful as draws

from . import cluster_model as cm

SOURCE = ("catalogue S1; docs/reference-semantics.md (apache/kafka ReplicationControlManager, "
          "ConfigurationControlManager, ControllerApis, ConfigAdminManager, ConfigHelper, KafkaApis, "
          "Partition.deleteRecordsOnLeader)")

#: Steps per example, and the seconds hypothesis may spend shrinking one failure.
STEPS = {"ci": 10, "dev": 20, "release": 40}
SHRINK_SECONDS = {"ci": 3, "dev": 20, "release": 90}
#: Once a request went unanswered, shrinking waits this long for answers (a silent
#: broker would otherwise cost a full request timeout per try); the minimal sequence is
#: confirmed with the full ``--request-timeout`` before it is reported.
SHRINK_REQUEST_TIMEOUT = 2.0
MINIMISE_SECONDS = {"ci": 2, "dev": 10, "release": 30}
#: How long an observation may take to match the model (Kafka applies metadata and
#: config changes asynchronously); shorter while shrinking a failure already confirmed
#: (the minimal sequence is confirmed again with the full time before it is reported).
SETTLE_SECONDS, SETTLE_WHILE_SHRINKING = waiting.SETTLE_S, 0.4
#: After a cleanup.policy change, how long a partition's log may still use the old policy.
POLICY_SETTLE_SECONDS = 2.0
#: Produce answers that mean the partition is not ready yet (asked again until it settles).
TRANSIENT = {Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.LEADER_NOT_AVAILABLE, Errors.NOT_LEADER_OR_FOLLOWER}
#: The lowest ListOffsets version the log rows' invariant reads offsets with.
LIST_OFFSETS_SINCE = 1
SCRIPT_LINES_IN_MESSAGE = 12

#: The config pairs operations draw: only values whose verdict is certain (the model's tables).
VALID_PAIRS = draws.table_pairs(cm.VALID_VALUES)
BAD_PAIRS = draws.table_pairs(cm.INVALID_VALUES) + [[cm.UNKNOWN_KEY, "1"], ["retention.ms", None]]
KNOWN_KEYS = sorted(cm.VALID_VALUES)


class Strategies:
    """What the operations of one check (row) draw from: the broker's version ranges, the
    focus, the broker count. ``ctx`` needs ``focus``, ``ranges``, ``defaults``,
    ``watch_logs`` and ``watch_configs``."""

    def __init__(self, ctx: "Context"):
        self.ctx = ctx

    def version(self, api: int, focused: bool):
        return draws.versions(*self.ctx.ranges[api], focused)

    def slot(self, focused: bool):
        return draws.slots(focused)

    def pair(self, focused: bool):
        return draws.config_pairs(VALID_PAIRS, BAD_PAIRS, focused)

    # -- what one step may do ------------------------------------------------------------
    def steps(self):
        """The focus API's requests (4 in 10), produce (log rows) and plain requests of the
        other APIs. A plain request is marked ``"plain": true``: it only touches topics the
        model has (or, for CreateTopics, does not have), so it always succeeds on Kafka."""
        ctx = self.ctx
        options = [OPERATION[ctx.focus].draw(self, True)] * 4
        for op in OPERATIONS:
            copies = op.support(ctx)
            if copies:
                options += [op.draw(self, False)] * copies
        options += [op.draw(self, False).map(draws.plain) for op in OPERATIONS if op.enabled(ctx)]
        return st.one_of(options)

    def first_step(self):
        """Every example starts with one or two plain topics (a, b)."""
        return OPERATION[ApiKey.CreateTopics].first(self).map(draws.plain)


# =========================================================================================
# Operations: one class per API. An operation is JSON (``{"api": name, "v": version, ...}``,
# topics named by slot); it is drawn with symbolic parts (deltas, offset choices) and
# resolved against the model into the concrete operation that is sent and recorded.
# =========================================================================================

class Operation:
    """One admin API in S1, arranged as a hypothesis rule is: its strategy (:meth:`draw`,
    focused in its own row, plain in others) and its precondition (:meth:`enabled`: may a
    plain request of it be drawn in this row; :meth:`resolve` returns None where the model's
    state leaves nothing to send). Then how the drawn operation is made concrete against
    the model (:meth:`resolve`), read in a script (:meth:`render`), and sent and checked
    (:meth:`perform`: :meth:`items` names the topics, :meth:`predict` asks the model,
    :meth:`request` builds the body with ``protocol.requests``, :meth:`entries` reads the
    answer's per-item results with ``protocol.apis``)."""

    api: ApiKey
    #: The operation's list of items (what plain requests keep and the minimiser trims).
    field = "topics"
    #: A row of its own (a focus), and plain requests in other APIs' rows.
    focus = True
    plain = True
    #: Its row also checks DescribeConfigs of every topic (a config row), or produces and
    #: checks every partition's log start/end offsets (a log row).
    config_row = False
    log_row = False
    #: The versions S1 sends, within the broker's advertised range and the suite's schemas.
    min_version, max_version = 0, None
    #: Script text after a NONE entry (``extra(expect, entry)``), or None.
    extra = None

    @property
    def name(self) -> str:
        return self.api.name

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, s: Strategies, focused: bool) -> SearchStrategy[dict]:
        raise NotImplementedError

    def enabled(self, ctx) -> bool:
        """Precondition of a plain request of this API in ``ctx``'s row."""
        return self.plain and self.api != ctx.focus and self.api in ctx.ranges

    def support(self, ctx) -> int:
        """How many times a step's options list this operation besides focus and plain."""
        return 0

    # -- resolving -------------------------------------------------------------------------
    def keep_plain(self, m: cm.Model, items: list) -> list:
        """The items a plain request keeps: those naming a topic the model has."""
        return [t for t in items if m.name(t["slot"]) in m.topics]

    def resolve(self, run: "Run", op: dict) -> dict | None:
        """The concrete operation (``op`` is a copy), or None: nothing to send."""
        return op

    # -- the script ------------------------------------------------------------------------
    def render(self, op: dict, n) -> str:
        """The request's body in a script line; ``n(slot)`` is the topic's short name."""
        raise NotImplementedError

    # -- sending ---------------------------------------------------------------------------
    def perform(self, run: "Run", op: dict, line: str) -> None:
        items = self.items(run, op)
        expects = self.predict(run, items, op)
        resp = run.send(self.api, op["v"], self.request(op["v"], items, op), line)
        run.answer(line, expects, self.entries(run, resp, items, op), self.extra,
                   api=self.api, items=items, version=op["v"], everything=items is not None)

    def items(self, run: "Run", op: dict) -> list:
        """The operation's items with topic names, as the model method takes them."""
        raise NotImplementedError

    def predict(self, run: "Run", items: list, op: dict) -> list[cm.Expect]:
        raise NotImplementedError

    def request(self, v: int, items: list, op: dict) -> dict:
        raise NotImplementedError

    def entries(self, run: "Run", resp: dict, items: list, op: dict) -> list[tuple[tuple, int, dict]]:
        """``(key, error code, entry)`` per result entry of the answer."""
        field = apis.spec(self.api).item
        return [(("name", e.get(field)), e["error_code"], e) for e in apis.results(self.api, resp)]


class CreateTopics(Operation):
    api = ApiKey.CreateTopics
    config_row = log_row = True

    def draw(self, s, focused, slots=None, max_topics=3):
        brokers = s.ctx.defaults.brokers
        if focused:
            item = st.fixed_dictionaries({
                "slot": s.slot(True),
                "partitions": st.sampled_from([1, 2, 3, 1, 2, 4, -1, 0, -3]),
                "rf": st.sampled_from([1, 1, 1, -1, 0, brokers + 1]),
                "configs": st.lists(s.pair(True), max_size=2, unique_by=lambda kv: kv[0])})
            topics = st.lists(item, min_size=1, max_size=max_topics)
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
        if op["v"] < 1:
            op["validate_only"] = False
        op["topics"] = [{**t, "partitions": 1 if t["partitions"] == -1 and op["v"] < 4 else t["partitions"],
                         "rf": 1 if t["rf"] == -1 and op["v"] < 4 else t["rf"]} for t in op["topics"]]
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
    #: DeleteTopics by ids (KIP-516).
    ids_since = 6

    def draw(self, s, focused):
        if not focused:
            return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, False),
                                          "topics": st.lists(st.fixed_dictionaries({"slot": s.slot(False)}),
                                                             min_size=1, max_size=1)})

        def body(v):
            by_name = st.fixed_dictionaries({"slot": s.slot(True)})
            item = by_name if v < self.ids_since else st.one_of(
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
            tid = r.get("topic_id") if op["v"] >= self.ids_since else None
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


class _ConfigChange(Operation):
    """A config API: a cleanup.policy it changes may reach a partition's log late (the
    DeleteRecords prediction allows the old policy for a while)."""
    field = "resources"
    config_row = True

    def perform(self, run, op, line):
        before = run.policy_watch()
        super().perform(run, op, line)
        run.policy_changed(before)


class IncrementalAlterConfigs(_ConfigChange):
    """SET, DELETE, APPEND, SUBTRACT (KIP-339)."""
    api = ApiKey.IncrementalAlterConfigs

    def draw(self, s, focused):
        set_valid = s.pair(False).map(lambda kv: [kv[0], "SET", kv[1]])
        delete = st.sampled_from(KNOWN_KEYS).map(lambda k: [k, "DELETE", None])
        if focused:
            op = st.one_of(
                set_valid, delete,
                st.tuples(st.sampled_from(["APPEND", "SUBTRACT"]), st.sampled_from(cm.POLICY_ELEMENTS)).map(
                    lambda t: ["cleanup.policy", t[0], t[1]]),
                st.sampled_from(BAD_PAIRS).map(lambda kv: [kv[0], "SET", kv[1]]),
                st.sampled_from([[cm.UNKNOWN_KEY, "DELETE", None], ["retention.ms", "APPEND", "3600000"],
                                 ["max.message.bytes", "SUBTRACT", "1000000"]]))
            ops = st.lists(op, max_size=3)
            resources = st.lists(st.fixed_dictionaries({"slot": s.slot(True), "ops": ops}), min_size=1, max_size=2)
        else:
            ops = st.lists(st.one_of(set_valid, delete), min_size=1, max_size=2, unique_by=lambda o: o[0])
            resources = st.lists(st.fixed_dictionaries({"slot": s.slot(False), "ops": ops}), min_size=1, max_size=1)
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, focused),
                                      "validate_only": st.booleans() if focused else st.just(False),
                                      "resources": resources})

    def render(self, op, n):
        return "resources: [" + "; ".join(
            f"{n(r['slot'])}: " + (", ".join(f"{o} {k}" + (f"={v}" if v is not None or o != 'DELETE' else "")
                                             for k, o, v in r["ops"]) or "no ops")
            for r in op["resources"]) + "]"

    def items(self, run, op):
        return [{"name": run.model.name(r["slot"]), "ops": [list(o) for o in r["ops"]]} for r in op["resources"]]

    def predict(self, run, items, op):
        return run.model.incremental_alter(items, op["validate_only"])

    def request(self, v, items, op):
        return requests.incremental_alter_configs(
            v, [(r["name"], [(k, AlterConfigOp[o], val) for k, o, val in r["ops"]]) for r in items],
            validate_only=op["validate_only"])


class AlterConfigs(_ConfigChange):
    """The legacy full replace: the listed configs become the topic's only overrides."""
    api = ApiKey.AlterConfigs

    def draw(self, s, focused):
        if focused:
            configs = st.lists(s.pair(True), max_size=3)
            resources = st.lists(st.fixed_dictionaries({"slot": s.slot(True), "configs": configs}),
                                 min_size=1, max_size=2)
        else:
            configs = st.lists(s.pair(False), max_size=2, unique_by=lambda kv: kv[0])
            resources = st.lists(st.fixed_dictionaries({"slot": s.slot(False), "configs": configs}),
                                 min_size=1, max_size=1)
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, focused),
                                      "validate_only": st.booleans() if focused else st.just(False),
                                      "resources": resources})

    def render(self, op, n):
        return "resources: [" + "; ".join(
            f"{n(r['slot'])}: " + (", ".join(f"{k}={v}" for k, v in r["configs"]) or "no configs")
            for r in op["resources"]) + "]"

    def items(self, run, op):
        return [{"name": run.model.name(r["slot"]), "configs": [list(kv) for kv in r["configs"]]}
                for r in op["resources"]]

    def predict(self, run, items, op):
        return run.model.alter_configs(items, op["validate_only"])

    def request(self, v, items, op):
        return requests.alter_configs(v, [(r["name"], r["configs"]) for r in items],
                                      validate_only=op["validate_only"])


class DescribeConfigs(Operation):
    api = ApiKey.DescribeConfigs
    field = "resources"
    plain = False
    config_row = True

    def draw(self, s, focused):
        keys = st.none() | st.lists(st.sampled_from(KNOWN_KEYS + [cm.UNKNOWN_KEY]), min_size=1, max_size=2,
                                    unique=True)
        resources = st.lists(st.fixed_dictionaries({"slot": s.slot(True), "keys": keys}),
                             min_size=1, max_size=2, unique_by=lambda r: r["slot"])
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "resources": resources})

    def render(self, op, n):
        return "resources: [" + ", ".join(
            f"{n(r['slot'])} ({'all keys' if r['keys'] is None else ', '.join(r['keys'])})"
            for r in op["resources"]) + "]"

    def items(self, run, op):
        return [{"name": run.model.name(r["slot"]), "keys": r["keys"]} for r in op["resources"]]

    def predict(self, run, items, op):
        return run.model.describe_configs(items, op["v"])

    def request(self, v, items, op):
        return requests.describe_configs(v, [(r["name"], r["keys"]) for r in items])


class DeleteRecords(Operation):
    """Offsets are drawn as choices (the high watermark, the middle of the log, its end,
    its start, 0, beyond the end, negative) resolved against the model's offsets."""
    api = ApiKey.DeleteRecords
    log_row = True
    #: Plain DeleteRecords only in these rows (elsewhere it moves log starts where
    #: re-creation / growth must not).
    plain_rows = (ApiKey.DeleteTopics, ApiKey.CreatePartitions)

    def draw(self, s, focused):
        if focused:
            part = st.tuples(st.integers(0, 3), st.sampled_from(
                ["hw", "mid", "end", "start", "zero", "beyond", "neg"])).map(list)
            topics = st.lists(st.fixed_dictionaries({"slot": s.slot(True),
                                                     "partitions": st.lists(part, min_size=1, max_size=3)}),
                              min_size=1, max_size=2, unique_by=lambda t: t["slot"])
        else:
            part = st.tuples(st.integers(0, 1), st.sampled_from(["hw", "mid", "end", "zero"])).map(list)
            topics = st.lists(st.fixed_dictionaries({"slot": s.slot(False),
                                                     "partitions": st.lists(part, min_size=1, max_size=1)}),
                              min_size=1, max_size=1)
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, focused),
                                      "topics": topics})

    def enabled(self, ctx):
        return super().enabled(ctx) and ctx.focus in self.plain_rows

    def keep_plain(self, m, items):
        return [{**t, "partitions": [[p % m.topics[m.name(t["slot"])].partitions, o] for p, o in t["partitions"]]}
                for t in items if m.name(t["slot"]) in m.topics and m.topics[m.name(t["slot"])].partitions]

    def resolve(self, run, op):
        op["topics"] = [{"slot": t["slot"], "partitions": [[p, self.offset(run.model, t["slot"], p, o)]
                                                           for p, o in t["partitions"]]}
                        for t in op["topics"]]
        return op

    @staticmethod
    def offset(m, slot, p, choice):
        if isinstance(choice, int):
            return choice
        t = m.topics.get(m.name(slot))
        start = end = 0
        if t is not None and t.partitions is not None and p < t.partitions:
            start, end = t.start[p], t.end[p]
        return {"hw": -1, "mid": (start + end) // 2, "end": end, "start": start, "zero": 0,
                "beyond": end + 1, "neg": -2}[choice]

    def render(self, op, n):
        return ", ".join(f"{n(t['slot'])}-{p} before {o}" + (" (high watermark)" if o == -1 else "")
                         for t in op["topics"] for p, o in t["partitions"])

    def items(self, run, op):
        return [{"name": run.model.name(t["slot"]), "partitions": [list(p) for p in t["partitions"]]}
                for t in op["topics"]]

    def predict(self, run, items, op):
        now = time.monotonic()
        unsettled = frozenset(n for n, until in run.unsettled.items() if until > now)
        return run.model.delete_records(items, unsettled)

    def request(self, v, items, op):
        return requests.delete_records(v, [(t["name"], t["partitions"]) for t in items])

    def entries(self, run, resp, items, op):
        parts = apis.spec(self.api).partitions
        return [(("partition", t["name"], p["partition_index"]), p["error_code"], p)
                for t in apis.items(self.api, resp) for p in t.get(parts) or []]

    @staticmethod
    def extra(e, entry):
        return f" lw {entry.get('low_watermark')}"


class Metadata(Operation):
    """Named topics or all (null); below v4 only topics that exist (Kafka may auto-create)."""
    api = ApiKey.Metadata
    plain = False

    def draw(self, s, focused):
        def body(v):
            names = st.lists(s.slot(True), min_size=1, max_size=3, unique=True)
            topics = names if v == 0 else st.none() | names
            return st.fixed_dictionaries({"api": st.just(self.name), "v": st.just(v), "topics": topics})
        return s.version(self.api, True).flatmap(body)

    def resolve(self, run, op):
        m = run.model
        exists = [s for s in draws.SLOTS + draws.COLLIDING if m.name(s) in m.topics]
        if op["topics"] is None and op["v"] == 0:
            op["topics"] = exists
        if op["v"] < 4 and op["topics"] is not None:     # below v4 Kafka may auto-create
            op["topics"] = [s for s in op["topics"] if s in exists]
        if op["v"] == 0 and not op["topics"]:
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


class Produce(Operation):
    """Support for the log rows (grows a partition's log end offset): keyed records (a
    compacted topic refuses unkeyed ones) at the newest version, no row of its own."""
    api = ApiKey.Produce
    focus = plain = False
    min_version, max_version = 3, 12          # v13 addresses topics by id
    #: Copies among a log row's step options.
    weight = 2

    def draw(self, s, focused):
        return st.fixed_dictionaries({"api": st.just(self.name), "slot": s.slot(False),
                                      "partition": st.integers(0, 3), "count": st.integers(1, 5)})

    def support(self, ctx):
        return self.weight if ctx.watch_logs and self.api in ctx.ranges else 0

    def resolve(self, run, op):
        t = run.model.topics.get(run.model.name(op["slot"]))
        if t is None or not t.partitions:
            return None
        op["partition"] = op["partition"] % t.partitions
        return op

    def render(self, op, n):
        return f"{n(op['slot'])}-{op['partition']}: {op['count']} record{'s' if op['count'] != 1 else ''}"

    def perform(self, run, op, line):
        m = run.model
        name, p, count = m.name(op["slot"]), op["partition"], op["count"]
        v = run.ctx.ranges[self.api][1]
        line = f"Produce v{v} {line[len('Produce '):]}"
        builder = MemoryRecordsBuilder(magic=2, compression_type=0, batch_size=1 << 20)
        ts = int(time.time() * 1000)
        for i in range(count):     # keyed: a compacted topic refuses records without a key
            builder.append(ts, f"k{i}".encode(), f"s1-{i}".encode())
        builder.close()
        body = requests.produce(v, [(name, [(p, builder.buffer())])])
        expected = m.topics[name].end[p]

        def parts():
            resp = run.send(self.api, v, body, line)
            return [pr for t in resp.get("responses") or [] for pr in t.get("partition_responses") or []]

        def code(ps):
            return ps[0]["error_code"] if len(ps) == 1 else None

        _, got = waiting.eventually(parts, lambda ps: code(ps) not in TRANSIENT, within=run.ctx.settle_seconds())
        at = [run.check.expect_field, ["responses", {"name": name}, "partition_responses", {"index": p}]]
        at[0](at[1] + ["error_code"], [Errors.NONE], count=1, retry_s=run.ctx.settle_seconds(),
              says=f"a keyed Produce to {name}-{p} answers NONE")
        at[0](at[1] + ["base_offset"], [expected], count=1,
              says=f"base_offset {expected}: the model's log end offset of {name}-{p}")
        if code(got) != Errors.NONE:
            what = f"{len(got)} partition results" if code(got) is None else error_name(code(got))
            run.fail(f"a keyed Produce to an existing partition answered {what}", f"{line} -> {what}")
        base = got[0].get("base_offset")
        if base != expected:
            run.fail(f"base_offset {base}, but the log end offset was {expected}", f"{line} -> NONE base_offset {base}")
        m.produced(name, p, count)
        run.script.append(f"{line} -> NONE base_offset {base}")


#: Every operation S1 sends. The order is the order of the plain options in a step's draw
#: (a fixed seed draws by position: keep it).
OPERATIONS: tuple[Operation, ...] = (CreateTopics(), DeleteTopics(), CreatePartitions(), IncrementalAlterConfigs(),
                                     AlterConfigs(), DeleteRecords(), Metadata(), DescribeConfigs(), Produce())
OPERATION: dict[ApiKey, Operation] = {o.api: o for o in OPERATIONS}
BY_NAME: dict[str, Operation] = {o.name: o for o in OPERATIONS}
#: The rows: one per API with a row of its own, in API-key order.
FOCUS_KEYS = tuple(sorted(o.api for o in OPERATIONS if o.focus))
#: The fields operations list their items in (what the minimiser trims).
FIELDS = tuple(dict.fromkeys(o.field for o in OPERATIONS))


def _entry_path(api: int, key: tuple) -> list:
    """Where the answer to ``api`` holds the entry of a model key (an expectation's path)."""
    s = apis.spec(api)
    if key[0] == "partition":
        return [s.results, {s.item: key[1]}, s.partitions, {"partition_index": key[2]}]
    if key[0] == "id":
        return [s.results, {"topic_id": key[1]}]
    return [s.results, {s.item: key[1]}]


def render(op: dict, sub: str) -> str:
    """One script line for an operation (without its answer)."""
    vo = " validate_only" if op.get("validate_only") else ""
    head = f"{op['api']} v{op['v']}{vo}" if "v" in op else op["api"]
    o = BY_NAME.get(op["api"])
    body = o.render(op, lambda s: f"kac-..-{s}") if o is not None else str(op)
    return f"{head} {{{body}}}"


# =========================================================================================
# The driver: executes operations against the broker and checks them against the model.
# Used by the state machine and, without hypothesis, by --replay.
# =========================================================================================

def _abbrev(text: str, sub: str) -> str:
    return text.replace(sub + "-", "kac-..-")


def _codes(codes) -> str:
    return " or ".join(error_name(c) for c in sorted(codes))


class Run:
    """One example: a fresh sub-prefix, an empty model, the operations and the script."""

    def __init__(self, ctx: "Context", sub: str):
        self.ctx = ctx
        self.check = ctx.check
        self.client = ctx.client
        self.sub = sub
        self.model = cm.Model(sub, ctx.defaults)
        self.ops: list[dict] = []
        self.script: list[str] = []
        self.unsettled: dict[str, float] = {}       # topic -> until when its policy may lag
        self.stated: list = []                      # the last observation's expectations, deferred

    # -- failing ------------------------------------------------------------------------
    def fail(self, problem: str, line: str | None = None):
        if line is not None:
            self.script.append(line)
        self.script.append(f"   !! {_abbrev(problem, self.sub)}")
        self.ctx.record_failure(self, problem)
        raise Violation(self.ctx.message(self, problem))

    def send(self, api: int, v: int, body: dict, line: str) -> dict:
        try:
            return self.client.answered(api, v, body)
        except Violation as exc:
            self.fail(f"{apis.api_name(api)} v{v}: {exc}", f"{line} -> no answer")

    # -- resolving drawn operations -------------------------------------------------------
    def resolve(self, op: dict) -> dict | None:
        operation = BY_NAME[op["api"]]
        op = dict(op)
        if op.get("plain"):
            items = operation.keep_plain(self.model, op[operation.field])
            if not items:
                return None
            op = {**op, operation.field: items}
        return operation.resolve(self, op)

    # -- executing -------------------------------------------------------------------------
    def execute(self, drawn: dict) -> None:
        op = self.resolve(drawn)
        if op is None:
            return
        self.ops.append(op)
        BY_NAME[op["api"]].perform(self, op, render(op, self.sub))

    def answer(self, line, expects, entries, describe_extra=None, api=None, items=None, version=None,
               everything=True):
        """Check the entries against the predictions, apply the effects, script the line."""
        if api is not None:
            self.expected_answer(api, expects, everything)
        problem, pairs = cm.match(expects, entries)
        if problem:
            got = ", ".join(f"{self._label(k)}: {error_name(c)}" for k, c, _ in entries) or "no results"
            self.fail(problem, f"{line} -> {got}")
        parts, wrong = [], None
        for e, code, entry in pairs:
            text = error_name(code)
            if code not in e.allowed:
                text += f" (expected {_codes(e.allowed)}: {e.why})"
                wrong = wrong or f"{self._label(e.key)}: {error_name(code)}, expected {_codes(e.allowed)} ({e.why})"
            elif code == Errors.NONE and e.verify:
                bad = e.verify(entry)
                if bad:
                    text += f" ({bad})"
                    wrong = wrong or f"{self._label(e.key)}: {bad}"
                    if api is not None:
                        self.expected_entry(api, e.key, items, version)
            if describe_extra and code == Errors.NONE:
                text += describe_extra(e, entry)
            parts.append((self._label(e.key), text))
        result = parts[0][1] if len(parts) == 1 else ", ".join(f"{k}: {t}" for k, t in parts)
        if wrong:
            self.fail(wrong, f"{line} -> {result}")
        for e, code, entry in pairs:
            if code == Errors.NONE and e.effect:
                e.effect(entry)
        self.script.append(f"{line} -> {result}")

    def _label(self, key) -> str:
        if key[0] == "partition":
            return _abbrev(f"{key[1]}-{key[2]}", self.sub)
        if key[0] == "id":
            return f"id {str(key[1])[:8]}"
        return _abbrev(str(key[1]), self.sub)

    # -- the model's answers as data (the reproducer's verdicts, docs/results.md "expect") ------
    @staticmethod
    def _named(key) -> str:
        """A model key in full (expectations stand alone: no ``kac-..`` shorthand)."""
        return f"{key[1]}-{key[2]}" if key[0] == "partition" else f"id {key[1]}" if key[0] == "id" else str(key[1])

    def expected_answer(self, api, expects, everything: bool) -> None:
        """Per predicted entry of the step just answered: its allowed error codes (and one
        entry per key); with ``everything``, no entry beyond those asked."""
        by: dict[tuple, list[cm.Expect]] = {}
        for e in expects:
            by.setdefault(e.key, []).append(e)
        for key, es in by.items():
            allowed = sorted(set().union(*(e.allowed for e in es)))
            self.check.expect_field(_entry_path(api, key) + ["error_code"], allowed, count=len(es),
                                    says=f"{self._named(key)}: {_codes(allowed)} ({es[0].why})")
        if everything:
            s = apis.spec(api)
            self.check.expect_field([s.results, s.partitions, "error_code"] if s.partitions else
                                    [s.results, "error_code"], count=len(expects),
                                    says=f"{len(expects)} result(s): one per item asked")

    def expected_entry(self, api, key, items, version) -> None:
        """What the model expects of a NONE entry beyond its code (its ``verify``), as data."""
        m, at = self.model, _entry_path(api, key)
        if api == ApiKey.CreateTopics:
            want = next((i["partitions"] for i in items or [] if i["name"] == key[1]), None)
            if want is not None and want > 0:
                self.check.expect_field(at + ["num_partitions"], [want], count=1,
                                        says=f"{self._named(key)}: num_partitions {want}, as requested")
        elif api == ApiKey.DeleteRecords:
            t = m.topics.get(key[1])
            off = next((o for i in items or [] if i["name"] == key[1] for q, o in i["partitions"] if q == key[2]),
                       None)
            if t is not None and off is not None and t.partitions and key[2] < t.partitions:
                start, end = t.start[key[2]], t.end[key[2]]
                lw = max(start, end if off == -1 else off)
                self.check.expect_field(at + ["low_watermark"], [lw], count=1,
                                        says=f"{self._named(key)}: low_watermark {lw} (log start {start}, offset {off})")
        elif api == ApiKey.Metadata:
            self.expected_topic(key[1])
        elif api == ApiKey.DescribeConfigs:
            keys = next((i["keys"] for i in items or [] if i["name"] == key[1]), None)
            self.expected_configs(key[1], version, keys)

    def expected_topic(self, name: str, step: int | None = None, retry_s: float | None = None) -> None:
        """Metadata (the step's answer) lists ``name`` as the model has it."""
        t, at = self.model.topics.get(name), ["topics", {"name": name}]
        if t is None:
            self.check.expect_field(at, count=0, step=step, retry_s=retry_s,
                                    says=f"Metadata does not list {self._named(('name', name))} (the model has no such topic)")
            return
        self.check.expect_field(at + ["error_code"], [Errors.NONE], count=1, step=step, retry_s=retry_s,
                                says=f"Metadata lists {self._named(('name', name))} without error")
        if t.partitions is not None:
            self.check.expect_field(at + ["partitions", "partition_index"], list(range(t.partitions)),
                                    count=t.partitions, step=step, retry_s=retry_s,
                                    says=f"{self._named(('name', name))} has {t.partitions} partition(s)")
            self.check.expect_field(at + ["partitions", "error_code"], [Errors.NONE], step=step, retry_s=retry_s,
                                    says=f"every partition of {self._named(('name', name))} answers without error")
            self.check.expect_field(at + ["partitions", "leader_id"], refused=[-1], step=step, retry_s=retry_s,
                                    says=f"every partition of {self._named(('name', name))} has a leader")

    def expected_configs(self, name: str, version: int, keys=None, step: int | None = None,
                         retry_s: float | None = None) -> None:
        """DescribeConfigs (the step's answer) shows ``name``'s configs as the model has them
        (``cluster_model.Model.config_problem`` as data)."""
        m = self.model
        t, d = m.topics.get(name), m.defaults
        if t is None:
            return
        expected = set(t.configs) | (set(d.configs) if d.configs_known else set())
        if keys is not None:
            expected &= set(keys)
        base = ["results", {"resource_name": name}, "configs"]
        label = self._named(("name", name))
        if d.configs_known:
            self.check.expect_field(base + ["name"], sorted(expected), step=step, retry_s=retry_s,
                                    says=f"{label}: only the keys a fresh topic lists and the model's overrides")
        for k in sorted(expected):
            at = base + [{"name": k}]
            if k in t.configs:
                want, source = t.configs[k], ConfigSource.TOPIC_CONFIG
                if isinstance(want, cm.Unknown):
                    self.check.expect_field(at + ["name"], count=1, step=step, retry_s=retry_s,
                                            says=f"{label}: lists the override {k}")
                    want = None
                else:
                    self.check.expect_field(at + ["value"], [want], count=1, step=step, retry_s=retry_s,
                                            says=f"{label}: {k}={want!r} (the model's override)")
            else:
                want, source = d.configs[k]
                self.check.expect_field(at + ["value"], [want], count=1, step=step, retry_s=retry_s,
                                        says=f"{label}: {k}={want!r} (a fresh topic's value)")
            if version >= 1 and source is not None:
                self.check.expect_field(at + ["config_source"], [source], count=1, step=step, retry_s=retry_s,
                                        says=f"{label}: {k} has config_source {int(source)}")

    def policy_watch(self):
        m = self.model
        return {n: m.policy_deletes(t) for n, t in m.topics.items()}

    def policy_changed(self, before):
        m = self.model
        for n, t in m.topics.items():
            if n in before and before[n] != m.policy_deletes(t):
                self.unsettled[n] = time.monotonic() + POLICY_SETTLE_SECONDS

    # -- invariants ------------------------------------------------------------------------
    def invariants(self) -> None:
        self._settle(self._topics_problem)
        if self.ctx.watch_logs and ApiKey.ListOffsets in self.ctx.ranges:
            self._settle(self._offsets_problem)
        if self.ctx.watch_configs:
            self._settle(self._configs_problem, always=False)

    def _settle(self, observe, always: bool = True):
        """Poll ``observe`` until it finds no problem. What its last look must show is stated
        as data (``self.stated``: calls to make once the look is final), after every look for
        cheap invariants (``always``) and only when it fails for the config one."""
        held, problem = waiting.eventually(observe, lambda problem: problem is None,
                                           within=self.ctx.settle_seconds())
        if always or not held:
            for state in self.stated:
                state()
        self.stated = []
        if not held:
            self.fail(problem)

    def _topics_problem(self) -> str | None:
        m, v = self.model, self.ctx.ranges[ApiKey.Metadata][1]
        resp = self.send(ApiKey.Metadata, v, requests.metadata(v), "(invariant) Metadata")
        seen = {t.get("name"): t for t in apis.results(ApiKey.Metadata, resp) if m.owns(t.get("name"))}
        extra = sorted(set(seen) - set(m.topics))
        at, retry = len(self.check.steps) - 1, self.ctx.settle_seconds()
        self.stated = [lambda n=n: self.expected_topic(n, at, retry) for n in sorted(set(m.topics) | set(extra))]
        if extra:
            return f"Metadata lists {extra[0]} (error {error_name(seen[extra[0]]['error_code'])}), which the model does not have"
        missing = sorted(set(m.topics) - set(seen))
        if missing:
            return f"Metadata does not list {missing[0]}, which the model has"
        for name, entry in sorted(seen.items()):
            t = m.topics[name]
            if entry["error_code"] != Errors.NONE:
                return f"Metadata: {name} has error {error_name(entry['error_code'])}"
            bad = m.topic_problem(t, entry, v)
            if bad:
                return f"Metadata: {name} has {bad}"
            for p in entry.get("partitions") or []:
                if p.get("error_code") != Errors.NONE or p.get("leader_id", -1) < 0:
                    return (f"Metadata: {name}-{p.get('partition_index')} has no leader "
                            f"(error {error_name(p.get('error_code'))})")
        for name, entry in seen.items():
            m.learn_topic(m.topics[name], entry, v)
        return None

    def _offsets_problem(self) -> str | None:
        m = self.model
        parts = {n: t for n, t in sorted(m.topics.items()) if t.partitions}
        if not parts:
            return None
        v = self.ctx.ranges[ApiKey.ListOffsets][1]
        seen, at = {}, {}
        self.stated = [lambda: self.expected_offsets(parts, at)]
        for which in (OffsetSpec.EARLIEST, OffsetSpec.LATEST):
            body = requests.list_offsets(v, [(n, range(t.partitions)) for n, t in parts.items()], which)
            resp = self.send(ApiKey.ListOffsets, v, body, "(invariant) ListOffsets")
            at[which] = len(self.check.steps) - 1
            for t in resp.get("topics") or []:
                for p in t.get("partitions") or []:
                    seen[(t.get("name"), p.get("partition_index"), which)] = (p.get("error_code"), p.get("offset"))
        for n, t in parts.items():
            for p in range(t.partitions):
                for which, want, what in ((OffsetSpec.EARLIEST, t.start[p], "log start offset"),
                                          (OffsetSpec.LATEST, t.end[p], "log end offset (high watermark)")):
                    code, got = seen.get((n, p, which), (None, None))
                    if code is None:
                        return f"ListOffsets: no answer for {n}-{p}"
                    if code != Errors.NONE:
                        return f"ListOffsets: {n}-{p} answered {error_name(code)}"
                    if got != want:
                        return f"ListOffsets: {n}-{p} {what} is {got}, the model has {want}"
        return None

    def _configs_problem(self) -> str | None:
        m = self.model
        names = [n for n in sorted(m.topics)]
        if not names:
            return None
        v = self.ctx.ranges[ApiKey.DescribeConfigs][1]
        resp = self.send(ApiKey.DescribeConfigs, v, requests.describe_configs(v, [(n, None) for n in names]),
                         "(invariant) DescribeConfigs")
        at = len(self.check.steps) - 1
        self.stated = [lambda: [self.expected_configs(n, v, step=at) for n in names]]
        results = {r.get("resource_name"): r for r in apis.results(ApiKey.DescribeConfigs, resp)}
        for n in names:
            r = results.get(n)
            if r is None:
                return f"DescribeConfigs: no result for {n}"
            if r["error_code"] != Errors.NONE:
                return f"DescribeConfigs: {n} answered {error_name(r['error_code'])}"
            described = {c["name"]: c for c in r.get("configs") or []}
            bad = m.config_problem(m.topics[n], described, v)
            if bad:
                return f"DescribeConfigs: {n} {bad}"
        for n in names:
            m.learn_configs(m.topics[n], {c["name"]: c for c in results[n].get("configs") or []})
        return None

    def expected_offsets(self, parts: dict, at: dict) -> None:
        for which, field in ((OffsetSpec.EARLIEST, "start"), (OffsetSpec.LATEST, "end")):
            if which not in at:
                continue
            for n, t in parts.items():
                for p in range(t.partitions):
                    path = ["topics", {"name": n}, "partitions", {"partition_index": p}]
                    self.check.expect_field(path + ["error_code"], [Errors.NONE], count=1, step=at[which])
                    self.check.expect_field(path + ["offset"], [getattr(t, field)[p]], count=1, step=at[which],
                                            says=f"{n}-{p}: the model's log "
                                                 f"{'start' if field == 'start' else 'end'} offset {getattr(t, field)[p]}")

    # -- cleanup -----------------------------------------------------------------------------
    def cleanup(self) -> None:
        """Delete every topic under this example's sub-prefix (nothing is checked)."""
        try:
            self.ctx.delete_owned(lambda name: self.model.owns(name))
        except Violation:
            pass


# =========================================================================================
# One check (row): the broker's ranges, what a fresh topic looks like, the runs.
# =========================================================================================

class Context:
    def __init__(self, check, focus: int):
        self.check = check
        self.focus = focus
        self.profile = check.session.profile
        self.watch_configs = OPERATION[focus].config_row
        self.watch_logs = OPERATION[focus].log_row
        self.ranges = self._ranges()
        self.client = check.client()
        self.defaults = cm.Defaults()
        self.failures = 0
        self.first_failure: dict | None = None
        self.last_failure: dict | None = None
        self.setup_script: list[str] = []
        self.current: Run | None = None
        self.shrinking = False          # a failure was confirmed: candidates get short settles

    def _ranges(self) -> dict[int, tuple[int, int]]:
        out = {}
        wanted = {o.api: (o.min_version, o.max_version) for o in OPERATIONS}
        wanted[ApiKey.ListOffsets] = (LIST_OFFSETS_SINCE, None)      # the log rows' invariant
        for api, (low, ceiling) in wanted.items():
            adv = self.check.broker.advertised(api)
            if adv is None:
                continue
            lo = max(adv[0], low)
            hi = min(adv[1], APIS[api].max_version, ceiling if ceiling is not None else 1 << 15)
            if lo <= hi:
                out[api] = (lo, hi)
        return out

    def require(self) -> None:
        check = self.check
        check.require(self.focus)
        if self.focus not in self.ranges:
            raise Unsupported(f"no {apis.api_name(self.focus)} version both the broker and the suite's schemas have")
        for api in (ApiKey.Metadata, ApiKey.CreateTopics, ApiKey.DeleteTopics):
            if api not in self.ranges:
                raise Unsupported(f"S1 needs {api.name} to set up and observe topics; the broker does not advertise it")
        if self.ranges[ApiKey.Metadata][1] < 1:
            raise Unsupported("S1 needs Metadata v1+ (all topics)")
        if self.watch_configs and (ApiKey.DescribeConfigs not in self.ranges
                                   or self.ranges[ApiKey.DescribeConfigs][1] < 1):
            raise Unsupported("the config rows of S1 need DescribeConfigs v1+")
        check.require_mutations()

    # -- timing ------------------------------------------------------------------------------
    def settle_seconds(self) -> float:
        return SETTLE_WHILE_SHRINKING if self.shrinking else SETTLE_SECONDS

    # -- learning what a fresh topic looks like -------------------------------------------------
    def learn(self) -> None:
        """Broker count from Metadata; a probe topic, created and deleted, shows that topics
        can be deleted (a broker with ``delete.topic.enable=false`` cannot be asked: S1 deletes
        in every row and cleans up by deleting); in config rows, DescribeConfigs of the fresh
        probe gives the config defaults."""
        run = Run(self, self.check.topic("s1-probe"))
        v = self.ranges[ApiKey.Metadata][1]
        # no topic asked, so none created: the schema's default flag, as S1 always sent it
        resp = run.send(ApiKey.Metadata, v, requests.metadata(v, [], allow_auto_topic_creation=True),
                        "(setup) Metadata")
        self.defaults.brokers = max(1, len(resp.get("brokers") or []))
        name = run.model.name("fresh")
        cv = self.ranges[ApiKey.CreateTopics][1]
        body = requests.create_topics(cv, [requests.topic(name)])
        line = f"(setup) CreateTopics v{cv} {{topics: [{name} (1 partition)]}}"
        try:
            resp = run.send(ApiKey.CreateTopics, cv, body, line)
            codes = [t["error_code"] for t in apis.results(ApiKey.CreateTopics, resp)]
            if codes != [Errors.NONE]:
                run.fail(f"setup: creating a plain topic answered {[error_name(c) for c in codes]}", line)
            run.script.append(f"{line} -> NONE")
            if self.watch_configs:
                self._learn_configs(run, name)
            deleted = self.delete_names([name])
            dv = self.ranges[ApiKey.DeleteTopics][1]
            if deleted.get(name) == Errors.TOPIC_DELETION_DISABLED or (
                    dv < 3 and deleted.get(name) == Errors.INVALID_REQUEST):
                raise Unsupported(f"the broker does not delete topics (DeleteTopics v{dv} answered "
                                  f"{error_name(deleted[name])}); S1 deletes topics in every row")
        finally:
            self.setup_script = run.script
            try:
                self.delete_owned(run.model.owns)
            except Violation:
                pass

    def _learn_configs(self, run: Run, name: str) -> None:
        dv = self.ranges[ApiKey.DescribeConfigs][1]
        dbody = requests.describe_configs(dv, [(name, None)])
        dline = f"(setup) DescribeConfigs v{dv} {{resources: [{name} (all keys)]}}"

        def described():
            return apis.result_for(ApiKey.DescribeConfigs, run.send(ApiKey.DescribeConfigs, dv, dbody, dline), name)

        def code_of(res):
            return res[0]["error_code"] if len(res) == 1 else None

        _, res = waiting.eventually(described, lambda res: code_of(res) == Errors.NONE, within=SETTLE_SECONDS)
        code = code_of(res)
        if code != Errors.NONE:
            run.fail(f"setup: DescribeConfigs of a fresh topic answered "
                     f"{error_name(code) if code is not None else f'{len(res)} results'}", f"{dline} -> {code}")
        run.script.append(f"{dline} -> NONE ({len(res[0].get('configs') or [])} configs)")
        self.defaults.configs = {c["name"]: (c.get("value"), c.get("config_source"))
                                 for c in res[0].get("configs") or []}
        self.defaults.configs_known = True

    def delete_owned(self, owns) -> dict:
        """Delete the topics ``owns`` accepts; their DeleteTopics codes by name."""
        v = self.ranges[ApiKey.Metadata][1]
        resp = self.client.answered(ApiKey.Metadata, v, requests.metadata(v))
        return self.delete_names(sorted(t["name"] for t in apis.results(ApiKey.Metadata, resp) if owns(t.get("name"))))

    def delete_names(self, names: list[str]) -> dict:
        if not names:
            return {}
        dv = self.ranges[ApiKey.DeleteTopics][1]
        resp = self.client.answered(ApiKey.DeleteTopics, dv, requests.delete_topics(dv, names))
        return {r.get("name"): r["error_code"] for r in apis.results(ApiKey.DeleteTopics, resp)}

    # -- runs and failures ------------------------------------------------------------------------
    def new_run(self, sub: str | None = None) -> Run:
        self.check.examples += 1
        self.check.steps = []
        self.check.expectations = []
        self.check.unanswered = None
        self.current = Run(self, sub or self.check.topic("s1"))
        return self.current

    def record_failure(self, run: Run, problem: str) -> None:
        self.failures += 1
        self.shrinking = True
        if self.check.unanswered is not None:
            self.client.conn.set_timeout(min(SHRINK_REQUEST_TIMEOUT, self.check.request_timeout))
        if self.check.first_failure_at is None:
            self.check.first_failure_at = self.check.examples
        failure = {"sub": run.sub, "ops": list(run.ops), "script": list(run.script),
                   "requests": list(self.check.steps), "expect": list(self.check.expectations),
                   "problem": problem}
        if self.first_failure is None:
            self.first_failure = failure
        self.last_failure = failure

    def header(self, sub: str) -> str:
        return f"# S1, focus {apis.api_name(self.focus)}; kac-.. is {sub}"

    def message(self, run: Run, problem: str) -> str:
        lines = run.script[-SCRIPT_LINES_IN_MESSAGE:]
        skipped = len(run.script) - len(lines)
        return "\n".join([_abbrev(problem, run.sub), self.header(run.sub)]
                         + ([f"   ... {skipped} earlier line(s)"] if skipped else []) + lines)

    def counterexample(self, failure: dict) -> Counterexample:
        return Counterexample({"sub": failure["sub"], "steps": failure["ops"]}, failure["requests"],
                              expect=failure.get("expect") or [],
                              script=[self.header(failure["sub"])] + failure["script"],
                              prefix=self.check.prefix)

    # -- after hypothesis: drop what the failure does not need -----------------------------
    def attempt(self, ops: list[dict]) -> dict | None:
        """Run ``ops`` as a fresh example; the failure it hits, or None."""
        before = self.last_failure
        try:
            _execute(self, ops)
        except Violation:
            return self.last_failure if self.last_failure is not before else None
        return None

    def minimise(self, failure: dict, seconds: float) -> dict:
        """Greedily remove whole steps, then single items of a step's lists, keeping every
        removal after which the same problem still occurs (hypothesis's shrinker stops at a
        time limit; this pass is cheap and makes the script minimal in steps and items).
        The result is confirmed by one more run with the normal settle time."""
        deadline = time.monotonic() + seconds
        same = _problem_kind(failure)

        def still(ops):
            got = self.attempt(ops)
            return got if got is not None and _problem_kind(got) == same else None

        best = failure
        for candidate in _smaller(best["ops"]):
            if time.monotonic() >= deadline:
                break
            got = still(candidate)
            if got is not None:
                best = got
                return self.minimise(best, deadline - time.monotonic()) if deadline > time.monotonic() else best
        return best

    def confirm(self, failure: dict) -> dict | None:
        self.shrinking = False
        self.client.conn.set_timeout(self.check.request_timeout)
        try:
            got = self.attempt(failure["ops"])
        finally:
            self.shrinking = True
        return got

    def keep_current(self) -> None:
        """The broker died during a run: keep that run's sequence as the counterexample."""
        run = self.current
        if run is not None:
            self.check.set_counterexample(self.counterexample(
                {"sub": run.sub, "ops": list(run.ops), "script": list(run.script),
                 "requests": list(self.check.steps), "expect": list(self.check.expectations)}))

    def violation(self, failure: dict, note: str = "") -> Violation:
        self.check.set_counterexample(self.counterexample(failure))
        lines = failure["script"][-SCRIPT_LINES_IN_MESSAGE:]
        return Violation("\n".join([_abbrev(failure["problem"], failure["sub"]) + note, self.header(failure["sub"])]
                                   + lines))


@contextmanager
def _shrink_budget(seconds: float):
    """Bound the time hypothesis spends shrinking (each try re-runs a sequence against the
    broker). ``MAX_SHRINKING_SECONDS`` is hypothesis's documented-as-monkeypatchable limit."""
    from hypothesis.internal.conjecture import engine
    old = getattr(engine, "MAX_SHRINKING_SECONDS", None)
    engine.MAX_SHRINKING_SECONDS = seconds
    try:
        yield
    finally:
        if old is not None:
            engine.MAX_SHRINKING_SECONDS = old


def machine_class(ctx: Context):
    strategies = Strategies(ctx)
    first, steps = strategies.first_step(), strategies.steps()

    class S1Machine(RuleBasedStateMachine):
        """The cluster model against one broker (see the module docstring)."""

        def __init__(self):
            super().__init__()
            self.run = ctx.new_run()

        @initialize(op=first)
        def create_first_topics(self, op):
            self.run.execute(op)

        @rule(op=steps)
        def step(self, op):
            self.run.execute(op)

        @invariant()
        def broker_equals_model(self):
            self.run.invariants()

        def teardown(self):
            self.run.cleanup()

    S1Machine.__name__ = S1Machine.__qualname__ = f"S1{apis.api_name(ctx.focus)}"
    return S1Machine


def run_s1(check, focus: int) -> None:
    ctx = Context(check, focus)
    ctx.require()
    replay = check._replay_input
    try:
        ctx.learn()
    except Violation:
        failure = ctx.last_failure or {"sub": "", "ops": [], "script": ctx.setup_script,
                                       "requests": list(check.steps), "problem": "setup failed"}
        raise ctx.violation(failure) from None
    check.steps = []
    check.expectations = []
    if replay is not None:
        _replay(ctx, replay)
        return
    profile = ctx.profile
    cfg = settings(max_examples=check.session.max_examples, stateful_step_count=STEPS.get(profile, 20),
                   deadline=None, database=None, report_multiple_bugs=False, derandomize=False,
                   suppress_health_check=list(HealthCheck),
                   phases=[Phase.explicit, Phase.generate, Phase.shrink])
    machine = seed(check.seed)(machine_class(ctx))
    try:
        with _shrink_budget(SHRINK_SECONDS.get(profile, 30)):
            run_state_machine_as_test(machine, settings=cfg)
    except BrokerGone:
        ctx.keep_current()
        raise
    except Violation:
        raise ctx.violation(*_minimal(ctx, ctx.last_failure)) from None
    except FlakyFailure as flaky:
        if ctx.first_failure is None or not any(isinstance(e, Violation) for e in flaky.exceptions):
            raise
        raise ctx.violation(ctx.first_failure, " (intermittent: the shrunk sequence passed when run again; "
                                               "this is the first failing sequence)") from None


def _problem_kind(failure: dict) -> str:
    """A failure's problem without what differs between runs (sub-prefix, made-up ids)."""
    problem = re.sub(r"\bid [0-9a-f]{8}\b", "id ?", _abbrev(failure["problem"], failure["sub"]))
    return re.sub(r"no answer within [\d.]+s", "no answer", problem)


def _minimal(ctx: Context, failure: dict) -> tuple[dict, str]:
    """Hypothesis's shrunk failure, made minimal, then confirmed by running it again with
    the full settle time (shrinking used short ones). If it does not fail again, the first
    failure found (which had the full settle time) is reported instead."""
    smaller = ctx.minimise(failure, MINIMISE_SECONDS.get(ctx.profile, 10))
    confirmed = ctx.confirm(smaller)
    if confirmed is not None:
        return confirmed, ""
    return ctx.first_failure, (" (the shrunk sequence did not fail again with the full settle time; "
                               "this is the first failing sequence)")


def _execute(ctx: Context, ops: list[dict], sub: str | None = None) -> None:
    """Run operations in order as one example, without hypothesis, checking the invariants
    before the first and after every step (as the state machine does)."""
    run = ctx.new_run(sub)
    try:
        run.invariants()
        for op in ops:
            run.execute(op)
            run.invariants()
    finally:
        run.cleanup()


def _smaller(ops: list[dict]):
    """Candidates with one step removed, then with one item of a step's lists removed. The
    first step (the example's initial CreateTopics, which every sequence hypothesis draws
    starts with) stays: without it a failure may need topics other checks left on the broker,
    and its exported reproducer would not fail on a fresh one."""
    for i in range(1, len(ops)):
        yield ops[:i] + ops[i + 1:]
    for i, op in enumerate(ops):
        for field in FIELDS:
            items = op.get(field)
            if not isinstance(items, list):
                continue
            for j in range(len(items)):
                if len(items) > 1:
                    yield ops[:i] + [{**op, field: items[:j] + items[j + 1:]}] + ops[i + 1:]
                for inner in ("configs", "ops", "partitions"):
                    sub = items[j].get(inner) if isinstance(items[j], dict) else None
                    if not isinstance(sub, list) or (inner == "partitions" and len(sub) < 2):
                        continue
                    for k in range(len(sub)):
                        item = {**items[j], inner: sub[:k] + sub[k + 1:]}
                        yield ops[:i] + [{**op, field: items[:j] + [item] + items[j + 1:]}] + ops[i + 1:]


def _replay(ctx: Context, value: dict) -> None:
    """Re-run the recorded operations of a counterexample (on any broker that advertises
    the versions they were sent at; otherwise the replay is unsupported there)."""
    for op in value.get("steps") or []:
        operation = BY_NAME.get(op["api"])
        if "v" in op and operation is not None:
            rng = ctx.ranges.get(operation.api)
            if rng is None or not rng[0] <= op["v"] <= rng[1]:
                have = f"v{rng[0]}-{rng[1]}" if rng else "no version"
                raise Unsupported(f"the counterexample sends {op['api']} v{op['v']}; this broker advertises {have}")
    try:
        _execute(ctx, value.get("steps") or [], value.get("sub"))
    except BrokerGone:
        ctx.keep_current()
        raise
    except Violation:
        raise ctx.violation(ctx.last_failure) from None
