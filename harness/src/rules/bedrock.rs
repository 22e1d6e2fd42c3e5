//! AWS Bedrock Converse (lane `bedrock-converse`): recorded and documented
//! rejections of `toolConfig.tools[].toolSpec` — the `inputSchema.json`
//! document, the tool name, and the Anthropic strict-tool checks that
//! Anthropic models apply behind Converse. Messages quote the recorded
//! bodies with the tool index and the path of the request substituted.
//!
//! Rules:
//! - `bedrock-converse-root-type-object`: the root `type` of
//!   `inputSchema.json` is missing or not `"object"`.
//! - `bedrock-converse-properties-null`: a `properties` that is not a JSON
//!   object (Bedrock's own JSON Schema validator, `$.properties: null found,
//!   object expected`).
//! - `bedrock-converse-json-not-document`: `inputSchema.json` is not a JSON
//!   object (e.g. the schema serialized into a string).
//! - `bedrock-converse-extraneous-defs`: `$defs` at the root of
//!   `inputSchema.json` (Anthropic model, 2025-04; possibly historical — no
//!   later rejection is recorded and Anthropic documents `$defs` today).
//! - `anthropic-strict-additionalproperties-false`: with `toolSpec.strict:
//!   true`, every object schema must set `additionalProperties: false`.
//! - `anthropic-strict-numeric-bounds`: with `toolSpec.strict: true`, no
//!   `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum`/`multipleOf`
//!   on integer or number schemas and no `minLength`/`maxLength` on strings.
//!   The recording hit this on `output_config.format.schema`; for a tool the
//!   message names `tools.N.custom`, as the strict `additionalProperties`
//!   recording does.
//! - `bedrock-converse-strict-format-unsupported` (documented only,
//!   structured outputs): with `toolSpec.strict: true`, a `format` outside
//!   the documented list (which includes `uri`; `facts::bedrock`).
//! - `bedrock-converse-tool-name-pattern` (documented only,
//!   `ToolSpecification`): the name matches `[a-zA-Z0-9_-]+`, 1 to 64
//!   characters; the message is the AWS constraint-validation text.
//! - `bedrock-converse-tool-description-empty` (recorded, and documented by
//!   `ToolSpecification`: the optional description has a minimum length of
//!   1): `description: ""`, which clients built from MCP servers and
//!   docstring-less functions send (recorded from vercel/ai#10260,
//!   2025-11-15, index 15; BerriAI/litellm#24668 and #19384 quote the same
//!   text beside an empty name's; anomalyco/opencode#48582, 2026-09-12,
//!   saw the 400 live and a 200 once the member was left out). The message
//!   is the one-error form of the same AWS validation text; a tool whose
//!   name fails too gets each rule's errors as its own finding, where
//!   Bedrock joins them in one message.
//!
//! The strict flag is read from `toolSpec.strict`, where Converse carries it,
//! and from a Messages tool's `strict`. The two `anthropic-strict-*` rules
//! judge `anthropic-messages` too (its strict tools, not yet
//! `output_config.format`): the structured-outputs limitations document
//! them for the Messages API (read 2026-12-01), earendil-works/pi#9953
//! quotes the bounds message from api.anthropic.com (`tools.25.custom: For
//! 'integer' type, properties maximum, minimum are not supported`,
//! 2026-09-23) and agentjido/req_llm#302 its one-keyword form (`property
//! 'minimum'`). v1's `anthropic-strict-fallback` reads the documented
//! subset (`strict_subset`), never this oracle, so judging the lane here
//! cannot change v1's bytes.
//!
//! Left out: `anthropic-bedrock-invoke-input-schema-key` (Bedrock
//! InvokeModel with the Anthropic-native body: `tools.0.custom.input_schema:
//! Field required` is about the Messages wire's `input_schema` key, which a
//! Converse request never has — Converse names the schema
//! `toolSpec.inputSchema.json`, so no Converse request can carry the
//! construct).

