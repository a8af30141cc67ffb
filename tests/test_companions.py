"""Companion brokers (fixtures/companions.py): a plain ``kafka:VERSION`` asks every property,
each check that needs a configured Kafka on a companion started for it. Collection only here
(no JVM); the runs on Kafka are in tests/test_kafka_target.py."""
from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from fixtures.companions import OPTIONS, Routes, parts

ROOT = Path(__file__).resolve().parents[1]
BASE = "kafka:4.4.0"

#: option -> the check functions that need it (their names' start)
NEEDED_BY = {
    "preset=policy": ("test_a1_",),
    "preset=acl": ("test_a2_", "test_h2_", "test_h3_", "test_h4_", "test_l1_", "test_l2_", "test_l3_", "test_l4_",
                   "test_l5_", "test_s2_"),
    "preset=quota": ("test_p5_over_the_mutation_quota",),
    "preset=nodelete": ("test_p5_with_deletion_disabled",),
    "nodes=3": ("test_e4_",),
}


def test_a_plain_kafka_spec_gets_one_companion_per_option():
    routes = Routes([BASE, "tansu"])
    assert routes.specs == [BASE, "tansu", *[f"{BASE},{o}" for o in OPTIONS]]
    assert routes.of(f"{BASE},preset=acl") == {"companion_of": BASE, "for": "preset=acl"}
    assert routes.of(BASE) is None and routes.of("tansu") is None
    assert routes.asks(f"{BASE},preset=acl", "preset=acl") and not routes.asks(f"{BASE},preset=acl", None)
    assert not routes.asks(f"{BASE},preset=acl", "nodes=3")
    assert not routes.asks(BASE, "preset=acl") and routes.asks(BASE, None)
    assert routes.asks("tansu", "preset=acl"), "a broker the suite cannot configure still asks (unsupported)"


@pytest.mark.parametrize("spec", ["tansu", "noida", "bootstrap:127.0.0.1:9092", f"{BASE},preset=acl",
                                  f"{BASE},nodes=3", f"proxy:none@{BASE}"])
def test_a_broker_the_suite_cannot_configure_or_already_configured_gets_none(spec):
    assert Routes([spec]).specs == [spec]


def test_single_broker_and_a_given_companion_keep_the_spec_as_given():
    assert Routes([BASE], enabled=False).specs == [BASE]
    given = Routes([BASE, f"{BASE},preset=acl"])
    assert f"{BASE},preset=acl" not in given.companions, "a spec the user gave runs every check"
    assert given.asks(f"{BASE},preset=acl", None) and not given.asks(BASE, "preset=acl")
    assert given.specs.count(f"{BASE},preset=acl") == 1


def test_a_jobs_worker_asks_only_its_part():
    """--jobs splits a base's run: the base worker keeps the base and drops its preset checks,
    a companion's worker has only that companion."""
    assert parts(BASE) == ["base", *OPTIONS] and parts("tansu") == [] and parts(f"{BASE},preset=acl") == []
    base = Routes([BASE], part="base")
    assert base.specs == [BASE] and not base.asks(BASE, "preset=acl") and base.asks(BASE, None)
    acl = Routes([BASE], part="preset=acl")
    assert acl.specs == [f"{BASE},preset=acl"] and acl.of(f"{BASE},preset=acl")["companion_of"] == BASE
    assert acl.asks(f"{BASE},preset=acl", "preset=acl") and not acl.asks(f"{BASE},preset=acl", None)


def _collected(*args) -> dict[str, set[str]]:
    """broker spec -> the check functions collected for it."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "conformance", "--collect-only", "-q",
                           "-p", "no:cacheprovider", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = defaultdict(set)
    for line in proc.stdout.splitlines():
        if "::" not in line or "[" not in line:
            continue
        name, _, params = line.split("::")[-1].partition("[")
        specs = [p for p in params.rstrip("]").split("-") if p.startswith("kafka:")]
        assert len(specs) == 1, line
        out[specs[0]].add(name)
    return out


def test_each_check_is_collected_on_the_one_broker_that_can_ask_it():
    routed = _collected("--broker", BASE)
    single = _collected("--broker", BASE, "--single-broker")
    assert set(single) == {BASE}
    assert set(routed) == {BASE, *(f"{BASE},{o}" for o in OPTIONS)}
    for option, starts in NEEDED_BY.items():
        on = routed[f"{BASE},{option}"]
        assert on and all(n.startswith(starts) for n in on), (option, sorted(on))
        assert not any(n.startswith(starts) for n in routed[BASE]), (option, "still on the base")
    assert set().union(*routed.values()) == single[BASE], "a check is asked nowhere, or twice"


def test_property_selection_collects_only_the_companions_it_needs():
    routed = _collected("--broker", BASE, "--property", "E4,D1")
    assert set(routed) == {BASE, f"{BASE},nodes=3"}
    assert all(n.startswith("test_e4_") for n in routed[f"{BASE},nodes=3"])


def test_every_module_whose_checks_need_a_configured_broker_names_it_as_the_predicate_reads():
    """``wants_configured_broker`` (what tests/test_kafka_target.py and the bench count) finds
    a reason by the spec it names, ``kafka:VERSION,OPTION``: a module marking checks
    ``needs_broker`` that said it otherwise would hide its unsupported rows from both."""
    from fixtures.companions import WANTING, wants_configured_broker
    texts = {p.name: p.read_text() for p in sorted((ROOT / "conformance").glob("test_*.py"))}
    marking = {name: text for name, text in texts.items() if "needs_broker(" in text}
    assert len(marking) >= 5, sorted(marking)
    for name, text in marking.items():
        assert any(f"{WANTING}{option}" in text for option in OPTIONS), \
            f"{name}: no unsupported reason names {WANTING}OPTION"
    reason = "needs a broker running the suite's policies: kafka:VERSION,preset=policy (...)"
    assert wants_configured_broker({"outcome": "unsupported", "message": reason})
    assert not wants_configured_broker({"outcome": "pass", "message": reason})
    assert not wants_configured_broker({"outcome": "unsupported", "message": "CreateAcls v0: not advertised"})
    assert not wants_configured_broker({"outcome": "unsupported", "message": None})
