"""The suite's pytest configuration: the plugin that owns brokers and result rows."""
pytest_plugins = ["fixtures.plugin"]
