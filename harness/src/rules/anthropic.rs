//! Anthropic Messages (first party): recorded and documented rejections of
//! custom tools (`name`, `input_schema`) and of strict (grammar-compiled)
//! schemas. Messages quote the recorded bodies (`tools.N.custom.…`) with the
//! tool index of the request.
//!
//! Rules, recorded:
//! - `anthropic-root-composition`: `oneOf`/`anyOf`/`allOf` at the root of
//!   `input_schema` (also on `openai-chat`: recorded through OpenRouter's
//!   chat wire, which passes Anthropic's message through unchanged).
//! - `anthropic-tool-name-pattern`, `anthropic-tool-name-length`: the name
//!   alphabet and its length (64 → 128 on 2025-07-01).
//! - `anthropic-input-schema-missing`: a custom tool without `input_schema`.
//! - `anthropic-bedrock-invoke-input-schema-key`: a custom tool that spells
//!   it `inputSchema` (the Bedrock Converse key) instead of `input_schema`.
//! - `anthropic-input-schema-type-required`: `input_schema` without `type`.
//! - `anthropic-json-schema-invalid-2020-12`: not a valid draft 2020-12 schema.
//! - `anthropic-property-key-pattern`: a root property name outside
//!   `^[a-zA-Z0-9_.-]{1,64}$`.
//! - `anthropic-strict-minitems-0-or-1`: strict, `minItems` other than 0 or 1.
//! - `anthropic-strict-schema-too-complex`: strict, more than 20 strict tools
//!   or more than 24 optional properties in all strict schemas together (an
//!   approximation with the thresholds reported alongside the recording).
//!
//! Rules, documented only (their messages are ours, in the provider's
//! location style; no provider text was recorded):
//! - `anthropic-strict-union-types-limit`: more than 16 union-typed
//!   properties across strict schemas (only the message prefix is quoted).
//! - `anthropic-strict-recursive-schema`, `anthropic-strict-external-ref`,
//!   `anthropic-strict-pattern-unsupported` (lookaround, backreference),
//!   `anthropic-strict-format-unsupported`.
//!
//! Strict rules see strict tools (`strict: true`) and the request's
//! `output_config.format` (passed as `response_format` on this lane).
//!
//! `anthropic-strict-additionalproperties-false` and
//! `anthropic-strict-numeric-bounds` (recorded through Bedrock Converse,
//! documented for Messages) live in `bedrock.rs`; they judge Converse only
//! until v1's `strict-fallback` pass stops consulting this lane's oracle
//! (see `bedrock.rs`).
//! Formats and limits come from the provider-facts table
//! (`facts::anthropic`).
//!
//! Left out: `anthropic-strict-grammar-too-large` (the
//! ceiling is undocumented and model-dependent, nothing in a request gives
//! it); `strict` on `computer_toolset`/`browser_toolset` entries (server
//! tools the lanes never render).

use crate::strict_subset::{has_backreference, is_recursive};
use serde_json::{Map, Value};

use super::{each_schema, finding, nodes};
use crate::lane::Lane;
use crate::oracle::{Finding, Request, Rule, Status, metaschema_error};
use crate::schema::escape_token;

const MESSAGES: &[Lane] = &[Lane::AnthropicMessages];
/// Root composition is also recorded through OpenRouter's chat wire
/// (Roo-Code PR #10726), where Anthropic's validator speaks unchanged.
const MESSAGES_AND_CHAT: &[Lane] = &[Lane::AnthropicMessages, Lane::OpenaiChat];

const DEFINE_TOOLS: &str =
    "https://platform.claude.com/docs/agents-and-tools/tool-use/define-tools";
