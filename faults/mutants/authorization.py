"""Authorization faults (catalogue A2, KIP-4's "no existence leak" as released Kafka has
it): a refusal that tells a missing topic apart, Metadata that lists topics the principal
may not describe, validate_only authorized differently from the real request. Measured
over ``kafka:4.4.0,preset=acl`` (the only target with an authorizer and the suite's
principals); the proxy forwards the SASL handshake (SaslHandshake, SaslAuthenticate)
untouched, and its side channel speaks as the suite's super user."""
from __future__ import annotations

from protocol import requests, schema_facts
from protocol.apis import SPECS, ApiKey, items
from protocol.errors import Errors
from .mutant import KAFKA_OVER, Mutant, Recoding, mutant, with_items

OVER = f"{KAFKA_OVER},preset=acl"
#: the topic APIs A2 judges (Metadata apart)
TOPIC_APIS = (ApiKey.CreateTopics, ApiKey.DeleteTopics, ApiKey.DeleteRecords, ApiKey.DescribeConfigs,
              ApiKey.AlterConfigs, ApiKey.CreatePartitions, ApiKey.IncrementalAlterConfigs)


def _refused(api_key: int, body: dict) -> set[str]:
    """Names whose entry (or any of its partitions) answers TOPIC_AUTHORIZATION_FAILED."""
    s = SPECS[api_key]
    out = set()
    for e in items(api_key, body):
        codes = [p["error_code"] for p in e.get(s.partitions) or []] if s.partitions else [e["error_code"]]
        if Errors.TOPIC_AUTHORIZATION_FAILED in codes and e.get(s.item):
            out.add(e[s.item])
    return out


@mutant
class AuthorizationLeaksExistence(Mutant):
    """A topic the principal may not touch answers UNKNOWN_TOPIC_OR_PARTITION instead of
    TOPIC_AUTHORIZATION_FAILED when it does not exist (the refusal reveals existence)."""
    name = "authorization-leaks-existence"
    catches = ("A2",)
    apis = TOPIC_APIS
    over = OVER

    def response(self, seen, body):
        refused = _refused(seen.api_key, body)
        if not refused:
            return None
        known = self.upstream(ApiKey.Metadata, 12, requests.metadata(12, sorted(refused)))
        missing = {t["name"] for t in known.get("topics") or []
                   if t["error_code"] == Errors.UNKNOWN_TOPIC_OR_PARTITION}
        if not missing:
            return None
        s = SPECS[seen.api_key]

        def leak(e):
            if e.get(s.item) not in missing:
                return e
            if s.partitions:
                return {**e, s.partitions: [{**p, "error_code": Errors.UNKNOWN_TOPIC_OR_PARTITION}
                                            for p in e.get(s.partitions) or []]}
            return {**e, "error_code": Errors.UNKNOWN_TOPIC_OR_PARTITION}
        return with_items(seen.api_key, body, leak)


@mutant
class MetadataListsUndescribable(Mutant):
    """Metadata for every topic lists every topic, also those the principal may not
    describe (the answer the super user gets)."""
    name = "metadata-lists-undescribable"
    catches = ("A2",)
    apis = (ApiKey.Metadata,)
    over = OVER

    def response(self, seen, body):
        asked = seen.request.get("topics")
        if asked is not None and (asked or schema_facts.nullable(ApiKey.Metadata, seen.api_version, "topics")):
            return None                     # named topics (v0, where the list cannot be null: [] means every topic)
        return self.upstream(ApiKey.Metadata, seen.api_version, seen.request)


@mutant
class ValidateOnlySkipsAuthorization(Recoding):
    """A validate_only request is not authorized: topics the principal may not change
    answer NONE (only the real request is refused)."""
    name = "validate-only-skips-authorization"
    catches = ("A2",)
    apis = schema_facts.declared_with("validate_only", naming=schema_facts.TOPIC_RESOURCES)
    over = OVER
    recodes = (Errors.TOPIC_AUTHORIZATION_FAILED, Errors.NONE)

    def recodes_answer_to(self, seen):
        return bool(seen.request.get("validate_only"))
