"""C1-C4: topic configs through IncrementalAlterConfigs (KIP-339 as released) and AlterConfigs.

KIP-339 ("Create a new IncrementalAlterConfigs API"; its first draft called it "ModifyConfigs") asks for incremental config changes without
the lost updates of AlterConfigs' read-modify-write. Kafka released it as
IncrementalAlterConfigs (API 44) with SET/DELETE/APPEND/SUBTRACT; released Apache Kafka 4.x
is the reference wherever the draft differs (the draft had only "set" and "null erases").
The model these properties compare with is :mod:`conformance.config_model`; the sources it
follows are listed there and in docs/reference-semantics.md (section C).

Each property is one row per (API, version): C1, C2 and C4 at every IncrementalAlterConfigs
version, C3 and C4 at every AlterConfigs version. Every example uses fresh topics; the state
is observed with DescribeConfigs (newest version the broker advertises).
"""
from __future__ import annotations

import threading
import time

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import Skip, Unsupported, Violation
from fixtures.waiting import eventually
from protocol import AlterConfigOp, ConfigSource, requests
from protocol.apis import ApiKey
from protocol.errors import Errors
from strategies.configs import (
    C2_KEYS, INCREMENTAL_KINDS, LEGACY_KINDS, boundary_cases, c1_sequences, c2_plans, c3_cases, c4_cases,
)

from .parametrize import every_version
from .config_model import (
    ALWAYS_DESCRIBED, VISIBILITY_LAG_S, Described, TopicConfigModel, config_type, described, error_text, normalise,
    ops_text,
)
from reference.kips import KIP_339

#: C4's kind of input that names one resource twice (its AlterConfigs form is a known deviation).
SAME_RESOURCE_TWICE = "same resource twice"
#: The known deviation of Kafka whose dedicated check is C4's AlterConfigs resource named twice.
RESOURCE_TWICE_ENTRY = "alter-configs-duplicate-resource-never-answered"

INCREMENTAL, LEGACY = ApiKey.IncrementalAlterConfigs, ApiKey.AlterConfigs

CCM = "apache/kafka metadata/src/main/java/org/apache/kafka/controller/ConfigurationControlManager.java"
CAM = "apache/kafka core/src/main/scala/kafka/server/ConfigAdminManager.scala"
LOGCONFIG = "apache/kafka storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java"
CONFIG_HELPER = "apache/kafka core/src/main/scala/kafka/server/ConfigHelper.scala"
KIP = KIP_339.cite("released as IncrementalAlterConfigs")


def _asked(check, api_key: int, version: int) -> Admin:
    """The broker must advertise the API at ``version`` and the APIs the property observes with."""
    check.require(api_key, version)
    check.require_mutations()
    for needed in (ApiKey.CreateTopics, ApiKey.DescribeConfigs):
        if check.broker.advertised(needed) is None:
            raise Unsupported(f"the property observes through API {needed}, which the broker does not advertise")
    return Admin(check)


def _describe(admin: Admin, topic: str, by: str = "") -> dict[str, Described]:
    """DescribeConfigs of ``topic``, which exists: NONE for it (the judge decides)."""
    _, configs = admin.describe_configs(topic)
    admin.check.expect_field(["results", {"resource_name": topic}, "error_code"], [Errors.NONE], count=1,
                             says=f"{by}DescribeConfigs of the existing topic {topic}: 0 NONE")
    return described(configs)


#: How long to re-read DescribeConfigs while it still shows the state before an acknowledged
#: change: Kafka answers once the controller committed the records, and the broker applies
#: them to the metadata it describes from asynchronously (see config_model.VISIBILITY_LAG_S).
SETTLE_S = 3.0


class _Settle:
    """DescribeConfigs, re-read while the answer is not ``done`` but still ``stale`` (the
    state before the change); any other answer is final. The wait is the check's
    (``check.wait_budget``): SETTLE_S until a wait of the check ran out (the change never
    showed: a finding), then a few times the longest lag seen, so shrinking a counterexample
    does not wait SETTLE_S per try, here or in the verdict's own re-reads after it."""

    def __init__(self, check):
        self.check = check

    def __call__(self, admin: Admin, topic: str, done, stale) -> dict[str, Described]:
        t0 = time.monotonic()
        final, seen = eventually(lambda: _describe(admin, topic), lambda d: done(d) or not stale(d),
                                 within=self.check.wait_budget(SETTLE_S), every=0.02)
        if not final or done(seen):     # a lag is the time to the new state, not to a finding
            self.check.waited(t0, ran_out=not final)
        return seen


