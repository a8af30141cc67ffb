"""Batches of admin items for the V (validate_only) and T (topics) properties: the worlds
they are sent in, and reading their answers.

An *item* is one entry of a CreateTopics, CreatePartitions, AlterConfigs or
IncrementalAlterConfigs request, described by its ``kind`` and the values hypothesis drew
for it (a JSON-able dict, so a counterexample can be stored and replayed), never by a
concrete topic name. Each kind's strategy and the request entries it becomes are in
``strategies/batches.py``. A :class:`World` turns items into a concrete request with its
own fresh run-prefixed names and the existing topics the items need, so that one batch can
be sent to several identical starting states: validate_only in one world and executed in
another (V2), the whole batch in one world and each item alone in others (V3).

Item kinds follow what released Apache Kafka 4.x (KRaft) tells apart
(``docs/reference-semantics.md`` T1, T2, C4): a valid item, and one kind per refusal code.
"""
from __future__ import annotations

from dataclasses import dataclass

from fixtures.admin import Admin
from protocol import apis, requests
from protocol.apis import ApiKey
from protocol.errors import Errors
from strategies import batches as item_kinds, domain
from strategies.batches import BASE_CONFIGS
from reference import topic_names

#: The batch APIs under the names the properties import.
CREATE_TOPICS, CREATE_PARTITIONS = ApiKey.CreateTopics, ApiKey.CreatePartitions
ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS = ApiKey.AlterConfigs, ApiKey.IncrementalAlterConfigs

#: Kinds whose verdict depends on another entry of the same request (left out of V3).
RELATIONAL_KINDS = {n for by_name in item_kinds.KINDS.values() for n, k in by_name.items() if k.relational}


# --------------------------------------------------------------------------------------
# the cluster
# --------------------------------------------------------------------------------------

def broker_ids(admin: Admin) -> list[int]:
    """Node ids of the brokers Metadata lists."""
    v = admin.version(ApiKey.Metadata, at_least=1)
    resp = admin.call(ApiKey.Metadata, requests.metadata(v, []), v)
    admin.check.expect_field(["brokers", "node_id"], min_count=1, says="Metadata lists the cluster's brokers")
    return sorted(b["node_id"] for b in resp.get("brokers") or [])


def too_many_replicas_floor(check, brokers: int) -> int:
    """The smallest replication factor Kafka certainly refuses with INVALID_REPLICATION_FACTOR.

    Kafka's placer refuses more replicas than *registered* brokers ("The target replication
    factor of N cannot be reached because only M broker(s) are registered.",
    StripedReplicaPlacer; CreateTopicsRequestTest uses brokerCount + 1). The suite's own
    targets are single clusters whose registered brokers are the ones Metadata lists; an
    external cluster may have registered but fenced brokers Metadata does not show, so there
    the floor keeps a wide margin (no correct cluster has a thousand fenced brokers)."""
    return brokers + 1 if not check.broker.external else max(brokers + 1, 1000)


@dataclass
class Ctx:
    """What a check of one API version works with."""
    admin: Admin
    client: object
    broker: int          # a broker id (for manual assignments)
    rf_floor: int        # replication factors from here on are refused
    name: str            # "CreateTopics v5"


def asked(check, api_key: int, version: int) -> Ctx:
    """Unsupported unless the broker advertises ``api_key`` at ``version``; Skip on an
    external cluster without --allow-destructive (every check here creates topics)."""
    check.require(api_key, version)
    check.require_mutations()
    admin = Admin(check)
    ids = broker_ids(admin)
    return Ctx(admin, admin.client, ids[0], too_many_replicas_floor(check, len(ids)),
               f"{apis.api_name(api_key)} v{version}")


# --------------------------------------------------------------------------------------
# item strategies (strategies/batches.py: one Kind per item kind)
# --------------------------------------------------------------------------------------

def create_partitions_items(kinds: set[str] | None = None) -> dict:
    return _items(ApiKey.CreatePartitions, kinds)


def items_for(api_key: int, version: int, prefix: str, rf_floor: int, mappable: bool = True,
              avoid: frozenset = frozenset()):
    """One strategy per item kind of ``api_key``, without the kinds of an ``avoid``ed shape
    (``check.avoided_shapes``: a known deviation of the broker under check)."""
    return _items(api_key, version=version, prefix=prefix, rf_floor=rf_floor, mappable=mappable, avoid=avoid)


def _items(api_key, only=None, **params):
    return item_kinds.item_strategies(api_key, item_kinds.Params(**params), only)


# --------------------------------------------------------------------------------------
# worlds: items -> concrete requests
# --------------------------------------------------------------------------------------

