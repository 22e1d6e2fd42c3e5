//! Request-level shaping: the parts of a tool-calling request around the
//! tools array (whether `tools` is sent at all, and `tool_choice`).
//!
//! Three recorded rejections are about the request, not about any one
//! tool's schema, so no per-tool pass can fix them:
//! - `openai-empty-tools-array`: `"tools": []` → `[] is too short - 'tools'`;
//! - `xai-tool-choice-without-tools`: a `tool_choice` with no tools;
//! - `cerebras-tool-choice-named-function`: `tool_choice` naming a function
//!   (`Expected 'auto' or 'none'`).
//!
//! Two more are about a strict `response_format` schema rather than a tool
//! (`cerebras-additionalproperties-false-required`,
//! `openai-strict-minimum-not-permitted`): v1 shapes that schema with the
//! lane's own passes, as a strict tool named after the format.
//!
//! v1 applies [`RequestRule`]s in order after the tools are shaped; v0 and
//! verbatim send the request as built. Every change is a [`RequestChange`]
//! naming the rule, so nothing is silent.
//!
//! The whole request is rendered here too ([`RequestBody::render`]): a
//! fixed, minimal skeleton per wire family around the shaped parts, for the
//! prompt-cache prefix comparison (`prefix`). Two [`RequestKind`]s: an
//! ordinary `turn` and a compaction `summary` that sends the same tools
//! (seed 004). Members, in this order (a `*` member comes from
//! [`RequestParts`], the rest is fixed per lane and kind):
//! - Messages: `model`, `max_tokens`, `system`, `messages`, `tools`*,
//!   `tool_choice`* (`auto`; summary `none`);
//! - Chat: `model`, `messages` (system first), `tools`*, `tool_choice`*
//!   (`"auto"`; summary `"none"`), `response_format`* (summary only: a
//!   strict `json_schema`; not on Ollama, which takes no `tool_choice`
//!   either and ends with `stream: false`);
//! - Responses: `model`, `instructions`, `input`, `tools`*, `tool_choice`*;
//! - Gemini: `systemInstruction`, `contents`, `tools`* (one
//!   `functionDeclarations` tool), `toolConfig`* (`AUTO`; summary `NONE`);
//! - Bedrock: `system`, `messages`, `toolConfig` {`tools`*, `toolChoice`*
//!   (`auto`; summary: absent, the wire has no `none`)}.

use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::lane::{Lane, Wire};
use crate::pipeline::{Outcome, Pipeline, Profile};
use crate::tool::Tool;

/// The request members shaping may touch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestParts {
    /// The wire tools array; `None` when the request sends no `tools` member.
    pub tools: Option<Vec<Value>>,
    pub tool_choice: Option<Value>,
    /// Chat wires' structured output: `{type: "json_schema", json_schema:
    /// {name, strict, schema}}`.
    pub response_format: Option<Value>,
}

/// One change to the request, with the rule it exists for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestChange {
    /// The request member changed (`tools`, `tool_choice`, `response_format`).
    pub member: &'static str,
    /// The rule name (stable id, like a pass name).
    pub name: &'static str,
    /// The oracle rule it exists for.
    pub rule: String,
    pub reason: String,
}

/// A request-level rule of a built-in pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestRule {
    /// An empty tools array is not sent.
    OmitEmptyTools,
    /// A `tool_choice` on a request that sends no tools is not sent.
    DropOrphanToolChoice,
    /// A `tool_choice` naming one function becomes `"auto"` (the lane takes
    /// only `auto` or `none`); the forced choice is lost and recorded.
    NamedToolChoiceToAuto,
}

