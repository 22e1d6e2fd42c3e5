//! Pipelines: `(lane, tool) -> Shaped`.
//!
//! Built-in pipelines are *profiles* (`v0`, `v1`, `verbatim`) mapping each
//! lane to an ordered list of named passes. Running a pipeline never panics
//! and never aborts a batch: a panic inside a pass is caught and becomes
//! [`Outcome::Errored`] for that tool only; a schema nested past the depth
//! limit likewise.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub(crate) use crate::config::PipelineConfig;
use crate::degradation::Degradation;
use crate::error::UsageError;
use crate::lane::{Lane, Wire};
use crate::passes::{self, Cx, Pass, Step};
use crate::request::{RequestChange, RequestKind, RequestParts, RequestRule, ShapedRequest};
use crate::tool::Tool;

/// How shaping one tool ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// The pipeline produced a shaped tool.
    Shaped,
    /// By design: the tool ships unchanged and non-strict.
    FailedClosed { reason: String },
    /// A pass panicked, or the input broke a limit; the tool ships unchanged.
    Errored { message: String },
}

impl Outcome {
    pub fn id(&self) -> &'static str {
        self.kind().id()
    }

    /// Which of the three it is, without the reason or message.
    pub fn kind(&self) -> OutcomeKind {
        match self {
            Self::Shaped => OutcomeKind::Shaped,
            Self::FailedClosed { .. } => OutcomeKind::FailedClosed,
            Self::Errored { .. } => OutcomeKind::Errored,
        }
    }

    /// The pass a built-in pipeline failed closed in: its reason's text
    /// before the first `": "` (`deepseek-pre-gate: root is …` →
    /// `deepseek-pre-gate`). `None` for any other outcome, and for a
    /// reason without that separator (an external pipeline's own words).
    pub fn failed_in(&self) -> Option<&str> {
        match self {
            Self::FailedClosed { reason } => reason.split_once(": ").map(|(pass, _)| pass),
            _ => None,
        }
    }
}

/// An [`Outcome`] without its reason or message, as a report writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutcomeKind {
    Shaped,
    FailedClosed,
    Errored,
}

impl OutcomeKind {
    /// The stable id (`shaped`, `failed-closed`, `errored`).
    pub fn id(self) -> &'static str {
        match self {
            Self::Shaped => "shaped",
            Self::FailedClosed => "failed-closed",
            Self::Errored => "errored",
        }
    }
}

impl std::fmt::Display for OutcomeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// One tool after a pipeline: the tool to render, every degradation, the outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shaped {
    pub tool: Tool,
    pub degradations: Vec<Degradation>,
    pub outcome: Outcome,
}

impl Shaped {
    /// The lane's native tool object for this result.
    pub fn render(&self, lane: Lane) -> serde_json::Value {
        lane.render(&self.tool)
    }
}

/// Anything that shapes tools for a lane.
pub trait Pipeline {
    /// Stable pipeline id (`v0`, `v1`, `verbatim`, `cmd:…`).
    fn id(&self) -> String;
    /// Shape one tool for one lane. Never panics.
    fn shape(&self, lane: Lane, tool: &Tool) -> Shaped;
    /// Whether this pipeline shapes tools for `lane` (an external
    /// implementation may serve only some lanes). Default: every lane.
    fn serves(&self, lane: Lane) -> bool {
        let _ = lane;
        true
    }
    /// Whether [`Shaped::degradations`] says what this pipeline removed or
    /// rewrote, so a change without a record is a silent one (the
    /// never-silent invariant). An implementation that keeps no records
    /// answers `false`: its changes are judged by the value diff alone.
    fn reports_degradations(&self) -> bool {
        true
    }
    /// Shape the request around the tools (`tools` sent or not,
    /// `tool_choice`); every change made. Default: the request as built.
    fn shape_request(&self, lane: Lane, parts: &mut RequestParts) -> Vec<RequestChange> {
        let _ = (lane, parts);
        Vec::new()
    }
    /// The whole request this pipeline sends on `lane` for `kind`, around
    /// one catalog's tools: `tools[i]` is catalog tool `i` as this
    /// pipeline's [`shape`](Pipeline::shape) and `lane.render` give it,
    /// in catalog order (computed once by the caller). Default
    /// ([`build_request`]): the tools in that order, the
    /// kind's `tool_choice` and `response_format`, then
    /// [`shape_request`](Pipeline::shape_request). A client that reorders
    /// or rewrites the array per request overrides this.
    fn shape_whole_request(
        &self,
        lane: Lane,
        kind: RequestKind,
        tools: Vec<serde_json::Value>,
    ) -> ShapedRequest {
        build_request(self, lane, kind, tools)
    }
    /// Whether [`shape_whole_request`](Pipeline::shape_whole_request)
    /// sends every tool it is given as given, in that order or not at
    /// all, and reads no tool's value (only how many there are): then the
    /// whole-request comparison gives it stand-ins instead of parsed tools
    /// and writes the tools' own bytes into the body. A large catalog's
    /// parsed tools are hundreds of megabytes. Default `false`: the tools
    /// are parsed and rendered.
    fn requests_count_tools_only(&self) -> bool {
        false
    }
}