const JSON_SCHEMA_LIMITATIONS: &str = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations";
const STRICT_TOOL_USE: &str =
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use";

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "anthropic-root-composition",
        lanes: MESSAGES_AND_CHAT,
        status: Status::Recorded,
        summary: "oneOf/anyOf/allOf at the root of input_schema",
        docs: &[],
        first_seen: Some("2025-08-07"),
        last_seen: Some("2026-05-26"),
        read: None,
        status_code: 400,
        check: root_composition,
    },
    Rule {
        id: "anthropic-tool-name-pattern",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "tool name must match ^[a-zA-Z0-9_-]{1,128}$ ({1,64} before 2025-07-01)",
        docs: &[DEFINE_TOOLS],
        first_seen: Some("2025-03-07"),
        last_seen: Some("2025-03-07"),
        read: None,
        status_code: 400,
        check: tool_name_pattern,
    },
    Rule {
        id: "anthropic-tool-name-length",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "tool name longer than 128 characters (its own message since the 128 limit)",
        docs: &[DEFINE_TOOLS],
        first_seen: Some("2026-09-22"),
        last_seen: Some("2026-09-22"),
        read: None,
        status_code: 400,
        check: tool_name_length,
    },
    Rule {
        id: "anthropic-input-schema-missing",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "custom tool without input_schema",
        docs: &[DEFINE_TOOLS],
        first_seen: Some("2026-01-23"),
        last_seen: Some("2026-01-23"),
        read: None,
        status_code: 400,
        check: input_schema_missing,
    },
    Rule {
        id: "anthropic-bedrock-invoke-input-schema-key",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "custom tool whose schema sits under the Converse key inputSchema, not input_schema (seen on Bedrock InvokeModel)",
        docs: &[],
        first_seen: Some("2025-08-06"),
        last_seen: Some("2025-08-06"),
        read: None,
        status_code: 400,
        check: bedrock_invoke_input_schema_key,
    },
    Rule {
        id: "anthropic-input-schema-type-required",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "input_schema without a top-level type",
        docs: &[DEFINE_TOOLS],
        first_seen: Some("2026-07-09"),
        last_seen: Some("2026-07-09"),
        read: None,
        status_code: 400,
        check: input_schema_type_required,
    },
    Rule {
        id: "anthropic-json-schema-invalid-2020-12",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "input_schema is not a valid JSON Schema draft 2020-12 document",
        docs: &[],
        first_seen: Some("2025-04-05"),
        last_seen: Some("2025-12-20"),
        read: None,
        status_code: 400,
        check: json_schema_invalid,
    },
    Rule {
        id: "anthropic-property-key-pattern",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "a root property name outside ^[a-zA-Z0-9_.-]{1,64}$",
        docs: &[],
        first_seen: Some("2026-03-31"),
        last_seen: Some("2026-03-31"),
        read: None,
        status_code: 400,
        check: property_key_pattern,
    },
    Rule {
        id: "anthropic-strict-minitems-0-or-1",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "strict: minItems other than 0 or 1",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: Some("2026-05-01"),
        last_seen: Some("2026-05-01"),
        read: None,
        status_code: 400,
        check: strict_min_items,
    },
    Rule {
        id: "anthropic-strict-schema-too-complex",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "strict: more than 20 strict tools or more than 24 optional properties across strict schemas (approximation of the compiler's budget)",
        docs: &[JSON_SCHEMA_LIMITATIONS, STRICT_TOOL_USE],
        first_seen: Some("2026-05-04"),
        last_seen: Some("2026-05-04"),
        read: None,
        status_code: 400,
        check: strict_schema_too_complex,
    },
    Rule {
        id: "anthropic-strict-union-types-limit",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: more than 16 union-typed properties (anyOf or a type list) across strict schemas",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: Some(crate::facts::READ),
        status_code: 400,
        check: strict_union_types_limit,
    },
    Rule {
        id: "anthropic-strict-recursive-schema",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: a $ref that (transitively) refers back to itself",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: None,
        status_code: 400,
        check: strict_recursive_schema,
    },
    Rule {
        id: "anthropic-strict-external-ref",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: a $ref outside the schema (not starting with #)",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: None,
        status_code: 400,
        check: strict_external_ref,
    },
    Rule {
        id: "anthropic-strict-pattern-unsupported",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: a pattern with lookaround or a backreference",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: None,
        status_code: 400,
        check: strict_pattern_unsupported,
    },
    Rule {
        id: "anthropic-strict-format-unsupported",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: a string format outside date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: Some(crate::facts::READ),
        status_code: 400,
        check: strict_format_unsupported,
    },
];

/// A custom tool (no `type`, or `type: "custom"`); server tools such as
/// `web_search_20250305` carry no `input_schema`.
fn custom_tools<'r>(req: &'r Request<'_>) -> impl Iterator<Item = (usize, &'r Map<String, Value>)> {
    req.tools.iter().enumerate().filter_map(|(i, t)| {
        let t = t.as_object()?;
        t.get("type")
            .and_then(Value::as_str)
            .is_none_or(|ty| ty == "custom")
            .then_some((i, t))
    })
}

