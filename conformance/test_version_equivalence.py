"""P4 version equivalence (metamorphic): one logical request, two versions, one outcome.

The same logical request (which topics, which counts, which configs; not which bytes) is
sent at an older advertised version and at the newest one the broker and the schemas share.
Each side runs against fresh topics with identical setups (same partition counts, same
records, same initial configs; names differ only in a counter, or padded to the same length
where the length matters). The property holds when

* **the outcome is the same**: every item (topic, resource, partition) gets the same error
  code, except where ``reference/error_codes.py`` says Kafka answers an older code at the
  older version (``downgrade_of``: THROTTLING_QUOTA_EXCEEDED -> success below KIP-599's
  versions, TOPIC_DELETION_DISABLED -> INVALID_REQUEST below DeleteTopics v3); DeleteRecords
  also compares the low watermark, DescribeConfigs the described values;
* **the end state is the same**: what Metadata, DescribeConfigs and ListOffsets show
  afterwards (topics present, partition counts, config values, log start offsets).

Only what both versions can say is sent (KIP-464's -1 defaults from v4, validate_only from
CreateTopics v1, topics by name, never by id), and only fields both responses have are
compared ("modulo fields the older version lacks"). Names Kafka rejects are built inside the
run prefix (an illegal character, 250 characters), so a broker that wrongly creates them does
not leak into the other side. When the observing API is not advertised, the end state is
left out and the row (``unsupported``) says so; an observation the broker answers wrongly
or not at all fails the row.

Sources: catalogue P4; the message schemas' version notes (each "Version N is the same as
version N-1" or adds only the fields named) in apache/kafka
clients/src/main/resources/common/message/*Request.json; one code path for every version of
each API in ControllerApis / ReplicationControlManager / ConfigurationControlManager /
ReplicaManager.deleteRecords (the version reaches only the quota strictness and the
deletion-disabled code, error_codes.RULES).

One row per (API, version): the version compared with the newest; the newest itself is
``unsupported`` (nothing newer to compare it with).
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import Unsupported, Violation
from fixtures.waiting import SETTLE_S, settled
from protocol import ApiKey, Errors, OffsetSpec
from protocol import requests as build
from protocol.apis import items, spec
from protocol.codec import APIS
from strategies import domain as d
from strategies.provoke import bad_ops

from .parametrize import every_version
from .batch_model import settle
from reference import error_codes as ec

TIMEOUT_MS = 10_000
SOURCE = ("catalogue P4; apache/kafka clients/src/main/resources/common/message/*Request.json "
          "(version notes); ControllerApis.scala / ReplicationControlManager.java / "
          "ConfigurationControlManager.java / ReplicaManager.scala (one path for all versions); "
          "reference/error_codes.py RULES (downgrade_of)")
APIS_COMPARED = (ApiKey.CreateTopics, ApiKey.DeleteTopics, ApiKey.DeleteRecords, ApiKey.DescribeConfigs,
                 ApiKey.AlterConfigs, ApiKey.CreatePartitions, ApiKey.IncrementalAlterConfigs)
UNOBSERVABLE = "unobservable"


# -- names -------------------------------------------------------------------------------

class Names:
    """One side's topic names for the logical keys of a scenario: ``("existing", j)`` for a
    setup topic, ``(i, kind)`` for item i's name of ``kind`` (new, new249, illegal, toolong)."""

    def __init__(self, check):
        self.check = check
        self.by_key: dict = {}
        self.back: dict = {}

    def __call__(self, key) -> str:
        if key not in self.by_key:
            kind = key[0] if key[0] == "existing" else key[1]
            base = self.check.topic("eq")
            name = {"new249": base + "x" * max(0, 249 - len(base)),
                    "toolong": base + "x" * max(0, 250 - len(base)),
                    "illegal": base + "!"}.get(kind, base)   # '!' is outside [a-zA-Z0-9._-]
            self.by_key[key], self.back[name] = name, key
        return self.by_key[key]

    def key(self, name):
        return self.back.get(name, ("unrequested", name))


def _target(names, item, i):
    t = item["target"]
    return names(("existing", int(t[1]))) if t[0] == "existing" else names((i, t[0]))


