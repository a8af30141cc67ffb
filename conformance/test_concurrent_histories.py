"""S3: concurrent admin histories on one broker are linearizable (issue 58's first part: no
fault injected yet).

2-6 clients, each on its own connection, at a version drawn per operation, write, delete and
read two config keys of one topic and two client quotas of one user at the same time
(``conformance/concurrent_history.py``); the recorded history is checked for
linearizability against one register per key (``fixtures/history``: Wing & Gong / Lowe as
porcupine does it, each key on its own, cross-checked against porcupine in
``tests/test_linearizable_porcupine.py``). A lost update, a stale read or a value from
nowhere fails the row with the smallest failing sub-history as its message and an HTML
picture of it in the row's counterexample notes; the checker's time bound gives an
``error`` (no verdict), never a pass. C2 and Q5 ask the same of fixed plans; their
ZooKeeper-mode lost updates are what this check finds without a special case.

A history's race cannot be replayed standalone: the counterexample's requests replay one
after another, and the reproducer says so (a caveat).
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import SetupFailed
from fixtures.history import ILLEGAL, OK, check as linearizable
from fixtures.history import visual
from protocol import ApiKey
from protocol.kafka_sources import KAFKA

from .concurrent_history import (CONFIG_KEYS, LAG_S, MODEL, QUOTA_KEYS, History, judge_answers, judged_at,
                                 overlapping_writes, remove_quotas, run_clients, versions_of)

SOURCE = ("issue 58 (linearizable admin histories); KIP-339, KIP-546; " + KAFKA
          + "metadata/src/main/java/org/apache/kafka/controller/ConfigurationControlManager.java "
            "(incrementalAlterConfigs); " + KAFKA + "metadata/src/main/java/org/apache/kafka/controller/"
            "ClientQuotaControlManager.java (alterClientQuotas); Lowe, \"Testing for linearizability\" (2017); "
            "anishathalye/porcupine")
#: the checker's bound per history (seconds): beyond it the row is an error, never a pass
CHECK_S = 20.0
#: races are rare: at least 24 histories (about a second each), the profile's where it asks more
#: (dev 25, release 200)
LEAST_EXAMPLES = 24


def plans(keys: tuple[str, ...]):
    """Each client's operations: writes most (three in six), reads (two), deletes (one); the
    config keys twice as often as the quota keys (ZooKeeper mode's read-modify-write of a
    topic's whole config is where lost updates live). Only a read waits before it is sent (a
    think time, mostly none, else past ``LAG_S``): writes come back to back, so the clients'
    writes overlap, and a read after a pause sees what the writes left."""
    weighted = tuple(k for k in keys for _ in range(2 if k in CONFIG_KEYS else 1))

    def op(kind: str):
        pause = st.sampled_from((0.0, 0.0, 0.05, 0.2)) if kind == "read" else st.just(0.0)
        return st.fixed_dictionaries({"kind": st.just(kind), "key": st.sampled_from(weighted),
                                      "v": st.integers(0, 7), "pause": pause})

    ops = st.sampled_from(("write", "write", "write", "read", "read", "delete")).flatmap(op)
    return st.lists(st.lists(ops, min_size=3, max_size=10), min_size=2, max_size=6)


@pytest.mark.prop("S3", source=SOURCE)
@pytest.mark.known_deviation("s3-zookeeper-mode-history-loses-acknowledged-entity-writes")
def test_s3_concurrent_admin_histories_are_linearizable(check):
    """2-6 clients at once write, delete and read two config keys of a fresh topic and two
    client quotas of a fresh user, each operation at a drawn advertised version: every
    answer is NONE or an error that leaves the register as it was, and the history of each
    key is linearizable (a write visible once the broker's metadata image follows, within
    ``concurrent_history.LAG_S``)."""
    for api in (ApiKey.IncrementalAlterConfigs, ApiKey.DescribeConfigs):
        check.require(api)
    check.require_mutations()
    quotas = all(check.broker.advertised(a) is not None for a in (ApiKey.AlterClientQuotas,
                                                                  ApiKey.DescribeClientQuotas))
    keys = CONFIG_KEYS + (QUOTA_KEYS if quotas else ())
    versions = versions_of(check, "S3")
    admin = Admin(check)

    def concurrent(plan):
        topic, user = check.topic("s3"), check.topic("s3-user")
        admin.create_topic(topic)
        history = History(check, topic, user, versions)
        clients = [check.client() for _ in plan]
        try:
            run_clients(history, clients, plan)
        finally:
            if quotas:
                remove_quotas(admin, history)
        check.expect_caveat("S3's clients ran at the same time; the reproducer sends their requests one after "
                            "another, so it shows each answer, not the race")
        judge_answers(check, history)               # every answer as Kafka gives it
        result = linearizable(MODEL, history.ops, timeout_s=CHECK_S)
        last = max((at for at, _, _ in history.steps), default=None)     # the verdict is on the whole history
        check.coverage = {"operations": check.coverage.get("operations", 0) + len(history.ops),
                          "indeterminate": check.coverage.get("indeterminate", 0)
                          + sum(op.indeterminate for op in history.ops),
                          "keys": check.coverage.get("keys", 0) + len({op.key for op in history.ops}),
                          "examples": check.coverage.get("examples", 0) + 1,
                          "checker_s": round(check.coverage.get("checker_s", 0) + result.elapsed_s, 3)}
        if result.verdict == ILLEGAL:
            picture = visual.render_result(MODEL, result)
            beside = overlapping_writes(history.ops, result.minimal)
            check.expect_observed("the history of " + repr(result.failing_key) + " is linearizable",
                                  _shown(result), [[]], step=judged_at(result.minimal, last),
                                  says=f"{result.failing_key!r}: no lost update, stale read or value from nowhere "
                                       f"(smallest failing sub-history: {len(result.minimal)} operations, "
                                       f"{_kind(result)}, a write's "
                                       f"return counted {LAG_S:g} s late; its picture: {len(picture)} bytes of HTML; "
                                       f"{_told(beside, result.minimal)})")
        elif result.verdict != OK:
            raise SetupFailed(f"the checker's bound ({CHECK_S:g} s) ran out on {result.unknown_keys}: no verdict "
                              f"on {len(history.ops)} operations")
        else:
            check.expect_observed("keys whose history is not linearizable", [], [[]], step=last,
                                  says=f"every key's history is linearizable ({len(history.ops)} operations)")

    check.given(plans(keys), concurrent, max_examples=max(LEAST_EXAMPLES, check.context.budget.max_examples))


def _shown(result) -> list[str]:
    """The smallest failing sub-history, one line per operation (client, input, output, times)."""
    t0 = min(op.call for op in result.minimal)
    return [f"client {op.client}: {op.input} -> {'?' if op.indeterminate else op.output} "
            f"[{op.call - t0:.3f}s, {'?' if op.indeterminate else f'{op.ret - t0:.3f}s'}]"
            for op in result.minimal]


def _kind(result) -> str:
    """What the failing sub-history shows (``Result.real_time``)."""
    return ("a lost update or stale read: some order explains every answer, not one that keeps real time"
            if result.real_time else "a value from nowhere: no order of the operations explains the answers")


def _told(beside, minimal) -> str:
    """The writes of the same entity's other keys that overlapped the failing sub-history, in
    its clock: a broker that rewrites the entity whole (ZooKeeper mode's read-modify-write)
    loses a key to them; none beside a lost write is a lost update of another cause."""
    if not beside:
        return "no write of another key of the same entity overlapped it"
    t0 = min(op.call for op in minimal)
    return (f"{len(beside)} write(s) of other keys of the same entity overlapped it: "
            + ", ".join(f"client {op.client} {op.input['op']} {op.key[2]} "
                        f"[{op.call - t0:.3f}s, {'?' if op.ret is None else f'{op.ret - t0:.3f}s'}]"
                        for op in beside))