def _expect_configs(check, topic: str, want: dict[str, Described], says: str = "", retry_s: float | None = None,
                    sources: str | None = "exact", overrides=(), why: dict | None = None) -> None:
    """The last DescribeConfigs of ``topic`` shows exactly ``want`` (config_model's
    ``differences`` / ``changes`` as data, key by key): each key once, with a value that
    means the same for its ConfigDef type (``as``), and no key ``want`` lacks. ``sources``:
    "exact", each key's config_source as in ``want``; "model", TOPIC_CONFIG for the keys in
    ``overrides`` and any other source for the rest; None, sources not judged. ``why``: words
    for a key's expectation (what its failure means)."""
    base = ["results", {"resource_name": topic}, "configs"]
    check.expect_field(base + ["name"], sorted(want), retry_s=retry_s,
                       says=f"{says}only the keys the model has ({len(want)})")
    for k in sorted(want):
        what = (why or {}).get(k) or f"{k}={want[k].value!r}"
        check.expect_field(base + [{"name": k}, "value"], [want[k].value], count=1, retry_s=retry_s,
                           as_=config_type(k), says=f"{says}{what}")
        if sources == "exact" and want[k].source is not None:
            check.expect_field(base + [{"name": k}, "config_source"], [want[k].source], retry_s=retry_s,
                               says=f"{says}{k}: config_source {want[k].source} as before")
        elif sources == "model" and k in overrides:
            check.expect_field(base + [{"name": k}, "config_source"], [ConfigSource.TOPIC_CONFIG], retry_s=retry_s,
                               says=f"{says}{k} is an override: config_source TOPIC_CONFIG (1)")
        elif sources == "model":
            check.expect_field(base + [{"name": k}, "config_source"], refused=[ConfigSource.TOPIC_CONFIG],
                               retry_s=retry_s, says=f"{says}{k} is not overridden: config_source not TOPIC_CONFIG")


def _expect_model(check, topic: str, model: TopicConfigModel, says: str = "", retry_s: float | None = None,
                  sources: bool = True, why: dict | None = None) -> None:
    """The last DescribeConfigs of ``topic`` equals ``model`` (``TopicConfigModel.differences``)."""
    _expect_configs(check, topic, model.expected(), says, retry_s, "model" if sources else None,
                    set(model.overrides), why)


def _fresh_topic(check, admin: Admin, hint: str, configs: dict | None = None) -> str:
    topic = check.topic(hint)
    admin.create_topic(topic, configs=configs)
    return topic


# -- C1 ----------------------------------------------------------------------------------------

@pytest.mark.prop("C1", source=f"{KIP}; {CCM} incrementalAlterConfigResource/getParts; "
                                f"{LOGCONFIG}; {CONFIG_HELPER} describeConfigs")