impl RequestRule {
    /// Stable id.
    pub fn name(self) -> &'static str {
        match self {
            Self::OmitEmptyTools => "omit-empty-tools",
            Self::DropOrphanToolChoice => "drop-orphan-tool-choice",
            Self::NamedToolChoiceToAuto => "named-tool-choice-to-auto",
        }
    }

    /// The oracle rule it exists for.
    pub fn rule(self) -> &'static str {
        match self {
            Self::OmitEmptyTools => "openai-empty-tools-array",
            Self::DropOrphanToolChoice => "xai-tool-choice-without-tools",
            Self::NamedToolChoiceToAuto => "cerebras-tool-choice-named-function",
        }
    }

    fn apply(self, parts: &mut RequestParts) -> Option<RequestChange> {
        let change = |member, reason: String| RequestChange {
            member,
            name: self.name(),
            rule: self.rule().to_owned(),
            reason,
        };
        match self {
            Self::OmitEmptyTools => {
                if parts.tools.as_ref().is_some_and(Vec::is_empty) {
                    parts.tools = None;
                    return Some(change(
                        "tools",
                        "an empty tools array is rejected; the request sends no tools member"
                            .into(),
                    ));
                }
            }
            Self::DropOrphanToolChoice => {
                let no_tools = parts.tools.as_ref().is_none_or(Vec::is_empty);
                if no_tools && parts.tool_choice.as_ref().is_some_and(|c| !c.is_null()) {
                    let old = parts.tool_choice.take().unwrap_or_default();
                    return Some(change(
                        "tool_choice",
                        format!(
                            "tool_choice {old} is rejected on a request without tools; not sent"
                        ),
                    ));
                }
            }
            Self::NamedToolChoiceToAuto => {
                let named = parts
                    .tool_choice
                    .as_ref()
                    .and_then(Value::as_object)
                    .is_some_and(|c| c.get("type").and_then(Value::as_str) == Some("function"));
                if named {
                    let old = parts.tool_choice.replace(Value::from("auto"));
                    return Some(change(
                        "tool_choice",
                        format!(
                            "tool_choice {} is rejected (only auto or none); sent as \"auto\": the model is no longer forced to call that tool",
                            old.unwrap_or_default()
                        ),
                    ));
                }
            }
        }
        None
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

/// Which request of a conversation is sent. Both send the catalog's tools:
/// their tools arrays must serialize to the same bytes, or the cached
/// prefix (tools first) is lost on every compaction (seed 004).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestKind {
    /// An ordinary turn: the model may call a tool.
    Turn,
    /// A compaction (summary) request: the same tools, another final user
    /// message, and no tool call allowed where the wire can say so.
    Summary,
}

const MODEL: &str = "model-under-test";
const SYSTEM: &str = "You are a coding agent working in the user's repository.";
const USER: &str = "List the open tasks.";
const ASSISTANT: &str = "There are three open tasks.";
const SUMMARIZE: &str = "Summarize the conversation so far for a new context window.";

impl RequestKind {
    pub const ALL: &'static [RequestKind] = &[RequestKind::Turn, RequestKind::Summary];

    pub fn id(self) -> &'static str {
        match self {
            Self::Turn => "turn",
            Self::Summary => "summary",
        }
    }

    /// The `tool_choice` this kind sends on `lane`, as the wire's own value
    /// (Gemini: the `toolConfig` object; Bedrock: `toolConfig.toolChoice`);
    /// `None`: not sent.
    pub fn tool_choice(self, lane: Lane) -> Option<Value> {
        let turn = self == Self::Turn;
        match lane.wire() {
            Wire::Messages => Some(json!({"type": if turn { "auto" } else { "none" }})),
            Wire::Chat if lane == Lane::Ollama => None,
            Wire::Chat | Wire::Responses => Some(json!(if turn { "auto" } else { "none" })),
            Wire::GeminiParameters | Wire::GeminiJsonSchema => {
                Some(json!({"functionCallingConfig": {"mode": if turn { "AUTO" } else { "NONE" }}}))
            }
            Wire::Bedrock => turn.then(|| json!({"auto": {}})),
        }
    }

    /// The `response_format` this kind sends on `lane` (summary on Chat
    /// wires but Ollama: the summary as a strict JSON schema).
    pub fn response_format(self, lane: Lane) -> Option<Value> {
        (self == Self::Summary && lane.wire() == Wire::Chat && lane != Lane::Ollama).then(|| {
            json!({"type": "json_schema", "json_schema": {"name": "summary", "strict": true, "schema": {
                "type": "object",
                "properties": {"summary": {"type": "string"}},
                "required": ["summary"],
                "additionalProperties": false
            }}})
        })
    }

    /// The conversation this kind sends, as (role, text) pairs.
    fn turns(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Self::Turn => &[("user", USER)],
            Self::Summary => &[
                ("user", USER),
                ("assistant", ASSISTANT),
                ("user", SUMMARIZE),
            ],
        }
    }
}

impl std::fmt::Display for RequestKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// A whole request after a pipeline: its parts and every recorded change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapedRequest {
    pub parts: RequestParts,
    pub changes: Vec<RequestChange>,
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

