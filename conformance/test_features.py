"""F1-F3: finalized features (KIP-584 "Versioning scheme for features") as UpdateFeatures
changes them and ApiVersions (v3+) lists them.

* F1: ``validate_only`` (v1+, KIP-778 "KRaft to KRaft Upgrades") answers the verdict and
  changes nothing: ``FeatureControlManager.updateFeatures`` returns no record when
  validating.
* F2: an update the cluster cannot apply (a feature it does not support, a lower level
  without a downgrade type, a higher level with one, a level below 0) is refused as the
  release line's and mode's rule says (``reference/modes.py`` ``UPDATE_FEATURES_REFUSAL``):
  on KRaft from 4.0 the whole request at the top level with INVALID_UPDATE_VERSION and
  nothing of it applied (the controller stops at the first refused update), on KRaft 3.x
  and in ZooKeeper mode each refused update alone (INVALID_UPDATE_VERSION; INVALID_REQUEST).
  (The issue asked for "fails alone"; Kafka 4.x's quorum controller fails the request, and
  Kafka wins.)
* F3: an accepted update is what ApiVersions then lists: a safe downgrade to 0 removes the
  feature from ``finalized_features`` (level 0 is "not finalized"), the upgrade back lists it
  at its level again, on every broker.

The features moved are ``reference/features.py``'s (never ``metadata.version`` or
``kraft.version``), each put back as it was; a made-up feature carries the run prefix.
"""
from __future__ import annotations

import pytest
from hypothesis import strategies as st

from fixtures.admin import Admin
from fixtures.harness import Unsupported
from fixtures.waiting import VISIBLE_S
from protocol import ApiKey, Errors, schema_facts
from protocol import requests as build
from protocol.errors import error_name
from reference.known_deviations import UPDATE_FEATURES_V0_DOWNGRADE
from reference.features import DOWNGRADABLE, NEVER_MOVED, SAFE_DOWNGRADE, UPGRADE
from reference.modes import UPDATE_FEATURES_REFUSAL

from .parametrize import every_version
from protocol.kafka_sources import KAFKA as K

CONTROLLER = K + "metadata/src/main/java/org/apache/kafka/controller/FeatureControlManager.java"
VALIDATE_SOURCE = CONTROLLER + " (updateFeatures: validateOnly -> no records)"
REFUSAL_SOURCE = (CONTROLLER + " (updateFeature); " + K + "clients/src/main/java/org/apache/kafka/common/requests/"
                  "UpdateFeaturesResponse.java (createWithErrors); " + K + "core/src/main/scala/kafka/controller/"
                  "KafkaController.scala (processFeatureUpdates, ZooKeeper mode)")
FOLLOW_SOURCE = (CONTROLLER + " (replay: FeatureLevelRecord); " + K + "core/src/main/scala/kafka/server/"
                 "ApiVersionManager.scala (finalizedFeatures)")


