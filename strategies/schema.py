"""Hypothesis strategies for any request or response body, driven by Kafka's JSON schemas.

kafka-python 3 parses Apache Kafka's message schemas
(``clients/src/main/resources/common/message/*.json``) into a field tree; this module walks
that tree. The field attributes mean what ``clients/src/main/resources/common/message/README.md``
says they mean:

* a field exists at a version when the version is in its ``versions``;
* it may be null only within its ``nullableVersions``;
* a tagged field (``taggedVersions``) may be left out, and then reads as its ``default``.

Bodies are the plain dicts ``protocol.codec`` takes: snake_case names, struct arrays as
lists of dicts, and ``None`` for ``Uuid.ZERO_UUID`` (how the codec decodes it).

``overrides`` maps a dotted path (``"timeout_ms"``, ``"topics.name"``) to a strategy or a
constant that replaces the generated value; :data:`OMIT` leaves the field out. A path valid
at some version of the schema but absent at the requested one is ignored, so one override
dict serves every version; a path the schema never had raises ``KeyError``.
"""
from __future__ import annotations

import functools
import uuid

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from protocol import ZERO_UUID, codec
from protocol.wire import INT16_MAX, INT16_MIN

#: Default largest array length; keeps examples (and broker work) small.
MAX_ITEMS = 3
#: Override value that leaves a field out of the body (a tagged field then reads as its default).
OMIT = object()

_SCALARS = {
    "int8": st.integers(-(1 << 7), (1 << 7) - 1),
    "int16": st.integers(INT16_MIN, INT16_MAX),
    "uint16": st.integers(0, 0xFFFF),
    "int32": st.integers(-(1 << 31), (1 << 31) - 1),
    "int64": st.integers(-(1 << 63), (1 << 63) - 1),
    "float64": st.floats(allow_nan=False),
    "bool": st.booleans(),
    "string": st.text(max_size=16),
    "bytes": st.binary(max_size=32),
    "records": st.binary(max_size=32),
    "uuid": st.none() | st.uuids(),
    # kafka-python's patched type for authorizedOperations: a set of ACL operation bits;
    # None is Kafka's "not requested" sentinel (Integer.MIN_VALUE, bit 31 alone).
    "bitfield": st.none() | st.frozensets(st.integers(0, 30), max_size=4).map(set),
}


def versions(api_key: int) -> range:
    """Every schema version 0..max, including the ones Kafka 4 removed."""
    return range(codec.APIS[api_key].max_version + 1)


def _node(schema, path: str):
    node = schema
    for part in filter(None, path.split(".")):
        node = node.fields[part]
    return node


def _has_children(field) -> bool:
    return field.is_struct() or field.is_struct_array()


def fields_at(schema, version: int, path: str = "") -> dict:
    """The kafka-python field objects that exist at ``version`` directly under ``path``."""
    return {f.name: f for f in _node(schema, path).fields.values() if f.for_version_q(version)}


def field_paths(schema, version: int | None = None) -> list[str]:
    """Dotted paths of every field at ``version`` (of any version when ``version`` is None)."""
    def walk(node, prefix):
        for f in node.fields.values():
            if version is None or f.for_version_q(version):
                yield prefix + f.name
                if _has_children(f):
                    yield from walk(f, prefix + f.name + ".")
    return list(walk(schema, ""))


def _check(node, overrides: dict | None) -> dict:
    overrides = dict(overrides or {})
    unknown = set(overrides) - set(field_paths(node))
    if unknown:
        raise KeyError(f"{getattr(node, 'name', node)}: no such field(s) {sorted(unknown)}")
    return overrides


def _as_strategy(value) -> SearchStrategy:
    return value if isinstance(value, SearchStrategy) else st.just(value)


def _drop_omitted(body: dict) -> dict:
    return {k: v for k, v in body.items() if v is not OMIT}


def _struct(node, version, overrides, prefix, max_items):
    required, optional = {}, {}
    for f in node.fields.values():
        if not f.for_version_q(version):
            continue
        path = prefix + f.name
        if path in overrides:
            required[f.name] = _as_strategy(overrides[path])
        elif f.tagged_field_q(version):
            optional[f.name] = _field(f, version, overrides, path, max_items)
        else:
            required[f.name] = _field(f, version, overrides, path, max_items)
    return st.fixed_dictionaries(required, optional=optional).map(_drop_omitted)


