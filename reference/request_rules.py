"""What a request may say from a version on, where Kafka's message schemas cannot express it.

A field's presence by version is the schemas' to say (``protocol.schema_facts``); an error
code's first version is a row of :mod:`.error_codes`. What is left is a *value* a field
carries in every version but means something only from a version on; each such rule is
one :class:`RequestRule` here, with its source.
"""
from __future__ import annotations

from dataclasses import dataclass

from protocol import ApiKey


@dataclass(frozen=True)
class RequestRule:
    """From ``since`` on, a request of ``api_key`` may say ``what``."""
    api_key: ApiKey
    since: int
    what: str
    source: str

    def holds_at(self, version: int) -> bool:
        return version >= self.since


#: ``CreateTopicsRequest.NO_NUM_PARTITIONS`` / ``NO_REPLICATION_FACTOR``: the broker's default.
BROKER_DEFAULT = -1

#: KIP-464 "Defaults for AdminClient#createTopic": -1 partitions / replication factor without
#: an assignment takes the broker's default from CreateTopics v4. The schema's fields exist
#: in every version; only its comment and the Java client's builder say v4.
BROKER_DEFAULTS = RequestRule(
    ApiKey.CreateTopics, 4,
    "num_partitions / replication_factor -1 (no assignment) for the broker's default",
    "KIP-464; apache/kafka clients/src/main/resources/common/message/CreateTopicsRequest.json "
    "('Version 4 makes partitions/replicationFactor optional even when assignments are not present'); "
    "apache/kafka clients/src/main/java/org/apache/kafka/common/requests/CreateTopicsRequest.java "
    "Builder.build (UnsupportedVersionException 'Creating topics with default partitions/replication "
    "factor are only supported in CreateTopicRequest version 4+')")


#: The USER resource type is a value of the ACL APIs' resource-type field, which every
#: version carries; only the schemas' comments say from which version it may be named.
ACL_USER_RESOURCE = RequestRule(
    ApiKey.CreateAcls, 3,
    "resource_type USER (CreateAcls, DescribeAcls, DeleteAcls)",
    "apache/kafka clients/src/main/resources/common/message/CreateAclsRequest.json, "
    "DescribeAclsRequest.json, DeleteAclsRequest.json ('Version 3 adds user resource type')")
