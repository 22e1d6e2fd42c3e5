//! Tools arrays (mcp, anthropic, openai-*, gemini, bedrock, shared-corpus,
//! bfcl): the containers each format allows, the element kind, and the
//! dispatch of each element to its format family's reader.

use serde_json::{Map, Value};

use super::anthropic::{ANTHROPIC_KEY, SHARED_KEY};
use super::bedrock::{self, is_cache_point};
use super::gemini::{self, GEMINI_KEY};
use super::locate::{Origin, Src, declarations_key, find_container};
use super::mcp::MCP_KEY;
use super::openai;
use super::raw::{Raw, declaration};
use super::types::Format;
use crate::error::LoadError;

/// The kind of element a tools array holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Mcp,
    Anthropic,
    Shared,
    Chat,
    Responses,
    GeminiWrapper,
    GeminiDecl,
    Bedrock,
}

impl Kind {
    fn format(self) -> Format {
        match self {
            Kind::Mcp => Format::McpToolsList,
            Kind::Anthropic => Format::AnthropicTools,
            Kind::Shared => Format::SharedCorpus,
            Kind::Chat => Format::OpenaiChatTools,
            Kind::Responses => Format::OpenaiResponsesTools,
            Kind::GeminiWrapper | Kind::GeminiDecl => Format::GeminiTools,
            Kind::Bedrock => Format::BedrockTools,
        }
    }
}

pub(super) fn is_tools_format(f: Format) -> bool {
    matches!(
        f,
        Format::McpToolsList
            | Format::AnthropicTools
            | Format::OpenaiChatTools
            | Format::OpenaiResponsesTools
            | Format::GeminiTools
            | Format::BedrockTools
            | Format::SharedCorpus
    )
}

/// The element kind of one tool object (auto-detection order).
fn element_kind(obj: &Map<String, Value>) -> Option<Kind> {
    if obj.contains_key("toolSpec") {
        Some(Kind::Bedrock)
    } else if declarations_key(obj).is_some() {
        Some(Kind::GeminiWrapper)
    } else if obj.get("function").is_some_and(Value::is_object) {
        Some(Kind::Chat)
    } else if obj.get("type").and_then(Value::as_str) == Some("function") {
        Some(Kind::Responses)
    } else if obj.contains_key("inputSchema") {
        Some(Kind::Mcp)
    } else if obj.contains_key("input_schema") {
        Some(Kind::Anthropic)
    } else if GEMINI_KEY.keys.iter().any(|k| obj.contains_key(*k)) {
        Some(Kind::GeminiDecl)
    } else {
        None
    }
}

fn expected_containers(format: Format) -> &'static str {
    match format {
        Format::McpToolsList => {
            "{\"tools\":[…]}, a json-rpc tools/list response or a bare array of tools"
        }
        Format::SharedCorpus => "an object with a \"tools\" array",
        Format::GeminiTools => "{\"functionDeclarations\":[…]}, {\"tools\":[…]} or a bare array",
        Format::BedrockTools => "{\"toolConfig\":{\"tools\":[…]}}, {\"tools\":[…]} or a bare array",
        _ => "{\"tools\":[…]} or a bare array of tools",
    }
}

