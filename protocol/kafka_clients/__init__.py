"""Apache Kafka's own message schemas, vendored from the ``kafka-clients`` jar of a release.

kafka-python 3 (the codec's library) ships Kafka's JSON message schemas for most APIs; for
the admin APIs it lacks (the delegation-token APIs, ConsumerGroupDescribe, ShareGroupDescribe,
StreamsGroupDescribe, the share-group offset APIs, Add/RemoveRaftVoter, UnregisterBroker) or
ships at an older version than Kafka serves (ApiVersions v5, DeleteGroups v3), the files here
are Kafka's, byte for byte as the jar packages them under ``common/message/``
(apache/kafka clients/src/main/resources/common/message/*.json, Apache-2.0). Which jar, its
Maven coordinates and SHA-256, and which files are in ``manifest.json``;
``python -m protocol.kafka_clients.extract JAR`` writes them again from a jar, and
``tests/test_kafka_clients_schemas.py`` re-extracts them from the pinned jar (resolved from
Maven Central) and checks they are identical.

The files keep Kafka's ``//`` comments; :func:`schemas` reads them the way kafka-python reads
its own copies (whole-line comments stripped, as Kafka's generator reads them with Jackson's
comment support; ``commonStructs`` resolved).
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from kafka.protocol.schemas import load_json

#: The manifest: ``{"maven": "group:artifact:version", "jar": name, "sha256": hex, "path":
#: "common/message/", "files": [names]}``.
MANIFEST_FILE = "manifest.json"


@lru_cache(maxsize=None)
def manifest() -> dict:
    return json.loads(resources.files(__package__).joinpath(MANIFEST_FILE).read_text(encoding="utf-8"))


def origin() -> str:
    """Where the files come from, for a declaration's ``MessageSchemas.origin``."""
    m = manifest()
    return f"{m['maven']} ({m['jar']}, sha256 {m['sha256'][:12]}...) {m['path']}"


def has(name: str) -> bool:
    """Whether ``<name>Request.json`` and ``<name>Response.json`` are vendored here."""
    files = set(manifest()["files"])
    return f"{name}Request.json" in files and f"{name}Response.json" in files


@lru_cache(maxsize=None)
def schemas(name: str) -> tuple[dict, dict]:
    """(request schema, response schema) of API ``name`` (``"DescribeDelegationToken"``) as
    parsed JSON. A name not vendored is a LookupError naming the extraction script."""
    if not has(name):
        raise LookupError(f"{name}Request/Response.json are not vendored in protocol/kafka_clients: add them to "
                          "its manifest and run python -m protocol.kafka_clients.extract JAR")
    return load_json(f"{name}Request", __package__), load_json(f"{name}Response", __package__)


__all__ = ["manifest", "origin", "has", "schemas"]
