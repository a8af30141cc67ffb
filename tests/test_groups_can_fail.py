"""G1-G6 can fail: every consumer group mutant (faults/mutants/groups.py) fails the properties
it names, where the same broker behind the transparent proxy passes them.

The suite runs as users run it (``python -m pytest conformance/test_groups.py --broker
proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every group mutant and the
baseline each in a run of its own, two at a time (a mutant's asks only what it catches); the
tests below read its rows. The mutants are measured over Apache Kafka: noida serves no group
API.
"""
from __future__ import annotations

from faults.mutants.mutant import KAFKA_OVER
from tests.family_matrix import Family

PROPS = ("G1", "G2", "G3", "G4", "G5", "G6")
FAMILY = Family("groups", "conformance/test_groups.py", over=KAFKA_OVER)

globals().update(FAMILY.tests(PROPS))
