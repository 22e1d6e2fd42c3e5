//! DeepSeek chat completions (and its strict function calling, beta):
//! recorded rejections of function parameters. DeepSeek parses tool schemas
//! into typed structures, so its messages are serde-style.
//!
//! Rules, recorded:
//! - `deepseek-parameters-must-be-object`: parameters missing, `{}`, or with
//!   a root `type` other than `object` (both lanes: strict requests go
//!   through the same parameter check).
//! - `deepseek-anyof-member-missing-type` (`deepseek-chat`, as recorded): an
//!   `anyOf` member without `type` (members that are only a `$ref` are left
//!   alone: no evidence either way).
//! - `deepseek-strict-object-without-properties` (`deepseek-strict`): a
//!   nested object with no (or empty) `properties` in a strict tool; the
//!   root may be empty (a tool without arguments).
//!
//! Rules, documented only (`facts::deepseek`, read 2026-12-01; the
//! messages are ours, in the recorded `Invalid schema for function` style):
//! - `deepseek-strict-keyword-unsupported`: `minLength`, `maxLength`,
//!   `minItems`, `maxItems` in a strict tool (the strict-mode guide lists
//!   them as unsupported).
//! - `deepseek-strict-format-unsupported`: a `format` outside email,
//!   hostname, ipv4, ipv6, uuid in a strict tool.
//!
//! Open questions (`facts::OPEN_QUESTIONS`): limits of any kind, and
//! `allOf`/`oneOf`/`not`/`patternProperties`/string `const` under strict.
//!
//! Left out: "all tools of a strict request must be strict" (vercel/ai PR
//! #19428) is a secondary summary, not a documented or recorded rule.

use serde_json::Value;

use super::model::{Finding, Request, Rule, Status};
use super::{finding, nodes};
use crate::facts::{self, deepseek as fact};
use crate::lane::Lane;
use crate::lookup::Lookup;
use crate::schema::is_object_schema;

const BOTH: &[Lane] = &[Lane::DeepseekChat, Lane::DeepseekStrict];
const CHAT: &[Lane] = &[Lane::DeepseekChat];
const STRICT: &[Lane] = &[Lane::DeepseekStrict];

const FUNCTION_CALLING: &str = "https://api-docs.deepseek.com/guides/function_calling";
const STRICT_MODE: &str = fact::STRICT_MODE;

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "deepseek-parameters-must-be-object",
        lanes: BOTH,
        status: Status::Recorded,
        summary: "parameters missing, {} or not type: object",
        docs: &[FUNCTION_CALLING],
        first_seen: Some("2026-08-13"),
        last_seen: Some("2026-08-13"),
        read: None,
        status_code: 400,
        check: parameters_must_be_object,
    },
    Rule {
        id: "deepseek-anyof-member-missing-type",
        lanes: CHAT,
        status: Status::Recorded,
        summary: "an anyOf member without type (e.g. a nested anyOf wrapper)",
        docs: &[],
        first_seen: Some("2026-06-10"),
        last_seen: Some("2026-06-10"),
        read: None,
        status_code: 400,
        check: anyof_member_missing_type,
    },
    Rule {
        id: "deepseek-strict-object-without-properties",
        lanes: STRICT,
        status: Status::Recorded,
        summary: "strict: a nested object without properties",
        docs: &[FUNCTION_CALLING],
        first_seen: Some("2026-07-20"),
        last_seen: Some("2026-07-20"),
        read: None,
        status_code: 400,
        check: strict_object_without_properties,
    },
    Rule {
        id: "deepseek-strict-keyword-unsupported",
        lanes: STRICT,
        status: Status::Documented,
        summary: "strict: minLength, maxLength, minItems or maxItems",
        docs: &[STRICT_MODE],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_keyword_unsupported,
    },
    Rule {
        id: "deepseek-strict-format-unsupported",
        lanes: STRICT,
        status: Status::Documented,
        summary: "strict: a format outside email, hostname, ipv4, ipv6, uuid",
        docs: &[STRICT_MODE],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_format_unsupported,
    },
];

/// A check of one node of a strict tool: `(name, node)` → `(path below
/// the node, message)` pairs.
type StrictCheck = dyn Fn(&str, &serde_json::Map<String, Value>) -> Vec<(String, String)>;

