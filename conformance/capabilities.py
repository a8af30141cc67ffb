"""What a broker declares it can do beyond released Kafka: KIP-584 features.

A never-released proposal (K1's KIP-201, K2's partition deletion) is recognised by a
declaration, never by a version number: a future Kafka may add a version of DeleteTopics
for other reasons, and an unassigned API key proves nothing. The declaration is the one
Kafka has for "this broker can do X": a feature name in ApiVersions v3+
``SupportedFeatures`` (KIP-584; apache/kafka clients/src/main/resources/common/message/
ApiVersionsResponse.json, tag 0: name, min_version, max_version). The names are the
suite's (``reference/kip201.py`` FEATURE, ``.../partition_deletion.py``
FEATURE); a broker implementing the proposal lists the name with a range holding level 1.
"""
from __future__ import annotations

from fixtures.harness import Unsupported
from protocol import ApiKey, schema_facts
from protocol.codec import APIS

#: ApiVersions v3+ request fields (KIP-511), as protocol/wire.py sends them.
_CLIENT = {"client_software_name": "kafka-admin-conformance", "client_software_version": "0.1.0"}


def declared_features(check) -> dict[str, tuple[int, int]]:
    """name -> (min, max) of the broker's SupportedFeatures; {} when it answers
    ApiVersions only below v3 (which cannot declare any). Unsupported when the broker does
    not answer the ApiVersions it advertises (P1 judges that, not the proposals)."""
    lo, hi = check.require(ApiKey.ApiVersions)
    v = min(hi, APIS[ApiKey.ApiVersions].max_version)
    if not schema_facts.has_field(ApiKey.ApiVersions, v, "supported_features", schema_facts.RESPONSE):
        return {}
    ex = check.client().send(ApiKey.ApiVersions, v, dict(_CLIENT))
    if not ex.ok or not ex.response or ex.response.get("error_code"):
        raise Unsupported(f"cannot read the broker's declared features: ApiVersions v{v} "
                          f"answered {ex.describe() if not ex.ok else ex.response.get('error_code')}")
    return {f["name"]: (f["min_version"], f["max_version"])
            for f in ex.response.get("supported_features") or []}


def lacks(features: dict[str, tuple[int, int]], name: str, level: int) -> str | None:
    """Why ``features`` do not declare ``name`` at ``level`` (None: they do)."""
    rng = features.get(name)
    if rng is None:
        return f"no feature {name!r} in its ApiVersions v3+ SupportedFeatures"
    if not rng[0] <= level <= rng[1]:
        return f"it declares {name!r} at levels {rng[0]}-{rng[1]}, not {level}"
    return None


def require_feature(check, name: str, level: int, what: str) -> None:
    """Unsupported, saying why, unless the broker declares feature ``name`` at ``level``."""
    why = lacks(declared_features(check), name, level)
    if why:
        raise Unsupported(f"broker does not declare {what}: {why} (never released, so released "
                          "brokers lack it; a version number alone does not declare it)")
