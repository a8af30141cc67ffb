"""What every request builder shares: the suite's timeout, the refusal of a request a version
cannot say, and the registry that says which API each builder builds.

As in apache/kafka (``new DeleteTopicsRequest.Builder(data).build(version)``), a caller says
*what* it asks (which topics, which configs, validate only or not) and the builder writes the
fields that version has: ``delete_topics(6, names=["a"])`` lists ``{"name": "a", "topic_id":
ZERO_UUID}`` under ``topics``, ``delete_topics(3, names=["a"])`` lists ``topic_names``. A
request a version cannot express (topic ids before DeleteTopics v6) raises
:class:`Inexpressible`. Field presence by version is read from the message schemas
(apache/kafka clients/src/main/resources/common/message/*Request.json); the suite's codec
(``protocol/codec.py``) encodes these dicts.

Each builder lives in the family module that declares its API (``protocol/families/``) and
says so with :func:`builds`; ``tests/test_layout.py`` checks that every builder of an API is
in the module declaring it. ``protocol/requests.py`` gathers them under one name.
"""
from __future__ import annotations

import uuid
from typing import Callable, Mapping

from kafka.protocol.api_key import ApiKey

#: The timeout the suite's admin requests carry unless told otherwise.
TIMEOUT_MS = 5000

#: A topic id that names no topic: the id field of an entry named by its name.
ZERO_UUID = uuid.UUID(int=0)


class Inexpressible(ValueError):
    """The logical request cannot be said at that version."""


#: builder -> the APIs whose requests (or parts of them) it builds.
BUILDERS: dict[Callable, tuple[ApiKey, ...]] = {}


def builds(*keys: ApiKey):
    """Mark a function as the builder of requests (or of a part of one) of ``keys``."""
    if not keys or not all(isinstance(k, ApiKey) for k in keys):
        raise TypeError(f"builds() takes the ApiKey of each API built, not {keys!r}")

    def mark(fn: Callable) -> Callable:
        BUILDERS[fn] = tuple(keys)
        return fn
    return mark


def pairs(configs) -> list:
    """``{k: v}`` or ``[(k, v), ...]`` -> ``[(k, v), ...]`` (lists keep duplicates)."""
    if configs is None:
        return []
    return list(configs.items()) if isinstance(configs, Mapping) else [tuple(kv) for kv in configs]


__all__ = ["BUILDERS", "TIMEOUT_MS", "ZERO_UUID", "Inexpressible", "builds", "pairs"]
