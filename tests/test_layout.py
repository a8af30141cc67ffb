"""The layout's rules hold (README "Layout", docs/CONTRIBUTING-properties.md), read from the
source with ``ast``: dependencies run one way, one module name means one thing, and no
module outside ``protocol/`` gives an API key or an error code a number of its own."""
from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from protocol import ApiKey, Errors

ROOT = Path(__file__).resolve().parent.parent

#: The suite's packages from the bottom up. A package imports only itself and packages of
#: lower layers, never a sibling of its own layer: Kafka's vocabulary and wire format, then
#: Kafka's rules as data, then the generators and the fault injection, then what the tests
#: run against and with, then the properties.
LAYERS = (
    ("protocol",),
    ("reference",),
    ("strategies", "faults"),
    ("fixtures",),
    ("conformance",),
)
#: reports/ reads only result files and imports nothing of the suite; its row contract is
#: the one thing the writer of the rows (fixtures/results.py) takes from it.
STANDALONE = {"reports": ()}
EXCEPTIONS = {"fixtures": ("reports.row_schema",)}
SUITE = tuple(p for layer in LAYERS for p in layer) + tuple(STANDALONE)


def allowed(pkg: str) -> tuple[str, ...]:
    if pkg in STANDALONE:
        return (pkg,) + STANDALONE[pkg]
    level = next(i for i, layer in enumerate(LAYERS) if pkg in layer)
    return (pkg,) + tuple(p for layer in LAYERS[:level] for p in layer) + EXCEPTIONS.get(pkg, ())


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


def _violations(pkg: str) -> list[str]:
    return [f"{p.relative_to(ROOT)} imports {m}" for p in _modules(pkg) for m in _imports(p)
            if not _ok(m, allowed(pkg))]


@pytest.mark.parametrize("pkg", SUITE)
def test_dependencies_run_one_way(pkg):
    bad = _violations(pkg)
    assert not bad, "\n".join(bad)


def test_every_package_has_a_place_in_the_order():
    """A new top-level package with Python in it is placed in LAYERS (or STANDALONE), so the
    check above covers it; benchmarks/ and tests/ may import anything."""
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"benchmarks", "tests"}
    assert packages <= set(SUITE), f"not in the layer order: {sorted(packages - set(SUITE))}"


def test_the_order_check_can_fail():
    """The rule refuses what the layout forbids: upwards, sideways, and into reports/."""
    assert not _ok("conformance.test_topics", allowed("strategies"))      # upwards
    assert not _ok("faults.mutants", allowed("strategies"))               # a sibling of its layer
    assert not _ok("fixtures.results", allowed("faults"))                 # the old cycle
    assert not _ok("protocol", allowed("reports"))                        # reports stands alone
    assert _ok("faults.proxy", allowed("fixtures")) and _ok("reference.error_codes", allowed("strategies"))


# -- one name, one meaning ------------------------------------------------------------

#: Python's and pytest's own names, which every package may have.
CONVENTIONAL = {"__init__", "__main__", "conftest"}
#: A name that stands in two places for the same thing, and why.
SAME_MEANING: dict[str, str] = {
    "history": "fixtures/history/ and its history.py: the package of concurrent histories and the module of "
               "their format (issue 58)",
}


def _families() -> set[str]:
    """A property family's module name (conformance/test_<family>.py): its generators
    (strategies/), its mutants (faults/mutants/), its rules (reference/) and its model may
    carry the family's name."""
    return {p.stem[len("test_"):] for p in (ROOT / "conformance").glob("test_*.py")}


def _names() -> dict[str, list[str]]:
    where = defaultdict(list)
    for pkg in SUITE + ("benchmarks", "tests"):
        for p in _modules(pkg):
            where[p.stem].append(str(p.relative_to(ROOT)))
        for d in (ROOT / pkg).rglob("*"):
            if d.is_dir() and (d / "__init__.py").exists() and d != ROOT / pkg:
                where[d.name].append(str(d.relative_to(ROOT)) + "/")
    return where


