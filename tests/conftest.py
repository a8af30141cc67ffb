"""Fixtures shared by the project's tests."""
from __future__ import annotations

import json
import os
import resource
import time

import pytest

from faults import forkserver
from fixtures.brokers import make_target


#: The fast tier (README, "Run the project's tests"): modules that start no JVM (Kafka,
#: ZooKeeper, Spark) and no container, and run the suite, if at all, over a few cells on
#: tansu or noida (processes that start in milliseconds). ``tox -e tests -- -m fast`` runs
#: them in under 3 minutes (``python -m benchmarks --only tests``); a developer runs it on
#: every change, CI runs every tier. A test of a listed module can still say ``slow``.
#: A module not listed is slow, so a new module never slows the fast tier unnoticed.
FAST_MODULES = frozenset({
    "test_acl_rules.py", "test_array_order.py", "test_broker_config.py", "test_catalogue.py", "test_class_archive.py", "test_cluster_model.py",
    "test_codec.py", "test_config_model.py", "test_console.py", "test_declarations.py", "test_judge.py", "test_k2_emulation.py",
    "test_kafka_clients_schemas.py", "test_layout.py", "test_mutation_score.py",
    "test_outcomes_mean_it.py", "test_unsupported_evidence.py", "test_p5_provoked.py", "test_public_sources.py",
    "test_release_lines.py", "test_run_integrity.py", "test_schema_facts.py", "test_scope.py",
    "test_strategies.py", "test_tidy.py",
    "test_quota_rules.py", "test_scram_rules.py", "test_group_rules.py", "test_list_offsets_rules.py",
    "test_transaction_rules.py",
    "test_report_inputs.py", "test_reports_releases.py", "test_companions.py", "test_bench_limits.py",
    "test_kafka_server_properties.py", "test_shards.py", "test_forkserver.py", "test_bad_input.py",
    "test_known_neighbours.py", "test_linearizable.py", "test_summary_verdict.py", "test_reports_diff.py",
})


#: The longest modules of CI, longest first (wall seconds on one of three workers in the CI
#: rehearsal of a467c2b, 2026-11-28: 660, 510, 308, 280, 170, 136, 135, 110, 105, 97, 89, 82,
#: 72, 68, 68, 64). tox -e tests hands modules out in collection order
#: (``--no-loadscope-reorder``: xdist's own order puts the modules with the most tests first),
#: so these go first and the short ones fill in after them (longest processing time first):
#: in xdist's order, test_shared_cluster.py (268 s, five tests) started at 967 s of a 1,240 s
#: run and ended it alone; in this order the three workers ended within 57 s of each other.
#: A module left out only runs later; a stale order costs minutes, never a result.
LONGEST_FIRST = ("test_proxy.py", "test_kafka_target.py", "test_shared_cluster.py", "test_conformance_run.py",
                 "test_shuffle_proxy.py",       # 220 s alone on a loaded two-CPU machine (2026-12-02)
                 "test_client_quotas_can_fail.py", "test_reports_cluster.py", "test_scram_can_fail.py",
                 "test_repro.py", "test_package.py", "test_configs_can_fail.py", "test_reassignments_can_fail.py",
                 "test_share_groups_can_fail.py", "test_stateful_can_fail.py", "test_acls_can_fail.py",
                 "test_groups_can_fail.py", "test_zookeeper_target.py")


#: Folders whose modules share session-scoped fixtures too costly to set up once per worker:
#: tox -e tests hands such a folder to one worker as if it were one module. The report tests
#: share one Spark session and one aggregated data set (tests/reports/conftest.py); handed out
#: a module at a time they started both on every worker that got one of them (three in a CI
#: rehearsal), and the Spark JVMs, which the workers do not reap, cost up to ~125 busy CPU s
#: more (measured 2026-11-29: the folder in one process 154, its modules one process each
#: 280; issue 29, item 4).
ONE_WORKER_FOLDERS = ("tests/reports/",)


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` as xdist schedules it, but each of ONE_WORKER_FOLDERS one unit."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class FolderAwareScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            folder = next((f for f in ONE_WORKER_FOLDERS if nodeid.startswith(f)), None)
            return folder or super()._split_scope(nodeid)

    return FolderAwareScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    """Marks every test ``fast`` or ``slow`` (see FAST_MODULES) and collects the longest
    modules first (see LONGEST_FIRST)."""
    for item in items:
        if item.path.name in FAST_MODULES and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.fast)
        elif item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))     # stable: file order within


def _started(spec: str):
    target = make_target(spec)
    info = target.start()
    yield info
    target.stop()


@pytest.fixture(scope="module")
def tansu():
    """A tansu broker of the module's own (started once per module, stopped after it)."""
    yield from _started("tansu")


@pytest.fixture(scope="module")
def noida():
    """A noida-db broker of the module's own (started once per module, stopped after it)."""
    yield from _started("noida")


def _cpu_seconds() -> float:
    """This process's CPU seconds plus those of every child it (or they) waited for: the
    brokers, JVMs and pytest runs a test started and stopped, and the runs forked for it by
    faults/forkserver.py (children of the fork server, which reports their CPU)."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime + forkserver.forked_cpu_seconds()


_CPU_SEEN = [0.0]


def pytest_runtest_logfinish(nodeid, location):
    """With ``KAC_TEST_CPU_FILE`` set, appends each test's CPU seconds (its own and its
    stopped children's, since the previous test of this process) as a JSON line: where CI's
    CPU goes, per module (``python benchmarks/bench_tests.py --cpu FILE`` sums it; issue 29,
    item 4: CI is CPU-bound on 2 CPUs)."""
    out = os.environ.get("KAC_TEST_CPU_FILE")
    if not out:
        return
    now = _cpu_seconds()
    last, _CPU_SEEN[0] = _CPU_SEEN[0], now
    with open(out, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"test": nodeid, "cpu_s": round(now - last, 2), "at": round(time.time(), 1),
                             "worker": os.environ.get("PYTEST_XDIST_WORKER", "")}) + "\n")
