"""K2: KIP-694's partition deletion (DeletePartitions), never released, as a schema overlay.

KIP-694 ("Support Reducing Partitions for Topics") proposes "a new API type DeletePartitions" and elides its schemas; no API key was
ever assigned. The request and response are therefore defined here as an overlay on the
codec (``reference/partition_deletion.py``: the schemas, what each field follows
in the KIP, and the rules below with their sources), under the key ``--k2-api-key N``
(default 10000).

A broker implementing it declares so: feature ``partition.deletion.version`` (level 1) in
ApiVersions v3+ SupportedFeatures (KIP-584, ``conformance/capabilities.py``), and the API at
v0 under that key. Every other broker - every released one - gets ``unsupported`` rows saying
which declaration is missing. ``proxy:k2@SPEC`` (``faults/emulate.py``) emulates a broker
that implements it over any broker; the mutants of that emulation
(``faults/mutants/partition_deletion.py``) each break one rule below.

The rules (``DeletePartitions = k`` deletes partitions ``k..n-1`` of a topic with ``n``):

* ``1 <= k < n``: NONE, and Metadata then lists partitions ``0..k-1`` only (KIP-694:
  "The partition to remove. All associated partitions will be removed as well."; status
  None: "filtered and not written to");
* ``k <= 0`` or ``k >= n``: INVALID_PARTITIONS and nothing changes (where the KIP is silent:
  Kafka's CreatePartitions answers a count the topic cannot take so,
  ReplicationControlManager.createPartitions);
* an unknown topic: UNKNOWN_TOPIC_OR_PARTITION, no topic created; a topic named twice:
  INVALID_REQUEST (ControllerApis.createPartitions' duplicate rule);
* validate_only: the real request's verdict, no change (KIP-201);
* items are independent (KIP-201: "validation failure only affects the relevant topic");
* errors carry an error_message (KIP-201).
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import Unsupported
from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors
from protocol import requests as build
from protocol.apis import items

from .capabilities import require_feature
from .overlays import k2_api_key
from reference import partition_deletion as pd
from reference.kips import KIP_201

SOURCE = (f"catalogue K2; {pd.SOURCE}: 'A new API type DeletePartitions will be added' / "
          "DeleteTopicPartitionsRecord.DeletePartitions 'The partition to remove. All associated partitions "
          "will be removed as well.'; reference/partition_deletion.py (overlay schema, rules)")
KAFKA_CP = ("apache/kafka metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java "
            "createPartitions (a count the topic cannot take: INVALID_PARTITIONS); core/src/main/scala/kafka/"
            "server/ControllerApis.scala createPartitions (duplicate names: INVALID_REQUEST)")
KIP_201_ITEMS = KIP_201.cite("'validation failure only affects the relevant topic', errors carry messages")


def pytest_generate_tests(metafunc):
    """One row per K2 test: DeletePartitions v0 under the run's --k2-api-key."""
    if {"api_key", "version"} <= set(metafunc.fixturenames):
        key = k2_api_key(metafunc.config)
        metafunc.parametrize("api_key,version", [pytest.param(key, pd.VERSION, id="DeletePartitions-v0")])


def _require(check, api_key: int) -> None:
    require_feature(check, pd.FEATURE, pd.FEATURE_LEVEL, "KIP-694's partition deletion")
    rng = check.broker.advertised(api_key)
    if rng is None or not rng[0] <= pd.VERSION <= rng[1]:
        raise Unsupported(f"broker declares {pd.FEATURE!r} but does not advertise DeletePartitions "
                          f"v{pd.VERSION} under API key {api_key}"
                          + (f" (it advertises v{rng[0]}-{rng[1]})" if rng else "")
                          + "; pass --k2-api-key with the key it serves it under")
    check.require_mutations()


