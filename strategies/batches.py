"""Item kinds of the V (validate_only) and T (topics) batches: each kind's strategy and the
request entries it becomes.

An *item* is one entry of a CreateTopics, CreatePartitions, AlterConfigs or
IncrementalAlterConfigs request, described by its ``kind`` and the values hypothesis drew
for it (a JSON-able dict, so a counterexample can be stored and replayed), never by a
concrete topic name. A :class:`Kind` carries both halves: ``draw(params)``, the strategy
of its items, and ``entries(world, item, broker)``, the topic name the item uses and the
request entries it becomes, given a *world* that names topics (``fresh(hint)``,
``rename(name)``, ``existing_topic(hint, partitions, configs)``: ``conformance/batch_model.py``'s
``World``, which gives each starting state its own run-prefixed names). ``KINDS`` lists
them per API.

Item kinds follow what released Apache Kafka 4.x (KRaft) tells apart
(``docs/reference-semantics.md`` T1, T2, C4): a valid item, and one kind per refusal code.
Nothing here needs a broker.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from protocol import requests
from reference.request_rules import BROKER_DEFAULT, BROKER_DEFAULTS
from protocol import AlterConfigOp
from protocol.apis import ApiKey
from protocol.wire import INT16_MAX, INT16_MIN
from reference.known_deviations import ALTER_CONFIGS_RESOURCE_TWICE

from . import domain

#: The overrides every existing topic of a world starts with (so a config API that
#: replaces, drops or changes them shows in DescribeConfigs).
BASE_CONFIGS = {"retention.ms": "86400000", "segment.ms": "3600000"}

#: AlterConfigOp ids as plain ints: items are JSON and their text (``describe_item``) shows them.
SET, DELETE, APPEND, SUBTRACT = (int(op) for op in (AlterConfigOp.SET, AlterConfigOp.DELETE,
                                                    AlterConfigOp.APPEND, AlterConfigOp.SUBTRACT))


@dataclass(frozen=True)
class Params:
    """What item strategies depend on: the request's version, the run's prefix, the first
    replication factor the cluster certainly refuses, whether names must carry a
    world's prefix (``mappable``: leaves out "", ".", "..", which name the same
    (non-)topic in every world), and the request shapes of known deviations of the broker
    under check to leave out (``avoid``, reference.known_deviations.avoided_shapes)."""
    version: int = 0
    prefix: str = ""
    rf_floor: int = 2
    mappable: bool = True
    avoid: frozenset = frozenset()


@dataclass(frozen=True)
class Kind:
    """One kind of item of one API. ``valid``: released Kafka answers NONE to it alone;
    ``relational``: its verdict depends on another entry of the same request; ``shape``: the
    known-deviation request shape (reference/known_deviations.py) a request holding the
    item has, if any: left out where that shape is avoided."""
    api: ApiKey
    name: str
    draw: Callable[[Params], SearchStrategy[dict]]
    entries: Callable[[Any, dict, int], tuple[str, list]]
    valid: bool = False
    relational: bool = False
    shape: str | None = None


def _kind(kind: str, **fields) -> SearchStrategy[dict]:
    return st.fixed_dictionaries({"kind": st.just(kind), **fields})


def _configs(valid: bool = True, max_size: int = 2):
    return st.lists(domain.topic_config_entries(valid), max_size=max_size,
                    unique_by=lambda kv: kv[0]).map(lambda kvs: [list(kv) for kv in kvs])


def _with_bad(it) -> list:
    """The item's configs with its bad pair in place of any pair of the same key."""
    return [kv for kv in it["configs"] if kv[0] != it["bad"][0]] + [it["bad"]]


# -- CreateTopics ---------------------------------------------------------------------------
# entries: requests.topic(...) dicts; the name is fresh unless the kind says otherwise.

def _partitions(p: Params):
    default = [st.just(BROKER_DEFAULT)] if BROKER_DEFAULTS.holds_at(p.version) else []
    return st.one_of(domain.partition_counts(3), *default)


def _rf(p: Params):
    default = [st.just(BROKER_DEFAULT)] if BROKER_DEFAULTS.holds_at(p.version) else []
    return st.one_of(st.just(1), *default)


