"""Every API the suite speaks, in one declaration table, and what is the same for all versions of each.

``ApiKey`` is the codec library's enum (kafka-python 3 ``kafka.protocol.api_key``, the
names of Kafka's ``ApiKeys``): ``ApiKey.CreateTopics``, never ``19``. ``DECLARATIONS`` holds
one :class:`ApiSpec` per API (``protocol/declaring.py``: its role, whether it changes a
cluster, where a response lists its per-item results and which field names an item, so "the
result for topic X" is answered here and nowhere else, and where its message schemas come
from), gathered from the family modules ``protocol/families/`` registers: each declares its
APIs next to their request builders, Kafka's error codes and the safe values of generated
requests (docs/CONTRIBUTING-properties.md, "Adding an API"). Every list of APIs is derived
from the table: the codec's ``ADMIN_APIS`` / ``DATA_APIS`` / ``SETUP_APIS``, the admin APIs
the generic properties run on (``conformance/parametrize.py``), the mutating APIs the
external-cluster guard refuses (``fixtures/scope.py``), the admin APIs by family
(:data:`API_FAMILIES`).
"""
from __future__ import annotations

from .building import ZERO_UUID
from .declaring import (ADMIN, DATA, FLAT, POSITION, SCHEMA_ENTITIES, SETUP, ApiKey, ApiSpec, Entity, Family, Level,
                        MessageSchemas, Role, parse_path)
from .families import REGISTERED


