//! Passes: the named, single-rule rewrites pipelines are made of.
//!
//! A pass gets the tool (already rewritten by the passes before it) and a
//! context that collects [`Degradation`]s. It either continues or asks the
//! pipeline to *fail closed* (the tool ships unchanged and non-strict).
//! Pass names are stable ids: they appear in degradations, `--explain`
//! output and, later, mutant names.

pub(crate) mod anthropic;
pub(crate) mod bedrock;
pub(crate) mod compat;
mod deepseek;
pub(crate) mod gate;
pub(crate) mod gemini;
mod growth;
pub(crate) mod lists;
mod lookaround;
pub(crate) mod names;
mod normalize;
mod notes;
mod objects;
pub(crate) mod openai;
mod responses;
mod root;
mod strict;
mod subset;

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::config::PipelineConfig;
use crate::degradation::{Action, Degradation};
use crate::lane::Lane;
use crate::lookup::Lookup;
use crate::schema::TooDeep;
use crate::tool::Tool;

/// What a pass asks of the pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// Go on with the next pass.
    Continue,
    /// Ship the tool exactly as it came in, without a strict flag.
    FailClosed(String),
}

/// One rewrite rule.
pub(crate) trait Pass: Send + Sync {
    /// Stable pass id (kebab-case).
    fn name(&self) -> &'static str;
    /// The oracle rule this pass exists for, when one does.
    fn rule(&self) -> Option<&'static str> {
        None
    }
    /// Rewrite `tool` in place.
    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep>;
    /// The pass's own declared mutation points: each a variant of this pass
    /// with one rule changed (a keyword dropped from a set, a gate negated,
    /// a precedence reversed, a merge order flipped, a post-step skipped).
    /// `wireshape mutants` runs every one against the evidence suite.
    #[allow(dead_code)] // read by `wireshape mutants` (issue 6)
    fn mutants(&self) -> Vec<PassMutant> {
        Vec::new()
    }
    /// The implementing type (never overridden): one id names one type.
    #[cfg(test)]
    fn type_name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }
}

/// Whether a pass whose every change is at a node `acts` accepts (its
/// depth, the node) may change anything in `schema`: one read-only walk
/// without pointers, stopped at the first such node, before the pass's
/// rewrite walk (most passes act on few tools). Exact: the first node a
/// pass acts on, it sees as the schema came in. `true` too when a node
/// lies past the depth limit: the pass's own walk then fails as it did.
pub(crate) fn may_act(schema: &Value, acts: &dyn Fn(usize, &Map<String, Value>) -> bool) -> bool {
    #[cfg(test)]
    if prechecks::OFF.get() {
        return true;
    }
    let found = crate::schema::any_node(schema, acts).unwrap_or(true);
    #[cfg(test)]
    prechecks::SKIPPED.set(prechecks::SKIPPED.get() + usize::from(!found));
    found
}

/// The test switch for [`may_act`]: whether the prechecks run, and how
/// many passes they skipped.
#[cfg(test)]
pub(crate) mod prechecks {
    use std::cell::Cell;

    thread_local! {
        pub(crate) static OFF: Cell<bool> = const { Cell::new(false) };
        pub(crate) static SKIPPED: Cell<usize> = const { Cell::new(0) };
    }
}

/// One declared mutation point: what changed (for the mutant's name, e.g.
/// `drop "allOf" from stripped keywords`) and the mutated pass.
#[allow(dead_code)] // read by `wireshape mutants` (issue 6)
pub(crate) struct PassMutant {
    pub(crate) change: String,
    pub(crate) pass: Box<dyn Pass>,
}

#[allow(dead_code)]
impl PassMutant {
    pub(crate) fn new(change: impl Into<String>, pass: impl Pass + 'static) -> Self {
        Self {
            change: change.into(),
            pass: Box::new(pass),
        }
    }

    /// `pass` with the switch `flag` flipped, named `change`.
    pub(crate) fn flip<P: Pass + Clone + 'static>(
        pass: &P,
        change: &str,
        flag: impl Fn(&mut P) -> &mut bool,
    ) -> Self {
        let mut m = pass.clone();
        let f = flag(&mut m);
        *f = !*f;
        Self::new(change, m)
    }

    /// One mutant per entry of the keyword set `set`, each with that entry
    /// dropped: `drop "<keyword>" from <what>`.
    pub(crate) fn drop_each<P: Pass + Clone + 'static>(
        pass: &P,
        what: &str,
        set: impl Fn(&mut P) -> &mut Vec<&'static str>,
    ) -> Vec<Self> {
        let len = set(&mut pass.clone()).len();
        (0..len)
            .map(|i| {
                let mut m = pass.clone();
                let kw = set(&mut m).remove(i);
                Self::new(format!("drop {kw:?} from {what}"), m)
            })
            .collect()
    }
}

/// What a pass can see and record.
pub(crate) struct Cx<'a> {
    pub(crate) lane: Lane,
    pub(crate) config: &'a PipelineConfig,
    pub(crate) tool_name: std::sync::Arc<str>,
    pub(crate) degradations: Vec<Degradation>,
    pass: &'static str,
    rule: Option<&'static str>,
}

impl<'a> Cx<'a> {
    pub(crate) fn new(lane: Lane, config: &'a PipelineConfig, tool_name: &str) -> Self {
        Self {
            lane,
            config,
            tool_name: tool_name.into(),
            degradations: Vec::new(),
            pass: "",
            rule: None,
        }
    }