use serde_json::{Map, Value};

use super::anthropic::unsupported_properties;
use super::model::{Finding, Request, Rule, Status};
use super::{each_schema, finding, nodes};
use crate::facts;
use crate::lane::{Lane, Wire};
use crate::lookup::Lookup;
use crate::schema::{child_path, is_object_schema};

const CONVERSE: &[Lane] = &[Lane::BedrockConverse];
/// The strict rules Converse and the Messages API share (one grammar
/// compiler behind both; the structured-outputs limitations document them
/// for Messages, and earendil-works/pi#9953 records the bounds message on
/// api.anthropic.com).
const CONVERSE_AND_MESSAGES: &[Lane] = &[Lane::BedrockConverse, Lane::AnthropicMessages];

const TOOL_INPUT_SCHEMA: &str =
    "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolInputSchema.html";
const TOOL_SPECIFICATION: &str =
    "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html";
const STRUCTURED_OUTPUTS: &str = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations";

/// Numeric keywords a strict tool may not use, by type.
const NUMERIC_BOUNDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];
const STRING_BOUNDS: &[&str] = &["minLength", "maxLength"];

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "anthropic-strict-additionalproperties-false",
        lanes: CONVERSE_AND_MESSAGES,
        status: Status::Recorded,
        summary: "strict tool: every object schema must set additionalProperties: false",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: Some("2026-09-12"),
        last_seen: Some("2026-09-12"),
        read: Some(facts::READ),
        status_code: 400,
        check: strict_additional_properties_false,
    },
    Rule {
        id: "anthropic-strict-numeric-bounds",
        lanes: CONVERSE_AND_MESSAGES,
        status: Status::Recorded,
        summary: "strict tool: no numeric bounds on integer/number, no length bounds on string",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: Some("2026-07-15"),
        last_seen: Some("2026-07-15"),
        read: Some(facts::READ),
        status_code: 400,
        check: strict_numeric_bounds,
    },
    Rule {
        id: "bedrock-converse-extraneous-defs",
        lanes: CONVERSE,
        status: Status::Recorded,
        summary: "$defs at the root of inputSchema.json (Anthropic model, possibly historical)",
        docs: &[],
        first_seen: Some("2025-04-09"),
        last_seen: Some("2025-04-09"),
        read: None,
        status_code: 400,
        check: extraneous_defs,
    },
    Rule {
        id: "bedrock-converse-json-not-document",
        lanes: CONVERSE,
        status: Status::Recorded,
        summary: "inputSchema.json is not a JSON object",
        docs: &[TOOL_INPUT_SCHEMA],
        first_seen: Some("2024-07-09"),
        last_seen: Some("2024-07-09"),
        read: None,
        status_code: 400,
        check: json_not_document,
    },
    Rule {
        id: "bedrock-converse-properties-null",
        lanes: CONVERSE,
        status: Status::Recorded,
        summary: "properties that is not a JSON object (Bedrock's JSON Schema validator)",
        docs: &[],
        first_seen: Some("2026-02-21"),
        last_seen: Some("2026-02-21"),
        read: None,
        status_code: 400,
        check: properties_not_object,
    },
    Rule {
        id: "bedrock-converse-root-type-object",
        lanes: CONVERSE,
        status: Status::Recorded,
        summary: "root type of inputSchema.json missing or not object",
        docs: &[TOOL_INPUT_SCHEMA],
        first_seen: Some("2025-07-08"),
        last_seen: Some("2025-10-08"),
        read: None,
        status_code: 400,
        check: root_type_object,
    },
    Rule {
        id: "bedrock-converse-tool-name-pattern",
        lanes: CONVERSE,
        status: Status::Documented,
        summary: "tool name must match [a-zA-Z0-9_-]+ with 1 to 64 characters",
        docs: &[TOOL_SPECIFICATION],
        first_seen: None,
        last_seen: None,
        read: None,
        status_code: 400,
        check: tool_name_pattern,
    },
    Rule {
        id: "bedrock-converse-tool-description-empty",
        lanes: CONVERSE,
        status: Status::Recorded,
        summary: "tool description sent empty (at least 1 character when present)",
        docs: &[TOOL_SPECIFICATION],
        first_seen: Some("2025-11-15"),
        last_seen: Some("2026-09-12"),
        read: None,
        status_code: 400,
        check: tool_description_empty,
    },
    Rule {
        id: "bedrock-converse-strict-format-unsupported",
        lanes: CONVERSE,
        status: Status::Documented,
        summary: "strict tool: a string format outside date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid",
        docs: &[facts::bedrock::STRUCTURED_OUTPUT],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_format_unsupported,
    },
];