/// Where a byte of a rendered request sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The member's path in the body (`tools`, `toolConfig.toolChoice`, …).
    pub label: &'static str,
    /// The [`RequestParts`] member it renders (`tools`, `tool_choice`,
    /// `response_format`); `None` for the fixed skeleton.
    pub part: Option<&'static str>,
    /// `"key":value`, as a byte range of the body.
    pub range: Range<usize>,
    /// The value alone.
    pub value: Range<usize>,
}

/// One request body as sent: compact JSON, members in the wire's order,
/// with the byte range of every member and every tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestBody {
    pub bytes: String,
    pub members: Vec<Member>,
    /// Each wire tool's bytes, in request order.
    pub tools: Vec<Range<usize>>,
    /// Each wire tool's name, in request order.
    pub tool_names: Vec<String>,
}

/// The name of a rendered wire tool.
pub(crate) fn wire_tool_name(lane: Lane, tool: &Value) -> String {
    let at = match lane.wire() {
        Wire::Chat => "/function/name",
        Wire::Bedrock => "/toolSpec/name",
        _ => "/name",
    };
    tool.pointer(at)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

/// Writes one JSON object member by member, keeping ranges.
struct BodyWriter {
    out: String,
    members: Vec<Member>,
    tools: Vec<Range<usize>>,
    tool_names: Vec<String>,
    /// One flag per open object: no member written yet.
    fresh: Vec<bool>,
}

impl BodyWriter {
    fn new() -> Self {
        Self {
            out: String::with_capacity(4096),
            members: Vec::new(),
            tools: Vec::new(),
            tool_names: Vec::new(),
            fresh: Vec::new(),
        }
    }

    fn open(&mut self) {
        self.out.push('{');
        self.fresh.push(true);
    }

    fn close(&mut self) {
        self.out.push('}');
        self.fresh.pop();
    }

    /// `,"key":` (no comma first in an object); the start of the key.
    fn key(&mut self, key: &str) -> usize {
        if let Some(fresh) = self.fresh.last_mut() {
            if !*fresh {
                self.out.push(',');
            }
            *fresh = false;
        }
        let start = self.out.len();
        self.out
            .push_str(&serde_json::to_string(key).unwrap_or_default());
        self.out.push(':');
        start
    }

    fn member(&mut self, key: &str, label: &'static str, part: Option<&'static str>, v: &Value) {
        let start = self.key(key);
        let value_start = self.out.len();
        self.out.push_str(&crate::schema::to_bytes(v));
        self.members.push(Member {
            label,
            part,
            range: start..self.out.len(),
            value: value_start..self.out.len(),
        });
    }

    /// `"key":[tool,…]` (Gemini: `[{"functionDeclarations":[decl,…]}]`).
    fn tools(&mut self, key: &str, label: &'static str, lane: Lane, tools: &[Value]) {
        let start = self.key(key);
        let value_start = self.out.len();
        let gemini = matches!(lane.wire(), Wire::GeminiParameters | Wire::GeminiJsonSchema);
        self.out.push_str(if gemini {
            "[{\"functionDeclarations\":["
        } else {
            "["
        });
        for (i, t) in tools.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            let at = self.out.len();
            self.out.push_str(&crate::schema::to_bytes(t));
            self.tools.push(at..self.out.len());
            self.tool_names.push(wire_tool_name(lane, t));
        }
        self.out.push_str(if gemini { "]}]" } else { "]" });
        self.members.push(Member {
            label,
            part: Some("tools"),
            range: start..self.out.len(),
            value: value_start..self.out.len(),
        });
    }
}

