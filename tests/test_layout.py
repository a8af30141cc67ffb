"""The layout's rules hold (README "Layout", docs/CONTRIBUTING-properties.md), read from the
source with ``ast``: dependencies run one way, and no module outside ``protocol/`` gives an
API key or an error code a number of its own."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from protocol import ApiKey, Errors

ROOT = Path(__file__).resolve().parent.parent
SUITE = ("protocol", "conformance", "strategies", "fixtures", "faults", "reports")

#: package -> the suite packages (or package prefixes) it may import
ALLOWED = {
    "protocol": ("protocol",),
    "strategies": ("strategies", "protocol", "conformance.reference"),
    "conformance.reference": ("conformance.reference", "protocol"),
    "reports": ("reports",),
}


def _modules(pkg: str):
    return sorted((ROOT / pkg.replace(".", "/")).rglob("*.py"))


def _imports(path: Path) -> list[str]:
    """Every suite module ``path`` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = list(path.relative_to(ROOT).with_suffix("").parts)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - node.level]
                mod = ".".join(base + ([node.module] if node.module else []))
                out += [mod] if node.module else [f"{mod}.{a.name}" for a in node.names]
            else:
                out.append(node.module or "")
    return [m for m in out if m.split(".")[0] in SUITE]


def _ok(mod: str, allowed: tuple[str, ...]) -> bool:
    return any(mod == a or mod.startswith(a + ".") for a in allowed)


@pytest.mark.parametrize("pkg", sorted(ALLOWED))
def test_dependencies_run_one_way(pkg):
    bad = [f"{p.relative_to(ROOT)} imports {m}" for p in _modules(pkg) for m in _imports(p)
           if not _ok(m, ALLOWED[pkg])]
    assert not bad, "\n".join(bad)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


NAMES = {e.name for e in Errors} | {_snake(k.name) for k in ApiKey}

#: The body of every exported repro.py runs with the standard library only and may not
#: import the suite; tests/test_repro.py checks its one key against ApiKey.
STANDALONE = {"fixtures/repro/runtime.py"}


def _restated(source: str) -> list[tuple[int, str, int]]:
    """(line, name, number) of every ``NAME = <int>`` whose NAME is an error's or an API's."""
    return [(node.lineno, t.id, node.value.value) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            and type(node.value.value) is int
            for t in node.targets if isinstance(t, ast.Name) and t.id in NAMES]


def test_no_module_outside_protocol_numbers_an_api_or_an_error():
    """``DELETE_TOPICS = 20`` or ``POLICY_VIOLATION = 44`` outside protocol/ restates
    Kafka's vocabulary; use ``ApiKey.DeleteTopics`` / ``Errors.POLICY_VIOLATION``."""
    bad = [f"{path.relative_to(ROOT)}:{line} {name} = {number}"
           for pkg in SUITE[1:] + ("tests",) for path in _modules(pkg)
           if str(path.relative_to(ROOT)) not in STANDALONE
           for line, name, number in _restated(path.read_text(encoding="utf-8"))]
    assert not bad, "\n".join(bad)


def test_the_checker_sees_a_restated_code():
    """The scan above can fail: numbering an error or an API is found, other constants are not."""
    assert _restated("POLICY_VIOLATION = 44\nDELETE_TOPICS = 20\nMAX_ITEMS = 3\n") == [
        (1, "POLICY_VIOLATION", 44), (2, "DELETE_TOPICS", 20)]