/// The built-in profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Profile {
    /// The previous release line.
    V0,
    /// The current line.
    V1,
    /// The identity pipeline.
    Verbatim,
}

impl Profile {
    pub const ALL: &'static [Profile] = &[Profile::V0, Profile::V1, Profile::Verbatim];

    pub fn id(self) -> &'static str {
        match self {
            Self::V0 => "v0",
            Self::V1 => "v1",
            Self::Verbatim => "verbatim",
        }
    }

    pub fn parse(id: &str) -> Result<Profile, UsageError> {
        Self::ALL
            .iter()
            .copied()
            .find(|p| p.id() == id)
            .ok_or_else(|| UsageError::UnknownPipeline(id.to_owned()))
    }

    pub fn summary(self) -> &'static str {
        match self {
            Self::V0 => {
                "previous release line: Responses-style root flatten on Messages lanes, nullable optionals on DeepSeek strict"
            }
            Self::V1 => {
                "current line: every lane shaped to pass its provider's oracle (narrowed Anthropic root strip, Responses lookaround strip, DeepSeek strict subset, …), third-party Messages verbatim"
            }
            Self::Verbatim => "identity: every tool ships exactly as declared",
        }
    }

    /// The ordered passes for one lane (the table: `passes::lists`).
    pub(crate) fn passes(self, lane: Lane) -> Vec<Box<dyn Pass>> {
        match self {
            Self::V0 => passes::lists::v0(lane),
            Self::V1 => passes::lists::v1(lane),
            Self::Verbatim => Vec::new(),
        }
    }

    /// The provider's non-strict lane that shapes a tool failing closed on
    /// `lane`: the tool then ships as that lane shapes it (non-strict), not
    /// verbatim, since a verbatim tool the provider rejects takes the whole
    /// request down. `None`: a tool failing closed ships unchanged.
    pub(crate) fn fail_closed_lane(self, lane: Lane) -> Option<Lane> {
        match (self, lane) {
            (Self::V1, Lane::DeepseekStrict) => Some(Lane::DeepseekChat),
            _ => None,
        }
    }

    /// The pass ids for one lane, in order.
    pub fn pass_names(self, lane: Lane) -> Vec<&'static str> {
        self.passes(lane).iter().map(|p| p.name()).collect()
    }

    /// Bind a configuration.
    pub fn with_config(self, config: PipelineConfig) -> BuiltinPipeline {
        BuiltinPipeline {
            profile: self,
            config,
        }
    }
}

/// A profile bound to its configuration.
#[derive(Debug, Clone)]
pub struct BuiltinPipeline {
    pub profile: Profile,
    pub config: PipelineConfig,
}