impl RequestBody {
    /// Render the whole request `kind` sends on `lane` around `parts`
    /// (the module docs list the members per wire).
    pub fn render(lane: Lane, kind: RequestKind, parts: &RequestParts) -> Self {
        let mut w = BodyWriter::new();
        let text_turns = |wrap: &dyn Fn(&str, &str) -> Value| -> Value {
            Value::Array(kind.turns().iter().map(|(r, t)| wrap(r, t)).collect())
        };
        let plain = |r: &str, t: &str| json!({"role": r, "content": t});
        let tools = parts.tools.as_deref();
        let choice = |w: &mut BodyWriter, key: &str, label: &'static str| {
            if let Some(c) = &parts.tool_choice {
                w.member(key, label, Some("tool_choice"), c);
            }
        };
        w.open();
        match lane.wire() {
            Wire::Messages => {
                w.member("model", "model", None, &json!(MODEL));
                w.member("max_tokens", "max_tokens", None, &json!(1024));
                w.member("system", "system", None, &json!(SYSTEM));
                w.member("messages", "messages", None, &text_turns(&plain));
                if let Some(t) = tools {
                    w.tools("tools", "tools", lane, t);
                }
                choice(&mut w, "tool_choice", "tool_choice");
            }
            Wire::Chat => {
                w.member("model", "model", None, &json!(MODEL));
                let mut messages = vec![json!({"role": "system", "content": SYSTEM})];
                if let Value::Array(rest) = text_turns(&plain) {
                    messages.extend(rest);
                }
                w.member("messages", "messages", None, &Value::Array(messages));
                if let Some(t) = tools {
                    w.tools("tools", "tools", lane, t);
                }
                choice(&mut w, "tool_choice", "tool_choice");
                if let Some(rf) = &parts.response_format {
                    w.member(
                        "response_format",
                        "response_format",
                        Some("response_format"),
                        rf,
                    );
                }
                if lane == Lane::Ollama {
                    w.member("stream", "stream", None, &json!(false));
                }
            }
            Wire::Responses => {
                w.member("model", "model", None, &json!(MODEL));
                w.member("instructions", "instructions", None, &json!(SYSTEM));
                w.member("input", "input", None, &text_turns(&plain));
                if let Some(t) = tools {
                    w.tools("tools", "tools", lane, t);
                }
                choice(&mut w, "tool_choice", "tool_choice");
            }
            Wire::GeminiParameters | Wire::GeminiJsonSchema => {
                w.member(
                    "systemInstruction",
                    "systemInstruction",
                    None,
                    &json!({"parts": [{"text": SYSTEM}]}),
                );
                let gemini = |r: &str, t: &str| {
                    let role = if r == "assistant" { "model" } else { r };
                    json!({"role": role, "parts": [{"text": t}]})
                };
                w.member("contents", "contents", None, &text_turns(&gemini));
                if let Some(t) = tools {
                    w.tools("tools", "tools", lane, t);
                }
                choice(&mut w, "toolConfig", "toolConfig");
            }
            Wire::Bedrock => {
                w.member("system", "system", None, &json!([{"text": SYSTEM}]));
                let bedrock = |r: &str, t: &str| json!({"role": r, "content": [{"text": t}]});
                w.member("messages", "messages", None, &text_turns(&bedrock));
                if tools.is_some() || parts.tool_choice.is_some() {
                    let start = w.key("toolConfig");
                    w.open();
                    if let Some(t) = tools {
                        w.tools("tools", "toolConfig.tools", lane, t);
                    }
                    choice(&mut w, "toolChoice", "toolConfig.toolChoice");
                    w.close();
                    let end = w.out.len();
                    w.members.push(Member {
                        label: "toolConfig",
                        part: None,
                        range: start..end,
                        value: start + "\"toolConfig\":".len()..end,
                    });
                }
            }
        }
        w.close();
        RequestBody {
            bytes: w.out,
            members: w.members,
            tools: w.tools,
            tool_names: w.tool_names,
        }
    }

    /// The tools member (`tools`, Bedrock `toolConfig.tools`), if sent.
    pub fn tools_member(&self) -> Option<&Member> {
        self.members.iter().find(|m| m.part == Some("tools"))
    }

    /// Where byte `offset` sits: the innermost member and, inside the tools
    /// array, the tool (index and name). `None` outside every member (the
    /// braces and commas between members).
    pub fn locate(&self, offset: usize) -> Option<(&'static str, Option<(usize, &str)>)> {
        if let Some(i) = self.tools.iter().position(|r| r.contains(&offset)) {
            let label = self.tools_member().map_or("tools", |m| m.label);
            return Some((label, Some((i, self.tool_names[i].as_str()))));
        }
        self.members
            .iter()
            .filter(|m| m.range.contains(&offset))
            .min_by_key(|m| m.range.len())
            .map(|m| (m.label, None))
    }
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
/// pipeline fails closed ships as it came.
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
    if !matches!(shaped.outcome, Outcome::Shaped) || shaped.tool.input_schema == *schema {
        return Vec::new();
    }
    js.insert("schema".to_owned(), shaped.tool.input_schema);
    shaped
        .degradations
        .iter()
        .filter(|d| d.keyword != "description" && d.keyword != "tool-name")
        .map(|d| RequestChange {
            member: "response_format",
            name: "shape-response-format",
            rule: d.rule.clone().unwrap_or_default(),
            reason: d.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parts(tools: Option<Vec<Value>>, tool_choice: Option<Value>) -> RequestParts {
        RequestParts {
            tools,
            tool_choice,
            response_format: None,
        }
    }

    #[test]
    fn v1_omits_an_empty_tools_array() {
        let mut p = parts(Some(vec![]), None);
        let changes = Profile::V1.shape_request(Lane::OpenaiChat, &mut p);
        assert_eq!(p, parts(None, None));
        assert_eq!(changes.len(), 1);
        assert_eq!(
            (changes[0].member, changes[0].name, changes[0].rule.as_str()),
            ("tools", "omit-empty-tools", "openai-empty-tools-array")
        );
    }

    #[test]
    fn v1_drops_a_tool_choice_without_tools_after_omitting_them() {
        let mut p = parts(Some(vec![]), Some(json!("auto")));
        let changes = Profile::V1.shape_request(Lane::Xai, &mut p);
        assert_eq!(p, parts(None, None));
        let names: Vec<_> = changes.iter().map(|c| c.name).collect();
        assert_eq!(names, ["omit-empty-tools", "drop-orphan-tool-choice"]);
        assert_eq!(
            changes[1].reason,
            "tool_choice \"auto\" is rejected on a request without tools; not sent"
        );
    }

    #[test]
    fn a_tool_choice_with_tools_is_kept() {
        let tool = json!({"type": "function", "function": {"name": "f"}});
        let mut p = parts(Some(vec![tool.clone()]), Some(json!("required")));
        assert!(Profile::V1.shape_request(Lane::Xai, &mut p).is_empty());
        assert_eq!(p, parts(Some(vec![tool]), Some(json!("required"))));
    }

    #[test]
    fn cerebras_v1_turns_a_named_tool_choice_into_auto() {
        let tool = json!({"type": "function", "function": {"name": "Steps"}});
        let choice = json!({"type": "function", "function": {"name": "Steps"}});
        let mut p = parts(Some(vec![tool.clone()]), Some(choice.clone()));
        let changes = Profile::V1.shape_request(Lane::Cerebras, &mut p);
        assert_eq!(p, parts(Some(vec![tool.clone()]), Some(json!("auto"))));
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].rule, "cerebras-tool-choice-named-function");
        // Other lanes take a named choice: untouched.
        let mut q = parts(Some(vec![tool.clone()]), Some(choice.clone()));
        assert!(
            Profile::V1
                .shape_request(Lane::OpenaiChat, &mut q)
                .is_empty()
        );
        assert_eq!(q.tool_choice, Some(choice));
    }

    #[test]
    fn v0_and_verbatim_send_the_request_as_built() {
        for profile in [Profile::V0, Profile::Verbatim] {
            let mut p = parts(Some(vec![]), Some(json!("auto")));
            assert!(profile.shape_request(Lane::Xai, &mut p).is_empty());
            assert_eq!(p, parts(Some(vec![]), Some(json!("auto"))));
        }
    }
}