def _describe(key) -> str:
    if isinstance(key, tuple) and key and key[0] == "existing":
        return f"existing topic {key[1]}"
    if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], int):
        return f"item {key[0]} ({key[1]} topic)"
    if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], tuple):
        return f"{_describe(key[0])} partition {key[1]}"
    return repr(key)


# -- observing state -------------------------------------------------------------------

def _observed(fn):
    """Run an observation; an API the broker does not advertise makes the state unobservable
    (the evidence: its ApiVersions). A broker that was asked and answered wrongly (a
    malformed answer, an error for a topic the side created, no answer) fails the
    property like any other Violation: it is never "unobservable"."""
    try:
        return fn()
    except Unsupported as exc:
        return (UNOBSERVABLE, str(exc).split("\n")[0][:160])


def _topics(admin, names_by_key, expect_present=(), expect_absent=(), counts=None):
    keys = list(names_by_key)

    def fetch():
        md = admin.metadata([names_by_key[k] for k in keys])
        return {k: (md[names_by_key[k]].partitions if names_by_key[k] in md
                    and md[names_by_key[k]].error_code == Errors.NONE else None) for k in keys}

    def done(state):
        return (all(state[k] is not None for k in expect_present)
                and all(state[k] is None for k in expect_absent)
                and all(state[k] == n for k, n in (counts or {}).items()))
    return settled(fetch, done, within=SETTLE_S)


def _config_values(admin, name, keys, when=None) -> dict:
    values = admin.config_values(name, when=when)   # the judge: DescribeConfigs of the side's topic answers NONE
    return {k: values[k] for k in sorted(keys) if k in values}


def _created(admin, name) -> tuple | None:
    """The condition "the side's CreateTopics created ``name``" (its answer's entry NONE): a
    reproducer run where the broker refused the topic (a config the broker rejects, which a
    fault had let through) does not judge the end state of a topic that never was."""
    steps = admin.check.steps
    for at in range(len(steps) - 1, -1, -1):
        st = steps[at]
        if st["api_key"] == ApiKey.CreateTopics and any(
                isinstance(t, dict) and t.get("name") == name for t in (st["request"] or {}).get("topics") or []):
            return (at, ["topics", {"name": name}, "error_code"], [Errors.NONE])
    return None


KNOWN_KEYS = set(d.TOPIC_CONFIGS) | set(d.LIST_CONFIGS)


# -- the APIs: scenario strategy, setup, request body, outcome, end state -----------------

def _config_entry():
    return st.one_of(d.topic_config_entries(), d.topic_config_entries(valid=False),
                     d.unknown_config_keys().map(lambda k: (k, "1")))


def _targets(kinds):
    return st.sampled_from(kinds)


class _Api:
    """What every P4 API shares: the outcome is each item's error code, keyed by the
    item's logical name (``protocol.apis.spec`` says which field names it)."""
    key: ApiKey

    @classmethod
    def outcome(cls, resp, names):
        field = spec(cls.key).item
        return {names.key(r.get(field)): r["error_code"] for r in items(cls.key, resp)}


class CreateTopics(_Api):
    key = ApiKey.CreateTopics

    @staticmethod
    def scenarios(lo):
        defaults = [-1] if lo >= 4 else []
        item = st.fixed_dictionaries({
            "target": _targets([("new",), ("new",), ("existing", 0), ("new249",), ("illegal",), ("toolong",)]),
            "partitions": st.sampled_from([1, 2, 3, 0, -2] + defaults),
            "replication_factor": st.sampled_from([1, 1, 0, -2, 2] + defaults),
            "configs": st.lists(_config_entry(), max_size=2, unique_by=lambda kv: kv[0])})
        return st.fixed_dictionaries({"items": st.lists(item, min_size=1, max_size=3),
                                      "validate_only": st.booleans() if lo >= 1 else st.just(False)})

    @staticmethod
    def setup(admin, sc, names):
        if any(it["target"][0] == "existing" for it in sc["items"]):
            admin.create_topic(names(("existing", 0)))

    @staticmethod
    def body(v, sc, names):
        return build.create_topics(v, [build.topic(_target(names, it, i), it["partitions"], it["replication_factor"],
                                                   configs=it["configs"])
                                       for i, it in enumerate(sc["items"])],
                                   timeout_ms=TIMEOUT_MS, validate_only=sc["validate_only"])

    @staticmethod
    def state(admin, sc, names, outcome):
        by_key = {names.key(_target(names, it, i)): _target(names, it, i) for i, it in enumerate(sc["items"])}
        created = [k for k, c in outcome.items() if c == Errors.NONE and k in by_key and not sc["validate_only"]]
        topics = _observed(lambda: _topics(admin, by_key, expect_present=created))
        state = {"topics": topics}
        wanted = {}
        for i, it in enumerate(sc["items"]):
            k = names.key(_target(names, it, i))
            if k in created and {c for c, _ in it["configs"]} & KNOWN_KEYS:
                wanted[k] = {c for c, _ in it["configs"]} & KNOWN_KEYS
        if wanted:
            state["configs"] = _observed(lambda: {k: _config_values(admin, by_key[k], keys,
                                                                    when=_created(admin, by_key[k]))
                                                  for k, keys in wanted.items()})
        return state