impl BuiltinPipeline {
    /// The tool after each pass that changed it (or ended the run): each
    /// prefix of the lane's pass list is run on its own, so a step shows
    /// exactly what that many passes ship. For `wireshape shape --trace`.
    pub fn trace(&self, lane: Lane, tool: &Tool) -> Vec<(&'static str, Shaped)> {
        let passes = self.profile.passes(lane);
        let mut steps = Vec::new();
        let mut last = serde_json::to_string(&tool.input_schema).unwrap_or_default();
        for k in 1..=passes.len() {
            let shaped = run_passes(&passes[..k], lane, &self.config, tool);
            let now = serde_json::to_string(&shaped.tool.input_schema).unwrap_or_default();
            let ended = !matches!(shaped.outcome, Outcome::Shaped);
            if now != last || ended {
                last = now;
                steps.push((passes[k - 1].name(), shaped));
            }
            if ended {
                break;
            }
        }
        steps
    }
}

impl Pipeline for BuiltinPipeline {
    fn id(&self) -> String {
        self.profile.id().to_owned()
    }

    fn shape(&self, lane: Lane, tool: &Tool) -> Shaped {
        shape_with(
            &self.profile.passes(lane),
            self.profile,
            lane,
            &self.config,
            tool,
        )
    }

    fn shape_request(&self, lane: Lane, parts: &mut RequestParts) -> Vec<RequestChange> {
        shape_request_as(self.profile, self, lane, parts)
    }

    /// The default whole request, and request rules that look at the
    /// tools only to see whether there are any.
    fn requests_count_tools_only(&self) -> bool {
        true
    }
}

/// An explicit pass list for one lane, run as a pipeline: a mutant of a
/// built-in profile is one of these. Every other lane runs `base`.
pub(crate) struct PassList {
    pub(crate) id: String,
    pub(crate) base: Profile,
    pub(crate) lane: Lane,
    pub(crate) passes: Vec<Box<dyn Pass>>,
    pub(crate) config: PipelineConfig,
}

impl Pipeline for PassList {
    fn id(&self) -> String {
        self.id.clone()
    }

    fn shape(&self, lane: Lane, tool: &Tool) -> Shaped {
        if lane == self.lane {
            shape_with(&self.passes, self.base, lane, &self.config, tool)
        } else {
            shape_with(&self.base.passes(lane), self.base, lane, &self.config, tool)
        }
    }

    /// The base profile's request rules; a strict `response_format` is
    /// shaped with this pass list (so a mutant reaches it too).
    fn shape_request(&self, lane: Lane, parts: &mut RequestParts) -> Vec<RequestChange> {
        shape_request_as(self.base, self, lane, parts)
    }

    /// As the built-in pipelines.
    fn requests_count_tools_only(&self) -> bool {
        true
    }
}

/// Run `passes` over `tool`; a tool that fails closed is then shaped by
/// the profile's [`Profile::fail_closed_lane`], if any (its records
/// relabelled to `lane`): when the strict passes serve that output it ships
/// strict, else it ships non-strict as that lane shaped it, the fail-closed
/// reason kept. When that lane changes nothing or cannot shape it either,
/// it ships unchanged.
fn shape_with(
    passes: &[Box<dyn Pass>],
    profile: Profile,
    lane: Lane,
    config: &PipelineConfig,
    tool: &Tool,
) -> Shaped {
    let (first, left) = match try_passes_keeping(passes, lane, config, tool.clone()) {
        Ok((tool, degradations)) => return shaped(tool, degradations),
        Err(failed) => failed,
    };
    // The try's copy, restored to the tool as it came in, is the same input
    // to every pass as a fresh copy, and the same output unchanged: it
    // serves instead of copying the tool again (only what the passes
    // changed is copied back).
    let restored = left.map(|mut work| {
        work.restore_from(tool);
        work
    });
    let (Outcome::FailedClosed { reason }, Some(plain_lane)) =
        (&first, profile.fail_closed_lane(lane))
    else {
        return match restored {
            Some(work) => unchanged_from(work, first),
            None => unchanged(tool, first),
        };
    };
    let Ok((mut plain, mut degradations)) = try_passes(
        &profile.passes(plain_lane),
        plain_lane,
        config,
        restored.unwrap_or_else(|| tool.clone()),
    ) else {
        return unchanged(tool, first);
    };
    for d in &mut degradations {
        d.lane = lane;
    }
    // The non-strict repairs may be what the strict passes needed (a
    // non-object root made an object): then the strict passes serve the
    // repaired tool, so shaping the output again changes nothing. When they
    // repaired nothing, the strict passes would get the very input they
    // failed closed on, and shaping is deterministic (the `determinism`
    // invariant checks it): the second try is skipped.
    let repaired = !plain.same_wire(tool);
    if repaired && let Ok((strict, more)) = try_passes(passes, lane, config, plain.clone()) {
        degradations.extend(more);
        return shaped(strict, degradations);
    }
    if degradations.is_empty() {
        return if repaired {
            unchanged(tool, first)
        } else {
            unchanged_from(plain, first)
        };
    }
    plain.strict = None;
    Shaped {
        tool: plain,
        degradations,
        outcome: Outcome::FailedClosed {
            reason: format!("{reason}; shaped as on {} instead", plain_lane.id()),
        },
    }
}

