module github.com/kafka-admin-conformance/porcupine-check

go 1.18

require github.com/anishathalye/porcupine v1.3.1
