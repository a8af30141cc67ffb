"""KIP-694's partition deletion (never released) as a schema overlay, and its rules (K2).

KIP-694 ("Support Reducing Partitions for Topics",
https://cwiki.apache.org/confluence/display/KAFKA/KIP-694%3A+Support+Reducing+Partitions+for+Topics) says: "A new API type
DeletePartitions will be added: DeletePartitionsRequest and DeletePartitionsResponse", and
then elides the schemas ("..."). What it does give:

* *Metadata Changes*, ``DeleteTopicPartitionsRecord``: ``TopicId`` and ``DeletePartitions``
  (int32) "The partition to remove. All associated partitions will be removed as well.";
* *PartitionRecord*'s ``StatusMode``: ReadWrite (0), ReadOnly (1), None (-1): "the
  partition should be filtered and not written to, but consumption is not impacted";
* *Configuration Changes*: ``delete.topic.partition.enable`` ("wether this functionality is
  enabled") and ``delete.topic.partition.interval.delay.ms`` (delayed deletion of the data).

No API key was assigned. The request and response below are therefore this suite's reading
of the KIP, stated here once and cited by K2's docstrings:

* **the request** (``SCHEMA_REQUEST``) names, per topic, ``DeletePartitions``: the KIP's
  record field, "the partition to remove", with "all associated partitions" - the ones
  after it, because a Kafka topic's partitions are always ``0..n-1`` (CreatePartitions
  only appends at the end, ``Count`` is the new count). So ``DeletePartitions = k`` removes
  partitions ``k..n-1`` and leaves ``k``, mirroring CreatePartitions' ``Count``. It carries
  ``TimeoutMs`` and ``ValidateOnly`` as every topic-management request since KIP-108 does
  (KIP-201: validate_only on every topic-changing request);
* **the response** (``SCHEMA_RESPONSE``) is CreatePartitionsResponse's shape: per topic an
  error code and an error message (KIP-201: errors carry messages);
* **version 0 only, flexible from 0** (every API added since KIP-482 is flexible from its
  first version).

The rules K2 holds a broker to (``conformance/test_partition_deletion.py``), each from the
KIP or, where the KIP is silent, from Kafka's CreatePartitions - the one released API that
changes a topic's partition count (apache/kafka metadata/src/main/java/org/apache/kafka/
controller/ReplicationControlManager.java ``createPartitions``, core/src/main/scala/kafka/
server/ControllerApis.scala ``createPartitions``):

* ``1 <= k < n``: NONE; Metadata then lists partitions ``0..k-1`` only (KIP-694: status None,
  "filtered and not written to");
* ``k >= n`` (no such partition to remove) or ``k <= 0`` (nothing left: a topic has at
  least one partition; deleting every partition is DeleteTopics' job): INVALID_PARTITIONS,
  as CreatePartitions answers a count it cannot reach, and nothing changes;
* an unknown topic: UNKNOWN_TOPIC_OR_PARTITION; a topic named twice: INVALID_REQUEST for
  that name (ControllerApis.createPartitions' duplicate rule);
* ``validate_only``: the verdict the real request gets, and nothing changes (KIP-201);
* per topic, not transactional: a failing item leaves the others' verdicts and effects
  (KIP-201: "a policy failure affects only its own topic"; KIP-4's DeleteTopics vote);
* a non-zero error carries a message (KIP-201).

Where the KIP is silent and nothing is checked: the data's delayed deletion (the KIP's
interval), reads of a deleted partition during the delay, and CreatePartitions after a
deletion.

The declaration: a broker implementing this names the feature :data:`FEATURE` (level 1 =
this version 0) in ApiVersions v3+ ``SupportedFeatures`` (KIP-584's field for what a broker
can do, apache/kafka clients/src/main/resources/common/message/ApiVersionsResponse.json) and
advertises the API under the key it chose; the suite asks for that key with
``--k2-api-key N`` (default :data:`DEFAULT_API_KEY`, far above any key Kafka assigns:
ApiKeys run 0..92 today and grow by one).
"""
from __future__ import annotations

from typing import Iterable

