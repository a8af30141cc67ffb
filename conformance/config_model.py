"""A pure model of a topic's configuration as released Apache Kafka keeps it (catalogue C1-C4).

No broker is touched here: the properties in ``test_configs.py`` drive a broker and compare
what it answers with what this model predicts. Every rule cites the Apache Kafka 4.x file it
follows (paths in apache/kafka):

* ``ConfigurationControlManager.incrementalAlterConfigResource`` / ``getParts``
  (metadata/src/main/java/org/apache/kafka/controller/): SET replaces, DELETE removes the
  override, APPEND/SUBTRACT work on the comma-split stored value -- or on the *ConfigDef*
  default when the key is not overridden -- APPEND adds a value only if absent, SUBTRACT of
  an absent value changes nothing, APPEND/SUBTRACT on a non-LIST or unknown key answer
  INVALID_CONFIG, and one failing operation fails the whole resource.
* ``ConfigurationControlManager.legacyAlterConfigResource``: AlterConfigs replaces the whole
  override map (keys it does not name are deleted).
* ``ControllerConfigurationValidator.validate`` -> ``LogConfig.validate``
  (storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java): unknown names
  and values the ConfigDef rejects answer INVALID_CONFIG. The ConfigDef rows (types, defaults,
  bounds, allowed values, which keys are LIST) are ``reference/topic_config.py``'s.
* ``ConfigHelper.describeConfigs`` / ``createTopicConfigEntry`` (core/.../server/ConfigHelper.scala):
  DescribeConfigs lists every topic config with its *parsed* value rendered by
  ``ConfigDef.convertToString`` (so "1" for a DOUBLE reads back as "1.0", "compact, delete"
  as "compact,delete"), ``config_source`` TOPIC_CONFIG (1) for an override.

Values are compared by what they mean for their ConfigDef type (:func:`normalise`), not by
their spelling, so a broker that renders 1 as "1" where Kafka renders "1.0" is not failed for
that; a different number, list (order included), boolean or string is a difference.
"""
from __future__ import annotations

import heapq
import re
from dataclasses import dataclass, field

from protocol import AlterConfigOp, ConfigSource
from protocol.errors import Errors

from reference.topic_config import CONFIGS, LIST_KEYS, value_range

#: The error codes :func:`error_text` names (others print as the number alone).
_NAMED = (Errors.NONE, Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.INVALID_CONFIG, Errors.INVALID_REQUEST,
          Errors.UNKNOWN_SERVER_ERROR)


def _kind(key: str) -> str:
    """How a reference row is judged: its ConfigDef type, or "throttled" for a LIST whose
    items follow ThrottledReplicaListValidator rather than ``ValidList.in``."""
    return "throttled" if CONFIGS[key].item_pattern else CONFIGS[key].type


#: ``configSchema.getDefault(TOPIC, key)`` rendered by ``ConfigDef.convertToString``: what
#: APPEND/SUBTRACT start from when the topic has no override (``getParts``). It is the
#: ConfigDef default, not a broker-level override (ServerLogConfigs.LOG_CLEANUP_POLICY_DEFAULT
#: = "delete"; QuotaConfig.*_REPLICATION_THROTTLED_REPLICAS_DEFAULT = "").
CONFIGDEF_DEFAULTS = {k: CONFIGS[k].default for k in sorted(LIST_KEYS)}

#: Every key Kafka 4.x's DescribeConfigs lists for a topic with no overrides (LogConfig's
#: non-internal names) among those the properties touch.
ALWAYS_DESCRIBED = frozenset(CONFIGS)

_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def list_parts(value: str) -> list[str]:
    """``ConfigDef.parseType(LIST)``: "" is the empty list, otherwise split on commas with the
    whitespace around them trimmed."""
    value = value.strip()
    return [] if not value else [p.strip() for p in value.split(",")]


