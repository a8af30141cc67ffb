"""T1: what CreateTopics refuses and with which code (T2, CreatePartitions, is
``test_create_partitions.py``).

The codes are released Apache Kafka 4.x's (KRaft), read in
``metadata/.../controller/ReplicationControlManager.java`` (``createTopics``,
``createTopic``, ``validateNewTopicNames``, ``computeConfigChanges``, ``createPartitions``)
and ``core/.../server/ControllerApis.scala`` (duplicates), and shown by Kafka's own tests
(``CreateTopicsRequestTest``, ``TopicTest``, ``ReplicationControlManagerTest``); the summary
with every source is ``docs/reference-semantics.md`` (T1). Kafka decides a topic's code
at the first check it fails, in this order: name (17), exists (36), a collision by '.'/'_'
with another topic (17), configs (40), manual assignment next to counts (42), replication
factor <= 0 other than -1 (38), partition count <= 0 other than -1 (37), more replicas than
brokers (38). A collision with an earlier name of the same request is refused too, as
Kafka means it to be (KAFKA-13743); released KRaft Kafka does not refuse it, a reviewed
known deviation (``reference/kafka_known_deviations.json``). Inputs here have one defect each,
except where a test is about that order.

Versions: every CreateTopics version the broker advertises (released Kafka 4.x serves
CreateTopics v2-v7). -1 ("broker default",
KIP-464) is sent only from CreateTopics v4, where the schema documents it.
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures.harness import Skip
from fixtures.waiting import VISIBLE_S
from protocol import apis, requests, schema_facts
from protocol.apis import ApiKey
from protocol.errors import Errors, error_name
from strategies import domain

from .parametrize import every_version
from .batch_model import World, asked, expect_entry, set_up
from reference import topic_names
from reference.modes import CREATE_TOPICS_CHECKS, first_failed
from reference.release_lines import CLUSTER_METADATA_CREATE_ERROR, SEGMENT_BYTES_MIN
from reference.request_rules import BROKER_DEFAULT, BROKER_DEFAULTS
from reference.topic_config import CONFIGS
from protocol.kafka_sources import KAFKA

RCM = KAFKA + "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java"
RCM_TEST = KAFKA + "metadata/src/test/java/org/apache/kafka/controller/ReplicationControlManagerTest.java"
CT_TEST = KAFKA + "core/src/test/scala/unit/kafka/server/CreateTopicsRequestTest.scala"
TOPIC_TEST = KAFKA + "clients/src/test/java/org/apache/kafka/common/internals/TopicTest.java"
CAPIS = KAFKA + "core/src/main/scala/kafka/server/ControllerApis.scala"
#: ZooKeeper mode (3.9 branch, removed in 4.0): evidence of what Kafka means where KRaft differs.
ZK_ADMIN = KAFKA + "core/src/main/scala/kafka/server/ZkAdminManager.scala"
ADMIN_ZK = KAFKA + "core/src/main/scala/kafka/zk/AdminZkClient.scala"

CREATE_TOPICS_VERSIONS = every_version((ApiKey.CreateTopics,))


# --------------------------------------------------------------------------------------
# driver and oracle
# --------------------------------------------------------------------------------------

def _entry(name, partitions=1, rf=1, configs=(), assignments=()):
    return requests.topic(name, partitions, rf, list(configs), list(assignments))


def _create(ctx, version, entries, timeout_ms=domain.TIMEOUT_MS) -> dict:
    return ctx.client.answered(ApiKey.CreateTopics, version,
                               requests.create_topics(version, entries, timeout_ms=timeout_ms))


def expect_codes(ctx, api_key, resp, expected: dict[str, tuple[int, str]]) -> None:
    """Every response entry of each name carries the expected code (Kafka answers one
    entry per distinct name): the judge decides, name by name."""
    for name, (code, why) in expected.items():
        expect_entry(ctx.admin.check, api_key, name, [code], min_count=1,
                     says=f"{name!r} ({why}): every entry {code} {error_name(code)}")


def expect_absent(ctx, names) -> None:
    """A refused topic does not exist afterwards (Metadata of those names, or of every
    topic when a name is one Metadata cannot be asked about), on every broker."""
    names = list(names)
    for admin in ctx.admin.everywhere():     # no broker of a cluster lists it
        admin.metadata(names if all(map(topic_names.is_legal, names)) else None)
        for n in names:
            ctx.admin.check.expect_field(["topics", {"name": n}, "error_code"], refused=[Errors.NONE],
                                         says=f"Metadata does not list refused topic {n!r}")


def expect_present(ctx, counts: dict[str, int]) -> None:
    """The topics show in every broker's Metadata with their partition counts (polled)."""
    ctx.admin.expect_listed(counts)