    /// Set which pass subsequent records belong to.
    pub(crate) fn enter(&mut self, pass: &dyn Pass) {
        self.pass = pass.name();
        self.rule = pass.rule();
    }

    /// Run `inner` on `tool` from within the pass `owner`, its records its
    /// own: a pass whose change can give an earlier pass work again runs
    /// it once more, so that a second shaping finds none (idempotence).
    pub(crate) fn run_again(
        &mut self,
        inner: &dyn Pass,
        owner: &dyn Pass,
        tool: &mut Tool,
    ) -> Result<Step, TooDeep> {
        self.enter(inner);
        let step = inner.apply(tool, self);
        self.enter(owner);
        step
    }

    /// Record one degradation for the current pass.
    pub(crate) fn record(
        &mut self,
        path: &str,
        keyword: &str,
        action: Action,
        reason: impl Into<Cow<'static, str>>,
    ) {
        self.record_at(path.to_owned(), keyword, action, reason);
    }

    /// [`record`](Self::record), the path handed over instead of copied.
    pub(crate) fn record_at(
        &mut self,
        path: String,
        keyword: &str,
        action: Action,
        reason: impl Into<Cow<'static, str>>,
    ) {
        self.degradations.push(Degradation {
            tool: self.tool_name.clone(),
            lane: self.lane,
            path,
            keyword: keyword.to_owned(),
            action,
            reason: reason.into(),
            rule: self.rule.map(Cow::Borrowed),
            pass: Cow::Borrowed(self.pass),
            renamed_to: None,
        });
    }

    /// Record that the property key at `path` (`…/properties/<key>`) is
    /// sent as `to`.
    /// [`Cx::record`] under `rule` instead of the pass's own (when `Some`):
    /// a pass that enforces several recorded rules.
    pub(crate) fn record_under(
        &mut self,
        rule: Option<&'static str>,
        path: &str,
        keyword: &str,
        action: Action,
        reason: impl Into<Cow<'static, str>>,
    ) {
        self.record(path, keyword, action, reason);
        if let (Some(rule), Some(d)) = (rule, self.degradations.last_mut()) {
            d.rule = Some(Cow::Borrowed(rule));
        }
    }

    pub(crate) fn record_rename(
        &mut self,
        path: &str,
        to: &str,
        reason: impl Into<Cow<'static, str>>,
    ) {
        self.record(path, "properties", Action::Rewritten, reason);
        if let Some(d) = self.degradations.last_mut() {
            d.renamed_to = Some(to.to_owned());
        }
    }

    /// Set `node[key] = value` (right after `after` when the key is new)
    /// unless it already holds that value, recording it as added or rewritten.
    pub(crate) fn set_keyword(
        &mut self,
        path: &str,
        node: &mut serde_json::Map<String, serde_json::Value>,
        (after, key): (&str, &str),
        value: serde_json::Value,
        reason: impl Into<Cow<'static, str>>,
    ) {
        if node.field(key) == Some(&value) {
            return;
        }
        let action = if node.has(key) {
            Action::Rewritten
        } else {
            Action::Added
        };
        crate::schema::insert_after(node, after, key, value);
        self.record(path, key, action, reason);
    }

    /// Append a model-facing note to the tool's description and record it.
    pub(crate) fn note(
        &mut self,
        tool: &mut Tool,
        text: &str,
        reason: impl Into<Cow<'static, str>>,
    ) {
        self.record("", "description", Action::Noted, reason);
        tool.append_note(text);
    }
}

#[cfg(test)]
#[allow(dead_code)]
pub(crate) mod test_support {
    //! Run one pass on a schema and get the result, for the per-pass tests.
    use super::*;
    use serde_json::Value;

    pub(crate) struct Ran {
        pub(crate) tool: Tool,
        pub(crate) step: Step,
        pub(crate) records: Vec<Degradation>,
    }

    impl Ran {
        pub(crate) fn schema(&self) -> &Value {
            &self.tool.input_schema
        }
        /// `(path, keyword, action)` of every record, in order.
        pub(crate) fn marks(&self) -> Vec<(String, String, Action)> {
            self.records
                .iter()
                .map(|d| (d.path.clone(), d.keyword.clone(), d.action))
                .collect()
        }
    }

    pub(crate) fn run_on_tool(pass: &dyn Pass, lane: Lane, mut tool: Tool) -> Ran {
        run_on_tool_with(pass, lane, &PipelineConfig::default(), &mut tool)
    }

    pub(crate) fn run_on_tool_with(
        pass: &dyn Pass,
        lane: Lane,
        config: &PipelineConfig,
        tool: &mut Tool,
    ) -> Ran {
        let mut cx = Cx::new(lane, config, &tool.name);
        cx.enter(pass);
        let step = pass.apply(tool, &mut cx).expect("depth");
        Ran {
            tool: tool.clone(),
            step,
            records: cx.degradations,
        }
    }

    pub(crate) fn run(pass: &dyn Pass, lane: Lane, schema: Value) -> Ran {
        run_on_tool(pass, lane, Tool::new("t", schema))
    }

    /// `(path, keyword, action)` triples as [`Ran::marks`] returns them.
    pub(crate) fn marks(list: &[(&str, &str, Action)]) -> Vec<(String, String, Action)> {
        list.iter()
            .map(|(p, k, a)| ((*p).to_owned(), (*k).to_owned(), *a))
            .collect()
    }

    /// Compact bytes of a value (key order preserved).
    pub(crate) fn bytes(v: &Value) -> String {
        serde_json::to_string(v).unwrap()
    }
}