class Features:
    """One check's view of the finalized features: ApiVersions v3+ of every broker, and
    UpdateFeatures at the version judged."""

    def __init__(self, check, version: int):
        self.check, self.version = check, version
        self.admin = Admin(check)
        self.av = self.admin.version(ApiKey.ApiVersions, at_least=3)

    def finalized(self, admin: Admin | None = None) -> tuple[int, dict[str, int]]:
        """ApiVersions of ``admin``'s broker: its step and ``{feature: max level}``."""
        a = admin or self.admin
        answer = a.client.answered(ApiKey.ApiVersions, self.av, build.api_versions(self.av))
        return self.check.last_step, {f["name"]: f["max_version_level"] for f in answer.get("finalized_features") or []}

    def movable(self, finalized: dict[str, int]) -> str:
        """The first feature of ``DOWNGRADABLE`` the broker finalizes at level 1 or more."""
        for name in DOWNGRADABLE:
            if finalized.get(name, 0) >= 1:
                return name
        raise Unsupported(f"the broker finalizes none of {', '.join(DOWNGRADABLE)} (ApiVersions v{self.av} lists "
                          f"{sorted(finalized) or 'no feature'}): no feature the suite may move")

    def update(self, updates: list[tuple[str, int, int]], validate_only: bool = False) -> dict:
        return self.admin.client.answered(ApiKey.UpdateFeatures, self.version, build.update_features(
            self.version, updates, validate_only=validate_only))

    def expect_accepted(self, feature: str, says: str) -> None:
        self.check.expect_field(["error_code"], [Errors.NONE], says=says)
        if _per_feature(self.version):
            self.check.expect_field(["results", {"feature": feature}, "error_code"], [Errors.NONE], count=1,
                                    says=f"{says}: {feature}'s result NONE")

    def put_back(self, before: dict[str, int]) -> None:
        """Upgrade back every movable feature a failed example left below its level in
        ``before`` (a broker that applied what it refused)."""
        _, now = self.finalized()
        for name in DOWNGRADABLE:
            if now.get(name, 0) < before.get(name, 0):
                self.update([(name, before[name], UPGRADE)])

    def expect_unchanged(self, before: dict[str, int], says: str) -> None:
        """After a barrier (a topic created and listed: the metadata log is applied in order,
        so a feature record written before it is applied too), every broker's ApiVersions lists
        the finalized features of ``before`` at the same levels, and no other."""
        self.admin.create_topic(self.check.topic("barrier"))
        for a in self.admin.everywhere():
            self.finalized(a)
            self.check.expect_field(["finalized_features", "name"], sorted(before), count=len(before),
                                    says=f"{says}: the finalized features are still {sorted(before)}")
            for name, level in sorted(before.items()):
                self.check.expect_field(["finalized_features", {"name": name}, "max_version_level"], [level], count=1,
                                        says=f"{says}: {name} still at level {level}")


def _per_feature(version: int) -> bool:
    """Whether UpdateFeatures' answer at ``version`` lists a result per feature (v2 lists none)."""
    return schema_facts.has_field(ApiKey.UpdateFeatures, version, "results", side="response")


# -- F1 -----------------------------------------------------------------------------------

@pytest.mark.prop("F1", source=VALIDATE_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.UpdateFeatures,)))
def test_f1_validate_only_update_features_answers_and_changes_nothing(check, api_key, version):
    """UpdateFeatures at this version (v1+) with validate_only of a safe downgrade of a
    finalized feature to 0 answers NONE (the verdict F3's executed request gets), and the
    finalized features are afterwards what they were."""
    check.require(api_key, version)
    if not schema_facts.has_field(ApiKey.UpdateFeatures, version, "validate_only"):
        raise Unsupported("UpdateFeatures v0 has no validate_only (v1+, KIP-778)")
    f = Features(check, version)

    def judged(_):
        _, before = f.finalized()
        feature = f.movable(before)
        f.update([(feature, 0, SAFE_DOWNGRADE)], validate_only=True)
        f.expect_accepted(feature, f"validate_only safe downgrade of {feature} to 0: NONE, as executed")
        f.expect_unchanged(before, "after validate_only")

    check.once(None, judged)


# -- F2 -----------------------------------------------------------------------------------

#: the kinds of refused update: (upgrade type, level given the feature's current one, which
#: feature: "made-up" or "finalized", the first version that can say it)
KINDS = {
    "a feature the cluster does not support": (UPGRADE, lambda cur: 1, "made-up", 0),
    "a level below 0": (UPGRADE, lambda cur: -1, "made-up", 0),
    "a lower level without a downgrade type": (UPGRADE, lambda cur: cur - 1, "finalized", 0),
    "a higher level with a downgrade type": (SAFE_DOWNGRADE, lambda cur: cur + 1, "finalized", 1),
}