def expect_kept(ctx, counts: dict[str, int]) -> None:
    """Refused topics keep their partition counts (Metadata after a barrier, no poll)."""
    ctx.admin.metadata(list(counts))
    for n, p in counts.items():
        ctx.admin.check.expect_field(["topics", {"name": n}, "partitions", "partition_index"], count=p,
                                     says=f"{n!r} keeps its {p} partition(s)")


def _fresh_unique(check, hint, n):
    return [check.topic(hint) for _ in range(n)]


def _given_refused(ctx, api_key, version, strategy, hint, code, entry, why) -> None:
    """For each list of cases ``strategy`` draws, one CreateTopics of a fresh topic per case
    (``entry(name, case)``): each answers ``code`` (``why(case)`` says what the entry
    asked) and none is created."""
    check = ctx.admin.check

    def refused(cases):
        names = _fresh_unique(check, hint, len(cases))
        resp = _create(ctx, version, [entry(n, c) for n, c in zip(names, cases)])
        expect_codes(ctx, api_key, resp, {n: (code, why(c)) for n, c in zip(names, cases)})
        expect_absent(ctx, names)

    check.given(strategy, refused)


# --------------------------------------------------------------------------------------
# T1: names
# --------------------------------------------------------------------------------------

#: TopicTest.shouldThrowOnInvalidTopicNames / shouldRecognizeInvalidCharactersInTopicNames:
#: name -> why (the run prefix is put in front of every name that can carry it).
INVALID_NAMES = {
    "": "empty", ".": "'.'", "..": "'..'",
    "{p}" + "a" * 250: "longer than 249", "{p}foo bar": "space", "{p}foo:bar": "':'",
    "{p}foo=bar": "'='", "{p}foo/bar": "'/'", "{p}foo\\bar": "'\\'", "{p}foo,bar": "','",
    "{p}foo\x00bar": "NUL", "{p}foo\"bar": "'\"'", "{p}foo'bar": "quote", "{p}foo;bar": "';'",
    "{p}foo*bar": "'*'", "{p}foo?bar": "'?'", "{p}foo\tbar": "tab", "{p}foo\nbar": "newline",
    "{p}caf\u00e9": "non-ASCII letter",
}