def test_one_module_name_means_one_thing():
    """No two modules (or packages) share a name unless it is Python's own, a name listed
    with its one meaning, or a property family's name in each layer it spans."""
    families = _families()
    bad = [f"{name}: {', '.join(places)}" for name, places in sorted(_names().items())
           if len(places) > 1 and name not in CONVENTIONAL | set(SAME_MEANING)
           and not (name in families or name.startswith("test_") and name[5:] in families)]
    assert not bad, "module names with more than one meaning:\n" + "\n".join(bad)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


NAMES = {e.name for e in Errors} | {_snake(k.name) for k in ApiKey}

#: The judge's modules, the code of every exported repro.py, run with the standard library
#: only and may not import the suite; tests/test_repro.py checks the API keys they number against ApiKey.
STANDALONE_FILES = {str(p.relative_to(ROOT)) for p in (ROOT / "fixtures" / "judge").glob("*.py")}


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
           if str(path.relative_to(ROOT)) not in STANDALONE_FILES
           for line, name, number in _restated(path.read_text(encoding="utf-8"))]
    assert not bad, "\n".join(bad)


def test_the_checker_sees_a_restated_code():
    """The scan above can fail: numbering an error or an API is found, other constants are not."""
    assert _restated("POLICY_VIOLATION = 44\nDELETE_TOPICS = 20\nMAX_ITEMS = 3\n") == [
        (1, "POLICY_VIOLATION", 44), (2, "DELETE_TOPICS", 20)]


# -- one list of APIs ------------------------------------------------------------------

#: The one place APIs are declared; every list of them is derived from it.
DECLARING = "protocol/apis.py"


def _dispatch(node: ast.Dict) -> bool:
    """A dict from each API to its code (a builder, a generator, an ACL operation) is where
    that API's code lives, not a list of APIs."""
    return all(isinstance(v, (ast.Name, ast.Attribute, ast.Lambda)) for v in node.values)


def _api_key_literals(source: str) -> list[tuple[int, frozenset[str]]]:
    """(line, names) of every tuple/list/set literal, and every dict literal's keys (unless
    it maps each API to its code), naming three or more ``ApiKey.X``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        elts = (None if _dispatch(node) else node.keys) if isinstance(node, ast.Dict) else \
            node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else None
        names = [e.attr for e in elts or () if isinstance(e, ast.Attribute)
                 and isinstance(e.value, ast.Name) and e.value.id == "ApiKey"]
        if len(names) >= 3:
            out.append((node.lineno, frozenset(names)))
    return out


def _derived_lists() -> dict[frozenset[str], str]:
    """Every list of APIs the declarations answer, by the API names it holds."""
    from protocol import apis, schema_facts
    from protocol.codec import APIS
    lists = {"every declared API": apis.keys(),
             "APIs that change a cluster (mutates)": apis.keys(mutating=True),
             "admin APIs that change a cluster (MUTATING_KEYS)": apis.keys(apis.Role.ADMIN, mutating=True),
             "APIs with per-item results (SPECS)": tuple(apis.SPECS),
             "APIs naming topics by id (scope.BY_ID)": tuple(k for k in APIS if schema_facts.by_id_from(k))}
    lists.update({f"the {r.value} APIs (codec {r.value.upper()}_APIS)": apis.keys(r) for r in apis.Role})
    return {frozenset(ApiKey(k).name for k in keys): what for what, keys in lists.items()}


def test_no_second_list_of_the_declared_apis():
    """A literal of three or more ``ApiKey.X`` outside protocol/apis.py that holds exactly the
    APIs of a list the declarations answer (the admin APIs, the mutating ones, those with
    per-item results, ...) restates it: derive it (``protocol.apis.keys``, ``SPECS``,
    ``protocol.schema_facts``). A property's own choice of APIs is not such a list."""
    derived = _derived_lists()
    bad = [f"{path.relative_to(ROOT)}:{line} restates {derived[names]}"
           for pkg in SUITE + ("tests", "benchmarks") for path in _modules(pkg)
           if str(path.relative_to(ROOT)) != DECLARING
           for line, names in _api_key_literals(path.read_text(encoding="utf-8")) if names in derived]
    assert not bad, "\n".join(bad)