class _K2:
    """The driver: DeletePartitions requests and the Metadata a K2 check reads."""

    def __init__(self, check, api_key: int):
        self.check, self.key = check, api_key
        self.admin = Admin(check)

    def delete(self, deletions, validate_only: bool = False, want: dict | None = None
               ) -> dict[str, tuple[int, str | None]]:
        """Send one DeletePartitions; ``want`` (name -> code) states each item's expected
        code, and every name gets exactly one result: the judge decides."""
        body = pd.delete_partitions(pd.VERSION, deletions, timeout_ms=10_000, validate_only=validate_only)
        resp = self.admin.client.answered(self.key, pd.VERSION, body)
        self.sent = len(self.check.steps) - 1
        for name, code in (want or {}).items():
            self.check.expect_field(["results", {"name": name}, "error_code"], [code], count=1,
                                    says=f"{name}: {_code(code)}")
        for name in dict.fromkeys(n for n, _ in deletions):
            if name not in (want or {}):
                self.check.expect_field(["results", {"name": name}, "error_code"], count=1,
                                        says=f"one result for {name}")
        return {r["name"]: (r["error_code"], r.get("error_message")) for r in resp.get("results") or []}

    def topic(self, partitions: int) -> str:
        name = self.check.topic("k2")
        self.admin.create_topic(name, partitions)
        return name

    def partitions(self, name: str) -> list[int]:
        """The partition ids Metadata lists for ``name`` (sorted)."""
        v = self.admin.version(ApiKey.Metadata, at_least=1)
        resp = self.admin.client.answered(ApiKey.Metadata, v, build.metadata(v, [name]))
        return sorted(p["partition_index"] for t in items(ApiKey.Metadata, resp) if t.get("name") == name
                      for p in t.get("partitions") or [])

    def lists(self, name: str, count: int, within: float | None = None) -> None:
        """Metadata lists exactly partitions 0..count-1 of ``name``; with ``within``, the
        judge re-sends the Metadata request until it does or the time runs out (as a
        reproducer polls it)."""
        want = list(range(count))
        self.partitions(name)
        self.check.expect_field(["topics", {"name": name}, "partitions", "partition_index"], want, count=count,
                                says=f"{name} lists partitions {want}", retry_s=within)


def _code(code) -> str:
    try:
        return f"{Errors(code).name} ({code})"
    except ValueError:
        return str(code)


@pytest.mark.prop("K2", source=SOURCE)
def test_k2_deleting_from_partition_k_keeps_exactly_the_partitions_below_k(check, api_key, version):
    """Deleting from partition k (1 <= k < n) answers NONE and Metadata then lists partitions
    0..k-1 and no other."""
    _require(check, api_key)
    k2 = _K2(check, api_key)

    def delete(nk):
        n, k = nk
        name = k2.topic(n)
        k2.delete([(name, k)], want={name: Errors.NONE})
        k2.lists(name, k, within=VISIBLE_S)

    check.given(st.integers(2, 4).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n - 1))), delete)


@pytest.mark.prop("K2", source=f"{SOURCE}; {KAFKA_CP}")
def test_k2_a_deletion_the_topic_cannot_take_answers_invalid_partitions_and_changes_nothing(check, api_key, version):
    """Deleting from partition 0 or below (no partition would be left) or from a partition the
    topic does not have (k >= n) answers INVALID_PARTITIONS (37), and the topic keeps its
    partitions."""
    _require(check, api_key)
    k2 = _K2(check, api_key)

    def refused(value):
        n, below, beyond = value
        name = k2.topic(n)
        for k in dict.fromkeys((0, below, n + beyond)):
            k2.delete([(name, k)], want={name: Errors.INVALID_PARTITIONS})
            k2.lists(name, n)

    check.given(st.tuples(st.integers(1, 3), st.integers(-3, 0), st.integers(0, 3)), refused)


