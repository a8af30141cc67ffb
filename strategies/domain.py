"""Realistic values and admin requests, confined to one run's topic prefix.

Every topic name a strategy here makes for a request starts with the run's prefix, so a run
only ever touches its own topics (the exceptions are ``""``, ``"."`` and ``".."``, which
cannot name a topic at all). Kafka's rules come from ``reference`` (topic names:
``topic_names``, Topic.java; topic configs: ``topic_config``, LogConfig.java); this module
only chooses which values to draw. It imports nothing else from ``conformance``.
"""
from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference.release_lines import SEGMENT_BYTES_MIN
from reference.request_rules import BROKER_DEFAULT, BROKER_DEFAULTS
from reference.topic_config import CONFIGS, INT32, INT64, LIST_KEYS
from reference.topic_names import LEGAL_CHARS, MAX_NAME_LENGTH, collision_key
from protocol import AlterConfigOp, ConfigResourceType, codec, schema_facts
from protocol.apis import ADMIN, DECLARATIONS, ApiKey
from protocol.wire import INT16_MAX, INT16_MIN
from . import schema
from .bodies import generic_request
from .entities import RunNames

#: Request timeouts: long enough for a loaded broker, short enough to fail a run quickly.
TIMEOUT_MS = 5000
#: DeleteRecordsRequest.HIGH_WATERMARK: delete up to the high watermark.
HIGH_WATERMARK = -1
INT32_MIN, INT32_MAX = INT32
INT64_MAX = INT64[1]
#: Kept for other modules (conformance/batch_model.py, provoke.py, test_version_equivalence.py,
#: test_delete_topics.py import them from here): the protocol's enum values and the
#: reference's names, to be imported from protocol.apis / reference instead.
#: Plain ints, not the enum members: batches.py prints drawn items with repr() into result
#: messages, which must keep their text.
TOPIC = int(ConfigResourceType.TOPIC)
SET, DELETE, APPEND, SUBTRACT = (int(op) for op in (AlterConfigOp.SET, AlterConfigOp.DELETE,
                                                     AlterConfigOp.APPEND, AlterConfigOp.SUBTRACT))


# -- topic names ---------------------------------------------------------------------------

def _check_prefix(prefix: str) -> str:
    if not prefix or len(prefix) > 200 or set(prefix) - set(LEGAL_CHARS) or set(prefix) == {"."}:
        raise ValueError(f"run prefix {prefix!r} must be 1..200 of {LEGAL_CHARS!r}, not only dots")
    return prefix


def valid_topic_names(prefix: str) -> SearchStrategy[str]:
    """Names Topic.validate accepts (1..249 chars of [a-zA-Z0-9._-], not '.'/'..'), all
    starting with ``prefix``; mostly short, sometimes exactly 249 long."""
    room = MAX_NAME_LENGTH - len(_check_prefix(prefix))
    short = st.text(LEGAL_CHARS, min_size=1, max_size=min(room, 24))
    longest = st.text(LEGAL_CHARS, min_size=room, max_size=room)
    suffix = st.integers(0, 4).flatmap(lambda i: longest if i == 4 else short)
    return suffix.map(lambda s: prefix + s)


def invalid_topic_names(prefix: str | None = None, labelled: bool = False,
                        prefixed_only: bool = False) -> SearchStrategy:
    """Names Topic.validate rejects: empty, '.', '..', longer than 249, or with a character
    outside [a-zA-Z0-9._-]. With ``prefix``, the long and illegal-character ones start with
    it (so a broker that wrongly accepts one creates a topic the run can clean up). With
    ``labelled``, examples are ``(reason, name)``. ``prefixed_only`` (for a cluster the
    suite did not start) leaves out the names that cannot carry the prefix ("", ".", "..")."""
    p = _check_prefix(prefix) if prefix else ""
    illegal = st.characters(exclude_characters=LEGAL_CHARS, exclude_categories=("Cs",))
    cases = {
        "empty": st.just(""),
        "dot": st.sampled_from([".", ".."]),
        "too long": st.integers(MAX_NAME_LENGTH + 1, 400).flatmap(
            lambda n: st.text(LEGAL_CHARS, min_size=n - len(p), max_size=n - len(p))),
        "illegal character": st.tuples(st.text(LEGAL_CHARS, max_size=8), illegal,
                                       st.text(LEGAL_CHARS, max_size=8)).map("".join),
    }
    if prefixed_only:
        cases = {r: s for r, s in cases.items() if r in ("too long", "illegal character")}
    out = [s.map(lambda n, r=r: (r, (p + n) if r in ("too long", "illegal character") else n))
           for r, s in cases.items()]
    return st.one_of(out) if labelled else st.one_of(out).map(lambda rn: rn[1])