def test_the_checker_sees_a_second_list():
    """The scan above can fail: a restated list is found in a tuple, a set and a dict's keys."""
    source = ("A = (ApiKey.CreateTopics, ApiKey.DeleteTopics, ApiKey.DeleteRecords)\n"
              "B = {ApiKey.Produce: 'appends', ApiKey.Fetch: 'x', ApiKey.Metadata: 'y', ApiKey.OffsetCommit: 'z', "
              "ApiKey.DeleteTopics: 'w'}\n"
              "C = frozenset({ApiKey.Metadata, ApiKey.ApiVersions})\n"
              "D = {ApiKey.Produce: produce, ApiKey.Fetch: fetch, ApiKey.ListOffsets: offsets}\n")
    found = _api_key_literals(source)
    assert [line for line, _ in found] == [1, 2]
    assert found[1][1] in _derived_lists()          # the APIs naming topics by id; D maps each to its code


# -- one judge ---------------------------------------------------------------------------

#: Property modules not yet stating every verdict as data, each still deciding some verdicts
#: with ``expect(...)`` or ``raise Violation(...)``: issue 25 item 1 converted them all.
NOT_YET_JUDGED: set[str] = set()


def _verdicts_outside_the_judge(source: str) -> list[tuple[int, str]]:
    """(line, what) of every ``expect(...)`` call and every ``Violation(...)`` built (raised or
    not) in ``source``: a verdict decided outside the judge. Set-up failures
    (``expect_setup``, ``SetupFailed``) and a judge's verdict restated (``v.restated(...)``)
    are not verdicts of their own."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in ("expect", "Violation"):
                out.append((node.lineno, f"{name}(...)"))
    return sorted(out)


def test_every_verdict_of_a_property_is_the_judges():
    """No property decides a verdict outside the judge (fixtures.judge.judge, which
    every exported repro.py carries): a check states what a conforming broker answers as
    data (``check.expect_field`` ...) and the judge decides, so a row and its reproducer
    agree by construction (docs/results.md, "The judge")."""
    bad = [f"{path.relative_to(ROOT)}:{line} {what}"
           for path in _modules("conformance") if str(path.relative_to(ROOT)) not in NOT_YET_JUDGED
           for line, what in _verdicts_outside_the_judge(path.read_text(encoding="utf-8"))]
    assert not bad, "verdicts outside the judge (state them as expectations):\n" + "\n".join(bad)


def test_the_checker_sees_a_verdict_outside_the_judge():
    """The scan above can fail: ``expect(...)`` and ``raise Violation(...)`` are found, set-up
    failures and a restated verdict are not."""
    source = ("expect(a == b, 'x')\nraise Violation('y')\nexpect_setup(ok, 'z')\nraise SetupFailed('w')\n"
              "raise v.restated('v')\ncheck.expect_field(['a'], [0])\nharness.expect(c, 'd')\n")
    assert _verdicts_outside_the_judge(source) == [(1, "expect(...)"), (2, "Violation(...)"), (7, "expect(...)")]


# -- no import circle ------------------------------------------------------------------------

def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _at_import(tree: ast.AST):
    """Every node that runs when the module is imported, ``if TYPE_CHECKING:`` blocks included
    (a type checker follows them as the interpreter follows the rest): the module body, its
    ``if``/``try``/``with`` blocks and class bodies, not function bodies."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        yield node
        yield from _at_import(node)