class DeleteTopics(_Api):
    key = ApiKey.DeleteTopics

    @staticmethod
    def scenarios(lo):
        item = st.fixed_dictionaries({"target": _targets([("existing", 0), ("existing", 1), ("new",), ("illegal",)])})
        return st.fixed_dictionaries({"items": st.lists(item, min_size=1, max_size=3,
                                                        unique_by=lambda it: it["target"])})

    @staticmethod
    def _existing(sc):
        return sorted({int(it["target"][1]) for it in sc["items"] if it["target"][0] == "existing"} | {0})

    @classmethod
    def setup(cls, admin, sc, names):
        for j in cls._existing(sc):
            admin.create_topic(names(("existing", j)))

    @staticmethod
    def body(v, sc, names):
        return build.delete_topics(v, [_target(names, it, i) for i, it in enumerate(sc["items"])],
                                   timeout_ms=TIMEOUT_MS)

    @classmethod
    def state(cls, admin, sc, names, outcome):
        by_key = {("existing", j): names(("existing", j)) for j in cls._existing(sc)}
        gone = [k for k in by_key if outcome.get(k) == Errors.NONE]
        return {"topics": _observed(lambda: _topics(admin, by_key, expect_absent=gone))}


class CreatePartitions(_Api):
    key = ApiKey.CreatePartitions

    @staticmethod
    def scenarios(lo):
        item = st.fixed_dictionaries({"target": _targets([("existing", 0), ("existing", 1), ("new",)]),
                                      "delta": st.sampled_from([-1, 0, 1, 2])})
        return st.fixed_dictionaries({
            "partitions": st.tuples(st.integers(1, 2), st.integers(1, 2)),
            "items": st.lists(item, min_size=1, max_size=3, unique_by=lambda it: it["target"]),
            "validate_only": st.booleans()})

    @staticmethod
    def setup(admin, sc, names):
        for j, p in enumerate(sc["partitions"]):
            admin.create_topic(names(("existing", j)), partitions=p)

    @staticmethod
    def _count(sc, it):
        base = sc["partitions"][int(it["target"][1])] if it["target"][0] == "existing" else 1
        return base + it["delta"]

    @classmethod
    def body(cls, v, sc, names):
        return build.create_partitions(v, [(_target(names, it, i), cls._count(sc, it))
                                           for i, it in enumerate(sc["items"])],
                                       timeout_ms=TIMEOUT_MS, validate_only=sc["validate_only"])

    @classmethod
    def state(cls, admin, sc, names, outcome):
        by_key = {("existing", j): names(("existing", j)) for j in range(len(sc["partitions"]))}
        counts = {}
        for i, it in enumerate(sc["items"]):
            k = names.key(_target(names, it, i))
            if k in by_key and outcome.get(k) == Errors.NONE and not sc["validate_only"]:
                counts[k] = cls._count(sc, it)
        return {"partitions": _observed(lambda: _topics(admin, by_key, counts=counts))}


def _initial_configs():
    return st.lists(d.topic_config_entries(), max_size=2, unique_by=lambda kv: kv[0])


def _config_targets():
    return _targets([("existing", 0), ("existing", 0), ("new",), ("illegal",)])


class _Configs(_Api):
    """Shared by the config APIs: one existing topic with initial configs."""
    key: ApiKey

    @staticmethod
    def setup(admin, sc, names):
        admin.create_topic(names(("existing", 0)), configs=dict(sc["initial"]) or None)

    @classmethod
    def state(cls, admin, sc, names, outcome):
        keys = ({k for k, _ in sc["initial"]} | cls.touched(sc)) & KNOWN_KEYS
        if not keys:
            return {}
        return {"configs": _observed(lambda: _config_values(admin, names(("existing", 0)), keys))}