fn root_composition(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let Some(root) = s.as_object() else {
            return Vec::new();
        };
        if ["oneOf", "allOf", "anyOf"]
            .iter()
            .any(|k| root.contains_key(*k))
        {
            // The message is Anthropic's own on every wire (OpenRouter
            // relays it verbatim), so the location is always the Messages one.
            vec![finding(
                i,
                "",
                format!(
                    "tools.{i}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
                ),
            )]
        } else {
            Vec::new()
        }
    })
}

/// The name limit changed from 64 to 128 characters (2025-07-01): the
/// 2025-03-07 recording quotes `{1,64}`, the define-tools page now `{1,128}`.
fn name_limit(as_of: &str) -> usize {
    if as_of < "2025-07-01" { 64 } else { 128 }
}

/// Since the 128 limit a too-long name gets its own message (pydantic checks
/// `max_length` before `pattern` and reports the first failure).
fn name_too_long(name: &str, as_of: &str) -> bool {
    as_of >= "2025-07-01" && name.chars().count() > 128
}

fn tool_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    let limit = name_limit(req.as_of);
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            let ok = !name.is_empty()
                && name.chars().count() <= limit
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            (!ok && !name_too_long(name, req.as_of)).then(|| {
                finding(
                    i,
                    "",
                    format!("tools.{i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,{limit}}}$'"),
                )
            })
        })
        .collect()
}

fn tool_name_length(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            name_too_long(name, req.as_of).then(|| {
                finding(
                    i,
                    "",
                    format!("tools.{i}.custom.name: String should have at most 128 characters"),
                )
            })
        })
        .collect()
}

fn input_schema_missing(req: &Request<'_>) -> Vec<Finding> {
    custom_tools(req)
        .filter(|(_, t)| !t.contains_key("input_schema") && !t.contains_key("inputSchema"))
        .map(|(i, _)| {
            finding(
                i,
                "",
                format!("tools.{i}.custom.input_schema: Field required"),
            )
        })
        .collect()
}

/// koog#500 shows the same endpoint naming the extraneous `inputSchema`
/// key next to the missing `input_schema`; the recorded message is the
/// missing-field one.
fn bedrock_invoke_input_schema_key(req: &Request<'_>) -> Vec<Finding> {
    custom_tools(req)
        .filter(|(_, t)| !t.contains_key("input_schema") && t.contains_key("inputSchema"))
        .map(|(i, _)| {
            finding(
                i,
                "",
                format!("tools.{i}.custom.input_schema: Field required"),
            )
        })
        .collect()
}

fn input_schema_type_required(req: &Request<'_>) -> Vec<Finding> {
    custom_tools(req)
        .filter_map(|(i, t)| {
            let s = t.get("input_schema")?.as_object()?;
            (!s.contains_key("type")).then(|| {
                finding(
                    i,
                    "",
                    format!("tools.{i}.custom.input_schema.type: Field required"),
                )
            })
        })
        .collect()
}

/// The docs link at the end of the message moved with Anthropic's docs:
/// docs.anthropic.com (2025-04-05 recording; still so on 2025-09-09,
/// claude-code#7365), docs.claude.com from 2025-10-04 (claude-code#8900;
/// the 2025-12-20 recording). A later platform.claude.com link is reported
/// in provider_rules.md without a dated body, so it is not modelled.
fn docs_link(as_of: &str) -> &'static str {
    if as_of < "2025-10-04" {
        "https://docs.anthropic.com/en/docs/tool-use"
    } else {
        "https://docs.claude.com/en/docs/tool-use"
    }
}

fn json_schema_invalid(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        if metaschema_error(s).is_none() {
            return Vec::new();
        }
        vec![finding(
            i,
            "",
            format!(
                "tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at {}.",
                docs_link(req.as_of)
            ),
        )]
    })
}