@pytest.mark.prop("T1", source=f"catalogue T1; {RCM} validateNewTopicNames (Topic.validate -> "
                               f"INVALID_TOPIC_EXCEPTION); {TOPIC_TEST} shouldThrowOnInvalidTopicNames, "
                               "shouldRecognizeInvalidCharactersInTopicNames")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_names_kafka_rejects_answer_invalid_topic_exception(check, api_key, version):
    """Empty, '.', '..', longer than 249, or any character outside [a-zA-Z0-9._-]:
    INVALID_TOPIC_EXCEPTION (17), and no such topic exists afterwards. Each example sends
    Kafka's own table (TopicTest) plus generated invalid names in one request."""
    ctx = asked(check, api_key, version)
    table = {n.replace("{p}", check.prefix): why for n, why in INVALID_NAMES.items()}
    external = check.broker.external
    if external:     # only names that carry the run prefix go to a cluster the suite did not start
        left_out = [why for n, why in table.items() if not n.startswith(check.prefix)]
        table = {n: why for n, why in table.items() if n.startswith(check.prefix)}
        check.message = (f"not sent to an external cluster (they cannot carry the run prefix): "
                         f"{', '.join(left_out)}")
    names = st.lists(domain.invalid_topic_names(check.prefix, labelled=True, prefixed_only=external),
                     min_size=1, max_size=3, unique_by=lambda rn: rn[1])

    def refused(generated):
        w = World(check, "n")      # generated names get fresh run-prefixed stems
        wanted = dict(table)
        wanted.update({w.rename(n): why for why, n in generated})
        resp = _create(ctx, version, [_entry(n) for n in wanted])
        expect_codes(ctx, api_key, resp, {n: (Errors.INVALID_TOPIC_EXCEPTION, why) for n, why in wanted.items()})
        expect_absent(ctx, wanted)

    check.given(names, refused)


#: TopicTest.shouldAcceptValidTopicNames (prefixed), plus the longest name.
VALID_TAILS = ["valid", "TOPIC", "nAmEs", "ar6", "VaL1d", "_0-9_.", "..."]


@pytest.mark.prop("T1", source=f"catalogue T1; {TOPIC_TEST} shouldAcceptValidTopicNames; {RCM} createTopic")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_names_kafka_accepts_create_the_topic(check, api_key, version):
    """Legal names (up to 249 of [a-zA-Z0-9._-], mixed case, only dots after the prefix)
    are created: NONE, and Metadata shows the topic."""
    ctx = asked(check, api_key, version)
    tails = st.lists(domain.valid_topic_names(check.prefix).map(lambda n: n[len(check.prefix):]),
                     min_size=1, max_size=3)

    def created(generated):
        # fresh stem + '.' + tail: unique, also up to '.'/'_' (the stems' numbers differ)
        names = [(check.topic("ok") + "." + t)[:domain.MAX_NAME_LENGTH] for t in VALID_TAILS + generated]
        longest = check.topic("max") + "."
        names.append(longest + "x" * (domain.MAX_NAME_LENGTH - len(longest)))
        resp = _create(ctx, version, [_entry(n) for n in names])
        expect_codes(ctx, api_key, resp, {n: (Errors.NONE, "legal name") for n in names})
        expect_present(ctx, {n: 1 for n in names})

    check.given(tails, created)


@pytest.mark.prop("T1", source=f"catalogue T1; {RCM} validateNewTopicNames ('Topic X collides with existing "
                               f"topic: Y', Topic.unifyCollisionChars); {TOPIC_TEST} testTopicHasCollision")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_a_name_colliding_with_an_existing_topic_by_dot_or_underscore_answers_invalid_topic_exception(
        check, api_key, version):
    """'.' and '_' collide in metric names, so a name equal to an existing topic's up to
    '.'/'_' is refused: INVALID_TOPIC_EXCEPTION (17), and it is not created."""
    ctx = asked(check, api_key, version)
    # a tail with at least one '.' or '_'; the colliding name swaps every one of them
    tails = st.tuples(st.text("abc", max_size=3), st.sampled_from("._"), st.text("abc._", max_size=4)).map("".join)

    def refused(tail):
        base = check.topic("col")
        existing = base + tail
        colliding = base + tail.translate(str.maketrans("._", "_."))
        w = World(check, "c")
        w.existing.append((existing, 1, {}))
        set_up(ctx.admin, [w])
        resp = _create(ctx, version, [_entry(colliding)])
        expect_codes(ctx, api_key, resp, {colliding: (Errors.INVALID_TOPIC_EXCEPTION, f"collides with {existing!r}")})
        expect_absent(ctx, [colliding])

    check.given(tails, refused)


