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
"""
from __future__ import annotations

import re
import time
import uuid
from contextlib import contextmanager

from hypothesis import HealthCheck, Phase, settings, strategies as st
from hypothesis.errors import FlakyFailure
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test
from kafka.record.memory_records import MemoryRecordsBuilder

from protocol.codec import APIS
from fixtures.harness import BrokerGone, Unsupported, Violation

from . import cluster_model as cm
from .reference.error_codes import error_name

SOURCE = ("catalogue S1; docs/reference-semantics.md (apache/kafka ReplicationControlManager, "
          "ConfigurationControlManager, ControllerApis, ConfigAdminManager, ConfigHelper, KafkaApis, "
          "Partition.deleteRecordsOnLeader)")

METADATA, PRODUCE, LIST_OFFSETS = 3, 0, 2
CREATE_TOPICS, DELETE_TOPICS, DELETE_RECORDS = 19, 20, 21
DESCRIBE_CONFIGS, ALTER_CONFIGS, CREATE_PARTITIONS, INCREMENTAL_ALTER_CONFIGS = 32, 33, 37, 44
FOCUS_KEYS = (METADATA, CREATE_TOPICS, DELETE_TOPICS, DELETE_RECORDS, DESCRIBE_CONFIGS,
              ALTER_CONFIGS, CREATE_PARTITIONS, INCREMENTAL_ALTER_CONFIGS)
#: Rows whose invariants include DescribeConfigs of every topic.
CONFIG_FOCUS = (CREATE_TOPICS, DESCRIBE_CONFIGS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS)
#: Rows that produce records and check every partition's log start/end offsets.
LOG_FOCUS = (CREATE_TOPICS, DELETE_TOPICS, DELETE_RECORDS, CREATE_PARTITIONS)
NAMES = {METADATA: "Metadata", CREATE_TOPICS: "CreateTopics", DELETE_TOPICS: "DeleteTopics",
         DELETE_RECORDS: "DeleteRecords", DESCRIBE_CONFIGS: "DescribeConfigs", ALTER_CONFIGS: "AlterConfigs",
         CREATE_PARTITIONS: "CreatePartitions", INCREMENTAL_ALTER_CONFIGS: "IncrementalAlterConfigs",
         PRODUCE: "Produce"}
KEYS = {v: k for k, v in NAMES.items()}

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
SETTLE_SECONDS, SETTLE_WHILE_SHRINKING = 5.0, 0.4
#: After a cleanup.policy change, how long a partition's log may still use the old policy.
POLICY_SETTLE_SECONDS = 2.0
TIMEOUT_MS = 5000
TRANSIENT = {3, 5, 6}     # UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER
EARLIEST, LATEST = -2, -1
TOPIC_RESOURCE = 2
SCRIPT_LINES_IN_MESSAGE = 12

SLOTS = ("a", "b", "c")
#: Slots of plain requests: two, so that plain deletes and creates often hit the same name
#: (re-creation is where stale state shows).
PLAIN_SLOTS = ("a", "b")
#: Slot draws in a focused API: mostly ordinary, sometimes the colliding pair or a bad name.
FOCUS_SLOTS = ("a", "b", "c", "a", "b", "c", "x.y", "x_y", "bad!")


# =========================================================================================
# Operations: what a step does, as JSON. Drawn with symbolic parts (deltas, offset choices),
# resolved against the model into the concrete operation that is sent and recorded.
# =========================================================================================

def _pairs(values: dict) -> list[list]:
    return [[k, v] for k in sorted(values) for v in values[k]]


VALID_PAIRS = _pairs(cm.VALID_VALUES)
BAD_PAIRS = _pairs(cm.INVALID_VALUES) + [[cm.UNKNOWN_KEY, "1"], ["retention.ms", None]]
KNOWN_KEYS = sorted(cm.VALID_VALUES)


class Strategies:
    """The operation strategies of one check (depend on the broker's ranges and the focus)."""

    def __init__(self, ctx: "Context"):
        self.ctx = ctx

    def version(self, api: int, focused: bool):
        lo, hi = self.ctx.ranges[api]
        if not focused:
            return st.just(hi)
        return st.sampled_from(range(hi, lo - 1, -1))     # uniform; shrinks towards the newest

    def slot(self, focused: bool):
        return st.sampled_from(FOCUS_SLOTS if focused else PLAIN_SLOTS)

    def pair(self, focused: bool):
        valid = st.sampled_from(VALID_PAIRS)
        return st.one_of(valid, valid, st.sampled_from(BAD_PAIRS)) if focused else valid

    # -- per API ---------------------------------------------------------------------
    def create_topics(self, focused: bool, slots=None, max_topics=3):
        brokers = self.ctx.defaults.brokers
        if focused:
            item = st.fixed_dictionaries({
                "slot": self.slot(True),
                "partitions": st.sampled_from([1, 2, 3, 1, 2, 4, -1, 0, -3]),
                "rf": st.sampled_from([1, 1, 1, -1, 0, brokers + 1]),
                "configs": st.lists(self.pair(True), max_size=2, unique_by=lambda kv: kv[0])})
            topics = st.lists(item, min_size=1, max_size=max_topics)
            vo = st.booleans()
        else:
            item = st.fixed_dictionaries({
                "slot": st.sampled_from(slots or PLAIN_SLOTS), "partitions": st.integers(1, 3), "rf": st.just(1),
                "configs": st.lists(self.pair(False), max_size=1)})
            topics = st.lists(item, min_size=1, max_size=max_topics if slots else 1,
                              unique_by=lambda i: i["slot"])
            vo = st.just(False)
        return st.fixed_dictionaries({"api": st.just("CreateTopics"), "v": self.version(CREATE_TOPICS, focused),
                                      "validate_only": vo, "topics": topics})

    def delete_topics(self, focused: bool):
        if not focused:
            return st.fixed_dictionaries({"api": st.just("DeleteTopics"), "v": self.version(DELETE_TOPICS, False),
                                          "topics": st.lists(st.fixed_dictionaries({"slot": self.slot(False)}),
                                                             min_size=1, max_size=1)})

        def body(v):
            by_name = st.fixed_dictionaries({"slot": self.slot(True)})
            item = by_name if v < 6 else st.one_of(
                by_name, by_name, st.fixed_dictionaries({"id_of": self.slot(False)}),
                st.fixed_dictionaries({"id": st.uuids(version=4).map(str)}))
            return st.fixed_dictionaries({"api": st.just("DeleteTopics"), "v": st.just(v),
                                          "topics": st.lists(item, min_size=1, max_size=3)})
        return self.version(DELETE_TOPICS, True).flatmap(body)

    def create_partitions(self, focused: bool):
        item = st.fixed_dictionaries({"slot": self.slot(focused),
                                      "delta": st.sampled_from([1, 2, 0, -1, 3] if focused else [1, 2])})
        return st.fixed_dictionaries({"api": st.just("CreatePartitions"), "v": self.version(CREATE_PARTITIONS, focused),
                                      "validate_only": st.booleans() if focused else st.just(False),
                                      "topics": st.lists(item, min_size=1, max_size=2 if focused else 1)})

    def incremental_alter(self, focused: bool):
        set_valid = self.pair(False).map(lambda kv: [kv[0], "SET", kv[1]])
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
            resources = st.lists(st.fixed_dictionaries({"slot": self.slot(True), "ops": ops}), min_size=1, max_size=2)
        else:
            ops = st.lists(st.one_of(set_valid, delete), min_size=1, max_size=2, unique_by=lambda o: o[0])
            resources = st.lists(st.fixed_dictionaries({"slot": self.slot(False), "ops": ops}), min_size=1, max_size=1)
        return st.fixed_dictionaries({"api": st.just("IncrementalAlterConfigs"),
                                      "v": self.version(INCREMENTAL_ALTER_CONFIGS, focused),
                                      "validate_only": st.booleans() if focused else st.just(False),
                                      "resources": resources})

    def alter_configs(self, focused: bool):
        if focused:
            configs = st.lists(self.pair(True), max_size=3)
            resources = st.lists(st.fixed_dictionaries({"slot": self.slot(True), "configs": configs}),
                                 min_size=1, max_size=2)
        else:
            configs = st.lists(self.pair(False), max_size=2, unique_by=lambda kv: kv[0])
            resources = st.lists(st.fixed_dictionaries({"slot": self.slot(False), "configs": configs}),
                                 min_size=1, max_size=1)
        return st.fixed_dictionaries({"api": st.just("AlterConfigs"), "v": self.version(ALTER_CONFIGS, focused),
                                      "validate_only": st.booleans() if focused else st.just(False),
                                      "resources": resources})

    def describe_configs(self):
        keys = st.none() | st.lists(st.sampled_from(KNOWN_KEYS + [cm.UNKNOWN_KEY]), min_size=1, max_size=2, unique=True)
        resources = st.lists(st.fixed_dictionaries({"slot": self.slot(True), "keys": keys}),
                             min_size=1, max_size=2, unique_by=lambda r: r["slot"])
        return st.fixed_dictionaries({"api": st.just("DescribeConfigs"), "v": self.version(DESCRIBE_CONFIGS, True),
                                      "resources": resources})

    def delete_records(self, focused: bool):
        if focused:
            part = st.tuples(st.integers(0, 3), st.sampled_from(
                ["hw", "mid", "end", "start", "zero", "beyond", "neg"])).map(list)
            topics = st.lists(st.fixed_dictionaries({"slot": self.slot(True),
                                                     "partitions": st.lists(part, min_size=1, max_size=3)}),
                              min_size=1, max_size=2, unique_by=lambda t: t["slot"])
        else:
            part = st.tuples(st.integers(0, 1), st.sampled_from(["hw", "mid", "end", "zero"])).map(list)
            topics = st.lists(st.fixed_dictionaries({"slot": self.slot(False),
                                                     "partitions": st.lists(part, min_size=1, max_size=1)}),
                              min_size=1, max_size=1)
        return st.fixed_dictionaries({"api": st.just("DeleteRecords"), "v": self.version(DELETE_RECORDS, focused),
                                      "topics": topics})

    def produce(self):
        return st.fixed_dictionaries({"api": st.just("Produce"), "slot": self.slot(False),
                                      "partition": st.integers(0, 3), "count": st.integers(1, 5)})

    def metadata(self):
        def body(v):
            names = st.lists(self.slot(True), min_size=1, max_size=3, unique=True)
            topics = names if v == 0 else st.none() | names
            return st.fixed_dictionaries({"api": st.just("Metadata"), "v": st.just(v), "topics": topics})
        return self.version(METADATA, True).flatmap(body)

    # -- what one step may do ------------------------------------------------------------
    def steps(self):
        """The focus API's requests (4 in 10), produce (log rows) and plain requests of the
        other APIs. A plain request is marked ``"plain": true``: it only touches topics the
        model has (or, for CreateTopics, does not have), so it always succeeds on Kafka."""
        ctx, focus = self.ctx, self.ctx.focus
        focused = {
            METADATA: self.metadata, CREATE_TOPICS: lambda: self.create_topics(True),
            DELETE_TOPICS: lambda: self.delete_topics(True), DELETE_RECORDS: lambda: self.delete_records(True),
            DESCRIBE_CONFIGS: self.describe_configs, ALTER_CONFIGS: lambda: self.alter_configs(True),
            CREATE_PARTITIONS: lambda: self.create_partitions(True),
            INCREMENTAL_ALTER_CONFIGS: lambda: self.incremental_alter(True),
        }[focus]()
        plain = {CREATE_TOPICS: lambda: self.create_topics(False), DELETE_TOPICS: lambda: self.delete_topics(False),
                 CREATE_PARTITIONS: lambda: self.create_partitions(False),
                 INCREMENTAL_ALTER_CONFIGS: lambda: self.incremental_alter(False),
                 ALTER_CONFIGS: lambda: self.alter_configs(False), DELETE_RECORDS: lambda: self.delete_records(False)}
        options = [focused] * 4
        if ctx.watch_logs and PRODUCE in ctx.ranges:
            options += [self.produce()] * 2
        if focus not in (DELETE_TOPICS, CREATE_PARTITIONS):
            plain.pop(DELETE_RECORDS)     # moves log starts where re-creation / growth must not
        options += [make().map(_plain) for api, make in plain.items() if api != focus and api in ctx.ranges]
        return st.one_of(options)

    def first_step(self):
        """Every example starts with one or two plain topics (a, b)."""
        return self.create_topics(False, slots=("a", "b"), max_topics=2).map(_plain)


def _plain(op: dict) -> dict:
    return {**op, "plain": True}


# =========================================================================================
# The driver: executes operations against the broker and checks them against the model.
# Used by the state machine and, without hypothesis, by --replay.
# =========================================================================================

def _abbrev(text: str, sub: str) -> str:
    return text.replace(sub + "-", "kac-..-")


def render(op: dict, sub: str) -> str:
    """One script line for an operation (without its answer)."""
    api, n = op["api"], (lambda s: f"kac-..-{s}")
    vo = " validate_only" if op.get("validate_only") else ""
    head = f"{api} v{op['v']}{vo}" if "v" in op else api
    if api == "CreateTopics":
        items = []
        for t in op["topics"]:
            bits = [f"{t['partitions']} partition{'s' if t['partitions'] != 1 else ''}"]
            if t["rf"] != 1:
                bits.append(f"rf {t['rf']}")
            bits += [f"{k}={v}" for k, v in t["configs"]]
            items.append(f"{n(t['slot'])} ({', '.join(bits)})")
        body = f"topics: [{', '.join(items)}]"
    elif api == "DeleteTopics":
        items = [n(t["slot"]) if "slot" in t else f"id of {n(t['id_of'])}" if "id_of" in t else f"id {t['id'][:8]}"
                 for t in op["topics"]]
        body = f"topics: [{', '.join(items)}]"
    elif api == "CreatePartitions":
        body = "topics: [" + ", ".join(f"{n(t['slot'])} -> {t['count']}" for t in op["topics"]) + "]"
    elif api == "IncrementalAlterConfigs":
        body = "resources: [" + "; ".join(
            f"{n(r['slot'])}: " + (", ".join(f"{o} {k}" + (f"={v}" if v is not None or o != 'DELETE' else "")
                                             for k, o, v in r["ops"]) or "no ops")
            for r in op["resources"]) + "]"
    elif api == "AlterConfigs":
        body = "resources: [" + "; ".join(
            f"{n(r['slot'])}: " + (", ".join(f"{k}={v}" for k, v in r["configs"]) or "no configs")
            for r in op["resources"]) + "]"
    elif api == "DescribeConfigs":
        body = "resources: [" + ", ".join(
            f"{n(r['slot'])} ({'all keys' if r['keys'] is None else ', '.join(r['keys'])})"
            for r in op["resources"]) + "]"
    elif api == "DeleteRecords":
        body = ", ".join(f"{n(t['slot'])}-{p} before {o}" + (" (high watermark)" if o == -1 else "")
                         for t in op["topics"] for p, o in t["partitions"])
    elif api == "Produce":
        body = f"{n(op['slot'])}-{op['partition']}: {op['count']} record{'s' if op['count'] != 1 else ''}"
    elif api == "Metadata":
        body = "topics: " + ("all (null)" if op["topics"] is None else "[" + ", ".join(n(s) for s in op["topics"]) + "]"
                             + ("" if op["topics"] else " (none)"))
    else:
        body = str(op)
    return f"{head} {{{body}}}"


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
            self.fail(f"{NAMES.get(api, api)} v{v}: {exc}", f"{line} -> no answer")

    # -- resolving drawn operations -------------------------------------------------------
    def resolve(self, op: dict) -> dict | None:
        m, api = self.model, op["api"]
        op = dict(op)
        if op.get("plain"):
            op = self._plain_only(op)
            if op is None:
                return None
        if api == "CreateTopics":
            if op["v"] < 1:
                op["validate_only"] = False
            op["topics"] = [{**t, "partitions": 1 if t["partitions"] == -1 and op["v"] < 4 else t["partitions"],
                             "rf": 1 if t["rf"] == -1 and op["v"] < 4 else t["rf"]} for t in op["topics"]]
        elif api == "DeleteTopics":
            named = {t["slot"] for t in op["topics"] if "slot" in t}
            op["topics"] = [{"id": str(self._unknown_id(t["id_of"]))} if "id_of" in t and t["id_of"] in named else t
                            for t in op["topics"]]
        elif api == "CreatePartitions":
            topics = []
            for t in op["topics"]:
                if "count" in t:
                    topics.append(t)
                    continue
                cur = m.topics.get(m.name(t["slot"]))
                base = cur.partitions if cur is not None and cur.partitions is not None else 1
                topics.append({"slot": t["slot"], "count": base + t["delta"]})
            op["topics"] = topics
        elif api == "DeleteRecords":
            op["topics"] = [{"slot": t["slot"], "partitions": [[p, self._offset(t["slot"], p, o)]
                                                               for p, o in t["partitions"]]}
                            for t in op["topics"]]
        elif api == "Produce":
            t = m.topics.get(m.name(op["slot"]))
            if t is None or not t.partitions:
                return None
            op["partition"] = op["partition"] % t.partitions
        elif api == "Metadata":
            exists = [s for s in SLOTS + ("x.y", "x_y") if m.name(s) in m.topics]
            if op["topics"] is None and op["v"] == 0:
                op["topics"] = exists
            if op["v"] < 4 and op["topics"] is not None:     # below v4 Kafka may auto-create
                op["topics"] = [s for s in op["topics"] if s in exists]
            if op["v"] == 0 and not op["topics"]:
                return None
        return op

    def _plain_only(self, op: dict) -> dict | None:
        """Keep only the items a plain request may have (see Strategies.steps)."""
        m = self.model
        has = lambda slot: m.name(slot) in m.topics      # noqa: E731
        field = "resources" if "resources" in op else "topics"
        if op["api"] == "CreateTopics":
            items = [t for t in op[field] if not has(t["slot"])]
        elif op["api"] == "DeleteRecords":
            items = [{**t, "partitions": [[p % m.topics[m.name(t["slot"])].partitions, o] for p, o in t["partitions"]]}
                     for t in op[field] if has(t["slot"]) and m.topics[m.name(t["slot"])].partitions]
        else:
            items = [t for t in op[field] if has(t["slot"])]
        return {**op, field: items} if items else None

    def _offset(self, slot, p, choice):
        if isinstance(choice, int):
            return choice
        t = self.model.topics.get(self.model.name(slot))
        start = end = 0
        if t is not None and t.partitions is not None and p < t.partitions:
            start, end = t.start[p], t.end[p]
        return {"hw": -1, "mid": (start + end) // 2, "end": end, "start": start, "zero": 0,
                "beyond": end + 1, "neg": -2}[choice]

    def _unknown_id(self, slot) -> uuid.UUID:
        return uuid.uuid5(uuid.NAMESPACE_URL, f"kac-s1-unknown/{self.sub}/{slot}")

    def _id_of(self, slot) -> uuid.UUID:
        t = self.model.topics.get(self.model.name(slot))
        return t.topic_id if t is not None and t.topic_id is not None else self._unknown_id(slot)

    # -- executing -------------------------------------------------------------------------
    def execute(self, drawn: dict) -> None:
        op = self.resolve(drawn)
        if op is None:
            return
        self.ops.append(op)
        line = render(op, self.sub)
        getattr(self, "_" + op["api"])(op, line)

    def _answer(self, line, expects, entries, describe_extra=None):
        """Check the entries against the predictions, apply the effects, script the line."""
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
            elif code == cm.NONE and e.verify:
                bad = e.verify(entry)
                if bad:
                    text += f" ({bad})"
                    wrong = wrong or f"{self._label(e.key)}: {bad}"
            if describe_extra and code == cm.NONE:
                text += describe_extra(e, entry)
            parts.append((self._label(e.key), text))
        result = parts[0][1] if len(parts) == 1 else ", ".join(f"{k}: {t}" for k, t in parts)
        if wrong:
            self.fail(wrong, f"{line} -> {result}")
        for e, code, entry in pairs:
            if code == cm.NONE and e.effect:
                e.effect(entry)
        self.script.append(f"{line} -> {result}")

    def _label(self, key) -> str:
        if key[0] == "partition":
            return _abbrev(f"{key[1]}-{key[2]}", self.sub)
        if key[0] == "id":
            return f"id {str(key[1])[:8]}"
        return _abbrev(str(key[1]), self.sub)

    def _CreateTopics(self, op, line):
        m, v = self.model, op["v"]
        items = [{"name": m.name(t["slot"]), "partitions": t["partitions"], "rf": t["rf"],
                  "configs": [list(kv) for kv in t["configs"]]} for t in op["topics"]]
        body = {"topics": [{"name": i["name"], "num_partitions": i["partitions"], "replication_factor": i["rf"],
                            "assignments": [], "configs": [{"name": k, "value": val} for k, val in i["configs"]]}
                           for i in items], "timeout_ms": TIMEOUT_MS}
        if v >= 1:
            body["validate_only"] = op["validate_only"]
        expects = m.create_topics(items, op["validate_only"], v)
        resp = self.send(CREATE_TOPICS, v, body, line)
        entries = [(("name", t["name"]), t["error_code"], t) for t in resp.get("topics") or []]
        self._answer(line, expects, entries)

    def _DeleteTopics(self, op, line):
        m, v = self.model, op["v"]
        items, ids = [], set()
        for t in op["topics"]:
            if "slot" in t:
                items.append({"name": m.name(t["slot"])})
            else:
                tid = self._id_of(t["id_of"]) if "id_of" in t else uuid.UUID(t["id"])
                items.append({"id": tid})
                ids.add(tid)
        if v >= 6:
            body = {"topics": [{"name": i.get("name"), "topic_id": i.get("id", cm.ZERO_UUID)} for i in items],
                    "timeout_ms": TIMEOUT_MS}
        else:
            body = {"topic_names": [i["name"] for i in items], "timeout_ms": TIMEOUT_MS}
        expects = m.delete_topics(items, v)
        resp = self.send(DELETE_TOPICS, v, body, line)
        entries = []
        for r in resp.get("responses") or []:
            tid = r.get("topic_id") if v >= 6 else None
            key = ("id", tid) if tid in ids else ("name", r.get("name"))
            entries.append((key, r["error_code"], r))
        self._answer(line, expects, entries)

    def _CreatePartitions(self, op, line):
        m, v = self.model, op["v"]
        items = [{"name": m.name(t["slot"]), "count": t["count"]} for t in op["topics"]]
        body = {"topics": [{"name": i["name"], "count": i["count"], "assignments": None} for i in items],
                "timeout_ms": TIMEOUT_MS, "validate_only": op["validate_only"]}
        expects = m.create_partitions(items, op["validate_only"])
        resp = self.send(CREATE_PARTITIONS, v, body, line)
        self._answer(line, expects, [(("name", r["name"]), r["error_code"], r) for r in resp.get("results") or []])

    def _policy_watch(self):
        m = self.model
        return {n: m.policy_deletes(t) for n, t in m.topics.items()}

    def _policy_changed(self, before):
        m = self.model
        for n, t in m.topics.items():
            if n in before and before[n] != m.policy_deletes(t):
                self.unsettled[n] = time.monotonic() + POLICY_SETTLE_SECONDS

    def _IncrementalAlterConfigs(self, op, line):
        m, v = self.model, op["v"]
        res = [{"name": m.name(r["slot"]), "ops": [list(o) for o in r["ops"]]} for r in op["resources"]]
        body = {"resources": [{"resource_type": TOPIC_RESOURCE, "resource_name": r["name"],
                               "configs": [{"name": k, "config_operation": cm.OPS[o], "value": val}
                                           for k, o, val in r["ops"]]} for r in res],
                "validate_only": op["validate_only"]}
        expects = m.incremental_alter(res, op["validate_only"])
        before = self._policy_watch()
        resp = self.send(INCREMENTAL_ALTER_CONFIGS, v, body, line)
        self._answer(line, expects, [(("name", r["resource_name"]), r["error_code"], r)
                                     for r in resp.get("responses") or []])
        self._policy_changed(before)

    def _AlterConfigs(self, op, line):
        m, v = self.model, op["v"]
        res = [{"name": m.name(r["slot"]), "configs": [list(kv) for kv in r["configs"]]} for r in op["resources"]]
        body = {"resources": [{"resource_type": TOPIC_RESOURCE, "resource_name": r["name"],
                               "configs": [{"name": k, "value": val} for k, val in r["configs"]]} for r in res],
                "validate_only": op["validate_only"]}
        expects = m.alter_configs(res, op["validate_only"])
        before = self._policy_watch()
        resp = self.send(ALTER_CONFIGS, v, body, line)
        self._answer(line, expects, [(("name", r["resource_name"]), r["error_code"], r)
                                     for r in resp.get("responses") or []])
        self._policy_changed(before)

    def _DescribeConfigs(self, op, line):
        m, v = self.model, op["v"]
        res = [{"name": m.name(r["slot"]), "keys": r["keys"]} for r in op["resources"]]
        body = {"resources": [{"resource_type": TOPIC_RESOURCE, "resource_name": r["name"],
                               "configuration_keys": r["keys"]} for r in res]}
        if v >= 1:
            body["include_synonyms"] = False
        if v >= 3:
            body["include_documentation"] = False
        expects = m.describe_configs(res, v)
        resp = self.send(DESCRIBE_CONFIGS, v, body, line)
        self._answer(line, expects, [(("name", r["resource_name"]), r["error_code"], r)
                                     for r in resp.get("results") or []])

    def _DeleteRecords(self, op, line):
        m, v = self.model, op["v"]
        topics = [{"name": m.name(t["slot"]), "partitions": [list(p) for p in t["partitions"]]} for t in op["topics"]]
        body = {"topics": [{"name": t["name"], "partitions": [{"partition_index": p, "offset": o}
                                                              for p, o in t["partitions"]]} for t in topics],
                "timeout_ms": TIMEOUT_MS}
        now = time.monotonic()
        unsettled = frozenset(n for n, until in self.unsettled.items() if until > now)
        expects = m.delete_records(topics, unsettled)
        resp = self.send(DELETE_RECORDS, v, body, line)
        entries = [(("partition", t["name"], p["partition_index"]), p["error_code"], p)
                   for t in resp.get("topics") or [] for p in t.get("partitions") or []]
        self._answer(line, expects, entries, lambda e, entry: f" lw {entry.get('low_watermark')}")

    def _Metadata(self, op, line):
        m, v = self.model, op["v"]
        names = None if op["topics"] is None else [m.name(s) for s in op["topics"]]
        body = {"topics": None if names is None else
                [({"name": n, "topic_id": cm.ZERO_UUID} if v >= 10 else {"name": n}) for n in names]}
        if v >= 4:
            body["allow_auto_topic_creation"] = False
        expects = m.metadata(names, v)
        resp = self.send(METADATA, v, body, line)
        entries = [(("name", t.get("name")), t["error_code"], t) for t in resp.get("topics") or []
                   if names is not None or m.owns(t.get("name"))]
        self._answer(line, expects, entries)

    def _Produce(self, op, line):
        m = self.model
        name, p, count = m.name(op["slot"]), op["partition"], op["count"]
        v = self.ctx.ranges[PRODUCE][1]
        line = f"Produce v{v} {line[len('Produce '):]}"
        builder = MemoryRecordsBuilder(magic=2, compression_type=0, batch_size=1 << 20)
        ts = int(time.time() * 1000)
        for i in range(count):     # keyed: a compacted topic refuses records without a key
            builder.append(ts, f"k{i}".encode(), f"s1-{i}".encode())
        builder.close()
        body = {"transactional_id": None, "acks": -1, "timeout_ms": TIMEOUT_MS,
                "topic_data": [{"name": name, "partition_data": [{"index": p, "records": builder.buffer()}]}]}
        expected = m.topics[name].end[p]
        deadline = time.monotonic() + self.ctx.settle_seconds()
        while True:
            resp = self.send(PRODUCE, v, body, line)
            parts = [pr for t in resp.get("responses") or [] for pr in t.get("partition_responses") or []]
            code = parts[0]["error_code"] if len(parts) == 1 else None
            if code in TRANSIENT and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            break
        if code != cm.NONE:
            what = f"{len(parts)} partition results" if code is None else error_name(code)
            self.fail(f"a keyed Produce to an existing partition answered {what}", f"{line} -> {what}")
        base = parts[0].get("base_offset")
        if base != expected:
            self.fail(f"base_offset {base}, but the log end offset was {expected}", f"{line} -> NONE base_offset {base}")
        m.produced(name, p, count)
        self.script.append(f"{line} -> NONE base_offset {base}")

    # -- invariants ------------------------------------------------------------------------
    def invariants(self) -> None:
        self._settle(self._topics_problem)
        if self.ctx.watch_logs and LIST_OFFSETS in self.ctx.ranges:
            self._settle(self._offsets_problem)
        if self.ctx.watch_configs:
            self._settle(self._configs_problem)

    def _settle(self, observe):
        deadline = time.monotonic() + self.ctx.settle_seconds()
        while True:
            problem = observe()
            if problem is None:
                return
            if time.monotonic() >= deadline:
                self.fail(problem)
            time.sleep(0.05)

    def _topics_problem(self) -> str | None:
        m, v = self.model, self.ctx.ranges[METADATA][1]
        body = {"topics": None}
        if v >= 4:
            body["allow_auto_topic_creation"] = False
        resp = self.send(METADATA, v, body, "(invariant) Metadata")
        seen = {t.get("name"): t for t in resp.get("topics") or [] if m.owns(t.get("name"))}
        extra = sorted(set(seen) - set(m.topics))
        if extra:
            return f"Metadata lists {extra[0]} (error {error_name(seen[extra[0]]['error_code'])}), which the model does not have"
        missing = sorted(set(m.topics) - set(seen))
        if missing:
            return f"Metadata does not list {missing[0]}, which the model has"
        for name, entry in sorted(seen.items()):
            t = m.topics[name]
            if entry["error_code"] != cm.NONE:
                return f"Metadata: {name} has error {error_name(entry['error_code'])}"
            bad = m.topic_problem(t, entry, v)
            if bad:
                return f"Metadata: {name} has {bad}"
            for p in entry.get("partitions") or []:
                if p.get("error_code") != cm.NONE or p.get("leader_id", -1) < 0:
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
        v = self.ctx.ranges[LIST_OFFSETS][1]
        seen = {}
        for which in (EARLIEST, LATEST):
            body = {"replica_id": -1, "isolation_level": 0, "timeout_ms": TIMEOUT_MS,
                    "topics": [{"name": n, "partitions": [{"partition_index": p, "current_leader_epoch": -1,
                                                            "timestamp": which, "max_num_offsets": 1}
                                                           for p in range(t.partitions)]} for n, t in parts.items()]}
            resp = self.send(LIST_OFFSETS, v, body, "(invariant) ListOffsets")
            for t in resp.get("topics") or []:
                for p in t.get("partitions") or []:
                    seen[(t.get("name"), p.get("partition_index"), which)] = (p.get("error_code"), p.get("offset"))
        for n, t in parts.items():
            for p in range(t.partitions):
                for which, want, what in ((EARLIEST, t.start[p], "log start offset"),
                                          (LATEST, t.end[p], "log end offset (high watermark)")):
                    code, got = seen.get((n, p, which), (None, None))
                    if code is None:
                        return f"ListOffsets: no answer for {n}-{p}"
                    if code != cm.NONE:
                        return f"ListOffsets: {n}-{p} answered {error_name(code)}"
                    if got != want:
                        return f"ListOffsets: {n}-{p} {what} is {got}, the model has {want}"
        return None

    def _configs_problem(self) -> str | None:
        m = self.model
        names = [n for n in sorted(m.topics)]
        if not names:
            return None
        v = self.ctx.ranges[DESCRIBE_CONFIGS][1]
        body = {"resources": [{"resource_type": TOPIC_RESOURCE, "resource_name": n, "configuration_keys": None}
                              for n in names], "include_synonyms": False}
        if v >= 3:
            body["include_documentation"] = False
        resp = self.send(DESCRIBE_CONFIGS, v, body, "(invariant) DescribeConfigs")
        results = {r.get("resource_name"): r for r in resp.get("results") or []}
        for n in names:
            r = results.get(n)
            if r is None:
                return f"DescribeConfigs: no result for {n}"
            if r["error_code"] != cm.NONE:
                return f"DescribeConfigs: {n} answered {error_name(r['error_code'])}"
            described = {c["name"]: c for c in r.get("configs") or []}
            bad = m.config_problem(m.topics[n], described, v)
            if bad:
                return f"DescribeConfigs: {n} {bad}"
        for n in names:
            m.learn_configs(m.topics[n], {c["name"]: c for c in results[n].get("configs") or []})
        return None

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
        self.watch_configs = focus in CONFIG_FOCUS
        self.watch_logs = focus in LOG_FOCUS
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
        wanted = {**{k: 0 for k in FOCUS_KEYS}, PRODUCE: 3, LIST_OFFSETS: 1}
        ceiling = {PRODUCE: 12}          # v13 addresses topics by id
        for api, low in wanted.items():
            adv = self.check.broker.advertised(api)
            if adv is None:
                continue
            lo = max(adv[0], low)
            hi = min(adv[1], APIS[api].max_version, ceiling.get(api, 1 << 15))
            if lo <= hi:
                out[api] = (lo, hi)
        return out

    def require(self) -> None:
        check = self.check
        check.require(self.focus)
        if self.focus not in self.ranges:
            raise Unsupported(f"no {NAMES[self.focus]} version both the broker and the suite's schemas have")
        for api in (METADATA, CREATE_TOPICS, DELETE_TOPICS):
            if api not in self.ranges:
                raise Unsupported(f"S1 needs {NAMES[api]} to set up and observe topics; the broker does not advertise it")
        if self.ranges[METADATA][1] < 1:
            raise Unsupported("S1 needs Metadata v1+ (all topics)")
        if self.watch_configs and (DESCRIBE_CONFIGS not in self.ranges or self.ranges[DESCRIBE_CONFIGS][1] < 1):
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
        v = self.ranges[METADATA][1]
        resp = run.send(METADATA, v, {"topics": []}, "(setup) Metadata")
        self.defaults.brokers = max(1, len(resp.get("brokers") or []))
        name = run.model.name("fresh")
        cv = self.ranges[CREATE_TOPICS][1]
        body = {"topics": [{"name": name, "num_partitions": 1, "replication_factor": 1, "assignments": [],
                            "configs": []}], "timeout_ms": TIMEOUT_MS}
        if cv >= 1:
            body["validate_only"] = False
        line = f"(setup) CreateTopics v{cv} {{topics: [{name} (1 partition)]}}"
        try:
            resp = run.send(CREATE_TOPICS, cv, body, line)
            codes = [t["error_code"] for t in resp.get("topics") or []]
            if codes != [cm.NONE]:
                run.fail(f"setup: creating a plain topic answered {[error_name(c) for c in codes]}", line)
            run.script.append(f"{line} -> NONE")
            if self.watch_configs:
                self._learn_configs(run, name)
            deleted = self.delete_names([name])
            dv = self.ranges[DELETE_TOPICS][1]
            if deleted.get(name) == 73 or (dv < 3 and deleted.get(name) == 42):
                raise Unsupported(f"the broker does not delete topics (DeleteTopics v{dv} answered "
                                  f"{error_name(deleted[name])}); S1 deletes topics in every row")
        finally:
            self.setup_script = run.script
            try:
                self.delete_owned(run.model.owns)
            except Violation:
                pass

    def _learn_configs(self, run: Run, name: str) -> None:
        dv = self.ranges[DESCRIBE_CONFIGS][1]
        dbody = {"resources": [{"resource_type": TOPIC_RESOURCE, "resource_name": name,
                                "configuration_keys": None}], "include_synonyms": False}
        if dv >= 3:
            dbody["include_documentation"] = False
        deadline = time.monotonic() + SETTLE_SECONDS
        dline = f"(setup) DescribeConfigs v{dv} {{resources: [{name} (all keys)]}}"
        while True:
            r = run.send(DESCRIBE_CONFIGS, dv, dbody, dline)
            res = [x for x in r.get("results") or [] if x.get("resource_name") == name]
            code = res[0]["error_code"] if len(res) == 1 else None
            if code == cm.NONE or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
        if code != cm.NONE:
            run.fail(f"setup: DescribeConfigs of a fresh topic answered "
                     f"{error_name(code) if code is not None else f'{len(res)} results'}", f"{dline} -> {code}")
        run.script.append(f"{dline} -> NONE ({len(res[0].get('configs') or [])} configs)")
        self.defaults.configs = {c["name"]: (c.get("value"), c.get("config_source"))
                                 for c in res[0].get("configs") or []}
        self.defaults.configs_known = True

    def delete_owned(self, owns) -> dict:
        """Delete the topics ``owns`` accepts; their DeleteTopics codes by name."""
        v = self.ranges[METADATA][1]
        body = {"topics": None}
        if v >= 4:
            body["allow_auto_topic_creation"] = False
        resp = self.client.answered(METADATA, v, body)
        return self.delete_names(sorted(t["name"] for t in resp.get("topics") or [] if owns(t.get("name"))))

    def delete_names(self, names: list[str]) -> dict:
        if not names:
            return {}
        dv = self.ranges[DELETE_TOPICS][1]
        if dv >= 6:
            dbody = {"topics": [{"name": n, "topic_id": cm.ZERO_UUID} for n in names], "timeout_ms": TIMEOUT_MS}
        else:
            dbody = {"topic_names": names, "timeout_ms": TIMEOUT_MS}
        resp = self.client.answered(DELETE_TOPICS, dv, dbody)
        return {r.get("name"): r["error_code"] for r in resp.get("responses") or []}

    # -- runs and failures ------------------------------------------------------------------------
    def new_run(self, sub: str | None = None) -> Run:
        self.check.examples += 1
        self.check.steps = []
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
                   "requests": list(self.check.steps), "problem": problem}
        if self.first_failure is None:
            self.first_failure = failure
        self.last_failure = failure

    def header(self, sub: str) -> str:
        return f"# S1, focus {NAMES[self.focus]}; kac-.. is {sub}"

    def message(self, run: Run, problem: str) -> str:
        lines = run.script[-SCRIPT_LINES_IN_MESSAGE:]
        skipped = len(run.script) - len(lines)
        return "\n".join([_abbrev(problem, run.sub), self.header(run.sub)]
                         + ([f"   ... {skipped} earlier line(s)"] if skipped else []) + lines)

    def counterexample(self, failure: dict) -> dict:
        return {"input": {"sub": failure["sub"], "steps": failure["ops"]},
                "steps": failure["requests"],
                "script": [self.header(failure["sub"])] + failure["script"],
                "prefix": self.check.prefix}

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
            self.check.counterexample = self.counterexample(
                {"sub": run.sub, "ops": list(run.ops), "script": list(run.script),
                 "requests": list(self.check.steps)})

    def violation(self, failure: dict, note: str = "") -> Violation:
        self.check.counterexample = self.counterexample(failure)
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

    S1Machine.__name__ = S1Machine.__qualname__ = f"S1{NAMES[ctx.focus]}"
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
    if replay is not None:
        _replay(ctx, replay)
        return
    profile = ctx.profile
    cfg = settings(max_examples=check.session.max_examples, stateful_step_count=STEPS.get(profile, 20),
                   deadline=None, database=None, report_multiple_bugs=False, derandomize=False,
                   suppress_health_check=list(HealthCheck),
                   phases=[Phase.explicit, Phase.generate, Phase.shrink])
    machine = machine_class(ctx)
    machine._hypothesis_internal_use_seed = check.seed
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
    """Candidates with one step removed, then with one item of a step's lists removed."""
    for i in range(len(ops)):
        yield ops[:i] + ops[i + 1:]
    for i, op in enumerate(ops):
        for field in ("topics", "resources"):
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
        api = KEYS.get(op["api"])
        if "v" in op and api is not None:
            rng = ctx.ranges.get(api)
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
