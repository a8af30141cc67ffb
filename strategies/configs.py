"""Inputs for the config properties C1-C4 (IncrementalAlterConfigs, AlterConfigs).

Every value drawn here is one :mod:`conformance.config_model` can judge (valid or invalid for
LogConfig in every Kafka 4.x release, whose rules are ``reference.topic_config``'s):
list values never repeat an element (repeats are accepted before KIP-1161's ValidList and
refused after) and APPEND/SUBTRACT operands never hold an empty part. Operations are
``[name, op, value]`` lists (op an ``AlterConfigOp``) so a counterexample stored as JSON
replays unchanged.
"""
from __future__ import annotations

from hypothesis import strategies as st

from reference.release_lines import SEGMENT_BYTES_MIN
from reference.topic_config import CONFIGS, INT32, INT64, LIST_KEYS
from protocol import AlterConfigOp
from .domain import LIST_CONFIGS, TOPIC_CONFIGS, unknown_config_keys

NON_LIST_KEYS = sorted(k for k in CONFIGS if k not in LIST_KEYS)
LIST_KEY_NAMES = sorted(LIST_KEYS)
_LIST_OPS = [AlterConfigOp.APPEND, AlterConfigOp.SUBTRACT]

#: Numeric keys with wide valid ranges: C2's writers own disjoint pairs of them and write
#: values no default has (2,000,000 and up, below INT32_MAX, above segment.bytes' 1 MiB floor).
C2_KEYS = ("retention.ms", "retention.bytes", "segment.ms", "delete.retention.ms",
           "file.delete.delay.ms", "max.message.bytes", "index.interval.bytes", "segment.bytes")


#: LIST elements for APPEND/SUBTRACT/SET: few, so operations meet values already present
#: (APPEND of a present value, SUBTRACT of an absent one) within a short sequence.
ELEMENTS = {
    "cleanup.policy": st.sampled_from(["delete", "compact"]),
    "leader.replication.throttled.replicas": st.sampled_from(["0:0", "0:1", "1:0", "1:1"]),
    "follower.replication.throttled.replicas": st.sampled_from(["0:0", "0:1", "1:0", "1:1"]),
}


def _elements(key: str, max_size: int = 3):
    return st.lists(ELEMENTS[key], min_size=1, max_size=max_size, unique=True)


def valid_values(key: str):
    """Values LogConfig accepts for ``key``."""
    if key in TOPIC_CONFIGS:
        return TOPIC_CONFIGS[key][0]
    return st.lists(st.one_of(ELEMENTS[key], LIST_CONFIGS[key]), max_size=3, unique=True).map(",".join)


def invalid_values(key: str):
    """Values LogConfig rejects for ``key`` (INVALID_CONFIG)."""
    if key in TOPIC_CONFIGS:
        return TOPIC_CONFIGS[key][1]
    return st.sampled_from(["all", "0-1", "*,0:1", "p:1"])


def _op_for(key: str):
    if key in LIST_KEYS:
        kinds = st.sampled_from(["set", "delete", "append", "append", "append", "subtract", "subtract"])
    else:
        kinds = st.sampled_from(["set", "set", "set", "delete", "delete", "invalid", "listop"])

    def build(kind):
        if kind == "set":
            return valid_values(key).map(lambda v: [key, AlterConfigOp.SET, v])
        if kind == "delete":
            return st.just([key, AlterConfigOp.DELETE, None])
        if kind == "invalid":
            return invalid_values(key).map(lambda v: [key, AlterConfigOp.SET, v])
        if kind == "listop":            # APPEND/SUBTRACT on a non-LIST key: INVALID_CONFIG
            return st.tuples(st.sampled_from(_LIST_OPS), valid_values(key)).map(
                lambda t: [key, t[0], t[1]])
        op = AlterConfigOp.APPEND if kind == "append" else AlterConfigOp.SUBTRACT
        return _elements(key, 2).map(lambda es: [key, op, ",".join(es)])

    return kinds.flatmap(build)