@pytest.mark.prop("T1", source=f"catalogue T1; KAFKA-13743 'Prevent topics with conflicting metrics names from "
                               f"being created in KRaft mode'; {ZK_ADMIN} createTopics (3.9: each topic created "
                               f"before the next is validated) and {ADMIN_ZK} validateTopicCreate (collision with "
                               "every topic in the cluster); known deviation "
                               "create-topics-colliding-names-in-one-request-both-created "
                               f"({RCM} validateNewTopicNames checks only topics that existed before the request) "
                               "and, in ZooKeeper mode, create-topics-colliding-names-validate-only-accepts-both "
                               f"({ZK_ADMIN} createTopics validates a validate_only request's topics against the "
                               "cluster's only)")
@pytest.mark.known_deviation("create-topics-colliding-names-in-one-request-both-created",
                             "create-topics-colliding-names-validate-only-accepts-both")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_a_name_colliding_with_an_earlier_name_of_the_same_request_answers_invalid_topic_exception(
        check, api_key, version):
    """Two names of one request equal up to '.'/'_' (one swapped character): exactly one
    of the pair is created (NONE) and the other refused, INVALID_TOPIC_EXCEPTION (17), and
    only the created one exists afterwards; validate_only answers alike and creates
    neither. Which of the two is created Kafka does not define, so either is the conforming
    answer, in KRaft as in ZooKeeper mode (reference/topic_names.py
    COLLIDING_PAIR_IN_ONE_REQUEST: ZooKeeper mode follows its map's order). Kafka forbids
    colliding names so that two topics never share metric names (KAFKA-13743); released
    KRaft Kafka checks only the topics that existed before the request and creates both,
    a reviewed known deviation. This check asks that shape at every version on every
    broker, every run (S1 never draws it: its model cannot know which name is created)."""
    ctx = asked(check, api_key, version)
    shape = st.tuples(st.text("abc", max_size=3), st.sampled_from("._"), st.text("abc", max_size=3),
                      st.booleans() if schema_facts.has_field(api_key, version, "validate_only") else st.just(False))

    def refused(s):
        head, char, tail, validate_only = s
        first = check.topic("pair") + head + char + tail
        second = first[:len(first) - len(tail) - 1] + ("_" if char == "." else ".") + tail
        body = requests.create_topics(version, [_entry(first), _entry(second)], validate_only=validate_only)
        ctx.client.answered(ApiKey.CreateTopics, version, body)
        _either_of_the_pair(ctx, api_key, first, second, validate_only)

    check.given(shape, refused)


def _either_of_the_pair(ctx, api_key: int, first: str, second: str, validate_only: bool) -> None:
    """One name of the pair answers NONE and the other 17 INVALID_TOPIC_EXCEPTION, either
    way round (topic_names.COLLIDING_PAIR_IN_ONE_REQUEST); exactly the one created exists
    afterwards (neither with validate_only)."""
    check = ctx.admin.check
    spec = apis.spec(api_key)
    pair = f"{first!r} / {second!r}"
    for name in (first, second):
        expect_entry(check, api_key, name, [Errors.NONE, Errors.INVALID_TOPIC_EXCEPTION], count=1,
                     says=f"{name!r}: NONE or 17 (either name of a colliding pair may be the one created)")
    for code in (Errors.NONE, Errors.INVALID_TOPIC_EXCEPTION):
        check.expect_field([spec.results, {"error_code": code}, "error_code"], count=1,
                           says=f"{pair}{' (validate_only)' if validate_only else ''}: exactly one answers "
                                f"{int(code)} {code.name} (the one created keeps the other out, whichever it is)")
    if validate_only:
        expect_absent(ctx, [first, second])
        return
    for admin in ctx.admin.everywhere():
        admin.metadata([first, second])
        check.expect_field(["topics", {"error_code": Errors.NONE}, "error_code"], count=1, retry_s=VISIBLE_S,
                           says=f"Metadata lists exactly one of {pair}")


# --------------------------------------------------------------------------------------
# T1: existing topics
# --------------------------------------------------------------------------------------

