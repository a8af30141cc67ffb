"""O1-O3 can fail: every ListOffsets mutant (faults/mutants/offsets.py) fails the properties
it names, where the same broker behind the transparent proxy passes them.

The suite runs as users run it (``python -m pytest conformance/test_list_offsets.py --broker
proxy:MUTANT@noida --profile ci --seed 1``), once, with every ListOffsets mutant and the
baseline each in a run of its own, two at a time (a mutant's asks only what it catches); the
tests below read its rows. The mutants are measured over noida: it answers O1-O3 as Kafka
does (tansu closes the connection on MAX_TIMESTAMP and on DeleteRecords) and starts in a
moment.
"""
from __future__ import annotations

from faults.mutants.offsets import OVER
from tests.family_matrix import Family

PROPS = ("O1", "O2", "O3")
FAMILY = Family("offsets", "conformance/test_list_offsets.py", over=OVER)

globals().update(FAMILY.tests(PROPS))