@pytest.mark.parametrize("api_key,version", every_version((INCREMENTAL,)))
def test_c1_incremental_alter_configs_keeps_describe_configs_equal_to_the_model(check, api_key, version):
    """Random SET/DELETE/APPEND/SUBTRACT sequences on a fresh topic: after every request the
    error code is the one released Kafka gives (NONE, or INVALID_CONFIG for a bad value or a
    list operation on a non-LIST key, the whole resource then unchanged) and DescribeConfigs
    equals the model: defaults as the fresh topic showed them, DELETE back to the default,
    APPEND adding only absent values (starting from the ConfigDef default when the key is
    not overridden), SUBTRACT of an absent value a no-op, overrides with config_source
    TOPIC_CONFIG. Kafka: ConfigurationControlManager.incrementalAlterConfigResource; a
    fresh topic's DescribeConfigs lists every LogConfig key (ConfigHelper.describeConfigs)."""
    admin = _asked(check, api_key, version)
    settled = _Settle(check)
    drawn = []                      # the last example hypothesis drew

    def sequence(case, side: bool = False):
        drawn[:] = [case]
        topic = _fresh_topic(check, admin, "c1")
        fresh = _describe(admin, topic)
        fresh_step = check.last_step
        model = TopicConfigModel(fresh)
        described_at = []               # (DescribeConfigs step, the model it must equal)
        for i, ops in enumerate(case["steps"], 1):
            ops = [tuple(o) for o in ops]
            admin.incremental_alter(topic, ops, version=version)
            want, after = model.incremental(ops)
            check.expect_field(["responses", {"resource_name": topic}, "error_code"], [want], count=1,
                               says=f"step {i} [{ops_text(ops)}]: {error_text(want)}")
            # settled only once the sources match too: a step may change a source and not a
            # value (SUBTRACT emptying a default "" list makes "" an override, source 1)
            settled(admin, topic, lambda d: not after.differences(d),
                    lambda d: not model.differences(d, check_source=False))
            _expect_model(check, topic, after, f"after step {i} [{ops_text(ops)}] ({error_text(want)}), as the "
                                               "model: ", retry_s=SETTLE_S, sources=False)
            described_at.append((check.last_step, after, f"after step {i} [{ops_text(ops)}]: "))
            model = after
        if not side:
            return
        # what the sequence also shows, judged once the values and codes held in every example
        # (so hypothesis shrinks to the model's finding where there is one): a fresh topic lists
        # every LogConfig key with its default, an override has config_source TOPIC_CONFIG
        for k in sorted(ALWAYS_DESCRIBED):
            check.expect_field(["results", {"resource_name": topic}, "configs", {"name": k}], min_count=1,
                               step=fresh_step, says=f"DescribeConfigs of a fresh topic lists {k} (Kafka lists "
                                                     "every topic config with its default)")
        for at, m, says in described_at:
            base = ["results", {"resource_name": topic}, "configs"]
            for k in sorted(m.expected()):
                if k in m.overrides:
                    check.expect_field(base + [{"name": k}, "config_source"], [ConfigSource.TOPIC_CONFIG], step=at,
                                       says=f"{says}{k} is an override: config_source TOPIC_CONFIG (1)")
                else:
                    check.expect_field(base + [{"name": k}, "config_source"], refused=[ConfigSource.TOPIC_CONFIG],
                                       step=at, says=f"{says}{k} is not overridden: config_source not TOPIC_CONFIG")

    check.given(c1_sequences(), sequence)
    check.once(drawn[0], lambda case: sequence(case, side=True))    # the last example again, judged whole


# -- C2 ----------------------------------------------------------------------------------------

@pytest.mark.prop("C2", source=f"{KIP} (no lost updates); {CCM} incrementalAlterConfigs; "
                                "apache/kafka metadata/.../controller/QuorumController.java incrementalAlterConfigs "
                                "(one write event per request)")
