"""What a well-formed answer looks like, per API (catalogue P2).

Each API's request names items (topics, resources, partitions); its response must carry
exactly one result per distinct requested item and no others. The keys below say how to
read those items from a request body and from a response body.
"""
from __future__ import annotations

from fixtures.harness import expect
from protocol import SPECS, ApiKey
from protocol.apis import items


CONFIG_APIS = frozenset({ApiKey.DescribeConfigs, ApiKey.AlterConfigs, ApiKey.IncrementalAlterConfigs})


def _topic_key(t: dict):
    return t.get("name") if t.get("name") is not None else ("id", str(t.get("topic_id")))


def _request_items(api_key: int, body: dict):
    if api_key in (ApiKey.CreateTopics, ApiKey.CreatePartitions):
        return [t["name"] for t in body.get("topics") or []]
    if api_key == ApiKey.DeleteTopics:
        if body.get("topics") is not None and "topic_names" not in body:
            return [_topic_key(t) for t in body["topics"]]
        return list(body.get("topic_names") or [])
    if api_key == ApiKey.DeleteRecords:
        return [(t["name"], p["partition_index"]) for t in body.get("topics") or []
                for p in t.get("partitions") or []]
    if api_key in CONFIG_APIS:
        return [(r["resource_type"], r["resource_name"]) for r in body.get("resources") or []]
    if api_key == ApiKey.Metadata:
        topics = body.get("topics")
        if topics is None:
            return None          # all topics: nothing to match
        return [t.get("name") for t in topics if t.get("name") is not None] or None
    return None


def _response_items(api_key: int, resp: dict):
    if api_key not in SPECS:
        return None
    entries = items(api_key, resp)      # where this API lists its results (protocol.apis.SPECS)
    if api_key in (ApiKey.CreateTopics, ApiKey.CreatePartitions):
        return [t["name"] for t in entries]
    if api_key == ApiKey.DeleteTopics:
        return [_topic_key(t) for t in entries]
    if api_key == ApiKey.DeleteRecords:
        return [(t["name"], p["partition_index"]) for t in entries for p in t.get("partitions") or []]
    if api_key in CONFIG_APIS:
        return [(r["resource_type"], r["resource_name"]) for r in entries]
    if api_key == ApiKey.Metadata:
        return [t.get("name") for t in entries]
    return None


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


def check_results_match(api_key: int, version: int, request: dict, response: dict) -> None:
    wanted = _request_items(api_key, request)
    got = _response_items(api_key, response)
    if wanted is None or got is None:
        return
    dupes = sorted({repr(g) for g in got if got.count(g) > 1})
    expect(not dupes, f"v{version}: response repeats results for {', '.join(dupes)}")
    missing = [w for w in dict.fromkeys(wanted) if w not in got]
    extra = [g for g in got if g not in wanted]
    expect(not missing, f"v{version}: no result for requested {missing!r}")
    expect(not extra, f"v{version}: results for items not requested {extra!r}")


def check_throttle(version: int, response: dict) -> None:
    t = response.get("throttle_time_ms")
    expect(t is None or t >= 0, f"v{version}: throttle_time_ms {t} < 0")