fn property_key_ok(key: &str) -> bool {
    !key.is_empty()
        && key.chars().count() <= 64
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Only the root's property names are checked (decocms/studio PR #6874);
/// one message per tool, pointing at the first offending name.
fn property_key_pattern(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let Some(props) = s.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        props
            .keys()
            .find(|k| !property_key_ok(k))
            .map(|k| {
                finding(
                    i,
                    &format!("/properties/{}", escape_token(k)),
                    format!(
                        "tools.{i}.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{{1,64}}$'"
                    ),
                )
            })
            .into_iter()
            .collect()
    })
}

/// One schema the strict grammar compiles.
struct StrictSchema<'r> {
    tool: Option<usize>,
    schema: &'r Value,
    /// Where the provider says the problem is: `tools.N.custom` or
    /// `output_config.format.schema`.
    at: String,
}

/// Every strict tool's input_schema, and `output_config.format`'s schema
/// (this lane's `response_format`: `{"type": "json_schema", "schema": …}`).
fn strict_schemas<'r>(req: &'r Request<'_>) -> Vec<StrictSchema<'r>> {
    let mut out: Vec<StrictSchema<'r>> = (0..req.tools.len())
        .filter(|&i| req.strict(i) == Some(true))
        .filter_map(|i| {
            Some(StrictSchema {
                tool: Some(i),
                schema: req.schema(i)?,
                at: format!("tools.{i}.custom"),
            })
        })
        .collect();
    if let Some(rf) = req.response_format
        && rf.get("type").and_then(Value::as_str) == Some("json_schema")
        && let Some(schema) = rf.get("schema")
    {
        out.push(StrictSchema {
            tool: None,
            schema,
            at: "output_config.format.schema".to_owned(),
        });
    }
    out
}

/// A check of one node of a strict schema: the message, if it offends.
type NodeCheck = dyn FnMut(&StrictSchema<'_>, &str, &Map<String, Value>) -> Option<String>;

/// For each strict schema and each of its nodes: `f(schema, path, node)`.
fn each_strict_node(req: &Request<'_>, f: &mut NodeCheck) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in strict_schemas(req) {
        for (path, node) in nodes(s.schema) {
            if let Some(message) = f(&s, &path, node) {
                out.push(Finding {
                    tool: s.tool,
                    path,
                    message,
                });
            }
        }
    }
    out
}

fn strict_min_items(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &mut |s, _, node| {
        let n = node.get("minItems")?;
        let allowed = n
            .as_f64()
            .is_some_and(|n| (0.0..=1.0).contains(&n) && n.fract().abs() < f64::EPSILON);
        (!allowed).then(|| {
            format!(
                "{}: For 'array' type, 'minItems' values other than 0 or 1 are not supported",
                s.at
            )
        })
    })
}

/// Properties of an object node that its `required` does not list.
fn optional_count(node: &Map<String, Value>) -> usize {
    let Some(props) = node.get("properties").and_then(Value::as_object) else {
        return 0;
    };
    let required = crate::schema::required_names(node);
    props.keys().filter(|k| !required.contains(k)).count()
}

/// The compiler's budget is undocumented as such; the thresholds are the
/// ones reported with the recording (genkit#5230: 20 tools, 24 optional
/// fields) and confirmed elsewhere (alphaXiv/agents PR #51: "26 optional
/// properties against a limit of 24"). An approximation: a request under
/// both can still be too complex (optional properties inside array items
/// multiply, enricai/leerie PR #157).
const MAX_STRICT_TOOLS: usize = crate::facts::anthropic::STRICT_TOOLS.value;
const MAX_OPTIONAL_PROPERTIES: usize = crate::facts::anthropic::STRICT_OPTIONAL.value;
const MAX_UNION_PROPERTIES: usize = crate::facts::anthropic::STRICT_UNIONS.value;

fn strict_schema_too_complex(req: &Request<'_>) -> Vec<Finding> {
    let strict_tools = (0..req.tools.len())
        .filter(|&i| req.strict(i) == Some(true))
        .count();
    let optional: usize = strict_schemas(req)
        .iter()
        .flat_map(|s| nodes(s.schema))
        .map(|(_, node)| optional_count(node))
        .sum();
    if strict_tools > MAX_STRICT_TOOLS || optional > MAX_OPTIONAL_PROPERTIES {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: "Schema is too complex for compilation. Try reducing the number of tools or simplifying tool schemas.".to_owned(),
        }]
    } else {
        Vec::new()
    }
}

