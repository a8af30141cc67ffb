"""One row of S1 (a :class:`Row`): the check behind it (``fixtures/harness.py``'s ``Check``),
its focus API and the invariants it watches, the versions S1 may send (the broker's advertised
range ∩ the suite's schemas), what a fresh topic looks like on this broker (learnt from a
probe topic: the broker count from Metadata, the config defaults from DescribeConfigs), the
examples it runs, and its failures as the row's message and counterexample
(``docs/results.md``: ``input.steps`` are the operations ``--replay`` re-runs).
"""
from __future__ import annotations

from fixtures import waiting
from fixtures.harness import Counterexample, Unsupported, Violation
from protocol import apis, requests, schema_facts
from protocol.apis import ApiKey
from protocol.codec import APIS
from protocol.errors import Errors, error_name
from protocol.wire import INT16_MAX
from reference import error_codes
from reference.broker_config import DELETE_TOPIC_ENABLE, DELETION_REFUSED

from .. import cluster_model as cm
from .run import Run, abbreviate
from .steps import S1, Strategies

#: How long an observation may take to match the model (Kafka applies metadata and
#: config changes asynchronously); shorter while shrinking a failure already confirmed
#: (the minimal sequence is confirmed again with the full time before it is reported).
SETTLE_SECONDS, SETTLE_WHILE_SHRINKING = waiting.SETTLE_S, 0.4
#: Once a request went unanswered, shrinking waits this long for answers (a silent
#: broker would otherwise cost a full request timeout per try); the minimal sequence is
#: confirmed with the full ``--request-timeout`` before it is reported.
SHRINK_REQUEST_TIMEOUT = 2.0
#: The lowest ListOffsets version the log rows' invariant reads offsets with (the first
#: whose answer has one ``offset`` per partition; v0 lists ``old_style_offsets``).
LIST_OFFSETS_SINCE = schema_facts.first_version_with(ApiKey.ListOffsets, "topics.partitions.offset",
                                                     schema_facts.RESPONSE)
#: The last lines of the script a failing row's message shows.
SCRIPT_LINES_IN_MESSAGE = 12


