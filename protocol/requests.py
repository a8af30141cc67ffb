"""Every request builder under one name: ``from protocol import requests as build``, then
``build.delete_topics(v, names=[...])``.

A builder lives in the family module that declares its API (``protocol/families/``), next to
that API's error codes and safe values, and says which API it builds
(``protocol.building.builds``); what every builder shares (the suite's timeout,
:class:`Inexpressible`, the topic id that names nothing) is ``protocol/building.py``'s. This
module only gathers them, by one explicit import list per family, so a property reads
``build.X`` whatever the family. Only the generic properties, which must send odd shapes on
purpose, write raw bodies.
"""
from __future__ import annotations

from .building import TIMEOUT_MS, ZERO_UUID, Inexpressible
from .families.acls import (ACL_CREATION_FIELDS, ACL_FILTER_FIELDS, AclOperation, AclPatternType, AclPermission,
                            AclResourceType, acl_entry, create_acl_bindings, create_acls, delete_acl_filters,
                            delete_acls, delete_exact_acls, describe_acl_filter, describe_acls, describe_all_acls)
from .families.client_quotas import alter_client_quotas, describe_client_quotas
from .families.cluster import CLIENT_SOFTWARE, api_versions, describe_cluster, update_features
from .families.configs import alter_configs, describe_configs, incremental_alter_configs
from .families.delegation_tokens import (create_delegation_token, describe_delegation_token, expire_delegation_token,
                                         renew_delegation_token)
from .families.groups import (Commit, alter_share_group_offsets, consumer_group_describe, delete_groups,
                              delete_share_group_offsets, describe_groups, describe_share_group_offsets,
                              find_coordinator, list_groups, offset_commit, offset_delete, offset_fetch,
                              share_group_describe, streams_group_describe)
from .families.log_dirs import (PREFERRED, UNCLEAN, alter_partition_reassignments, elect_leaders,
                                list_partition_reassignments)
from .families.participants import (add_partitions_to_txn, consumer_group_heartbeat, consumer_subscription, end_txn,
                                    init_producer_id, join_group, leave_group, produce, share_group_heartbeat,
                                    sync_group)
from .families.scram_credentials import alter_scram_credentials, describe_scram_credentials
from .families.topics import (create_partitions, create_topics, delete_records, delete_topics, delete_topics_entries,
                              list_offsets, metadata, topic)
from .families.transactions import describe_producers, describe_transactions, list_transactions

__all__ = ["ACL_CREATION_FIELDS", "ACL_FILTER_FIELDS", "CLIENT_SOFTWARE", "PREFERRED", "TIMEOUT_MS", "UNCLEAN",
           "ZERO_UUID", "AclOperation", "AclPatternType", "AclPermission", "AclResourceType", "Commit",
           "Inexpressible", "acl_entry", "add_partitions_to_txn", "alter_client_quotas", "alter_configs",
           "alter_partition_reassignments", "alter_scram_credentials", "alter_share_group_offsets", "api_versions",
           "consumer_group_describe", "consumer_group_heartbeat", "consumer_subscription", "create_acl_bindings",
           "create_acls", "create_delegation_token", "create_partitions", "create_topics", "delete_acl_filters",
           "delete_acls", "delete_exact_acls", "delete_groups", "delete_records", "delete_share_group_offsets",
           "delete_topics", "delete_topics_entries", "describe_acl_filter", "describe_acls", "describe_all_acls",
           "describe_client_quotas", "describe_cluster", "describe_configs", "describe_delegation_token",
           "describe_groups", "describe_producers", "describe_scram_credentials", "describe_share_group_offsets",
           "describe_transactions", "elect_leaders", "end_txn", "expire_delegation_token", "find_coordinator",
           "incremental_alter_configs", "init_producer_id", "join_group", "leave_group", "list_groups",
           "list_offsets", "list_partition_reassignments", "list_transactions", "metadata", "offset_commit",
           "offset_delete", "offset_fetch", "produce", "renew_delegation_token", "share_group_describe",
           "share_group_heartbeat", "streams_group_describe", "sync_group", "topic", "update_features"]