def stored_parts(value: str) -> list[str]:
    """``getParts``: the stored value split on "," with empty parts dropped (no trimming)."""
    return [p for p in value.split(",") if p]


def valid_value(key: str, value: str) -> bool | None:
    """Does LogConfig accept ``value`` for ``key``? None when this model cannot tell (the
    properties only generate values it can)."""
    if key not in CONFIGS:
        return False                                   # LogConfig.validateNames
    c, kind = CONFIGS[key], _kind(key)
    s = value.strip()
    if kind in ("int", "long"):
        if not _INTEGER.fullmatch(s):
            return False
        lo, hi = value_range(key)
        return lo <= int(s) <= hi
    if kind == "double":
        if not _DECIMAL.fullmatch(s):
            return False if s.isalpha() and s.lower() not in ("nan", "infinity") else None
        lo, hi = value_range(key)
        return lo <= float(s) <= hi
    if kind == "boolean":
        return s.lower() in ("true", "false")
    if kind == "string":
        return s in c.values
    parts = list_parts(value)
    if len(set(parts)) != len(parts):
        return None        # duplicates: accepted before KIP-1161's ValidList, refused after
    if kind == "list":
        return all(p in c.values for p in parts)
    return parts == [c.wildcard] or all(re.fullmatch(c.item_pattern, p) for p in parts)   # throttled


def normalise(key: str, value):
    """What a described value means for ``key``'s ConfigDef type (see the module doc). A
    value that does not parse as its type stays the raw string, so it compares unequal."""
    if value is None:
        return None
    kind = _kind(key) if key in CONFIGS else "raw"
    s = value.strip()
    try:
        if kind in ("int", "long") and _INTEGER.fullmatch(s):
            return ("number", int(s))
        if kind == "double" and _DECIMAL.fullmatch(s):
            return ("number", float(s))
    except ValueError:
        pass
    if kind == "boolean" and s.lower() in ("true", "false"):
        return ("bool", s.lower() == "true")
    if kind in ("list", "throttled"):
        return ("list", tuple(list_parts(value)))
    return value


def config_type(key: str) -> str | None:
    """How the judge compares ``key``'s described values (its ``as``: int, double, boolean or
    list), the meaning :func:`normalise` gives them; None compares the text."""
    kind = _kind(key) if key in CONFIGS else "raw"
    return {"int": "int", "long": "int", "double": "double", "boolean": "boolean", "list": "list",
            "throttled": "list"}.get(kind)


@dataclass(frozen=True)
class Described:
    """One config entry as DescribeConfigs showed it."""
    value: str | None
    source: int | None       # None below DescribeConfigs v1


def described(configs: dict[str, dict]) -> dict[str, Described]:
    return {k: Described(c.get("value"), c.get("config_source")) for k, c in configs.items()}


