"""A pytest plugin for the mutation score's baseline runs: ask only the tests of some APIs.

``pytest conformance -p faults.select_apis --only-apis 19,44 --broker proxy:none@SPEC``
deselects every test whose ``api_key`` parameter names another API (a test without one
stays). A baseline whose every mutant names the APIs it touches (``Mutant.apis``) asks only
their tests (``faults.mutation.Baselines``): a mutant's run asks those tests first and stops
at the first of them that it kills (``faults/stop_at_kill.py``), so the rest of a whole
baseline decided nothing. A kill counts only on a test the baseline asked: a mutant that
failed only the tests of other APIs (through their set-up traffic) would be scored again
over a whole baseline, as one whose kills proved flaky is.
"""
from __future__ import annotations

import pytest


def pytest_addoption(parser):
    parser.addoption("--only-apis", default=None, metavar="KEYS",
                     help="ask only the tests whose api_key is one of these API keys (comma-separated)")


def api_key(item) -> int | None:
    """The API key a test checks (its ``api_key`` parameter), None for a test without one."""
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("api_key") if callspec is not None else None


@pytest.hookimpl(trylast=True)       # after the suite's own selection (--property, -k)
def pytest_collection_modifyitems(config, items):
    keys = config.getoption("--only-apis")
    if not keys:
        return
    wanted = {int(k) for k in keys.split(",") if k.strip()}

    keep = [i for i in items if api_key(i) is None or api_key(i) in wanted]
    if len(keep) < len(items):
        kept = set(map(id, keep))
        config.hook.pytest_deselected(items=[i for i in items if id(i) not in kept])
        items[:] = keep