@pytest.mark.prop("T1", source=f"catalogue T1; {RCM} createTopics (topicsByName.containsKey -> TOPIC_ALREADY_EXISTS, "
                               f"decided before configs, counts and replication factor); {CT_TEST} "
                               "testErrorCreateTopicsRequests ('existing-topic')")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_an_existing_topic_answers_topic_already_exists(check, api_key, version):
    """Creating a topic that exists answers TOPIC_ALREADY_EXISTS (36) whatever else the
    entry asks (other counts, configs, even invalid ones: existence is checked first), and
    the topic keeps its partitions."""
    ctx = asked(check, api_key, version)
    variant = st.one_of(
        st.fixed_dictionaries({"partitions": domain.partition_counts(3), "rf": st.just(1), "configs": st.just([])}),
        st.fixed_dictionaries({"partitions": domain.invalid_partition_counts(), "rf": st.just(1), "configs": st.just([])}),
        st.fixed_dictionaries({"partitions": st.just(1), "rf": st.just(0), "configs": st.just([])}),
        st.fixed_dictionaries({"partitions": st.just(1), "rf": st.just(1),
                               "configs": domain.topic_config_entries(valid=False).map(lambda kv: [list(kv)])}),
    )

    def refused(v):
        w = World(check, "x")
        name = w.existing_topic("exists", partitions=2)
        set_up(ctx.admin, [w])
        resp = _create(ctx, version, [_entry(name, v["partitions"], v["rf"], v["configs"])])
        expect_codes(ctx, api_key, resp, {name: (Errors.TOPIC_ALREADY_EXISTS, f"exists; entry {v}")})
        expect_present(ctx, {name: 2})

    check.given(variant, refused)


@pytest.mark.prop("T1", source=f"catalogue T1; {RCM} createTopics (validateNewTopicNames' 'collides with existing "
                               "topic' is overwritten by TOPIC_ALREADY_EXISTS for every name that exists); "
                               f"{ADMIN_ZK} validateTopicCreate (existence first: 'otherwise the topic could "
                               "potentially collide with itself', KAFKA-4687); "
                               f"{KAFKA}tools/src/test/java/org/apache/kafka/tools/TopicCommandTest.java "
                               "testCreateWithTopicNameCollision ('foo_bar' again: TopicExistsException)")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_an_existing_topic_with_a_dot_or_underscore_answers_topic_already_exists_not_a_collision(
        check, api_key, version):
    """Creating a topic that exists, whose name has a '.' or '_' (so it shares its
    collision key with itself), answers TOPIC_ALREADY_EXISTS (36), never
    INVALID_TOPIC_EXCEPTION: Kafka checks existence before collision, and a topic does
    not collide with itself. The topic keeps its partitions."""
    ctx = asked(check, api_key, version)
    tails = st.tuples(st.text("abc", max_size=3), st.sampled_from("._"), st.text("abc._", max_size=4)).map("".join)

    def refused(tail):
        w = World(check, "s")
        name = check.topic("self") + tail
        w.existing.append((name, 2, {}))
        set_up(ctx.admin, [w])
        resp = _create(ctx, version, [_entry(name)])
        expect_codes(ctx, api_key, resp, {name: (Errors.TOPIC_ALREADY_EXISTS, "exists; a name does not collide with itself")})
        expect_present(ctx, {name: 2})

    check.given(tails, refused)


# --------------------------------------------------------------------------------------
# T1: partition counts and replication factors
# --------------------------------------------------------------------------------------

def _default_or(version, *values):
    return st.sampled_from(list(values) + ([BROKER_DEFAULT] if BROKER_DEFAULTS.holds_at(version) else []))


