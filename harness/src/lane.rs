//! Lanes: one provider wire each. A lane knows its stable id and how to render
//! tools into that wire's native `tools` array.
//!
//! Lane ids are part of the contract (test names, report keys, file names).

use serde_json::{Map, Value, json};

use crate::error::UsageError;
use crate::lookup::Lookup;
use crate::tool::Tool;

/// How a wire carries tools: the shape of one tool object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// `{name, description, input_schema, strict?}` (Anthropic Messages).
    Messages,
    /// `{type: "function", function: {name, description, parameters, strict?}}`.
    Chat,
    /// `{type: "function", name, description, parameters, strict}` (Responses).
    Responses,
    /// Gemini function declaration `{name, description, parameters}` (OpenAPI subset).
    GeminiParameters,
    /// Gemini function declaration `{name, description, parametersJsonSchema}`.
    GeminiJsonSchema,
    /// Bedrock Converse `{toolSpec: {name, description, inputSchema: {json}}}`.
    Bedrock,
}

/// One provider wire. Lanes order by their id string (see the `Ord`
/// impl), not by declaration order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    /// First-party Anthropic Messages (api.anthropic.com).
    AnthropicMessages,
    /// Third-party Messages endpoints (DeepSeek-Anthropic, MiniMax, gateways).
    AnthropicCompatible,
    /// OpenAI Chat Completions.
    OpenaiChat,
    /// OpenAI Responses.
    OpenaiResponses,
    /// OpenAI Structured Outputs: every tool `strict: true`.
    OpenaiStrict,
    /// DeepSeek chat completions (non-strict).
    DeepseekChat,
    /// DeepSeek strict function calling (beta).
    DeepseekStrict,
    /// Gemini `parameters` (OpenAPI 3.0 subset).
    GeminiOpenapi,
    /// Gemini `parametersJsonSchema`.
    GeminiJsonschema,
    /// AWS Bedrock Converse.
    BedrockConverse,
    /// Moonshot / Kimi chat completions.
    Moonshot,
    /// Mistral chat completions.
    Mistral,
    /// Groq chat completions.
    Groq,
    /// xAI (Responses-style wire).
    Xai,
    /// Cerebras chat completions.
    Cerebras,
    /// Ollama `/api/chat`.
    Ollama,
}