def _declare(*specs: ApiSpec) -> dict[ApiKey, ApiSpec]:
    keys = [s.key for s in specs]
    twice = sorted({k.name for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError(f"declared twice: {twice}")
    return {s.key: s for s in sorted(specs, key=lambda s: s.key)}


#: Every API the suite speaks, one declaration each, in API-key order. Every admin API
#: Kafka 4.4 serves is here (Role); the others it serves are in :data:`NOT_DECLARED`.
DECLARATIONS: dict[ApiKey, ApiSpec] = _declare(*(s for f in REGISTERED for s in f.declarations))

#: Which family module declared each API (its error codes and safe values are that module's).
DECLARED_BY: dict[ApiKey, Family] = {s.key: f for f in REGISTERED for s in f.declarations}

_MEMBER = "a group member's protocol (a consumer joins, stays in, leaves a group); the Admin client does not send it"
_TXN = "a transactional producer's protocol; the Admin client does not send it"
_STATE = "the share coordinator's state store, sent by brokers (KIP-932); never a client's request"

#: Every other API Apache Kafka 4.4 serves on a broker listener, by key (some have no name in
#: the codec library's ``ApiKey``): (its name, why it is not declared). A test asks a real
#: kafka:4.4.0 its ApiVersions and fails on an API in neither table.
NOT_DECLARED: dict[int, tuple[str, str]] = {
    int(ApiKey.Heartbeat): ("Heartbeat", _MEMBER),
    int(ApiKey.OffsetForLeaderEpoch): ("OffsetForLeaderEpoch", "a consumer's or follower's log truncation "
                                                               "check; the Admin client does not send it"),
    int(ApiKey.AddOffsetsToTxn): ("AddOffsetsToTxn", _TXN),
    int(ApiKey.WriteTxnMarkers): ("WriteTxnMarkers", "a transaction coordinator's request to partition leaders "
                                                     "(abortTransaction borrows it to abort a hanging transaction)"),
    int(ApiKey.TxnOffsetCommit): ("TxnOffsetCommit", _TXN),
    int(ApiKey.GetTelemetrySubscriptions): ("GetTelemetrySubscriptions", "a client's metrics push (KIP-714)"),
    int(ApiKey.PushTelemetry): ("PushTelemetry", "a client's metrics push (KIP-714)"),
    int(ApiKey.ShareFetch): ("ShareFetch", "a share consumer reading records (KIP-932)"),
    int(ApiKey.ShareAcknowledge): ("ShareAcknowledge", "a share consumer acknowledging records (KIP-932)"),
    int(ApiKey.InitializeShareGroupState): ("InitializeShareGroupState", _STATE),
    int(ApiKey.ReadShareGroupState): ("ReadShareGroupState", _STATE),
    int(ApiKey.WriteShareGroupState): ("WriteShareGroupState", _STATE),
    int(ApiKey.DeleteShareGroupState): ("DeleteShareGroupState", _STATE),
    int(ApiKey.ReadShareGroupStateSummary): ("ReadShareGroupStateSummary", _STATE),
    int(ApiKey.StreamsGroupHeartbeat): ("StreamsGroupHeartbeat", _MEMBER + " (KIP-1071)"),
    93: ("StreamsGroupTopologyDescriptionUpdate", "a Streams group member's topology report (KIP-1331); the "
                                                  "Admin client does not send it"),
    94: ("UnregisterController", "a controller leaving the quorum's registrations (KIP-1249), sent by the "
                                 "kafka-metadata tooling, not by the Admin client"),
}

#: The admin APIs by family (what the Admin client administers with them), in the order
#: their modules declare them, for the docs and for the properties of one family; every
#: admin API is in exactly one.
API_FAMILIES: dict[str, tuple[ApiKey, ...]] = {
    f.name: tuple(s.key for s in f.declarations if s.role is ADMIN)
    for f in REGISTERED if any(s.role is ADMIN for s in f.declarations)}


def family(api_key: int) -> str:
    """The family an admin API belongs to (:data:`API_FAMILIES`)."""
    return next(f for f, ks in API_FAMILIES.items() if api_key in ks)


#: The APIs whose responses list per-item results (where "the result for topic X" is).
SPECS: dict[ApiKey, ApiSpec] = {k: s for k, s in DECLARATIONS.items() if s.results}


def keys(role: Role | None = None, *, mutating: bool | None = None) -> tuple[ApiKey, ...]:
    """Declared API keys in key order, of ``role`` (None: any) and, when ``mutating`` is
    given, only those that change a cluster (True) or only those that read (False)."""
    return tuple(k for k, s in DECLARATIONS.items()
                 if (role is None or s.role is role)
                 and (mutating is None or (s.mutates is not None) == mutating))


def spec(api_key: int) -> ApiSpec:
    return SPECS[ApiKey(api_key)]


def _results_field(api_key: int, response: dict) -> str | None:
    """The per-item results field ``response`` carries (the first alternative it has)."""
    for alternative in DECLARATIONS[ApiKey(api_key)].answer_paths:
        field = alternative[0][0].array
        if field in response:
            return field
    return spec(api_key).results


def _leaves(api_key: int, response: dict) -> tuple[str | None, str | None]:
    field = _results_field(api_key, response)
    for alternative in DECLARATIONS[ApiKey(api_key)].answer_paths:
        levels = alternative[0]
        if levels[0].array == field:
            return field, levels[1].array if len(levels) > 1 else None
    return field, None


def results(api_key: int, response: dict) -> list[dict]:
    """The per-item entries of ``response`` (per partition where results are per partition)."""
    field, nested = _leaves(api_key, response)
    entries = response.get(field) or []
    if nested:
        return [p for e in entries for p in e.get(nested) or []]
    return list(entries)


def items(api_key: int, response: dict) -> list[dict]:
    """The top-level entries of ``response`` (per topic for DeleteRecords)."""
    return list(response.get(_results_field(api_key, response)) or [])


def result_for(api_key: int, response: dict, name: str) -> list[dict]:
    """The top-level entries of ``response`` that name ``name``."""
    field = spec(api_key).item
    return [e for e in items(api_key, response) if e.get(field) == name]


def api_name(api_key: int) -> str:
    try:
        return ApiKey(api_key).name
    except ValueError:
        return f"api {api_key}"


__all__ = ["ADMIN", "API_FAMILIES", "DATA", "DECLARATIONS", "DECLARED_BY", "FLAT", "NOT_DECLARED", "POSITION",
           "SCHEMA_ENTITIES", "SETUP", "SPECS", "ZERO_UUID", "ApiKey", "ApiSpec", "Entity", "Level", "MessageSchemas",
           "Role", "api_name", "family", "items", "keys", "parse_path", "result_for", "results", "spec"]
