//! Oracles: executable models of what each provider's endpoint rejects.
//!
//! An oracle is the table of [`Rule`]s registered for a lane (see
//! `rules/mod.rs`, one file per provider). [`check`] runs every rule of the
//! lane over a request and returns the rejections, each with the rule id
//! (equal to the `rule` of the recordings that evidence it), the tool index,
//! the JSON Pointer and the message in the provider's own words;
//! [`error_body`] wraps the first rejection in the provider's error envelope.
//! Metaschema validity comes from `metaschema` (which wraps the
//! `jsonschema` crate, no remote `$ref`s) and lookaround detection from the
//! ECMA-262 lexer in `ecma`.

use serde::Serialize;
use serde_json::{Value, json};

use crate::lane::{Lane, Wire};
use crate::rules;

/// Where a rule's evidence comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Seen as a real provider rejection (a recording exists).
    Recorded,
    /// Stated by the provider's documentation only.
    Documented,
    /// Confirmed by a live probe.
    Probed,
}

impl Status {
    pub fn id(self) -> &'static str {
        match self {
            Self::Recorded => "recorded",
            Self::Documented => "documented",
            Self::Probed => "probed",
        }
    }
}

/// What a rule sees: the request as the wire carries it.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub lane: Lane,
    /// The wire tool objects (on Gemini: the function declarations).
    pub tools: &'a [Value],
    /// Whether the request carries a `tools` member at all (an absent
    /// member and an empty array are different requests).
    pub tools_present: bool,
    pub tool_choice: Option<&'a Value>,
    pub response_format: Option<&'a Value>,
    /// The date the verdict is for (`YYYY-MM-DD`), for rules that changed.
    pub as_of: &'a str,
}

impl Request<'_> {
    /// The tool's name on this wire.
    pub fn name(&self, i: usize) -> Option<&str> {
        let t = self.tools.get(i)?;
        match self.lane.wire() {
            Wire::Chat => t.pointer("/function/name"),
            Wire::Bedrock => t.pointer("/toolSpec/name"),
            _ => t.get("name"),
        }
        .and_then(Value::as_str)
    }

    /// The tool's input schema on this wire (`None` when the member is absent).
    pub fn schema(&self, i: usize) -> Option<&Value> {
        self.tools.get(i)?.pointer(self.lane.schema_pointer())
    }

    /// The tool's `strict` flag on this wire.
    pub fn strict(&self, i: usize) -> Option<bool> {
        let t = self.tools.get(i)?;
        let v = match self.lane.wire() {
            Wire::Chat => t.pointer("/function/strict"),
            _ => t.get("strict"),
        };
        v.and_then(Value::as_bool)
            .or_else(|| self.lane.strict_by_default().then_some(true))
    }

    /// The pointer of the schema inside the request, as providers print it
    /// (`tools.3.input_schema`, `tools[3].function.parameters`, …).
    pub fn schema_location(&self, i: usize) -> String {
        match self.lane.wire() {
            Wire::Messages => format!("tools.{i}.custom.input_schema"),
            Wire::Chat => format!("tools[{i}].function.parameters"),
            Wire::Responses => format!("tools[{i}].parameters"),
            Wire::GeminiParameters => format!("tools[0].function_declarations[{i}].parameters"),
            Wire::GeminiJsonSchema => {
                format!("tools[0].function_declarations[{i}].parameters_json_schema")
            }
            Wire::Bedrock => format!("toolConfig.tools.{i}.toolSpec.inputSchema.json"),
        }
    }
}

/// One thing a rule found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The offending tool, when the finding is about one.
    pub tool: Option<usize>,
    /// JSON Pointer inside that tool's schema (`""`: the root or the tool).
    pub path: String,
    /// The message, in the provider's own words (it contains the rule's
    /// recorded `match` text).
    pub message: String,
}

/// One rule of a provider's oracle.
pub struct Rule {
    /// Equal to the `rule` of the recordings that evidence it.
    pub id: &'static str,
    pub lanes: &'static [Lane],
    pub status: Status,
    /// What it rejects, in one line.
    pub summary: &'static str,
    /// Documentation URLs.
    pub docs: &'static [&'static str],
    /// First and last date a rejection was observed (`YYYY-MM-DD`).
    pub first_seen: Option<&'static str>,
    pub last_seen: Option<&'static str>,
    /// The date the documentation in `docs` was read (`YYYY-MM-DD`), for
    /// documented rules built from the provider-facts table (`facts.rs`).
    pub read: Option<&'static str>,
    /// HTTP status the provider answers with.
    pub status_code: u16,
    /// The predicate: every finding in the request.
    pub check: fn(&Request<'_>) -> Vec<Finding>,
}

