"""S2's operation on finalized features: UpdateFeatures with validate_only (v1+, KIP-778
"KRaft to KRaft Upgrades") of a safe downgrade to 0 of a feature the suite may move
(``reference/features.py`` DOWNGRADABLE), which answers the verdict and applies nothing
(``FeatureControlManager.updateFeatures``: no record when validating; F1 asks it alone).
ApiVersions' finalized features are the family's invariant (``plane_invariants.py``): no
step of any family moves them (``reference/plane_rules.py`` FEATURES_STAY).
"""
from __future__ import annotations

from hypothesis import strategies as st

from protocol import ApiKey, Errors, schema_facts
from protocol import requests as build
from reference.features import DOWNGRADABLE, SAFE_DOWNGRADE

from .operation import FamilyOperation


class UpdateFeatures(FamilyOperation):
    api = ApiKey.UpdateFeatures
    family = "features"
    field = "features"
    min_version = schema_facts.first_version_with(ApiKey.UpdateFeatures, "validate_only")

    def enabled(self, row) -> bool:
        return super().enabled(row) and bool(row.movable_features)

    def draw(self, s, focused=False):
        return st.fixed_dictionaries({"api": st.just(self.name), "v": s.version(self.api, True),
                                      "validate_only": st.just(True),
                                      "features": st.lists(st.sampled_from(s.row.movable_features or DOWNGRADABLE),
                                                           min_size=1, max_size=1)})

    def resolve(self, run, op):
        return op if all(run.model.features.get(f, 0) >= 1 for f in op["features"]) else None

    def render(self, op, n):
        return "safe downgrade to 0: " + ", ".join(op["features"])

    def perform(self, run, op, line):
        v, check, feature = op["v"], run.check, op["features"][0]
        run.send(self.api, v, build.update_features(v, [(feature, 0, SAFE_DOWNGRADE)], validate_only=True), line)
        with run.judging(lambda: f"{line} -> not NONE"):
            check.expect_field(["error_code"], [Errors.NONE],
                               says=f"validate_only safe downgrade of {feature} to 0: NONE, as executed (F1)")
            if schema_facts.has_field(self.api, v, "results", side="response"):
                check.expect_field(["results", {"feature": feature}, "error_code"], [Errors.NONE], count=1,
                                   says=f"validate_only safe downgrade of {feature} to 0: its result NONE")
        self.settled(run, line, "NONE")
