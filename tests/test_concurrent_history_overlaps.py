"""S3's row names the writes that overlapped a failing sub-history (conformance/concurrent_history.py
``overlapping_writes``): writes and deletes of the *other* keys of the failing key's entity whose
time met the sub-history's, and nothing else; the known deviation of ZooKeeper mode
(``s3-zookeeper-mode-history-loses-acknowledged-entity-writes``) needs one of them."""
from __future__ import annotations

from conformance.concurrent_history import overlapping_writes
from fixtures.history import Operation

T = ("config", "kac-1-s3-1")


def _op(client, key, kind, call, ret, entity=T):
    inp = {"op": kind, **({"value": "3601000"} if kind == "write" else {})}
    return Operation(client, (*entity, key), inp, None, call, ret)


def test_only_writes_of_the_entitys_other_keys_that_overlapped_are_named():
    lost = [_op(0, "segment.ms", "write", 1.0, 1.2), _op(1, "segment.ms", "read", 1.5, 1.6)]
    racing = _op(2, "retention.ms", "write", 0.9, 1.1)
    deleting = _op(3, "retention.ms", "delete", 1.4, 1.45)
    others = [_op(2, "retention.ms", "read", 1.0, 1.1),                      # a read changes nothing
              _op(4, "retention.ms", "write", 0.1, 0.2),                     # over before the sub-history
              _op(4, "retention.ms", "write", 1.7, 1.8),                     # after its last call
              _op(5, "segment.ms", "write", 1.1, 1.3),                       # the failing key itself
              _op(5, "retention.ms", "write", 1.1, 1.3, ("config", "kac-1-s3-2")),   # another topic
              _op(6, "producer_byte_rate", "write", 1.1, 1.3, ("quota", "kac-1-s3-user"))]
    assert overlapping_writes(lost + [racing, deleting] + others, lost) == [racing, deleting]


def test_a_lost_write_with_no_other_write_names_none():
    lost = [_op(0, "segment.ms", "write", 1.0, 1.2), _op(1, "segment.ms", "read", 1.5, 1.6)]
    assert overlapping_writes(lost, lost) == []