/// `toolSpec.strict` (Converse carries the flag inside the tool spec).
fn is_strict(req: &Request<'_>, i: usize) -> bool {
    if req.lane.wire() != Wire::Bedrock {
        return req.strict(i) == Some(true);
    }
    req.tools
        .get(i)
        .and_then(|t| t.get("toolSpec")?.get("strict"))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// The JSON type name Bedrock's validator prints.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A JSON Pointer as the validator's JSONPath (`/properties/a` → `$.properties.a`).
fn json_path(pointer: &str) -> String {
    let mut out = String::from("$");
    if !pointer.is_empty() {
        for t in pointer[1..].split('/') {
            out.push('.');
            crate::schema::push_unescaped(&mut out, t);
        }
    }
    out
}

fn root_type_object(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let Some(root) = s.as_object() else {
            return Vec::new();
        };
        if root.field("type").and_then(Value::as_str) == Some("object") {
            return Vec::new();
        }
        vec![finding(
            i,
            "/type",
            format!(
                "The value at {}.type must be one of the following: object.",
                req.schema_location(i)
            ),
        )]
    })
}

fn properties_not_object(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        nodes(req, s)
            .iter()
            .filter_map(|(ptr, node)| {
                let props = node.field("properties")?;
                if props.is_object() {
                    return None;
                }
                let at = child_path(ptr, "properties");
                Some(finding(
                    i,
                    &at,
                    format!(
                        "The json schema definition at toolConfig.tools.{i}.toolSpec.inputSchema is invalid. Fix the following errors and try again: {}: {} found, object expected",
                        json_path(&at),
                        json_kind(props)
                    ),
                ))
            })
            .collect()
    })
}

fn json_not_document(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        if s.is_object() {
            return Vec::new();
        }
        vec![finding(
            i,
            "",
            format!(
                "The format of the value at {} is invalid. Provide a json object for the field and try again.",
                req.schema_location(i)
            ),
        )]
    })
}

fn extraneous_defs(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        if s.get("$defs").is_none() {
            return Vec::new();
        }
        vec![finding(
            i,
            "/$defs",
            format!(
                "The model returned the following errors: Malformed input request: #/toolConfig/tools/{i}/toolSpec/inputSchema/json: extraneous key [$defs] is not permitted, please reformat your input and try again."
            ),
        )]
    })
}

/// A per-node predicate: `(tool index, pointer, node)` → a finding.
type NodeCheck<'a> = dyn Fn(usize, &str, &Map<String, Value>) -> Option<Finding> + 'a;

/// Every schema node of each strict tool: `f(index, pointer, node)`.
fn strict_nodes(req: &Request<'_>, f: &NodeCheck<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        if !is_strict(req, i) {
            return Vec::new();
        }
        nodes(req, s)
            .iter()
            .filter_map(|(ptr, node)| f(i, ptr, node))
            .collect()
    })
}

