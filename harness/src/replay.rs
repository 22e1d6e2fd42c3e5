//! Replaying recorded provider responses against the oracles and the new
//! pipeline.
//!
//! For each recording: (a) the oracle must reject the recorded request under
//! the recorded rule, with a message containing the recording's `match`
//! text (an accept recording must be accepted); (b) the request re-shaped by
//! the new pipeline must be accepted, or every offending tool must fail
//! closed by design, or the lane has no shaping yet (a known gap). The HTTP
//! round trip against the mock provider lives in `mock`.

use serde::Serialize;
use serde_json::Value;

use crate::catalog::{Format, load_catalog_bytes};
use crate::lane::{Lane, Wire};
use crate::oracle::{self, Rejection, Request};
use crate::pipeline::{Outcome, Pipeline, Shaped};
use crate::recording::Recording;
use crate::request::RequestParts;

/// The oracle's view of a wire tools array: Gemini declarations are
/// flattened out of their `functionDeclarations` wrappers.
pub fn oracle_tools(lane: Lane, tools: &[Value]) -> Vec<Value> {
    oracle_view(lane, tools).into_owned()
}

/// [`oracle_tools`], borrowing the array itself where the wire needs no
/// flattening.
pub(crate) fn oracle_view(lane: Lane, tools: &[Value]) -> std::borrow::Cow<'_, [Value]> {
    std::borrow::Cow::Owned(match lane.wire() {
        Wire::GeminiParameters | Wire::GeminiJsonSchema => tools
            .iter()
            .flat_map(|t| {
                t.get("functionDeclarations")
                    .or_else(|| t.get("function_declarations"))
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default()
            })
            .collect(),
        _ => return std::borrow::Cow::Borrowed(tools),
    })
}

/// The oracle's verdict on a recording's request, as of the recording's date.
pub(crate) fn verdict(rec: &Recording, lane: Lane) -> Vec<Rejection> {
    let tools = oracle_tools(lane, &rec.request.tools);
    oracle::check(&Request {
        tools_present: rec.request.tools_member().is_some(),
        lane,
        tools: &tools,
        tool_choice: rec.request.tool_choice.as_ref(),
        response_format: rec.request.response_format.as_ref(),
        walks: None,
        as_of: &rec.observed,
    })
}

fn describe(rejections: &[Rejection]) -> String {
    if rejections.is_empty() {
        return "accepted the request".to_owned();
    }
    rejections
        .iter()
        .map(|r| format!("{} ({:?})", r.rule, r.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// (a) The oracle reproduces the recording.
pub fn reproduces(rec: &Recording) -> Result<(), String> {
    let lane = Lane::parse(&rec.lane).map_err(|e| format!("recording {}: {e}", rec.id))?;
    let found = verdict(rec, lane);
    if rec.expect.as_deref() == Some("accept") {
        return if found.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "recording {}: expected an accept, the oracle said: {}",
                rec.id,
                describe(&found)
            ))
        };
    }
    let hit = found.iter().find(|r| r.rule == rec.rule);
    match hit {
        Some(r) => {
            let body = oracle::error_body(lane, r).to_string();
            if r.message.contains(&rec.match_text) || body.contains(&rec.match_text) {
                Ok(())
            } else {
                Err(format!(
                    "recording {}: rule {} fired but its message {:?} lacks the recorded match {:?}",
                    rec.id, rec.rule, r.message, rec.match_text
                ))
            }
        }
        None => Err(format!(
            "recording {}: expected rule {}, the oracle said: {}",
            rec.id,
            rec.rule,
            describe(&found)
        )),
    }
}

/// How the new pipeline deals with a recorded request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Fix {
    /// The reshaped request is accepted.
    Fixed,
    /// Every tool the oracle still rejects failed closed by design: the
    /// request is still rejected, so this is a failure unless a known gap
    /// declares it.
    FailedClosed { tools: Vec<String> },
    /// v1's request is still rejected as of the recording date, but the
    /// rules that reject it have since been retired by the provider: it is
    /// accepted as of today ([`oracle::DEFAULT_AS_OF`]), the contract v1
    /// ships against.
    RuleRetired { rejections: Vec<String> },
    /// The pipeline has no shaping for this lane yet: the rejection stands.
    KnownGap { rejections: Vec<String> },
    /// The reshaped request is still rejected: a failure.
    StillRejected { rejections: Vec<String> },
    /// The recorded tools could not even be read as this wire's tools.
    Unreadable { message: String },
}