/// Read a tools array. `want` forces a tools format; `None` detects the
/// element kind (auto and bfcl).
pub(super) fn tools_list<'a>(
    src: Src<'a>,
    root: &mut Value,
    want: Option<Format>,
) -> Result<(Format, Vec<Raw<'a>>), LoadError> {
    let Some((ptr, origin)) = find_container(src, root)? else {
        let f = want.unwrap_or(Format::Bfcl);
        let expected = expected_containers(f);
        return Err(src.error("", &format!("format {f} expects {expected}")));
    };
    if let Some(f) = want {
        let allowed = match f {
            Format::McpToolsList => matches!(
                origin,
                Origin::Bare | Origin::ToolsKey { .. } | Origin::RpcResult
            ),
            Format::SharedCorpus => matches!(origin, Origin::ToolsKey { .. }),
            Format::GeminiTools => matches!(
                origin,
                Origin::Bare | Origin::ToolsKey { .. } | Origin::Declarations
            ),
            Format::BedrockTools => matches!(
                origin,
                Origin::Bare | Origin::ToolsKey { .. } | Origin::ToolConfig
            ),
            _ => matches!(origin, Origin::Bare | Origin::ToolsKey { .. }),
        };
        if !allowed {
            return Err(src.error(
                "",
                &format!("format {f} expects {}", expected_containers(f)),
            ));
        }
    }
    let Some(items) = root.pointer_mut(&ptr).and_then(Value::as_array_mut) else {
        return Err(src.error(&ptr, "expected an array of tools"));
    };

    let first = items
        .iter()
        .enumerate()
        .find_map(|(i, v)| v.as_object().filter(|o| !is_cache_point(o)).map(|o| (i, o)));
    let kind = match (want, origin) {
        (Some(Format::McpToolsList), _) => Kind::Mcp,
        (Some(Format::AnthropicTools), _) => Kind::Anthropic,
        (Some(Format::SharedCorpus), _) => Kind::Shared,
        (Some(Format::OpenaiChatTools), _) => Kind::Chat,
        (Some(Format::OpenaiResponsesTools), _) => Kind::Responses,
        (Some(Format::BedrockTools), _) | (_, Origin::ToolConfig) => Kind::Bedrock,
        (_, Origin::Declarations) => Kind::GeminiDecl,
        (Some(Format::GeminiTools), _) => match first {
            Some((_, o)) if declarations_key(o).is_some() => Kind::GeminiWrapper,
            _ => Kind::GeminiDecl,
        },
        _ => match first {
            None if origin == (Origin::ToolsKey { extra: true }) => Kind::Shared,
            None => Kind::Mcp,
            Some((i, o)) => match element_kind(o) {
                Some(Kind::Anthropic) if origin == (Origin::ToolsKey { extra: true }) => {
                    Kind::Shared
                }
                Some(k) => k,
                None => {
                    return Err(src.error(
                        &format!("{ptr}/{i}"),
                        "unrecognized tool shape (expected one of inputSchema, input_schema, \
                         function, type \"function\", parameters, toolSpec, functionDeclarations)",
                    ));
                }
            },
        },
    };

    let mut raws = Vec::with_capacity(items.len());
    for (i, item) in items.iter_mut().enumerate() {
        let item_ptr = format!("{ptr}/{i}");
        let Value::Object(obj) = item else {
            return Err(src.error(&item_ptr, "expected a tool object"));
        };
        read_element(src, &item_ptr, obj, kind, &mut raws)?;
    }
    Ok((kind.format(), raws))
}

fn read_element<'a>(
    src: Src<'a>,
    ptr: &str,
    obj: &mut Map<String, Value>,
    kind: Kind,
    raws: &mut Vec<Raw<'a>>,
) -> Result<(), LoadError> {
    let format = kind.format();
    match kind {
        Kind::Mcp => raws.push(declaration(src, ptr, obj, &MCP_KEY, format)?),
        Kind::Anthropic => raws.push(declaration(src, ptr, obj, &ANTHROPIC_KEY, format)?),
        Kind::Shared => raws.push(declaration(src, ptr, obj, &SHARED_KEY, format)?),
        Kind::GeminiDecl => raws.push(declaration(src, ptr, obj, &GEMINI_KEY, format)?),
        Kind::Chat => raws.push(openai::chat_tool(src, ptr, obj, format)?),
        Kind::Responses => raws.push(openai::responses_tool(src, ptr, obj, format)?),
        Kind::GeminiWrapper => gemini::wrapper_tools(src, ptr, obj, format, raws)?,
        Kind::Bedrock => {
            if let Some(raw) = bedrock::tool_spec(src, ptr, obj, format)? {
                raws.push(raw);
            }
        }
    }
    Ok(())
}
