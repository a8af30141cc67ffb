"""Reference data from released Apache Kafka, each row with its source."""