def _f2_examples(version: int, finalized: dict[str, int]):
    """F2's examples at ``version``: the kinds it can say and the broker can be asked (a
    finalized feature at level 1+ for the kinds that move one)."""
    real = any(finalized.get(n, 0) >= 1 for n in (*DOWNGRADABLE, *NEVER_MOVED))
    kinds = [k for k, (_, _, which, since) in KINDS.items() if version >= since and (real or which == "made-up")]
    return st.fixed_dictionaries({"kind": st.sampled_from(kinds), "companion": st.booleans(),
                                  "first": st.booleans(), "validate_only": st.booleans()
                                  if schema_facts.has_field(ApiKey.UpdateFeatures, version, "validate_only")
                                  else st.just(False)})


@pytest.mark.prop("F2", source=REFUSAL_SOURCE)
@pytest.mark.parametrize("api_key,version", every_version((ApiKey.UpdateFeatures,)))
def test_f2_a_refused_update_is_answered_as_kafka_does_and_changes_nothing_it_refuses(check, api_key, version):
    """UpdateFeatures at this version with one update the cluster cannot apply (a feature it
    does not support, a level below 0, a lower level without a downgrade type, a higher one
    with a downgrade type), alone or beside an acceptable safe downgrade, executed or
    validate_only: on KRaft from 4.0 the request answers INVALID_UPDATE_VERSION at the top
    level with no per-feature result and nothing of it is applied; on KRaft 3.x the refused
    update answers INVALID_UPDATE_VERSION alone, in ZooKeeper mode INVALID_REQUEST alone
    (``reference/modes.py`` UPDATE_FEATURES_REFUSAL). Afterwards the finalized features are what they
    were (the acceptable one put back where it was applied)."""
    check.require(api_key, version)
    check.require_mutations()
    f = Features(check, version)
    rule = UPDATE_FEATURES_REFUSAL.now()

    def judged(value):
        _, before = f.finalized()
        try:
            _refused(check, f, rule, version, value, before)
        finally:
            f.put_back(before)

    check.given(_f2_examples(version, f.finalized()[1]), judged, first={"kind": "a feature the cluster does not support",
                                                     "companion": True, "first": True, "validate_only": False})


def _refused(check, f: Features, rule, version: int, value: dict, before: dict[str, int]) -> None:
    """F2's example: the request with the refused update, and what the rule says of it."""
    upgrade_type, level_of, which, _ = KINDS[value["kind"]]
    if which == "made-up":
        feature = check.topic("feature")
    else:
        real = [n for n in (*DOWNGRADABLE, *NEVER_MOVED) if before.get(n, 0) >= 1]
        if not real:
            raise Unsupported(f"the broker finalizes no feature at level 1+ (ApiVersions lists {sorted(before)}): "
                              f"cannot ask {value['kind']}")
        feature = real[0]
    refused = (feature, level_of(before.get(feature, 0)), upgrade_type)
    updates = [refused]
    companion = None
    v0_downgrade_avoided = version == 0 and UPDATE_FEATURES_V0_DOWNGRADE in check.avoided_shapes
    if value["companion"] and not v0_downgrade_avoided and any(before.get(n, 0) >= 1 for n in DOWNGRADABLE):
        companion = next((n for n in DOWNGRADABLE if before.get(n, 0) >= 1 and n != feature), None)
    if companion is not None:
        updates.insert(0 if value["first"] else 1, (companion, 0, SAFE_DOWNGRADE))
    f.update(updates, validate_only=value["validate_only"])
    what = f"{value['kind']} ({feature} to {refused[1]})"
    if rule.whole:
        check.expect_field(["error_code"], [rule.code],
                           says=f"{what}: the whole request answers {rule.code} {error_name(rule.code)}")
        if _per_feature(version):
            check.expect_field(["results", "error_code"], count=0,
                               says="no per-feature result when the top level is an error (createWithErrors)")
        f.expect_unchanged(before, f"after a request refused for {what}")
        return
    check.expect_field(["error_code"], [Errors.NONE], says=f"{what}: refused alone, the top level NONE")
    check.expect_field(["results", {"feature": feature}, "error_code"], [rule.code], count=1,
                       says=f"{what}: answers {rule.code} {error_name(rule.code)}")
    if companion is None:
        f.expect_unchanged(before, f"after {what} was refused")
        return
    check.expect_field(["results", {"feature": companion}, "error_code"], [Errors.NONE], count=1,
                       says=f"the safe downgrade of {companion} beside it is applied alone")
    if not value["validate_only"]:
        f.update([(companion, before[companion], UPGRADE)])
    f.expect_unchanged(before, f"after {what} was refused and {companion} put back")