fn strict_additional_properties_false(req: &Request<'_>) -> Vec<Finding> {
    strict_nodes(req, &|i, ptr, node| {
        let closed = node.field("additionalProperties") == Some(&Value::Bool(false));
        (is_object_schema(node) && !closed).then(|| {
            finding(
                i,
                ptr,
                format!(
                    "tools.{i}.custom: For 'object' type, 'additionalProperties' must be explicitly set to false"
                ),
            )
        })
    })
}

/// Documented (Bedrock structured outputs, read 2026-12-01); the message is
/// ours, in the strict rules' `tools.N.custom` style.
fn strict_format_unsupported(req: &Request<'_>) -> Vec<Finding> {
    strict_nodes(req, &|i, ptr, node| {
        let f = node.field("format")?.as_str()?;
        (!facts::bedrock::STRICT_FORMATS.items.contains(&f)).then(|| {
            finding(
                i,
                &child_path(ptr, "format"),
                format!("tools.{i}.custom: For 'string' type, format '{f}' is not supported"),
            )
        })
    })
}

fn strict_numeric_bounds(req: &Request<'_>) -> Vec<Finding> {
    strict_nodes(req, &|i, ptr, node| {
        let t = node.field("type").and_then(Value::as_str)?;
        let banned = match t {
            "integer" | "number" => NUMERIC_BOUNDS,
            "string" => STRING_BOUNDS,
            _ => return None,
        };
        let mut present: Vec<&str> = banned.iter().copied().filter(|k| node.has(k)).collect();
        if present.is_empty() {
            return None;
        }
        Some(finding(
            i,
            ptr,
            unsupported_properties(&format!("tools.{i}.custom"), t, &mut present),
        ))
    })
}

/// The constraints a name fails, in AWS's order.
fn name_violations(name: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        out.push("Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+");
    }
    if name.is_empty() {
        out.push("Member must have length greater than or equal to 1");
    }
    if name.chars().count() > 64 {
        out.push("Member must have length less than or equal to 64");
    }
    out
}

fn tool_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            let failed = name_violations(name);
            if failed.is_empty() {
                return None;
            }
            let errors = failed
                .iter()
                .map(|c| {
                    format!(
                        "Value '{name}' at 'toolConfig.tools.{i}.member.toolSpec.name' failed to satisfy constraint: {c}"
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
            let n = failed.len();
            let plural = if n == 1 { "" } else { "s" };
            Some(finding(
                i,
                "",
                format!("{n} validation error{plural} detected: {errors}"),
            ))
        })
        .collect()
}

