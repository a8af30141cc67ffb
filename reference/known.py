"""Which reviewed known deviations of released Apache Kafka a broker under check has.

The list is ``kafka_known_deviations.json`` (docs/kafka.md, "Known deviations of Kafka
itself"). A generator that would keep meeting an entry's request shape (S1 drawing two
colliding names into one CreateTopics) asks :func:`applies` and leaves the shape to the
entry's dedicated check on the brokers the entry names, so it keeps finding other things
there, and keeps asking every other broker (tansu, noida-db, a Kafka release the entry does
not list).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache

from . import KNOWN_DEVIATIONS

#: CreateTopics creates two names colliding by '.'/'_' when one request names both.
BATCH_COLLISION = "create-topics-colliding-names-in-one-request-both-created"


@lru_cache(maxsize=None)
def _entries(path: str = KNOWN_DEVIATIONS) -> dict[str, dict]:
    with open(path, encoding="utf-8") as fh:
        return {e["id"]: e for e in json.load(fh)["deviations"]}


def release_line(version: str | None) -> str | None:
    """``X.Y`` of a release ``X.Y.Z`` (None when the version does not say)."""
    m = re.match(r"(\d+)\.(\d+)", version or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


def applies(entry_id: str, impl: str | None, version: str | None) -> bool:
    """Does the entry name this broker: its implementation and its release line?"""
    entry = _entries()[entry_id]
    return impl == entry["broker_impl"] and release_line(version) in entry["releases"]
