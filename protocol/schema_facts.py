"""What a version of an API's messages holds, read from Kafka's message schemas.

"Does CreateTopics v5's response carry ``num_partitions``?" is answered from the schema the
codec encodes with (apache/kafka clients/src/main/resources/common/message/*.json, as
shipped in kafka-python 3 or declared beside the API in :mod:`protocol.apis`), so the rest
of the suite never restates a field's first version as a number. A path names fields in
snake_case from the message's top level, struct arrays included:
``has_field(ApiKey.CreateTopics, 7, "topics.topic_id", side="response")``.

Rules the schemas cannot express (an error code introduced at a version, a value a field
accepts from a version on) live in :mod:`reference` with their sources, not here.
"""
from __future__ import annotations

from functools import lru_cache

from .apis import DECLARATIONS, SCHEMA_ENTITIES, ApiKey, Entity, Role, keys, spec
from .codec import APIS

REQUEST, RESPONSE = "request", "response"


def _message(api_key: int, side: str):
    if side not in (REQUEST, RESPONSE):
        raise ValueError(f"side is {REQUEST!r} or {RESPONSE!r}, not {side!r}")
    api = APIS[api_key]
    return api.request if side == REQUEST else api.response


@lru_cache(maxsize=None)
def _chain(api_key: int, path: str, side: str) -> tuple | None:
    """The schema fields along ``path`` (outermost first), or None when no version has it."""
    fields, chain = _message(api_key, side).fields, []
    for part in path.split("."):
        f = (fields or {}).get(part)
        if f is None:
            return None
        chain.append(f)
        fields = f.fields if (f.is_struct() or f.is_struct_array()) else None
    return tuple(chain)


def _fields_of(api_key: int, path: str, side: str) -> tuple:
    chain = _chain(api_key, path, side)
    if chain is None:
        raise KeyError(f"{APIS[api_key].name}{side.capitalize()} has no field {path!r} in any "
                       f"version (paths are snake_case, dotted: 'topics.topic_id')")
    return chain


def defines(api_key: int, path: str, side: str = REQUEST) -> bool:
    """Whether any version of the API's ``side`` message has the field at ``path``."""
    return _chain(api_key, path, side) is not None


def has_field(api_key: int, version: int, path: str, side: str = REQUEST) -> bool:
    """Whether ``version`` of the API's ``side`` message carries the field at ``path``
    (every struct on the way there included). A path no version defines is a KeyError: a
    misspelt path must not read as "not in this version"; ask :func:`defines` first when
    the API may not have it at all."""
    return all(f.for_version_q(version) for f in _fields_of(api_key, path, side))


def nullable(api_key: int, version: int, path: str, side: str = REQUEST) -> bool:
    """Whether the field at ``path`` exists at ``version`` and may be null there."""
    chain = _fields_of(api_key, path, side)
    return has_field(api_key, version, path, side) and chain[-1].nullable_for_version_q(version)


def first_version_with(api_key: int, path: str, side: str = REQUEST) -> int | None:
    """The lowest version (0..the schema's max) carrying the field at ``path``; None when no
    version does."""
    if _chain(api_key, path, side) is None:
        return None
    top = APIS[api_key].max_version
    return next((v for v in range(top + 1) if has_field(api_key, v, path, side)), None)


def flexible(api_key: int, version: int) -> bool:
    """Whether ``version`` is a flexible version (KIP-482: compact encodings, tagged fields)."""
    return bool(APIS[api_key].request.flexible_version_q(version))


def results_path(api_key: int, field: str) -> str:
    """The response path of ``field`` in each per-item result (``protocol.apis.SPECS``):
    ``results_path(ApiKey.DeleteRecords, "error_code")`` is ``"topics.partitions.error_code"``."""
    s = spec(api_key)
    return ".".join(p for p in (s.results, s.partitions, field) if p)


def item_has(api_key: int, version: int, field: str) -> bool:
    """Whether ``version``'s per-item results carry ``field`` (False for an API whose
    results never do, such as Metadata's ``error_message``)."""
    path = results_path(api_key, field)
    return defines(api_key, path, RESPONSE) and has_field(api_key, version, path, RESPONSE)