class IncrementalAlterConfigs(_Configs):
    key = ApiKey.IncrementalAlterConfigs

    @staticmethod
    def scenarios(lo):
        ops = st.one_of(st.lists(d._incremental_op(), min_size=1, max_size=3, unique_by=lambda c: c["name"]),
                        bad_ops())
        res = st.fixed_dictionaries({"target": _config_targets(), "ops": ops})
        return st.fixed_dictionaries({"initial": _initial_configs(), "validate_only": st.booleans(),
                                      "resources": st.lists(res, min_size=1, max_size=2,
                                                            unique_by=lambda r: r["target"])})

    @staticmethod
    def touched(sc):
        return {op["name"] for r in sc["resources"] for op in r["ops"]}

    @staticmethod
    def body(v, sc, names):
        return build.incremental_alter_configs(
            v, [(_target(names, r, i), [(op["name"], op["config_operation"], op["value"]) for op in r["ops"]])
                for i, r in enumerate(sc["resources"])], validate_only=sc["validate_only"])


class AlterConfigs(_Configs):
    key = ApiKey.AlterConfigs

    @staticmethod
    def scenarios(lo):
        res = st.fixed_dictionaries({"target": _config_targets(),
                                     "configs": st.lists(_config_entry(), max_size=3, unique_by=lambda kv: kv[0])})
        return st.fixed_dictionaries({"initial": _initial_configs(), "validate_only": st.booleans(),
                                      "resources": st.lists(res, min_size=1, max_size=2,
                                                            unique_by=lambda r: r["target"])})

    @staticmethod
    def touched(sc):
        return {k for r in sc["resources"] for k, _ in r["configs"]}

    @staticmethod
    def body(v, sc, names):
        return build.alter_configs(v, [(_target(names, r, i), r["configs"]) for i, r in enumerate(sc["resources"])],
                                   validate_only=sc["validate_only"])


class DescribeConfigs(_Configs):
    key = ApiKey.DescribeConfigs

    @staticmethod
    def scenarios(lo):
        keys = st.one_of(st.none(), st.lists(st.one_of(st.sampled_from(sorted(d.TOPIC_CONFIGS)),
                                                       d.unknown_config_keys()), max_size=3, unique=True))
        res = st.fixed_dictionaries({"target": _config_targets(), "keys": keys})
        return st.fixed_dictionaries({"initial": _initial_configs(),
                                      "resources": st.lists(res, min_size=1, max_size=2,
                                                            unique_by=lambda r: r["target"])})

    @staticmethod
    def body(v, sc, names):
        return build.describe_configs(v, [(_target(names, r, i), r["keys"]) for i, r in enumerate(sc["resources"])])

    @staticmethod
    def outcome(resp, names):
        # name, value, read_only, is_sensitive exist at every version (config_source/is_default,
        # config_type and documentation do not)
        return {names.key(r["resource_name"]): (r["error_code"], tuple(sorted(
                    (c["name"], c["value"], c["read_only"], c["is_sensitive"]) for c in r.get("configs") or [])))
                for r in items(ApiKey.DescribeConfigs, resp)}

    @staticmethod
    def state(admin, sc, names, outcome):
        return {}


class DeleteRecords(_Api):
    key = ApiKey.DeleteRecords

    @staticmethod
    def scenarios(lo):
        item = st.fixed_dictionaries({"target": _targets([("existing", 0), ("existing", 0), ("new",)]),
                                      "partition": st.sampled_from([0, 1, 9]),
                                      "offset": st.sampled_from([d.HIGH_WATERMARK, 0, 1, 3, 7, 1 << 40, -7])})
        return st.fixed_dictionaries({
            "records": st.lists(st.integers(0, 5), min_size=1, max_size=2),
            "items": st.lists(item, min_size=1, max_size=3,
                              unique_by=lambda it: (it["target"], it["partition"]))})

    @staticmethod
    def setup(admin, sc, names):
        name = names(("existing", 0))
        admin.create_topic(name, partitions=len(sc["records"]))
        for p, n in enumerate(sc["records"]):
            if n:
                admin.produce(name, p, n)

    @staticmethod
    def body(v, sc, names):
        topics: dict[str, list] = {}
        for i, it in enumerate(sc["items"]):
            topics.setdefault(_target(names, it, i), []).append((it["partition"], it["offset"]))
        return build.delete_records(v, topics.items(), timeout_ms=TIMEOUT_MS)

    @staticmethod
    def outcome(resp, names):
        return {(names.key(t["name"]), p["partition_index"]):
                (p["error_code"], p["low_watermark"] if p["error_code"] == Errors.NONE else None)
                for t in items(ApiKey.DeleteRecords, resp) for p in t.get("partitions") or []}

    @staticmethod
    def state(admin, sc, names, outcome):
        name = names(("existing", 0))
        return {"log start offsets": _observed(
            lambda: [admin.offset(name, p, OffsetSpec.EARLIEST) for p in range(len(sc["records"]))])}


