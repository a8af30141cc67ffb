"""Every hypothesis generator of the suite: schema-driven message bodies (``schema``),
admin values confined to a run's topic prefix (``domain``), topic configs (``configs``),
error-provoking requests (``provoke``), T/V batches (``batches``) and S1's operations
(``stateful``). Imports only ``protocol`` and ``reference`` (pure data)."""
