"""The suite's pytest configuration: the plugin that owns brokers and result rows, the log
of every answer the suite sees (for properties that judge all traffic, e.g. P5), the schema
overlays' options (K2), ``--jobs`` for a broker matrix, and the per-check topic clean-up.
The one list is conformance/entry.py's, which an installed suite loads as a pytest plugin."""
from conformance.entry import SUITE_PLUGINS

pytest_plugins = list(SUITE_PLUGINS)
