"""Y1-Y4 can fail: every share and streams group mutant (faults/mutants/share_groups.py)
fails the property it names, where the same broker behind the transparent proxy passes it.

The suite runs as users run it (``python -m pytest conformance/test_share_groups.py --broker
proxy:MUTANT@kafka:4.4.0 --profile ci --seed 1``), once, with every mutant and the baseline
each in a run of its own, two at a time (a mutant's asks only what it catches); the tests
below read its rows. The mutants are measured over kafka:4.4.0: kafka:3.9.2 does not serve
these APIs, nor do tansu and noida.
"""
from __future__ import annotations

from faults.mutants.share_groups import OVER
from tests.family_matrix import Family

PROPS = ("Y1", "Y2", "Y3", "Y4")
FAMILY = Family("share_groups", "conformance/test_share_groups.py", over=OVER)

globals().update(FAMILY.tests(PROPS))
