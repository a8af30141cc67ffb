"""docs/properties.md is what the markers say (regenerate with ``python -m conformance.catalogue --write``)."""
from __future__ import annotations

from conformance import catalogue


def test_docs_properties_md_is_generated_from_the_markers():
    assert catalogue.OUT.read_text(encoding="utf-8") == catalogue.render(), (
        "docs/properties.md is stale: run python -m conformance.catalogue --write")


def test_every_property_test_has_a_row_and_a_description():
    rows = catalogue.rows()
    ids = {r[0] for r in rows}
    assert {"P1", "P5", "V1", "D1", "R1", "C1", "T1", "S1", "A1", "K1"} <= ids, ids
    assert all(r[3] for r in rows), [r[2] for r in rows if not r[3]]


def test_a_reproducers_what_it_checks_is_the_catalogues():
    """REPORT.md's "what it checks" line (fixtures/repro/export.py) is the catalogue's column
    for that test, read from the property modules themselves: the installed wheel carries them
    but not docs/properties.md (tests/test_package.py checks it there)."""
    from fixtures.repro import export
    rows = catalogue.rows()
    seen = export.what_each_test_checks()
    assert {t: w.replace("\\|", "|") for _, _, t, w in rows} == {t: seen.get(t) for _, _, t, _ in rows}
    assert export._what_it_checks(None) is None and export._what_it_checks("test_no_such_property") is None


#: the property ids every admin API has (P1-P6: the protocol itself)
GENERIC = frozenset({"P1", "P2", "P3", "P4", "P5", "P6"})
#: Admin APIs no property judges beyond P1-P6 yet (issue 28); listed only while that holds: an
#: API listed here that gains a property fails the test below, as does one that loses its own
WITHOUT_SEMANTICS: frozenset[str] = frozenset()


def semantic_properties() -> dict[str, set[str]]:
    """Each admin API's properties beyond P1-P6 (parametrised over it or judging its answers)."""
    from protocol import apis
    asked = catalogue._asked()
    return {k.name: asked.get(int(k), set()) - GENERIC for k in apis.keys(apis.Role.ADMIN)}


def test_every_admin_api_has_a_property_beyond_the_generic_ones_but_the_listed_gaps():
    """Every admin API the suite declares (tests/test_kafka_target.py checks they are those
    kafka:4.4.0 advertises in ApiVersions) has a property of its own; WITHOUT_SEMANTICS lists
    exactly those that do not yet."""
    bare = {name for name, props in semantic_properties().items() if not props}
    assert bare == WITHOUT_SEMANTICS, (f"gained a property (take out of WITHOUT_SEMANTICS): "
                                       f"{sorted(WITHOUT_SEMANTICS - bare)}; without one: {sorted(bare - WITHOUT_SEMANTICS)}")
