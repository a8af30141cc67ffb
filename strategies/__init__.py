"""Hypothesis strategies: schema-driven message bodies (``schema``) and realistic admin
values and requests confined to a run's own topic prefix (``domain``)."""
