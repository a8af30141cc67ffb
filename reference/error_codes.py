"""Which error codes each admin API of released Apache Kafka (4.x, KRaft) may return, and from
which request version on: the tables, read from the declaration table, and the questions the
properties ask of them.

The rows are data in each API's family module (``protocol/families/``: its declaration,
builders, codes and safe values together), every one naming the place in apache/kafka it was
read from ("apache/kafka <path>:<what>", ``protocol.kafka_sources``). Message schemas are the
4.x ones (the same files ship inside kafka-python 3.0.12 under
``kafka/protocol/schemas/resources``, which the suite's codec uses).

Shapes
------
``RULES``: version-gated codes (``protocol.declaring.ErrorRule``).  ``ErrorRule.below`` says
what Kafka does for requests older than ``since_version``:

* ``"forbidden"``          - the code never appears below ``since_version`` (there is no
                             replacement code, e.g. the input that causes it cannot be sent).
* ``"downgraded_to:<NAME>"`` - below ``since_version`` Kafka answers ``Errors.NAME`` instead
                             (``downgraded_to:NONE`` = the item succeeds, e.g. only throttled).
* ``"n/a"``                - no older version exists in released 4.x.

``ANY_VERSION``: per API, codes every supported version may return, each with its source.

``ERROR_MESSAGE``: from which version a response carries ``error_message`` and what Kafka
puts there (null on success, not always a message on error).

``ERRORS``: every Kafka error code -> name (``Errors.java``).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

from protocol import ApiKey, Errors, schema_facts
from protocol.apis import DECLARED_BY
from protocol.declaring import ErrorRule

_FAMILIES = tuple(dict.fromkeys(DECLARED_BY.values()))

#: Codes any supported version may return: api_key -> {code: source}.
ANY_VERSION: dict[int, dict[int, str]] = {k: dict(v) for f in _FAMILIES for k, v in f.codes.items()}

#: Version-gated codes, every family's.
RULES: list[ErrorRule] = [r for f in _FAMILIES for r in f.gated]

#: api_key -> (first version whose response carries error_message, top-level or per item, or
#: None: read from the response schema; null_on_success; note with sources).
ERROR_MESSAGE: dict[int, tuple[Optional[int], bool, str]] = {
    api: (schema_facts.first_message_version(api), *kafka) for f in _FAMILIES for api, kafka in f.messages.items()}

#: Codes released KRaft Kafka does NOT produce for these APIs through a broker (kept so a
#: finding can cite why it is unexpected): (api_key, code) -> why.
NOT_PRODUCED: dict[tuple[int, int], str] = {k: why for f in _FAMILIES for k, why in f.not_produced.items()}

#: The codes of an API whose answers the per-version tables do not describe (ApiVersions).
KNOWN_CODES: dict[int, dict[int, str]] = {k: dict(v) for f in _FAMILIES for k, v in f.known_codes.items()}

# --------------------------------------------------------------------------------------
# All Kafka error codes: ``protocol.errors.Errors`` (Errors.java), as a code -> name table.
# --------------------------------------------------------------------------------------
ERRORS: dict[int, str] = {e.value: e.name for e in Errors}


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------
def rules_for(api_key: int) -> list[ErrorRule]:
    return [r for r in RULES if r.api_key == api_key]


def allowed_codes(api_key: int, version: int) -> frozenset[int]:
    """Codes an item of ``api_key`` may carry at ``version`` in released Kafka 4.x."""
    codes = set(ANY_VERSION.get(api_key, {}))
    codes.update(r.error_code for r in RULES if r.api_key == api_key and r.since_version <= version)
    return frozenset(int(c) for c in codes)


def forbidden_codes(api_key: int, version: int) -> frozenset[int]:
    """Version-gated codes that must not appear at ``version`` (catalogue P5)."""
    return frozenset(int(r.error_code) for r in RULES
                     if r.api_key == api_key and version < r.since_version)


def may_answer(api_key: int, error_code: int, version: int) -> bool:
    """Whether an item of ``api_key`` may carry ``error_code`` at ``version`` (``allowed_codes``)."""
    return int(error_code) in allowed_codes(api_key, version)


def answered_as(api_key: int, error_code: int, version: int) -> Optional[int]:
    """What Kafka answers at ``version`` where a newer version answers ``error_code``: the code
    itself from its first version on, its downgrade below (``RULES``), None where nothing
    stands in for it (``below="forbidden"``)."""
    for r in RULES:
        if r.api_key == api_key and r.error_code == error_code and version < r.since_version:
            return None if r.downgraded_to is None else int(r.downgraded_to)
    return int(error_code)


def downgrade_of(api_key: int, error_code: int, version: int) -> Optional[int]:
    """What Kafka answers instead of ``error_code`` at ``version``, or None if nothing changes."""
    for r in RULES:
        if r.api_key == api_key and r.error_code == error_code and version < r.since_version:
            return None if r.downgraded_to is None else int(r.downgraded_to)
    return None


# --------------------------------------------------------------------------------------
# Which codes a response may carry at all (catalogue P2): the union of ``allowed_codes``
# over the API's versions. Whether a gated code came at a version that predates it is
# catalogue P5's question (conformance/test_error_codes.py). ApiVersions' codes are its
# family's ``known_codes`` (:data:`KNOWN_CODES`), not per version. An API in neither place
# accepts any code Kafka defines (Errors.java).
# --------------------------------------------------------------------------------------

#: Every code Kafka defines (``Errors.java``).
ALL_KAFKA_CODES = frozenset(int(e) for e in Errors)


@lru_cache(maxsize=None)
def known_error_codes(api_key: int) -> frozenset[int]:
    """Codes ``api_key`` can return at any version of released Kafka."""
    if api_key in KNOWN_CODES:
        return frozenset(KNOWN_CODES[api_key])
    if api_key not in ANY_VERSION:
        return ALL_KAFKA_CODES
    versions = range(0, 64)   # every version any schema has; gated codes count from their first
    return frozenset().union(*(allowed_codes(api_key, v) for v in versions))


def _self_check() -> None:
    for r in RULES:
        assert isinstance(r.error_code, Errors), r
        assert r.below == "forbidden" or r.below == "n/a" or r.downgraded_to is not None, r
        assert r.source.startswith("apache/kafka "), r
    for api, codes in ANY_VERSION.items():
        for code, source in codes.items():
            assert code in ERRORS, (api, code)
            assert source.startswith("apache/kafka "), (api, code)


_self_check()
