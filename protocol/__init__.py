"""The protocol layer: Kafka's wire format and vocabulary, and nothing about properties.

* ``codec``: Kafka's JSON message schemas -> plain dicts, every version 0..max;
* ``reader``: the one reader of answers (the codec's, the judge's, every repro.py's) and
  ``walk``, the one walker of item paths: standard library only, carried into repro.py;
* ``wire``: a raw connection (frame, send, read one answer);
* ``leaders``: partition requests split by leader on a cluster;
* ``apis``: ``ApiKey``, the one declaration table (``DECLARATIONS``: each API's role,
  whether it changes a cluster, ``SPECS``: where the per-item results are), the admin APIs
  by family;
* ``families``: one module per admin API family, holding its APIs' declarations, request
  builders, Kafka's error codes and safe values (``declaring``: the shapes they are written
  in; ``building``: what every builder shares);
* ``schema_facts``: which version of a message has which field, read from the schemas;
* ``errors``: ``Errors`` (Kafka's error codes);
* ``requests``: every request builder under one name, ``requests.delete_topics(v, names=...)``.

Nothing here imports ``conformance``, ``strategies`` or ``fixtures``.
"""
from .apis import SPECS, ApiKey, api_name, spec
from .building import ZERO_UUID
from .errors import Errors, error_name
from .families.configs import AlterConfigOp, ConfigResourceType, ConfigSource
from .families.topics import OffsetSpec

__all__ = ["SPECS", "ZERO_UUID", "AlterConfigOp", "ApiKey", "ConfigResourceType", "ConfigSource",
           "Errors", "OffsetSpec", "api_name", "error_name", "spec"]