from protocol import codec
from protocol.building import TIMEOUT_MS, Inexpressible

from .kips import KIP_694

SOURCE = KIP_694.cite("never released")

#: KIP-584 feature name a broker implementing partition deletion declares (level 1 = v0).
FEATURE = "partition.deletion.version"
FEATURE_LEVEL = 1

#: The API key the suite and the emulating proxy use unless told another (--k2-api-key N,
#: proxy:k2=N@SPEC): none was assigned, so one no Kafka release uses.
DEFAULT_API_KEY = 10_000

VERSION = 0
NAME = "DeletePartitions"     # the API's name in result rows and counterexample steps

SCHEMA_REQUEST = {
    "apiKey": DEFAULT_API_KEY, "type": "request", "listeners": ["broker", "controller"],
    "name": "DeletePartitionsRequest", "validVersions": "0", "flexibleVersions": "0+",
    "fields": [
        {"name": "Topics", "type": "[]DeletePartitionsTopic", "versions": "0+",
         "about": "Each topic whose partitions to delete.", "fields": [
             {"name": "Name", "type": "string", "versions": "0+", "mapKey": True, "entityType": "topicName",
              "about": "The topic name."},
             {"name": "DeletePartitions", "type": "int32", "versions": "0+",
              "about": "KIP-694: the partition to remove; all partitions after it are removed as well "
                       "(the topic keeps partitions 0..DeletePartitions-1)."}]},
        {"name": "TimeoutMs", "type": "int32", "versions": "0+",
         "about": "The time in ms to wait for the partitions to be deleted."},
        {"name": "ValidateOnly", "type": "bool", "versions": "0+",
         "about": "If true, validate the request, but do not delete any partition."},
    ],
}

SCHEMA_RESPONSE = {
    "apiKey": DEFAULT_API_KEY, "type": "response", "name": "DeletePartitionsResponse",
    "validVersions": "0", "flexibleVersions": "0+",
    "fields": [
        {"name": "ThrottleTimeMs", "type": "int32", "versions": "0+",
         "about": "The duration in milliseconds for which the request was throttled, or zero."},
        {"name": "Results", "type": "[]DeletePartitionsTopicResult", "versions": "0+",
         "about": "The partition deletion results for each topic.", "fields": [
             {"name": "Name", "type": "string", "versions": "0+", "mapKey": True, "entityType": "topicName",
              "about": "The topic name."},
             {"name": "ErrorCode", "type": "int16", "versions": "0+",
              "about": "The result error, or zero if there was no error."},
             {"name": "ErrorMessage", "type": "string", "versions": "0+", "nullableVersions": "0+",
              "default": "null", "about": "The result message, or null if there was no error."}]},
    ],
}


def parse_key(text) -> int:
    """``--k2-api-key`` / ``proxy:k2=KEY``: an int16 key no Kafka API holds; ValueError
    with a one-line reason otherwise."""
    try:
        key = int(text)
    except (TypeError, ValueError):
        raise ValueError(f"API key {text!r} is not a number") from None
    if not 0 <= key <= 0x7FFF:
        raise ValueError(f"API key {key} is not an int16 key (0..32767)")
    return key


def delete_partitions(v: int, deletions: Iterable[tuple[str, int]], *, timeout_ms: int = TIMEOUT_MS,
                      validate_only: bool = False) -> dict:
    """The overlay API's request: ``deletions``: ``(topic, k)``: delete partitions ``k..n-1``,
    keep ``0..k-1``. Version 0 only (the schema above); it has no ``ApiKey``, so its builder
    is here with its schema rather than in a family of ``protocol/families/``."""
    if v != 0:
        raise Inexpressible(f"DeletePartitions has only version 0, not v{v}")
    return {"topics": [{"name": n, "delete_partitions": k} for n, k in deletions],
            "timeout_ms": timeout_ms, "validate_only": validate_only}


def register(key: int = DEFAULT_API_KEY) -> codec.Api:
    """The DeletePartitions overlay, registered into the codec under ``key``."""
    return codec.register_overlay(key, SCHEMA_REQUEST, SCHEMA_RESPONSE)
