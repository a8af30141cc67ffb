"""X1-X2 can fail: every ListTransactions and DescribeTransactions mutant
(faults/mutants/transactions.py) fails the property it names, where the same broker behind
the transparent proxy passes it.

The suite runs as users run it (``python -m pytest conformance/test_transactions.py --broker
proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every transactions mutant and
the baseline each in a run of its own, two at a time (a mutant's asks only what it catches);
the tests below read its rows. The mutants are measured over kafka:4.4.0: tansu advertises
neither API and noida fails X1 (it lists the state name Dead back as unknown).
"""
from __future__ import annotations

from faults.mutants.transactions import OVER
from tests.family_matrix import Family

PROPS = ("X1", "X2")
FAMILY = Family("transactions", "conformance/test_transactions.py", over=OVER)

globals().update(FAMILY.tests(PROPS))