@pytest.mark.parametrize("api_key,version", every_version((INCREMENTAL,)))
@pytest.mark.known_deviation("incremental-alter-configs-concurrent-writers-lose-updates")
def test_c2_concurrent_incremental_writers_on_disjoint_keys_lose_no_update(check, api_key, version):
    """2-4 clients, each on its own connection and owning two keys of one topic, send
    IncrementalAlterConfigs SETs of unique values concurrently while an observer reads
    DescribeConfigs. Every read must show, for each key, the last write acknowledged before
    the read was sent or a later one (the history check); at the end every key holds its
    writer's last acknowledged value. Kafka computes each request against the current config
    in one controller write event, so disjoint keys never lose each other's writes."""
    admin = _asked(check, api_key, version)
    settled = _Settle(check)

    def concurrent(plan):
        topic = _fresh_topic(check, admin, "c2")
        initial = _describe(admin, topic)
        writers = plan["clients"]
        owned = [C2_KEYS[2 * i: 2 * i + 2] for i in range(len(writers))]
        last: dict[str, str] = {}               # each key's last write (one writer per key)
        writes: list[tuple[int, str, str]] = []  # (step, key, value) of every SET, in order per key
        reads: list[tuple[int, str]] = []        # the DescribeConfigs steps racing them, and by whom
        sets: list[tuple[int, str]] = []         # each SET's step and what it set
        failures: list[BaseException] = []
        done = threading.Event()
        clients = [Admin(check, client=check.client()) for _ in range(len(writers) + 1)]

        def read(who: Admin, by: str):          # judged once every thread finished
            who.describe_configs(topic)
            reads.append((check.last_step, by))     # this thread's step

        def writer(i: int):
            try:
                me = clients[i]
                for seq, n_keys in enumerate(writers[i]):
                    keys = owned[i][:n_keys] if seq % 2 == 0 else owned[i][-n_keys:]
                    value = str(2_000_000 + 10_000 * i + seq)
                    me.incremental_alter(topic, [(k, AlterConfigOp.SET, value) for k in keys], version=version)
                    writes.extend((check.last_step, k, value) for k in keys)
                    sets.append((check.last_step, f"writer {i}: SET {', '.join(keys)}={value}"))
                    last.update((k, value) for k in keys)
                    read(me, f"writer {i} ")
            except BaseException as exc:       # noqa: BLE001 - re-raised in the main thread
                failures.append(exc)

        def observer():
            try:
                while not done.is_set():
                    read(clients[-1], "observer ")
            except BaseException as exc:       # noqa: BLE001
                failures.append(exc)

        threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(len(writers))]
        watcher = threading.Thread(target=observer, daemon=True)
        watcher.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        done.set()
        watcher.join(timeout=30)
        if failures:
            raise failures[0]
        for at, what in sets:
            check.expect_field(["responses", {"resource_name": topic}, "error_code"], [Errors.NONE], count=1,
                               step=at, says=f"{what}: 0 NONE")
        for at, by in reads:
            check.expect_field(["results", {"resource_name": topic}, "error_code"], [Errors.NONE], count=1,
                               step=at, says=f"{by}DescribeConfigs of the existing topic {topic}: 0 NONE")

        def behind(d):
            return [k for k, v in last.items() if normalise(k, d[k].value if k in d else None) != normalise(k, v)]

        check.expect_caveat("C2's concurrent writers are replayed one request after another: the final "
                            "values are judged, a read racing a write (the history check) is not")
        for a in admin.everywhere():         # every broker's DescribeConfigs, once settled
            settled(a, topic, lambda d: not behind(d), lambda d: True)
            where = "" if a is admin else f" (broker {a.client.node[0]}:{a.client.node[1]})"
            for k, v in sorted(last.items()):
                check.expect_field(["results", {"resource_name": topic}, "configs", {"name": k}, "value"],
                                   [v], count=1, retry_s=SETTLE_S, as_=config_type(k),
                                   says=f"after all writers finished{where}, {k} holds its writer's last "
                                        f"acknowledged value {v!r}")
        keys = sorted({k for _, k, _ in writes})
        check.expect_history(topic, sorted(at for at, _ in reads), writes, {k: initial[k].value if k in initial else None for k in keys},
                             VISIBILITY_LAG_S, as_={k: config_type(k) for k in keys},
                             says="every read shows each key's initial value or a write sent before it was "
                                  "answered, never an older write than a read answered before it was sent, "
                                  f"and every write acknowledged {VISIBILITY_LAG_S:g}s before it was sent")

    check.given(c2_plans(), concurrent)


# -- C3 ----------------------------------------------------------------------------------------

@pytest.mark.prop("C3", source=f"{KIP} (motivation: AlterConfigs replaces, read-modify-write loses updates); "
                                f"{CCM} legacyAlterConfigResource (recordsImplicitlyDeleted)")