class Row:
    """S1's side of one check (one result row: the broker and the focus API): the versions it
    may send, what a fresh topic looks like, the example being run, the failures found."""

    #: The operations its examples send, and the model they keep.
    operations = S1
    model_class = cm.Model
    #: Steps per example, by profile.
    steps = {"ci": 10, "dev": 20, "release": 40}

    def __init__(self, check, focus: int):
        self.check = check
        self.focus = focus
        self.profile = check.context.budget.profile
        self.watch_configs, self.watch_logs = self._watches(focus)
        self.ranges = self._ranges()
        self.client = check.client()
        self.defaults = cm.Defaults()
        #: The request shapes of the known deviations of this broker (two colliding names in
        #: one CreateTopics, AlterConfigs naming a resource twice): their dedicated checks
        #: ask them every run, S1 leaves them out (reference/known_deviations.py).
        self.avoided_shapes = check.avoided_shapes
        self.failures = 0
        self.first_failure: dict | None = None
        self.last_failure: dict | None = None
        self.setup_script: list[str] = []
        self.current_run: Run | None = None
        self.shrinking = False          # a failure was confirmed: candidates get short settles

    def _ranges(self) -> dict[int, tuple[int, int]]:
        out = {}
        wanted = {o.api: (o.min_version, o.max_version) for o in self.operations.all}
        wanted[ApiKey.ListOffsets] = (LIST_OFFSETS_SINCE, None)      # the log rows' invariant
        for api, (low, ceiling) in wanted.items():
            adv = self.check.broker.advertised(api)
            if adv is None:
                continue
            lo = max(adv[0], low)
            hi = min(adv[1], APIS[api].max_version, ceiling if ceiling is not None else INT16_MAX)
            if lo <= hi:
                out[api] = (lo, hi)
        return out

    def require(self) -> None:
        check = self.check
        check.require(self.focus)
        if self.focus not in self.ranges:
            raise Unsupported(f"no {apis.api_name(self.focus)} version both the broker and the suite's schemas have")
        for api in (ApiKey.Metadata, ApiKey.CreateTopics, ApiKey.DeleteTopics):
            if api not in self.ranges:
                raise Unsupported(f"S1 needs {api.name} to set up and observe topics; the broker does not advertise it")
        if not schema_facts.nullable(ApiKey.Metadata, self.ranges[ApiKey.Metadata][1], "topics"):
            raise Unsupported("S1 needs Metadata v1+ (all topics)")
        if self.watch_configs and (ApiKey.DescribeConfigs not in self.ranges or not schema_facts.has_field(
                ApiKey.DescribeConfigs, self.ranges[ApiKey.DescribeConfigs][1], "results.configs.config_source",
                schema_facts.RESPONSE)):
            raise Unsupported("the config rows of S1 need DescribeConfigs v1+")
        check.require_mutations()

    def _watches(self, focus) -> tuple[bool, bool]:
        """Does the row check DescribeConfigs of every topic, and the log's offsets, after every step?"""
        o = self.operations.by_key[focus]
        return o.config_row, o.log_row

    def strategies(self) -> Strategies:
        return Strategies(self)

    @property
    def machine_name(self) -> str:
        return f"S1{apis.api_name(self.focus)}"

    def example_ended(self, run: Run) -> None:
        """After an example's clean-up: nothing more for S1's rows."""

    # -- timing ------------------------------------------------------------------------------
    def settle_seconds(self) -> float:
        return SETTLE_WHILE_SHRINKING if self.shrinking else SETTLE_SECONDS

    def family_looks(self) -> list:
        """The invariants beyond topics, configs and the log (S2's admin families): none."""
        return []

    # -- learning what a fresh topic looks like -------------------------------------------------
    def learn(self) -> None:
        """Broker count from Metadata; a probe topic, created and deleted, shows that topics
        can be deleted; in config rows, DescribeConfigs of the fresh probe gives the config
        defaults. On a broker that shows ``delete.topic.enable=false`` the model predicts the
        refusal of every DeleteTopics (``reference/broker_config.py`` DELETION_REFUSED) and
        nothing is deleted, not even to clean up (every example has its own sub-prefix);
        a broker that refuses deletion while showing it enabled cannot be modelled."""
        run = Run(self, self.check.topic("s1-probe"))
        v = self.ranges[ApiKey.Metadata][1]
        # no topic asked, so none created: the schema's default flag, as S1 always sent it
        resp = run.send(ApiKey.Metadata, v, requests.metadata(v, [], allow_auto_topic_creation=True),
                        "(setup) Metadata")
        self.defaults.brokers = max(1, len(resp.get("brokers") or []))
        name = run.model.name("fresh")
        cv = self.ranges[ApiKey.CreateTopics][1]
        body = requests.create_topics(cv, [requests.topic(name)])
        line = f"(setup) CreateTopics v{cv} {{topics: [{name} (1 partition)]}}"
        try:
            run.send(ApiKey.CreateTopics, cv, body, line)
            with run.judging(f"{line} -> refused"):
                self.check.expect_field(["topics", "error_code"], [Errors.NONE], count=1,
                                        says=f"a plain topic {name} (1 partition) is created: NONE")
            run.script.append(f"{line} -> NONE")
            if self.watch_configs:
                self._learn_configs(run, name)
            deleted = self.delete_names([name])
            dv = self.ranges[ApiKey.DeleteTopics][1]
            # TOPIC_DELETION_DISABLED (or what v{dv} answers instead) from a broker that does not
            # show delete.topic.enable=false (that one is modelled: DELETION_REFUSED): Kafka's
            # default deletes, so the refusal is a finding, not a missing feature
            if deleted.get(name) in (Errors.TOPIC_DELETION_DISABLED, error_codes.answered_as(
                    ApiKey.DeleteTopics, Errors.TOPIC_DELETION_DISABLED, dv)):
                shows = DELETE_TOPIC_ENABLE.shown()
                with run.judging(f"(setup) DeleteTopics v{dv} {{topics: [{name}]}} -> {error_name(deleted[name])}"):
                    self.check.expect_field(
                        ["responses", {"name": name}, "error_code"], [Errors.NONE], count=1,
                        says=f"{name}, just created, is deleted: NONE (the broker shows "
                             f"{'delete.topic.enable=true' if shows else 'no delete.topic.enable, Kafka default true'}"
                             "; only delete.topic.enable=false refuses every deletion)")
        finally:
            self.setup_script = run.script
            try:
                self.delete_owned(run.model.owns)
            except Violation:
                pass

    def _learn_configs(self, run: Run, name: str) -> None:
        dv = self.ranges[ApiKey.DescribeConfigs][1]
        dbody = requests.describe_configs(dv, [(name, None)])
        dline = f"(setup) DescribeConfigs v{dv} {{resources: [{name} (all keys)]}}"

        seen = {}

        def look():
            seen["res"] = apis.result_for(ApiKey.DescribeConfigs, run.send(ApiKey.DescribeConfigs, dv, dbody, dline),
                                          name)
            self.check.expect_field(["results", {"resource_name": name}, "error_code"], [Errors.NONE], count=1,
                                    says=f"DescribeConfigs of the fresh topic {name}: NONE")
        with run.judging(f"{dline} -> refused"):
            self.check.poll(look, SETTLE_SECONDS)
        res = seen["res"]
        run.script.append(f"{dline} -> NONE ({len(res[0].get('configs') or [])} configs)")
        self.defaults.configs = {c["name"]: (c.get("value"), c.get("config_source"))
                                 for c in res[0].get("configs") or []}
        self.defaults.configs_known = True

    def delete_owned(self, owns) -> dict:
        """Delete the topics ``owns`` accepts; their DeleteTopics codes by name (none where
        the broker refuses every deletion)."""
        if DELETION_REFUSED.now() is not None:
            return {}
        v = self.ranges[ApiKey.Metadata][1]
        resp = self.client.answered(ApiKey.Metadata, v, requests.metadata(v))
        return self.delete_names(sorted(t["name"] for t in apis.results(ApiKey.Metadata, resp) if owns(t.get("name"))))

    def delete_names(self, names: list[str]) -> dict:
        if not names or DELETION_REFUSED.now() is not None:
            return {}
        dv = self.ranges[ApiKey.DeleteTopics][1]
        resp = self.client.answered(ApiKey.DeleteTopics, dv, requests.delete_topics(dv, names))
        return {r.get("name"): r["error_code"] for r in apis.results(ApiKey.DeleteTopics, resp)}

    # -- runs and failures ------------------------------------------------------------------------
    def new_run(self, sub: str | None = None) -> Run:
        self.check.examples += 1
        self.check.restart()
        self.current_run = Run(self, sub or self.check.topic("s1"))
        return self.current_run

    def record_failure(self, run: Run, problem: str, verdict: Violation) -> None:
        self.failures += 1
        self.shrinking = True
        if self.check.unanswered is not None:
            self.client.conn.set_timeout(min(SHRINK_REQUEST_TIMEOUT, self.check.request_timeout))
        if self.check.first_failure_at is None:
            self.check.first_failure_at = self.check.examples
        failure = {"sub": run.sub, "ops": list(run.ops), "script": list(run.script),
                   "requests": list(self.check.steps), "expect": list(self.check.expectations),
                   "problem": problem, "verdict": verdict}
        if self.first_failure is None:
            self.first_failure = failure
        self.last_failure = failure

    def header(self, sub: str) -> str:
        return f"# S1, focus {apis.api_name(self.focus)}; kac-.. is {sub}"

    def message(self, run: Run, problem: str) -> str:
        lines = run.script[-SCRIPT_LINES_IN_MESSAGE:]
        skipped = len(run.script) - len(lines)
        return "\n".join([abbreviate(problem, run.sub), self.header(run.sub)]
                         + ([f"   ... {skipped} earlier line(s)"] if skipped else []) + lines)

    def counterexample(self, failure: dict) -> Counterexample:
        return Counterexample({"sub": failure["sub"], "steps": failure["ops"]}, failure["requests"],
                              expect=failure.get("expect") or [],
                              script=[self.header(failure["sub"])] + failure["script"],
                              prefix=self.check.prefix)

    def keep_current(self) -> None:
        """The broker died during a run: keep that run's sequence as the counterexample."""
        run = self.current_run
        if run is not None:
            self.check.set_counterexample(self.counterexample(
                {"sub": run.sub, "ops": list(run.ops), "script": list(run.script),
                 "requests": list(self.check.steps), "expect": list(self.check.expectations)}))

    def violation(self, failure: dict, note: str = "") -> Violation:
        """The judge's verdict on ``failure`` (the sequence chosen to report) as the row's
        message: its problem, the script's last lines; the counterexample is its sequence."""
        self.check.set_counterexample(self.counterexample(failure))
        lines = failure["script"][-SCRIPT_LINES_IN_MESSAGE:]
        return failure["verdict"].restated("\n".join([abbreviate(failure["problem"], failure["sub"]) + note,
                                            self.header(failure["sub"])] + lines))