def _bad_name(p: Params):
    def ok(rn):
        return not p.mappable or rn[0] in ("too long", "illegal character")
    return domain.invalid_topic_names(p.prefix, labelled=True).filter(ok).map(
        lambda rn: {"kind": "bad_name", "reason": rn[0], "name": rn[1]})


def _topic(make_name=None, twice=False, **fields_of):
    """A CreateTopics kind's entries: ``fields_of[field](item, broker)`` for the fields
    that differ from a plain one-partition topic; ``make_name(world, item)`` or a fresh name."""
    def entries(world, it, broker):
        name = make_name(world, it) if make_name else None
        fields = {f: get(it, broker) for f, get in fields_of.items()}
        name = name or world.fresh(it["kind"].replace("_", ""))
        entry = requests.topic(name, **fields)
        return name, [entry, dict(entry)] if twice else [entry]
    return entries


CREATE_TOPICS_KINDS = (
    Kind(ApiKey.CreateTopics, "new",
         lambda p: _kind("new", partitions=_partitions(p), rf=_rf(p), configs=_configs()),
         _topic(partitions=lambda it, b: it["partitions"], replication_factor=lambda it, b: it["rf"],
                configs=lambda it, b: it["configs"]), valid=True),
    Kind(ApiKey.CreateTopics, "exists", lambda p: _kind("exists"),
         _topic(make_name=lambda w, it: w.existing_topic("e"))),
    Kind(ApiKey.CreateTopics, "bad_name", _bad_name,
         _topic(make_name=lambda w, it: w.rename(it["name"]))),
    Kind(ApiKey.CreateTopics, "bad_partitions",
         lambda p: _kind("bad_partitions", partitions=domain.invalid_partition_counts()),
         _topic(partitions=lambda it, b: it["partitions"])),
    Kind(ApiKey.CreateTopics, "bad_rf",
         lambda p: _kind("bad_rf", rf=st.one_of(st.just(0), st.integers(INT16_MIN, -2)),
                         partitions=st.one_of(_partitions(p), domain.invalid_partition_counts())),
         _topic(replication_factor=lambda it, b: it["rf"], partitions=lambda it, b: it["partitions"])),
    Kind(ApiKey.CreateTopics, "too_many_replicas",
         lambda p: _kind("too_many_replicas",
                         rf=st.one_of(st.just(p.rf_floor), st.integers(p.rf_floor, INT16_MAX))),
         _topic(replication_factor=lambda it, b: it["rf"])),
    Kind(ApiKey.CreateTopics, "bad_config",
         lambda p: _kind("bad_config", bad=domain.topic_config_entries(valid=False).map(list), configs=_configs()),
         _topic(configs=lambda it, b: _with_bad(it))),
    Kind(ApiKey.CreateTopics, "unknown_config",
         lambda p: _kind("unknown_config", key=domain.unknown_config_keys(), configs=_configs(max_size=1)),
         _topic(configs=lambda it, b: it["configs"] + [[it["key"], "1"]])),
    Kind(ApiKey.CreateTopics, "null_config",
         lambda p: _kind("null_config", key=st.sampled_from(sorted(domain.TOPIC_CONFIGS))),
         _topic(configs=lambda it, b: [[it["key"], None]])),
    Kind(ApiKey.CreateTopics, "assignment_with_counts",
         lambda p: _kind("assignment_with_counts", counts=st.sampled_from([[1, -1], [-1, 1], [1, 1], [2, -1]])),
         _topic(partitions=lambda it, b: it["counts"][0], replication_factor=lambda it, b: it["counts"][1],
                assignments=lambda it, b: [{"partition_index": 0, "broker_ids": [b]}])),
    Kind(ApiKey.CreateTopics, "duplicate", lambda p: _kind("duplicate", partitions=_partitions(p)),
         _topic(twice=True, partitions=lambda it, b: it["partitions"]), relational=True),
)


# -- CreatePartitions -------------------------------------------------------------------------
# entries: (name, new count); the topic exists with ``current`` partitions unless unknown.

def _existing_partitions(twice=False):
    def entries(world, it, broker):
        name = world.existing_topic(it["kind"], partitions=it["current"], configs={})
        return name, [(name, it["count"])] + ([(name, it["count"] + 1)] if twice else [])
    return entries