@pytest.mark.prop("T1", source=f"catalogue T1; {RCM} createTopic ('Number of partitions was set to an invalid "
                               f"non-positive value.'); {CT_TEST} testErrorCreateTopicsRequests ('error-partitions')")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_partition_counts_kafka_rejects_answer_invalid_partitions(check, api_key, version):
    """A partition count of 0 or below -1 (with a valid replication factor) answers
    INVALID_PARTITIONS (37), and the topic is not created."""
    ctx = asked(check, api_key, version)
    counts = st.lists(st.tuples(domain.invalid_partition_counts(), _default_or(version, 1)), min_size=1, max_size=3)

    _given_refused(ctx, api_key, version, counts, "parts", Errors.INVALID_PARTITIONS,
                   lambda n, c: _entry(n, c[0], c[1]), lambda c: f"num_partitions={c[0]}, replication_factor={c[1]}")


@pytest.mark.prop("T1", source=f"catalogue T1; {RCM} createTopic ('Replication factor must be larger than 0, or -1 "
                               "to use the default value.'; replica placer: 'The target replication factor of N cannot "
                               f"be reached because only M broker(s) are registered.'); {CT_TEST} "
                               "testErrorCreateTopicsRequests ('error-replication': brokerCount + 1)")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_replication_factors_kafka_rejects_answer_invalid_replication_factor(check, api_key, version):
    """A replication factor of 0, below -1, or above the number of brokers (with a valid
    partition count) answers INVALID_REPLICATION_FACTOR (38), and the topic is not
    created. 'Above the brokers' is the brokers Metadata lists plus one on the suite's own
    single-cluster targets, and 1000 on an external cluster (which may have fenced brokers
    Metadata does not list)."""
    ctx = asked(check, api_key, version)
    rf = st.one_of(st.just(0), st.integers(-(1 << 15), -2), st.just(ctx.rf_floor),
                   st.integers(ctx.rf_floor, (1 << 15) - 1))
    cases = st.lists(st.tuples(rf, _default_or(version, 1, 2, 3)), min_size=1, max_size=3)

    _given_refused(ctx, api_key, version, cases, "rf", Errors.INVALID_REPLICATION_FACTOR,
                   lambda n, c: _entry(n, c[1], c[0]), lambda c: f"replication_factor={c[0]}, num_partitions={c[1]}")


@pytest.mark.prop("T1", source=f"catalogue T1; {RCM} createTopic (the replication factor branch precedes the "
                               "partition count branch); ZooKeeper mode: reference/modes.py CREATE_TOPICS_CHECKS "
                               "(AdminUtils.assignReplicasToBrokers checks the partition count first)")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_the_replication_factor_is_checked_before_the_partition_count(check, api_key, version):
    """An entry with both an invalid replication factor (0 or below -1) and an invalid
    partition count answers INVALID_REPLICATION_FACTOR (38), not INVALID_PARTITIONS:
    KRaft's controller checks the replication factor first. A ZooKeeper-mode broker (3.x)
    checks the partition count first and answers INVALID_PARTITIONS (37)
    (reference/modes.py ``CREATE_TOPICS_CHECKS``)."""
    ctx = asked(check, api_key, version)
    pairs = st.lists(st.tuples(st.one_of(st.just(0), st.integers(-(1 << 15), -2)), domain.invalid_partition_counts()),
                     min_size=1, max_size=2)
    first = first_failed(CREATE_TOPICS_CHECKS.now(), {"replication_factor": Errors.INVALID_REPLICATION_FACTOR,
                                                      "partitions": Errors.INVALID_PARTITIONS})

    _given_refused(ctx, api_key, version, pairs, "order", first,
                   lambda n, c: _entry(n, c[1], c[0]), lambda c: f"replication_factor={c[0]} and num_partitions={c[1]}")


# --------------------------------------------------------------------------------------
# T1: configs
# --------------------------------------------------------------------------------------

def _just_below(key: str) -> str:
    """One below ``key``'s lower bound (the reference's ``atLeast``)."""
    return str(CONFIGS[key].min - 1)