def _field(f, version, overrides, path, max_items):
    if f.is_struct_array():
        s = st.lists(_struct(f, version, overrides, path + ".", max_items), max_size=max_items)
    elif f.is_struct():
        s = _struct(f, version, overrides, path + ".", max_items)
    elif f.is_array():
        s = st.lists(_SCALARS[f.array_of.type_str], max_size=max_items)
    else:
        s = _SCALARS[f.type_str]
    return st.none() | s if f.nullable_for_version_q(version) else s


@functools.lru_cache(maxsize=None)
def _plain_body(schema, version, max_items):
    return _struct(schema, version, {}, "", max_items)


def message_body(schema, version: int, overrides: dict | None = None,
                 max_items: int = MAX_ITEMS) -> SearchStrategy[dict]:
    """Bodies of a kafka-python message class (``codec.APIS[k].request`` or ``.response``)
    that encode at ``version``: every field of the version, in-range values, nulls where
    nullable, tagged fields sometimes present, arrays of 0..``max_items``."""
    if not 0 <= version <= schema.max_version:
        raise ValueError(f"{schema.name}: no version {version} (max {schema.max_version})")
    if not overrides:
        return _plain_body(schema, version, max_items)
    return _struct(schema, version, _check(schema, overrides), "", max_items)


def request_body(api_key: int, version: int, overrides: dict | None = None,
                 max_items: int = MAX_ITEMS) -> SearchStrategy[dict]:
    """Request bodies of API ``api_key`` that encode at ``version`` (see :func:`message_body`)."""
    return message_body(codec.APIS[api_key].request, version, overrides, max_items)


def response_body(api_key: int, version: int, overrides: dict | None = None,
                  max_items: int = MAX_ITEMS) -> SearchStrategy[dict]:
    """Response bodies of API ``api_key`` that encode at ``version``."""
    return message_body(codec.APIS[api_key].response, version, overrides, max_items)


def element(schema, path: str, version: int, overrides: dict | None = None,
            max_items: int = MAX_ITEMS) -> SearchStrategy[dict]:
    """One item of the struct array (or the struct) at ``path``; ``overrides`` are relative
    to it. Lets a caller build the list itself, e.g. with unique names."""
    node = _node(schema, path)
    if not _has_children(node):
        raise ValueError(f"{path} is not a struct")
    return _struct(node, version, _check(node, overrides), "", max_items)


def _default(f):
    try:
        return f.default
    except NotImplementedError:  # a non-tagged struct has no default
        return None


def normalise(schema, version: int, body: dict) -> dict:
    """The canonical form of ``body`` at ``version``, for comparing an encoded body with its
    decoding: every field of the version (absent ones at their schema default), fields of
    other versions dropped, bytes as ``bytes``, ``Uuid.ZERO_UUID`` as None."""
    return _norm_struct(schema, version, body)


def _norm_struct(node, version, body):
    get = body.get if isinstance(body, dict) else lambda name, d: getattr(body, name, d)
    missing = object()
    out = {}
    for f in node.fields.values():
        if f.for_version_q(version):
            v = get(f.name, missing)
            out[f.name] = _norm(f, version, _default(f) if v is missing else v)
    return out


def _norm(f, version, v):
    if v is None:
        return None
    if f.is_struct_array():
        return [_norm_struct(f, version, x) for x in v]
    if f.is_struct():
        return _norm_struct(f, version, v)
    if f.is_array():
        return [_norm_scalar(f.array_of.type_str, x) for x in v]
    return _norm_scalar(f.type_str, v)


def _norm_scalar(type_str, v):
    if type_str in ("bytes", "records"):
        return v.encode() if isinstance(v, str) else bytes(v)
    if type_str == "uuid":
        v = v if isinstance(v, uuid.UUID) else uuid.UUID(str(v))
        return None if v == ZERO_UUID else v
    if type_str == "bitfield":
        return None if set(v) == {31} else set(v)
    return v