impl Lane {
    /// Every lane, in id order.
    pub const ALL: &'static [Lane] = &[
        Lane::AnthropicCompatible,
        Lane::AnthropicMessages,
        Lane::BedrockConverse,
        Lane::Cerebras,
        Lane::DeepseekChat,
        Lane::DeepseekStrict,
        Lane::GeminiJsonschema,
        Lane::GeminiOpenapi,
        Lane::Groq,
        Lane::Mistral,
        Lane::Moonshot,
        Lane::Ollama,
        Lane::OpenaiChat,
        Lane::OpenaiResponses,
        Lane::OpenaiStrict,
        Lane::Xai,
    ];

    /// The lanes where v0 and v1 differ: what `run` compares by default.
    /// (The others ship verbatim in both lines until v1 shaping exists
    /// for them, so a differential run there is all `identical`.)
    pub const DIFFERENTIAL: &'static [Lane] = &[
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
            Self::OpenaiStrict => "openai-strict",
            Self::DeepseekChat => "deepseek-chat",
            Self::DeepseekStrict => "deepseek-strict",
            Self::GeminiOpenapi => "gemini-openapi",
            Self::GeminiJsonschema => "gemini-jsonschema",
            Self::BedrockConverse => "bedrock-converse",
            Self::Moonshot => "moonshot",
            Self::Mistral => "mistral",
            Self::Groq => "groq",
            Self::Xai => "xai",
            Self::Cerebras => "cerebras",
            Self::Ollama => "ollama",
        }
    }

    /// The wire's tool shape.
    pub fn wire(self) -> Wire {
        match self {
            Self::AnthropicMessages | Self::AnthropicCompatible => Wire::Messages,
            Self::OpenaiResponses | Self::Xai => Wire::Responses,
            Self::GeminiOpenapi => Wire::GeminiParameters,
            Self::GeminiJsonschema => Wire::GeminiJsonSchema,
            Self::BedrockConverse => Wire::Bedrock,
            Self::OpenaiChat
            | Self::OpenaiStrict
            | Self::DeepseekChat
            | Self::DeepseekStrict
            | Self::Moonshot
            | Self::Mistral
            | Self::Groq
            | Self::Cerebras
            | Self::Ollama => Wire::Chat,
        }
    }

    /// The provider's endpoint, as the recordings name it.
    pub fn endpoint(self) -> &'static str {
        match self {
            Self::AnthropicMessages | Self::AnthropicCompatible => "POST /v1/messages",
            Self::OpenaiResponses | Self::Xai => "POST /v1/responses",
            Self::GeminiOpenapi | Self::GeminiJsonschema => {
                "POST /v1beta/models/{model}:generateContent"
            }
            Self::BedrockConverse => "POST /model/{modelId}/converse",
            Self::Ollama => "POST /api/chat",
            _ => "POST /v1/chat/completions",
        }
    }

    /// One line for `wireshape lanes`.
    pub fn summary(self) -> &'static str {
        match self {
            Self::AnthropicMessages => "Anthropic Messages, first party: tools[].input_schema",
            Self::AnthropicCompatible => {
                "third-party Messages endpoints (DeepSeek-Anthropic, MiniMax, gateways): tools[].input_schema"
            }
            Self::OpenaiChat => "OpenAI Chat Completions: tools[].function.parameters",
            Self::OpenaiResponses => "OpenAI Responses: tools[].parameters, strict always sent",
            Self::OpenaiStrict => {
                "OpenAI Structured Outputs: tools[].function.parameters, strict: true"
            }
            Self::DeepseekChat => "DeepSeek chat completions: tools[].function.parameters",
            Self::DeepseekStrict => {
                "DeepSeek strict function calling (beta): tools[].function.parameters with strict"
            }
            Self::GeminiOpenapi => {
                "Gemini: tools[].functionDeclarations[].parameters (OpenAPI subset)"
            }
            Self::GeminiJsonschema => "Gemini: tools[].functionDeclarations[].parametersJsonSchema",
            Self::BedrockConverse => {
                "Bedrock Converse: toolConfig.tools[].toolSpec.inputSchema.json"
            }
            Self::Moonshot => "Moonshot / Kimi chat completions: tools[].function.parameters",
            Self::Mistral => "Mistral chat completions: tools[].function.parameters",
            Self::Groq => "Groq chat completions: tools[].function.parameters",
            Self::Xai => "xAI Responses: tools[].parameters",
            Self::Cerebras => "Cerebras chat completions: tools[].function.parameters",
            Self::Ollama => "Ollama /api/chat: tools[].function.parameters",
        }
    }

    /// Where the schema sits in one rendered tool: the object members to
    /// follow from the tool (`["function", "parameters"]`).
    pub fn schema_keys(self) -> &'static [&'static str] {
        match self.wire() {
            Wire::Messages => &["input_schema"],
            Wire::Chat => &["function", "parameters"],
            Wire::Responses | Wire::GeminiParameters => &["parameters"],
            Wire::GeminiJsonSchema => &["parametersJsonSchema"],
            Wire::Bedrock => &["toolSpec", "inputSchema", "json"],
        }
    }

    /// The schema of `wire`, one tool as this lane renders it (`None` when
    /// it has none). The members are looked up directly: a JSON Pointer
    /// (`Value::pointer`) copies each of its tokens on every call, and the
    /// oracle's rules ask for each tool's schema many times per request.
    pub fn schema_in(self, wire: &Value) -> Option<&Value> {
        self.schema_keys().iter().try_fold(wire, |v, k| v.field(k))
    }

    /// [`Lane::schema_in`], mutable.
    fn schema_in_mut(self, wire: &mut Value) -> Option<&mut Value> {
        self.schema_keys()
            .iter()
            .try_fold(wire, |v, k| v.field_mut(k))
    }

    /// Where tool `i`'s schema sits in a request, as the provider prints it
    /// (`tools.3.custom.input_schema`, `tools[3].function.parameters`, …).
    pub fn schema_location(self, i: usize) -> String {
        match self.wire() {
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

    /// Where tool `i`'s name sits in a request, as the provider prints it
    /// (`tools[3].function.name`, `tools[3].name`, …).
    pub fn name_location(self, i: usize) -> String {
        match self.wire() {
            Wire::Messages => format!("tools.{i}.custom.name"),
            Wire::Chat => format!("tools[{i}].function.name"),
            Wire::Responses => format!("tools[{i}].name"),
            Wire::GeminiParameters | Wire::GeminiJsonSchema => {
                format!("tools[0].function_declarations[{i}].name")
            }
            Wire::Bedrock => format!("toolConfig.tools.{i}.toolSpec.name"),
        }
    }

    /// On this wire an absent `strict` flag still means strict (so a tool
    /// that must ship non-strict says `strict: false`).
    pub fn strict_by_default(self) -> bool {
        matches!(self, Self::OpenaiStrict)
    }

    /// Parse a lane id.
    pub fn parse(id: &str) -> Result<Lane, UsageError> {
        Self::ALL
            .iter()
            .copied()
            .find(|l| l.id() == id)
            .ok_or_else(|| UsageError::UnknownLane(id.to_owned()))
    }

    /// Render one tool into this wire's native tool object (a function
    /// declaration on Gemini). Key order is fixed per wire; the schema value
    /// is embedded as is.
    pub fn render(self, tool: &Tool) -> Value {
        self.render_with(tool, tool.input_schema.clone())
    }

    /// [`Lane::render`], the schema moved out of `tool` into the wire
    /// object instead of copied (`tool` keeps `null` for its schema).
    pub(crate) fn render_taking(self, tool: &mut Tool) -> Value {
        let schema = std::mem::take(&mut tool.input_schema);
        self.render_with(tool, schema)
    }

    /// Undo [`Lane::render_taking`]: the schema moved from `wire` (this
    /// lane's rendering of `tool`) back into `tool`.
    pub(crate) fn return_schema(self, mut wire: Value, tool: &mut Tool) {
        if let Some(schema) = self.schema_in_mut(&mut wire) {
            tool.input_schema = std::mem::take(schema);
        }
    }

    /// `tool` on this wire with `schema` as its schema.
    fn render_with(self, tool: &Tool, schema: Value) -> Value {
        let mut m = Map::new();
        let name_desc = |m: &mut Map<String, Value>| {
            m.insert("name".into(), json!(tool.name));
            if let Some(d) = &tool.description {
                m.insert("description".into(), json!(d));
            }
        };
        match self.wire() {
            Wire::Messages => {
                name_desc(&mut m);
                m.insert("input_schema".into(), schema);
                if let Some(s) = tool.strict {
                    m.insert("strict".into(), json!(s));
                }
            }
            Wire::Chat => {
                let mut f = Map::new();
                name_desc(&mut f);
                f.insert("parameters".into(), schema);
                let strict = if self.strict_by_default() {
                    Some(tool.strict.unwrap_or(true))
                } else {
                    tool.strict
                };
                if let Some(s) = strict {
                    f.insert("strict".into(), json!(s));
                }
                m.insert("type".into(), json!("function"));
                m.insert("function".into(), Value::Object(f));
            }
            Wire::Responses => {
                m.insert("type".into(), json!("function"));
                name_desc(&mut m);
                m.insert("parameters".into(), schema);
                // Responses treats an absent flag as strict; always say it.
                m.insert("strict".into(), json!(tool.strict.unwrap_or(false)));
            }
            Wire::GeminiParameters => {
                name_desc(&mut m);
                m.insert("parameters".into(), schema);
            }
            Wire::GeminiJsonSchema => {
                name_desc(&mut m);
                m.insert("parametersJsonSchema".into(), schema);
            }
            Wire::Bedrock => {
                let mut spec = Map::new();
                name_desc(&mut spec);
                let mut input = Map::new();
                input.insert("json".into(), schema);
                spec.insert("inputSchema".into(), Value::Object(input));
                m.insert("toolSpec".into(), Value::Object(spec));
            }
        }
        Value::Object(m)
    }

    /// Render the request's tools array (Gemini wraps its declarations in
    /// one `functionDeclarations` tool).
    pub fn render_all(self, tools: &[Tool]) -> Value {
        self.render_each(tools)
    }

    /// [`Lane::render_all`] over borrowed tools (no copy of the tools
    /// first): always a JSON array.
    pub(crate) fn render_each<'t>(self, tools: impl IntoIterator<Item = &'t Tool>) -> Value {
        self.tools_array(tools.into_iter().map(|t| self.render(t)).collect())
    }

    /// The request's tools array around rendered tools (Gemini's one
    /// `functionDeclarations` tool).
    pub(crate) fn tools_array(self, items: Vec<Value>) -> Value {
        match self.wire() {
            Wire::GeminiParameters | Wire::GeminiJsonSchema => {
                let mut declarations = Map::new();
                declarations.insert("functionDeclarations".into(), Value::Array(items));
                Value::Array(vec![Value::Object(declarations)])
            }
            _ => Value::Array(items),
        }
    }
}