@dataclass
class TopicConfigModel:
    """The config map of one topic: the defaults its fresh DescribeConfigs showed plus the
    overrides the model applied (stored as Kafka stores them: the raw string)."""
    defaults: dict[str, Described]
    overrides: dict[str, str] = field(default_factory=dict)

    def copy(self) -> "TopicConfigModel":
        return TopicConfigModel(dict(self.defaults), dict(self.overrides))

    # -- IncrementalAlterConfigs ---------------------------------------------------------
    def incremental(self, ops: list[tuple[str, int, str | None]]) -> tuple[int, "TopicConfigModel"]:
        """(error code, model after) for one resource's operations (distinct names, known
        op types, non-null values except for DELETE: the preprocess errors are C4's)."""
        new = dict(self.overrides)
        for name, op, value in ops:
            current = self.overrides.get(name)
            if op == AlterConfigOp.SET:
                new[name] = value
            elif op == AlterConfigOp.DELETE:
                new.pop(name, None)
            elif op in (AlterConfigOp.APPEND, AlterConfigOp.SUBTRACT):
                if name not in LIST_KEYS:
                    return Errors.INVALID_CONFIG, self          # "Can't APPEND to key k because its type is not LIST."
                parts = stored_parts(current if current is not None else CONFIGDEF_DEFAULTS[name])
                for v in value.split(","):               # Java's String.split: we never send empty parts
                    if op == AlterConfigOp.APPEND:
                        if v not in parts:
                            parts.append(v)
                    elif v in parts:
                        parts.remove(v)                  # List.remove(Object): the first occurrence
                new[name] = ",".join(parts)
            else:
                raise ValueError(f"op {op} is not one the model knows")
        for name in {n for n, _, _ in ops}:
            if name in new:                              # LogConfig.validate of the result
                verdict = valid_value(name, new[name])
                if verdict is None:
                    raise ValueError(f"the model cannot tell whether {name}={new[name]!r} is valid")
                if not verdict:
                    return Errors.INVALID_CONFIG, self
        return Errors.NONE, TopicConfigModel(self.defaults, new)

    # -- AlterConfigs --------------------------------------------------------------------
    def replace(self, configs: dict[str, str]) -> tuple[int, "TopicConfigModel"]:
        """``legacyAlterConfigResource``: the named keys become the whole override map."""
        for name, value in configs.items():
            verdict = valid_value(name, value)
            if verdict is None:
                raise ValueError(f"the model cannot tell whether {name}={value!r} is valid")
            if not verdict:
                return Errors.INVALID_CONFIG, self
        return Errors.NONE, TopicConfigModel(self.defaults, dict(configs))

    # -- what DescribeConfigs must show ----------------------------------------------------
    def expected(self) -> dict[str, Described]:
        out = dict(self.defaults)
        for k, v in self.overrides.items():
            out[k] = Described(v, ConfigSource.TOPIC_CONFIG)
        return out

    def differences(self, seen: dict[str, Described], check_source: bool = True) -> list[str]:
        """How DescribeConfigs (``seen``) differs from the model; [] when it matches."""
        want = self.expected()
        out = []
        for k in sorted(set(want) | set(seen)):
            w, s = want.get(k), seen.get(k)
            if w is None:
                out.append(f"{k}={s.value!r} is described but the model has no such key")
                continue
            if s is None:
                out.append(f"{k} is missing (model: {w.value!r})")
                continue
            if normalise(k, w.value) != normalise(k, s.value):
                what = "override" if k in self.overrides else "default"
                out.append(f"{k}={s.value!r}, model {what} {w.value!r}")
            if check_source and s.source is not None:
                if k in self.overrides and s.source != ConfigSource.TOPIC_CONFIG:
                    out.append(f"{k}: config_source {s.source}, expected TOPIC_CONFIG (1) for an override")
                elif k not in self.overrides and s.source == ConfigSource.TOPIC_CONFIG:
                    out.append(f"{k}: config_source TOPIC_CONFIG (1) but the topic has no override")
        return out


def ops_text(ops) -> str:
    return ", ".join(f"{_op_name(op)} {k}" + ("" if op == AlterConfigOp.DELETE else f"={v!r}")
                     for k, op, v in ops)


def _op_name(op) -> str:
    try:
        return AlterConfigOp(op).name
    except ValueError:
        return f"OP{op}"


def error_text(code) -> str:
    name = Errors(code).name if code in _NAMED else ""
    return f"{code} {name}".strip()


# -- C2: history of concurrent writers ---------------------------------------------------------

@dataclass
class Write:
    """One acknowledged (or failed) IncrementalAlterConfigs SET of one key."""
    key: str
    value: str
    sent: float
    acked: float | None = None          # None: no successful answer
    code: int | None = None


@dataclass
class Observation:
    """A DescribeConfigs answer: sent at ``sent``, answered at ``answered``."""
    sent: float
    answered: float
    values: dict[str, str | None]
    by: str = ""


