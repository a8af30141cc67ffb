"""KIP-201's never-released protocol changes as overlays on Kafka's message schemas (K1).

KIP-201 ("Rationalising Policy interfaces") proposed a new version of DeleteTopics and DeleteRecords whose
request carries ``validate_only`` and whose response carries ``error_message``, and
POLICY_VIOLATION answered by the delete APIs (UNKNOWN_SERVER_ERROR below the new version).
Released Kafka never shipped it: DeleteTopics got ``error_message`` in v5 for another reason
(KIP-599), neither API has ``validate_only`` in any version (docs/reference-semantics.md R1).

How an overlay plugs in
-----------------------
An overlay is a patch of the official JSON schema (the one kafka-python ships, i.e.
``clients/src/main/resources/common/message/<Name>.json``): the KIP's fields get
``"versions": "<N>+"`` where N is one above the official max, and ``validVersions`` grows to
N. kafka-python builds a message class from a patched schema (its ``json_patch`` hook), so
the overlay encodes and decodes exactly like the official classes, field names in
snake_case. :func:`codec` returns the pair of classes, built only when first asked (a broker
advertised the version), so a normal run loads nothing. A never-released *API* (K2's
DeletePartitions) is not a version of an official one: it is registered into the codec
whole (``protocol.codec.register_overlay``, ``reference/partition_deletion.py``).

How a broker says it implements KIP-201
---------------------------------------
Not by the version number: "one above the schema's maximum" is also what a future Kafka
that adds a DeleteTopics version for other reasons advertises. A KIP-201 broker declares
the feature :data:`FEATURE` (level :data:`FEATURE_LEVEL`) in ApiVersions v3+
``SupportedFeatures`` (KIP-584's list of what a broker can do; ``conformance/
capabilities.py``) *and* advertises the overlay version; K1 runs only when both hold.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from protocol import ApiKey
from protocol import codec as official

from .kips import KIP_201

SOURCE = KIP_201.cite("never released")

#: KIP-584 feature name a KIP-201 broker declares in ApiVersions v3+ SupportedFeatures
#: (level 1: the delete-side validate_only and error_message of :data:`OVERLAYS`).
FEATURE = "kip201.version"
FEATURE_LEVEL = 1


@dataclass(frozen=True)
class Overlay:
    api_key: int
    request_fields: tuple = ()           # (path, field json) added to the request
    response_fields: tuple = ()          # (path, field json) added to the response
    note: str = ""
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def version(self) -> int:
        """The overlay's version: one above the newest official one."""
        return official.APIS[self.api_key].max_version + 1


def _validate_only(v):
    return {"name": "ValidateOnly", "type": "bool", "versions": f"{v}+", "default": "false",
            "about": "KIP-201: if true, check that the request could be applied, but do not apply it."}


def _error_message(v):
    return {"name": "ErrorMessage", "type": "string", "versions": f"{v}+", "nullableVersions": f"{v}+",
            "ignorable": True, "default": "null",
            "about": "KIP-201: the error message, or null if there was no error."}


OVERLAYS: dict[int, Overlay] = {
    ApiKey.DeleteTopics: Overlay(ApiKey.DeleteTopics, request_fields=(("", _validate_only),),
                note="DeleteTopics: KIP-201 adds validate_only (its error_message exists since v5)"),
    ApiKey.DeleteRecords: Overlay(ApiKey.DeleteRecords, request_fields=(("", _validate_only),),
                response_fields=(("Topics.Partitions", _error_message),),
                note="DeleteRecords: KIP-201 adds validate_only and a per-partition error_message"),
}


def _patch(schema: dict, version: int, fields) -> dict:
    js = copy.deepcopy(schema)
    lo = js["validVersions"].split("-")[0]
    js["validVersions"] = f"{lo}-{version}"
    for path, make in fields:
        node = js
        for part in filter(None, path.split(".")):
            node = next(f for f in node["fields"] if f["name"] == part)
        node["fields"].append(make(version))
    return js


def codec(api_key: int):
    """(request class, response class) of the overlay, built on first use."""
    ov = OVERLAYS[api_key]
    if "classes" not in ov._cache:
        from kafka.protocol.api_header import ResponseClassRegistry
        from kafka.protocol.api_message import ApiMessage

        api = official.APIS[api_key]
        v = ov.version
        req_json = _patch(api.request.json, v, ov.request_fields)
        resp_json = _patch(api.response.json, v, ov.response_fields)
        saved = dict(ResponseClassRegistry._response_class_registry)
        try:
            req = type(api.request.__name__, (ApiMessage,),
                       {"json_patch": classmethod(lambda cls, js: req_json)})
            resp = type(api.response.__name__, (ApiMessage,),
                        {"json_patch": classmethod(lambda cls, js: resp_json)})
        finally:   # keep kafka-python's registry on the official classes
            ResponseClassRegistry._response_class_registry.clear()
            ResponseClassRegistry._response_class_registry.update(saved)
        ov._cache["classes"] = (req, resp)
    return ov._cache["classes"]


def encode_request(api_key: int, body: dict, correlation_id: int, client_id: str) -> bytes:
    req_cls, _ = codec(api_key)
    version = OVERLAYS[api_key].version
    saved = official.APIS[api_key]
    official.APIS[api_key] = official.Api(api_key, saved.name, req_cls, codec(api_key)[1])
    try:
        return official.encode_request(api_key, version, body, correlation_id, client_id)
    finally:
        official.APIS[api_key] = saved


def overlay_response_schema(api_key: int) -> dict:
    """The overlay's response schema (Kafka's JSON with KIP-201's fields), as a reproducer
    decodes the answer."""
    return codec(api_key)[1].json


def decode_response(api_key: int, payload: bytes) -> tuple[int, dict]:
    """An answer at the overlay's version, read by the suite's one reader with the
    overlay's response schema."""
    return official.decode_response(api_key, OVERLAYS[api_key].version, payload,
                                    schema=overlay_response_schema(api_key))
