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
pub use crate::rules::model::{DEFAULT_AS_OF, Finding, Rejection, Request, Rule, Status};
pub use crate::rules::{check, rules_for};

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