# -- partitions and replicas ---------------------------------------------------------------

def partition_counts(max_count: int = 8) -> SearchStrategy[int]:
    """Valid partition counts, 1..max_count."""
    return st.integers(1, max_count)


def invalid_partition_counts() -> SearchStrategy[int]:
    """0 and negatives other than -1 (``BROKER_DEFAULT``): INVALID_PARTITIONS."""
    return st.one_of(st.just(0), st.just(-2), st.integers(INT32_MIN, -2))


def replication_factors(max_factor: int = 1) -> SearchStrategy[int]:
    """Valid replication factors for a cluster of ``max_factor`` brokers."""
    return st.integers(1, max_factor)


def invalid_replication_factors(brokers: int = 1) -> SearchStrategy[int]:
    """0, negatives other than -1, and more replicas than ``brokers``: INVALID_REPLICATION_FACTOR."""
    return st.one_of(st.just(0), st.integers(INT16_MIN, -2), st.integers(brokers + 1, INT16_MAX))


# -- topic configs -------------------------------------------------------------------------

def _ints(lo, hi=INT32_MAX):
    return st.integers(lo, hi).map(str)


def _from_min(key, hi=None):
    """Valid: from ``key``'s lower bound (the reference's ``atLeast``) up to ``hi``
    (default: the largest value of its type)."""
    top = {"int": INT32_MAX, "long": INT64_MAX}[CONFIGS[key].type]
    return _ints(CONFIGS[key].min, top if hi is None else hi)


def _below_min(key, lo):
    """Refused: ``lo`` up to one below ``key``'s lower bound."""
    return _ints(lo, CONFIGS[key].min - 1)


_NOT_A_NUMBER = st.sampled_from(["abc", "1.5", "0x10", "1e3", "ten"])
_NOT_A_BOOL = st.sampled_from(["yes", "1", "on", "maybe"])

#: name -> (valid values, invalid values) for the reference's non-throttled topic configs
#: (reference/topic_config.py: LogConfig's ConfigDef): bounds and allowed
#: values are the reference's, the ranges drawn from them realistic ones.
TOPIC_CONFIGS: dict[str, tuple[SearchStrategy[str], SearchStrategy[str]]] = {
    "cleanup.policy": (st.sampled_from(["delete", "compact", "compact,delete", "delete,compact"]),
                       st.sampled_from(["purge", "compact,purge", "Delete"])),
    "retention.ms": (_from_min("retention.ms"), _NOT_A_NUMBER | _below_min("retention.ms", -1000)),
    # no bound: every LONG is valid; drawn from -1 (no limit) up
    "retention.bytes": (_ints(-1, INT64_MAX), _NOT_A_NUMBER),
    # valid on every line (>= 1 MiB, 4.1's floor; <= 1 GiB, the default, for the disks' sake);
    # refused: below the floor of the broker's line (drawn when the check runs)
    "segment.bytes": (_ints(1 << 20, 1 << 30), _NOT_A_NUMBER
                      | st.integers(0, (1 << 20) - 1).map(lambda n: str(n % SEGMENT_BYTES_MIN.now()))
                      | st.just(str(INT32_MAX + 1))),
    "segment.ms": (_from_min("segment.ms"), _NOT_A_NUMBER | _below_min("segment.ms", -1000)),
    "max.message.bytes": (_from_min("max.message.bytes"),
                          _NOT_A_NUMBER | _below_min("max.message.bytes", INT32_MIN)),
    "min.insync.replicas": (_from_min("min.insync.replicas", 3),
                            _NOT_A_NUMBER | _below_min("min.insync.replicas", -10)),
    "delete.retention.ms": (_from_min("delete.retention.ms"),
                            _NOT_A_NUMBER | _below_min("delete.retention.ms", -1000)),
    "file.delete.delay.ms": (_from_min("file.delete.delay.ms"),
                             _NOT_A_NUMBER | _below_min("file.delete.delay.ms", -1000)),
    "index.interval.bytes": (_from_min("index.interval.bytes"),
                             _NOT_A_NUMBER | _below_min("index.interval.bytes", -1000)),
    "min.cleanable.dirty.ratio": (st.sampled_from(["0", "0.5", "0.01", "1", "1.0"]),
                                  st.sampled_from(["1.5", "-0.1", "half"])),
    "compression.type": (st.sampled_from(CONFIGS["compression.type"].values),
                         st.sampled_from(["brotli", "deflate", "none"])),
    "message.timestamp.type": (st.sampled_from(CONFIGS["message.timestamp.type"].values),
                               st.sampled_from(["NoTimestampType", "ServerTime"])),
    "unclean.leader.election.enable": (st.sampled_from(["true", "false"]), _NOT_A_BOOL),
}

