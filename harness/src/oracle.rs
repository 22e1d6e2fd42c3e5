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
//!
//! Layering: the rules' data model ([`Rule`], [`Request`], [`Finding`],
//! [`Rejection`], [`Status`], [`DEFAULT_AS_OF`]) lives in `rules/model.rs`
//! and the table runner ([`check`], [`rules_for`]) beside the registry in
//! `rules/mod.rs`; this module re-exports them, so `crate::oracle::X` is the
//! path every other module uses, and adds the provider envelopes. Imports
//! point one way, `oracle` → `rules`: no rule file names this module.

use serde_json::{Value, json};

use crate::lane::{Lane, Wire};
pub(crate) use crate::rules::judges_each_tool_alone;
pub use crate::rules::model::{DEFAULT_AS_OF, Finding, Rejection, Request, Rule, Status};
pub use crate::rules::{check, rules_for};

/// The provider's error body for a rejection, field for field as the
/// recordings under `recordings/` show it (the mock's `error-body::*`
/// trials hold every recorded JSON body against it):
///
/// - Anthropic Messages: `{"type": "error", "error": {"type",
///   "message"}, "request_id"}`. Recorded bodies disagree on `request_id`:
///   the newest first-party ones carry it (and Anthropic's error page shows
///   it), older or client-printed ones do not; this follows the newest.
///   `anthropic-compatible` (not Anthropic's servers, nothing recorded)
///   gets the same without `request_id`.
/// - Gemini: `{"error": {"code", "message", "status"}}`, the Gemini API's
///   own body; Vertex AI and the Code Assist backend add a legacy `errors`
///   array, which this leaves out.
/// - Bedrock: `{"message"}`. Ollama: `{"error": "…"}`.
/// - OpenAI (chat, responses, strict): `{"error": {"message", "type",
///   "param", "code"}}` with the `param` and `code` OpenAI gives the rule
///   (`openai_param_code`).
/// - DeepSeek: OpenAI's envelope with `param: null` and `code:
///   "invalid_request_error"`.
/// - Groq: `{"error": {"message", "type"}}`, plus the `param` its schema
///   validator names (`tool NAME, tools[i].function.parameters`).
/// - Mistral: flat `{"object": "error", "message", "type", "param",
///   "code"}`; a 422's message is the validation `detail` object.
/// - Cerebras: flat `{"message", "type", "param", "code":
///   "wrong_api_format"}`, `param` naming `tool_choice` or
///   `response_format` (where Cerebras compiles tool schemas).
/// - Moonshot: `{"error": {"message", "type"}}`, the one body recorded as
///   JSON (`moonshot-type-beside-anyof-127`, as opencode-go relayed it).
/// - xAI: nothing recorded as JSON; OpenAI's envelope with null `param`
///   and `code`.
pub fn error_body(lane: Lane, r: &Rejection) -> Value {
    const INVALID: &str = "invalid_request_error";
    match lane {
        Lane::AnthropicMessages => json!({
            "type": "error",
            "error": {"type": INVALID, "message": r.message},
            "request_id": "req_wireshape_mock"
        }),
        Lane::AnthropicCompatible => json!({
            "type": "error",
            "error": {"type": INVALID, "message": r.message}
        }),
        Lane::GeminiOpenapi | Lane::GeminiJsonschema => json!({
            "error": {"code": r.status, "message": r.message, "status": "INVALID_ARGUMENT"}
        }),
        Lane::BedrockConverse => json!({"message": r.message}),
        Lane::Ollama => json!({"error": r.message}),
        Lane::OpenaiChat | Lane::OpenaiResponses | Lane::OpenaiStrict => {
            let (param, code) = openai_param_code(lane, r);
            json!({"error": {"message": r.message, "type": INVALID, "param": param, "code": code}})
        }
        Lane::DeepseekChat | Lane::DeepseekStrict => json!({
            "error": {"message": r.message, "type": INVALID, "param": null, "code": INVALID}
        }),
        Lane::Groq => {
            let mut error = json!({"message": r.message, "type": INVALID});
            let param = r
                .message
                .strip_prefix("invalid JSON schema for ")
                .and_then(|rest| rest.split_once(": "))
                .map(|(param, _)| param);
            if let Some(param) = param {
                error["param"] = json!(param);
            }
            json!({ "error": error })
        }
        Lane::Mistral => {
            let message = match serde_json::from_str::<Value>(&r.message) {
                Ok(detail @ Value::Object(_)) if r.status == 422 => detail,
                _ => json!(r.message),
            };
            json!({"object": "error", "message": message, "type": INVALID, "param": null, "code": null})
        }
        Lane::Cerebras => {
            let param = if r.rule == "cerebras-tool-choice-named-function" {
                "tool_choice"
            } else {
                "response_format"
            };
            json!({"message": r.message, "type": INVALID, "param": param, "code": "wrong_api_format"})
        }
        Lane::Moonshot => json!({"error": {"message": r.message, "type": INVALID}}),
        Lane::Xai => json!({
            "error": {"message": r.message, "type": INVALID, "param": null, "code": null}
        }),
    }
}

/// OpenAI's `param` and `code` for a rejection: a tool's name
/// (`invalid_value`, or `string_above_max_length`), the `tools` array
/// (`invalid_json_schema` for a pattern, `array_above_max_length` for too
/// many), a tool's schema (`tools[i].function.parameters` on Chat,
/// `tools[i].parameters` on Responses; `invalid_function_parameters`), a
/// strict `response_format` (no code). An empty `tools` array and Azure's
/// `default` rejection (as recorded) carry neither, nor do the mock's own
/// errors (no tool).
fn openai_param_code(lane: Lane, r: &Rejection) -> (Value, Value) {
    match (r.rule, r.tool) {
        ("openai-tool-name-pattern", Some(i)) => {
            (json!(lane.name_location(i)), json!("invalid_value"))
        }
        ("openai-tool-name-length", Some(i)) => (
            json!(lane.name_location(i)),
            json!("string_above_max_length"),
        ),
        ("openai-pattern-lookaround", _) => (json!("tools"), json!("invalid_json_schema")),
        ("openai-tool-count-limit", _) => (json!("tools"), json!("array_above_max_length")),
        ("openai-empty-tools-array" | "azure-openai-strict-default-not-permitted", _) => {
            (Value::Null, Value::Null)
        }
        (_, Some(i)) => (
            json!(lane.schema_location(i)),
            json!("invalid_function_parameters"),
        ),
        (_, None) if r.message.starts_with("Invalid schema for response_format") => {
            (json!("response_format"), Value::Null)
        }
        _ => (Value::Null, Value::Null),
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