@pytest.mark.prop("K2", source=f"{SOURCE}; {KAFKA_CP}")
def test_k2_unknown_and_twice_named_topics_are_refused_per_name(check, api_key, version):
    """An unknown topic answers UNKNOWN_TOPIC_OR_PARTITION (3) and is not created; a topic
    named twice in one request answers INVALID_REQUEST (42) once for that name and keeps its
    partitions."""
    _require(check, api_key)
    k2 = _K2(check, api_key)

    def refused(value):
        k, first, second = value
        unknown = check.topic("k2-unknown")
        k2.delete([(unknown, k)], want={unknown: Errors.UNKNOWN_TOPIC_OR_PARTITION})
        k2.admin.metadata([unknown])
        check.expect_field(["topics", {"name": unknown}, "error_code"], refused=[Errors.NONE],
                           says=f"{unknown} is not created by DeletePartitions")
        name = k2.topic(3)
        k2.delete([(name, first), (name, second)], want={name: Errors.INVALID_REQUEST})
        k2.lists(name, 3)

    check.given(st.tuples(st.integers(-1, 3), st.integers(1, 2), st.integers(1, 2)), refused)


@pytest.mark.prop("K2", source=f"{SOURCE}; {KIP_201.cite('validate_only validates but changes nothing')}")
def test_k2_validate_only_answers_as_the_real_deletion_and_changes_nothing(check, api_key, version):
    """A validate_only DeletePartitions leaves Metadata's partitions as they were and answers
    the code the same deletion then gets for real. Each example asks one deletion the topic
    can take and one drawn from any k."""
    _require(check, api_key)
    k2 = _K2(check, api_key)

    def validate_then_delete(value):
        n, valid, drawn = value
        for k in (valid, drawn):
            name = k2.topic(n)
            k2.delete([(name, k)], validate_only=True)
            dry_step = k2.sent
            k2.lists(name, n)
            k2.delete([(name, k)])
            check.expect_same(["results", {"name": name}, "error_code"], dry_step,
                              says=f"{name}: the real deletion from partition {k} ({n} partitions) answers the "
                                   "validate_only verdict")

    check.given(st.integers(2, 4).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n - 1),
                                                              st.integers(-1, n + 1))),
                validate_then_delete)


@pytest.mark.prop("K2", source=f"{SOURCE}; {KIP_201_ITEMS}")
def test_k2_a_failing_item_leaves_the_other_items_alone(check, api_key, version):
    """In one request, a deletion that is refused (unknown topic, or a partition the topic
    lacks) gets its own code, and a valid deletion beside it answers NONE and is applied."""
    _require(check, api_key)
    k2 = _K2(check, api_key)

    def batch(value):
        unknown_topic, k = value
        good = k2.topic(3)
        bad = check.topic("k2-unknown") if unknown_topic else k2.topic(1)
        want_bad = Errors.UNKNOWN_TOPIC_OR_PARTITION if unknown_topic else Errors.INVALID_PARTITIONS
        k2.delete([(bad, 1), (good, k)], want={bad: want_bad, good: Errors.NONE})
        k2.lists(good, k, within=VISIBLE_S)

    check.given(st.tuples(st.booleans(), st.integers(1, 2)), batch)


@pytest.mark.prop("K2", source=f"{SOURCE}; {KIP_201_ITEMS}")
def test_k2_errors_carry_a_message(check, api_key, version):
    """A non-zero error code (unknown topic, a partition the topic lacks) carries an
    error_message; NONE carries none."""
    _require(check, api_key)
    k2 = _K2(check, api_key)

    def explained(value):
        validate_only, k = value
        unknown, name = check.topic("k2-unknown"), k2.topic(2)
        out = k2.delete([(unknown, 1), (name, k)], validate_only=validate_only)
        for n, (code, _) in out.items():
            at = ["results", {"name": n, "error_code": code}, "error_message"]
            if code != Errors.NONE:
                check.expect_field(at, refused=[None, ""], says=f"{n} answered {_code(code)}: an error_message")
            else:
                check.expect_field(at, [None], says=f"{n} answered NONE: no error_message")

    check.given(st.tuples(st.booleans(), st.sampled_from([0, 1, 2, 5])), explained)
