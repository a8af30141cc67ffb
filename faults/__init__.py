"""Fault injection: the proxy that changes a real broker's answers (``proxy``), the named
faults it applies (``mutants``) and the mutation score that shows each is caught
(``mutation``). Nothing in the suite's normal path imports this package; the
``proxy:MUTANT@SPEC`` target loads it on demand."""