# -- F3 -----------------------------------------------------------------------------------

V0_DOWNGRADE = "update-features-v0-allow-downgrade-ignored"


@pytest.mark.prop("F3", source=FOLLOW_SOURCE, judges=(ApiKey.ApiVersions,))
@pytest.mark.parametrize("api_key,version", [p for p in every_version((ApiKey.UpdateFeatures,)) if p.values[1] >= 1])
def test_f3_finalized_features_follow_an_accepted_update(check, api_key, version):
    """UpdateFeatures at this version of a safe downgrade of a finalized feature to 0 answers
    NONE and every broker's ApiVersions then stops listing it; the upgrade back to its level
    answers NONE and every broker lists it at that level again (within a few seconds: brokers
    apply the controller's records asynchronously). v0 is the check below."""
    _follow(check, api_key, version)


@pytest.mark.prop("F3", source=f"{FOLLOW_SOURCE}; known deviation {V0_DOWNGRADE} ({K}metadata/src/main/java/org/"
                               "apache/kafka/controller/QuorumController.java updateFeatures reads upgradeType(), "
                               "which v0 does not carry; UpdateFeaturesRequest.getFeature maps v0's allowDowngrade)")
@pytest.mark.known_deviation(V0_DOWNGRADE)
@pytest.mark.parametrize("api_key,version", [p for p in every_version((ApiKey.UpdateFeatures,)) if p.values[1] == 0])
def test_f3_a_v0_update_allowing_a_downgrade_is_accepted_and_followed(check, api_key, version):
    """F3 at v0, which has no upgrade type: ``allow_downgrade`` says a safe downgrade
    (``UpdateFeaturesRequest.getFeature``). The downgrade to 0 answers NONE and ApiVersions
    stops listing the feature; the upgrade back lists it again. KRaft Kafka 4.x ignores
    ``allow_downgrade`` and refuses the downgrade (a reviewed known deviation): every other
    check leaves that shape out on it."""
    _follow(check, api_key, version)


def _follow(check, api_key: int, version: int) -> None:
    check.require(api_key, version)
    check.require_mutations()
    f = Features(check, version)

    def judged(_):
        _, before = f.finalized()
        feature = f.movable(before)
        level = before[feature]
        answer = f.update([(feature, 0, SAFE_DOWNGRADE)])
        moved = answer.get("error_code") == Errors.NONE
        try:
            f.expect_accepted(feature, f"safe downgrade of {feature} from {level} to 0")
            for a in f.admin.everywhere():
                check.poll(lambda a=a: (f.finalized(a), check.expect_field(
                    ["finalized_features", {"name": feature}, "name"], count=0,
                    says=f"ApiVersions no longer lists {feature} (level 0 is not finalized)")), within=VISIBLE_S)
            f.update([(feature, level, UPGRADE)])
            moved = False
            f.expect_accepted(feature, f"upgrade of {feature} back to {level}")
            for a in f.admin.everywhere():
                check.poll(lambda a=a: (f.finalized(a), check.expect_field(
                    ["finalized_features", {"name": feature}, "max_version_level"], [level], count=1,
                    says=f"ApiVersions lists {feature} at {level} again")), within=VISIBLE_S)
        finally:
            if moved:
                f.update([(feature, level, UPGRADE)])

    check.once(None, judged)
