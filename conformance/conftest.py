"""The suite's pytest configuration: the plugin that owns brokers and result rows, the log
of every answer the suite sees (for properties that judge all traffic, e.g. P5), the schema
overlays' options (K2), ``--jobs`` for a broker matrix, and the per-check topic clean-up."""
pytest_plugins = ["fixtures.plugin", "fixtures.traffic", "conformance.overlays", "fixtures.matrix", "fixtures.tidy"]
