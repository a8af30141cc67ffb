"""P5 as Kafka ships it: error codes that a request version older than the code never gets,
provoked on brokers configured to return them (KIP-201's downgrade rule; catalogue P5).

* ``delete.topic.enable=false`` (``kafka:VERSION,preset=nodelete``, or any cluster whose
  broker shows that setting, ``reference/broker_config.py``): DeleteTopics answers
  TOPIC_DELETION_DISABLED (73) from v3 and INVALID_REQUEST (42) below, for every requested
  topic, and deletes nothing. apache/kafka core/src/main/scala/kafka/server/ControllerApis.scala
  deleteTopics (``if (!config.deleteTopicEnable) { if (apiVersion < 3) InvalidRequestException
  else TopicDeletionDisabledException }``), answered through DeleteTopicsRequest.getErrorResponse
  (one result per topic, no error_message).
* ``kafka:VERSION,preset=quota`` (KIP-599: ``controller_mutation_rate`` 2 for the client
  id ``kac-quota``): once the token bucket is below zero, CreateTopics v6+, DeleteTopics
  v5+ and CreatePartitions v3+ answer THROTTLING_QUOTA_EXCEEDED (89) for the items over the
  quota and change nothing for them, while older versions are admitted (the change is made)
  and report the throttle in ``throttle_time_ms``. ControllerApis ``quotas.controllerMutation
  .newQuotaFor(session, header, strictSinceVersion)`` with 6 / 5 / 3;
  ControllerMutationQuotaManager ``StrictControllerMutationQuota`` vs the permissive one.
  A version whose answer has no ``throttle_time_ms`` (CreateTopics v0-v1, DeleteTopics v0:
  3.x lines) cannot report the throttle; there the check asks only that the request is
  admitted. A KRaft broker before 3.5 enforces no mutation quota at all
  (reference/release_lines.py ``MUTATION_QUOTA_ENFORCED``, KAFKA-14351): unsupported.

On every other broker these rows are ``unsupported``: they need a broker configured so. On
``preset=quota`` the suite set the quota itself: CreateTopics that never answer 89 while
DescribeClientQuotas shows the quota and more partitions went through than the bucket
holds fail the row; a quota that is gone or requests too slow to empty the bucket are a
set-up ``error`` saying so, never ``unsupported``.

Every verdict is stated as data for the judge (``fixtures.judge.judge``, docs/results.md
"The judge"): each topic's code, Metadata listing the topics deletion left, the throttle an
older version reports, and a drain never throttled (observed over its answers).
"""
from __future__ import annotations

import time

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import Counterexample, SetupFailed, Unsupported, Violation
from fixtures.brokers.kafka import QUOTA_RATE
from protocol import ApiKey, Errors
from protocol import requests as build
from protocol.apis import spec

from .parametrize import every_version
from protocol.codec import APIS
from reference.release_lines import MUTATION_QUOTA_ENFORCED
from reference import error_codes as ec
from reference.broker_config import DELETION_REFUSED

CAPIS = "apache/kafka core/src/main/scala/kafka/server/ControllerApis.scala"
QUOTA_CLIENT_ID = "kac-quota"
#: KIP-599: the first version of each API that answers THROTTLING_QUOTA_EXCEEDED (strict quota):
#: CreateTopics 6, DeleteTopics 5, CreatePartitions 3 (reference/error_codes.py RULES)
STRICT_SINCE = {r.api_key: r.since_version for r in ec.RULES if r.error_code == Errors.THROTTLING_QUOTA_EXCEEDED}
#: Kafka's quota window: ``quota.window.num`` (11) samples of ``quota.window.size.seconds``
#: (1): the bucket holds 11 x rate partitions and refills at the rate
#: (apache/kafka core/src/main/scala/kafka/server/ControllerMutationQuotaManager.scala, ClientQuotaManagerConfig)
BURST_SECONDS = 11
#: One-partition strict CreateTopics are sent to empty the bucket until one answers 89, or
#: until MARGIN x the partitions the quota admits in the time taken went through (a broker
#: that does not enforce it), at most DRAIN_MAX requests in DRAIN_S seconds.
MARGIN, DRAIN_MAX, DRAIN_S = 1.25, 200, 90.0
#: partitions a permissive CreateTopics takes from the drained bucket (``deepen`` in P5):
#: DEEPEN / QUOTA_RATE seconds between the drain and the request under test stay over the quota
DEEPEN = 4


def admitted(seconds: float) -> float:
    """The partitions a quota of QUOTA_RATE admits in ``seconds`` from a full bucket."""
    return QUOTA_RATE * (BURST_SECONDS + seconds) + 1


