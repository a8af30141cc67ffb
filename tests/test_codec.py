"""Round trips through ``protocol.codec`` at every version 0..max of every admin API,
removed versions included, with bodies from ``strategies.schema``.

A body survives encode -> decode (compared in ``schema.normalise`` form), and the decoding
re-encodes to the very same bytes. Framing follows Kafka's wire format
(``clients/src/main/resources/common/message/RequestHeader.json`` / ``ResponseHeader.json``).
"""
from __future__ import annotations

import io
import struct
import uuid

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from protocol import codec
from protocol.apis import ApiKey
from reference import kip201
from strategies import schema

CASES = [(k, v) for k in sorted(codec.ADMIN_APIS) for v in schema.versions(k)]
IDS = [f"{codec.APIS[k].name}-v{v}" for k, v in CASES]
EXAMPLES = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CORRELATION_IDS = st.integers(-(1 << 31), (1 << 31) - 1)


def test_cases_cover_removed_versions():
    """DeleteTopics v0 and CreateTopics v0/v1 are gone from Kafka 4 but still encode here."""
    assert codec.APIS[20].kafka_min_version == 1 and codec.APIS[19].kafka_min_version == 2
    assert (20, 0) in CASES and (19, 0) in CASES and (19, 1) in CASES


@pytest.mark.parametrize("api_key,version", CASES, ids=IDS)
@EXAMPLES
@given(data=st.data(), cid=CORRELATION_IDS)
def test_request_round_trip(api_key, version, data, cid):
    body = data.draw(schema.request_body(api_key, version), label="body")
    frame = codec.encode_request(api_key, version, body, cid)
    assert struct.unpack(">i", frame[:4])[0] == len(frame) - 4
    header, decoded = codec.decode_request(frame[4:])
    assert header == {"api_key": api_key, "api_version": version, "correlation_id": cid,
                      "client_id": "kafka-admin-conformance"}
    req = codec.APIS[api_key].request
    assert schema.normalise(req, version, decoded) == schema.normalise(req, version, body)
    assert codec.encode_request(api_key, version, decoded, cid) == frame


@pytest.mark.parametrize("api_key,version", CASES, ids=IDS)
@EXAMPLES
@given(data=st.data(), cid=CORRELATION_IDS)
def test_response_round_trip(api_key, version, data, cid):
    body = data.draw(schema.response_body(api_key, version), label="body")
    frame = codec.encode_response(api_key, version, body, cid)
    assert struct.unpack(">i", frame[:4])[0] == len(frame) - 4
    got_cid, decoded = codec.decode_response(api_key, version, frame[4:])
    assert got_cid == cid
    resp = codec.APIS[api_key].response
    assert schema.normalise(resp, version, decoded) == schema.normalise(resp, version, body)
    assert codec.encode_response(api_key, version, decoded, cid) == frame


@pytest.mark.parametrize("api_key,version", CASES, ids=IDS)
@settings(max_examples=5, deadline=None)
@given(data=st.data(), junk=st.binary(min_size=1, max_size=4))
def test_response_with_bytes_left_over_is_rejected(api_key, version, data, junk):
    """decode_response's contract: leftover bytes are an error (kafka-python ignores them)."""
    frame = codec.encode_response(api_key, version, data.draw(schema.response_body(api_key, version)), 1)
    with pytest.raises(codec.CodecError):
        codec.decode_response(api_key, version, frame[4:] + junk)


@pytest.mark.parametrize("api_key,version", CASES, ids=IDS)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_truncated_response_is_rejected(api_key, version, data):
    frame = codec.encode_response(api_key, version, data.draw(schema.response_body(api_key, version)), 1)
    with pytest.raises(codec.CodecError):
        codec.decode_response(api_key, version, frame[4:-1])


@settings(max_examples=30, deadline=None)
@given(body=schema.response_body(18, 0, {"error_code": 35}), version=st.integers(1, 4))
def test_api_versions_v0_fallback(body, version):
    """ApiVersionsResponse.parse: a broker answers an unsupported ApiVersions version with a
    v0 UNSUPPORTED_VERSION body, which the client reads whatever version it asked for."""
    frame = codec.encode_response(18, 0, body, 9)
    _, decoded = codec.decode_response(18, version, frame[4:])
    resp = codec.APIS[18].response
    assert schema.normalise(resp, 0, decoded) == schema.normalise(resp, 0, body)