/// A tool the passes shaped.
fn shaped(tool: Tool, degradations: Vec<Degradation>) -> Shaped {
    Shaped {
        tool,
        degradations,
        outcome: Outcome::Shaped,
    }
}

/// `tool` as it came in (not sent strict), with the outcome that kept it so.
fn unchanged(tool: &Tool, outcome: Outcome) -> Shaped {
    unchanged_from(tool.clone(), outcome)
}

/// [`unchanged`] from a copy of the input the caller already holds.
fn unchanged_from(mut tool: Tool, outcome: Outcome) -> Shaped {
    tool.strict = None;
    Shaped {
        tool,
        degradations: Vec::new(),
        outcome,
    }
}

/// Run `passes` over `tool`: the heart of every built-in pipeline.
pub(crate) fn run_passes(
    passes: &[Box<dyn Pass>],
    lane: Lane,
    config: &PipelineConfig,
    tool: &Tool,
) -> Shaped {
    match try_passes(passes, lane, config, tool.clone()) {
        Ok((work, degradations)) => shaped(work, degradations),
        Err(outcome) => unchanged(tool, outcome),
    }
}

/// Run `passes` over `work`, the caller's copy: the shaped tool and its
/// degradations, or why the tool ships unchanged (failed closed, a schema
/// too deep, a pass that panicked).
fn try_passes(
    passes: &[Box<dyn Pass>],
    lane: Lane,
    config: &PipelineConfig,
    work: Tool,
) -> Result<(Tool, Vec<Degradation>), Outcome> {
    try_passes_keeping(passes, lane, config, work).map_err(|(outcome, _)| outcome)
}

/// [`try_passes`], handing back on failure the copy as the passes left it
/// (none after a panic).
#[allow(clippy::result_large_err)] // moved once per try; as large as `Ok`
fn try_passes_keeping(
    passes: &[Box<dyn Pass>],
    lane: Lane,
    config: &PipelineConfig,
    mut work: Tool,
) -> Result<(Tool, Vec<Degradation>), (Outcome, Option<Tool>)> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut cx = Cx::new(lane, config, &work.name);
        for pass in passes {
            cx.enter(pass.as_ref());
            match pass.apply(&mut work, &mut cx) {
                Ok(Step::Continue) => {}
                Ok(Step::FailClosed(reason)) => {
                    return Err(Outcome::FailedClosed {
                        reason: format!("{}: {reason}", pass.name()),
                    });
                }
                Err(deep) => {
                    return Err(Outcome::Errored {
                        message: format!("{}: {deep}", pass.name()),
                    });
                }
            }
        }
        Ok(cx.degradations)
    }));
    match result {
        Ok(Ok(degradations)) => Ok((work, degradations)),
        Ok(Err(outcome)) => Err((outcome, Some(work))),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic payload".to_owned());
            Err((
                Outcome::Errored {
                    message: format!("panic: {message}"),
                },
                None,
            ))
        }
    }
}

