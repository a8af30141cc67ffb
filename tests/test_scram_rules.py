"""The SCRAM rules (reference/scram_rules.py), the U generators and the known deviation's
shape, checked without a broker."""
from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import Errors
from protocol import requests as build
from reference import known_deviations as kd
from reference.scram_rules import (MAX_ITERATIONS, SHA_256, SHA_512, Deletion, Upsertion, alter, java_bucket,
                                   last_holder_deleted_beside_an_upsertion, refusal)
from strategies import scram_credentials as gen

ENTRY = kd.entry("scram-upsertion-lost-when-a-deletion-empties-its-mechanism")


def test_java_bucket_follows_string_hash_code():
    # "a".hashCode() == 97, "b" 98; "Aa" and "BB" collide (2112)
    assert (java_bucket("a"), java_bucket("b")) == (1, 2)
    assert java_bucket("Aa") == java_bucket("BB") == 2112 & 15


def test_a_user_named_twice_answers_duplicate_resource_once_and_changes_nothing():
    held = {"u": {SHA_256: 4096}}
    up = Upsertion("u", SHA_512, 4096, b"s", b"p")
    codes, after = alter(held, [Deletion("u", SHA_256)], [up, Upsertion("v", SHA_256, 8192, b"s", b"p")])
    assert codes == {"u": Errors.DUPLICATE_RESOURCE, "v": Errors.NONE}
    assert after == {"u": {SHA_256: 4096}, "v": {SHA_256: 8192}}


def test_refusals_follow_kafkas_bounds():
    assert refusal(Upsertion("u", SHA_256, 4095, b"s", b"p")) == Errors.UNACCEPTABLE_CREDENTIAL
    assert refusal(Upsertion("u", SHA_512, MAX_ITERATIONS + 1, b"s", b"p")) == Errors.UNACCEPTABLE_CREDENTIAL
    assert refusal(Upsertion("u", SHA_512, MAX_ITERATIONS, b"s", b"p")) is None
    assert refusal(Upsertion("", SHA_256, 4096, b"s", b"p")) == Errors.UNACCEPTABLE_CREDENTIAL
    assert refusal(Deletion("u", 0)) == Errors.UNSUPPORTED_SASL_MECHANISM
    assert alter({}, [Deletion("u", SHA_256)], [])[0] == {"u": Errors.RESOURCE_NOT_FOUND}


_ENTRIES = st.lists(st.tuples(st.sampled_from(["a", "b", "kac-1-x"]), st.sampled_from([0, 1, 2]),
                              st.sampled_from([4096, 1, 99999])), max_size=4)


@settings(max_examples=300, deadline=None)
@given(_ENTRIES, _ENTRIES)
def test_the_scram_shape_and_its_regex_agree_on_valid_entries(dels, ups):
    body = build.alter_scram_credentials(0, [(n, m) for n, m, _ in dels], [(n, m, i, b"s", b"p") for n, m, i in ups])
    by_regex = bool(re.search(ENTRY.doc["request_regex"], json.dumps(body, sort_keys=True, default=str)))
    if last_holder_deleted_beside_an_upsertion(body):
        assert by_regex, body      # the regex is wider (it does not judge validity); never narrower


@given(st.sampled_from(gen.REFUSED_KINDS).flatmap(gen.refused))
def test_every_refused_kind_is_refused(entry):
    assert refusal(entry) is not None


def test_a_zookeeper_mode_broker_refuses_a_pair_named_twice_and_applies_a_users_two_mechanisms():
    """ZkAdminManager.alterUserScramCredentials: a duplicate is a (user, mechanism) pair; KRaft
    refuses any user named twice (measured: kafka:3.3.2 and 3.4.1 in ZooKeeper mode answer
    NONE to U2's two upsertions of both mechanisms of one user)."""
    a256, a512 = Upsertion("a", SHA_256, 4096, b"s", b"p"), Upsertion("a", SHA_512, 8192, b"s", b"p")
    b = Upsertion("b", SHA_256, 4096, b"s", b"p")
    held = {"a": {SHA_256: 5000}}
    assert alter(held, [], [a256, a512, b], zookeeper=True) == (
        {"a": 0, "b": 0}, {"a": {SHA_256: 4096, SHA_512: 8192}, "b": {SHA_256: 4096}})
    assert alter(held, [], [a256, a512, b], zookeeper=False)[0] == {"a": 92, "b": 0}     # DUPLICATE_RESOURCE
    assert alter(held, [], [a512, a512, b], zookeeper=True) == ({"a": 92, "b": 0}, {"a": {SHA_256: 5000},
                                                                                    "b": {SHA_256: 4096}})
    # a deletion and an upsertion of the other mechanism: the deletion first, then the upsertion
    assert alter(held, [Deletion("a", SHA_256)], [a512], zookeeper=True) == ({"a": 0}, {"a": {SHA_512: 8192}})
    assert alter(held, [Deletion("a", SHA_256)], [a256], zookeeper=True)[0] == {"a": 92}
    assert alter(held, [Deletion("a", SHA_512)], [b], zookeeper=True) == ({"a": 91, "b": 0},
                                                                          {"a": {SHA_256: 5000}, "b": {SHA_256: 4096}})
