"""What a broker declares it can do: KIP-584 features, and the switches of advertised APIs.

A never-released proposal (K1's KIP-201, K2's partition deletion) is recognised by a
declaration, never by a version number: a future Kafka may add a version of DeleteTopics
for other reasons, and an unassigned API key proves nothing. The declaration is the one
Kafka has for "this broker can do X": a feature name in ApiVersions v3+
``SupportedFeatures`` (KIP-584; apache/kafka clients/src/main/resources/common/message/
ApiVersionsResponse.json, tag 0: name, min_version, max_version). The names are the
suite's (``reference/kip201.py`` FEATURE, ``.../partition_deletion.py``
FEATURE); a broker implementing the proposal lists the name with a range holding level 1.

An API Kafka advertises and serves only while a switch is on (``reference/switches.py``:
consumer groups, delegation tokens in KRaft) is ``unsupported`` where :func:`switched_off`
finds the evidence (the finalized features read now, the settings read this run, the release
line); otherwise its refusal is the check's finding (:func:`expect_served`).
"""
from __future__ import annotations

from fixtures.harness import SetupFailed, Unsupported
from fixtures.judge import select
from protocol import ApiKey, Errors, schema_facts
from protocol.codec import APIS
from reference import switches

#: ApiVersions v3+ request fields (KIP-511), as protocol/wire.py sends them.
_CLIENT = {"client_software_name": "kafka-admin-conformance", "client_software_version": "0.1.0"}


def _api_versions(check, field: str) -> list[dict] | None:
    """The broker's ApiVersions ``field`` list (v3+), asked now; None when the newest version
    both have lacks the field. A broker that does not answer the ApiVersions it advertises is
    a set-up failure of the check (an ``error`` row saying what came back: P1 judges the
    answer itself), never evidence that it lacks a feature."""
    lo, hi = check.require(ApiKey.ApiVersions)
    v = min(hi, APIS[ApiKey.ApiVersions].max_version)
    if not schema_facts.has_field(ApiKey.ApiVersions, v, field, schema_facts.RESPONSE):
        return None
    ex = check.client().send(ApiKey.ApiVersions, v, dict(_CLIENT))
    if not ex.ok or not ex.response or ex.response.get("error_code"):
        raise SetupFailed(f"setup: ApiVersions v{v} answered "
                          f"{ex.describe() if not ex.ok else ex.response.get('error_code')}, so the broker's "
                          f"{field} could not be read")
    return ex.response.get(field) or []


def declared_features(check) -> dict[str, tuple[int, int]]:
    """name -> (min, max) of the broker's SupportedFeatures; {} when it answers
    ApiVersions only below v3 (which cannot declare any)."""
    listed = _api_versions(check, "supported_features")
    return {f["name"]: (f["min_version"], f["max_version"]) for f in listed or []}


def finalized_features(check) -> dict[str, int] | None:
    """name -> finalized level, as ApiVersions v3+ answers it now (a check of the F family
    may have moved one since the run read them); None where it cannot say."""
    listed = _api_versions(check, "finalized_features")
    return None if listed is None else {f["name"]: f["max_version_level"] for f in listed}


def switched_off(check, switch: switches.Switch) -> str | None:
    """Why ``switch`` is off on the broker under check (its evidence, for the row), or None:
    nothing the broker shows turns it off, so a refusal is a finding."""
    return switches.off(switch, finalized_features(check))


def expect_served(check, switch: switches.Switch, path: list, says: str, step: int | None = None) -> None:
    """The step (default: the last sent) answered UNSUPPORTED_VERSION at ``path`` for an API
    the broker advertises: ``unsupported`` with the evidence where ``switch`` is off, else
    the check's finding (the judge holds the step to any code but UNSUPPORTED_VERSION)."""
    at = check.last_step if step is None else step
    answer = check.answers.get(at)
    codes = [] if answer is None or answer.response is None else select(answer.response, path)
    if Errors.UNSUPPORTED_VERSION not in codes:
        return
    why = switched_off(check, switch)
    if why:
        raise Unsupported(f"{says}: the broker answered UNSUPPORTED_VERSION, and {why} ({switch.source})")
    check.expect_field(path, refused=[Errors.UNSUPPORTED_VERSION], step=at,
                       says=f"{says}: served, the API advertised and nothing the broker shows turning "
                            f"{switch.what} off ({switch.source})")



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


#: the finalized feature that turns share groups on (KIP-932; ``ShareVersion``): Kafka's
#: KafkaApis serves the share group APIs only while it is at level 1 or more
#: (``isShareGroupProtocolEnabled``) and answers UNSUPPORTED_VERSION otherwise, though it
#: advertises them. Kafka 4.1 (share groups in preview) leaves it unfinalized on a new cluster;
#: 4.2 and later finalize it (measured: the manifests of kafka:4.1.2 and 4.2.2-4.4.0).
SHARE_VERSION = "share.version"


def share_groups_off(check) -> str | None:
    """Why share groups are off on the broker under check (its finalized features, read once
    per run from ApiVersions v3+, lack ``share.version`` at 1 or more), or None: on, or no
    finalized feature shown (then asked, and judged)."""
    features = check.broker.config.features
    if not features or features.get(SHARE_VERSION, 0) >= 1:
        return None
    return (f"its finalized features {sorted(features)} lack {SHARE_VERSION} >= 1, without which Kafka answers the "
            "share group APIs UNSUPPORTED_VERSION (KIP-932 preview in Kafka 4.1: kafka-features upgrade --feature "
            "share.version=1)")
