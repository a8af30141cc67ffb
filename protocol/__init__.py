"""The protocol layer: Kafka's wire format and vocabulary, and nothing about properties.

* ``codec``: Kafka's JSON message schemas -> plain dicts, every version 0..max;
* ``wire``: a raw connection (frame, send, read one answer);
* ``leaders``: partition requests split by leader on a cluster;
* ``apis``: ``ApiKey``, one declaration per API (``DECLARATIONS``: its role, whether it
  changes a cluster, ``SPECS``: where the per-item results are), config enums;
* ``schema_facts``: which version of a message has which field, read from the schemas;
* ``errors``: ``Errors`` (Kafka's error codes);
* ``requests``: one builder per admin API, ``requests.delete_topics(v, names=...)``.

Nothing here imports ``conformance``, ``strategies`` or ``fixtures``.
"""
from .apis import (SPECS, ZERO_UUID, AlterConfigOp, ApiKey, ConfigResourceType, ConfigSource,
                   OffsetSpec, api_name, spec)
from .errors import Errors, error_name

__all__ = ["SPECS", "ZERO_UUID", "AlterConfigOp", "ApiKey", "ConfigResourceType", "ConfigSource",
           "Errors", "OffsetSpec", "api_name", "error_name", "spec"]
