"""E4 can fail: the election mutant that needs a cluster of several brokers
(faults/mutants/reassignments_cluster.py) fails E4, where the same three-node cluster behind
the transparent proxy passes it.

As tests/test_reassignments_can_fail.py, with E4 alone selected (``--property E4``) and the
brokers ``proxy:MUTANT@kafka:4.4.0,nodes=3``: E4 needs a partition of two replicas, so a
preferred replica that does not lead (E1-E3 are measured on one node there).
"""
from __future__ import annotations

from faults.mutants.reassignments_cluster import OVER
from tests.family_matrix import Family

PROPS = ("E4",)
FAMILY = Family("reassignments_cluster", "conformance/test_reassignments.py", over=OVER, extra=("--property", "E4"))

globals().update(FAMILY.tests(PROPS))
