"""A broker that implements KIP-694's partition deletion, emulated by the proxy (K2).

No broker implements DeletePartitions (KIP-694, "Support Reducing Partitions for Topics", was never released), so K2 would only ever
be ``unsupported``. ``proxy:k2@SPEC`` (``proxy:k2=KEY@SPEC`` for another API key than
:data:`reference.partition_deletion.DEFAULT_API_KEY`) puts a broker in front of
``SPEC`` that does implement it, following the rules written down in
``reference/partition_deletion.py`` (KIP-694, and Kafka's CreatePartitions where
the KIP is silent):

* ApiVersions advertises DeletePartitions v0 under the key and, from v3, declares the
  feature ``partition.deletion.version`` (level 1) in ``SupportedFeatures`` (KIP-584);
* DeletePartitions is answered by the proxy itself: it reads the topic's partition count
  from the inner broker's Metadata (side channel), judges each item, and keeps what it
  deleted in its own model (topic -> partitions kept);
* every Metadata answer is filtered through that model: a deleted partition is not listed
  (KIP-694: status None, "filtered and not written to"). A topic deleted or created again
  through the proxy starts afresh.

It is a shim (``catches = ("-",)``): not a fault, a broker made to implement the proposal,
so that K2 passes through ``proxy:k2@SPEC`` and its mutants (``faults/mutants/
partition_deletion.py``: subclasses that break one rule each) are scored over it. The inner
broker never sees a DeletePartitions request; data of deleted partitions stays in it (the
KIP's delayed deletion is not emulated).
"""
from __future__ import annotations

from reference import partition_deletion as pd
from protocol import requests, schema_facts
from protocol.apis import ApiKey, items
from protocol.errors import Errors
from .mutants.mutant import Mutant, Reply, mutant

#: The Metadata version the emulation reads partition counts with (has
#: allow_auto_topic_creation, v4+; every broker the suite starts serves it).
METADATA_V = 4


@mutant
class PartitionDeletion(Mutant):
    """Emulates KIP-694's DeletePartitions (an overlay API, declared by a KIP-584 feature)
    over the inner broker: advertised, answered and reflected in Metadata."""
    name = "k2"
    catches = ("-",)
    shim = True

    def __init__(self, upstream=None, target=None, arg: str | None = None):
        super().__init__(upstream, target, arg)
        self.key = pd.parse_key(arg) if arg else pd.DEFAULT_API_KEY
        pd.register(self.key)
        self.kept: dict[str, int] = {}     # topic -> partitions it keeps (0..kept-1)

    @classmethod
    def check_arg(cls, arg: str | None) -> None:
        """``proxy:k2=KEY@SPEC``: KEY must be a free int16 API key (ValueError says why)."""
        if arg is not None:
            pd.register(pd.parse_key(arg))

    def touches(self, api_key: int) -> bool:
        return api_key in (self.key, ApiKey.ApiVersions, ApiKey.Metadata, ApiKey.CreateTopics,
                           ApiKey.DeleteTopics)

    # -- requests ----------------------------------------------------------------------
    def request(self, seen):
        if seen.api_key == self.key:
            return Reply(self.answer(seen.request))
        return None

    def answer(self, request: dict) -> dict:
        topics = request.get("topics") or []
        names = [t["name"] for t in topics]
        twice = sorted({n for n in names if names.count(n) > 1})
        verdicts = [(t["name"], t["delete_partitions"], *self.verdict(t["name"], t["delete_partitions"]))
                    for t in topics if t["name"] not in twice]
        verdicts = self.settle(verdicts)
        if self.applies(request):
            for name, k, code, _ in verdicts:
                if code == Errors.NONE:
                    self.apply(name, k)
        results = [{"name": n, "error_code": int(code), "error_message": self.message(code, msg)}
                   for n, _, code, msg in verdicts]
        results += [{"name": n, "error_code": int(Errors.INVALID_REQUEST),
                     "error_message": self.message(Errors.INVALID_REQUEST, "Duplicate topic name.")}
                    for n in twice]
        return {"throttle_time_ms": 0, "results": results}

    # the rules, one method each (a mutant overrides one) ---------------------------------
    def count(self, name: str) -> int | None:
        """The topic's partition count as clients see it; None when it does not exist."""
        resp = self.upstream(ApiKey.Metadata, METADATA_V, requests.metadata(METADATA_V, [name]))
        for t in resp.get("topics") or []:
            if t.get("name") == name and t.get("error_code") == Errors.NONE:
                return min(len(t.get("partitions") or []), self.kept.get(name, 1 << 31))
        return None

    def verdict(self, name: str, k: int) -> tuple[int, str | None]:
        n = self.count(name)
        if n is None:
            return Errors.UNKNOWN_TOPIC_OR_PARTITION, f"The topic '{name}' does not exist."
        if k <= 0:
            return (Errors.INVALID_PARTITIONS,
                    f"Topic {name} would keep {k} partitions; a topic keeps at least one (delete the topic instead).")
        if k >= n:
            return Errors.INVALID_PARTITIONS, f"Topic {name} has {n} partition(s); there is no partition {k} to delete."
        return Errors.NONE, None

    def settle(self, verdicts: list[tuple]) -> list[tuple]:
        """The verdicts of one request's items, each its own (per topic, not transactional)."""
        return verdicts

    def applies(self, request: dict) -> bool:
        return not request.get("validate_only")

    def apply(self, name: str, k: int) -> None:
        self.kept[name] = min(k, self.kept.get(name, k))

    def message(self, code: int, text: str | None) -> str | None:
        return None if code == Errors.NONE else text

    # -- answers of the inner broker ---------------------------------------------------
    def response(self, seen, body: dict):
        if seen.api_key == ApiKey.ApiVersions:
            return self.advertise(seen, body)
        if seen.api_key == ApiKey.Metadata:
            return self.filter_metadata(body)
        if seen.api_key in (ApiKey.CreateTopics, ApiKey.DeleteTopics) and not seen.request.get("validate_only"):
            for r in items(seen.api_key, body):      # a topic deleted or created anew: all its partitions
                if r.get("error_code") == Errors.NONE:
                    self.kept.pop(r.get("name"), None)
        return None

    def advertise(self, seen, body: dict):
        if body.get("error_code") != Errors.NONE:   # a v0 answer to a version it lacks
            return None
        keys = list(body.get("api_keys") or [])
        if not any(a["api_key"] == self.key for a in keys):
            keys.append({"api_key": self.key, "min_version": pd.VERSION, "max_version": pd.VERSION})
        out = {**body, "api_keys": keys}
        if schema_facts.has_field(ApiKey.ApiVersions, seen.api_version, "supported_features", schema_facts.RESPONSE):
            features = [f for f in body.get("supported_features") or [] if f["name"] != pd.FEATURE]
            out["supported_features"] = features + [
                {"name": pd.FEATURE, "min_version": pd.FEATURE_LEVEL, "max_version": pd.FEATURE_LEVEL}]
        return out

    def filter_metadata(self, body: dict):
        hit = False
        topics = []
        for t in body.get("topics") or []:
            k = self.kept.get(t.get("name"))
            if k is not None and t.get("partitions"):
                t = {**t, "partitions": [p for p in t["partitions"] if p["partition_index"] < k]}
                hit = True
            topics.append(t)
        return {**body, "topics": topics} if hit else None
