"""Which error codes a response may carry at all (catalogue P2).

Until the per-API table (reference/error_codes.py) lists an API, any code Kafka defines
(``clients/src/main/java/org/apache/kafka/common/protocol/Errors.java``) is accepted.
"""
from __future__ import annotations

from kafka.errors import kafka_errors

ALL_KAFKA_CODES = frozenset(k for k in kafka_errors if k is not None) | {0}


def known_error_codes(api_key: int) -> frozenset[int]:
    return ALL_KAFKA_CODES