/// A property whose schema is a union: `anyOf`, or a `type` list of two or
/// more names.
fn is_union(v: &Value) -> bool {
    v.get("anyOf").is_some()
        || v.get("type")
            .and_then(Value::as_array)
            .is_some_and(|t| t.len() > 1)
}

/// vercel/ai PR #17268 quotes the message with its middle elided:
/// `Schemas contains too many parameters with union types (… limit: 16 …)`;
/// mozilla/bugbug PR #6234 names the 16-anyOf limit for strict tools.
fn strict_union_types_limit(req: &Request<'_>) -> Vec<Finding> {
    let unions: usize = strict_schemas(req)
        .iter()
        .flat_map(|s| nodes(s.schema))
        .filter_map(|(_, node)| node.get("properties").and_then(Value::as_object))
        .map(|props| props.values().filter(|v| is_union(v)).count())
        .sum();
    if unions > MAX_UNION_PROPERTIES {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: format!(
                "Schemas contains too many parameters with union types ({unions} parameters with union types, limit: {MAX_UNION_PROPERTIES})"
            ),
        }]
    } else {
        Vec::new()
    }
}

/// The local `$ref`s of one schema: (pointer of the referring node, target
/// pointer inside the schema).
fn local_refs(schema: &Value) -> Vec<(String, String)> {
    nodes(schema)
        .into_iter()
        .filter_map(|(path, node)| {
            let r = node.get("$ref")?.as_str()?;
            let target = r.strip_prefix('#')?;
            Some((path, target.to_owned()))
        })
        .collect()
}

fn strict_recursive_schema(req: &Request<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in strict_schemas(req) {
        let refs = local_refs(s.schema);
        let mut reported: Vec<&str> = Vec::new();
        for (at, target) in &refs {
            if !reported.contains(&target.as_str()) && is_recursive(target, &refs) {
                reported.push(target);
                out.push(Finding {
                    tool: s.tool,
                    path: at.clone(),
                    message: format!(
                        "{}: recursive schemas are not supported ($ref '#{target}' refers back to itself)",
                        s.at
                    ),
                });
            }
        }
    }
    out
}

fn strict_external_ref(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &mut |s, _, node| {
        let r = node.get("$ref")?.as_str()?;
        (!r.starts_with('#')).then(|| format!("{}: external $ref '{r}' is not supported", s.at))
    })
}

fn strict_pattern_unsupported(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &mut |s, _, node| {
        let p = node.get("pattern")?.as_str()?;
        let lookaround = crate::ecma::has_lookaround(p)?;
        (lookaround || has_backreference(p)).then(|| {
            format!(
                "{}: 'pattern' uses a lookaround or a backreference, which strict mode does not support",
                s.at
            )
        })
    })
}

/// The string formats strict mode supports (the structured-outputs
/// limitations, from the provider-facts table).
const FORMATS: &[&str] = crate::facts::anthropic::STRICT_FORMATS.items;