class World:
    """One starting state: fresh names and the existing topics a batch's items need."""

    def __init__(self, check, tag: str):
        self.check = check
        self.tag = tag
        self.names: list[str] = []            # per item, the name it uses
        self.existing: list[tuple[str, int, dict]] = []   # (name, partitions, configs) to set up

    def fresh(self, hint: str) -> str:
        return self.check.topic(f"{self.tag}{hint}")

    def rename(self, name: str) -> str:
        """A run-prefixed name moved into this world (same tail, so the same defect)."""
        prefix = self.check.prefix
        if name.startswith(prefix):
            return self.fresh("x") + name[len(prefix):]
        return name

    def existing_topic(self, hint: str, partitions: int = 1, configs: dict | None = None) -> str:
        name = self.fresh(hint)
        self.existing.append((name, partitions, dict(BASE_CONFIGS if configs is None else configs)))
        return name

    def entries(self, api_key: int, items: list[dict], broker: int = 0) -> list:
        """The request entries of ``items`` (each kind's ``entries``); ``names`` gets the
        name each item uses."""
        self.names = []
        out = []
        for it in items:
            kind = item_kinds.KINDS[api_key].get(it["kind"])
            if kind is None:
                raise ValueError(f"unknown {apis.api_name(api_key)} item kind {it['kind']!r}")
            name, entries = kind.entries(self, it, broker)
            self.names.append(name)
            out += entries
        return out

    def request(self, api_key: int, items: list[dict], version: int, validate_only: bool,
                broker: int = 0) -> dict:
        return item_kinds.request(api_key, version, self.entries(api_key, items, broker), validate_only)

    # -- one API each (every version of CreatePartitions and the config APIs has the same fields)
    def create_topics(self, items: list[dict], version: int, broker: int,
                      validate_only: bool | None = None, timeout_ms: int = domain.TIMEOUT_MS) -> dict:
        return item_kinds.request(ApiKey.CreateTopics, version, self.entries(ApiKey.CreateTopics, items, broker),
                             bool(validate_only), timeout_ms=timeout_ms)

    def create_partitions(self, items: list[dict], validate_only: bool,
                          timeout_ms: int = domain.TIMEOUT_MS, version: int = 0) -> dict:
        return item_kinds.request(ApiKey.CreatePartitions, version, self.entries(ApiKey.CreatePartitions, items),
                             validate_only, timeout_ms=timeout_ms)

    def alter_configs(self, items: list[dict], validate_only: bool, version: int = 0) -> dict:
        return item_kinds.request(ApiKey.AlterConfigs, version, self.entries(ApiKey.AlterConfigs, items), validate_only)

    def incremental_alter_configs(self, items: list[dict], validate_only: bool, version: int = 0) -> dict:
        return item_kinds.request(ApiKey.IncrementalAlterConfigs, version,
                             self.entries(ApiKey.IncrementalAlterConfigs, items), validate_only)


def set_up(admin: Admin, worlds: list[World], sentinels: set[str] | None = None) -> None:
    """Create every world's existing topics (one CreateTopics) and wait until Metadata
    shows them all with their partition counts. With ``sentinels``, one more topic is
    created and waited for even when no world needs one: a barrier (see :func:`settle`)
    after which everything earlier requests wrote is visible."""
    wanted = [t for w in worlds for t in w.existing]
    if sentinels is not None:
        name = admin.check.topic("sync")
        sentinels.add(name)
        wanted.append((name, 1, {}))
    if not wanted:
        return
    for i in range(0, len(wanted), 20):
        chunk = wanted[i:i + 20]
        admin.create_topics([{"name": n, "num_partitions": p, "replication_factor": 1, "configs": c}
                             for n, p, c in chunk])
        for n, _, _ in chunk:
            admin.check.expect_field(["topics", {"name": n}, "error_code"], [Errors.NONE], count=1, setup=True,
                                     says=f"the topic {n} the check needs is created")
    admin.expect_listed({n: p for n, p, _ in wanted}, setup=True)


# --------------------------------------------------------------------------------------
# answers: per-item verdicts
# --------------------------------------------------------------------------------------

def expect_entry(check, api_key: int, name, allowed=None, count: int | None = None,
                 min_count: int | None = None, says: str | None = None, step: int | None = None,
                 field: str = "error_code") -> None:
    """State, as data, what the response entries carrying ``name`` hold (the reproducer's
    verdict; docs/results.md "expect")."""
    spec = apis.spec(api_key)
    check.expect_field([spec.results, {spec.item: name}, field], allowed, count=count, min_count=min_count,
                       says=says, step=step)


def observe(admin: Admin, names: list[str], configs_of: list[str], ignore: set[str]) -> dict:
    """What a client can see of ``names`` (the batch's topics, existing or not) and of
    ``configs_of``: each existing one with its partition count (Metadata), and
    DescribeConfigs (error, value and source of every key) of ``configs_of``.

    Metadata is asked about these names only (a run creates thousands of topics, and
    listing them all before and after every example made V1 quadratic); a batch holding a
    name Metadata cannot be asked about (empty, ".", illegal characters) lists every
    topic instead."""
    wanted = {n for n in [*names, *configs_of] if n not in ignore}
    legal = all(topic_names.is_legal(n) for n in wanted)
    listed = admin.metadata(sorted(wanted) if legal else None)
    topics = {n: t.partitions for n, t in listed.items() if t.error_code == Errors.NONE and n in wanted}
    configs = {}
    for n in dict.fromkeys(configs_of):
        err, cfg = admin.describe_configs(n)
        configs[n] = (err, {k: (c.get("value"), c.get("config_source")) for k, c in cfg.items()})
    return {"topics": topics, "configs": configs}


def settle(admin: Admin, sentinels: set[str]) -> None:
    """A barrier: create a fresh topic and wait until Metadata shows it. Kafka applies
    metadata records in log order, so anything an earlier request wrote is visible too
    (brokers apply the controller's records asynchronously,
    AbstractCreateTopicsRequestTest / DeleteTopicsRequestTest wait the same way)."""
    name = admin.check.topic("sync")
    sentinels.add(name)
    admin.create_topic(name)
