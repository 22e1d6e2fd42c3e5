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

    pub(crate) fn apply(self, parts: &mut RequestParts) -> Option<RequestChange> {
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

/// The name of a rendered wire tool given as its compact JSON text (what
/// [`wire_tool_name`] reads from the value, without building one).
pub(crate) fn wire_tool_name_in(lane: Lane, text: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Named {
        #[serde(default)]
        name: Option<Value>,
    }
    #[derive(serde::Deserialize)]
    struct Chat {
        #[serde(default)]
        function: Option<Named>,
    }
    #[derive(serde::Deserialize)]
    struct Bedrock {
        #[serde(default, rename = "toolSpec")]
        tool_spec: Option<Named>,
    }
    let named = match lane.wire() {
        Wire::Chat => serde_json::from_str::<Chat>(text)
            .ok()
            .and_then(|c| c.function),
        Wire::Bedrock => serde_json::from_str::<Bedrock>(text)
            .ok()
            .and_then(|b| b.tool_spec),
        _ => serde_json::from_str::<Named>(text).ok(),
    };
    match named.and_then(|n| n.name) {
        Some(Value::String(name)) => name,
        _ => String::new(),
    }
}

/// A request's tools as the body writer takes them.
#[derive(Clone, Copy)]
enum ToolsIn<'a> {
    /// Wire tool values, serialized here.
    Values(&'a [Value]),
    /// Each wire tool's compact JSON text, as [`crate::schema::to_bytes`]
    /// gave it: written as is, with its name ([`wire_tool_name_in`]).
    Texts(&'a [&'a str], &'a [String]),
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
    fn tools(&mut self, key: &str, label: &'static str, lane: Lane, tools: ToolsIn<'_>) {
        let start = self.key(key);
        let value_start = self.out.len();
        let gemini = matches!(lane.wire(), Wire::GeminiParameters | Wire::GeminiJsonSchema);
        self.out.push_str(if gemini {
            "[{\"functionDeclarations\":["
        } else {
            "["
        });
        let count = match tools {
            ToolsIn::Values(v) => v.len(),
            ToolsIn::Texts(t, _) => t.len(),
        };
        for i in 0..count {
            if i > 0 {
                self.out.push(',');
            }
            let at = self.out.len();
            let name = match tools {
                ToolsIn::Values(v) => {
                    self.out.push_str(&crate::schema::to_bytes(&v[i]));
                    wire_tool_name(lane, &v[i])
                }
                ToolsIn::Texts(t, names) => {
                    self.out.push_str(t[i]);
                    names.get(i).cloned().unwrap_or_default()
                }
            };
            self.tools.push(at..self.out.len());
            self.tool_names.push(name);
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
        Self::render_with(
            lane,
            kind,
            parts,
            parts.tools.as_deref().map(ToolsIn::Values),
        )
    }

    /// [`render`](Self::render), with each tool of `parts.tools` written
    /// as `texts` gives it (its compact JSON text): the same bytes without
    /// building the values. `None` when `parts.tools` is sent with another
    /// number of tools than `texts` has (the caller renders the values).
    pub fn render_texts(
        lane: Lane,
        kind: RequestKind,
        parts: &RequestParts,
        texts: &[&str],
    ) -> Option<Self> {
        let names: Vec<String> = texts.iter().map(|t| wire_tool_name_in(lane, t)).collect();
        Self::render_named_texts(lane, kind, parts, texts, &names)
    }

    /// [`render_texts`](Self::render_texts) with each text's tool name
    /// given (`names[i]`: [`wire_tool_name_in`] of `texts[i]`), for a
    /// caller that renders the same tools into several requests.
    pub(crate) fn render_named_texts(
        lane: Lane,
        kind: RequestKind,
        parts: &RequestParts,
        texts: &[&str],
        names: &[String],
    ) -> Option<Self> {
        match &parts.tools {
            Some(tools) if tools.len() != texts.len() => None,
            Some(_) => Some(Self::render_with(
                lane,
                kind,
                parts,
                Some(ToolsIn::Texts(texts, names)),
            )),
            None => Some(Self::render_with(lane, kind, parts, None)),
        }
    }

    fn render_with(
        lane: Lane,
        kind: RequestKind,
        parts: &RequestParts,
        tools: Option<ToolsIn<'_>>,
    ) -> Self {
        let mut w = BodyWriter::new();
        // A body written around the tools' texts is about their bytes;
        // grown by doubling, a 20 MB body (a thousand-tool catalog) held
        // up to 32 MB.
        if let Some(ToolsIn::Texts(texts, _)) = &tools {
            let bytes: usize = texts.iter().map(|t| t.len() + 64).sum();
            w.out.reserve(bytes + 8192);
        }
        let text_turns = |wrap: &dyn Fn(&str, &str) -> Value| -> Value {
            Value::Array(kind.turns().iter().map(|(r, t)| wrap(r, t)).collect())
        };
        let plain = |r: &str, t: &str| json!({"role": r, "content": t});
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