def message_paths(api_key: int) -> tuple[str, ...]:
    """The response paths of ``error_message`` fields that explain an ``error_code`` beside
    them: the top-level one, and the per-item results' (``protocol.apis.SPECS``), those the
    API's response defines in some version."""
    paths = ["error_message"] if defines(api_key, "error_code", RESPONSE) else []
    if ApiKey(api_key) in DECLARATIONS and DECLARATIONS[ApiKey(api_key)].results:
        paths.append(results_path(api_key, "error_message"))
    return tuple(p for p in paths if defines(api_key, p, RESPONSE))


def first_message_version(api_key: int) -> int | None:
    """The first version whose response carries an error message (top-level or per item)."""
    firsts = [v for p in message_paths(api_key) if (v := first_version_with(api_key, p, RESPONSE)) is not None]
    return min(firsts, default=None)


def declared_with(path: str, side: str = REQUEST, role: Role | None = Role.ADMIN,
                  naming: frozenset[Entity] | None = None) -> tuple[ApiKey, ...]:
    """The declared APIs (of ``role``; None: any) whose ``side`` message has ``path`` in
    some version, in API-key order: ``declared_with("validate_only")``; with ``naming``,
    only those whose requests name one of those entities (topics and config resources:
    the topic APIs among them, :data:`TOPIC_RESOURCES`)."""
    return tuple(k for k in keys(role) if defines(k, path, side)
                 and (naming is None or naming & set(entity_fields(k).values())))


#: What a topic API's request names: topics, or config resources (of type TOPIC among others).
TOPIC_RESOURCES = frozenset({Entity.TOPIC, Entity.CONFIG_RESOURCE})


def _topic_entries(api_key: int) -> tuple[str, str] | None:
    """(the request's top-level array of topic entries, the entries' topic-name field), for
    an API whose entries have a ``topic_id``."""
    for name, f in _message(api_key, REQUEST).fields.items():
        if f.is_struct_array() and "topic_id" in f.fields:
            names = [n for n, g in f.fields.items() if g._json.get("entityType") == "topicName"]
            return name, names[0] if names else ""
    return None


@lru_cache(maxsize=None)
def by_id_from(api_key: int) -> int | None:
    """The first version whose request may name a topic by id alone: its topic entries
    carry ``topic_id`` and their name is nullable or gone (Metadata 10, DeleteTopics 6,
    Fetch 13, Produce 13 in Kafka 4's schemas); None for an API that never can."""
    entries = _topic_entries(api_key)
    if entries is None:
        return None
    array, name = entries
    for v in range(APIS[api_key].max_version + 1):
        if not has_field(api_key, v, f"{array}.topic_id"):
            continue
        if not name or not has_field(api_key, v, f"{array}.{name}") or nullable(api_key, v, f"{array}.{name}"):
            return v
    return None


@lru_cache(maxsize=None)
def entity_fields(api_key: int, side: str = REQUEST) -> dict[str, Entity]:
    """{dotted path: what it names} of every field of the API's ``side`` message (any
    version) that names a topic, a group or a transactional id (the schema's
    ``entityType``), or another :class:`~protocol.apis.Entity` its declaration names
    (``ApiSpec.names``): the names a run keeps inside its prefix."""
    out: dict[str, Entity] = {}

    def walk(fields, prefix):
        for name, f in fields.items():
            entity = SCHEMA_ENTITIES.get(f._json.get("entityType"))
            if entity is not None:
                out[prefix + name] = entity
            if f.is_struct() or f.is_struct_array():
                walk(f.fields, prefix + name + ".")
    walk(_message(api_key, side).fields, "")
    declared = DECLARATIONS.get(ApiKey(api_key))
    if side == REQUEST and declared is not None and declared.names:
        for path, entity in declared.names.items():
            _fields_of(api_key, path, side)          # a misspelt path is an error, not a silent miss
            out[path] = entity
    return out


def valid_versions(api_key: int) -> tuple[int, int]:
    """The request schema's ``validVersions`` (Kafka 4 removed the versions below the first;
    the codec still speaks them)."""
    api = APIS[api_key]
    return api.kafka_min_version, api.max_version


__all__ = ["REQUEST", "RESPONSE", "TOPIC_RESOURCES", "by_id_from", "declared_with", "defines", "entity_fields", "first_message_version",
           "first_version_with", "message_paths",
           "flexible",
           "has_field", "item_has", "nullable", "results_path", "valid_versions"]
