"""U1-U3 can fail: every SCRAM mutant (faults/mutants/scram_credentials.py) fails the properties it
names, where the same broker behind the transparent proxy passes them.

The suite runs as users run it (``python -m pytest conformance/test_scram_credentials.py
--broker proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every SCRAM mutant
and the baseline each in a run of its own, two at a time (a mutant's asks only what it
catches); the tests below read its rows. The rows of the dedicated check of Kafka's known
deviation (``scram-upsertion-lost-when-a-deletion-empties- its-mechanism``: it fails on
released Kafka by design, ``reports/known.py`` accepts it) are left out on both sides: no
mutant counts as caught by it.
"""
from __future__ import annotations


from faults.mutants.scram_credentials import OVER
from reference import known_deviations
from tests.family_matrix import Family

PROPS = ("U1", "U2", "U3")
#: the known deviation's dedicated check fails on Kafka by design: its rows are left out
DEDICATED = known_deviations.entry("scram-upsertion-lost-when-a-deletion-empties-its-mechanism").test
FAMILY = Family("scram_credentials", "conformance/test_scram_credentials.py", over=OVER, leave_out=DEDICATED)

globals().update(FAMILY.tests(PROPS))