fn format_for(lane: Lane) -> Format {
    match lane.wire() {
        Wire::Messages => Format::AnthropicTools,
        Wire::Chat => Format::OpenaiChatTools,
        Wire::Responses => Format::OpenaiResponsesTools,
        Wire::GeminiParameters | Wire::GeminiJsonSchema => Format::GeminiTools,
        Wire::Bedrock => Format::BedrockTools,
    }
}

/// The recorded request as `new` sends it: the shaped tools rendered on the
/// lane's wire, then the request-level rules (`tools`, `tool_choice`).
pub fn v1_request(
    rec: &Recording,
    lane: Lane,
    new: &dyn Pipeline,
    shaped: &[crate::pipeline::Shaped],
) -> RequestParts {
    let mut parts = RequestParts {
        tools: Some(rendered_array(lane, shaped)),
        tool_choice: rec.request.tool_choice.clone(),
        response_format: rec.request.response_format.clone(),
    };
    new.shape_request(lane, &mut parts);
    parts
}

/// (b) Shape the recorded tools with `new` and judge the result.
pub fn fix(rec: &Recording, new: &dyn Pipeline, has_shaping: bool) -> Fix {
    let Ok(lane) = Lane::parse(&rec.lane) else {
        return Fix::Unreadable {
            message: format!("unknown lane {}", rec.lane),
        };
    };
    let bytes = serde_json::to_vec(&rec.request.tools).unwrap_or_default();
    let catalog = match load_catalog_bytes(
        &rec.id,
        std::path::Path::new(&rec.id),
        &bytes,
        Some(format_for(lane)),
    ) {
        Ok(c) => c,
        Err(e) => {
            return Fix::Unreadable {
                message: e.to_string(),
            };
        }
    };
    let shaped: Vec<_> = catalog.tools.iter().map(|t| new.shape(lane, t)).collect();
    let parts = v1_request(rec, lane, new, &shaped);
    judge_parts(lane, &shaped, &parts, &rec.observed, has_shaping)
}

/// The shaped tools rendered on the lane's wire: the request's `tools` array.
fn rendered_array(lane: Lane, shaped: &[Shaped]) -> Vec<Value> {
    match lane.render_each(shaped.iter().map(|s| &s.tool)) {
        Value::Array(tools) => tools,
        _ => Vec::new(),
    }
}

/// The request members around the tools that a verdict depends on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context<'a> {
    pub tool_choice: Option<&'a Value>,
    pub response_format: Option<&'a Value>,
    /// The verdict's date (`YYYY-MM-DD`).
    pub as_of: &'a str,
}

/// Whether v1 shapes this lane at all (a lane without passes ships
/// verbatim: its rejections are known gaps, not failures).
pub(crate) fn has_v1_shaping(lane: Lane) -> bool {
    !crate::pipeline::Profile::V1.pass_names(lane).is_empty()
}

/// Judge tools already shaped for `lane`, sent with `cx`'s request members
/// as they are: the verdict (b) of a replay, used by the fuzz target and the
/// properties that check v1 output conforms.
pub(crate) fn judge_shaped(
    lane: Lane,
    shaped: &[Shaped],
    cx: &Context<'_>,
    has_shaping: bool,
) -> Fix {
    let parts = RequestParts {
        tools: Some(rendered_array(lane, shaped)),
        tool_choice: cx.tool_choice.cloned(),
        response_format: cx.response_format.cloned(),
    };
    judge_parts(lane, shaped, &parts, cx.as_of, has_shaping)
}

