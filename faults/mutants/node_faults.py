"""Faults only a broker that crashes shows (catalogue S4, ``conformance/test_node_faults.py``):
every answer is Kafka's while the broker runs; what a crash and a restart keep is not.

* ``forgets-writes-in-a-crash``: once the broker's process is another one (crashed and
  restarted), the topic config keys SET since its previous start are gone, as a broker that
  acknowledges before its log is flushed loses the log's tail.

Over Kafka: S4 crashes only brokers the suite started and can restart (noida and tansu are
not such targets).
"""
from __future__ import annotations

from protocol import AlterConfigOp
from protocol.apis import ApiKey
from .configs import _incremental
from .mutant import KAFKA_OVER, Mutant, mutant


@mutant
class ForgetsWritesInACrash(Mutant):
    """Config writes acknowledged before they are durable: once the broker's process is
    another one (it crashed and restarted), every topic config key a SET named since the
    previous start is deleted through the side channel before the next request goes on, as a
    broker that acknowledges before its log is flushed loses the log's tail in a crash.
    Caught by S4 (its nemesis crashes the broker; the closing reads miss the writes); over
    Kafka, as only a broker the suite can crash and restart shows it."""
    name = "forgets-writes-in-a-crash"
    catches = ("S4",)
    over = KAFKA_OVER
    apis = (ApiKey.IncrementalAlterConfigs, ApiKey.DescribeConfigs)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.written: dict[str, set[str]] = {}      # topic -> keys SET since the broker's start
        self.lost: dict[str, set[str]] = {}         # what the crash took, not yet deleted
        self.pids: tuple | None = None

    def request(self, seen):
        pids = tuple(p.pid for p in getattr(self.target, "procs", []))
        if self.pids is not None and pids != self.pids:
            for topic, keys in self.written.items():
                self.lost.setdefault(topic, set()).update(keys)
            self.written = {}
        self.pids = pids
        for topic in list(self.lost):
            try:
                _incremental(self.upstream, topic, [(k, AlterConfigOp.DELETE, None) for k in sorted(self.lost[topic])])
            except ConnectionError:
                break               # the broker is not back yet: at the next request
            del self.lost[topic]
        if seen.api_key == ApiKey.IncrementalAlterConfigs and not seen.request.get("validate_only"):
            for r in seen.request.get("resources") or []:
                for c in r.get("configs") or []:
                    if c["config_operation"] == AlterConfigOp.SET:
                        self.written.setdefault(r["resource_name"], set()).add(c["name"])
        return None
