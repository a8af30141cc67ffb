"""A broker that a request kills (issue 11): the row is ``fail`` only with evidence.

Independent brokers do panic on some requests (ENVIRONMENT.md: "expect one to drop a
connection or panic on some requests"). From the suite's side that looks exactly like a
broker killed from outside while the check waited, so the plugin starts a fresh broker of
the same target and re-sends the check's requests: only when the fresh broker dies again
is the row a ``fail`` (``fixtures/plugin/rows.py`` ``broker_gone``). This mutant is that
broker: it kills the broker behind the proxy (``self.target.kill()``) whenever it sees the
request, and so does the fresh instance's proxy.
"""
from __future__ import annotations

from protocol.apis import ApiKey
from .mutant import Frame, Mutant, mutant


@mutant
class CrashOnDeleteTopics(Mutant):
    """Kills the broker (SIGKILL to the inner target) when a DeleteTopics request arrives."""
    name = "crash-on-delete-topics"
    catches = ("P1",)
    apis = (ApiKey.DeleteTopics,)
    over = "tansu"

    def request(self, seen):
        if self.target is not None:
            self.target.kill()
        return Frame(None)
