"""Every API is declared once (protocol/apis.py ``DECLARATIONS``) and every list of APIs the
suite keeps is derived from those declarations; an API whose schemas come from elsewhere than
kafka-python plugs into the same declaration (docs/CONTRIBUTING-properties.md, "Adding an API")."""
from __future__ import annotations

import pytest
from kafka.protocol.admin import DescribeClusterRequest, DescribeClusterResponse
from kafka.protocol.schemas import load_json

from conformance import parametrize
from fixtures import scope
from protocol import ZERO_UUID, apis, codec, schema_facts
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


def test_every_admin_api_has_codes_a_generator_and_item_paths_its_schemas_have():
    """An admin API is declared with what the generic properties need: Kafka's codes
    (reference/error_codes.py), bodies at every version (strategies), and item paths
    naming arrays and keys its schemas have."""
    from strategies import domain
    for key in apis.keys(ADMIN):
        assert error_codes.known_error_codes(key) != error_codes.ALL_KAFKA_CODES, key.name
        assert domain.admin_request(key, codec.APIS[key].max_version, "kac-abc123-") is not None
        s = apis.DECLARATIONS[key]
        for side, paths in ((schema_facts.REQUEST, s.ask_paths), (schema_facts.RESPONSE, s.answer_paths)):
            for union in paths:
                for levels in union:
                    path = ""
                    for level in levels:
                        path = f"{path}.{level.array}" if path else level.array
                        assert schema_facts.defines(key, path, side), (key.name, side, path)
                        for field in level.key:
                            if field not in ("#", "*"):
                                assert schema_facts.defines(key, f"{path}.{field}", side), (key.name, side, path, field)


def test_what_is_not_declared_says_why_and_is_not_declared_too():
    assert not set(apis.NOT_DECLARED) & {int(k) for k in apis.DECLARATIONS}
    for key, (name, why) in apis.NOT_DECLARED.items():
        assert name and len(why) > 20, key
        if key in ApiKey._value2member_map_:
            assert ApiKey(key).name == name


def test_item_keys_match_a_request_to_its_answer():
    from protocol import item_keys
    ids = [__import__("uuid").uuid4()]
    by = item_keys.ALTERNATIVES
    assert item_keys.requested(ApiKey.DeleteTopics, 6, {"topics": [{"name": None, "topic_id": ids[0]},
                                                                   {"name": "a", "topic_id": ZERO_UUID}]}) == \
        [((by, ("topic_id", ids[0])),), ((by, ("name", "a")),)]       # by id, by name (the zero id names nothing)
    assert item_keys.answered(ApiKey.DeleteTopics, 6, {"responses": [{"name": "t", "topic_id": ids[0]}]}) == \
        [((by, ("name", "t"), ("topic_id", ids[0])),)]                # an answer may name it both ways
    assert item_keys.requested(ApiKey.DeleteTopics, 3, {"topic_names": ["a", "b"]}) == [("a",), ("b",)]
    configs = {"resources": [{"resource_type": 2, "resource_name": "t", "configuration_keys": None}]}
    assert item_keys.requested(ApiKey.DescribeConfigs, 4, configs) == [(2, "t")]
    acls = {"creations": [{}, {}]}
    assert item_keys.requested(ApiKey.CreateAcls, 3, acls) == [(0,), (1,)] and item_keys.positional(ApiKey.CreateAcls)
    scram = {"deletions": [{"name": "u", "mechanism": 1}], "upsertions": [{"name": "v"}]}
    assert item_keys.requested(ApiKey.AlterUserScramCredentials, 0, scram) == [("u",), ("v",)]
    entity = [{"entity_type": "user", "entity_name": "u"}, {"entity_type": "client-id", "entity_name": "c"}]
    asked = item_keys.requested(ApiKey.AlterClientQuotas, 1, {"entries": [{"entity": entity, "ops": []}]})
    answered = item_keys.answered(ApiKey.AlterClientQuotas, 1, {"entries": [{"entity": entity[::-1]}]})
    assert asked == answered        # Kafka keeps no order of an entity's parts
    fetch = {"groups": [{"group_id": "g", "topics": None}]}
    assert item_keys.requested(ApiKey.OffsetFetch, 8, fetch) == [("g",)]
    old = {"group_id": "g", "topics": [{"name": "t", "partition_indexes": [0, 1]}]}
    assert item_keys.requested(ApiKey.OffsetFetch, 7, old) == [("t", 0), ("t", 1)]
    dirs = {"dirs": [{"path": "/d", "topics": [{"name": "t", "partitions": [3]}]}]}
    assert item_keys.requested(ApiKey.AlterReplicaLogDirs, 2, dirs) == [("t", 3)]
    assert item_keys.requested(ApiKey.Metadata, 0, {"topics": []}) is None       # v0's empty list: every topic
    assert item_keys.requested(ApiKey.Metadata, 12, {"topics": None}) is None


def test_every_admin_api_is_in_one_family():
    listed = [k for keys in apis.API_FAMILIES.values() for k in keys]
    assert sorted(listed) == sorted(apis.keys(ADMIN)) and len(listed) == len(set(listed))
    assert apis.family(ApiKey.DeleteAcls) == "ACLs"
