"""W1 can fail: every DescribeProducers mutant (faults/mutants/producers.py) fails the
property it names, where the same broker behind the transparent proxy passes it.

The suite runs as users run it (``python -m pytest conformance/test_describe_producers.py
--broker proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every
DescribeProducers mutant and the baseline each in a run of its own, two at a time (a
mutant's asks only what it catches); the tests below read its rows. The mutants are measured
over kafka:4.4.0: tansu does not advertise DescribeProducers and noida lists no producer (W1
fails there).
"""
from __future__ import annotations

from faults.mutants.producers import OVER
from tests.family_matrix import Family

PROPS = ("W1",)
FAMILY = Family("producers", "conformance/test_describe_producers.py", over=OVER)

globals().update(FAMILY.tests(PROPS))