def _unknown_partitions(world, it, broker):
    name = world.fresh("unknown")
    return name, [(name, it["count"])]


def _current():
    return st.integers(1, 3)


CREATE_PARTITIONS_KINDS = (
    Kind(ApiKey.CreatePartitions, "grow",
         lambda p: st.tuples(_current(), st.integers(1, 3)).map(
             lambda ca: {"kind": "grow", "current": ca[0], "count": ca[0] + ca[1]}),
         _existing_partitions(), valid=True),
    Kind(ApiKey.CreatePartitions, "same",
         lambda p: _current().map(lambda c: {"kind": "same", "current": c, "count": c}),
         _existing_partitions()),
    Kind(ApiKey.CreatePartitions, "shrink",
         lambda p: _current().flatmap(lambda c: st.integers(-3, c - 1).map(
             lambda n: {"kind": "shrink", "current": c, "count": n})),
         _existing_partitions()),
    Kind(ApiKey.CreatePartitions, "unknown", lambda p: _kind("unknown", count=st.integers(1, 4)),
         _unknown_partitions),
    Kind(ApiKey.CreatePartitions, "duplicate",
         lambda p: _current().map(lambda c: {"kind": "duplicate", "current": c, "count": c + 1}),
         _existing_partitions(twice=True), relational=True),
)


# -- AlterConfigs, IncrementalAlterConfigs --------------------------------------------------------
# entries: (name, configs) / (name, [(key, op, value), ...]); the topic exists (with
# BASE_CONFIGS) unless the kind is unknown_topic.

def _resource(configs_of, twice=False):
    def entries(world, it, broker):
        configs = configs_of(it)
        k = it["kind"]
        name = world.fresh("unknown") if k == "unknown_topic" else world.existing_topic(k.replace("_", ""))
        return name, [(name, configs), (name, configs)] if twice else [(name, configs)]
    return entries


def _set_configs():
    return st.lists(domain.topic_config_entries(), min_size=1, max_size=2,
                    unique_by=lambda kv: kv[0]).map(lambda k: [list(x) for x in k])


ALTER_CONFIGS_KINDS = (
    Kind(ApiKey.AlterConfigs, "set", lambda p: _kind("set", configs=_set_configs()),
         _resource(lambda it: it["configs"]), valid=True),
    Kind(ApiKey.AlterConfigs, "bad_value",
         lambda p: _kind("bad_value", bad=domain.topic_config_entries(valid=False).map(list), configs=_configs()),
         _resource(_with_bad)),
    Kind(ApiKey.AlterConfigs, "unknown_key",
         lambda p: _kind("unknown_key", key=domain.unknown_config_keys(), configs=_configs(max_size=1)),
         _resource(lambda it: it["configs"] + [[it["key"], "1"]])),
    Kind(ApiKey.AlterConfigs, "null_value",
         lambda p: _kind("null_value", key=st.sampled_from(sorted(domain.TOPIC_CONFIGS))),
         _resource(lambda it: [[it["key"], None]])),
    Kind(ApiKey.AlterConfigs, "unknown_topic", lambda p: _kind("unknown_topic", configs=_configs()),
         _resource(lambda it: it["configs"])),
    Kind(ApiKey.AlterConfigs, "duplicate", lambda p: _kind("duplicate", configs=_configs()),
         _resource(lambda it: it["configs"], twice=True), relational=True, shape=ALTER_CONFIGS_RESOURCE_TWICE),
)

_NON_LIST = sorted(set(domain.TOPIC_CONFIGS) - set(domain.LIST_CONFIGS))


def _op():
    return st.one_of(
        domain.topic_config_entries().map(lambda kv: [kv[0], SET, kv[1]]),
        st.sampled_from(sorted(domain.TOPIC_CONFIGS)).map(lambda k: [k, DELETE, None]),
        st.tuples(domain.list_config_elements(), st.sampled_from([APPEND, SUBTRACT])).map(
            lambda t: [t[0][0], t[1], t[0][1]]),
    )


def _ops():
    return st.lists(_op(), min_size=1, max_size=2, unique_by=lambda o: o[0])


