"""S2: random sequences across the whole admin plane keep the broker equal to one model.

The operations (S1's on topics, configs and the log, and one per admin API of the ACL,
client quota, SCRAM, group, transaction, feature, delegation token, share group, group config,
client metrics, reassignment and consumer group families), the model of the plane, its invariants
and the cross-family rules with their Kafka sources are ``conformance/stateful/admin_plane.py, plane_*.py``
and ``reference/plane_rules.py``; ``docs/stateful.md`` ("S2") tells it in full. One row per
broker (``api_key`` null). On a Kafka release the row runs on the ``preset=acl`` companion,
whose authorizer serves the ACL family; elsewhere a family the broker does not serve is off
and the manifest's ``coverage_by_check`` says why, beside the steps, the families reached
and the rules hit (on a broker without an authorizer: "needs a broker with an authorizer,
kafka:VERSION,preset=acl"; the row itself is never unsupported for it).
"""
from __future__ import annotations

import pytest

from .stateful import S2_SOURCE, run_s2


@pytest.mark.prop("S2", source=S2_SOURCE)
@pytest.mark.needs_broker("preset=acl")
def test_s2_random_sequences_across_the_admin_plane_keep_the_broker_equal_to_one_model(check):
    """Random sequences of CreateTopics, DeleteTopics, CreatePartitions, config changes,
    produce and DeleteRecords among CreateAcls, DeleteAcls, AlterClientQuotas,
    AlterUserScramCredentials, OffsetCommit, DeleteGroups, AddPartitionsToTxn, EndTxn,
    validate_only UpdateFeatures, Create-, Renew- and ExpireDelegationToken, Alter- and
    DeleteShareGroupOffsets, group and client metrics configs, AlterPartitionReassignments
    and KIP-848 ConsumerGroupHeartbeat, each at any advertised version, on names shared
    across families: every answer is the model's and, after every step, every family's
    describe equals the model, a topic's deletion taking its offsets, share start offsets
    and consumer group assignments and leaving its ACLs, a re-created topic inheriting
    nothing, a group's deletion leaving its configs and refused while it has members, a
    name's group and client metrics configs apart, a reassignment to the replicas moving
    nothing, a user's credentials leaving its quotas, ACLs and tokens."""
    run_s2(check)
