"""The model the group properties (catalogue G) check a broker against: the offsets each
empty (simple) group holds, committed, deleted and fetched as Kafka's group coordinator does
(``reference/group_rules.py`` has the rules and their sources)."""
from __future__ import annotations

from dataclasses import dataclass, field

from reference.group_rules import Committed, delete_group_code, fetched, offset_delete_code

TP = tuple[str, int]


@dataclass
class GroupModel:
    """The groups a check made (no members): group -> {(topic, partition): (offset, metadata)}."""
    held: dict[str, dict[TP, Committed]] = field(default_factory=dict)

    def commit(self, group: str, offsets: dict[TP, Committed]) -> None:
        self.held.setdefault(group, {}).update(offsets)

    def delete_groups(self, groups: list[str]) -> dict[str, int]:
        """Each group's DeleteGroups code; the known ones go, offsets and all."""
        codes = {g: delete_group_code(g in self.held) for g in groups}
        for g in groups:
            self.held.pop(g, None)
        return codes

    def delete_offsets(self, group: str, partitions: list[TP]) -> int:
        """OffsetDelete's top-level code; a known group's offsets of ``partitions`` go."""
        code = offset_delete_code(group in self.held)
        for tp in partitions:
            self.held.get(group, {}).pop(tp, None)
        return code

    def fetch(self, group: str, asked: list[TP]) -> dict[TP, Committed]:
        return fetched(self.held.get(group, {}), asked)


__all__ = ["GroupModel"]
