"""The suite's pytest configuration: the plugin that owns brokers and result rows, and the
log of every answer the suite sees (for properties that judge all traffic, e.g. P5)."""
pytest_plugins = ["fixtures.plugin", "fixtures.traffic", "fixtures.matrix", "fixtures.tidy"]