def _profile(check, name: str) -> None:
    if check.broker.preset != name:
        raise Unsupported(f"needs a broker configured for it: kafka:VERSION,preset={name} "
                          "(no other target can be configured so)")


@pytest.mark.prop("P5", source=f"{CAPIS} deleteTopics (delete.topic.enable=false: InvalidRequestException below v3, "
                               "TopicDeletionDisabledException from v3); DeleteTopicsResponse.json 'Starting in "
                               "version 3, a TOPIC_DELETION_DISABLED error code may be returned'")
@pytest.mark.needs_broker("preset=nodelete")
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.DeleteTopics,)))
def test_p5_with_deletion_disabled_delete_topics_answers_73_from_v3_and_42_below(check, api_key, version):
    """Every requested topic answers TOPIC_DELETION_DISABLED (v3+) or INVALID_REQUEST (below
    v3) and still exists afterwards on every broker."""
    check.require(api_key, version)
    check.require_mutations()
    refusal = DELETION_REFUSED.now()
    if refusal is None:
        raise Unsupported(f"needs a broker with delete.topic.enable=false (kafka:VERSION,preset=nodelete, or a "
                          f"cluster so configured); this one has {DELETION_REFUSED.why()}")
    check.needs_config("delete.topic.enable=false (kafka:VERSION,preset=nodelete)")
    admin = Admin(check)
    want = refusal.code_at(version)        # TOPIC_DELETION_DISABLED, INVALID_REQUEST below v3

    def refused(n):
        names = [check.topic("p5-nodelete") for _ in range(n)]
        for name in names:
            admin.create_topic(name)
        admin.client.answered(api_key, version, build.delete_topics(version, names, timeout_ms=30000))
        _expect_codes(check, api_key, names, [want], f"with deletion disabled: {int(want)} {want.name} (Kafka "
                                                     "answers it at this version)")
        time.sleep(0.2)
        for a in admin.everywhere():
            a.metadata(names)
            for name in names:
                check.expect_field(["topics", {"name": name}, "error_code"], [Errors.NONE], count=1,
                                   says=f"{name} still listed, 0 NONE: DeleteTopics v{version} answered "
                                        f"{int(want)} {want.name} and Kafka deletes nothing")

    check.given(st.integers(1, 3), refused)


def _expect_codes(check, api_key, names, allowed, why: str, refused=None) -> None:
    """Each of ``names`` has one result in the answer to the last step, its code one of
    ``allowed`` (with ``refused``: whatever results it has, none of those codes): the judge's
    verdict, ``why`` in its words."""
    s = spec(api_key)
    for name in names:
        check.expect_field([s.results, {s.item: name}, "error_code"], allowed, refused=refused,
                           count=None if refused else 1, says=f"{name} {why}")


def _quota_shown(admin: Admin) -> list:
    """The quota DescribeClientQuotas shows for the suite's quota client id (the set-up's
    evidence that the broker holds it), as the broker answers it."""
    resp = admin.client.answered(ApiKey.DescribeClientQuotas, 0, {"components": [
        {"entity_type": "client-id", "match_type": 0, "match": QUOTA_CLIENT_ID}], "strict": False})
    return [v for e in resp.get("entries") or [] for v in e.get("values") or []
            if v.get("key") == "controller_mutation_rate"]