#: How long after an acknowledgement a read may still miss the write. Kafka answers
#: IncrementalAlterConfigs once the controller committed the record, but a broker applies
#: committed records to the metadata image it serves DescribeConfigs from asynchronously
#: (BrokerMetadataPublisher); Kafka's own tests wait (``ensureConsistentKRaftMetadata``,
#: ``waitUntilTrue``) before describing. A lost update never becomes visible, so the final
#: state and monotonic reads still catch it.
VISIBILITY_LAG_S = 1.0


def history_violations(writes_by_key: dict[str, list[Write]], initial: dict[str, str | None],
                       observations: list[Observation], lag: float = VISIBILITY_LAG_S) -> list[str]:
    """Each key has one writer that writes in order, every value unique. Reads (all against
    the same broker) must (1) show only the initial value or a value sent before the read
    was answered, (2) never go back: a read sent after another was answered shows the same
    or a later write of each key, (3) show every write acknowledged more than ``lag``
    before the read was sent, or a later one. A lost update breaks (2), (3) or the final
    state."""
    out = []
    index: dict[tuple[str, object], int] = {}
    for key, writes in writes_by_key.items():
        index[(key, normalise(key, initial.get(key)))] = -1
        for j, w in enumerate(writes):
            index[(key, normalise(key, w.value))] = j
    placed: list[Observation] = []
    pending: list = []                 # heap of (answered, n, observation, {key: write index})
    high: dict[str, tuple[int, Observation]] = {}   # newest write index a finished read showed
    for obs in sorted(observations, key=lambda o: o.sent):
        where = {}
        for key, writes in writes_by_key.items():
            j = index.get((key, normalise(key, obs.values.get(key))))     # absent reads as None
            if j is None or (j >= 0 and writes[j].sent >= obs.answered):
                out.append(f"{obs.by}DescribeConfigs sent at {obs.sent:.3f}s shows {key}={obs.values.get(key)!r}: "
                           f"neither its initial value {initial.get(key)!r} nor a value written to it by then")
                continue
            where[key] = j
            due = [i for i, w in enumerate(writes) if w.acked is not None and w.acked + lag < obs.sent]
            if due and j < due[-1]:
                w = writes[due[-1]]
                out.append(f"{obs.by}DescribeConfigs sent at {obs.sent:.3f}s shows {key}={obs.values.get(key)!r}, "
                           f"but {key}={w.value!r} was acknowledged at {w.acked:.3f}s: a lost update")
        while pending and pending[0][0] < obs.sent:        # reads answered before this one was sent
            _, _, prev, prev_where = heapq.heappop(pending)
            for key, j in prev_where.items():
                if j > high.get(key, (-1, None))[0]:
                    high[key] = (j, prev)
        for key, j in where.items():
            top, prev = high.get(key, (-1, None))
            if top > j:
                out.append(f"{obs.by}DescribeConfigs sent at {obs.sent:.3f}s shows {key}={obs.values.get(key)!r}, "
                           f"older than {writes_by_key[key][top].value!r} that {prev.by}DescribeConfigs "
                           f"answered at {prev.answered:.3f}s showed: a write was undone (lost update)")
        heapq.heappush(pending, (obs.answered, len(placed), obs, where))
        placed.append(obs)
    return out


def changes(before: dict[str, Described], after: dict[str, Described]) -> list[str]:
    """How ``after`` differs from ``before`` (values by meaning, sources exactly); [] if not."""
    out = []
    for k in sorted(set(before) | set(after)):
        b, a = before.get(k), after.get(k)
        if b is None:
            out.append(f"{k}={a.value!r} appeared")
        elif a is None:
            out.append(f"{k} (was {b.value!r}) disappeared")
        elif normalise(k, b.value) != normalise(k, a.value):
            out.append(f"{k}: {b.value!r} -> {a.value!r}")
        elif b.source != a.source:
            out.append(f"{k}: config_source {b.source} -> {a.source}")
    return out
