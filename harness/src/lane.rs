//! Lanes: one provider wire each. A lane knows its stable id and how to render
//! tools into that wire's native `tools` array.
//!
//! Lane ids are part of the contract (test names, report keys, file names).

use serde_json::{Map, Value, json};

use crate::error::UsageError;
use crate::tool::Tool;

/// One provider wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lane {
    /// First-party Anthropic Messages (api.anthropic.com).
    AnthropicMessages,
    /// Third-party Messages endpoints (DeepSeek-Anthropic, MiniMax, gateways).
    AnthropicCompatible,
    /// OpenAI Chat Completions.
    OpenaiChat,
    /// OpenAI Responses.
    OpenaiResponses,
    /// DeepSeek strict function calling (beta).
    DeepseekStrict,
}

impl Lane {
    /// Every lane, in id order.
    pub const ALL: &'static [Lane] = &[
        Lane::AnthropicCompatible,
        Lane::AnthropicMessages,
        Lane::DeepseekStrict,
        Lane::OpenaiChat,
        Lane::OpenaiResponses,
    ];

    /// The stable id.
    pub fn id(self) -> &'static str {
        match self {
            Self::AnthropicMessages => "anthropic-messages",
            Self::AnthropicCompatible => "anthropic-compatible",
            Self::OpenaiChat => "openai-chat",
            Self::OpenaiResponses => "openai-responses",
            Self::DeepseekStrict => "deepseek-strict",
        }
    }

    /// One line for `wireshape lanes`.
    pub fn summary(self) -> &'static str {
        match self {
            Self::AnthropicMessages => {
                "Anthropic Messages, first party: tools[].input_schema (POST /v1/messages)"
            }
            Self::AnthropicCompatible => {
                "third-party Messages endpoints (DeepSeek-Anthropic, MiniMax, gateways): tools[].input_schema"
            }
            Self::OpenaiChat => {
                "OpenAI Chat Completions: tools[].function.parameters (POST /v1/chat/completions)"
            }
            Self::OpenaiResponses => {
                "OpenAI Responses: tools[].parameters, strict always sent (POST /v1/responses)"
            }
            Self::DeepseekStrict => {
                "DeepSeek strict function calling (beta): tools[].function.parameters with strict"
            }
        }
    }

    /// Where the schema sits in one rendered tool, as a JSON Pointer.
    pub fn schema_pointer(self) -> &'static str {
        match self {
            Self::AnthropicMessages | Self::AnthropicCompatible => "/input_schema",
            Self::OpenaiChat | Self::DeepseekStrict => "/function/parameters",
            Self::OpenaiResponses => "/parameters",
        }
    }

    /// Parse a lane id.
    pub fn parse(id: &str) -> Result<Lane, UsageError> {
        Self::ALL
            .iter()
            .copied()
            .find(|l| l.id() == id)
            .ok_or_else(|| UsageError::UnknownLane(id.to_owned()))
    }

    /// Render one tool into this wire's native tool object. Key order is
    /// fixed per wire; the schema value is embedded as is.
    pub fn render(self, tool: &Tool) -> Value {
        let mut m = Map::new();
        match self {
            Self::AnthropicMessages | Self::AnthropicCompatible => {
                m.insert("name".into(), json!(tool.name));
                if let Some(d) = &tool.description {
                    m.insert("description".into(), json!(d));
                }
                m.insert("input_schema".into(), tool.input_schema.clone());
                if let Some(s) = tool.strict {
                    m.insert("strict".into(), json!(s));
                }
            }
            Self::OpenaiChat | Self::DeepseekStrict => {
                let mut f = Map::new();
                f.insert("name".into(), json!(tool.name));
                if let Some(d) = &tool.description {
                    f.insert("description".into(), json!(d));
                }
                f.insert("parameters".into(), tool.input_schema.clone());
                if let Some(s) = tool.strict {
                    f.insert("strict".into(), json!(s));
                }
                m.insert("type".into(), json!("function"));
                m.insert("function".into(), Value::Object(f));
            }
            Self::OpenaiResponses => {
                m.insert("type".into(), json!("function"));
                m.insert("name".into(), json!(tool.name));
                if let Some(d) = &tool.description {
                    m.insert("description".into(), json!(d));
                }
                m.insert("parameters".into(), tool.input_schema.clone());
                // Responses treats an absent flag as strict; always say it.
                m.insert("strict".into(), json!(tool.strict.unwrap_or(false)));
            }
        }
        Value::Object(m)
    }

    /// Render a tools array.
    pub fn render_all(self, tools: &[Tool]) -> Value {
        Value::Array(tools.iter().map(|t| self.render(t)).collect())
    }
}

impl std::fmt::Display for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool() -> Tool {
        Tool::new("get", json!({"type":"object"})).with_description("d")
    }

    #[test]
    fn lane_ids_round_trip_and_are_sorted() {
        for l in Lane::ALL {
            assert_eq!(Lane::parse(l.id()).unwrap(), *l);
        }
        let ids: Vec<_> = Lane::ALL.iter().map(|l| l.id()).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        assert_eq!(ids, sorted);
        assert!(Lane::parse("anthropic").is_err());
    }

    #[test]
    fn anthropic_messages_renders_input_schema() {
        assert_eq!(
            serde_json::to_string(&Lane::AnthropicMessages.render(&tool())).unwrap(),
            r#"{"name":"get","description":"d","input_schema":{"type":"object"}}"#
        );
    }

    #[test]
    fn openai_chat_renders_a_function_object() {
        assert_eq!(
            serde_json::to_string(&Lane::OpenaiChat.render(&tool())).unwrap(),
            r#"{"type":"function","function":{"name":"get","description":"d","parameters":{"type":"object"}}}"#
        );
    }

    #[test]
    fn openai_responses_always_sends_strict() {
        assert_eq!(
            serde_json::to_string(&Lane::OpenaiResponses.render(&tool())).unwrap(),
            r#"{"type":"function","name":"get","description":"d","parameters":{"type":"object"},"strict":false}"#
        );
    }

    #[test]
    fn deepseek_strict_renders_the_strict_flag_inside_function() {
        let mut t = tool();
        t.strict = Some(true);
        assert_eq!(
            serde_json::to_string(&Lane::DeepseekStrict.render(&t)).unwrap(),
            r#"{"type":"function","function":{"name":"get","description":"d","parameters":{"type":"object"},"strict":true}}"#
        );
    }
}
