"""Q1-Q5 can fail: every client quota mutant (faults/mutants/client_quotas.py) fails the properties
it names, where the same broker behind the transparent proxy passes them.

The suite runs as users run it (``python -m pytest conformance/test_client_quotas.py
--broker proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every quota mutant
and the baseline each in a run of its own, two at a time (a mutant's asks only what it
catches); the tests below read its rows. The mutants are measured over Apache Kafka: noida
and tansu do not serve the quota APIs.
"""
from __future__ import annotations


from faults.mutants.client_quotas import OVER
from tests.family_matrix import Family

PROPS = ("Q1", "Q2", "Q3", "Q4", "Q5")
FAMILY = Family("client_quotas", "conformance/test_client_quotas.py", over=OVER)

globals().update(FAMILY.tests(PROPS))
