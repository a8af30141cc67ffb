"""A nemesis: node faults at drawn times while a history runs (issue 58, part 3).

A fault strikes one node of a cluster the suite started and lasts ``down_s`` seconds:

* ``crash``: ``kill -9`` (no shutdown: the node's data as the crash left it), then the node
  starts again on its data;
* ``pause``: SIGSTOP, then SIGCONT (its sockets stay open and nothing answers, as in a long
  GC pause or a frozen VM; past the session timeout the controller fences the node);
* ``crash-all``: every node of the cluster crashes at once, then all start again on their
  data (a power cut: what the cluster acknowledged must be on some node's disk).

The schedule runs on a thread of its own, one fault after another from the history's start
(a fault starts at its ``at_s`` or when the one before it ended, whichever is later), and
every start and end is an event with its monotonic time, for the row and the picture.
:meth:`Nemesis.heal` lets the schedule run out, ends what is still going (a paused node
resumed, a crashed one restarted) and waits until every node answers and lists every broker
again.

The target is duck-typed (nothing here imports the suite): ``node_count()``, ``crash(n)``,
``pause(n)``, ``resume(n)``, ``restart(n)``, ``active_controller() -> int | None`` and
``wait_healed(within) -> None | str``, as
``fixtures/brokers/kafka.py`` has them (etcd's robustness tests call the same thing a
failpoint: ``tests/robustness/failpoint`` in etcd-io/etcd).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

KINDS = ("crash", "pause", "crash-all")


@dataclass(frozen=True)
class Fault:
    kind: str          # one of KINDS
    node: int          # 1-based; 0: the active controller when the fault strikes
    at_s: float        # after the history's start
    down_s: float      # how long the node stays down (crash: until its restart)

    @classmethod
    def of(cls, drawn: dict) -> "Fault":
        """A fault from its fields (strategies/node_faults.py draws them)."""
        if drawn["kind"] not in KINDS:
            raise ValueError(f"a fault is one of {KINDS}, not {drawn['kind']!r}")
        if int(drawn["node"]) < 0:
            raise ValueError(f"a fault's node is 1 or more, or 0 for the active controller, not {drawn['node']}")
        return cls(drawn["kind"], int(drawn["node"]), float(drawn["at_s"]), float(drawn["down_s"]))

    def describe(self) -> str:
        where = ("every node" if self.kind == "crash-all" else "the active controller" if self.node == 0
                 else f"node {self.node}")
        return f"{self.kind} {where} at {self.at_s:g} s for {self.down_s:g} s"


class Nemesis:
    """Runs ``faults`` against ``target`` from :meth:`start`; :meth:`heal` ends them."""

    def __init__(self, target, faults: list[Fault]):
        self.target = target
        self.faults = sorted(faults, key=lambda f: f.at_s)
        self.events: list[tuple[float, str]] = []      # (monotonic time, what happened)
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._down: dict[int, str] = {}                 # node -> kind, while a fault holds it
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.started_at: float | None = None

    def start(self) -> None:
        self.started_at = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="nemesis", daemon=True)
        self._thread.start()

    def _event(self, what: str) -> None:
        self.events.append((time.monotonic(), what))

    def _run(self) -> None:
        try:
            for f in self.faults:
                wait = self.started_at + f.at_s - time.monotonic()
                if wait > 0 and self._stop.wait(wait):
                    return
                self._strike(f)
                if self._stop.wait(f.down_s):
                    return              # heal() ends it
                for node in list(self._down):
                    self._end(node)
        except BaseException as exc:   # noqa: BLE001 - heal() reports it
            self.error = exc

    def _strike(self, f: Fault) -> None:
        with self._lock:
            nodes = range(1, self.target.node_count() + 1) if f.kind == "crash-all" else (self._node(f),)
            for node in nodes:
                if f.kind == "pause":
                    self.target.pause(node)
                    self._down[node] = "pause"
                else:
                    self.target.crash(node)
                    self._down[node] = "crash"
            self._event("crash-all nodes" if f.kind == "crash-all" else
                        f"{f.kind} node {nodes[0]}" + (" (the active controller)" if f.node == 0 else ""))

    def _node(self, f: Fault) -> int:
        """The node a fault strikes: its own, or (node 0) the one the quorum names its
        leader now (``active_controller()``; node 1 where the target names none)."""
        return f.node or self.target.active_controller() or 1

    def _end(self, node: int) -> None:
        with self._lock:
            kind = self._down.pop(node, None)
            if kind == "crash":
                self.target.restart(node)
                self._event(f"restart node {node}")
            elif kind == "pause":
                self.target.resume(node)
                self._event(f"resume node {node}")

    def heal(self, within: float = 120.0) -> str | None:
        """Let the schedule run out (every fault strikes and ends, however soon the history
        ended: within ``within`` s, then the rest is called off), end what still holds a
        node, and wait until the cluster is whole: None, or what is still wrong (the
        nemesis's own error included)."""
        if self._thread is not None:
            self._thread.join(timeout=within)
            self._stop.set()
            self._thread.join(timeout=within)
        for node in list(self._down):
            self._end(node)
        if self.error is not None:
            return f"the nemesis failed: {type(self.error).__name__}: {self.error}"
        problem = self.target.wait_healed(within)
        self._event("healed" if problem is None else f"not healed: {problem}")
        return problem

    def struck(self, kind: str) -> int:
        """How many faults of ``kind`` struck (drawn ones called off are not counted)."""
        return sum(what.startswith(kind + " ") for _, what in self.events)

    def on_the_active_controller(self) -> int:
        """How many faults struck the node that led the quorum then (drawn as node 0)."""
        return sum(what.endswith("(the active controller)") for _, what in self.events)

    def schedule(self) -> list[dict]:
        """What struck when, in seconds from the history's start (for the row)."""
        t0 = self.started_at or 0.0
        return [{"at_s": round(t - t0, 3), "event": what} for t, what in self.events]


__all__ = ["Fault", "KINDS", "Nemesis"]