fn tool_description_empty(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter(|&i| req.description(i) == Some(""))
        .map(|i| {
            finding(
                i,
                "",
                format!(
                    "1 validation error detected: Value '' at 'toolConfig.tools.{i}.member.toolSpec.description' failed to satisfy constraint: Member must have length greater than or equal to 1"
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check;
    use crate::rules::model::{DEFAULT_AS_OF, Rejection};
    use serde_json::json;

    fn tool(name: &str, schema: Value) -> Value {
        let mut t = json!({"toolSpec": {"name": name, "description": "d", "inputSchema": {}}});
        t["toolSpec"]["inputSchema"]["json"] = schema;
        t
    }

    fn strict_tool(name: &str, schema: Value) -> Value {
        let mut t = tool(name, schema);
        t["toolSpec"]["strict"] = json!(true);
        t
    }

    fn converse(tools: &[Value]) -> Vec<Rejection> {
        check(&crate::rules::request(
            Lane::BedrockConverse,
            tools,
            DEFAULT_AS_OF,
        ))
    }

    fn only(rejections: &[Rejection], rule: &str) -> String {
        assert_eq!(rejections.len(), 1, "{rejections:#?}");
        assert_eq!(rejections[0].rule, rule);
        rejections[0].message.clone()
    }

    fn object() -> Value {
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
    }

    #[test]
    fn bedrock_converse_rejects_a_root_without_type() {
        let tools = [
            tool("a", object()),
            tool("b", json!({"properties": {"city": {"type": "string"}}})),
        ];
        let r = converse(&tools);
        assert_eq!(r[0].tool, Some(1));
        assert_eq!(
            only(&r, "bedrock-converse-root-type-object"),
            "The value at toolConfig.tools.1.toolSpec.inputSchema.json.type must be one of the following: object."
        );
    }

    #[test]
    fn bedrock_converse_accepts_an_empty_object_root() {
        assert!(converse(&[tool("a", json!({"type": "object", "properties": {}}))]).is_empty());
    }

    #[test]
    fn bedrock_converse_rejects_null_properties() {
        let tools = [
            tool("a", object()),
            tool("b", json!({"type": "object", "properties": null})),
        ];
        assert_eq!(
            only(&converse(&tools), "bedrock-converse-properties-null"),
            "The json schema definition at toolConfig.tools.1.toolSpec.inputSchema is invalid. Fix the following errors and try again: $.properties: null found, object expected"
        );
    }

    #[test]
    fn bedrock_converse_names_nested_non_object_properties_by_json_path() {
        let tools = [tool(
            "a",
            json!({"type": "object", "properties": {"o": {"type": "object", "properties": []}}}),
        )];
        assert_eq!(
            only(&converse(&tools), "bedrock-converse-properties-null"),
            "The json schema definition at toolConfig.tools.0.toolSpec.inputSchema is invalid. Fix the following errors and try again: $.properties.o.properties: array found, object expected"
        );
    }

    #[test]
    fn bedrock_converse_accepts_a_property_named_properties() {
        let tools = [tool(
            "a",
            json!({"type": "object", "properties": {"properties": {"type": "string"}}}),
        )];
        assert!(converse(&tools).is_empty());
    }

    #[test]
    fn bedrock_converse_rejects_a_schema_sent_as_a_string() {
        let tools = [tool("a", json!("{\"type\":\"object\"}"))];
        assert_eq!(
            only(&converse(&tools), "bedrock-converse-json-not-document"),
            "The format of the value at toolConfig.tools.0.toolSpec.inputSchema.json is invalid. Provide a json object for the field and try again."
        );
    }

    #[test]
    fn bedrock_converse_accepts_the_same_schema_as_a_json_object() {
        assert!(converse(&[tool("a", json!({"type": "object"}))]).is_empty());
    }

    #[test]
    fn bedrock_converse_rejects_root_defs() {
        let tools = [
            tool("a", object()),
            tool(
                "b",
                json!({"$defs": {"R": {"type": "string"}}, "type": "object", "properties": {"r": {"$ref": "#/$defs/R"}}}),
            ),
        ];
        assert_eq!(
            only(&converse(&tools), "bedrock-converse-extraneous-defs"),
            "The model returned the following errors: Malformed input request: #/toolConfig/tools/1/toolSpec/inputSchema/json: extraneous key [$defs] is not permitted, please reformat your input and try again."
        );
    }

    #[test]
    fn bedrock_converse_accepts_the_defs_inlined() {
        let tools = [tool(
            "b",
            json!({"type": "object", "properties": {"r": {"type": "string"}}}),
        )];
        assert!(converse(&tools).is_empty());
    }

    #[test]
    fn bedrock_converse_rejects_a_strict_tool_with_an_open_object() {
        let tools = [strict_tool("get_weather", object())];
        let r = converse(&tools);
        assert_eq!(r[0].path, "");
        assert_eq!(
            only(&r, "anthropic-strict-additionalproperties-false"),
            "tools.0.custom: For 'object' type, 'additionalProperties' must be explicitly set to false"
        );
    }

    #[test]
    fn bedrock_converse_accepts_the_open_object_without_strict_or_closed() {
        assert!(converse(&[tool("get_weather", object())]).is_empty());
        let closed = json!({"type": "object", "properties": {"city": {"type": "string"}}, "additionalProperties": false});
        assert!(converse(&[strict_tool("get_weather", closed)]).is_empty());
    }

    #[test]
    fn bedrock_converse_rejects_integer_bounds_on_a_strict_tool() {
        let tools = [strict_tool(
            "rate",
            json!({"type": "object", "properties": {"score": {"type": "integer", "minimum": 1, "maximum": 10}},
                "required": ["score"], "additionalProperties": false}),
        )];
        let r = converse(&tools);
        assert_eq!(r[0].path, "/properties/score");
        assert_eq!(
            only(&r, "anthropic-strict-numeric-bounds"),
            "tools.0.custom: For 'integer' type, properties maximum, minimum are not supported"
        );
    }

    #[test]
    fn bedrock_converse_accepts_integer_bounds_on_a_non_strict_tool() {
        let tools = [tool(
            "rate",
            json!({"type": "object", "properties": {"score": {"type": "integer", "minimum": 1, "maximum": 10}}}),
        )];
        assert!(converse(&tools).is_empty());
    }

    #[test]
    fn bedrock_converse_rejects_a_tool_name_with_a_dot_as_documented() {
        let tools = [tool("a", object()), tool("server.tool", object())];
        assert_eq!(
            only(&converse(&tools), "bedrock-converse-tool-name-pattern"),
            "1 validation error detected: Value 'server.tool' at 'toolConfig.tools.1.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+"
        );
    }

    #[test]
    fn bedrock_converse_counts_every_failed_name_constraint() {
        let r = converse(&[tool("", object())]);
        assert_eq!(
            only(&r, "bedrock-converse-tool-name-pattern"),
            "2 validation errors detected: Value '' at 'toolConfig.tools.0.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+; Value '' at 'toolConfig.tools.0.member.toolSpec.name' failed to satisfy constraint: Member must have length greater than or equal to 1"
        );
    }

    #[test]
    fn bedrock_converse_rejects_an_empty_description_as_recorded() {
        // recording bedrock-converse-tool-description-empty-10260
        let mut empty = tool("get_earnings_history", object());
        empty["toolSpec"]["description"] = json!("");
        let tools = [tool("a", object()), empty];
        assert_eq!(
            only(&converse(&tools), "bedrock-converse-tool-description-empty"),
            "1 validation error detected: Value '' at 'toolConfig.tools.1.member.toolSpec.description' failed to satisfy constraint: Member must have length greater than or equal to 1"
        );
    }

    #[test]
    fn bedrock_converse_accepts_no_description_and_a_blank_one() {
        let mut none = tool("a", object());
        none["toolSpec"]
            .as_object_mut()
            .map(|s| s.remove("description"));
        let mut blank = tool("b", object());
        blank["toolSpec"]["description"] = json!(" ");
        assert!(converse(&[none, blank]).is_empty());
    }

    #[test]
    fn bedrock_converse_accepts_a_64_character_name() {
        assert!(converse(&[tool(&"a_-9".repeat(16), object())]).is_empty());
    }

    #[test]
    fn bedrock_converse_strict_rejects_an_undocumented_format_and_accepts_uri() {
        let tools = [strict_tool(
            "save",
            json!({"type": "object", "properties": {
                "u": {"type": "string", "format": "uri"},
                "p": {"type": "string", "format": "phone"}
            }, "required": ["u", "p"], "additionalProperties": false}),
        )];
        let r = converse(&tools);
        assert_eq!(r.len(), 1, "{r:#?}");
        assert_eq!(r[0].rule, "bedrock-converse-strict-format-unsupported");
        assert_eq!(r[0].path, "/properties/p/format");
        assert_eq!(
            r[0].message,
            "tools.0.custom: For 'string' type, format 'phone' is not supported"
        );
        let loose = [tool(
            "save",
            json!({"type": "object", "properties": {"p": {"type": "string", "format": "phone"}}}),
        )];
        assert!(converse(&loose).is_empty());
    }
}
