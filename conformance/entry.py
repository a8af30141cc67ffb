"""The suite's pytest plugins, and the ``pytest11`` entry point that loads them.

Installed (``pip install kafka-admin-conformance``), the suite runs from any directory:

    pytest --pyargs conformance --broker tansu --profile ci

Its options (``--broker``, ``--profile``, ...) must be known before pytest parses the
command line, but with ``--pyargs`` pytest finds ``conformance/conftest.py`` only when it
collects, too late for them. So this module, registered as the entry point
``kafka_admin_conformance`` (pyproject.toml), loads :data:`SUITE_PLUGINS` as soon as the
command line names the suite (``--pyargs conformance[...]`` or a path inside this package),
and does nothing in any other pytest run of the environment (a broker project's own tests).

From the checkout (``tox -e conformance``) ``conformance/conftest.py`` names the same
plugins; pytest registers a plugin under its module name once, so each loads exactly once
whichever comes first.
"""
from __future__ import annotations

from pathlib import Path

import pytest

#: the plugins of a conformance run, by module name (conformance/conftest.py uses this list)
SUITE_PLUGINS = ("fixtures.plugin", "fixtures.traffic", "conformance.overlays", "fixtures.matrix", "fixtures.tidy")

HERE = Path(__file__).resolve().parent


def names_the_suite(paths: list[str], pyargs: bool, invocation_dir: Path) -> bool:
    """Whether one of the command line's test paths is the suite: the package (or one of
    its modules) by name with ``--pyargs``, or a path inside this package's folder."""
    for arg in paths:
        base = str(arg).split("::", 1)[0]
        if pyargs and (base == HERE.name or base.startswith(HERE.name + ".")):
            return True
        try:
            path = (invocation_dir / base).resolve()
        except (OSError, RuntimeError, ValueError):
            continue
        if path == HERE or HERE in path.parents:
            return True
    return False


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    ns = early_config.known_args_namespace
    if names_the_suite(list(ns.file_or_dir or ()), bool(ns.pyargs), Path(early_config.invocation_params.dir)):
        for name in SUITE_PLUGINS:
            early_config.pluginmanager.import_plugin(name)
