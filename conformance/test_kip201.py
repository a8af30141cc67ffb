"""K1: KIP-201's delete-side validate_only and error messages (never released).

KIP-201 ("Rationalising Policy interfaces") proposed a new DeleteTopics and DeleteRecords version whose request
carries ``validate_only`` and whose response carries ``error_message``. Released Apache Kafka
never shipped it (docs/reference-semantics.md R1, V1-V3), so the requests and answers are
defined as overlays on Kafka's message schemas (``reference/kip201.py``: the
version one above the official max, here DeleteTopics v7 and DeleteRecords v3).

These properties run only against a broker that *declares* KIP-201: the feature
``kip201.version`` (level 1) in ApiVersions v3+ SupportedFeatures (KIP-584;
``conformance/capabilities.py``), and the overlay version advertised. A broker that only
advertises a version one above the schemas' maximum is not taken for a KIP-201 broker (a
future Kafka may add DeleteTopics v7 for other reasons). Every other broker gets
``unsupported`` rows saying which declaration is missing (a broker that does not implement an
unreleased KIP has not failed anything). The properties, from the KIP's text:

* a validate_only delete changes nothing (the topic stays listed, the log start offset
  stays), and answers the code the real delete then answers (catalogue V1, V2 for the
  delete APIs);
* the new version's errors carry a message (KIP-201: "The DeleteTopicsResponse will get the
  ability to include error messages"; the same for DeleteRecords).
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin, one_partition, one_result
from fixtures.harness import Unsupported
from protocol import ApiKey, Errors, OffsetSpec
from protocol import requests as build
from protocol.codec import APIS

from .capabilities import require_feature
from reference.kip201 import (FEATURE, FEATURE_LEVEL, OVERLAYS, SOURCE as KIP, decode_response, encode_request,
                              overlay_response_schema)

SOURCE = (f"catalogue K1; {KIP}: 'New versions of existing network protocol DeleteTopicsRequest and "
          "DeleteRecordsRequest will be added, to add a validate_only flag' / '... include an error "
          "message'; reference/kip201.py (overlay schemas)")


def overlay_rows():
    return [pytest.param(int(k), OVERLAYS[k].version, id=f"{APIS[k].name}-v{OVERLAYS[k].version}-KIP-201")
            for k in sorted(OVERLAYS)]


def _require_overlay(check, api_key) -> int:
    """The overlay version, when the broker declares KIP-201 (the feature, then the version)."""
    require_feature(check, FEATURE, FEATURE_LEVEL, "KIP-201 (validate_only and error_message on the delete APIs)")
    lo, hi = check.require(api_key)
    v = OVERLAYS[api_key].version
    if not lo <= v <= hi:
        raise Unsupported(f"broker declares {FEATURE!r} but advertises {APIS[api_key].name} v{lo}-{hi}, "
                          f"not KIP-201's v{v}")
    check.require_mutations()
    return v


def _send(check, client, api_key: int, body: dict) -> dict:
    """Send ``body`` at the overlay version (encoded and its answer read with the overlay
    schemas) and require an answer (the judge's "an answer within the timeout")."""
    v = OVERLAYS[api_key].version
    at = check.record_step({"api_key": api_key, "api_name": APIS[api_key].name, "api_version": v,
                            "request": body, "overlay": "KIP-201"})
    cid = next(client.conn._ids)
    ex = client.conn._roundtrip(api_key, v, body, cid, encode_request(api_key, body, cid, client.conn.client_id))
    check.record_answer(at, ex, schema=overlay_response_schema(api_key))
    if not ex.ok:
        check.broker_lost(ex)
    check.expect_within(client.conn.timeout, step=at)
    return decode_response(api_key, ex.raw)[1]


@pytest.mark.prop("K1", source=SOURCE)
@pytest.mark.parametrize("api_key,version", overlay_rows())
def test_k1_validate_only_delete_changes_nothing_and_answers_as_the_real_delete(check, api_key, version):
    """A validate_only DeleteTopics/DeleteRecords leaves the topic / log start offset as it
    was, and its per-item code is the one the real delete answers next."""
    _require_overlay(check, api_key)
    admin = Admin(check)

    def validate_then_delete(value):
        name = check.topic("k1")
        if api_key == ApiKey.DeleteTopics:
            admin.create_topic(name)

            def delete(only):
                body = {**build.delete_topics(version, [name], timeout_ms=10_000), "validate_only": only}
                return one_result(check, api_key, version, _send(check, admin.client, api_key, body), name)
            delete(True)
            dry = len(check.steps) - 1
            admin.metadata([name])
            check.expect_field(["topics", {"name": name}, "error_code"], [Errors.NONE], count=1,
                               says=f"validate_only DeleteTopics v{version} left {name} listed")
            delete(False)
            check.expect_same(["responses", {"name": name}, "error_code"], dry,
                              says="the real delete answers the code validate_only answered")
        else:
            records, offset = value
            admin.create_topic(name)
            if records:
                admin.produce(name, 0, records)
            admin.offset(name, 0, OffsetSpec.EARLIEST)
            before = len(check.steps) - 1

            def delete(only):
                body = {**build.delete_records(version, [(name, [(0, offset)])], timeout_ms=10_000),
                        "validate_only": only}
                return one_partition(check, api_key, version, _send(check, admin.client, api_key, body), name, 0)
            delete(True)
            dry = len(check.steps) - 1
            admin.offset(name, 0, OffsetSpec.EARLIEST)
            check.expect_same(["topics", "partitions", "offset"], before,
                              says=f"validate_only DeleteRecords v{version} left the log start offset where "
                                   "it was")
            delete(False)
            check.expect_same(["topics", {"name": name}, "partitions", {"partition_index": 0}, "error_code"], dry,
                              says="the real DeleteRecords answers the code validate_only answered")

    check.given(st.tuples(st.integers(0, 5), st.sampled_from([-1, 0, 1, 3, 1 << 40])), validate_then_delete)


@pytest.mark.prop("K1", source=SOURCE)
@pytest.mark.parametrize("api_key,version", overlay_rows())
def test_k1_delete_errors_carry_a_message_at_the_kip201_version(check, api_key, version):
    """At KIP-201's version an error (here: an unknown topic) carries an error_message."""
    _require_overlay(check, api_key)
    admin = Admin(check)

    def explained(validate_only):
        name = check.topic("k1-unknown")
        if api_key == ApiKey.DeleteTopics:
            body = build.delete_topics(version, [name], timeout_ms=10_000)
        else:
            body = build.delete_records(version, [(name, [(0, 0)])], timeout_ms=10_000)
        resp = _send(check, admin.client, api_key, {**body, "validate_only": validate_only})
        if api_key == ApiKey.DeleteTopics:
            one_result(check, api_key, version, resp, name)
            entry = ["responses", {"name": name}]
        else:
            one_partition(check, api_key, version, resp, name, 0)
            entry = ["topics", {"name": name}, "partitions", {"partition_index": 0}]
        check.expect_field(entry + ["error_message"], refused=[None, ""], unless=(-1, entry + ["error_code"], [0]),
                           says=f"{APIS[api_key].name} v{version}: an error carries an error_message")

    check.given(st.booleans(), explained)