_REPLICA = st.builds("{}:{}".format, st.integers(0, 7), st.integers(0, 3))
#: The reference's LIST-typed topic configs and elements APPEND/SUBTRACT take
#: (IncrementalAlterConfigs, KIP-339); the throttled-replica lists' elements are
#: partition:broker items (ThrottledReplicaListValidator).
LIST_CONFIGS: dict[str, SearchStrategy[str]] = {
    k: (_REPLICA if CONFIGS[k].item_pattern else st.sampled_from(["delete", "compact"])) for k in sorted(LIST_KEYS)
}


def topic_config_entries(valid: bool = True, names=None) -> SearchStrategy[tuple[str, str]]:
    """``(name, value)`` of a real topic config with a value its validator accepts (or, with
    ``valid=False``, rejects: INVALID_CONFIG)."""
    names = sorted(names or TOPIC_CONFIGS)
    return st.one_of([TOPIC_CONFIGS[n][0 if valid else 1].map(lambda v, n=n: (n, v)) for n in names])


def list_config_elements() -> SearchStrategy[tuple[str, str]]:
    """``(name, element)`` for APPEND/SUBTRACT on a LIST-typed topic config."""
    return st.one_of([s.map(lambda v, n=n: (n, v)) for n, s in sorted(LIST_CONFIGS.items())])


def unknown_config_keys() -> SearchStrategy[str]:
    """Config names no topic has: made-up keys and near misses of real ones (config names
    are case-sensitive)."""
    real = sorted(set(TOPIC_CONFIGS) | set(LIST_CONFIGS))
    return st.one_of(
        st.from_regex(r"conformance\.[a-z]{1,10}(\.[a-z]{1,10})?", fullmatch=True),
        st.sampled_from(real).map(lambda k: k + "_x"),
        st.sampled_from(real).map(str.upper),
        st.sampled_from(real).map(lambda k: k.replace(".", "_")),
    )


# -- admin requests ------------------------------------------------------------------------

def _guarded(prefix: str, names: SearchStrategy) -> SearchStrategy:
    def check(name):
        if name is not None and name not in ("", ".", "..") and not name.startswith(prefix):
            raise ValueError(f"topic {name!r} is outside the run prefix {prefix!r}")
        return name
    return names.map(check)


def _topic_list(item, key, min_size=1):
    return st.lists(item, min_size=min_size, max_size=schema.MAX_ITEMS,
                    unique_by=lambda t: collision_key(t[key] or ""))


def _config_pairs():
    return st.lists(topic_config_entries(), max_size=schema.MAX_ITEMS, unique_by=lambda kv: kv[0]
                    ).map(lambda kvs: [{"name": k, "value": v} for k, v in kvs])


def _incremental_op():
    return st.one_of(
        topic_config_entries().map(lambda kv: {"name": kv[0], "config_operation": AlterConfigOp.SET, "value": kv[1]}),
        st.sampled_from(sorted(TOPIC_CONFIGS)).map(
            lambda k: {"name": k, "config_operation": AlterConfigOp.DELETE, "value": None}),
        st.tuples(list_config_elements(), st.sampled_from([AlterConfigOp.APPEND, AlterConfigOp.SUBTRACT])).map(
            lambda t: {"name": t[0][0], "config_operation": t[1], "value": t[0][1]}),
    )


def _metadata(v, names, item):
    topics = _topic_list(item("topics", name=names, topic_id=None), "name", min_size=0)
    nullable = schema_facts.nullable(ApiKey.Metadata, v, "topics")      # null: every topic
    return {"topics": st.none() | topics if nullable else topics, "allow_auto_topic_creation": False}


def _api_versions(v, names, item):
    # ApiVersionsRequest.SOFTWARE_NAME_VERSION_PATTERN: [a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?
    return {"client_software_name": "kafka-admin-conformance", "client_software_version": "0.1.0"}


def _create_topics(v, names, item):
    default = [st.just(BROKER_DEFAULT)] if BROKER_DEFAULTS.holds_at(v) else []
    topic = item("topics", name=names, assignments=[], configs=_config_pairs(),
                 num_partitions=st.one_of(partition_counts(), *default),
                 replication_factor=st.one_of(replication_factors(), *default))
    return {"topics": _topic_list(topic, "name"), "timeout_ms": TIMEOUT_MS}


def _delete_topics(v, names, item):
    if schema_facts.has_field(ApiKey.DeleteTopics, v, "topic_names"):
        return {"topic_names": st.lists(names, min_size=1, max_size=schema.MAX_ITEMS,
                                        unique_by=collision_key), "timeout_ms": TIMEOUT_MS}
    topic = item("topics", name=names, topic_id=None)
    return {"topics": _topic_list(topic, "name"), "timeout_ms": TIMEOUT_MS}