/// For each strict tool and each schema node: `f(name, node)`'s messages,
/// at the path `f` names relative to the node.
fn each_strict_node(req: &Request<'_>, f: &StrictCheck) -> Vec<Finding> {
    let mut out = Vec::new();
    for i in (0..req.tools.len()).filter(|&i| req.strict(i) == Some(true)) {
        let Some(s) = req.schema(i) else { continue };
        let name = req.name(i).unwrap_or_default();
        for (path, node) in nodes(req, s).iter() {
            for (at, message) in f(name, node) {
                out.push(finding(i, &format!("{path}/{at}"), message));
            }
        }
    }
    out
}

fn strict_keyword_unsupported(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &|name, node| {
        node.keys()
            .filter(|k| fact::STRICT_UNSUPPORTED.items.contains(&k.as_str()))
            .map(|k| {
                (
                    k.clone(),
                    format!("Invalid schema for function '{name}': '{k}' is not supported in strict mode."),
                )
            })
            .collect()
    })
}

fn strict_format_unsupported(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(
        req,
        &|name, node| match node.field("format").and_then(Value::as_str) {
            Some(f) if !fact::STRICT_FORMATS.items.contains(&f) => vec![(
                "format".to_owned(),
                format!(
                    "Invalid schema for function '{name}': format '{f}' is not supported in strict mode."
                ),
            )],
            _ => Vec::new(),
        },
    )
}

/// `got 'type: null'` for a missing type (recorded); any other type is
/// printed as JSON in the same slot.
fn parameters_must_be_object(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter_map(|i| {
            let ty = match req.schema(i) {
                None | Some(Value::Null) => Value::Null,
                Some(s) => s.get("type").cloned().unwrap_or(Value::Null),
            };
            (ty != Value::String("object".to_owned())).then(|| {
                finding(
                    i,
                    "",
                    format!(
                        "Invalid schema for function '{}': schema must be a JSON Schema of 'type: \"object\"', got 'type: {ty}'.",
                        req.name(i).unwrap_or_default()
                    ),
                )
            })
        })
        .collect()
}

fn anyof_member_missing_type(req: &Request<'_>) -> Vec<Finding> {
    super::each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (path, node) in nodes(req, s).iter() {
            let Some(members) = node.field("anyOf").and_then(Value::as_array) else {
                continue;
            };
            for (k, m) in members.iter().enumerate() {
                if let Some(m) = m.as_object()
                    && !m.contains_key("type")
                    && !m.contains_key("$ref")
                {
                    out.push(finding(
                        i,
                        &format!("{path}/anyOf/{k}"),
                        "Invalid tool parameters schema : field `anyOf`: missing field `type`"
                            .to_owned(),
                    ));
                }
            }
        }
        out
    })
}