def _import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the suite modules it imports at import time; ``sources`` maps each module's
    dotted name to (its source, whether it is a package's ``__init__``). ``from a import b``
    is an edge to ``a.b`` where that is a module, else to ``a``."""
    graph: dict[str, set[str]] = {}
    for name, (source, is_package) in sources.items():
        here = name.split(".") if is_package else name.split(".")[:-1]
        out: set[str] = set()
        for node in _at_import(ast.parse(source)):
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else [])) \
                    if node.level else node.module or ""
                out.update(f"{base}.{a.name}" if f"{base}.{a.name}" in sources else base for a in node.names)
        edges = set()
        for mod in out:
            while mod and mod not in sources:
                mod = mod.rpartition(".")[0]
            if mod and mod != name:
                edges.add(mod)
        graph[name] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import each other in a circle (a strongly connected
    component of more than one module, or one importing itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def _suite_sources() -> dict[str, tuple[str, bool]]:
    return {_module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for pkg in SUITE for p in _modules(pkg)}


#: Circles that stand, each with why; the test fails on any other, and on one listed here
#: that is gone (so the list cannot outlive its reason).
STANDING_CIRCLES: dict[frozenset[str], str] = {}


def test_no_import_circle():
    """No suite modules import each other in a circle, neither when imported nor in their
    ``TYPE_CHECKING`` blocks: a circle makes what a module holds depend on which of its
    members was imported first (a partially initialised module)."""
    found = _cycles(_import_graph(_suite_sources()))
    new = [c for c in found if frozenset(c) not in STANDING_CIRCLES]
    gone = [sorted(c) for c in STANDING_CIRCLES if list(sorted(c)) not in found]
    assert not new, "modules importing each other in a circle:\n" + "\n".join(" <-> ".join(c) for c in new)
    assert not gone, f"STANDING_CIRCLES lists circles that are gone: {gone}"


def test_the_checker_sees_an_import_circle():
    """The scan above can fail: a circle through a relative import, a ``TYPE_CHECKING`` block
    and a package's ``__init__`` is found; an import inside a function, a package importing
    its own module and a one-way chain are not circles."""
    sources = {
        "pkg": ("from . import a\n", True),
        "pkg.a": ("from .b import thing\n", False),
        "pkg.b": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.c import C\n", False),
        "pkg.c": ("import pkg.a\n", False),
        "pkg.d": ("def late():\n    from pkg import e\n", False),
        "pkg.e": ("from pkg import d\n", False),
        "pkg.f": ("from pkg.a import thing\n", False),
    }
    assert _cycles(_import_graph(sources)) == [["pkg.a", "pkg.b", "pkg.c"]]


# -- one module per admin API family ---------------------------------------------------------

FAMILIES_DIR = "protocol/families"


def _builder_names(source: str, every_public: bool = False) -> list[str]:
    """The public module-level functions of ``source`` that build a request: their first
    parameter is the version, ``v`` (in a family module every public function, which
    ``protocol.requests`` gathers only when it is registered)."""
    return [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
            and (every_public or n.args.args and n.args.args[0].arg == "v")]


def _misplaced(declared_in: dict[str, str], rows_in: dict[str, set[str]],
               builders: dict[str, tuple[str, tuple[str, ...]]], unregistered: list[str]) -> list[str]:
    """What is not in the module that declares its API: ``declared_in`` API -> the module
    declaring it; ``rows_in`` module -> the APIs its error-code rows and safe values are
    keyed by; ``builders`` builder -> (its module, the APIs it builds); ``unregistered``
    builders that say no API."""
    bad = [f"{module} has rows of {api}, declared in {declared_in.get(api, 'no family')}"
           for module, apis in sorted(rows_in.items()) for api in sorted(apis) if declared_in.get(api) != module]
    bad += [f"{name} ({module}) builds {api}, declared in {declared_in.get(api, 'no family')}"
            for name, (module, apis) in sorted(builders.items()) for api in apis if declared_in.get(api) != module]
    bad += [f"{name} builds a request but says of no API which (protocol.building.builds)" for name in unregistered]
    return bad


def test_every_admin_api_is_declared_built_and_coded_in_one_module():
    """An API's declaration, every builder of its requests (each says which API it builds:
    ``protocol.building.builds``) and its error-code rows and safe values are in one module,
    its family's (protocol/families/); no other module of protocol/ holds a builder, and no
    module outside the families writes an error-code row or a declaration."""
    from protocol import apis
    from protocol.building import BUILDERS
    declared_in = {k.name: f.module for k, f in apis.DECLARED_BY.items()}
    rows_in = {f.module: {ApiKey(k).name for k in f.keyed()} for f in set(apis.DECLARED_BY.values())}
    builders = {f"{fn.__module__}.{fn.__name__}": (fn.__module__, tuple(k.name for k in keys))
                for fn, keys in BUILDERS.items()}
    registered = set(builders)
    unregistered = [f"{_module_name(p)}.{name}" for p in _modules("protocol")
                    for name in _builder_names(p.read_text(encoding="utf-8"), every_public=FAMILIES_DIR in str(p))
                    if f"{_module_name(p)}.{name}" not in registered]
    bad = _misplaced(declared_in, rows_in, builders, unregistered)
    bad += [f"{p.relative_to(ROOT)}:{n.lineno} {n.func.id}(...) outside {FAMILIES_DIR}/"
            for pkg in SUITE if pkg != "reports" for p in _modules(pkg) if FAMILIES_DIR not in str(p)
            for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("ApiSpec", "ErrorRule")]
    assert not bad, "\n".join(bad)


def test_the_checker_sees_an_api_spread_over_modules():
    """The check above can fail: rows and a builder of an API declared elsewhere, and a
    builder that names no API, are found; a module's own are not."""
    declared_in = {"CreateTopics": "protocol.families.topics", "DescribeAcls": "protocol.families.acls"}
    rows_in = {"protocol.families.topics": {"CreateTopics", "DescribeAcls"}, "protocol.families.acls": {"DescribeAcls"}}
    builders = {"protocol.families.topics.create_topics": ("protocol.families.topics", ("CreateTopics",)),
                "protocol.families.acls.describe_acls": ("protocol.families.topics", ("DescribeAcls",))}
    assert _misplaced(declared_in, rows_in, builders, ["protocol.requests.delete_groups"]) == [
        "protocol.families.topics has rows of DescribeAcls, declared in protocol.families.acls",
        "protocol.families.acls.describe_acls (protocol.families.topics) builds DescribeAcls, declared in "
        "protocol.families.acls",
        "protocol.requests.delete_groups builds a request but says of no API which (protocol.building.builds)"]
    source = "def create_topics(v, topics): pass\ndef topic(name): pass\ndef _acl(v): pass\n"
    assert _builder_names(source) == ["create_topics"]
    assert _builder_names(source, every_public=True) == ["create_topics", "topic"]


