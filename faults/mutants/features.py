"""Feature faults (catalogue F1-F3): a validate_only UpdateFeatures that applies, a refused
request that still applies its acceptable updates, and ApiVersions listing the finalized
features it first saw. Measured over kafka:4.4.0 (a fresh 4.x cluster finalizes the
features ``reference/features.py`` moves; noida and tansu serve no UpdateFeatures).
"""
from __future__ import annotations

from protocol.apis import ApiKey
from reference.features import DOWNGRADABLE, SAFE_DOWNGRADE

from .mutant import KAFKA_OVER, Mutant, mutant


def _acceptable(update: dict) -> bool:
    """A safe downgrade to 0 of a feature the suite moves (F2's acceptable companion)."""
    downgrade = update.get("upgrade_type") == SAFE_DOWNGRADE or update.get("allow_downgrade")
    return update.get("feature") in DOWNGRADABLE and update.get("max_version_level") == 0 and bool(downgrade)


@mutant
class UpdateFeaturesValidateOnlyApplies(Mutant):
    """UpdateFeatures with validate_only applies the update as if it were executed."""
    name = "update-features-validate-only-applies"
    catches = ("F1",)
    apis = (ApiKey.UpdateFeatures,)
    over = KAFKA_OVER

    def request(self, seen):
        if not seen.request.get("validate_only"):
            return None
        self.upstream(ApiKey.UpdateFeatures, seen.api_version, {**seen.request, "validate_only": False})
        return None      # the validate_only request itself goes on and is answered as usual


@mutant
class UpdateFeaturesRefusalNotAtomic(Mutant):
    """An UpdateFeatures request refused for one update still applies its acceptable ones (the
    answer is the refusal Kafka gives; the finalized features have moved)."""
    name = "update-features-refusal-not-atomic"
    catches = ("F2",)
    apis = (ApiKey.UpdateFeatures,)
    over = KAFKA_OVER

    def request(self, seen):
        updates = seen.request.get("feature_updates") or []
        kept = [u for u in updates if _acceptable(u)]
        if not kept or len(kept) == len(updates) or seen.request.get("validate_only"):
            return None
        self.upstream(ApiKey.UpdateFeatures, seen.api_version, {**seen.request, "feature_updates": kept})
        return None


@mutant
class ApiVersionsFinalizedFeaturesStale(Mutant):
    """ApiVersions lists the finalized features of the first answer it gave, whatever was
    updated since (a broker that never applies FeatureLevelRecords to what it advertises)."""
    name = "api-versions-finalized-features-stale"
    catches = ("F3",)
    apis = (ApiKey.ApiVersions,)
    over = KAFKA_OVER

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.first: list | None = None

    def response(self, seen, body):
        if "finalized_features" not in body:
            return None
        if self.first is None:
            self.first = body["finalized_features"]
            return None
        return {**body, "finalized_features": self.first}
