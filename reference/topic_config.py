"""Kafka's topic configs the suite uses: one row per key, the one place their rules live.

Each row is LogConfig's ``ConfigDef`` entry for the key (apache/kafka
storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java, ``CONFIG``;
the names are ``TopicConfig``'s, clients/src/main/java/org/apache/kafka/common/config/TopicConfig.java,
and ``QuotaConfig``'s for the throttled-replica lists): its type, its default as
``ConfigDef.convertToString`` renders it, the validator as LogConfig writes it and what
that validator allows (``Range.atLeast`` / ``between`` bounds, ``ValidString.in`` /
``ValidList.in`` values, ``ThrottledReplicaListValidator``'s items), and whether the key
is list-valued (``Type.LIST``: the only keys IncrementalAlterConfigs' APPEND/SUBTRACT take,
``KafkaConfigSchema.isSplittable``). A bound that changed between release lines is a
:class:`~.releases.Rule` (read it with :func:`bound`).

Known line differences not modelled as a Rule: KIP-1161's ValidList refuses a list value
that repeats an element where earlier lines accepted it; the suite never sends one (the
config model answers "cannot tell" for it).

Pure data: the models (``conformance/config_model.py``, ``conformance/cluster_model.py``),
the strategies (``strategies/domain.py``, ``strategies/configs.py``) and T1's table
(``conformance/test_topics.py``) read it; it imports nothing but :mod:`.releases`.
"""
from __future__ import annotations

from dataclasses import dataclass

from .release_lines import SEGMENT_BYTES_MIN, Rule

LOGCONFIG = "apache/kafka storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java"

#: ``ConfigDef.Type.INT`` / ``LONG`` ranges (what parses at all).
INT32 = (-(1 << 31), (1 << 31) - 1)
INT64 = (-(1 << 63), (1 << 63) - 1)
TYPE_RANGE = {"int": INT32, "long": INT64}


@dataclass(frozen=True)
class TopicConfig:
    """One key of LogConfig's ConfigDef."""
    name: str
    type: str                               # ConfigDef.Type, lower case: int long double boolean string list
    default: str                            # the ConfigDef default, as ConfigDef.convertToString renders it
    validator: str | None = None            # as LogConfig writes it; None: the type alone
    min: int | float | Rule | None = None   # Range bound; None: the type's
    max: int | float | None = None
    values: tuple[str, ...] | None = None   # ValidString.in / ValidList.in (per element), in Kafka's order
    item_pattern: str | None = None         # ThrottledReplicaListValidator: every element matches ...
    wildcard: str | None = None             # ... or the list is this one value
    source: str = LOGCONFIG

    @property
    def list_valued(self) -> bool:
        return self.type == "list"

    @property
    def refusal(self) -> str:
        """Why LogConfig refuses a value: its validator, or the type for a key without one."""
        return self.validator or f"not a {self.type.upper()}"


def bound(value):
    """A bound for the broker under check (a :class:`~.releases.Rule` is read now)."""
    return value.now() if isinstance(value, Rule) else value


_THROTTLED = dict(type="list", default="", validator="ThrottledReplicaListValidator",
                  item_pattern=r"[0-9]+:[0-9]+", wildcard="*",
                  source=f"{LOGCONFIG} define(QuotaConfig.*_REPLICATION_THROTTLED_REPLICAS_CONFIG, LIST, "
                         "QuotaConfig.*_REPLICATION_THROTTLED_REPLICAS_DEFAULT = \"\", "
                         "ThrottledReplicaListValidator: \"*\" or partition:broker items)")

#: Every topic config the suite uses, by name, in this order.
CONFIGS: dict[str, TopicConfig] = {c.name: c for c in (
    TopicConfig("cleanup.policy", "list", "delete", "ValidList.in(compact, delete)",
                values=("compact", "delete"),
                source=f"{LOGCONFIG} define(TopicConfig.CLEANUP_POLICY_CONFIG, LIST, "
                       "ServerLogConfigs.LOG_CLEANUP_POLICY_DEFAULT = \"delete\", ValidList.in(...))"),
    TopicConfig("leader.replication.throttled.replicas", **_THROTTLED),
    TopicConfig("follower.replication.throttled.replicas", **_THROTTLED),
    TopicConfig("retention.ms", "long", "604800000", "atLeast(-1)", min=-1),
    TopicConfig("retention.bytes", "long", "-1"),
    TopicConfig("segment.bytes", "int", "1073741824", "atLeast(1024 * 1024) since 4.1, atLeast(14) before",
                min=SEGMENT_BYTES_MIN,
                source=SEGMENT_BYTES_MIN.source),
    TopicConfig("segment.ms", "long", "604800000", "atLeast(1)", min=1),
    TopicConfig("max.message.bytes", "int", "1048588", "atLeast(0)", min=0),
    TopicConfig("min.insync.replicas", "int", "1", "atLeast(1)", min=1),
    TopicConfig("delete.retention.ms", "long", "86400000", "atLeast(0)", min=0),
    TopicConfig("file.delete.delay.ms", "long", "60000", "atLeast(0)", min=0),
    TopicConfig("index.interval.bytes", "int", "4096", "atLeast(0)", min=0),
    TopicConfig("min.cleanable.dirty.ratio", "double", "0.5", "between(0, 1)", min=0.0, max=1.0),
    TopicConfig("compression.type", "string", "producer", "in(BrokerCompressionType.names())",
                values=("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")),
    TopicConfig("message.timestamp.type", "string", "CreateTime", "in(CreateTime, LogAppendTime)",
                values=("CreateTime", "LogAppendTime")),
    TopicConfig("unclean.leader.election.enable", "boolean", "false"),
)}

#: The list-valued keys (``Type.LIST``): APPEND/SUBTRACT apply to these and no others.
LIST_KEYS = frozenset(k for k, c in CONFIGS.items() if c.list_valued)


def value_range(key: str) -> tuple:
    """(lowest, highest) value LogConfig accepts for a numeric ``key`` on the broker's
    line: the validator's bounds, the type's where the validator sets none."""
    c = CONFIGS[key]
    lo_t, hi_t = TYPE_RANGE.get(c.type, (None, None))
    lo, hi = bound(c.min), bound(c.max)
    return (lo_t if lo is None else lo), (hi_t if hi is None else hi)