# -- version numbers, module sizes, the protocol layer's words -------------------------

#: comparisons of a request version with a literal number allowed outside protocol/: a
#: field's first version is the schemas' (``protocol.schema_facts``), a rule's is
#: ``reference/``'s, asked by name
VERSION_LITERALS_MAX = 5


def _version_literals(source: str) -> list[int]:
    """The lines comparing a version (a name or attribute ending in ``version``) with an
    integer literal by ``<``, ``<=``, ``>`` or ``>=``."""
    def versioned(node) -> bool:
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        return name.lower().endswith("version")

    def literal(node) -> bool:
        return isinstance(node, ast.Constant) and type(node.value) is int
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for op, a, b in zip(node.ops, sides, sides[1:]):
                if isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) and (
                        versioned(a) and literal(b) or literal(a) and versioned(b)):
                    out.append(node.lineno)
    return out


def test_at_most_a_few_version_numbers_outside_protocol():
    found = [f"{path.relative_to(ROOT)}:{line}" for pkg in SUITE[1:] for path in _modules(pkg)
             for line in _version_literals(path.read_text(encoding="utf-8"))]
    assert len(found) <= VERSION_LITERALS_MAX, (
        f"{len(found)} comparisons of a version with a number outside protocol/ (at most "
        f"{VERSION_LITERALS_MAX}); ask schema_facts or a reference/ rule:\n" + "\n".join(found))


def test_the_counter_sees_a_version_number():
    assert _version_literals("if version >= 1:\n    pass\nx = 2 > seen.api_version\n"
                             "y = version >= since\nz = n >= 4\n") == [1, 3]


#: no module of the suite (tests and benchmarks aside) is longer than this many lines
MODULE_LINES_MAX = 600


def _long_modules(paths, limit: int = MODULE_LINES_MAX) -> list[str]:
    return [f"{p.relative_to(ROOT)}: {n} lines" for p in paths
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > limit]


def test_no_module_of_the_suite_is_over_600_lines():
    long = _long_modules(path for pkg in SUITE for path in _modules(pkg))
    assert not long, "split along a seam:\n" + "\n".join(long)


def test_the_size_check_sees_a_long_module():
    p = ROOT / "tests" / "test_layout.py"
    assert _long_modules([p], limit=10) and not _long_modules([p], limit=10 ** 6)


