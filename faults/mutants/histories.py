"""Faults only a concurrent history shows (catalogue S3, ``conformance/test_concurrent_histories.py``):
each request answers as Kafka answers it, and a client that sends one request at a time sees
nothing wrong; what breaks is the order of acknowledged writes and the reads racing them.

* ``write-acknowledged-then-dropped``: every second IncrementalAlterConfigs is answered NONE
  and never reaches the broker (an acknowledged write lost);
* ``stale-describe-after-write``: after a write is acknowledged, DescribeConfigs of that
  topic answers what it showed before the write, for a second (a read that misses an
  acknowledged write, beyond the visibility lag S3 allows);
* ``whole-object-last-writer-wins``: IncrementalAlterConfigs becomes a full replace
  (AlterConfigs) of the topic's overrides as last read (a read under a second old is
  reused), with this request's change applied, as a cached read-modify-write does: two
  writers of different keys within that second lose one of the updates (the proxy's hooks
  run one at a time, so the race is the stale read's, not the threads').

Over noida (it serves every request of S3's config registers as Kafka does).
"""
from __future__ import annotations

import time

from protocol import AlterConfigOp
from protocol.apis import ApiKey
from protocol.errors import Errors
from .configs import _overrides, _replace
from .mutant import Mutant, Reply, mutant

#: how long the stale mutant keeps answering the pre-write describe; how long the last-writer-wins
#: mutant reuses a read of a topic's overrides
STALE_S, REUSE_S = 1.0, 1.0


def _acknowledged(body: dict) -> dict:
    """IncrementalAlterConfigs' answer NONE for every resource of ``body``."""
    return {"throttle_time_ms": 0, "responses": [
        {"error_code": int(Errors.NONE), "error_message": None, "resource_type": r["resource_type"],
         "resource_name": r["resource_name"]} for r in body.get("resources") or []]}


@mutant
class WriteAcknowledgedThenDropped(Mutant):
    """Every second IncrementalAlterConfigs is answered NONE without reaching the broker."""
    name = "write-acknowledged-then-dropped"
    catches = ("S3",)
    apis = (ApiKey.IncrementalAlterConfigs,)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.writes = 0

    def request(self, seen):
        self.writes += 1
        if self.writes % 2 == 0:
            return Reply(_acknowledged(seen.request))
        return None


@mutant
class StaleDescribeAfterWrite(Mutant):
    """For a second after an IncrementalAlterConfigs is acknowledged, DescribeConfigs of its
    topic answers the last answer from before that write."""
    name = "stale-describe-after-write"
    catches = ("S3",)
    apis = (ApiKey.IncrementalAlterConfigs, ApiKey.DescribeConfigs)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.before: dict[str, dict] = {}       # topic -> the describe answer before its last write
        self.frozen: dict[str, tuple[float, dict]] = {}

    def response(self, seen, body):
        topics = [r.get("resource_name") for r in seen.request.get("resources") or []]
        if seen.api_key == ApiKey.IncrementalAlterConfigs:
            for t in topics:
                if t in self.before:
                    self.frozen[t] = (time.monotonic() + STALE_S, self.before[t])
            return None
        if len(topics) != 1:
            return None
        t = topics[0]
        until, stale = self.frozen.get(t, (0.0, None))
        if stale is not None and time.monotonic() < until:
            return stale
        self.before[t] = body
        return None


@mutant
class WholeObjectLastWriterWins(Mutant):
    """IncrementalAlterConfigs of one topic becomes a full replace (AlterConfigs) of the
    topic's overrides as last read, with this request's change applied; a read less than a
    second old is reused, as a cached read-modify-write does: two writers of different keys
    within that second lose the first one's update, the last full replace winning."""
    name = "whole-object-last-writer-wins"
    catches = ("S3",)
    apis = (ApiKey.IncrementalAlterConfigs,)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read: dict[str, tuple[float, dict]] = {}      # topic -> (when, its overrides then)

    def request(self, seen):
        resources = seen.request.get("resources") or []
        if len(resources) != 1 or seen.request.get("validate_only"):
            return None
        topic = resources[0]["resource_name"]
        at, base = self.read.get(topic, (0.0, None))
        if base is None or time.monotonic() - at > REUSE_S:
            base = _overrides(self.upstream, topic)
            self.read[topic] = (time.monotonic(), base)
        configs = dict(base)
        for c in resources[0].get("configs") or []:
            if c["config_operation"] == AlterConfigOp.SET:
                configs[c["name"]] = c["value"]
            elif c["config_operation"] == AlterConfigOp.DELETE:
                configs.pop(c["name"], None)
            else:
                return None         # APPEND / SUBTRACT: left to the broker
        _replace(self.upstream, topic, configs)
        return Reply(_acknowledged(seen.request))
