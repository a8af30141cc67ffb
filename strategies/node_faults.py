"""Fault schedules for the nemesis (faults/nemesis.py, which reads each fault with
``Fault.of``): one or two faults, each a crash or a pause of a drawn node (or of the active controller,
whichever node leads the quorum when it strikes) or a crash of every node, at a drawn time
in the history, held for a drawn while. They shrink with the history: toward fewer faults,
a crash, the active controller, the earliest time, the shortest hold."""
from __future__ import annotations

from hypothesis import strategies as st

#: what the nemesis does to a node (faults/nemesis.py KINDS)
KINDS = ("crash", "pause", "crash-all")
#: when a fault strikes, after the history's start (its clients' operations span ~0-4 s): never at
#: once, so that writes acknowledged before it are there to survive it
AT_S = (1.0, 2.0, 3.0)
#: how long a node stays down: a crash's restart comes after it (a JVM's start is ~5 s more); 10 s
#: pauses a node past the broker session timeout (broker.session.timeout.ms, 9 s), so it is fenced
DOWN_S = (0.2, 1.0, 3.0, 10.0)


def fault(nodes: int):
    """One fault; node 0 is the active controller when it strikes (faults/nemesis.py)."""
    return st.fixed_dictionaries({"kind": st.sampled_from(KINDS), "node": st.integers(0, nodes),
                                  "at_s": st.sampled_from(AT_S), "down_s": st.sampled_from(DOWN_S)})


def schedules(nodes: int, most: int = 2):
    """1..``most`` faults on a cluster of ``nodes`` nodes, each a dict of ``Fault``'s fields."""
    return st.lists(fault(nodes), min_size=1, max_size=most)


__all__ = ["KINDS", "schedules"]
