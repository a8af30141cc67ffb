"""What a well-formed answer looks like, per API (catalogue P2).

Each API's request names items (topics, resources, partitions, groups, users, ...); its
response must carry exactly one result per distinct requested item and no others. Where
they are is each API's declaration (``protocol/apis.py``: ``asks`` and ``answers``), read
at the version by :mod:`protocol.item_keys`. A response whose top-level ``error_code``
fails the whole request (a group that does not exist for OffsetDelete, an unauthorized
cluster for ElectLeaders) lists no per-item results, so it is not matched.
"""
from __future__ import annotations

from protocol import item_keys


def expect_results_match(check, api_key: int, version: int, request: dict) -> None:
    """The answer to ``request`` (the check's last step) lists one result per distinct
    requested item and no other (the judge's ``items`` expectation; an answer whose
    top-level error_code fails the whole request lists none and is not matched)."""
    wanted = item_keys.requested(api_key, version, request)
    paths = item_keys.answer_levels(api_key, version)
    if wanted is None or paths is None:
        return
    check.expect_items(paths, list(dict.fromkeys(wanted)), positional=item_keys.positional(api_key),
                       says=f"v{version}: one result per requested item ({len(set(wanted))}) and no other")


def expect_throttle(check, version: int) -> None:
    """The answer's throttle_time_ms, where it has one, is not negative."""
    check.expect_field(["throttle_time_ms"], at_least=0, says=f"v{version}: throttle_time_ms >= 0")