def _request_on(pool: list[str]):
    """One IncrementalAlterConfigs resource: 1-3 operations on distinct keys of ``pool``."""
    names = st.lists(st.sampled_from(pool), min_size=1, max_size=min(3, len(pool)), unique=True)
    return names.flatmap(lambda ks: st.tuples(*[_op_for(k) for k in ks]).map(list))


def c1_sequences(max_steps: int = 10):
    """``{"keys": pool, "steps": [[op, ...], ...]}``: a few keys (always a LIST one) so the
    operations meet each other, and a sequence of 2+ requests on them."""
    pool = st.tuples(st.lists(st.sampled_from(LIST_KEY_NAMES), min_size=1, max_size=2, unique=True),
                     st.lists(st.sampled_from(NON_LIST_KEYS), min_size=0, max_size=2, unique=True)
                     ).map(lambda t: t[0] + t[1])
    return pool.flatmap(lambda keys: st.lists(_request_on(keys), min_size=2, max_size=max_steps).map(
        lambda steps: {"keys": keys, "steps": steps}))


def c2_plans():
    """``{"clients": [[n_keys_per_write, ...], ...]}``: 2-4 writers, each 3-8 writes of one
    or both of its two keys."""
    writer = st.lists(st.integers(1, 2), min_size=3, max_size=8)
    return st.lists(writer, min_size=2, max_size=4).map(lambda ws: {"clients": ws})


_C3_KEYS = NON_LIST_KEYS + ["cleanup.policy"]


def _config_dict(min_size=0, max_size=3, keys=_C3_KEYS):
    return st.lists(st.sampled_from(keys), min_size=min_size, max_size=max_size, unique=True).flatmap(
        lambda ks: st.tuples(*[valid_values(k) for k in ks]).map(lambda vs: dict(zip(ks, vs))))


def c3_cases():
    """``{"first": {...}, "second": {...}, "x": [key, value], "y": [key, value]}``: two full
    replaces, then two read-modify-write clients X and Y writing different keys."""
    xy = st.lists(st.sampled_from(_C3_KEYS), min_size=2, max_size=2, unique=True).flatmap(
        lambda ks: st.tuples(valid_values(ks[0]), valid_values(ks[1])).map(
            lambda vs: ([ks[0], vs[0]], [ks[1], vs[1]])))
    return st.tuples(_config_dict(1), _config_dict(0), xy).map(
        lambda t: {"first": t[0], "second": t[1], "x": t[2][0], "y": t[2][1]})


# -- C4 -----------------------------------------------------------------------------------

INCREMENTAL_KINDS = ("unknown key", "unknown key list op", "unknown key delete", "bad value",
                     "duplicate key", "null value", "unknown operation", "unknown topic",
                     "same resource twice")
LEGACY_KINDS = ("unknown key", "bad value", "duplicate key", "null value", "unknown topic",
                "same resource twice")


def _below(key):
    """One below ``key``'s lower bound (the reference's ``atLeast`` / ``between``)."""
    c = CONFIGS[key]
    return key, (str(c.min - 1) if c.type in ("int", "long") else f"{c.min - 0.01}")


def _above(key):
    """Just above ``key``'s upper bound: its ``between`` bound, else the largest of its type."""
    c = CONFIGS[key]
    if c.type == "double":
        return key, f"{c.max + 0.01}"
    return key, str({"int": INT32, "long": INT64}[c.type][1] + 1)


#: Values just outside LogConfig's bounds (Range.atLeast / between, the INT and LONG ranges):
#: each must answer INVALID_CONFIG. segment.bytes' floor depends on the release line
#: (1 MiB since 4.1, KIP-1030; 14 before: reference/release_lines.py): ``boundary_cases`` adds it.
BOUNDARY_VALUES = (
    _above("segment.bytes"),
    _below("retention.ms"), _above("retention.bytes"), _below("segment.ms"),
    _below("max.message.bytes"), _below("min.insync.replicas"), _below("delete.retention.ms"),
    _below("file.delete.delay.ms"), _below("index.interval.bytes"),
    _above("min.cleanable.dirty.ratio"), _below("min.cleanable.dirty.ratio"),
)