fn strict_object_without_properties(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter(|&i| req.strict(i) == Some(true))
        .filter_map(|i| Some((i, req.schema(i)?)))
        .flat_map(|(i, s)| {
            nodes(req, s)
                .iter()
                .filter(|(path, node)| {
                    !path.is_empty()
                        && is_object_schema(node)
                        && node
                            .get("properties")
                            .and_then(Value::as_object)
                            .is_none_or(serde_json::Map::is_empty)
                })
                .map(|(path, _)| {
                    finding(
                        i,
                        path,
                        "An object with no properties is not allowed.".to_owned(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check;
    use crate::rules::model::DEFAULT_AS_OF;
    use serde_json::json;

    fn req(lane: Lane, tools: &[Value]) -> Request<'_> {
        crate::rules::request(lane, tools, DEFAULT_AS_OF)
    }

    fn tool(name: &str, parameters: Value, strict: bool) -> Value {
        let mut t = json!({"type": "function", "function": {"name": name, "strict": strict}});
        t["function"]["parameters"] = parameters;
        t
    }

    #[test]
    fn deepseek_chat_rejects_empty_parameters_as_type_null() {
        let tools = [tool("terminal_last_command", json!({}), false)];
        let r = check(&req(Lane::DeepseekChat, &tools));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rule, "deepseek-parameters-must-be-object");
        assert_eq!(
            r[0].message,
            "Invalid schema for function 'terminal_last_command': schema must be a JSON Schema of 'type: \"object\"', got 'type: null'."
        );
        let tools = [tool("t", json!({"type": "string"}), false)];
        assert_eq!(
            check(&req(Lane::DeepseekStrict, &tools))[0].message,
            "Invalid schema for function 't': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"string\"'."
        );
    }

    #[test]
    fn deepseek_chat_accepts_an_empty_object_with_type() {
        let tools = [tool(
            "t",
            json!({"type": "object", "properties": {}}),
            false,
        )];
        assert!(check(&req(Lane::DeepseekChat, &tools)).is_empty());
    }

    #[test]
    fn deepseek_chat_rejects_a_nested_any_of_wrapper_without_type() {
        let tools = [tool(
            "wait_for_process",
            json!({"type": "object", "properties": {"timeout": {"anyOf": [{"anyOf": [{"type": "number"}, {"type": "string"}]}, {"type": "null"}]}}}),
            false,
        )];
        let r = check(&req(Lane::DeepseekChat, &tools));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rule, "deepseek-anyof-member-missing-type");
        assert_eq!(r[0].path, "/properties/timeout/anyOf/0");
        assert_eq!(
            r[0].message,
            "Invalid tool parameters schema : field `anyOf`: missing field `type`"
        );
    }

    #[test]
    fn deepseek_chat_accepts_typed_any_of_members_and_a_property_named_any_of() {
        let tools = [tool(
            "t",
            json!({"type": "object", "properties": {"anyOf": {"anyOf": [{"type": "number"}, {"type": "null"}]}}}),
            false,
        )];
        assert!(check(&req(Lane::DeepseekChat, &tools)).is_empty());
    }

    #[test]
    fn deepseek_strict_rejects_a_nested_object_without_properties() {
        let tools = [tool(
            "save_note",
            json!({"type": "object", "properties": {"text": {"type": "string"}, "metadata": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}}, "required": ["text", "metadata"], "additionalProperties": false}),
            true,
        )];
        let r = check(&req(Lane::DeepseekStrict, &tools));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rule, "deepseek-strict-object-without-properties");
        assert_eq!(r[0].path, "/properties/metadata");
        assert_eq!(r[0].message, "An object with no properties is not allowed.");
    }

    #[test]
    fn deepseek_strict_accepts_an_empty_root_and_a_non_strict_nested_empty_object() {
        let empty = json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false});
        let tools = [
            tool("no_args", empty.clone(), true),
            tool(
                "loose",
                json!({"type": "object", "properties": {"m": empty}}),
                false,
            ),
        ];
        assert!(check(&req(Lane::DeepseekStrict, &tools)).is_empty());
    }

    #[test]
    fn deepseek_strict_rejects_documented_unsupported_keywords_and_formats() {
        let tools = [tool(
            "save",
            json!({"type": "object", "properties": {
                "name": {"type": "string", "minLength": 1, "format": "uri"},
                "tags": {"type": "array", "items": {"type": "string", "format": "email"}, "maxItems": 3}
            }, "required": ["name", "tags"], "additionalProperties": false}),
            true,
        )];
        let r = check(&req(Lane::DeepseekStrict, &tools));
        let got: Vec<(&str, &str, &str)> = r
            .iter()
            .map(|x| (x.rule, x.path.as_str(), x.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "deepseek-strict-format-unsupported",
                    "/properties/name/format",
                    "Invalid schema for function 'save': format 'uri' is not supported in strict mode."
                ),
                (
                    "deepseek-strict-keyword-unsupported",
                    "/properties/name/minLength",
                    "Invalid schema for function 'save': 'minLength' is not supported in strict mode."
                ),
                (
                    "deepseek-strict-keyword-unsupported",
                    "/properties/tags/maxItems",
                    "Invalid schema for function 'save': 'maxItems' is not supported in strict mode."
                ),
            ]
        );
    }

    #[test]
    fn deepseek_strict_accepts_the_documented_formats_and_a_non_strict_tool() {
        let props = json!({"type": "object", "properties": {
            "e": {"type": "string", "format": "email"}, "u": {"type": "string", "format": "uuid"}
        }, "required": ["e", "u"], "additionalProperties": false});
        assert!(check(&req(Lane::DeepseekStrict, &[tool("t", props, true)])).is_empty());
        let loose = json!({"type": "object", "properties": {"n": {"type": "string", "minLength": 1, "format": "uri"}}});
        assert!(check(&req(Lane::DeepseekStrict, &[tool("t", loose, false)])).is_empty());
    }
}