EQUIVALENCES = {c.key: c for c in (CreateTopics, DeleteTopics, CreatePartitions, IncrementalAlterConfigs,
                                   AlterConfigs, DescribeConfigs, DeleteRecords)}


# -- the oracle ---------------------------------------------------------------------------

def _unobservable(state) -> list[str]:
    return [f"{what}: {v[1]}" for what, v in state.items() if isinstance(v, tuple) and v and v[0] == UNOBSERVABLE]


def run_side(check, api, version, sc, side: dict | None = None):
    """Set up fresh topics, send the logical request at ``version``, observe the end state.
    ``side`` gets the names, the request's step and the steps that observed the state (the
    comparison as data, :func:`_expect_equivalent`)."""
    admin = Admin(check, timeout_ms=TIMEOUT_MS)
    names = Names(check)
    api.setup(admin, sc, names)
    resp = admin.client.answered(api.key, version, api.body(version, sc, names))
    at = len(check.steps) - 1
    outcome = api.outcome(resp, names)
    _barrier(admin, api)
    first = len(check.steps)
    state = api.state(admin, sc, names, outcome)
    if side is not None:
        side.update(names=names, request=at, state=check.steps[first:], state_at=first)
    return outcome, state


def _observations(side: dict, api_key: int, last_only: bool) -> list[int]:
    """The steps of a side's end-state observation asking ``api_key`` (a poll's last look only)."""
    found = [side["state_at"] + i for i, st in enumerate(side["state"]) if st["api_key"] == api_key]
    return found[-1:] if last_only and found else found


def _expect_equivalent(check, api_key: int, old_v: int, old: dict, new: dict) -> None:
    """P4's verdict as data: the older version's answer (and end state) compared with the
    newest's, item by item under the two sides' names, Kafka's downgraded codes counting as
    equal (``error_codes.downgrade_of``)."""
    s = spec(api_key)
    pairs = [[down, int(c)] for c in Errors.__members__.values()
             if (down := ec.downgrade_of(api_key, c, old_v)) is not None and down != c]
    keys = [k for k in old["names"].by_key if k in new["names"].by_key]
    for k in keys:
        a, b = old["names"].by_key[k], new["names"].by_key[k]
        if api_key == ApiKey.DeleteRecords:
            for part in (0, 1, 9):      # the partitions DeleteRecords.scenarios names
                at_a = [s.results, {s.item: a}, s.partitions, {"partition_index": part}]
                at_b = [s.results, {s.item: b}, s.partitions, {"partition_index": part}]
                check.expect_same(at_a + ["error_code"], new["request"], at_b + ["error_code"], step=old["request"],
                                  says=f"{_describe(k)} partition {part}: the same code at v{old_v} as at the newest")
                check.expect_same([s.results, {s.item: a}, s.partitions, {"partition_index": part, "error_code": Errors.NONE},
                                   "low_watermark"], new["request"],
                                  [s.results, {s.item: b}, s.partitions, {"partition_index": part, "error_code": Errors.NONE},
                                   "low_watermark"], step=old["request"],
                                  says=f"{_describe(k)} partition {part}: the same low watermark")
            continue
        check.expect_same([s.results, {s.item: a}, "error_code"], new["request"], [s.results, {s.item: b}, "error_code"],
                          step=old["request"], equivalent=pairs,
                          says=f"{_describe(k)}: the same error code at v{old_v} as at the newest"
                               + (" (or the one Kafka answers at the older version)" if pairs else ""))
        if api_key == ApiKey.DescribeConfigs:
            for f in ("name", "value"):
                check.expect_same([s.results, {s.item: a}, "configs", f], new["request"],
                                  [s.results, {s.item: b}, "configs", f], step=old["request"],
                                  says=f"{_describe(k)}: the same config {f}s at v{old_v} as at the newest")
    # the end state: the last Metadata look, each DescribeConfigs and ListOffsets in order
    for o, n in zip(_observations(old, ApiKey.Metadata, True), _observations(new, ApiKey.Metadata, True)):
        for k in keys:
            a, b = old["names"].by_key[k], new["names"].by_key[k]
            check.expect_same(["topics", {"name": a}, "partitions", "partition_index"], n,
                              ["topics", {"name": b}, "partitions", "partition_index"], step=o,
                              says=f"{_describe(k)}: afterwards the same partitions (or absence) on both sides")
    # each side's observation asks of its own topic: compared under the two names, configs by
    # name and partitions by index (Kafka lists either in no order)
    for o, n in zip(_observations(old, ApiKey.DescribeConfigs, False), _observations(new, ApiKey.DescribeConfigs, False)):
        check.expect_same(["results", {"resource_name": _asked(check, o)}, "configs", "value"], n,
                          ["results", {"resource_name": _asked(check, n)}, "configs", "value"], step=o,
                          says="afterwards DescribeConfigs shows the same values on both sides")
    for o, n in zip(_observations(old, ApiKey.ListOffsets, False), _observations(new, ApiKey.ListOffsets, False)):
        check.expect_same(["topics", {"name": _asked(check, o)}, "partitions", "offset"], n,
                          ["topics", {"name": _asked(check, n)}, "partitions", "offset"], step=o,
                          says="afterwards the same log start offset on both sides")


