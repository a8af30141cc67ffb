"""The model the client quota properties (catalogue Q) check a broker against: the quota
values each entity holds, changed by AlterClientQuotas as Kafka's controller changes them
and read through DescribeClientQuotas as Kafka's metadata image lists them
(``reference/quota_rules.py`` has the rules and their sources)."""
from __future__ import annotations

from dataclasses import dataclass, field

from protocol import Errors
from reference.modes import QUOTA_DUPLICATE_KEY_REFUSED
from reference.release_lines import QUOTA_VALUES_CHECKED
from reference.quota_rules import QuotaEntity, alter_code, matches


def show(ent: QuotaEntity) -> str:
    return "{" + ", ".join(f"{t}={n!r}" for t, n in ent) + "}"


@dataclass
class QuotaModel:
    """The quotas a broker holds (of the entities a check made up): entity -> {key: value}."""
    held: dict[QuotaEntity, dict[str, float]] = field(default_factory=dict)
    #: the broker refuses a key named twice (its mode: reference/modes.py) and a value <= 0
    #: (its line and mode: reference/release_lines.py)
    values_checked: bool = field(default_factory=QUOTA_VALUES_CHECKED.now)
    duplicates_checked: bool = field(default_factory=QUOTA_DUPLICATE_KEY_REFUSED.now)

    def alter(self, entries: list[tuple[QuotaEntity, list]], validate_only: bool = False) -> list[int]:
        """The code of each entry; the valid ones are applied (unless ``validate_only``)."""
        codes = [alter_code(e, ops, self.values_checked, self.duplicates_checked) for e, ops in entries]
        if not validate_only:
            for (e, ops), code in zip(entries, codes):
                if code != Errors.NONE:
                    continue
                values = self.held.setdefault(e, {})
                for k, v in ops:
                    if v is None:
                        values.pop(k, None)
                    else:
                        values[k] = v
                if not values:
                    del self.held[e]
        return codes

    def of(self, ent: QuotaEntity) -> dict[str, float]:
        return dict(self.held.get(ent, {}))

    def describe(self, components, strict: bool) -> dict[QuotaEntity, dict[str, float]]:
        return {e: dict(v) for e, v in self.held.items() if matches(e, components, strict)}


__all__ = ["QuotaModel", "show"]