#[cfg(test)]
mod response_format_tests {
    use super::*;
    use crate::pipeline::PipelineConfig;
    use serde_json::json;

    fn format(schema: &Value, strict: bool) -> RequestParts {
        RequestParts {
            tools: None,
            tool_choice: None,
            response_format: Some(
                json!({"type": "json_schema", "json_schema": {"name": "Movie", "strict": strict, "schema": schema}}),
            ),
        }
    }

    #[test]
    fn a_strict_format_is_closed_on_cerebras() {
        let v1 = Profile::V1.with_config(PipelineConfig::default());
        let mut p = format(
            &json!({"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}),
            true,
        );
        let changes = v1.shape_request(Lane::Cerebras, &mut p);
        assert_eq!(
            p.response_format.unwrap()["json_schema"]["schema"].to_string(),
            r#"{"type":"object","properties":{"title":{"type":"string"}},"additionalProperties":false,"required":["title"]}"#
        );
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].member, "response_format");
        assert_eq!(changes[0].name, "shape-response-format");
    }

    #[test]
    fn a_non_strict_format_and_v0_are_left_alone() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let v1 = Profile::V1.with_config(PipelineConfig::default());
        let mut p = format(&schema, false);
        assert!(v1.shape_request(Lane::Cerebras, &mut p).is_empty());
        assert_eq!(p, format(&schema, false));
        let v0 = Profile::V0.with_config(PipelineConfig::default());
        let mut q = format(&schema, true);
        assert!(v0.shape_request(Lane::Cerebras, &mut q).is_empty());
        assert_eq!(q, format(&schema, true));
    }
}