@pytest.mark.parametrize("version", [3, 4])
def test_api_versions_error_at_flexible_version(version):
    """An error answered at the request's own version (e.g. INVALID_REQUEST for a bad client
    software name, KafkaApis.handleApiVersionsRequest) decodes at that version; kafka-python
    alone reads every error response as v0 and fails on these bytes."""
    body = {"error_code": 42, "api_keys": [{"api_key": 18, "min_version": 0, "max_version": 4}],
            "throttle_time_ms": 7}
    frame = codec.encode_response(18, version, body, 3)
    _, decoded = codec.decode_response(18, version, frame[4:])
    assert decoded["error_code"] == 42 and decoded["throttle_time_ms"] == 7


def _library_decoded(cls, payload: bytes, version: int):
    """kafka-python's own decoding of a message body after its header (the library the
    suite encodes with): the oracle of the suite's form of an answer."""
    hdr_buf = io.BytesIO(payload)
    cls.parse_header(hdr_buf, version=version)
    flexible = cls.flexible_version_q(version)
    read = cls._struct.compiled_decode_from(version, compact=flexible, tagged=flexible, data_class=cls)
    msg, end = read(memoryview(payload), hdr_buf.tell())
    assert end == len(payload)
    return msg


def _same(a, b) -> bool:
    """Equal values of the same types, dict keys in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize("api_key,version", CASES, ids=IDS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_to_dict_gives_the_codec_librarys_own_dict(api_key, version, data):
    """codec.to_dict walks each struct's fields once per (struct, version); it must give
    what the library's msg.to_dict(json=False) gives (a request, as the proxy reads it)."""
    a = codec.APIS[api_key]
    frame = codec.encode_request(api_key, version, data.draw(schema.request_body(api_key, version)), 7)
    msg = a.request.decode(frame[4:], version=version, header=True)
    got, want = codec.to_dict(msg), msg.to_dict(json=False)
    assert got == want and list(got) == list(want)


@pytest.mark.parametrize("api_key,version", CASES, ids=IDS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_answer_reads_as_the_codec_library_decodes_it(api_key, version, data):
    """The one reader of answers (protocol/reader.py) gives the suite the values
    kafka-python's classes decode (types and field order included: bytes, UUIDs, bit fields
    as sets, the defaults of tagged fields left out), which its encoder takes back."""
    frame = codec.encode_response(api_key, version, data.draw(schema.response_body(api_key, version)), 7)
    want = _library_decoded(codec.APIS[api_key].response, frame[4:], version).to_dict(json=False)
    assert _same(codec.decode_response(api_key, version, frame[4:]), (7, want))


@pytest.mark.parametrize("api_key", sorted(kip201.OVERLAYS))
def test_a_kip201_answer_reads_at_the_overlay_version(api_key):
    """K1's overlays (reference/kip201.py): an answer with the overlay's own fields reads at
    the version one above Kafka's with the overlay's schema."""
    v = kip201.OVERLAYS[api_key].version
    _, resp = kip201.codec(api_key)
    if api_key == ApiKey.DeleteTopics:
        body = {"throttle_time_ms": 1, "responses": [{"name": "t", "topic_id": uuid.uuid4(), "error_code": 44,
                                                       "error_message": "refused"}]}
    else:
        body = {"throttle_time_ms": 1, "topics": [{"name": "t", "partitions": [
            {"partition_index": 0, "low_watermark": -1, "error_code": 44, "error_message": "refused"}]}]}
    saved = codec.APIS[api_key]
    codec.APIS[api_key] = codec.Api(api_key, saved.name, saved.request, resp)
    try:
        frame = codec.encode_response(api_key, v, body, 5)
    finally:
        codec.APIS[api_key] = saved
    want = _library_decoded(resp, frame[4:], v).to_dict(json=False)
    assert _same(kip201.decode_response(api_key, frame[4:]), (5, want))
    assert want["throttle_time_ms"] == 1 and "refused" in repr(want)