def _asked(check, at: int) -> str | None:
    """The one topic (or config resource) the end-state observation at step ``at`` asks of
    (a DescribeConfigs or ListOffsets of one side's topic)."""
    request = check.steps[at]["request"] or {}
    entries = request.get("resources") or request.get("topics") or [{}]
    return entries[0].get("resource_name", entries[0].get("name"))


def _barrier(admin, api):
    """Before observing the end state, wait until whatever the request wrote is visible: a
    fresh topic shows in Metadata once the broker applied every earlier metadata record
    (V1's barrier, batch_model.settle; brokers apply the controller's records asynchronously
    but in log order). Not for DescribeConfigs, which writes nothing (and may be checked
    on an external cluster without --allow-destructive); a broker that cannot create the
    barrier topic is observed as it is."""
    if api.key == ApiKey.DescribeConfigs:
        return
    try:
        settle(admin, set())
    except (Violation, Unsupported):
        pass


@pytest.mark.prop("P4", source=SOURCE)
@pytest.mark.parametrize("api_key,version", every_version(APIS_COMPARED))
def test_p4_a_request_has_the_same_outcome_and_end_state_at_every_version(check, api_key, version):
    """The same logical request at this version and at the newest: same per-item error codes
    (modulo Kafka's downgrades) and the same end state (Metadata, DescribeConfigs, ListOffsets)."""
    lo, hi = check.require(api_key, version)
    newest = min(hi, APIS[api_key].max_version)
    # the newest version (the others' reference) is compared with itself: the same logical
    # request sent twice at it has the same outcome and end state
    if api_key != ApiKey.DescribeConfigs:
        check.require_mutations()
    api = EQUIVALENCES[api_key]
    notes: set[str] = set()

    def same_outcome_and_state(sc):
        old_side, new_side = {}, {}
        _, old_state = run_side(check, api, version, sc, old_side)
        _, new_state = run_side(check, api, newest, sc, new_side)
        _expect_equivalent(check, api_key, version, old_side, new_side)     # the judge decides
        notes.update(_unobservable(old_state) + _unobservable(new_state))

    check.given(api.scenarios(version), same_outcome_and_state)
    if notes:   # the property is about the end state too: not asked where it was not seen
        raise Unsupported(f"outcomes matched v{newest}, but the end state could not be observed: "
                          f"{'; '.join(sorted(notes))[:400]}")
    check.message = f"compared with v{newest}" + (" (sent twice: the newest version)" if version == newest else "")
