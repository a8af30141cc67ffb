"""The one walker of item paths: the keys of every item a request names or an answer lists
along an API's item path (protocol/declaring.py ``Level``, as data: ``{"array", "key",
"fallback"}``), for the suite (protocol/item_keys.py) and the judge's ``items`` verdict
(fixtures/judge/matching.py) alike.

Standard library only, imported by name (``from protocol.walk import walk_items``): every
repro.py carries this module with the judge's (fixtures/repro/export.py ``judge_source``).
"""


def walk_items(levels, value, part, alternatives, prefix=()):
    """The keys of every item under ``levels`` (each ``{"array": name, "key": fields,
    "fallback": bool}``; ``key`` ``["*"]`` an array walked through, ``["#"]`` an entry's
    place, ``[]`` a plain value), each a tuple of one part per level; None where an array
    on the way is null (a request's "all of them"). ``part(value)`` makes a key part of a
    value, ``alternatives(fields, entry)`` the part of a level whose fields are
    alternatives (``name|topic_id``)."""
    level, rest = levels[0], levels[1:]
    entries = value.get(level["array"]) if isinstance(value, dict) else None
    if entries is None:
        return None
    key = list(level["key"])
    flat, position, fallback = key == ["*"], key == ["#"], level.get("fallback")
    out = []
    for i, entry in enumerate(entries):
        if flat:
            here = prefix
        elif position:
            here = prefix + (i,)
        elif not key:
            here = prefix + (part(entry),)
        elif fallback:
            here = prefix + (alternatives(key, entry),)
        else:
            here = prefix + tuple(part(entry.get(f)) for f in key)
        if not rest:
            out.append(here)
            continue
        below = walk_items(rest, entry, part, alternatives, here)
        if below is None:
            return None
        out.extend(below)
    return out