def _never_throttled(admin: Admin, version: int, sent: int, seconds: float, last: int, codes: list):
    """``sent`` strict CreateTopics went through without 89 (``codes``: what they answered).
    With the quota shown and MARGIN x more partitions created than the bucket admits in that
    time, one of them must have answered 89: the judge's fail, the broker does not enforce
    the quota it holds. That is a statement about the drain as a whole, no one answer of it
    (a replay on one connection, muted for each throttle, may be admitted at any single
    step), so it is stated as observed, on the drain's last step: the judge decides it here,
    a reproducer says it cannot. Otherwise there is no verdict: an ``error`` saying why."""
    shown = _quota_shown(admin)
    if not shown:
        raise SetupFailed(f"{sent} CreateTopics v{version} by {QUOTA_CLIENT_ID} were never throttled, and "
                          f"DescribeClientQuotas shows no controller_mutation_rate for it: the quota the target "
                          "set is gone")
    allowed = admitted(seconds)
    if sent < MARGIN * allowed:
        raise SetupFailed(f"{sent} one-partition CreateTopics v{version} took {seconds:.1f}s, too close to the "
                          f"{allowed:.0f} partitions a quota of {QUOTA_RATE:g}/s admits in that time: too slow "
                          "to tell whether the quota is enforced")
    throttled = f"{int(Errors.THROTTLING_QUOTA_EXCEEDED)} {Errors.THROTTLING_QUOTA_EXCEEDED.name}"
    # judged here on the drain's last answer (none of the drain's was 89: ``codes``); a
    # reproducer re-sends that request under fresh names (``renew``) until one answers 89, and
    # calls it a deviation only once more went through than the quota admits in that time
    admin.check.expect_data({
        "kind": "field", "path": ["topics", "error_code"], "in": [int(Errors.THROTTLING_QUOTA_EXCEEDED)],
        "min_count": 1, "retry_s": DRAIN_S,
        "renew": {"max": DRAIN_MAX, "burst": BURST_SECONDS * QUOTA_RATE, "rate": QUOTA_RATE, "margin": MARGIN},
        "says": f"one-partition CreateTopics v{version} by client id {QUOTA_CLIENT_ID}, sent faster than the quota "
                f"DescribeClientQuotas shows (controller_mutation_rate {shown[0].get('value')}) admits, answer "
                f"{throttled} once the bucket ({BURST_SECONDS} x the rate) is empty: the suite's {sent} in "
                f"{seconds:.1f}s (at most {allowed:.0f} admitted) answered {', '.join(sorted({str(int(c)) for c in codes}))} "
                f"(KIP-599's strict quota from CreateTopics v{STRICT_SINCE[ApiKey.CreateTopics]})"}, step=last)


def _quota_request(api_key, version, names, partitions) -> dict:
    if api_key == ApiKey.CreateTopics:
        return build.create_topics(version, [build.topic(n, partitions, 1) for n in names], timeout_ms=30000)
    if api_key == ApiKey.CreatePartitions:
        return build.create_partitions(version, [(n, 1 + partitions) for n in names], timeout_ms=30000)
    return build.delete_topics(version, names, timeout_ms=30000)


@pytest.mark.prop("P5", source="KIP-599; " + CAPIS + " createTopics / deleteTopics / createPartitions "
                               "(controllerMutation.newQuotaFor(..., strictSinceVersion = 6 / 5 / 3)); "
                               "core/src/main/scala/kafka/server/ControllerMutationQuotaManager.scala "
                               "(StrictControllerMutationQuota: THROTTLING_QUOTA_EXCEEDED; permissive below)")