@pytest.mark.parametrize("api_key,version", every_version((LEGACY,)))
def test_c3_alter_configs_replaces_the_whole_config_and_loses_concurrent_updates(check, api_key, version):
    """AlterConfigs is a full replace: after AlterConfigs(A) then AlterConfigs(B), the keys of
    A that B does not name are back at their defaults. Then KIP-339's lost update, which
    Kafka keeps as the documented behaviour of the deprecated API: clients X and Y both read
    the config, X writes it back with key a changed, Y writes it back with key b changed;
    X's write of a is gone. A broker that keeps a (AlterConfigs applied incrementally) is
    flagged. Kafka: ConfigurationControlManager.legacyAlterConfigResource deletes every
    current key the request does not name."""
    admin = _asked(check, api_key, version)
    x_admin, y_admin = Admin(check, client=check.client()), Admin(check, client=check.client())
    settled = _Settle(check)

    def replace(topic, model, configs, who, what):
        who.alter_configs(topic, configs, version=version)
        want, after = model.replace(configs)
        check.expect_field(["responses", {"resource_name": topic}, "error_code"], [want], count=1,
                           says=f"{what}: AlterConfigs {configs}: {error_text(want)}")
        settled(admin, topic, lambda d: not after.differences(d), lambda d: not model.differences(d))
        back = {k: f"{k} not named by AlterConfigs {configs} is back at its default {after.expected()[k].value!r} "
                   "(AlterConfigs replaces the whole config)"
                for k in model.overrides if k not in configs and k in after.expected()} if want == Errors.NONE else {}
        _expect_model(check, topic, after, f"{what}: after AlterConfigs {configs}, a full replace: ",
                      retry_s=SETTLE_S, why=back)
        return after

    def case(c):
        topic = _fresh_topic(check, admin, "c3")
        model = TopicConfigModel(_describe(admin, topic))
        model = replace(topic, model, c["first"], admin, "first replace")
        model = replace(topic, model, c["second"], admin, "second replace")
        # KIP-339's read-modify-write race: both read, X writes, then Y writes its stale copy
        x_read = {k: d.value for k, d in _describe(x_admin, topic).items() if d.source == ConfigSource.TOPIC_CONFIG}
        y_read = {k: d.value for k, d in _describe(y_admin, topic).items() if d.source == ConfigSource.TOPIC_CONFIG}
        (a, va), (b, vb) = c["x"], c["y"]
        model = replace(topic, model, {**x_read, a: va}, x_admin, f"client X (read-modify-write of {a})")
        y_model = model.replace({**y_read, b: vb})[1]
        y_admin.alter_configs(topic, {**y_read, b: vb}, version=version)
        check.expect_field(["responses", {"resource_name": topic}, "error_code"], [Errors.NONE], count=1,
                           says="client Y's AlterConfigs (a stale read plus one change): NONE")
        settled(admin, topic, lambda d: not y_model.differences(d), lambda d: not model.differences(d))
        lost = {} if a in y_read or a == b else {a: (
            f"client X's write {a}={va!r} is lost ({a}={y_model.expected()[a].value!r}): client Y's AlterConfigs, "
            "built from a read taken before it, replaces the whole config (KIP-339's lost update, as Kafka; a "
            "broker keeping it applied AlterConfigs incrementally)")} if a in y_model.expected() else {}
        _expect_model(check, topic, y_model, f"after client Y's AlterConfigs (stale read + {b}={vb!r}), a full "
                                              "replace: ", retry_s=SETTLE_S, why=lost)

    check.given(c3_cases(), case)


# -- C4 ----------------------------------------------------------------------------------------

def _incremental_body(resources, version):
    return requests.incremental_alter_configs(version, resources)


def _legacy_body(resources, version):
    return requests.alter_configs(version, [(name, [(k, v) for k, _, v in ops]) for name, ops in resources])


def _expected(kind, ops, incremental, before):
    """(codes Kafka may answer, DescribeConfigs expected afterwards) for a C4 case."""
    if kind in ("duplicate key", "null value", SAME_RESOURCE_TWICE):
        return {Errors.INVALID_REQUEST}, before          # ConfigAdminManager.preprocess
    if kind == "unknown operation":
        # Kafka's intent, not its TOPIC code path: ConfigAdminManager.preprocess answers
        # INVALID_REQUEST "Unknown operations type" for a BROKER resource; for a TOPIC the
        # controller's switch on the null OpType throws (UNKNOWN_SERVER_ERROR, and the
        # controller renounces leadership): the known deviation
        # incremental-alter-configs-unknown-operation-fails-the-controller-over.
        return {Errors.INVALID_REQUEST}, before
    if kind == "unknown topic":
        return {Errors.UNKNOWN_TOPIC_OR_PARTITION}, before   # the existing topic is untouched too
    if kind == "unknown key delete":
        return {Errors.NONE}, before                      # DELETE of a key never set writes nothing
    return {Errors.INVALID_CONFIG}, before                # unknown key, bad value, list op on unknown key


