//! Where each lane's probe goes: the provider's base URL, path, key
//! variable, auth headers, default model, and the smallest request body
//! its wire accepts (the smallest output limit, `tool_choice` none where the
//! wire has it, no tool execution).

use serde_json::{Value, json};

use crate::lane::{Lane, Wire};

/// A lane's endpoint as the probe sends to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Endpoint {
    /// The provider slug (the recordings' directory).
    pub provider: &'static str,
    /// The default base URL (`WIRESHAPE_<LANE>_BASE_URL` overrides it).
    pub base_url: &'static str,
    /// The path after the base URL; `{model}` is replaced.
    pub path: &'static str,
    /// The environment variable holding the key (`None`: no key, Ollama).
    pub key_env: Option<&'static str>,
    /// The default model (`WIRESHAPE_<LANE>_MODEL` overrides it).
    pub model: &'static str,
}

/// The chat-completions path most chat wires serve.
const CHAT: &str = "/v1/chat/completions";

/// The lane's endpoint.
pub(crate) fn endpoint(lane: Lane) -> Endpoint {
    let e = |provider, base_url, path, key_env, model| Endpoint {
        provider,
        base_url,
        path,
        key_env,
        model,
    };
    match lane {
        Lane::AnthropicMessages => e(
            "anthropic",
            "https://api.anthropic.com",
            "/v1/messages",
            Some("ANTHROPIC_API_KEY"),
            "claude-haiku-4-5",
        ),
        Lane::AnthropicCompatible => e(
            "deepseek",
            "https://api.deepseek.com/anthropic",
            "/v1/messages",
            Some("DEEPSEEK_API_KEY"),
            "deepseek-chat",
        ),
        Lane::OpenaiChat | Lane::OpenaiStrict => e(
            "openai",
            "https://api.openai.com",
            CHAT,
            Some("OPENAI_API_KEY"),
            "gpt-4.1-mini",
        ),
        Lane::OpenaiResponses => e(
            "openai",
            "https://api.openai.com",
            "/v1/responses",
            Some("OPENAI_API_KEY"),
            "gpt-4.1-mini",
        ),
        Lane::DeepseekChat => e(
            "deepseek",
            "https://api.deepseek.com",
            "/chat/completions",
            Some("DEEPSEEK_API_KEY"),
            "deepseek-chat",
        ),
        // Strict function calling is a beta: its own base URL.
        Lane::DeepseekStrict => e(
            "deepseek",
            "https://api.deepseek.com/beta",
            "/chat/completions",
            Some("DEEPSEEK_API_KEY"),
            "deepseek-chat",
        ),
        Lane::GeminiOpenapi | Lane::GeminiJsonschema => e(
            "gemini",
            "https://generativelanguage.googleapis.com",
            "/v1beta/models/{model}:generateContent",
            Some("GEMINI_API_KEY"),
            "gemini-2.5-flash-lite",
        ),
        // A Bedrock API key (bearer token); the region is in the base URL.
        Lane::BedrockConverse => e(
            "bedrock",
            "https://bedrock-runtime.us-east-1.amazonaws.com",
            "/model/{model}/converse",
            Some("AWS_BEARER_TOKEN_BEDROCK"),
            "us.anthropic.claude-haiku-4-5-20251001-v1:0",
        ),
        Lane::Moonshot => e(
            "moonshot",
            "https://api.moonshot.ai",
            CHAT,
            Some("MOONSHOT_API_KEY"),
            "kimi-k2-turbo-preview",
        ),
        Lane::Mistral => e(
            "mistral",
            "https://api.mistral.ai",
            CHAT,
            Some("MISTRAL_API_KEY"),
            "mistral-small-latest",
        ),
        Lane::Groq => e(
            "groq",
            "https://api.groq.com/openai",
            CHAT,
            Some("GROQ_API_KEY"),
            "llama-3.1-8b-instant",
        ),
        Lane::Xai => e(
            "xai",
            "https://api.x.ai",
            "/v1/responses",
            Some("XAI_API_KEY"),
            "grok-3-mini",
        ),
        Lane::Cerebras => e(
            "cerebras",
            "https://api.cerebras.ai",
            CHAT,
            Some("CEREBRAS_API_KEY"),
            "llama3.1-8b",
        ),
        Lane::Ollama => e(
            "ollama",
            "http://127.0.0.1:11434",
            "/api/chat",
            None,
            "llama3.2",
        ),
    }
}

/// `WIRESHAPE_<LANE>_<WHAT>`: the lane id upper-cased, `-` as `_`.
pub(crate) fn env_name(lane: Lane, what: &str) -> String {
    format!(
        "WIRESHAPE_{}_{what}",
        lane.id().to_ascii_uppercase().replace('-', "_")
    )
}

/// The output limit the body asks for (Responses needs at least 16).
pub(crate) fn output_tokens(lane: Lane) -> u64 {
    match lane.wire() {
        Wire::Responses => 16,
        _ => 1,
    }
}