/// Judge a request built from `shaped` (the request members in `parts`) as
/// of `as_of`, then as of today when rejected then.
fn judge_parts(
    lane: Lane,
    shaped: &[Shaped],
    parts: &RequestParts,
    as_of: &str,
    has_shaping: bool,
) -> Fix {
    let wire_tools = oracle_view(lane, parts.tools.as_deref().unwrap_or_default());
    let request = Request {
        tools_present: parts.tools.is_some(),
        lane,
        tools: &wire_tools,
        tool_choice: parts.tool_choice.as_ref(),
        response_format: parts.response_format.as_ref(),
        walks: None,
        as_of,
    };
    let found = oracle::check(&request);
    if found.is_empty() {
        return Fix::Fixed;
    }
    let names: Vec<String> = found
        .iter()
        .map(|r| format!("{}: {}", r.rule, r.message))
        .collect();
    let today = oracle::check(&Request {
        as_of: oracle::DEFAULT_AS_OF,
        ..request
    });
    if today.is_empty() {
        return Fix::RuleRetired { rejections: names };
    }
    let closed: Vec<String> = found
        .iter()
        .filter_map(|r| r.tool)
        .filter(|&i| {
            matches!(
                shaped.get(i).map(|s| &s.outcome),
                Some(Outcome::FailedClosed { .. })
            )
        })
        .map(|i| shaped[i].tool.name.clone())
        .collect();
    if !closed.is_empty() && closed.len() == found.len() {
        Fix::FailedClosed { tools: closed }
    } else if !has_shaping {
        Fix::KnownGap { rejections: names }
    } else {
        Fix::StillRejected { rejections: names }
    }
}

/// The outcome of replaying one recording.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct ReplayResult {
    pub id: String,
    pub provider: String,
    pub lane: String,
    pub rule: String,
    /// `None` when the oracle reproduced the recording, else why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oracle_error: Option<String>,
    pub fix: Fix,
    /// The declared known gap covering it, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known_gap: Option<String>,
    /// The oracle missed it, or v1 does not fix an undeclared recording, or
    /// a declared gap is fixed now.
    pub failed: bool,
}

/// Replay every recording: (a) and (b) above, (b) judged against `gaps`.
pub(crate) fn replay_all(
    recordings: &[Recording],
    new: &dyn Pipeline,
    gaps: &[KnownGap],
) -> Vec<ReplayResult> {
    recordings
        .iter()
        .map(|rec| {
            let oracle_error = reproduces(rec).err();
            let has_shaping = Lane::parse(&rec.lane).is_ok_and(has_v1_shaping);
            let fix = if rec.expect.as_deref() == Some("accept") {
                Fix::Fixed
            } else {
                fix(rec, new, has_shaping)
            };
            let failed = oracle_error.is_some() || judge_fix(&rec.id, &fix, gaps).is_err();
            let known_gap = gap_for(gaps, &rec.id).map(|g| g.reason.clone());
            ReplayResult {
                id: rec.id.clone(),
                provider: rec.provider.clone(),
                lane: rec.lane.clone(),
                rule: rec.rule.clone(),
                oracle_error,
                fix,
                known_gap,
                failed,
            }
        })
        .collect()
}

/// One declared gap: recordings the new pipeline does not fix yet, with the
/// reason. An entry that starts passing fails the replay ("remove it"), so
/// the list cannot rot (STYLE 14).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownGap {
    /// Recording id glob.
    pub recording: String,
    pub reason: String,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GapFile {
    #[serde(default)]
    gap: Vec<KnownGap>,
}

/// Load `known-gaps.toml` (a missing file is an empty list).
pub fn load_known_gaps(path: &std::path::Path) -> Result<Vec<KnownGap>, crate::error::LoadError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(crate::error::LoadError::Io {
                path: path.to_owned(),
                source,
            });
        }
    };
    let file: GapFile =
        toml::from_str(&text).map_err(|e| crate::error::LoadError::from_toml(path, &text, &e))?;
    Ok(file.gap)
}

/// The declared gap covering a recording, if any.
pub(crate) fn gap_for<'a>(gaps: &'a [KnownGap], id: &str) -> Option<&'a KnownGap> {
    gaps.iter()
        .find(|g| crate::ledger::glob_match(&g.recording, id))
}

/// Judge a v1 fix against the declared gaps: `Ok` when it fixes an
/// undeclared recording or fails as declared; `Err` otherwise.
pub fn judge_fix(id: &str, fix: &Fix, gaps: &[KnownGap]) -> Result<(), String> {
    // Handled means accepted (one judgement with `run` and `metamorphic`):
    // a tool that failed closed and is still rejected takes the request down.
    let fixed = matches!(fix, Fix::Fixed | Fix::RuleRetired { .. });
    match (gap_for(gaps, id), fixed) {
        (None, true) | (Some(_), false) => Ok(()),
        (None, false) => Err(format!("recording {id}: v1 does not fix it: {fix:?}")),
        (Some(g), true) => Err(format!(
            "recording {id} is now fixed by v1: remove its known gap `{}` from recordings/known-gaps.toml",
            g.recording
        )),
    }
}
