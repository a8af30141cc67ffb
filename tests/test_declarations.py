"""Every API is declared once (protocol/apis.py ``DECLARATIONS``) and every list of APIs the
suite keeps is derived from those declarations; an API whose schemas come from elsewhere than
kafka-python plugs into the same declaration (docs/CONTRIBUTING-properties.md, "Adding an API")."""
from __future__ import annotations

import pytest
from kafka.protocol.admin import DescribeClusterRequest, DescribeClusterResponse
from kafka.protocol.schemas import load_json

from conformance import parametrize
from fixtures import scope
from protocol import apis, codec, schema_facts
from protocol.apis import ADMIN, DATA, SETUP, ApiKey, ApiSpec, MessageSchemas
from reference import error_codes


def test_the_codec_speaks_exactly_the_declared_apis_by_role():
    for role, table in ((ADMIN, codec.ADMIN_APIS), (DATA, codec.DATA_APIS), (SETUP, codec.SETUP_APIS)):
        assert tuple(table) == apis.keys(role)
        assert all(table[k].name == ApiKey(k).name for k in table)
    assert set(codec.APIS) >= set(apis.DECLARATIONS)


def test_the_lists_of_apis_follow_the_declarations():
    assert parametrize.ADMIN_KEYS == apis.keys(ADMIN)
    assert parametrize.MUTATING_KEYS == {k for k, s in apis.DECLARATIONS.items() if s.role is ADMIN and s.mutates}
    assert scope.MUTATING[ApiKey.CreateTopics] == "creates topics"
    assert scope.MUTATING[ApiKey.Produce] == "appends records"        # a data API that changes a cluster
    assert ApiKey.DescribeConfigs not in scope.MUTATING and ApiKey.Metadata not in scope.MUTATING
    by_id = {k: schema_facts.by_id_from(k) for k in apis.DECLARATIONS}
    assert scope.BY_ID == {k: v for k, v in by_id.items() if v is not None}
    assert scope.BY_ID[ApiKey.DeleteTopics] == 6 and ApiKey.CreateTopics not in scope.BY_ID
    assert set(apis.SPECS) == {k for k, s in apis.DECLARATIONS.items() if s.results}


def test_an_api_is_declared_once():
    with pytest.raises(ValueError, match="CreateTopics"):
        apis._declare(ApiSpec(ApiKey.CreateTopics, ADMIN), ApiSpec(ApiKey.CreateTopics, DATA))


def test_the_error_code_tables_name_only_declared_admin_apis():
    """Kafka's codes stay in reference/error_codes.py, keyed by declared ApiKeys."""
    keyed = ({r.api_key for r in error_codes.RULES} | set(error_codes.ANY_VERSION)
             | set(error_codes.ERROR_MESSAGE) | {k for k, _ in error_codes.NOT_PRODUCED})
    assert keyed <= set(apis.keys(ADMIN))
    # error_message's first version is the response schema's (DeleteTopics 5+, CreateTopics 1+)
    assert error_codes.ERROR_MESSAGE[ApiKey.DeleteTopics][0] == 5
    assert error_codes.ERROR_MESSAGE[ApiKey.CreateTopics][0] == 1
    assert error_codes.ERROR_MESSAGE[ApiKey.Metadata][0] is None


def test_an_api_kafka_python_lacks_names_where_its_schemas_come_from():
    with pytest.raises(LookupError, match="MessageSchemas"):
        codec.api_of(ApiSpec(ApiKey.DescribeDelegationToken, ADMIN))


def test_an_api_declared_with_its_own_schemas_encodes_as_kafka_pythons_class():
    """DescribeCluster from its JSON schemas (as a kafka-clients jar would give them) encodes
    and decodes byte for byte as kafka-python's own class, and answers schema questions."""
    schemas = MessageSchemas("kafka-python's copy of clients/src/main/resources/common/message",
                             lambda: (load_json("DescribeClusterRequest"), load_json("DescribeClusterResponse")))
    api = codec.api_of(ApiSpec(ApiKey.DescribeCluster, ADMIN, schemas=schemas))
    assert (api.key, api.name, api.max_version) == (ApiKey.DescribeCluster, "DescribeCluster",
                                                    DescribeClusterRequest.max_version)
    assert api.request is not DescribeClusterRequest
    for v in range(api.max_version + 1):
        ours = api.request(version=v, include_cluster_authorized_operations=True)
        theirs = DescribeClusterRequest(version=v, include_cluster_authorized_operations=True)
        for msg in (ours, theirs):
            msg.with_header(correlation_id=5, client_id="t")
        assert bytes(ours.encode(header=True, framed=True)) == bytes(theirs.encode(header=True, framed=True))
    body = {"throttle_time_ms": 0, "error_code": 0, "error_message": None, "cluster_id": "c",
            "controller_id": 1, "brokers": []}
    resp = DescribeClusterResponse(version=1, **body)
    resp.with_header(correlation_id=5)
    decoded = api.response.decode(bytes(resp.encode(header=True, framed=True))[4:], version=1, header=True)
    assert codec.to_dict(decoded)["cluster_id"] == "c"


def test_schema_facts_cover_every_declared_api():
    """Every declared API's schemas load and answer: its valid versions are its request's."""
    for key in apis.DECLARATIONS:
        lo, hi = schema_facts.valid_versions(key)
        assert 0 <= lo <= hi == codec.APIS[key].max_version