/// The `tool_choice` the body sends, when the wire has one.
pub(crate) fn tool_choice(lane: Lane) -> Option<Value> {
    match lane.wire() {
        Wire::Messages => Some(json!({"type": "none"})),
        Wire::Chat if lane == Lane::Ollama => None,
        Wire::Chat | Wire::Responses => Some(json!("none")),
        Wire::GeminiParameters | Wire::GeminiJsonSchema | Wire::Bedrock => None,
    }
}

const PROMPT: &str = "Say ok.";

/// The whole request body around the wire `tools` array.
pub(crate) fn body(lane: Lane, model: &str, tools: &Value) -> Value {
    let n = output_tokens(lane);
    let choice = tool_choice(lane);
    match lane.wire() {
        Wire::Messages => json!({
            "model": model,
            "max_tokens": n,
            "messages": [{"role": "user", "content": PROMPT}],
            "tools": tools,
            "tool_choice": choice,
        }),
        Wire::Responses => json!({
            "model": model,
            "input": PROMPT,
            "tools": tools,
            "tool_choice": choice,
            "max_output_tokens": n,
        }),
        Wire::GeminiParameters | Wire::GeminiJsonSchema => json!({
            "contents": [{"role": "user", "parts": [{"text": PROMPT}]}],
            "tools": tools,
            "toolConfig": {"functionCallingConfig": {"mode": "NONE"}},
            "generationConfig": {"maxOutputTokens": n},
        }),
        Wire::Bedrock => json!({
            "messages": [{"role": "user", "content": [{"text": PROMPT}]}],
            "toolConfig": {"tools": tools},
            "inferenceConfig": {"maxTokens": n},
        }),
        Wire::Chat if lane == Lane::Ollama => json!({
            "model": model,
            "messages": [{"role": "user", "content": PROMPT}],
            "tools": tools,
            "stream": false,
            "options": {"num_predict": n},
        }),
        Wire::Chat => {
            // OpenAI's newer models take only `max_completion_tokens`;
            // the other chat providers know `max_tokens`.
            let limit = if matches!(lane, Lane::OpenaiChat | Lane::OpenaiStrict) {
                "max_completion_tokens"
            } else {
                "max_tokens"
            };
            let mut b = json!({
                "model": model,
                "messages": [{"role": "user", "content": PROMPT}],
                "tools": tools,
                "tool_choice": choice,
            });
            b[limit] = json!(n);
            b
        }
    }
}

/// The headers that carry the key (sent as secret headers).
pub(crate) fn auth_headers(lane: Lane, key: &str) -> Vec<(String, String)> {
    let h = |n: &str, v: String| vec![(n.to_owned(), v)];
    match lane.wire() {
        Wire::Messages => h("x-api-key", key.to_owned()),
        Wire::GeminiParameters | Wire::GeminiJsonSchema => h("x-goog-api-key", key.to_owned()),
        _ => h("authorization", format!("Bearer {key}")),
    }
}

/// Other headers the wire needs.
pub(crate) fn plain_headers(lane: Lane) -> Vec<(String, String)> {
    match lane.wire() {
        Wire::Messages => vec![("anthropic-version".to_owned(), "2023-06-01".to_owned())],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_names_follow_the_lane_id() {
        assert_eq!(
            env_name(Lane::OpenaiStrict, "BASE_URL"),
            "WIRESHAPE_OPENAI_STRICT_BASE_URL"
        );
        assert_eq!(env_name(Lane::Xai, "MODEL"), "WIRESHAPE_XAI_MODEL");
    }

    #[test]
    fn every_lane_has_an_endpoint_and_a_minimal_body() {
        for &lane in Lane::ALL {
            let e = endpoint(lane);
            assert!(e.base_url.starts_with("http"), "{lane}");
            assert!(e.path.starts_with('/'), "{lane}");
            let b = body(lane, "m", &json!([]));
            let text = b.to_string();
            assert!(text.contains("\"tools\":[]"), "{lane}: {text}");
            assert!(text.contains(PROMPT), "{lane}");
        }
    }

    #[test]
    fn bodies_ask_for_the_smallest_answer_and_no_tool_call() {
        let b = body(Lane::AnthropicMessages, "m", &json!([]));
        assert_eq!(b["max_tokens"], 1);
        assert_eq!(b["tool_choice"], json!({"type": "none"}));
        let b = body(Lane::OpenaiStrict, "m", &json!([]));
        assert_eq!(b["max_completion_tokens"], 1);
        assert_eq!(b["tool_choice"], "none");
        let b = body(Lane::Mistral, "m", &json!([]));
        assert_eq!(b["max_tokens"], 1);
        let b = body(Lane::OpenaiResponses, "m", &json!([]));
        assert_eq!(b["max_output_tokens"], 16);
        let b = body(Lane::GeminiOpenapi, "m", &json!([]));
        assert_eq!(b["toolConfig"]["functionCallingConfig"]["mode"], "NONE");
        let b = body(Lane::BedrockConverse, "m", &json!([]));
        assert_eq!(b["inferenceConfig"]["maxTokens"], 1);
    }
}
