"""Malformed answers (issue 11): schema-valid responses whose *content shape* is wrong.

The codec decodes strictly, so a broker's malformed answer still decodes; what is wrong is
what it holds: no per-item results at all, results under names that were never asked, a
nested list (DeleteRecords' partitions, Metadata's partitions, DescribeConfigs' configs)
left empty, or the entry a check needs missing or repeated. A check that reads such an
answer must fail the property (``fail``, "no result for topic X") through the validating
path (:func:`protocol.apis.result_for`, :mod:`conformance.wellformed`), never stumble
over it (a KeyError would be an ``error`` row, a suite bug). Each of these is killed by
P2 (the well-formedness check of every admin answer); ``tests/test_malformed_answers.py``
runs the properties that read these answers through each and requires no ``error`` row.
(``result-missing``, ``result-duplicated`` and ``result-extra`` in
:mod:`faults.mutants.protocol` are the same family for one entry.)
"""
from __future__ import annotations

from protocol import schema_facts
from protocol.apis import SPECS, ApiKey, items
from .mutant import Mutant, mutant, with_items, with_results

#: every admin API whose answer lists per-item results (protocol.apis.SPECS)
ALL_ITEM_APIS = tuple(SPECS)

#: the nested list of each entry that a check reads (per partition, per config)
NESTED = {ApiKey.Metadata: "partitions", ApiKey.DeleteRecords: "partitions",
          ApiKey.DescribeConfigs: "configs"}


@mutant
class ResultsEmptied(Mutant):
    """Answers every admin request with an empty per-item results array."""
    name = "results-emptied"
    catches = ("P2",)
    apis = ALL_ITEM_APIS

    def response(self, seen, body):
        return with_results(seen.api_key, body, lambda rs: [])


@mutant
class ResultsRenamed(Mutant):
    """Names every per-item result after an item the request never named (the name + "-x")."""
    name = "results-renamed"
    catches = ("P2",)
    apis = ALL_ITEM_APIS

    def response(self, seen, body):
        key = SPECS[seen.api_key].item

        def renamed(e):
            return {**e, key: e[key] + "-x"} if isinstance(e.get(key), str) else e
        if any(isinstance(e.get(key), str) for e in items(seen.api_key, body)):
            return with_items(seen.api_key, body, renamed)


@mutant
class NestedEmptied(Mutant):
    """Leaves the nested per-partition (Metadata, DeleteRecords) or per-config
    (DescribeConfigs) list of every result empty."""
    name = "nested-emptied"
    catches = ("P2",)
    apis = tuple(NESTED)

    def response(self, seen, body):
        field = NESTED[seen.api_key]
        if any(e.get(field) for e in items(seen.api_key, body)):
            return with_items(seen.api_key, body, lambda e: {**e, field: []} if e.get(field) else e)


@mutant
class ResultsUnnamed(Mutant):
    """Answers DeleteTopics v6+ (where the schema lets a result's name be null) with
    results that name no topic at all. (Metadata v12+ could too, but every check that
    creates a topic would then wait 10 s per example for it to appear: too slow to score.)"""
    name = "results-unnamed"
    catches = ("P2",)
    apis = (ApiKey.DeleteTopics,)

    def response(self, seen, body):
        key = SPECS[seen.api_key].item
        nullable = schema_facts.nullable(seen.api_key, seen.api_version, schema_facts.results_path(seen.api_key, key),
                                         schema_facts.RESPONSE)
        if nullable and any(e.get(key) is not None for e in items(seen.api_key, body)):
            return with_items(seen.api_key, body, lambda e: {**e, key: None})
