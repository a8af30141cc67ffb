"""L1-L5 can fail: every ACL mutant (faults/mutants/acls.py) fails the properties it names,
where the same broker behind the transparent proxy passes them.

The suite runs as users run it (``python -m pytest conformance/test_acls.py --broker
proxy:MUTANT@kafka:4.4.0,preset=acl --profile ci --seed 1``), once, with every ACL mutant
and the baseline each in a run of its own, two at a time (a mutant's asks only what it
catches); the tests below read its rows. The mutants are measured over Apache Kafka with the
``acl`` preset: it is the only target with an authorizer (noida answers SECURITY_DISABLED,
tansu does not serve DeleteAcls), so each broker is a Kafka JVM of its own.
"""
from __future__ import annotations

from faults.mutants.acls import OVER
from tests.family_matrix import Family

PROPS = ("L1", "L2", "L3", "L4", "L5")
#: L4's dedicated check of create-acls-any-or-match-binding-fails-the-whole-request fails on
#: Kafka by design (its rows are the known deviation's, not the baseline's to pass)
FAMILY = Family("acls", "conformance/test_acls.py", over=OVER,
                leave_out="test_l4_a_binding_with_any_or_match_is_refused_alone")

globals().update(FAMILY.tests(PROPS))