def _c4_case(check, admin: Admin, api_key: int, version: int):
    """One C4 example: ``case({"kind": ..., "ops": [...]})`` on a fresh topic with an override."""
    incremental = api_key == INCREMENTAL
    body_of = _incremental_body if incremental else _legacy_body
    name = "IncrementalAlterConfigs" if incremental else "AlterConfigs"

    def case(c):
        kind, ops = c["kind"], [tuple(o) for o in c["ops"]]
        topic = _fresh_topic(check, admin, "c4", configs={"retention.ms": "3600000"})
        before = _describe(admin, topic)
        target = check.topic("c4-missing") if kind == "unknown topic" else topic
        resources = [(target, ops)] * (2 if kind == SAME_RESOURCE_TWICE else 1)
        codes, after = _expected(kind, ops, incremental, before)
        try:
            admin.client.answered(api_key, version, body_of(resources, version))
        except Violation as v:
            raise v.restated(f"{kind} [{ops_text(ops)}]: {v}") from None
        finally:    # the request's step, answered or not
            check.expect_field(["responses", {"resource_name": target}, "error_code"],
                               sorted(codes), count=len(resources),
                               says=f"{kind}: one entry per requested resource ({len(resources)}), each "
                                    f"{' or '.join(error_text(x) for x in sorted(codes))}")
        if kind == "unknown topic":
            admin.topic(target)
            check.expect_field(["topics", {"name": target}, "error_code"], refused=[Errors.NONE],
                               says=f"Metadata does not list {target} (the request did not create it)")
        _describe(admin, topic)
        _expect_configs(check, topic, after, f"{kind}: [{ops_text(ops)}] refused, the topic's configs unchanged: ")

    return case