def boundary_cases():
    """C4 cases, one per BOUNDARY_VALUES entry (asked one by one, each as its own example)."""
    values = (("segment.bytes", str(SEGMENT_BYTES_MIN.now() - 1)),) + BOUNDARY_VALUES
    return [{"kind": "value out of range", "ops": [[k, AlterConfigOp.SET, v]]} for k, v in values]


def _valid_ops(max_size=2):
    """Valid SETs on distinct known keys (the rest of a resource whose one item is invalid)."""
    return st.lists(st.sampled_from(NON_LIST_KEYS), max_size=max_size, unique=True).flatmap(
        lambda ks: st.tuples(*[valid_values(k).map(lambda v, k=k: [k, AlterConfigOp.SET, v]) for k in ks]).map(list))


def _unknown_op_bytes():
    return st.one_of(st.integers(4, 127), st.integers(-128, -1))


def c4_cases(incremental: bool, unknown_operation: bool = True, kinds=None):
    """``{"kind": ..., "ops": [[name, op, value], ...]}``: one invalid item among valid ones
    (of one of ``kinds``, default all). For AlterConfigs the op is always SET (the legacy
    API has none)."""
    kinds = [k for k in (kinds or (INCREMENTAL_KINDS if incremental else LEGACY_KINDS))
             if unknown_operation or k != "unknown operation"]

    def bad(kind):
        if kind == "unknown key":
            return unknown_config_keys().map(lambda k: [[k, AlterConfigOp.SET, "1"]])
        if kind == "unknown key list op":
            return st.tuples(unknown_config_keys(), st.sampled_from(_LIST_OPS)).map(
                lambda t: [[t[0], t[1], "delete"]])
        if kind == "unknown key delete":
            return unknown_config_keys().map(lambda k: [[k, AlterConfigOp.DELETE, None]])
        if kind == "bad value":
            return st.sampled_from(sorted(TOPIC_CONFIGS)).flatmap(
                lambda k: invalid_values(k).map(lambda v: [[k, AlterConfigOp.SET, v]]))
        if kind == "duplicate key":
            ops = [AlterConfigOp.SET, AlterConfigOp.DELETE] if incremental else [AlterConfigOp.SET]
            return st.sampled_from(NON_LIST_KEYS).flatmap(lambda k: st.tuples(
                st.sampled_from(ops), st.sampled_from(ops), valid_values(k), valid_values(k)).map(
                lambda t: [[k, t[0], None if t[0] == AlterConfigOp.DELETE else t[2]],
                           [k, t[1], None if t[1] == AlterConfigOp.DELETE else t[3]]]))
        if kind == "null value":
            ops = [AlterConfigOp.SET, *_LIST_OPS] if incremental else [AlterConfigOp.SET]
            return st.tuples(st.sampled_from(NON_LIST_KEYS + LIST_KEY_NAMES), st.sampled_from(ops)).map(
                lambda t: [[t[0], t[1], None]])
        if kind == "unknown operation":
            return st.tuples(st.sampled_from(NON_LIST_KEYS), _unknown_op_bytes()).flatmap(
                lambda t: valid_values(t[0]).map(lambda v: [[t[0], t[1], v]]))
        # "unknown topic", "same resource twice": the invalid part is the resource, the ops are valid
        return st.sampled_from(NON_LIST_KEYS).flatmap(
            lambda k: valid_values(k).map(lambda v: [[k, AlterConfigOp.SET, v]]))

    def case(kind):
        return st.tuples(bad(kind), _valid_ops(), st.integers(0, 2)).map(
            lambda t: _assemble(kind, t[0], t[1], t[2]))

    return st.sampled_from(kinds).flatmap(case)


def _assemble(kind, bad_ops, others, position):
    if kind == "unknown key delete":          # alone: Kafka answers NONE and nothing may change
        return {"kind": kind, "ops": bad_ops}
    names = {o[0] for o in bad_ops}
    others = [o for o in others if o[0] not in names]
    at = min(position, len(others))
    return {"kind": kind, "ops": others[:at] + bad_ops + others[at:]}