/// Lanes order by id, as the strings they serialize to: a sorted list or a
/// map keyed by lane (`outcomes.json`, the summary) has the bytes it had
/// when lanes were strings. The declaration order above is not id order.
impl Ord for Lane {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.id().cmp(other.id())
    }
}

impl PartialOrd for Lane {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// A lane is written as its id; reading an unknown id is an error naming it
/// (serde adds the file position), never a default lane.
impl serde::Serialize for Lane {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> serde::Deserialize<'de> for Lane {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Lane::parse(&id).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool() -> Tool {
        Tool::new("get", json!({"type":"object"})).with_description("d")
    }

    #[test]
    fn render_taking_renders_as_render_and_leaves_a_null_schema() {
        for &lane in Lane::ALL {
            let mut t = tool();
            t.strict = Some(true);
            let schema = json!({"type":"object","properties":{"q":{"type":"string"}}});
            t.input_schema = schema.clone();
            let rendered = lane.render(&t);
            let taken = lane.render_taking(&mut t);
            assert_eq!(taken, rendered, "{lane}");
            assert_eq!(t.input_schema, Value::Null, "{lane}");
            assert_eq!(t.name, "get");
            lane.return_schema(taken, &mut t);
            assert_eq!(t.input_schema, schema, "{lane}: the schema is back");
        }
    }