def _c4(check, api_key: int, version: int, kind: str, first: dict | None = None) -> None:
    """C4 for one kind of invalid input: hypothesis draws cases of that kind (``first``
    before any); "value out of range" asks every bound once, one example each."""
    admin = _asked(check, api_key, version)
    if kind == "unknown operation" and check.broker.external:
        raise Skip("an unknown ConfigOperation is not sent to an external cluster: Kafka's controller throws on it "
                   "and fails over (ConfigurationControlManager switch on a null OpType)")
    case = _c4_case(check, admin, api_key, version)
    if kind != "value out of range" or check.replaying:
        n = 1 if kind == "unknown operation" else max(2, check.context.budget.max_examples // 2)
        check.given(c4_cases(api_key == INCREMENTAL, kinds=[kind]), case, max_examples=n, first=first)
        return
    bad, first_ce = [], None
    for c in boundary_cases():       # every bound, one example each
        try:
            check.given(st.just(c), case, max_examples=1)
        except Violation as v:
            bad.append(v)
            first_ce = first_ce or check.counterexample
    if bad:
        check.set_counterexample(first_ce)
        raise bad[0].restated(str(bad[0]) if len(bad) == 1 else f"{bad[0]} (and {len(bad) - 1} more bounds)")


#: C4's kinds of invalid input per API; each is a test of its own (one row per kind, with
#: its own counterexample). AlterConfigs naming one resource twice is asked by its own
#: test below, the dedicated check of a known deviation of Kafka, on every broker.
C4_KINDS = {INCREMENTAL: INCREMENTAL_KINDS + ("value out of range",),
            LEGACY: tuple(k for k in LEGACY_KINDS if k != SAME_RESOURCE_TWICE) + ("value out of range",)}


#: Kinds that are the dedicated check of known deviations of Kafka (reference/kafka_known_deviations.json:
#: one entry per root cause, here one per mode), and the entries' own request, asked first (on KRaft
#: Kafka the unknown operation costs a controller failover: one per version).
DEDICATED_KINDS = {(INCREMENTAL, "unknown operation"): (
    # KRaft: the quorum controller's NullPointerException; ZooKeeper mode: ZkAdminManager's catch-all
    ("incremental-alter-configs-unknown-operation-fails-the-controller-over",
     "incremental-alter-configs-unknown-operation-unknown-server-error-in-zookeeper-mode"),
    {"kind": "unknown operation", "ops": [["retention.ms", 7, "3600000"]]}),
    # ZooKeeper-mode Kafka 3.x: UNKNOWN_SERVER_ERROR (ConfigAdminManager's dead null check)
    (INCREMENTAL, "unknown key list op"): (
    ("incremental-alter-configs-append-unknown-key-unknown-server-error",),
    {"kind": "unknown key list op", "ops": [["conformance.a", int(AlterConfigOp.APPEND), "delete"]]})}


def _every_version_and_kind():
    return [pytest.param(*p.values, kind, id=f"{p.id}-{kind.replace(' ', '-')}",
                         marks=[pytest.mark.known_deviation(*DEDICATED_KINDS[(api, kind)][0])]
                         if (api, kind) in DEDICATED_KINDS else [])
            for api, kinds in C4_KINDS.items() for p in every_version((api,)) for kind in kinds]


@pytest.mark.prop("C4", source=f"{KIP}; {CAM} preprocess (duplicates, null values); {CCM} "
                                f"incrementalAlterConfigResource/validateAlterConfig; {LOGCONFIG} validateNames")
@pytest.mark.parametrize("api_key,version,kind", _every_version_and_kind())
def test_c4_invalid_config_changes_get_kafkas_error_and_change_nothing(check, api_key, version, kind):
    """One invalid item among valid ones, on a topic with an override: an unknown key
    (SET, APPEND/SUBTRACT: INVALID_CONFIG; DELETE: a no-op answered NONE), a value LogConfig
    rejects (INVALID_CONFIG), the same key twice or a null value outside DELETE
    (INVALID_REQUEST, ConfigAdminManager.preprocess), an unknown operation byte
    (IncrementalAlterConfigs only), a missing topic (UNKNOWN_TOPIC_OR_PARTITION, no topic
    created) or the same resource twice (INVALID_REQUEST for both entries); and, one by one,
    a value just outside each of LogConfig's bounds (INVALID_CONFIG; segment.bytes >= 1 MiB
    since Kafka 4.1 and >= 14 before, reference/release_lines.py). Kafka applies a
    resource atomically, so DescribeConfigs afterwards equals DescribeConfigs before.

    The unknown operation follows Kafka's intent, not its TOPIC code path: Kafka refuses an
    unknown op byte with INVALID_REQUEST "Unknown operations type" where it checks it
    (ConfigAdminManager.preprocess, BROKER resources), and UNKNOWN_SERVER_ERROR means "the
    server experienced an unexpected error"; for a TOPIC released Kafka's controller
    switches on a null OpType, throws NullPointerException, answers UNKNOWN_SERVER_ERROR and
    renounces leadership (measured on 3.9.2, 4.1.0, 4.4.0): the known deviation
    incremental-alter-configs-unknown-operation-fails-the-controller-over, whose dedicated
    check is this test's "unknown operation" kind, asked once per version every run. It is
    sent only to brokers the suite started, never to an external (bootstrap:) cluster, where
    it would make a real controller fail over (the row is ``skip`` there). The "unknown key
    list op" kind (APPEND/SUBTRACT of a key no topic has) is the dedicated check of
    incremental-alter-configs-append-unknown-key-unknown-server-error: ZooKeeper-mode Kafka
    3.x answers UNKNOWN_SERVER_ERROR there (ConfigAdminManager.prepareIncrementalConfigs). Each kind of
    input is a test of its own: a row per kind, each with its own minimal counterexample."""
    _c4(check, api_key, version, kind, first=DEDICATED_KINDS.get((api_key, kind), (None, None))[1])


#: The request of the known deviation below, as C4 draws it: one SET on the resource named twice.
RESOURCE_TWICE_CASE = {"kind": SAME_RESOURCE_TWICE, "ops": [["compression.type", int(AlterConfigOp.SET), "uncompressed"]]}


@pytest.mark.prop("C4", source=f"{KIP}; {CAM} preprocess ('Each resource must appear at most once.') / "
                                "reassembleLegacyResponse; reference/kafka_known_deviations.json "
                                "alter-configs-duplicate-resource-never-answered")
@pytest.mark.known_deviation(RESOURCE_TWICE_ENTRY)
@pytest.mark.parametrize("api_key,version", every_version((LEGACY,)))
def test_c4_alter_configs_naming_one_resource_twice_answers_invalid_request_for_both(check, api_key, version):
    """AlterConfigs naming one topic twice answers INVALID_REQUEST (42) for both entries
    ("Each resource must appear at most once.", ConfigAdminManager.preprocess) and changes
    nothing. Released Kafka never answers it (reference/kafka_known_deviations.json: its
    AlterConfigsResponse.errorCounts throws on the duplicate key): this is that entry's
    dedicated check, asked on every broker at every version it advertises, the entry's own
    request first. Every other check leaves the shape out where the entry applies, so the
    defect costs one request timeout per version here and nowhere else."""
    _c4(check, api_key, version, SAME_RESOURCE_TWICE, first=RESOURCE_TWICE_CASE)
