"""The model the group properties (catalogue G) check a broker against: the offsets each
empty (simple) group holds, committed, deleted and fetched as Kafka's group coordinator does,
and which groups are consumer groups (KIP-848) or classic ones, as ConsumerGroupDescribe
answers them (``reference/group_rules.py`` has the rules and their sources)."""
from __future__ import annotations

from dataclasses import dataclass, field

from reference.group_rules import Committed, consumer_describe_answer, delete_group_code, fetched, offset_delete_code

TP = tuple[str, int]


@dataclass
class GroupModel:
    """The groups a check made (no members): group -> {(topic, partition): (offset, metadata)}."""
    held: dict[str, dict[TP, Committed]] = field(default_factory=dict)
    #: consumer groups (KIP-848) -> {member id: (subscribed topics, assigned partitions)}
    consumers: dict[str, dict[str, tuple[list[str], list[TP]]]] = field(default_factory=dict)
    #: classic groups with members (made by JoinGroup)
    classic: set[str] = field(default_factory=set)

    def consumer_describe(self, groups: list[str]) -> dict[str, tuple[int, list]]:
        """Each group's ConsumerGroupDescribe code and allowed messages, whatever the others are."""
        return {g: consumer_describe_answer(g, "consumer" if g in self.consumers else
                                            "classic" if g in self.classic or g in self.held else "unknown")
                for g in groups}

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