/// A rule that rejects a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejection {
    pub rule: &'static str,
    pub status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<usize>,
    pub path: String,
    pub message: String,
}

/// Every rule registered for a lane, sorted by id.
pub fn rules_for(lane: Lane) -> Vec<&'static Rule> {
    let mut v: Vec<&'static Rule> = rules::all()
        .iter()
        .copied()
        .filter(|r| r.lanes.contains(&lane))
        .collect();
    v.sort_by_key(|r| r.id);
    v
}

/// Run every rule of the lane; rejections sorted by (tool, rule id).
pub fn check(req: &Request<'_>) -> Vec<Rejection> {
    // Per-request memos in the rules key on this request's addresses; the
    // guard disarms them on every way out, a panicking rule included.
    struct Disarm;
    impl Drop for Disarm {
        fn drop(&mut self) {
            crate::rules::request_memos(false);
        }
    }
    crate::rules::request_memos(true);
    let _disarm = Disarm;
    let mut out = Vec::new();
    for rule in rules_for(req.lane) {
        for f in (rule.check)(req) {
            out.push(Rejection {
                rule: rule.id,
                status: rule.status_code,
                tool: f.tool,
                path: f.path,
                message: f.message,
            });
        }
    }
    out.sort_by(|a, b| (a.tool, a.rule).cmp(&(b.tool, b.rule)));
    out
}

/// The provider's error body for a rejection: Anthropic's
/// `{"type":"error","error":{…}}`, OpenAI-style `{"error":{…}}`, Gemini's
/// `{"error":{"code","message","status"}}`, Bedrock's `{"message"}`,
/// Ollama's `{"error": "…"}`.
pub fn error_body(lane: Lane, r: &Rejection) -> Value {
    match lane {
        Lane::AnthropicMessages | Lane::AnthropicCompatible => json!({
            "type": "error",
            "error": {"type": "invalid_request_error", "message": r.message}
        }),
        Lane::GeminiOpenapi | Lane::GeminiJsonschema => json!({
            "error": {"code": r.status, "message": r.message, "status": "INVALID_ARGUMENT"}
        }),
        Lane::BedrockConverse => json!({"message": r.message}),
        Lane::Ollama => json!({"error": r.message}),
        _ => json!({
            "error": {"message": r.message, "type": "invalid_request_error", "param": null, "code": null}
        }),
    }
}

/// The provider's minimal valid answer to an accepted request (what the
/// mock provider sends with a 200).
pub fn accept_body(lane: Lane) -> Value {
    match lane.wire() {
        Wire::Messages => json!({
            "id": "msg_mock", "type": "message", "role": "assistant", "model": "mock",
            "content": [{"type": "text", "text": "ok"}],
            "stop_reason": "end_turn", "stop_sequence": null,
            "usage": {"input_tokens": 1, "output_tokens": 1}
        }),
        Wire::Responses => json!({
            "id": "resp_mock", "object": "response", "status": "completed", "model": "mock",
            "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}]
        }),
        Wire::GeminiParameters | Wire::GeminiJsonSchema => json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]
        }),
        Wire::Bedrock => json!({
            "output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}},
            "stopReason": "end_turn", "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}
        }),
        Wire::Chat if lane == Lane::Ollama => json!({
            "model": "mock", "message": {"role": "assistant", "content": "ok"}, "done": true
        }),
        Wire::Chat => json!({
            "id": "chatcmpl-mock", "object": "chat.completion", "model": "mock",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}]
        }),
    }
}

/// Today's date for verdicts without `--as-of`: the newest rule dates.
pub const DEFAULT_AS_OF: &str = "2026-11-30";

/// The first reason a schema is not a valid JSON Schema draft 2020-12
/// document, if any: a plain-data check below the oracles and the passes
/// (`metaschema`), re-exported for the provider rule files.
pub(crate) use crate::metaschema::draft_2020_12_error as metaschema_error;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metaschema_errors_name_the_problem() {
        assert_eq!(metaschema_error(&json!({"type": "object"})), None);
        assert!(metaschema_error(&json!({"type": "objekt"})).is_some());
        assert!(metaschema_error(&json!({"required": "a"})).is_some());
    }
}
