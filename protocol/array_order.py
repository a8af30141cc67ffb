"""Which arrays of an answer have an order Kafka defines, and what identifies an entry of the others.

Kafka builds most of its answers' lists from hash maps and sets and promises no order: the
Admin client reads them into maps (``KafkaAdminClient``: a future per topic, per resource,
per group). Where Kafka promises none, every order is an answer Kafka allows, so the judge
compares those lists as sets of entries keyed by what identifies an entry (a config by its
name, a resource by type and name, a member by its id), and the shuffle proxy
(``proxy:shuffle@SPEC``, :mod:`faults.mutants.shuffle`) reorders every one of them to prove
that no property depends on an order Kafka does not define.

:data:`ORDERED` lists the exceptions, each with why its order is meaning (and where Kafka
says so); an array not listed there has no order. :data:`IDENTITY` names the fields that
identify an entry of an unordered array where neither the API's item declaration
(``answers``) nor the schema's ``mapKey`` says it. Both are read from the declarations
(``ApiSpec.ordered``, ``ApiSpec.identity``, in each API's family module). Paths are the response
schema's field names in snake_case, dotted from the top level (``results.configs``), as
:mod:`protocol.schema_facts` reads them; ``tests/test_array_order.py`` checks every path
here is one some version of the schema has.
"""
from __future__ import annotations

from functools import lru_cache

from .apis import DECLARATIONS, FLAT, POSITION, ApiKey
from .codec import APIS

#: (API, array path) -> why its order is part of the answer (each declaration's ``ordered``).
#: Everything else is shuffled by the shuffle proxy and compared as a set by the judge.
ORDERED: dict[tuple[ApiKey, str], str] = {
    (k, path): why for k, s in DECLARATIONS.items() for path, why in (s.ordered or {}).items()}

#: (API, array path) -> the entry fields that identify an entry, where the API's item
#: declaration and the schema's ``mapKey`` do not say (each declaration's ``identity``; an
#: array of plain values is its values; an entry with no identity here is compared as a whole).
IDENTITY: dict[tuple[ApiKey, str], tuple[str, ...]] = {
    (k, path): fields for k, s in DECLARATIONS.items() for path, fields in (s.identity or {}).items()}


def _walk(fields, prefix, out):
    for name, f in fields.items():
        path = prefix + name
        is_array = f._json["type"].startswith("[]")
        sub = f.fields if (f.is_struct() or f.is_struct_array()) else None
        if is_array:
            out[path] = f
        if sub:
            _walk(sub, path + ".", out)


@lru_cache(maxsize=None)
def arrays(api_key: int) -> dict[str, object]:
    """{path: schema field} of every array the API's response has in some version."""
    out: dict[str, object] = {}
    _walk(APIS[api_key].response.fields, "", out)
    return out


def ordered(api_key: int, path: str) -> bool:
    """Whether Kafka defines the order of the array at ``path`` of the API's answer."""
    return (api_key, path) in ORDERED           # an int or an ApiKey: an overlay API has no ApiKey


def _declared(api_key: int) -> dict[str, tuple[str, ...]]:
    """The identities the API's item declaration gives (``topics[name].partitions[partition_index]``)."""
    spec = DECLARATIONS.get(api_key)
    out: dict[str, tuple[str, ...]] = {}
    for union in (spec.answer_paths if spec else ()):
        for levels in union:
            path = ""
            for lv in levels:
                path = f"{path}.{lv.array}" if path else lv.array
                if lv.key not in (POSITION, FLAT, ()):      # of alternatives (name|topic_id), the first
                    out.setdefault(path, tuple(lv.key[:1]) if lv.fallback else tuple(lv.key))
    return out


@lru_cache(maxsize=None)
def identity(api_key: int, path: str) -> tuple[str, ...] | None:
    """The fields identifying an entry of the unordered struct array at ``path``: this
    module's table, else the API's item declaration, else the schema's ``mapKey`` fields;
    ``()`` for an array of plain values (the value is its identity); None where nothing
    identifies an entry but the whole of it."""
    f = arrays(api_key).get(path)
    if f is None:
        raise KeyError(f"{APIS[api_key].name}Response has no array {path!r}")
    if not f.is_struct_array():
        return ()
    hit = IDENTITY.get((api_key, path)) or _declared(api_key).get(path)
    if hit:
        return hit
    keys = tuple(n for n, g in f.fields.items() if g._json.get("mapKey"))
    return keys or None


@lru_cache(maxsize=None)
def judge_arrays(api_key: int, top: str | None = None) -> dict[str, object]:
    """The judge's view of the API's answer (``fixtures/judge/matching.py``, a ``same``
    expectation's ``arrays``): {path: ``"#"`` for an ordered array, else its identity
    fields (``[]``: a plain value, or nothing but the whole entry)}, for the arrays at or
    under ``top`` (a top-level field; None: all)."""
    out: dict[str, object] = {}
    for path in arrays(api_key):
        if top is not None and path != top and not path.startswith(top + "."):
            continue
        out[path] = "#" if ordered(api_key, path) else list(identity(api_key, path) or ())
    return out


__all__ = ["IDENTITY", "ORDERED", "arrays", "identity", "judge_arrays", "ordered"]