def _delete_records(v, names, item):
    part = item("topics.partitions", partition_index=st.integers(0, 3),
                offset=st.one_of(st.just(HIGH_WATERMARK), st.integers(0, 1000)))
    parts = st.lists(part, min_size=1, max_size=schema.MAX_ITEMS, unique_by=lambda p: p["partition_index"])
    return {"topics": _topic_list(item("topics", name=names, partitions=parts), "name"),
            "timeout_ms": TIMEOUT_MS}


def _describe_configs(v, names, item):
    keys = st.none() | st.lists(st.sampled_from(sorted(TOPIC_CONFIGS)), max_size=3, unique=True)
    res = item("resources", resource_type=ConfigResourceType.TOPIC, resource_name=names, configuration_keys=keys)
    return {"resources": _topic_list(res, "resource_name")}


def _alter_configs(v, names, item):
    res = item("resources", resource_type=ConfigResourceType.TOPIC, resource_name=names, configs=_config_pairs())
    return {"resources": _topic_list(res, "resource_name")}


def _create_partitions(v, names, item):
    topic = item("topics", name=names, count=partition_counts(), assignments=None)
    return {"topics": _topic_list(topic, "name"), "timeout_ms": TIMEOUT_MS}


def _incremental_alter_configs(v, names, item):
    ops = st.lists(_incremental_op(), max_size=schema.MAX_ITEMS, unique_by=lambda c: c["name"])
    res = item("resources", resource_type=ConfigResourceType.TOPIC, resource_name=names, configs=ops)
    return {"resources": _topic_list(res, "resource_name")}


_ADMIN = {ApiKey.Metadata: _metadata, ApiKey.ApiVersions: _api_versions, ApiKey.CreateTopics: _create_topics,
          ApiKey.DeleteTopics: _delete_topics, ApiKey.DeleteRecords: _delete_records,
          ApiKey.DescribeConfigs: _describe_configs, ApiKey.AlterConfigs: _alter_configs,
          ApiKey.CreatePartitions: _create_partitions, ApiKey.IncrementalAlterConfigs: _incremental_alter_configs}


def admin_request(api_key: int, version: int, prefix: str, names: SearchStrategy | None = None,
                  overrides: dict | None = None) -> SearchStrategy[dict]:
    """Semantically realistic request bodies for an admin API at any version 0..max. The
    APIs of ``_ADMIN`` below have generators of their own; every other declared admin API's
    bodies come from its schema (:func:`strategies.bodies.generic_request`: the run's names,
    the safe values of ``strategies/safe_values.py``). Topics named by ``names`` (default
    :func:`valid_topic_names`) and unique up to '.'/'_' collision, resource type TOPIC, real configs with valid values, sane counts,
    ``TIMEOUT_MS`` timeouts; fields not fixed here are schema-generated. ``overrides`` (as
    for :func:`strategies.schema.request_body`) replace a top-level field or one in the
    per-topic/per-resource structs (``{"topics.num_partitions": 0}``); config lists are
    replaced whole (``"topics.configs"``, ``"resources.configs"``). Topic names are set
    through ``names`` only, which keeps them inside the prefix."""
    declared = DECLARATIONS.get(api_key)
    if declared is None or declared.role is not ADMIN:
        raise KeyError(f"no admin request strategy for API {api_key}: declare it an admin API (protocol/apis.py) "
                       "or add a generator to strategies/domain.py _ADMIN (docs/CONTRIBUTING-properties.md, "
                       "'Adding an API')")
    for k in overrides or {}:
        if k in ("topics.name", "topic_names", "resources.resource_name"):
            raise ValueError(f"set topic names with names=, not the {k!r} override")
        if k.startswith(("topics.configs.", "resources.configs.")):
            raise ValueError("override a config list whole, not its fields")
    names = _guarded(_check_prefix(prefix), names if names is not None else valid_topic_names(prefix))
    ov = dict(overrides or {})
    if api_key not in _ADMIN:      # from the schema: the run's names, strategies/safe_values.py's rules
        return generic_request(api_key, version, RunNames(prefix, names), ov)

    def item(path, **fixed):  # one struct of the array at ``path``, the caller's overrides last
        nested = {k[len(path) + 1:]: s for k, s in ov.items() if k.startswith(path + ".")}
        return schema.element(codec.APIS[api_key].request, path, version, {**fixed, **nested})

    return schema.request_body(api_key, version, {**_ADMIN[api_key](version, names, item), **ov})
