"""The Kafka Improvement Proposals the properties follow, cited by number, title and page.

Every property names its source in its ``prop`` marker and in its result rows. Where that
source is a KIP, the text comes from here, so a row reads the same wherever the KIP is
cited and a reader can open the page. Some of these were released with changes (KIP-339
became IncrementalAlterConfigs with SET/DELETE/APPEND/SUBTRACT; KIP-4's DeleteTopics ended
up answering UNKNOWN_TOPIC_OR_PARTITION for an unknown topic) and some were never released
(KIP-201's delete-side validation, KIP-694's partition deletion). Where a KIP and released
Apache Kafka disagree, released Kafka is the reference and the property says so.
"""
from __future__ import annotations

from dataclasses import dataclass

CWIKI = "https://cwiki.apache.org/confluence/display/KAFKA/"


@dataclass(frozen=True)
class Kip:
    number: int
    title: str
    page: str           # the page's name under CWIKI
    released: str       # what became of it in Apache Kafka

    @property
    def url(self) -> str:
        return CWIKI + self.page

    @property
    def name(self) -> str:
        return f"KIP-{self.number}"

    def cite(self, detail: str = "") -> str:
        """``KIP-201 "Rationalising Policy interfaces"`` (+ ``: detail``)."""
        text = f'{self.name} "{self.title}"'
        return f"{text}: {detail}" if detail else text


KIP_4 = Kip(4, "Command line and centralized administrative operations",
            "KIP-4+-+Command+line+and+centralized+administrative+operations",
            "DeleteTopics v0 as voted on the dev list ('[VOTE] KIP-4 Delete Topics Schema', "
            "KAFKA-2946); released Kafka answers an unknown topic UNKNOWN_TOPIC_OR_PARTITION")
KIP_201 = Kip(201, "Rationalising Policy interfaces", "KIP-201%3A+Rationalising+Policy+interfaces",
              "never released (KAFKA-5693): no validate_only on DeleteTopics/DeleteRecords, no "
              "delete-topic policy")
KIP_339 = Kip(339, "Create a new IncrementalAlterConfigs API",
              "KIP-339%3A+Create+a+new+IncrementalAlterConfigs+API",
              "released in Kafka 2.3 as IncrementalAlterConfigs (API key 44) with "
              "SET/DELETE/APPEND/SUBTRACT; its first draft called it ModifyConfigs")
KIP_694 = Kip(694, "Support Reducing Partitions for Topics",
              "KIP-694%3A+Support+Reducing+Partitions+for+Topics",
              "never released: no DeletePartitions API, no API key assigned")

#: The KIP-4 DeleteTopics vote, which defined v0's batch semantics point by point.
KIP_4_DELETE_TOPICS = KIP_4.cite("DeleteTopics schema vote (KAFKA-2946)")
