"""protocol.schema_facts answers from Kafka's message schemas what a version of a message holds
(apache/kafka clients/src/main/resources/common/message/*.json, as kafka-python 3 ships them)."""
from __future__ import annotations

import pytest

from protocol import ApiKey, schema_facts as sf
from protocol.schema_facts import RESPONSE


@pytest.mark.parametrize("api_key,path,side,first", [
    (ApiKey.CreateTopics, "topics.num_partitions", RESPONSE, 5),       # KIP-525
    (ApiKey.CreateTopics, "topics.topic_id", RESPONSE, 7),             # KIP-516
    (ApiKey.Metadata, "topics.topic_id", RESPONSE, 10),
    (ApiKey.DescribeConfigs, "results.configs.config_source", RESPONSE, 1),
    (ApiKey.Metadata, "allow_auto_topic_creation", "request", 4),
    (ApiKey.CreateTopics, "validate_only", "request", 1),
    (ApiKey.DeleteTopics, "topics.topic_id", "request", 6),            # the struct array itself from v6
    (ApiKey.ApiVersions, "supported_features", RESPONSE, 3),
    (ApiKey.ListOffsets, "topics.partitions.offset", RESPONSE, 1),
])
def test_a_field_is_there_from_its_first_version_on(api_key, path, side, first):
    assert sf.first_version_with(api_key, path, side) == first
    assert not sf.has_field(api_key, first - 1, path, side)
    assert sf.has_field(api_key, first, path, side)
    assert sf.has_field(api_key, sf.valid_versions(api_key)[1], path, side)


def test_a_field_that_went_away_is_absent_after_its_last_version():
    """DeleteTopics' ``topic_names`` is v0-v5 only (v6 lists ``topics``)."""
    assert sf.has_field(ApiKey.DeleteTopics, 5, "topic_names")
    assert not sf.has_field(ApiKey.DeleteTopics, 6, "topic_names")
    assert sf.first_version_with(ApiKey.DeleteTopics, "topic_names") == 0


def test_a_misspelt_path_is_an_error_not_an_absent_field():
    with pytest.raises(KeyError, match="topic_ids"):
        sf.has_field(ApiKey.Metadata, 12, "topics.topic_ids", RESPONSE)
    with pytest.raises(ValueError, match="side"):
        sf.has_field(ApiKey.Metadata, 12, "topics", "answer")
    assert not sf.defines(ApiKey.Metadata, "validate_only")
    assert sf.first_version_with(ApiKey.Metadata, "validate_only") is None


def test_nullability_by_version():
    """Metadata's topic list may be null (every topic) from v1; its names from v10."""
    assert [sf.nullable(ApiKey.Metadata, v, "topics") for v in (0, 1)] == [False, True]
    assert [sf.nullable(ApiKey.Metadata, v, "topics.name") for v in (9, 10)] == [False, True]
    assert sf.nullable(ApiKey.DeleteTopics, 6, "responses.name", RESPONSE)


def test_by_id_from_reads_the_topic_entries():
    """The first version whose topic entries carry an id and may drop the name."""
    assert {k: sf.by_id_from(k) for k in (ApiKey.Metadata, ApiKey.DeleteTopics, ApiKey.Fetch,
                                           ApiKey.Produce, ApiKey.CreateTopics, ApiKey.DeleteRecords)} == {
        ApiKey.Metadata: 10, ApiKey.DeleteTopics: 6, ApiKey.Fetch: 13, ApiKey.Produce: 13,
        ApiKey.CreateTopics: None, ApiKey.DeleteRecords: None}


def test_per_item_results_fields():
    """Paths through protocol.apis.SPECS: DeleteRecords answers per partition."""
    assert sf.results_path(ApiKey.DeleteRecords, "error_code") == "topics.partitions.error_code"
    assert [sf.item_has(ApiKey.DeleteTopics, v, "error_message") for v in (4, 5)] == [False, True]
    assert not sf.item_has(ApiKey.Metadata, 13, "error_message")      # never: False, not an error
    assert sf.item_has(ApiKey.CreateTopics, 5, "num_partitions")


def test_declared_with_and_flexible():
    assert sf.declared_with("validate_only", naming=sf.TOPIC_RESOURCES) == (
        ApiKey.CreateTopics, ApiKey.AlterConfigs, ApiKey.CreatePartitions, ApiKey.IncrementalAlterConfigs)
    assert sf.declared_with("validate_only") == (ApiKey.CreateTopics, ApiKey.AlterConfigs, ApiKey.CreatePartitions,
                                                  ApiKey.IncrementalAlterConfigs, ApiKey.AlterClientQuotas,
                                                  ApiKey.UpdateFeatures)
    assert [sf.flexible(ApiKey.ApiVersions, v) for v in (2, 3)] == [False, True]
    assert sf.valid_versions(ApiKey.CreateTopics) == (2, 7)