impl Profile {
    /// The request-level rules of this profile for `lane`, in order.
    pub fn request_rules(self, lane: Lane) -> Vec<RequestRule> {
        match self {
            Self::V0 | Self::Verbatim => Vec::new(),
            Self::V1 => {
                let mut rules = vec![
                    RequestRule::OmitEmptyTools,
                    RequestRule::DropOrphanToolChoice,
                ];
                if lane == Lane::Cerebras {
                    rules.push(RequestRule::NamedToolChoiceToAuto);
                }
                rules
            }
        }
    }

    /// Whether v1 shapes a strict `response_format` on this lane (Chat wires).
    pub fn shapes_response_format(self, lane: Lane) -> bool {
        self == Self::V1 && lane.wire() == Wire::Chat
    }

    /// Apply [`Profile::request_rules`] to `parts`; every change made.
    pub fn shape_request(self, lane: Lane, parts: &mut RequestParts) -> Vec<RequestChange> {
        self.request_rules(lane)
            .into_iter()
            .filter_map(|r| r.apply(parts))
            .collect()
    }
}

/// What [`Pipeline::shape_whole_request`] does by default: the rendered
/// tools in the order given (catalog order), the kind's `tool_choice` and
/// `response_format`, then the pipeline's request rules
/// ([`Pipeline::shape_request`]).
pub fn build_request<P: Pipeline + ?Sized>(
    pipeline: &P,
    lane: Lane,
    kind: RequestKind,
    tools: Vec<Value>,
) -> ShapedRequest {
    let mut parts = RequestParts {
        tools: Some(tools),
        tool_choice: kind.tool_choice(lane),
        response_format: kind.response_format(lane),
    };
    let changes = pipeline.shape_request(lane, &mut parts);
    ShapedRequest { parts, changes }
}

/// `profile`'s request rules, then (where the profile shapes one) a strict
/// `response_format` shaped by `pipeline`: what a built-in pipeline and a
/// pass list standing in for one do to the request.
pub(crate) fn shape_request_as(
    profile: Profile,
    pipeline: &dyn Pipeline,
    lane: Lane,
    parts: &mut RequestParts,
) -> Vec<RequestChange> {
    let mut changes = profile.shape_request(lane, parts);
    if profile.shapes_response_format(lane) {
        changes.extend(shape_response_format(pipeline, lane, parts));
    }
    changes
}

/// v1 on a Chat wire: a strict `response_format` schema is shaped by
/// `pipeline` as a strict tool named after the format (the strict rules of a
/// lane are the same for both), one change per degradation. A format the
/// pipeline fails closed ships as it came; one it sends non-strict (as it
/// would send the tool) ships with `strict: false`.
pub(crate) fn shape_response_format(
    pipeline: &dyn Pipeline,
    lane: Lane,
    parts: &mut RequestParts,
) -> Vec<RequestChange> {
    let Some(js) = parts
        .response_format
        .as_mut()
        .filter(|rf| rf.get("type").and_then(Value::as_str) == Some("json_schema"))
        .and_then(|rf| rf.get_mut("json_schema"))
        .and_then(Value::as_object_mut)
    else {
        return Vec::new();
    };
    if js.get("strict").and_then(Value::as_bool) != Some(true) {
        return Vec::new();
    }
    let Some(schema) = js.get("schema") else {
        return Vec::new();
    };
    let name = js
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("response_format");
    let tool = Tool {
        strict: Some(true),
        ..Tool::new(name, schema.clone())
    };
    let shaped = pipeline.shape(lane, &tool);
    let non_strict = shaped.tool.strict == Some(false);
    if !matches!(shaped.outcome, Outcome::Shaped)
        || (shaped.tool.input_schema == *schema && !non_strict)
    {
        return Vec::new();
    }
    js.insert("schema".to_owned(), shaped.tool.input_schema);
    if non_strict {
        js.insert("strict".to_owned(), Value::Bool(false));
    }
    shaped
        .degradations
        .iter()
        .filter(|d| d.keyword != "description" && d.keyword != "tool-name")
        .map(|d| RequestChange {
            member: "response_format",
            name: "shape-response-format",
            rule: d.rule.as_deref().unwrap_or_default().to_owned(),
            reason: d.to_string(),
        })
        .collect()
}

#[cfg(test)]
#[path = "pipeline_tests.rs"]
mod tests;
