"""S1: random sequences of admin requests keep the broker equal to a model of the cluster
(the property is ``conformance/test_stateful.py``; ``docs/stateful.md`` tells it in full).

A hypothesis ``RuleBasedStateMachine`` drives one broker with CreateTopics, DeleteTopics
(by name, and by id from v6: KIP-516 "Topic Identifiers"), CreatePartitions,
IncrementalAlterConfigs (SET/DELETE/APPEND/SUBTRACT: KIP-339 "Create a new
IncrementalAlterConfigs API"), AlterConfigs (the full replace), DescribeConfigs,
DeleteRecords, Produce (to grow log end offsets) and Metadata, each at a version the broker
advertises (advertised range ∩ the suite's schemas), validate_only on and off, batches with
bad items. The model (``conformance/cluster_model.py``) predicts every response entry's
error code from released Kafka 4.x (``docs/reference-semantics.md``, which cites the
apache/kafka source of every rule) and is updated from the answer; after every step the
invariants are checked. Where released Kafka's answer is not certain the model accepts
every candidate and follows the broker; the family properties (T, C, D, R, V) assert those
points.

Rows: one per broker and *focus* API (``api_key`` the focus, ``api_version`` null). In the
row of API X, X's requests are generated in full while the other APIs send plain valid
requests, so a deviation is reported in the row of the API that showed it; the rows of
APIs a broker does not advertise are ``unsupported``.

The package:

* ``operation.py``: what an operation is (:class:`~.operation.Operation`: its strategy,
  precondition, resolution against the model, script line, request and answer);
* ``topic_operations.py``, ``config_operations.py``, ``log_operations.py``: one class per
  API;
* ``steps.py``: every operation in draw order, the strategies of a row's steps, a step's
  script line;
* ``run.py``: one example (:class:`~.run.Run`): its model, operations and script, each
  answer checked against the model's prediction; :func:`~.run.play` runs recorded
  operations without hypothesis;
* ``expectations.py``: the model's answers as data, for reproducers;
* ``invariants.py``: Metadata, ListOffsets and DescribeConfigs against the model after
  every step;
* ``row.py``: one check (:class:`~.row.Row`): version ranges, a fresh topic's defaults,
  failures as the row's message and counterexample;
* ``interfaces.py``: what the operations, ``run.py``, ``expectations.py`` and
  ``invariants.py`` need of a row, an example and a row's strategies (typed interfaces
  that ``Row``, ``Run`` and ``Strategies`` satisfy, so no module imports one that imports it);
* ``minimise.py``: the pass after hypothesis's shrinker, and the confirming run;
* ``driver.py``: the state machine, :func:`~.driver.run_s1`, hypothesis's shrinking limit
  (set for a row and restored after it) and ``--replay``.

Adding an API to S1 is one class in an ``*_operations.py`` module, one
``cluster_model.Model`` method, and its place in ``steps.OPERATIONS``.
"""
from __future__ import annotations

from .driver import run_s1, run_s2
from .steps import FOCUS_KEYS

#: The row's source (docs/properties.md, result rows): the model's rules and their origin.
SOURCE = ("catalogue S1; docs/reference-semantics.md (apache/kafka ReplicationControlManager, "
          "ConfigurationControlManager, ControllerApis, ConfigAdminManager, ConfigHelper, KafkaApis, "
          "Partition.deleteRecordsOnLeader)")

#: S2's source: S1's, the families' and the cross-family rules' (reference/plane_rules.py).
S2_SOURCE = ("catalogue S2; " + SOURCE[len("catalogue S1; "):] + "; reference/plane_rules.py (apache/kafka "
             "OffsetMetadataManager, AclControlManager, ScramControlManager, ClientQuotaControlManager, "
             "FeatureControlManager, ReplicationControlManager); reference/acl_rules.py, quota_rules.py, "
             "scram_rules.py, group_rules.py")

__all__ = ["FOCUS_KEYS", "S2_SOURCE", "SOURCE", "run_s1", "run_s2"]
