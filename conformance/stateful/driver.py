"""S1's driver: one row runs as a hypothesis ``RuleBasedStateMachine`` (the operations drawn by
``steps.py``, the invariants of ``invariants.py`` after every step), its failure is shrunk
by hypothesis within a time limit, made minimal and confirmed (``minimise.py``) and
reported as the row's message and counterexample; ``--replay FILE:ROW`` re-runs a recorded
counterexample without hypothesis.

Hypothesis has no setting for how long shrinking may take; ``fixtures.shrinking`` sets the
engine's limit for one row (S1's own seconds, SHRINK_SECONDS) and puts back what was there,
whatever the row's outcome.
"""
from __future__ import annotations

from hypothesis import HealthCheck, seed, settings
from hypothesis.errors import FlakyFailure
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from fixtures.harness import BrokerGone, Unsupported, Violation
from fixtures.shrinking import limit, phases, shrinking_limited_to

from .invariants import check_invariants
from .minimise import minimal
from .admin_plane import PlaneRow
from .row import Row
from .run import play

#: The seconds hypothesis may spend shrinking one failure, by profile (a row's steps per
#: example are ``Row.steps``).
SHRINK_SECONDS = {"ci": 3, "dev": 20, "release": 90}


def machine_class(row: Row):
    """The state machine of ``row``: every example starts with a plain CreateTopics (and, in
    S2, a step of each admin family: ``first_family_steps``), then draws steps; the
    invariants hold after each; what it made is removed at the end."""
    strategies = row.strategies()
    first, steps, seeds = strategies.first_step(), strategies.steps(), strategies.first_family_steps()

    class S1Machine(RuleBasedStateMachine):
        """The cluster model against one broker (``docs/stateful.md``)."""

        def __init__(self):
            super().__init__()
            self.run = row.new_run()

        if seeds is None:
            @initialize(op=first)
            def create_first_topics(self, op):
                self.run.execute(op)
        else:
            @initialize(op=first, ops=seeds)
            def create_first_topics_then_give_every_family_state(self, op, ops):
                # the invariants between these steps too, as after every drawn step (and as
                # ``run.play`` replays them): a family's step on the first topics must not race
                # their reaching the broker's metadata (Kafka acknowledges CreateTopics once the
                # controller committed it; its brokers apply the records after: KafkaApis
                # handleAddPartitionsToTxnRequest answers UNKNOWN_TOPIC_OR_PARTITION for a
                # partition not yet in its metadataCache)
                for i, one in enumerate((op, *ops)):
                    if i:
                        check_invariants(self.run)
                    self.run.execute(one)

        @rule(op=steps)
        def step(self, op):
            self.run.execute(op)

        @invariant()
        def broker_equals_model(self):
            check_invariants(self.run)

        def teardown(self):
            self.run.cleanup()

    S1Machine.__name__ = S1Machine.__qualname__ = row.machine_name
    return S1Machine


def run_s1(check, focus: int) -> None:
    """S1's row of ``focus`` on ``check``'s broker."""
    run_row(Row(check, focus))


def run_s2(check) -> None:
    """S2's row (the admin plane, ``admin_plane.py``) on ``check``'s broker."""
    run_row(PlaneRow(check))


def run_row(row: Row) -> None:
    """One row: learn the broker, then run the state machine (or, with ``--replay``, the
    recorded counterexample); a failure becomes the row's message and counterexample."""
    check = row.check
    row.require()
    recorded = check.replay_input     # --replay: the counterexample to re-run, or None
    try:
        row.learn()
    except Violation as verdict:
        failure = row.last_failure or {"sub": "", "ops": [], "script": row.setup_script,
                                       "requests": list(check.steps), "problem": str(verdict), "verdict": verdict}
        raise row.violation(failure) from None
    check.restart()
    if recorded is not None:
        replay_counterexample(row, recorded)
        return
    profile = row.profile
    shrink = limit(check.context.budget.shrink_seconds, SHRINK_SECONDS, profile, 30)
    machine_settings = settings(max_examples=check.context.budget.max_examples,
                                stateful_step_count=row.steps.get(profile, 20), deadline=None, database=None,
                                report_multiple_bugs=False, derandomize=False,
                                suppress_health_check=list(HealthCheck), phases=phases(shrink))
    machine = seed(check.seed)(machine_class(row))
    try:
        with shrinking_limited_to(shrink):
            run_state_machine_as_test(machine, settings=machine_settings)
    except BrokerGone:
        row.keep_current()
        raise
    except Violation:
        raise row.violation(*minimal(row, row.last_failure)) from None
    except FlakyFailure as flaky:
        if row.first_failure is None or not any(isinstance(e, Violation) for e in flaky.exceptions):
            raise
        raise row.violation(row.first_failure, " (intermittent: the shrunk sequence passed when run again; "
                                               "this is the first failing sequence)") from None


def replay_counterexample(row: Row, value: dict) -> None:
    """Re-run the recorded operations of a counterexample (on any broker that advertises
    the versions they were sent at; otherwise the replay is unsupported there)."""
    for op in value.get("steps") or []:
        operation = row.operations.by_name.get(op["api"])
        if "v" in op and operation is not None:
            rng = row.ranges.get(operation.api)
            if rng is None or not rng[0] <= op["v"] <= rng[1]:
                have = f"v{rng[0]}-{rng[1]}" if rng else "no version"
                raise Unsupported(f"the counterexample sends {op['api']} v{op['v']}; this broker advertises {have}")
    try:
        play(row, value.get("steps") or [], value.get("sub"))
    except BrokerGone:
        row.keep_current()
        raise
    except Violation:
        raise row.violation(row.last_failure) from None
