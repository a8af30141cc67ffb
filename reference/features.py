"""Finalized features (KIP-584 "Versioning scheme for features") the F-family checks may
move, and those they never do.

``DOWNGRADABLE``: features a fresh Kafka 4.x cluster finalizes at level 1 or more and
accepts a safe downgrade of, and an upgrade back (no other feature depends on them at the
levels a fresh cluster finalizes: ``org.apache.kafka.server.common.Features.validateVersion``
checks only the updated feature's own dependencies). Measured on kafka:4.4.0: a
SAFE_DOWNGRADE of each to 0 answers NONE and ApiVersions stops listing it; UPGRADE to 1
answers NONE and lists it again. The checks take the first one the broker finalizes.

``NEVER_MOVED``: ``metadata.version`` (a downgrade rewrites the metadata log and may be
refused or lossy: ``FeatureControlManager.updateMetadataVersion``) and ``kraft.version``
(the quorum's own protocol, KIP-853): asked only in refusals, never accepted.
"""
from __future__ import annotations

DOWNGRADABLE = ("eligible.leader.replicas.version", "group.version")
NEVER_MOVED = ("metadata.version", "kraft.version")

#: UpdateFeaturesRequest.json UpgradeType (v1+); v0 says AllowDowngrade instead
UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE = 1, 2, 3