def _property_ids() -> list[str]:
    from conformance.catalogue import rows
    return sorted({r[0] for r in rows()})


def _naming_ids(source: str, ids) -> list[tuple[int, str]]:
    """(line, id) of every property id in ``source`` as a word of its own (``P6``, not
    ``P6x``; a family's one letter alone is no id)."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b")
    return [(i, m.group(1)) for i, line in enumerate(source.splitlines(), 1) for m in pattern.finditer(line)]




def test_the_protocol_layer_names_no_property():
    """protocol/ says Kafka's facts; which property asks one is the catalogue's to say."""
    ids = _property_ids()
    found = {str(path.relative_to(ROOT)): _naming_ids(path.read_text(encoding="utf-8"), ids)
             for path in _modules("protocol")}
    bad = [f"{p}:{line} {i}" for p, hits in found.items() for line, i in hits]
    assert not bad, "\n".join(bad)


def test_the_checker_sees_a_property_id():
    ids = _property_ids()
    assert {"P6", "S1", "Y4"} <= set(ids)
    assert _naming_ids("# what P6 needs\n# X and P and P60 and KIP-6 are no ids\n# (S1, Y4)\n", ids) == [
        (1, "P6"), (3, "S1"), (3, "Y4")]


# -- one reader of answers, one walker of item paths ---------------------------------------

#: kafka-python's ways into decoding a message: the suite decodes requests with them (the
#: proxy, protocol/codec.py ``decode_request``), never an answer.
LIBRARY_DECODING = re.compile(r"compiled_decode_from|parse_header\(|\.response\.decode\(|resp_cls\.decode\(")
#: Where item paths are walked: the walker, and the two that walk with it.
WALKED_WITH = ("protocol/item_keys.py", "fixtures/judge/matching.py")


def _library_decoders(sources: dict[str, str]) -> list[str]:
    return [f"{where}:{n}: {line.strip()}" for where, text in sorted(sources.items())
            for n, line in enumerate(text.splitlines(), 1) if LIBRARY_DECODING.search(line)]


def test_answers_are_read_by_one_reader_and_item_paths_walked_by_one_walker():
    """An answer is read by protocol/reader.py alone (the judge's form and, through
    ``codec.decode_response``, the suite's): no suite module decodes one with kafka-python's
    classes. Item paths are walked by protocol/walk.py alone: protocol/item_keys.py and the
    judge's ``items`` verdict walk with it, and both the reader and the walker are the
    standard-library modules every repro.py carries (fixtures/repro/export.py ``SHARED``)."""
    from fixtures.repro import export
    sources = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for pkg in SUITE for p in _modules(pkg)}
    assert not _library_decoders(sources), "an answer decoded outside protocol/reader.py:\n" + \
        "\n".join(_library_decoders(sources))
    for where in WALKED_WITH:
        tree = ast.parse(sources[where])
        assert any(isinstance(n, ast.ImportFrom) and [a.name for a in n.names] == ["walk_items"]
                   and ((n.module, n.level) == ("protocol.walk", 0)
                        or (n.module, n.level) == ("walk", 1) and where.startswith("protocol/"))
                   for n in tree.body), f"{where} walks item paths without protocol/walk.py"
    assert {str(p.relative_to(ROOT)) for p in export.SHARED.values()} == {"protocol/reader.py", "protocol/walk.py"}
    carried = export.judge_source()
    assert carried.count("\ndef decode_response(") == 1 and carried.count("\ndef walk_items(") == 1


def test_the_checker_sees_an_answer_decoded_with_the_library():
    """The check above can fail: kafka-python's response decoding is found, a request's
    decoding and the reader's own names are not."""
    assert _library_decoders({
        "a.py": "msg = a.response.decode(payload, version=v, header=True)\n",
        "b.py": "body = cls._struct.compiled_decode_from(v, compact=f, tagged=f, data_class=cls)\n",
        "c.py": "msg = a.request.decode(payload, version=v, header=True)\nreader.decode_response(s, k, v, p)\n",
    }) == ["a.py:1: msg = a.response.decode(payload, version=v, header=True)",
           "b.py:1: body = cls._struct.compiled_decode_from(v, compact=f, tagged=f, data_class=cls)"]