fn strict_format_unsupported(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &mut |s, _, node| {
        let f = node.get("format")?.as_str()?;
        (!FORMATS.contains(&f))
            .then(|| format!("{}: For 'string' type, format '{f}' is not supported", s.at))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{DEFAULT_AS_OF, check};
    use serde_json::{Value, json};

    fn req<'a>(tools: &'a [Value], as_of: &'a str) -> Request<'a> {
        crate::rules::request(Lane::AnthropicMessages, tools, as_of)
    }

    /// The one rejection of a request, with its rule.
    fn only(tools: &[Value], as_of: &str) -> (String, Option<usize>, String, String) {
        let r = check(&req(tools, as_of));
        assert_eq!(r.len(), 1, "{r:?}");
        (
            r[0].rule.to_owned(),
            r[0].tool,
            r[0].path.clone(),
            r[0].message.clone(),
        )
    }

    fn strict_tool(schema: Value) -> Value {
        let mut t = json!({"name": "t", "strict": true});
        t["input_schema"] = schema;
        t
    }

    /// A strict-clean object around `props`.
    fn closed(props: Value) -> Value {
        let required: Vec<String> = props
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        let mut o = json!({"type": "object", "required": required, "additionalProperties": false});
        o["properties"] = props;
        o
    }

    #[test]
    fn anthropic_messages_rejects_a_root_any_of_with_the_recorded_message() {
        let tools = [
            json!({"name": "ok", "input_schema": {"type": "object"}}),
            json!({"name": "t", "input_schema": {"type": "object", "anyOf": [{"required": ["a"]}]}}),
        ];
        let r = check(&req(&tools, DEFAULT_AS_OF));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rule, "anthropic-root-composition");
        assert_eq!(r[0].tool, Some(1));
        assert_eq!(
            r[0].message,
            "tools.1.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
        );
    }

    #[test]
    fn anthropic_messages_accepts_a_nested_composition() {
        let tools = [
            json!({"name": "t", "input_schema": {"type": "object", "properties": {"x": {"oneOf": [{}, {}]}}}}),
        ];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_chat_lane_carries_the_anthropic_root_composition_message_of_openrouter() {
        let tools = [
            json!({"type": "function", "function": {"name": "t", "parameters": {"type": "object", "allOf": [{"required": ["a"]}]}}}),
        ];
        let r = check(&Request {
            tools_present: true,
            lane: Lane::OpenaiChat,
            ..req(&tools, DEFAULT_AS_OF)
        });
        let hit = r
            .iter()
            .find(|r| r.rule == "anthropic-root-composition")
            .expect("fires on the chat wire");
        assert_eq!(
            hit.message,
            "tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
        );
    }

    #[test]
    fn anthropic_tool_name_limit_follows_the_as_of_date() {
        let long = "a".repeat(100);
        let tools = [json!({"name": long, "input_schema": {"type": "object"}})];
        assert!(check(&req(&tools, "2026-01-01")).is_empty());
        let r = check(&req(&tools, "2025-03-07"));
        assert_eq!(r[0].rule, "anthropic-tool-name-pattern");
        assert_eq!(
            r[0].message,
            "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"
        );
    }

    #[test]
    fn anthropic_messages_rejects_a_dotted_tool_name_with_the_pattern_message() {
        let tools = [
            json!({"name": "ok", "input_schema": {"type": "object"}}),
            json!({"name": "apify.rag-web-browser", "input_schema": {"type": "object"}}),
        ];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-tool-name-pattern".to_owned(),
                Some(1),
                String::new(),
                "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"
                    .to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_rejects_a_129_character_name_with_the_length_message_only() {
        let tools = [json!({"name": "a.".repeat(65), "input_schema": {"type": "object"}})];
        let (rule, _, _, message) = only(&tools, DEFAULT_AS_OF);
        assert_eq!(rule, "anthropic-tool-name-length");
        assert_eq!(
            message,
            "tools.0.custom.name: String should have at most 128 characters"
        );
    }

    #[test]
    fn anthropic_messages_accepts_a_128_character_name() {
        let tools = [json!({"name": "a".repeat(128), "input_schema": {"type": "object"}})];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn anthropic_messages_rejects_a_custom_tool_without_input_schema() {
        let tools = [json!({"name": "get_weather", "description": "d"})];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-input-schema-missing".to_owned(),
                Some(0),
                String::new(),
                "tools.0.custom.input_schema: Field required".to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_accepts_a_server_tool_without_input_schema() {
        let tools = [json!({"type": "web_search_20250305", "name": "web_search"})];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn anthropic_messages_rejects_the_converse_input_schema_key() {
        let tools = [json!({"name": "search_docs", "inputSchema": {"type": "object"}})];
        let (rule, tool, _, message) = only(&tools, DEFAULT_AS_OF);
        assert_eq!(rule, "anthropic-bedrock-invoke-input-schema-key");
        assert_eq!(tool, Some(0));
        assert_eq!(message, "tools.0.custom.input_schema: Field required");
    }

    #[test]
    fn anthropic_messages_accepts_both_keys_when_input_schema_is_there() {
        let tools = [json!({"name": "t", "input_schema": {"type": "object"}, "inputSchema": {}})];
        assert!(
            check(&req(&tools, DEFAULT_AS_OF))
                .iter()
                .all(|r| r.rule != "anthropic-bedrock-invoke-input-schema-key")
        );
    }

    #[test]
    fn anthropic_messages_rejects_an_input_schema_without_type() {
        let tools = [
            json!({"name": "a", "input_schema": {"type": "object"}}),
            json!({"name": "spawn_agent", "input_schema": {"properties": {"prompt": {"type": "string"}}}}),
        ];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-input-schema-type-required".to_owned(),
                Some(1),
                String::new(),
                "tools.1.custom.input_schema.type: Field required".to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_accepts_a_typeless_nested_schema() {
        let tools =
            [json!({"name": "t", "input_schema": {"type": "object", "properties": {"x": {}}}})];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn anthropic_messages_rejects_a_draft_2020_12_invalid_schema_with_the_dated_docs_link() {
        let tools = [
            json!({"name": "take_screenshot", "input_schema": {"type": "object", "properties": {}}}),
            json!({"name": "click", "input_schema": {"type": "object", "properties": {"x": "number"}}}),
        ];
        let (rule, tool, _, message) = only(&tools, "2025-04-05");
        assert_eq!(rule, "anthropic-json-schema-invalid-2020-12");
        assert_eq!(tool, Some(1));
        assert_eq!(
            message,
            "tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.anthropic.com/en/docs/tool-use."
        );
        assert!(
            only(&tools, "2025-12-20")
                .3
                .ends_with("https://docs.claude.com/en/docs/tool-use.")
        );
    }

    #[test]
    fn anthropic_messages_accepts_a_property_named_required_with_a_schema() {
        // `required` as a property name is data, not the keyword.
        let tools = [
            json!({"name": "t", "input_schema": {"type": "object", "properties": {"required": {"type": "boolean"}}}}),
        ];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn anthropic_messages_rejects_a_bracketed_root_property_name() {
        let tools = [
            json!({"name": "list_apps", "input_schema": {"type": "object", "properties": {"limit": {}, "filter[bundleId]": {"type": "string"}}}}),
        ];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-property-key-pattern".to_owned(),
                Some(0),
                "/properties/filter[bundleId]".to_owned(),
                "tools.0.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'".to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_accepts_a_bracketed_nested_property_name() {
        let tools = [
            json!({"name": "t", "input_schema": {"type": "object", "properties": {"filter": {"type": "object", "properties": {"a[b]": {}}}}}}),
        ];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn anthropic_messages_strict_rejects_min_items_8() {
        let tools = [strict_tool(closed(
            json!({"cards": {"type": "array", "minItems": 8, "items": {"type": "string"}}}),
        ))];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-strict-minitems-0-or-1".to_owned(),
                Some(0),
                "/properties/cards".to_owned(),
                "tools.0.custom: For 'array' type, 'minItems' values other than 0 or 1 are not supported".to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_strict_output_config_reports_its_own_location() {
        let rf = json!({"type": "json_schema", "schema": closed(json!({"xs": {"type": "array", "minItems": 2}}))});
        let r = check(&Request {
            tools_present: true,
            response_format: Some(&rf),
            ..req(&[], DEFAULT_AS_OF)
        });
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].tool, None);
        assert_eq!(
            r[0].message,
            "output_config.format.schema: For 'array' type, 'minItems' values other than 0 or 1 are not supported"
        );
    }

    #[test]
    fn anthropic_messages_accepts_min_items_1_strict_and_min_items_8_non_strict() {
        let tools = [
            strict_tool(closed(json!({"xs": {"type": "array", "minItems": 1}}))),
            json!({"name": "u", "input_schema": {"type": "object", "properties": {"xs": {"type": "array", "minItems": 8}}}}),
        ];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    fn optional_props(n: usize) -> Value {
        let props: Map<String, Value> = (0..n)
            .map(|k| (format!("p{k}"), json!({"type": "string"})))
            .collect();
        json!({"type": "object", "properties": props, "required": [], "additionalProperties": false})
    }

    #[test]
    fn anthropic_messages_strict_rejects_25_optional_properties_as_too_complex() {
        let tools = [strict_tool(optional_props(25))];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-strict-schema-too-complex".to_owned(),
                None,
                String::new(),
                "Schema is too complex for compilation. Try reducing the number of tools or simplifying tool schemas.".to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_strict_accepts_24_optional_properties_and_20_strict_tools() {
        let mut tools = vec![strict_tool(optional_props(24))];
        tools.extend((0..19).map(|_| strict_tool(closed(json!({})))));
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
        tools.push(strict_tool(closed(json!({}))));
        assert_eq!(
            only(&tools, DEFAULT_AS_OF).0,
            "anthropic-strict-schema-too-complex"
        );
    }

    #[test]
    fn anthropic_messages_strict_rejects_17_union_typed_properties() {
        let props: Map<String, Value> = (0..17)
            .map(|k| (format!("p{k}"), json!({"type": ["string", "null"]})))
            .collect();
        let tools = [strict_tool(closed(Value::Object(props)))];
        let (rule, tool, _, message) = only(&tools, DEFAULT_AS_OF);
        assert_eq!(rule, "anthropic-strict-union-types-limit");
        assert_eq!(tool, None);
        assert_eq!(
            message,
            "Schemas contains too many parameters with union types (17 parameters with union types, limit: 16)"
        );
    }

    #[test]
    fn anthropic_messages_strict_accepts_16_union_typed_properties() {
        let props: Map<String, Value> = (0..16)
            .map(|k| {
                (
                    format!("p{k}"),
                    json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
                )
            })
            .collect();
        let tools = [strict_tool(closed(Value::Object(props)))];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn anthropic_messages_strict_rejects_a_recursive_ref() {
        let mut schema = closed(json!({"root": {"$ref": "#/$defs/node"}}));
        schema["$defs"] = json!({"node": closed(json!({"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}))});
        let tools = [strict_tool(schema)];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-strict-recursive-schema".to_owned(),
                Some(0),
                "/properties/root".to_owned(),
                "tools.0.custom: recursive schemas are not supported ($ref '#/$defs/node' refers back to itself)".to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_strict_accepts_a_shared_non_recursive_ref() {
        let mut schema =
            closed(json!({"a": {"$ref": "#/$defs/leaf"}, "b": {"$ref": "#/$defs/leaf"}}));
        schema["$defs"] = json!({"leaf": {"type": "string"}});
        let tools = [strict_tool(schema)];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn anthropic_messages_strict_rejects_an_external_ref() {
        let tools = [strict_tool(closed(
            json!({"a": {"$ref": "https://example.com/a.json"}}),
        ))];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-strict-external-ref".to_owned(),
                Some(0),
                "/properties/a".to_owned(),
                "tools.0.custom: external $ref 'https://example.com/a.json' is not supported"
                    .to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_accepts_an_external_ref_without_strict() {
        let tools = [
            json!({"name": "t", "input_schema": closed(json!({"a": {"$ref": "https://example.com/a.json"}}))}),
        ];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn anthropic_messages_strict_rejects_a_lookahead_pattern() {
        let tools = [strict_tool(closed(
            json!({"p": {"type": "string", "pattern": "^(?!-)[a-z-]+$"}}),
        ))];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-strict-pattern-unsupported".to_owned(),
                Some(0),
                "/properties/p".to_owned(),
                "tools.0.custom: 'pattern' uses a lookaround or a backreference, which strict mode does not support".to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_strict_rejects_a_backreference_but_not_one_in_a_class() {
        assert!(has_backreference(r"^(a)\1$"));
        assert!(has_backreference(r"^(?<q>a)\k<q>$"));
        assert!(!has_backreference(r"^[\1]$"));
        assert!(!has_backreference(r"^\\1$"));
        let tools = [strict_tool(closed(
            json!({"p": {"type": "string", "pattern": "^[(?=]+$"}}),
        ))];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
        let tools = [strict_tool(closed(
            json!({"p": {"type": "string", "pattern": "^(a)\\1$"}}),
        ))];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF).0,
            "anthropic-strict-pattern-unsupported"
        );
    }

    #[test]
    fn anthropic_messages_strict_rejects_an_unsupported_format() {
        let tools = [strict_tool(closed(
            json!({"p": {"type": "string", "format": "regex"}}),
        ))];
        assert_eq!(
            only(&tools, DEFAULT_AS_OF),
            (
                "anthropic-strict-format-unsupported".to_owned(),
                Some(0),
                "/properties/p".to_owned(),
                "tools.0.custom: For 'string' type, format 'regex' is not supported".to_owned()
            )
        );
    }

    #[test]
    fn anthropic_messages_strict_accepts_a_supported_format() {
        let tools = [strict_tool(closed(
            json!({"p": {"type": "string", "format": "date-time"}}),
        ))];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }
}
