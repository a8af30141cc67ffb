"""Election faults that need a cluster of several brokers (catalogue E4): a preferred replica
that does not lead exists only where a partition has two replicas or more. An ElectLeaders
that elects the preferred replica but answers ELECTION_NOT_NEEDED (as if it led already).
Measured over ``kafka:4.4.0,nodes=3`` (the one-node mutants: ``reassignments.py``).
"""
from __future__ import annotations

from protocol.apis import ApiKey
from protocol.errors import Errors

from .mutant import KAFKA_OVER, declared
from .reassignments import PartitionRecoding

OVER = f"{KAFKA_OVER},nodes=3"


declared(PartitionRecoding, "elect-leaders-elected-answers-not-needed",
         """ElectLeaders answers a partition whose preferred replica it just made leader
         ELECTION_NOT_NEEDED instead of NONE.""",
         catches=("E4",), apis=(ApiKey.ElectLeaders,), over=OVER, recodes=(Errors.NONE, Errors.ELECTION_NOT_NEEDED))
