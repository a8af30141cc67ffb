"""docs/properties.md, generated from the ``@pytest.mark.prop`` markers of the property modules.

    python -m conformance.catalogue            # print it
    python -m conformance.catalogue --write    # write docs/properties.md

The modules are read with ``ast`` (nothing is imported or run): each test function with a
``prop("ID", ...)`` marker gives a row with its module, name and the first paragraph of its
docstring. ``tests/test_catalogue.py`` fails when the checked-in file is not what this
writes, so the index cannot go stale.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "properties.md"
ORDER = "PVDRCTSAK"

HEADER = """# Properties as shipped

Generated from the `@pytest.mark.prop` markers by `python -m conformance.catalogue --write`
(`tests/test_catalogue.py` fails when this file is stale; `grep -rn 'prop("ID"' conformance/`
finds any of them). Sources are in each marker's `source` and in the result rows; Kafka's
behaviour behind them is in [reference-semantics.md](reference-semantics.md).

## What the ids mean

{families}
## Every property test

| id | module | test | what it checks |
|---|---|---|---|
"""

#: The catalogue's id families: letter -> (what they check, the sources behind them).
FAMILIES = {
    "P": ("the protocol itself, for every admin API at every version a broker advertises: answers "
          "decode (P1), are well formed with codes the API can return (P2), versions outside the "
          "advertised range are refused (P3), a logical request means the same at every version (P4), "
          "no error code newer than the request's version (P5), error messages where the version has "
          "the field (P6)", "Kafka's message schemas; KIP-482 (flexible versions), KIP-599, KIP-896"),
    "V": ("validate_only: no side effects (V1), the verdict the executed request gets (V2), each item "
          "of a batch judged alone (V3)", "KIP-201, KIP-339; Kafka's controller"),
    "D": ("DeleteTopics: unknown and repeated names, batches, deletion visible in Metadata, timeouts, "
          "topic ids", "KIP-4's DeleteTopics vote (KAFKA-2946), KIP-516; Kafka's ControllerApis"),
    "R": ("DeleteRecords and the log start offset (low watermark)", "Kafka's ReplicaManager, UnifiedLog"),
    "C": ("topic configs through IncrementalAlterConfigs, AlterConfigs and DescribeConfigs: a model of "
          "every change, concurrent writers, full replace, invalid input", "KIP-339; Kafka's "
          "ConfigurationControlManager, LogConfig"),
    "T": ("topic and partition creation: names, counts, replication factors, configs, collisions",
          "Kafka's ReplicationControlManager, Topic.validate"),
    "S": ("stateful: random sequences of admin requests keep the broker equal to a model after every step",
          "all of the above"),
    "A": ("configured brokers: policies refuse only what they refuse (A1), authorization hides and "
          "refuses as Kafka does (A2)", "KIP-108, KIP-133, KIP-201; Kafka's StandardAuthorizer"),
    "K": ("never-released KIPs, asked only of a broker that declares them: KIP-201's delete-side "
          "validate_only (K1), KIP-694's partition deletion (K2)", "KIP-201, KIP-694, KIP-584"),
}


def _families() -> str:
    return "".join(f"- **{k}**: {what} ({src}).\n" for k, (what, src) in FAMILIES.items())

FOOTER = """
Properties that need a configured broker run on Apache Kafka targets with a preset
(docs/kafka.md): A1 with `preset=policy`; A2 with `preset=acl` (StandardAuthorizer, SASL/PLAIN,
a super user and a restricted principal); P5's version-gated codes with `preset=nodelete`
and `preset=quota`. Everywhere else their rows are `unsupported`, saying which preset they
need; P5's traffic rows are `unsupported` where nothing in the run provoked a code they gate.
K1 and K2 (never released) run only on a broker that declares them (a KIP-584 feature in
ApiVersions v3+, `conformance/capabilities.py`); K2 passes through the emulating
`proxy:k2@SPEC` (`faults/emulate.py`) and is `unsupported` on every released broker.
"""


def _prop(decorator) -> str | None:
    if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr == "prop" and decorator.args
            and isinstance(decorator.args[0], ast.Constant)):
        return decorator.args[0].value
    return None


def rows(root: Path = ROOT) -> list[tuple[str, str, str, str]]:
    out = []
    for path in sorted((root / "conformance").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            ids = [p for p in map(_prop, node.decorator_list) if p]
            if not ids:
                continue
            doc = (ast.get_docstring(node) or "").split("\n\n")[0]
            what = re.sub(r"\s+", " ", doc).strip().replace("|", "\\|")
            out.append((ids[0], f"conformance/{path.name}", node.name, what))
    return sorted(out, key=lambda r: (ORDER.find(r[0][0]) if r[0][0] in ORDER else 99,
                                      int(re.sub(r"\D", "", r[0]) or 0), r[0], r[2]))


def render(root: Path = ROOT) -> str:
    body = "".join(f"| {i} | `{m}` | `{t}` | {w} |\n" for i, m, t, w in rows(root))
    return HEADER.format(families=_families()) + body + FOOTER


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if "--write" in argv:
        OUT.write_text(text, encoding="utf-8")
        print(f"catalogue: {len(rows())} tests -> {OUT.relative_to(ROOT)}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
