"""Kafka's rules as data, each with its source (apache/kafka paths, KIPs): error codes by API
and version, topic configs and names, release-line differences, never-released overlays, and
the reviewed list of released Kafka's own defects. Imports only :mod:`protocol`."""
from pathlib import Path

#: The reviewed defects of released Apache Kafka the suite finds (docs/kafka.md). reports/
#: reads the same file by path: it imports nothing of the suite.
KNOWN_DEVIATIONS = str(Path(__file__).with_name("kafka_known_deviations.json"))
