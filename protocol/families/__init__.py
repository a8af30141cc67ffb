"""One module per admin API family: each holds its APIs' declarations, request builders,
Kafka's error codes (with their sources) and the safe values of generated requests, and
registers them as one :class:`protocol.declaring.Family` (``FAMILY``).

``REGISTERED`` lists them in the order the docs present the families; ``protocol.apis``
builds the one declaration table from it. Adding an API to a family is that family's module
(docs/CONTRIBUTING-properties.md, "Adding an API"); a new family is a module here and one line
below. ``participants`` holds the APIs the suite speaks as a producer, a consumer or a group
member (and SASL), which no admin family owns.
"""
from __future__ import annotations

from . import (acls, client_quotas, cluster, configs, delegation_tokens, groups, log_dirs, participants,
               scram_credentials, topics, transactions)

REGISTERED = tuple(m.FAMILY for m in (topics, configs, acls, client_quotas, scram_credentials, delegation_tokens,
                                      cluster, log_dirs, groups, transactions, participants))

__all__ = ["REGISTERED"]