INCREMENTAL_ALTER_CONFIGS_KINDS = (
    Kind(ApiKey.IncrementalAlterConfigs, "ops", lambda p: _kind("ops", ops=_ops()),
         _resource(lambda it: it["ops"]), valid=True),
    Kind(ApiKey.IncrementalAlterConfigs, "bad_value",
         lambda p: _kind("bad_value", bad=domain.topic_config_entries(valid=False).map(list)),
         _resource(lambda it: [[it["bad"][0], SET, it["bad"][1]]])),
    Kind(ApiKey.IncrementalAlterConfigs, "unknown_key", lambda p: _kind("unknown_key", key=domain.unknown_config_keys()),
         _resource(lambda it: [[it["key"], SET, "1"]])),
    Kind(ApiKey.IncrementalAlterConfigs, "append_non_list",
         lambda p: _kind("append_non_list", key=st.sampled_from(_NON_LIST), op=st.sampled_from([APPEND, SUBTRACT])),
         _resource(lambda it: [[it["key"], it["op"], "1"]])),
    Kind(ApiKey.IncrementalAlterConfigs, "duplicate_key",
         lambda p: _kind("duplicate_key", key=st.sampled_from(sorted(domain.TOPIC_CONFIGS))),
         _resource(lambda it: [[it["key"], DELETE, None], [it["key"], SET, BASE_CONFIGS["retention.ms"]]])),
    Kind(ApiKey.IncrementalAlterConfigs, "unknown_topic", lambda p: _kind("unknown_topic", ops=_ops()),
         _resource(lambda it: it["ops"])),
    Kind(ApiKey.IncrementalAlterConfigs, "duplicate", lambda p: _kind("duplicate", ops=_ops()),
         _resource(lambda it: it["ops"], twice=True), relational=True),
)

#: Per API, its item kinds by name (in the order batches draw them from).
KINDS: dict[ApiKey, dict[str, Kind]] = {
    kinds[0].api: {k.name: k for k in kinds}
    for kinds in (CREATE_TOPICS_KINDS, CREATE_PARTITIONS_KINDS, ALTER_CONFIGS_KINDS, INCREMENTAL_ALTER_CONFIGS_KINDS)}


#: Per API, the builder of a request from its items' entries.
_REQUESTS = {ApiKey.CreateTopics: requests.create_topics, ApiKey.CreatePartitions: requests.create_partitions,
             ApiKey.AlterConfigs: requests.alter_configs,
             ApiKey.IncrementalAlterConfigs: requests.incremental_alter_configs}
#: The APIs whose batches this module draws, each with a validate_only flag (from which
#: version: ``protocol.schema_facts.has_field(api, version, "validate_only")``).
VALIDATE_ONLY_APIS = tuple(KINDS)


def request(api_key: int, version: int, entries: list, validate_only: bool, **options) -> dict:
    """The request of ``api_key`` at ``version`` listing ``entries`` (from the kinds' ``entries``)."""
    return _REQUESTS[api_key](version, entries, validate_only=bool(validate_only), **options)


def item_strategies(api_key: int, params: Params, kinds: set[str] | None = None) -> dict[str, SearchStrategy[dict]]:
    """One strategy per item kind of ``api_key`` (all kinds, or those in ``kinds``), leaving
    out the kinds of a shape ``params.avoid`` names."""
    return {name: k.draw(params) for name, k in KINDS[api_key].items()
            if (kinds is None or name in kinds) and k.shape not in params.avoid}


def mixed_batches(api_key: int, kinds: dict[str, SearchStrategy], max_valid: int = 2,
                  max_invalid: int = 3) -> SearchStrategy[list[dict]]:
    """Batches of at least one valid and one invalid item, in any order."""
    valid = [s for k, s in kinds.items() if KINDS[api_key][k].valid]
    invalid = [s for k, s in kinds.items() if not KINDS[api_key][k].valid]
    return st.tuples(st.lists(st.one_of(valid), min_size=1, max_size=max_valid),
                     st.lists(st.one_of(invalid), min_size=1, max_size=max_invalid)
                     ).flatmap(lambda vi: st.permutations(vi[0] + vi[1]))


def describe_item(item: dict) -> str:
    fields = ", ".join(f"{k}={v!r}" for k, v in item.items() if k != "kind")
    return f"{item['kind']}({fields})" if fields else item["kind"]
