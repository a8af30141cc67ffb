"""Which items a request names and which results its answer lists, as comparable keys.

An API's declaration (:mod:`protocol.apis`, ``asks`` / ``answers``) says where they are as
item paths: ``"topics[name].partitions[partition_index]"``. Here those paths are read at a
version: of alternatives (``("groups[group_id]", "topics[name].partition_indexes[]")``), the
first whose top array that version's message has; each item becomes the tuple of its keys'
values along the path (``("t", 0)``), so a request's keys and its answer's compare
directly: an answer lists one result per requested item, and no other, exactly when the two
sets of keys are equal.
"""
from __future__ import annotations

from .apis import DECLARATIONS, POSITION, ZERO_UUID, ApiKey, Level
from .schema_facts import REQUEST, RESPONSE, defines, has_field
from .walk import walk_items


def _freeze(value):
    """A hashable form of a key value (a client quota entity is a list of structs, whose
    order Kafka does not keep)."""
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(sorted((_freeze(v) for v in value), key=repr))
    return value


#: The mark of a key part naming an item by alternatives (``topics[name|topic_id]``).
ALTERNATIVES = "|"


def alternatives(fields: tuple[str, ...], entry: dict) -> tuple:
    """What names an entry that may be named by any of ``fields`` (a DeleteTopics v6 or
    Metadata v10+ topic: by its name, by its topic id, or, in an answer, by both):
    ``("|", (field, value), ...)`` of the fields it carries (not null, not the zero topic
    id). A request's entry and an answer's name the same item when they share one pair:
    a topic deleted by id is matched by its id whatever name its result carries (KIP-516;
    ``ControllerApis.deleteTopics`` answers an unknown id with a null name, a known one
    with its name), and a result matched so whose name is wrong is a misnamed result, not
    a missing one (the judge's ``items``)."""
    return (ALTERNATIVES,) + tuple((f, _freeze(entry.get(f))) for f in fields
                                   if entry.get(f) is not None and entry.get(f) != ZERO_UUID)


def _data(levels: tuple[Level, ...]) -> list[dict]:
    """A path's levels as the walker reads them (:func:`answer_levels`' form)."""
    return [{"array": lv.array, "key": list(lv.key), "fallback": lv.fallback} for lv in levels]


def _chosen(api_key: int, version: int, side: str):
    """The union of paths of the first alternative whose top array ``version`` has."""
    s = DECLARATIONS[ApiKey(api_key)]
    for union in (s.ask_paths if side == REQUEST else s.answer_paths):
        top = union[0][0].array
        if defines(api_key, top, side) and has_field(api_key, version, top, side):
            return union
    return None


def _keys(api_key: int, version: int, body: dict, side: str) -> list[tuple] | None:
    union = _chosen(api_key, version, side)
    if union is None or not isinstance(body, dict):
        return None
    out = []
    for levels in union:
        if levels[0].array not in body:
            continue
        keys = walk_items(_data(levels), body, _freeze, alternatives)
        if keys is None:
            return None
        out.extend(keys)
    return out


def requested(api_key: int, version: int, body: dict) -> list[tuple] | None:
    """The keys of the items a request names at ``version`` (in order, repeats kept); None
    when the API names no items there, or "all of them": a null list, or an empty one
    (Metadata v0 and DescribeUserScramCredentials read an empty list as every topic, every
    user; elsewhere an empty request has nothing to match)."""
    keys = _keys(api_key, version, body, REQUEST)
    return keys or None


def answered(api_key: int, version: int, response: dict) -> list[tuple] | None:
    """The keys of the per-item results a response lists at ``version``; None when the
    version's answer has no per-item results."""
    return _keys(api_key, version, response, RESPONSE)


def positional(api_key: int) -> bool:
    """Whether the API's results are matched to its items by place (CreateAcls)."""
    s = DECLARATIONS[ApiKey(api_key)]
    return any(levels[0].key == POSITION for union in s.answer_paths for levels in union)


def answer_levels(api_key: int, version: int) -> list[list[dict]] | None:
    """The item paths of ``version``'s answer as data (the judge's ``items`` expectation,
    fixtures/judge/matching.py, walks them with :func:`answered`'s walker,
    protocol/walk.py): per path of the
    chosen alternative, its levels ``{"array", "key", "fallback"}`` (``key``: the entry
    fields naming the item, ``[]`` for a plain value, ``["#"]`` its place, ``["*"]``
    nothing). None when the version's answer has no per-item results."""
    union = _chosen(api_key, version, RESPONSE)
    if union is None:
        return None
    return [_data(levels) for levels in union]


__all__ = ["ALTERNATIVES", "alternatives", "answer_levels", "answered", "positional", "requested"]
