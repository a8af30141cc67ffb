"""E1-E3 can fail: every reassignment and election mutant (faults/mutants/reassignments.py)
fails the properties it names, where the same broker behind the transparent proxy passes
them.

The suite runs as users run it (``python -m pytest conformance/test_reassignments.py
--broker proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every mutant and the
baseline each in a run of its own, two at a time (a mutant's asks only what it catches); the
tests below read its rows. The mutants are measured over kafka:4.4.0 (one node: every
reassignment target is the partition's own replica).
"""
from __future__ import annotations

from faults.mutants.reassignments import OVER
from tests.family_matrix import Family

PROPS = ("E1", "E2", "E3")
FAMILY = Family("reassignments", "conformance/test_reassignments.py", over=OVER)

globals().update(FAMILY.tests(PROPS))
