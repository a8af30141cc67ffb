"""Batches of admin items for the V (validate_only) and T (topics) properties.

An *item* is one entry of a CreateTopics, CreatePartitions, AlterConfigs or
IncrementalAlterConfigs request, described by its ``kind`` and the values hypothesis drew
for it (a JSON-able dict, so a counterexample can be stored and replayed), never by a
concrete topic name. A :class:`World` turns items into a concrete request with its own
fresh run-prefixed names and the existing topics the items need, so that one batch can be
sent to several identical starting states: validate_only in one world and executed in
another (V2), the whole batch in one world and each item alone in others (V3).

Item kinds follow what released Apache Kafka 4.x (KRaft) tells apart
(``docs/reference-semantics.md`` T1, T2, C4): a valid item, and one kind per refusal code.
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from fixtures.admin import Admin
from protocol.codec import APIS
from fixtures.harness import expect
from strategies import domain

CREATE_TOPICS, CREATE_PARTITIONS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS = 19, 37, 33, 44
METADATA, DESCRIBE_CONFIGS = 3, 32
#: APIs with a validate_only flag and the first version that has it (the schemas'
#: ``ValidateOnly`` field: CreateTopics 1+, the others 0+).
VALIDATE_ONLY_SINCE = {CREATE_TOPICS: 1, CREATE_PARTITIONS: 0, ALTER_CONFIGS: 0, INCREMENTAL_ALTER_CONFIGS: 0}

#: Kinds whose items are valid on their own (released Kafka answers NONE).
VALID_KINDS = {CREATE_TOPICS: {"new"}, CREATE_PARTITIONS: {"grow"},
               ALTER_CONFIGS: {"set"}, INCREMENTAL_ALTER_CONFIGS: {"ops"}}
#: Kinds whose verdict depends on another entry of the same request (left out of V3).
RELATIONAL_KINDS = {"duplicate"}

#: The overrides every existing topic of a world starts with (so a config API that
#: replaces, drops or changes them shows in DescribeConfigs).
BASE_CONFIGS = {"retention.ms": "86400000", "segment.ms": "3600000"}


# --------------------------------------------------------------------------------------
# the cluster
# --------------------------------------------------------------------------------------

def broker_ids(admin: Admin) -> list[int]:
    """Node ids of the brokers Metadata lists."""
    v = admin.version(METADATA, at_least=1)
    body = {"topics": []}
    if v >= 4:
        body["allow_auto_topic_creation"] = False
    resp = admin.call(METADATA, body, v)
    ids = sorted(b["node_id"] for b in resp.get("brokers") or [])
    expect(bool(ids), f"Metadata v{v} lists no broker")
    return ids


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
               f"{APIS[api_key].name} v{version}")


# --------------------------------------------------------------------------------------
# item strategies
# --------------------------------------------------------------------------------------

def _kind(kind: str, **fields):
    return st.fixed_dictionaries({"kind": st.just(kind), **fields})


def _configs(valid: bool = True, max_size: int = 2):
    return st.lists(domain.topic_config_entries(valid), max_size=max_size,
                    unique_by=lambda kv: kv[0]).map(lambda kvs: [list(kv) for kv in kvs])


def create_topics_items(version: int, prefix: str, rf_floor: int, mappable: bool = True,
                        kinds: set[str] | None = None) -> dict[str, st.SearchStrategy]:
    """One strategy per CreateTopics item kind.

    ``mappable`` leaves out the invalid names that cannot carry a world's prefix ("",
    ".", ".."): they name the same (non-)topic in every world."""
    default = [st.just(domain.BROKER_DEFAULT)] if version >= 4 else []
    partitions = st.one_of(domain.partition_counts(3), *default)
    rf = st.one_of(st.just(1), *default)

    def bad_name_ok(rn):
        return not mappable or rn[0] in ("too long", "illegal character")

    out = {
        "new": _kind("new", partitions=partitions, rf=rf, configs=_configs()),
        "exists": _kind("exists"),
        "bad_name": domain.invalid_topic_names(prefix, labelled=True).filter(bad_name_ok).map(
            lambda rn: {"kind": "bad_name", "reason": rn[0], "name": rn[1]}),
        "bad_partitions": _kind("bad_partitions", partitions=domain.invalid_partition_counts()),
        "bad_rf": _kind("bad_rf", rf=st.one_of(st.just(0), st.integers(-(1 << 15), -2)),
                        partitions=st.one_of(partitions, domain.invalid_partition_counts())),
        "too_many_replicas": _kind("too_many_replicas",
                                   rf=st.one_of(st.just(rf_floor), st.integers(rf_floor, (1 << 15) - 1))),
        "bad_config": _kind("bad_config", bad=domain.topic_config_entries(valid=False).map(list),
                            configs=_configs()),
        "unknown_config": _kind("unknown_config", key=domain.unknown_config_keys(),
                                configs=_configs(max_size=1)),
        "null_config": _kind("null_config", key=st.sampled_from(sorted(domain.TOPIC_CONFIGS))),
        "assignment_with_counts": _kind("assignment_with_counts", counts=st.sampled_from(
            [[1, -1], [-1, 1], [1, 1], [2, -1]])),
        "duplicate": _kind("duplicate", partitions=partitions),
    }
    return {k: s for k, s in out.items() if kinds is None or k in kinds}


def create_partitions_items(kinds: set[str] | None = None) -> dict[str, st.SearchStrategy]:
    current = st.integers(1, 3)
    out = {
        "grow": st.tuples(current, st.integers(1, 3)).map(
            lambda ca: {"kind": "grow", "current": ca[0], "count": ca[0] + ca[1]}),
        "same": current.map(lambda c: {"kind": "same", "current": c, "count": c}),
        "shrink": current.flatmap(lambda c: st.integers(-3, c - 1).map(
            lambda n: {"kind": "shrink", "current": c, "count": n})),
        "unknown": _kind("unknown", count=st.integers(1, 4)),
        "duplicate": current.map(lambda c: {"kind": "duplicate", "current": c, "count": c + 1}),
    }
    return {k: s for k, s in out.items() if kinds is None or k in kinds}


def alter_configs_items() -> dict[str, st.SearchStrategy]:
    valid = _configs()
    return {
        "set": _kind("set", configs=st.lists(domain.topic_config_entries(), min_size=1, max_size=2,
                                             unique_by=lambda kv: kv[0]).map(lambda k: [list(x) for x in k])),
        "bad_value": _kind("bad_value", bad=domain.topic_config_entries(valid=False).map(list), configs=valid),
        "unknown_key": _kind("unknown_key", key=domain.unknown_config_keys(), configs=_configs(max_size=1)),
        "null_value": _kind("null_value", key=st.sampled_from(sorted(domain.TOPIC_CONFIGS))),
        "unknown_topic": _kind("unknown_topic", configs=valid),
        "duplicate": _kind("duplicate", configs=valid),
    }


_NON_LIST = sorted(set(domain.TOPIC_CONFIGS) - set(domain.LIST_CONFIGS))


def _op():
    return st.one_of(
        domain.topic_config_entries().map(lambda kv: [kv[0], domain.SET, kv[1]]),
        st.sampled_from(sorted(domain.TOPIC_CONFIGS)).map(lambda k: [k, domain.DELETE, None]),
        st.tuples(domain.list_config_elements(), st.sampled_from([domain.APPEND, domain.SUBTRACT])).map(
            lambda t: [t[0][0], t[1], t[0][1]]),
    )


def incremental_alter_configs_items() -> dict[str, st.SearchStrategy]:
    ops = st.lists(_op(), min_size=1, max_size=2, unique_by=lambda o: o[0])
    return {
        "ops": _kind("ops", ops=ops),
        "bad_value": _kind("bad_value", bad=domain.topic_config_entries(valid=False).map(list)),
        "unknown_key": _kind("unknown_key", key=domain.unknown_config_keys()),
        "append_non_list": _kind("append_non_list", key=st.sampled_from(_NON_LIST),
                                 op=st.sampled_from([domain.APPEND, domain.SUBTRACT])),
        "duplicate_key": _kind("duplicate_key", key=st.sampled_from(sorted(domain.TOPIC_CONFIGS))),
        "unknown_topic": _kind("unknown_topic", ops=ops),
        "duplicate": _kind("duplicate", ops=ops),
    }


def items_for(api_key: int, version: int, prefix: str, rf_floor: int, mappable: bool = True):
    if api_key == CREATE_TOPICS:
        return create_topics_items(version, prefix, rf_floor, mappable)
    if api_key == CREATE_PARTITIONS:
        return create_partitions_items()
    if api_key == ALTER_CONFIGS:
        return alter_configs_items()
    return incremental_alter_configs_items()


def mixed_batches(api_key: int, kinds: dict[str, st.SearchStrategy], max_valid: int = 2,
                  max_invalid: int = 3) -> st.SearchStrategy[list[dict]]:
    """Batches of at least one valid and one invalid item, in any order."""
    valid = [s for k, s in kinds.items() if k in VALID_KINDS[api_key]]
    invalid = [s for k, s in kinds.items() if k not in VALID_KINDS[api_key]]
    return st.tuples(st.lists(st.one_of(valid), min_size=1, max_size=max_valid),
                     st.lists(st.one_of(invalid), min_size=1, max_size=max_invalid)
                     ).flatmap(lambda vi: st.permutations(vi[0] + vi[1]))


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

    # -- CreateTopics -------------------------------------------------------------
    def create_topics(self, items: list[dict], version: int, broker: int,
                      validate_only: bool | None = None, timeout_ms: int = domain.TIMEOUT_MS) -> dict:
        entries = []
        self.names = []
        for it in items:
            k = it["kind"]
            name = None
            entry = {"num_partitions": 1, "replication_factor": 1, "assignments": [], "configs": []}
            if k == "new":
                entry.update(num_partitions=it["partitions"], replication_factor=it["rf"],
                             configs=_cfg(it["configs"]))
            elif k == "exists":
                name = self.existing_topic("e")
            elif k == "bad_name":
                name = self.rename(it["name"])
            elif k == "bad_partitions":
                entry["num_partitions"] = it["partitions"]
            elif k == "bad_rf":
                entry.update(replication_factor=it["rf"], num_partitions=it["partitions"])
            elif k == "too_many_replicas":
                entry["replication_factor"] = it["rf"]
            elif k == "bad_config":
                entry["configs"] = _cfg([kv for kv in it["configs"] if kv[0] != it["bad"][0]] + [it["bad"]])
            elif k == "unknown_config":
                entry["configs"] = _cfg(it["configs"] + [[it["key"], "1"]])
            elif k == "null_config":
                entry["configs"] = _cfg([[it["key"], None]])
            elif k == "assignment_with_counts":
                entry.update(num_partitions=it["counts"][0], replication_factor=it["counts"][1],
                             assignments=[{"partition_index": 0, "broker_ids": [broker]}])
            elif k == "duplicate":
                entry["num_partitions"] = it["partitions"]
            else:
                raise ValueError(f"unknown CreateTopics item kind {k!r}")
            name = name or self.fresh(k.replace("_", ""))
            self.names.append(name)
            entries.append({"name": name, **entry})
            if k == "duplicate":
                entries.append({"name": name, **entry})
        body = {"topics": entries, "timeout_ms": timeout_ms}
        if version >= 1:
            body["validate_only"] = bool(validate_only)
        return body

    # -- CreatePartitions ---------------------------------------------------------
    def create_partitions(self, items: list[dict], validate_only: bool,
                          timeout_ms: int = domain.TIMEOUT_MS) -> dict:
        entries = []
        self.names = []
        for it in items:
            if it["kind"] == "unknown":
                name = self.fresh("unknown")
            else:
                name = self.existing_topic(it["kind"], partitions=it["current"], configs={})
            self.names.append(name)
            entries.append({"name": name, "count": it["count"], "assignments": None})
            if it["kind"] == "duplicate":
                entries.append({"name": name, "count": it["count"] + 1, "assignments": None})
        return {"topics": entries, "timeout_ms": timeout_ms, "validate_only": validate_only}

    # -- AlterConfigs ---------------------------------------------------------------
    def alter_configs(self, items: list[dict], validate_only: bool) -> dict:
        resources = []
        self.names = []
        for it in items:
            k = it["kind"]
            if k == "set":
                configs = it["configs"]
            elif k == "bad_value":
                configs = [kv for kv in it["configs"] if kv[0] != it["bad"][0]] + [it["bad"]]
            elif k == "unknown_key":
                configs = it["configs"] + [[it["key"], "1"]]
            elif k == "null_value":
                configs = [[it["key"], None]]
            elif k in ("unknown_topic", "duplicate"):
                configs = it["configs"]
            else:
                raise ValueError(f"unknown AlterConfigs item kind {k!r}")
            name = self.fresh("unknown") if k == "unknown_topic" else self.existing_topic(k.replace("_", ""))
            self.names.append(name)
            res = {"resource_type": domain.TOPIC, "resource_name": name, "configs": _cfg(configs)}
            resources.append(res)
            if k == "duplicate":
                resources.append(dict(res))
        return {"resources": resources, "validate_only": validate_only}

    # -- IncrementalAlterConfigs ------------------------------------------------------
    def incremental_alter_configs(self, items: list[dict], validate_only: bool) -> dict:
        resources = []
        self.names = []
        for it in items:
            k = it["kind"]
            if k in ("ops", "unknown_topic", "duplicate"):
                ops = it["ops"]
            elif k == "bad_value":
                ops = [[it["bad"][0], domain.SET, it["bad"][1]]]
            elif k == "unknown_key":
                ops = [[it["key"], domain.SET, "1"]]
            elif k == "append_non_list":
                ops = [[it["key"], it["op"], "1"]]
            elif k == "duplicate_key":
                ops = [[it["key"], domain.DELETE, None], [it["key"], domain.SET, BASE_CONFIGS["retention.ms"]]]
            else:
                raise ValueError(f"unknown IncrementalAlterConfigs item kind {k!r}")
            name = self.fresh("unknown") if k == "unknown_topic" else self.existing_topic(k.replace("_", ""))
            self.names.append(name)
            res = {"resource_type": domain.TOPIC, "resource_name": name,
                   "configs": [{"name": n, "config_operation": op, "value": v} for n, op, v in ops]}
            resources.append(res)
            if k == "duplicate":
                resources.append(dict(res))
        return {"resources": resources, "validate_only": validate_only}

    def request(self, api_key: int, items: list[dict], version: int, validate_only: bool,
                broker: int = 0) -> dict:
        if api_key == CREATE_TOPICS:
            return self.create_topics(items, version, broker, validate_only)
        if api_key == CREATE_PARTITIONS:
            return self.create_partitions(items, validate_only)
        if api_key == ALTER_CONFIGS:
            return self.alter_configs(items, validate_only)
        return self.incremental_alter_configs(items, validate_only)


def _cfg(pairs) -> list[dict]:
    return [{"name": k, "value": v} for k, v in pairs]


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
        codes = admin.create_topics([{"name": n, "num_partitions": p, "replication_factor": 1, "configs": c}
                                     for n, p, c in chunk])
        bad = {n: codes.get(n, (None,))[0] for n, _, _ in chunk if codes.get(n, (None,))[0] != 0}
        expect(not bad, f"setup: CreateTopics answered {bad} for topics the check needs")
    expected = {n: p for n, p, _ in wanted}

    def ready(a):
        seen = a.metadata(list(expected))
        return all(n in seen and seen[n].error_code == 0 and seen[n].partitions == p
                   for n, p in expected.items())

    admin.wait_everywhere(ready, f"{len(expected)} set-up topics to appear in Metadata")


# --------------------------------------------------------------------------------------
# answers: per-item verdicts
# --------------------------------------------------------------------------------------

_RESULTS = {CREATE_TOPICS: ("topics", "name"), CREATE_PARTITIONS: ("results", "name"),
            ALTER_CONFIGS: ("responses", "resource_name"),
            INCREMENTAL_ALTER_CONFIGS: ("responses", "resource_name")}


def entries_by_name(api_key: int, resp: dict) -> dict[str, list[dict]]:
    key, name = _RESULTS[api_key]
    out: dict[str, list[dict]] = {}
    for e in resp.get(key) or []:
        out.setdefault(e.get(name), []).append(e)
    return out


def expect_entry(check, api_key: int, name, allowed=None, count: int | None = None,
                 min_count: int | None = None, says: str | None = None, step: int | None = None,
                 field: str = "error_code") -> None:
    """State, as data, what the response entries carrying ``name`` hold (the reproducer's
    verdict; docs/results.md "expect")."""
    key, nk = _RESULTS[api_key]
    check.expect_field([key, {nk: name}, field], allowed, count=count, min_count=min_count,
                       says=says, step=step)


def verdicts(api_key: int, resp: dict, names: list[str]) -> list[tuple[int, ...]]:
    """Per item, the sorted error codes of the response entries that carry its name
    (Kafka answers one entry per distinct name; a duplicate item has one entry there)."""
    by = entries_by_name(api_key, resp)
    return [tuple(sorted(e["error_code"] for e in by.get(n, []))) for n in names]


def describe_item(item: dict) -> str:
    fields = ", ".join(f"{k}={v!r}" for k, v in item.items() if k != "kind")
    return f"{item['kind']}({fields})" if fields else item["kind"]


# --------------------------------------------------------------------------------------
# observable state (V1)
# --------------------------------------------------------------------------------------

def observe(admin: Admin, names: list[str], configs_of: list[str], ignore: set[str]) -> dict:
    """What a client can see of ``names`` (the batch's topics, existing or not) and of
    ``configs_of``: each existing one with its partition count (Metadata), and
    DescribeConfigs (error, value and source of every key) of ``configs_of``.

    Metadata is asked about these names only (a run creates thousands of topics, and
    listing them all before and after every example made V1 quadratic); a batch holding a
    name Metadata cannot be asked about (empty, ".", illegal characters) lists every
    topic instead."""
    wanted = {n for n in [*names, *configs_of] if n not in ignore}
    legal = all(0 < len(n) <= domain.MAX_NAME_LENGTH and n not in (".", "..")
                and not set(n) - set(domain.LEGAL_CHARS) for n in wanted)
    listed = admin.metadata(sorted(wanted) if legal else None)
    topics = {n: t.partitions for n, t in listed.items() if t.error_code == 0 and n in wanted}
    configs = {}
    for n in dict.fromkeys(configs_of):
        err, cfg = admin.describe_configs(n)
        configs[n] = (err, {k: (c.get("value"), c.get("config_source")) for k, c in cfg.items()})
    return {"topics": topics, "configs": configs}


def state_diff(before: dict, after: dict) -> list[str]:
    out = []
    bt, at = before["topics"], after["topics"]
    for n in sorted(set(bt) | set(at), key=repr):
        if n not in bt:
            out.append(f"topic {n!r} appeared ({at[n]} partitions)")
        elif n not in at:
            out.append(f"topic {n!r} disappeared")
        elif bt[n] != at[n]:
            out.append(f"topic {n!r} went from {bt[n]} to {at[n]} partitions")

    def shown(entry):
        return "absent" if entry is None else f"{entry[0]!r} (source {entry[1]})"

    for n in sorted(set(before["configs"]) | set(after["configs"])):
        (be, bc), (ae, ac) = before["configs"].get(n, (None, {})), after["configs"].get(n, (None, {}))
        if be != ae:
            out.append(f"DescribeConfigs {n!r}: error {be} became {ae}")
        for k in sorted(set(bc) | set(ac)):
            if bc.get(k) != ac.get(k):
                out.append(f"config {k} of {n!r}: {shown(bc.get(k))} became {shown(ac.get(k))}")
    return out


def settle(admin: Admin, sentinels: set[str]) -> None:
    """A barrier: create a fresh topic and wait until Metadata shows it. Kafka applies
    metadata records in log order, so anything an earlier request wrote is visible too
    (brokers apply the controller's records asynchronously,
    AbstractCreateTopicsRequestTest / DeleteTopicsRequestTest wait the same way)."""
    name = admin.check.topic("sync")
    sentinels.add(name)
    admin.create_topic(name)
