"""P5's traffic rows pass only where the run provoked a gated code (fixtures/traffic.py
keeps every code each broker answered per API and version; conformance/test_error_codes.py
``provoked_codes`` reads it)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from fixtures import traffic
from protocol import ApiKey, Errors


@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")
def test_a_gated_code_counts_as_provoked_only_at_a_version_that_has_it():
    from conformance.test_error_codes import provoked_codes

    log = traffic.TrafficLog()
    broker = SimpleNamespace(advertised=lambda k: (2, 7))
    check = SimpleNamespace(spec="b", prop="P2", api_key=ApiKey.CreateTopics, api_version=3, asks_known=None,
                            context=SimpleNamespace(traffic=log), broker=broker)
    gated = [Errors.THROTTLING_QUOTA_EXCEEDED]
    ok = {"throttle_time_ms": 0, "topics": [{"name": "t", "error_code": 0}]}
    throttled = {"throttle_time_ms": 9, "topics": [{"name": "t", "error_code": Errors.THROTTLING_QUOTA_EXCEEDED}]}

    def seen(api_key, version, response):       # the suite's reading of an answer; no screen judged here
        log.observe(check, api_key, version, {}, SimpleNamespace(response=response), None)
    seen(ApiKey.CreateTopics, 3, ok)
    assert provoked_codes(check, ApiKey.CreateTopics, gated) == []          # nothing provoked 89
    seen(ApiKey.CreateTopics, 5, throttled)              # 89 below v6 is a leak, not provocation
    assert provoked_codes(check, ApiKey.CreateTopics, gated) == []
    seen(ApiKey.CreateTopics, 6, throttled)
    assert provoked_codes(check, ApiKey.CreateTopics, gated) == [Errors.THROTTLING_QUOTA_EXCEEDED]
    assert log.codes("b", ApiKey.CreateTopics, 6) == {Errors.THROTTLING_QUOTA_EXCEEDED}
    assert log.codes("other", ApiKey.CreateTopics, 6) == frozenset()
    # DeleteTopics' POLICY_VIOLATION has no released version: never provoked, even when seen
    seen(ApiKey.DeleteTopics, 6, {"responses": [{"name": "t", "error_code": Errors.POLICY_VIOLATION}]})
    assert provoked_codes(check, ApiKey.DeleteTopics, [Errors.POLICY_VIOLATION]) == []


def test_error_codes_are_found_at_any_depth():
    body = {"error_code": 0, "topics": [{"error_code": 3, "partitions": [{"error_code": 29}]}], "x": [1, "a"]}
    assert traffic.error_codes(body) == {0, 3, 29}
