"""Which error codes a response may carry at all (catalogue P2).

The per-API table ``reference/error_codes.py`` lists, with a source for each, the codes
released Apache Kafka (4.x, KRaft) can answer for every admin API, and the version-gated
ones (``RULES``). P2 asks whether a code is one the API can return *at some version*: the
union of ``allowed_codes`` over the API's versions. Whether a gated code came at a version
that predates it is catalogue P5's question (``conformance/test_error_codes.py``).

ApiVersions is not in that table (it is not an admin operation); its codes are below.
An API in neither place accepts any code Kafka defines (``Errors.java``).
"""
from __future__ import annotations

from functools import lru_cache

from protocol import ApiKey, Errors

from . import error_codes as ec

#: Every code Kafka defines (``Errors.java``).
ALL_KAFKA_CODES = frozenset(int(e) for e in Errors)

_CONTROLLER_APIS = "apache/kafka core/src/main/scala/kafka/server/ControllerApis.scala"
_API_VERSIONS_REQUEST = "apache/kafka clients/src/main/java/org/apache/kafka/common/requests/ApiVersionsRequest.java"

#: ApiVersions (18): codes with their source.
API_VERSIONS_CODES: dict[int, str] = {
    Errors.NONE: f"{_CONTROLLER_APIS}: handleApiVersionsRequest -> apiVersionManager.apiVersionResponse",
    Errors.UNSUPPORTED_VERSION:
        f"{_CONTROLLER_APIS}: hasUnsupportedRequestVersion -> getErrorResponse(UNSUPPORTED_VERSION) (v0 body)",
    Errors.INVALID_REQUEST:
        f"{_CONTROLLER_APIS}: !apiVersionRequest.isValid -> getErrorResponse(INVALID_REQUEST); "
        f"{_API_VERSIONS_REQUEST}: isValid (client software name/version pattern, v3+)",
    Errors.UNKNOWN_SERVER_ERROR:
        "apache/kafka core/src/main/scala/kafka/server/KafkaApis.scala: handle -> handleError (any API)",
}


@lru_cache(maxsize=None)
def known_error_codes(api_key: int) -> frozenset[int]:
    """Codes ``api_key`` can return at any version of released Kafka."""
    if api_key == ApiKey.ApiVersions:
        return frozenset(API_VERSIONS_CODES)
    if api_key not in ec.ANY_VERSION:
        return ALL_KAFKA_CODES
    versions = range(0, 64)   # every version any schema has; gated codes count from their first
    return frozenset().union(*(ec.allowed_codes(api_key, v) for v in versions))
