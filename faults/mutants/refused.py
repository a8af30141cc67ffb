"""A broker that advertises an API and then refuses it (issue 55: ``unsupported`` needs evidence).

Kafka answers UNSUPPORTED_VERSION to an API it advertises only while a switch is off
(``reference/switches.py``), and the suite calls such a row ``unsupported`` only with that
evidence. These faults refuse without a switch: the rows must be findings (``fail``) or, where
a set-up step is refused, ``error``, never ``unsupported``.

* ``refuse-advertised[=API[:CODE],...]``: every request of the named APIs (default
  ConsumerGroupHeartbeat) is answered, without reaching the broker, with CODE (default
  UNSUPPORTED_VERSION) as Kafka's ``getErrorResponse`` answers a refused request: the
  top-level error code, or one entry per requested topic (CreateTopics, DeleteTopics).
  ApiVersions is refused only from v3 (the features), never the handshake.
  Scored for G6 over kafka:4.4.0, whose consumer groups are on (group.version 1).
* ``compaction-refused``: a CreateTopics entry with ``cleanup.policy`` holding ``compact`` is
  answered INVALID_CONFIG and not created; the other entries reach the broker. A probe of
  the suite's own tests (R1's set-up), not scored.
"""
from __future__ import annotations

from protocol import schema_facts
from protocol.apis import ApiKey
from protocol.errors import Errors
from .mutant import KAFKA_OVER, Mutant, Reply, mutant

#: ApiVersions below this version is the handshake every connection and probe starts with
#: (protocol/wire.py); ``refuse-advertised=ApiVersions`` refuses only the versions above it,
#: which carry the features (KIP-584, v3+)
_HANDSHAKE_KEPT_BELOW = 3
#: APIs refused entry by entry (their answers list one result per requested topic)
_PER_TOPIC = {ApiKey.CreateTopics: "topics", ApiKey.DeleteTopics: "responses"}


def _refusals(arg: str | None) -> dict[int, int]:
    """``API[:CODE],...`` -> {api key: error code}; ValueError (one line) for a name that is
    no API or no error code, or an API whose refusal this fault cannot build."""
    out = {}
    for part in filter(None, (p.strip() for p in ("ConsumerGroupHeartbeat" if arg is None else arg).split(","))):
        name, _, code = part.partition(":")
        key = getattr(ApiKey, name, None)
        if not isinstance(key, ApiKey):
            raise ValueError(f"refuse-advertised={arg}: {name!r} is no API this fault refuses (e.g. "
                             "ConsumerGroupHeartbeat, CreateDelegationToken, DescribeAcls, DeleteTopics)")
        err = getattr(Errors, code, None) if code else Errors.UNSUPPORTED_VERSION
        if err is None:
            raise ValueError(f"refuse-advertised={arg}: {code!r} is no error code name (e.g. SECURITY_DISABLED)")
        if key not in _PER_TOPIC and not schema_facts.defines(key, "error_code", schema_facts.RESPONSE):
            raise ValueError(f"refuse-advertised={arg}: {name}'s answer has no top-level error code to refuse with")
        out[int(key)] = int(err)
    if not out:
        raise ValueError("refuse-advertised= names no API; write refuse-advertised=ConsumerGroupHeartbeat")
    return out


def _topics(api_key: int, request: dict) -> list[dict]:
    """The topics a CreateTopics / DeleteTopics request names, as result entries' keys."""
    if api_key == ApiKey.DeleteTopics and request.get("topics") is not None:      # v6+: name or id
        return [{"name": t.get("name"), "topic_id": t.get("topic_id")} for t in request["topics"]]
    if api_key == ApiKey.DeleteTopics:
        return [{"name": n} for n in request.get("topic_names") or []]
    return [{"name": t["name"]} for t in request.get("topics") or []]


@mutant
class RefuseAdvertised(Mutant):
    """Refuses an API it advertises (UNSUPPORTED_VERSION by default) with no switch off."""
    name = "refuse-advertised"
    catches = ("G6",)
    over = KAFKA_OVER
    #: what the score's baseline asks (the default argument's API and G6's cells); the APIs
    #: refused are the argument's (:meth:`touches`)
    apis = (ApiKey.ConsumerGroupHeartbeat, ApiKey.ConsumerGroupDescribe)

    parse_arg = staticmethod(_refusals)       # self.parsed: API key -> the code it is refused with

    def touches(self, api_key: int) -> bool:
        return api_key in self.parsed

    def request(self, seen):
        if seen.api_key == ApiKey.ApiVersions and seen.api_version < _HANDSHAKE_KEPT_BELOW:
            return None         # the handshake the suite starts with stays answered
        code = self.parsed[seen.api_key]
        if seen.api_key in _PER_TOPIC:
            return Reply({_PER_TOPIC[seen.api_key]: [{**t, "error_code": code}
                                                     for t in _topics(seen.api_key, seen.request)]})
        return Reply({"error_code": code})


def _compacted(topic: dict) -> bool:
    return any(c.get("name") == "cleanup.policy" and "compact" in (c.get("value") or "")
               for c in topic.get("configs") or [])


@mutant
class CompactionRefused(Mutant):
    """CreateTopics refuses a cleanup.policy=compact topic (INVALID_CONFIG), as a broker without
    compaction might; the other topics of the request are created."""
    name = "compaction-refused"
    catches = ("R1",)           # the property whose set-up it refuses; a probe: not scored
    probe = True
    apis = (ApiKey.CreateTopics,)

    def request(self, seen):
        topics = seen.request.get("topics") or []
        refused = [t["name"] for t in topics if _compacted(t)]
        seen.connection[seen.correlation_id] = refused
        if not refused:
            return None
        kept = [t for t in topics if not _compacted(t)]
        if not kept:
            return Reply({"topics": [{"name": n, "error_code": Errors.INVALID_CONFIG,
                                      "error_message": "cleanup.policy=compact is not supported"} for n in refused]})
        return {**seen.request, "topics": kept}

    def response(self, seen, body):
        refused = seen.connection.pop(seen.correlation_id, None)
        if not refused:
            return None
        return {**body, "topics": list(body.get("topics") or []) + [
            {"name": n, "error_code": Errors.INVALID_CONFIG, "error_message": "cleanup.policy=compact is not supported"}
            for n in refused]}