#: One value each validator of Kafka 4.x's LogConfig refuses (the reference's rows,
#: reference/topic_config.py: the value just below each ``atLeast``, one outside
#: each ``between`` / ``in``, one that is not of the type where there is no validator), an
#: unknown name and a null value: (name, value) -> why.
INVALID_CONFIGS = {
    **{(k, v): CONFIGS[k].refusal for k, v in (
        ("cleanup.policy", "purge"),
        ("retention.ms", _just_below("retention.ms")),
        ("retention.bytes", "ten"),
        ("segment.ms", _just_below("segment.ms")),
        ("max.message.bytes", _just_below("max.message.bytes")),
        ("min.insync.replicas", _just_below("min.insync.replicas")),
        ("delete.retention.ms", _just_below("delete.retention.ms")),
        ("file.delete.delay.ms", _just_below("file.delete.delay.ms")),
        ("index.interval.bytes", _just_below("index.interval.bytes")),
        ("min.cleanable.dirty.ratio", str(CONFIGS["min.cleanable.dirty.ratio"].max + 0.5)),
        ("compression.type", "brotli"),
        ("message.timestamp.type", "ServerTime"),
        ("unclean.leader.election.enable", "maybe"),
    )},
    ("conformance.unknown", "1"): "LogConfig.validateNames: unknown name",
    ("retention.ms", None): "computeConfigChanges: null value",
}


def invalid_configs() -> dict:
    """INVALID_CONFIGS plus the bounds that depend on the broker's release line."""
    floor = SEGMENT_BYTES_MIN.now()
    return {("segment.bytes", str(floor - 1)): f"atLeast({floor}) ({SEGMENT_BYTES_MIN.source.split(';')[0]})",
            **INVALID_CONFIGS}


@pytest.mark.prop("T1", source=f"catalogue T1; {RCM} computeConfigChanges ('Null value not supported for topic "
                               "configs') and createTopics -> ConfigurationControlManager.incrementalAlterConfig -> "
                               "LogConfig.validate ('Unknown topic config name', ConfigDef validators) -> "
                               f"INVALID_CONFIG; {CT_TEST} testErrorCreateTopicsRequests ('error-config')")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_configs_kafka_rejects_answer_invalid_config(check, api_key, version):
    """A topic config with a value its validator refuses, a name no topic config has, or a
    null value answers INVALID_CONFIG (40), even next to valid configs, and the topic is
    not created. The validators are ``LogConfig``'s ConfigDef of the broker's release line
    (segment.bytes at least 1 MiB since 4.1, KIP-1030; 3.x and 4.0 allowed 14 bytes: reference/release_lines.py). Each example sends one topic
    per entry of a fixed table (one refused value per validator) plus generated ones."""
    ctx = asked(check, api_key, version)
    valid = st.lists(domain.topic_config_entries(), max_size=2, unique_by=lambda kv: kv[0])
    bad = st.one_of(domain.topic_config_entries(valid=False).map(lambda kv: (kv, "refused value")),
                    domain.unknown_config_keys().map(lambda k: ((k, "1"), "unknown name")),
                    st.sampled_from(sorted(domain.TOPIC_CONFIGS)).map(lambda k: ((k, None), "null value")))
    cases = st.lists(st.tuples(bad, valid), min_size=1, max_size=3)

    def refused(cs):
        cases = [((k, v), why, []) for (k, v), why in invalid_configs().items()]
        cases += [(tuple(b), why, ok) for (b, why), ok in cs]
        names = _fresh_unique(check, "cfg", len(cases))
        entries = [_entry(n, configs=[kv for kv in ok if kv[0] != b[0]] + [b]) for n, (b, _, ok) in zip(names, cases)]
        resp = _create(ctx, version, entries)
        expect_codes(ctx, api_key, resp, {n: (Errors.INVALID_CONFIG, f"{b[0]}={b[1]!r}: {why}") for n, (b, why, _) in zip(names, cases)})
        expect_absent(ctx, names)

    check.given(cases, refused)


# --------------------------------------------------------------------------------------
# T1: malformed requests (INVALID_REQUEST)
# --------------------------------------------------------------------------------------

