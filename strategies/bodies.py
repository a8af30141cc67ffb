"""Request bodies for any declared admin API, from its schema: names inside the run, safe values.

For an admin API without a hand-written generator (``strategies/domain.py``), a body is the
schema's (:mod:`strategies.schema`: every field of the version, tagged fields sometimes),
with

1. every field that names something (:func:`protocol.schema_facts.entity_fields`) drawn from
   the run's names (:class:`strategies.entities.RunNames`): topics, groups, transactional
   ids, principals, users, quota entities, ACL resources, features, log dirs, node ids;
2. the API's rules from :func:`strategies.safe_values.rules` (what the schema alone would
   draw unsafely or uselessly), and a ``timeout_ms`` of the suite's timeout;
3. the arrays of the items the request names (its declaration's ``asks``) drawn without
   repeating an item, so "one result per item" (catalogue P2) is a question with one answer.
"""
from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from protocol import codec, schema_facts
from protocol.apis import DECLARATIONS, FLAT, POSITION, ApiKey, Level
from protocol.requests import TIMEOUT_MS

from . import schema
from .entities import RunNames
from .safe_values import rules


def _is_scalar_array(message, path: str) -> bool:
    node = message
    for part in path.split("."):
        node = node.fields[part]
    return node.is_array() and not node.is_struct_array()


def _node(message, path: str):
    node = message
    for part in path.split("."):
        node = node.fields[part]
    return node


def _key_of(level: Level):
    if level.plain:
        return lambda v: v
    if level.fallback:
        return lambda e: next((e.get(f) for f in level.key if e.get(f) is not None), None)
    return lambda e: tuple(repr(e.get(f)) for f in level.key)


def _items(message, version, path, level, rest, overrides, names, min_size=0) -> SearchStrategy | None:
    """The array at ``path`` (a level of the request's items), unique by the level's key."""
    try:
        node = _node(message, path)
    except KeyError:
        return None
    if not node.for_version_q(version):
        return None
    if level.plain or not node.is_struct_array():
        entry = overrides.get(path + ".*")
        if entry is None:
            entry = schema._SCALARS[node.array_of.type_str]
        return st.lists(entry, min_size=min_size, max_size=schema.MAX_ITEMS, unique=True)
    inner = {k[len(path) + 1:]: v for k, v in overrides.items() if k.startswith(path + ".") and not k.endswith(".*")}
    if rest:
        below = _items(message, version, f"{path}.{rest[0].array}", rest[0], rest[1:], overrides, names)
        if below is not None and rest[0].array not in inner:
            inner[rest[0].array] = below
    element = schema.element(message, path, version, inner)
    if level.key in (POSITION, FLAT):
        return st.lists(element, min_size=min_size, max_size=schema.MAX_ITEMS)
    return st.lists(element, min_size=min_size, max_size=schema.MAX_ITEMS, unique_by=_key_of(level))


def name_overrides(api_key: int, version: int, names: RunNames) -> dict:
    """{path: strategy} for every request field naming something, drawn from ``names``
    (a scalar array of names: a list of distinct ones)."""
    message = codec.APIS[api_key].request
    out = {}
    for path, entity in schema_facts.entity_fields(api_key).items():
        draw = names.of(entity)
        if _is_scalar_array(message, path):
            out[path] = st.lists(draw, max_size=schema.MAX_ITEMS, unique=True)
            out[path + ".*"] = draw
        else:
            out[path] = draw
    return out


def generic_request(api_key: int, version: int, names: RunNames,
                    overrides: dict | None = None) -> SearchStrategy[dict]:
    """Bodies of any declared admin API at ``version`` (see the module docstring);
    ``overrides`` (dotted paths, as for :func:`strategies.schema.request_body`) come last."""
    s = DECLARATIONS[ApiKey(api_key)]
    message = codec.APIS[api_key].request
    known = set(schema.field_paths(message))
    ov = dict(name_overrides(api_key, version, names))
    if "timeout_ms" in known:
        ov["timeout_ms"] = st.just(TIMEOUT_MS)
    ov.update({p: r.strategy(names, version) for p, r in rules(api_key).items()})
    ov.update(overrides or {})
    for union in s.ask_paths:
        for levels in union:
            top = levels[0].array
            if top in known and top not in (overrides or {}) and not _fixed_whole(api_key, top):
                arr = _items(message, version, top, levels[0], levels[1:], ov, names, min_size=1)
                if arr is not None:
                    ov[top] = arr
    return schema.request_body(api_key, version, {p: v for p, v in ov.items()
                                                  if not p.endswith(".*") and p in known})


def _fixed_whole(api_key: int, path: str) -> bool:
    """Whether the API's rules draw the whole array at ``path`` themselves."""
    return path in rules(api_key)


__all__ = ["generic_request", "name_overrides"]