@pytest.mark.needs_broker("preset=quota")
@pytest.mark.parametrize("api_key,version", every_version(tuple(STRICT_SINCE)))
def test_p5_over_the_mutation_quota_only_new_versions_answer_89_older_ones_are_throttled(check, api_key, version):
    """After a request drains the quota, this version either answers THROTTLING_QUOTA_EXCEEDED
    (89) and changes nothing (v >= the strict version) or is admitted, makes the change and
    reports a throttle_time_ms > 0 (older versions); 89 never reaches an older version."""
    check.require(api_key, version)
    check.require_mutations()
    _profile(check, "quota")
    admin = Admin(check)                                   # set-up, unthrottled client id
    # two connections of the quota's client id: Kafka mutes a connection for the throttle
    # time it reports (KIP-219), so the drained one cannot carry the request under test
    drainer, quota = check.client(client_id=QUOTA_CLIENT_ID), check.client(client_id=QUOTA_CLIENT_ID)
    strict = version >= STRICT_SINCE[api_key]
    if not MUTATION_QUOTA_ENFORCED.now():
        raise Unsupported(f"the broker's line enforces no controller mutation quota: {MUTATION_QUOTA_ENFORCED.source}")
    reports_throttle = APIS[api_key].response.fields["throttle_time_ms"].for_version_q(version)
    v = admin.version(ApiKey.CreateTopics)
    if v < STRICT_SINCE[ApiKey.CreateTopics]:
        raise Unsupported(f"emptying the quota needs CreateTopics v6+ (THROTTLING_QUOTA_EXCEEDED); broker has v{v}")
    check.needs_config(f"kafka:VERSION,preset=quota: controller_mutation_rate {QUOTA_RATE:g} for client id "
                       f"{QUOTA_CLIENT_ID} (AlterClientQuotas, KIP-599); the steps marked client_id="
                       f"{QUOTA_CLIENT_ID!r} are sent under it")

    never: dict = {}     # a drain that was never throttled: its verdict, kept for the check

    def drain() -> int:
        """One-partition strict CreateTopics until one answers 89: the bucket is then below
        zero by at most one partition. Returns the throttle it reported. A drain that was
        never throttled decides the check (a fail, or a set-up error): later examples and
        hypothesis's shrinking do not send a drain of their own each."""
        if never:
            raise never["verdict"]
        t0, sent, last, codes = time.monotonic(), 0, None, []
        while sent < DRAIN_MAX and time.monotonic() - t0 < DRAIN_S:
            body = _quota_request(ApiKey.CreateTopics, v, [check.topic("p5-drain")], 1)
            resp = drainer.answered(ApiKey.CreateTopics, v, body)
            last = check.last_step
            codes += [t["error_code"] for t in resp["topics"]]
            sent += 1
            if any(t["error_code"] == Errors.THROTTLING_QUOTA_EXCEEDED for t in resp["topics"]):
                # holds here by construction. A reproducer's bucket may start fuller than this
                # example's (the examples before had drained it): it re-sends this last request
                # under fresh topic names (``renew``, each one more partition) for up to DRAIN_S
                # until one answers 89; if none does, its set-up failed: undecided, never "conforms"
                check.expect_data({"kind": "field", "path": ["topics", "error_code"], "role": "setup",
                                   "in": [int(Errors.THROTTLING_QUOTA_EXCEEDED)], "min_count": 1,
                                   "retry_s": DRAIN_S, "renew": True,
                                   "says": f"the drain empties the quota of client id {QUOTA_CLIENT_ID}: "
                                           "its last CreateTopics answers 89 THROTTLING_QUOTA_EXCEEDED"})
                return max(resp.get("throttle_time_ms", 0), deepen())
            if sent >= MARGIN * admitted(time.monotonic() - t0):
                break
        try:
            _never_throttled(admin, v, sent, time.monotonic() - t0, last, codes)
        except Violation as verdict:
            never.update(verdict=verdict, example=Counterexample(None, list(check.steps),
                                                                expect=list(check.expectations),
                                                                config=check.config_note))
            raise

    def deepen() -> int:
        """The 89 leaves the bucket below zero by at most one partition, which the rate
        refills in 1 / QUOTA_RATE s: a request under test that reached the controller later
        (a loaded machine) found it refilled and was admitted, a false fail on Kafka (CI
        rehearsal, 2026-11-29). One permissive CreateTopics (below the strict version: Kafka
        admits it over the quota and records it, ControllerMutationQuotaManager.scala
        PermissiveControllerMutationQuota) on a connection of its own takes DEEPEN partitions
        more: DEEPEN / QUOTA_RATE s before the bucket can admit again. Its throttle."""
        permissive = STRICT_SINCE[ApiKey.CreateTopics] - 1
        body = _quota_request(ApiKey.CreateTopics, permissive, [check.topic("p5-deepen")], DEEPEN)
        return check.client(client_id=QUOTA_CLIENT_ID).answered(ApiKey.CreateTopics, permissive, body).get(
            "throttle_time_ms", 0)

    def over_quota(n):
        names = [check.topic("p5-quota") for _ in range(n)]
        if api_key != ApiKey.CreateTopics:
            for name in names:
                admin.create_topic(name)
        waited = drain()
        body = _quota_request(api_key, version, names, 2)
        resp = quota.answered(api_key, version, body)
        time.sleep(max(waited, resp.get("throttle_time_ms", 0)) / 1000)   # both connections unmuted again
        at = check.last_step
        since = STRICT_SINCE[api_key]
        if strict:
            _expect_codes(check, api_key, names, [Errors.THROTTLING_QUOTA_EXCEEDED],
                          f"over the quota: 89 THROTTLING_QUOTA_EXCEEDED (Kafka's strict quota from v{since})")
        else:
            _expect_codes(check, api_key, names, None, f"over the quota: never 89 THROTTLING_QUOTA_EXCEEDED (the "
                          f"code is v{since}+ only; older versions are admitted and throttled)",
                          refused=[Errors.THROTTLING_QUOTA_EXCEEDED])
            _expect_codes(check, api_key, names, [Errors.NONE], "over the quota: 0 NONE (Kafka admits older versions)")
            if reports_throttle:        # no throttle_time_ms in this version's answer: nothing to see
                check.expect_field(["throttle_time_ms"], count=1, at_least=1, step=at,
                                   says=f"throttle_time_ms > 0 (Kafka admits v{version} over the quota and "
                                        "reports the throttle)")

    try:
        check.given(st.integers(1, 2), over_quota, max_examples=min(3, check.context.budget.max_examples))
    except Violation:
        if never:           # the drain's own requests, not an example that re-raised its verdict
            check.set_counterexample(never["example"])
        raise