@pytest.mark.prop("T1", source=f"catalogue T1; {CAPIS} createTopics (duplicateTopicNames -> INVALID_REQUEST "
                               "'Duplicate topic name.', the others proceed); "
                               f"{KAFKA}core/src/test/scala/unit/kafka/server/ControllerApisTest.scala "
                               "testCreateTopics")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_a_name_given_twice_answers_invalid_request_and_is_not_created(check, api_key, version):
    """A name that appears more than once in one request answers INVALID_REQUEST (42) and
    is not created; the other topics of the request are created as usual."""
    ctx = asked(check, api_key, version)
    shape = st.tuples(st.integers(2, 3), st.integers(1, 2), st.integers(0, 2))

    def refused(s):
        times, dups, others = s
        twice = _fresh_unique(check, "dup", dups)
        fine = _fresh_unique(check, "single", others)
        resp = _create(ctx, version, [_entry(n) for n in twice for _ in range(times)] + [_entry(n) for n in fine])
        expected = {n: (Errors.INVALID_REQUEST, f"given {times} times") for n in twice}
        expected.update({n: (Errors.NONE, "given once, next to duplicates") for n in fine})
        expect_codes(ctx, api_key, resp, expected)
        expect_present(ctx, {n: 1 for n in fine})
        expect_absent(ctx, twice)

    check.given(shape, refused)


@pytest.mark.prop("T1", source=f"catalogue T1; {RCM} createTopic ('A manual partition assignment was specified, but "
                               f"replication factor was not set to -1.' / '... numPartitions ...'); {CT_TEST} "
                               "testInvalidCreateTopicsRequests ('bad-args-topic')")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_an_assignment_next_to_a_partition_count_or_replication_factor_answers_invalid_request(
        check, api_key, version):
    """A manual replica assignment together with num_partitions or replication_factor other
    than -1 answers INVALID_REQUEST (42), and the topic is not created."""
    ctx = asked(check, api_key, version)
    counts = st.lists(st.sampled_from([(1, -1), (-1, 1), (1, 1), (3, -1), (-1, 3), (2, 2)]), min_size=1, max_size=3)

    def refused(cs):
        names = _fresh_unique(check, "assign", len(cs))
        assignment = [{"partition_index": 0, "broker_ids": [ctx.broker]}]
        resp = _create(ctx, version, [_entry(n, p, r, assignments=assignment) for n, (p, r) in zip(names, cs)])
        expect_codes(ctx, api_key, resp, {n: (Errors.INVALID_REQUEST, f"assignment with num_partitions={p}, replication_factor={r}")
                                          for n, (p, r) in zip(names, cs)})
        expect_absent(ctx, names)

    check.given(counts, refused)


@pytest.mark.prop("T1", source=f"catalogue T1; {CT_TEST} testCreateClusterMetadataTopic ('Creation of internal "
                               "topic __cluster_metadata is prohibited.')")
@pytest.mark.parametrize("api_key,version", CREATE_TOPICS_VERSIONS)
def test_t1_the_cluster_metadata_topic_cannot_be_created(check, api_key, version):
    """CreateTopics of ``__cluster_metadata`` (KRaft's own log) answers INVALID_REQUEST
    (42) since Kafka 3.9, TOPIC_AUTHORIZATION_FAILED (29) before (KAFKA-16975;
    reference/release_lines.py). Not asked of an external cluster: the name is outside the
    run prefix."""
    ctx = asked(check, api_key, version)
    if check.broker.external:
        raise Skip("names a topic outside the run prefix (__cluster_metadata); not asked of an external cluster")

    def refused(name):
        resp = _create(ctx, version, [_entry(name)])
        expect_codes(ctx, api_key, resp, {name: (CLUSTER_METADATA_CREATE_ERROR.now(), "KRaft's metadata log")})

    check.given(st.just("__cluster_metadata"), refused, max_examples=1)