    #[test]
    fn schema_in_finds_the_schema_each_wire_renders() {
        let schema = json!({"type":"object","properties":{"q":{"type":"string"}}});
        let t = Tool::new("get", schema.clone());
        for &lane in Lane::ALL {
            let rendered = lane.render(&t);
            assert_eq!(lane.schema_in(&rendered), Some(&schema), "{lane}");
            assert_eq!(lane.schema_in(&json!({"name": "get"})), None, "{lane}");
        }
        assert_eq!(
            Lane::OpenaiChat.schema_keys(),
            ["function", "parameters"].as_slice()
        );
        assert_eq!(
            Lane::BedrockConverse.schema_keys(),
            ["toolSpec", "inputSchema", "json"].as_slice()
        );
        assert_eq!(
            Lane::GeminiJsonschema.schema_keys(),
            ["parametersJsonSchema"].as_slice()
        );
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
    fn lanes_order_by_id_not_by_declaration() {
        let mut lanes = [
            Lane::Xai,
            Lane::AnthropicMessages,
            Lane::OpenaiChat,
            Lane::AnthropicCompatible,
            Lane::BedrockConverse,
        ];
        lanes.sort();
        assert_eq!(
            lanes.iter().map(|l| l.id()).collect::<Vec<_>>(),
            [
                "anthropic-compatible",
                "anthropic-messages",
                "bedrock-converse",
                "openai-chat",
                "xai"
            ]
        );
        let mut all = Lane::ALL.to_vec();
        all.sort();
        assert_eq!(all, Lane::ALL);
    }

    #[test]
    fn gemini_lanes_wrap_declarations_in_one_tool() {
        assert_eq!(
            serde_json::to_string(&Lane::GeminiOpenapi.render_all(&[tool()])).unwrap(),
            r#"[{"functionDeclarations":[{"name":"get","description":"d","parameters":{"type":"object"}}]}]"#
        );
        assert_eq!(
            serde_json::to_string(&Lane::GeminiJsonschema.render(&tool())).unwrap(),
            r#"{"name":"get","description":"d","parametersJsonSchema":{"type":"object"}}"#
        );
    }

    #[test]
    fn bedrock_converse_renders_a_tool_spec() {
        assert_eq!(
            serde_json::to_string(&Lane::BedrockConverse.render(&tool())).unwrap(),
            r#"{"toolSpec":{"name":"get","description":"d","inputSchema":{"json":{"type":"object"}}}}"#
        );
    }

    #[test]
    fn openai_strict_sends_strict_true_unless_the_tool_says_otherwise() {
        let mut t = tool();
        assert_eq!(
            Lane::OpenaiStrict.render(&t)["function"]["strict"],
            json!(true)
        );
        t.strict = Some(false);
        assert_eq!(
            Lane::OpenaiStrict.render(&t)["function"]["strict"],
            json!(false)
        );
        assert!(
            Lane::OpenaiChat.render(&tool())["function"]
                .get("strict")
                .is_none()
        );
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
