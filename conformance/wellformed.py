"""What a well-formed answer looks like, per API (catalogue P2).

Each API's request names items (topics, resources, partitions, groups, users, ...); its
response must carry exactly one result per distinct requested item and no others. Where
they are is each API's declaration (``protocol/apis.py``: ``asks`` and ``answers``), read
at the version by :mod:`protocol.item_keys`. A response whose top-level ``error_code``
fails the whole request (a group that does not exist for OffsetDelete, an unauthorized
cluster for ElectLeaders) lists no per-item results, so it is not matched.
"""
from __future__ import annotations

from fixtures.harness import expect
from protocol import item_keys
from protocol.errors import Errors


def error_codes(value):
    """Every ``error_code`` anywhere in a response body."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "error_code" and isinstance(v, int):
                yield v
            else:
                yield from error_codes(v)
    elif isinstance(value, list):
        for v in value:
            yield from error_codes(v)


def _shown(key: tuple):
    return key[0] if len(key) == 1 else key


def check_results_match(api_key: int, version: int, request: dict, response: dict) -> None:
    if response.get("error_code") not in (None, Errors.NONE):
        return                         # the whole request failed: no per-item results
    wanted = item_keys.requested(api_key, version, request)
    got = item_keys.answered(api_key, version, response)
    if wanted is None or got is None:
        return
    what = "result at position" if item_keys.positional(api_key) else "results for"
    dupes = sorted({repr(_shown(g)) for g in got if got.count(g) > 1})
    expect(not dupes, f"v{version}: response repeats {what} {', '.join(dupes)}")
    missing = [_shown(w) for w in dict.fromkeys(wanted) if w not in got]
    extra = [_shown(g) for g in got if g not in wanted]
    expect(not missing, f"v{version}: no result for requested {missing!r}")
    expect(not extra, f"v{version}: results for items not requested {extra!r}")


def check_throttle(version: int, response: dict) -> None:
    t = response.get("throttle_time_ms")
    expect(t is None or t >= 0, f"v{version}: throttle_time_ms {t} < 0")
