//! Cerebras chat completions (lane `cerebras`): recorded rejections of tool
//! schemas, structured-output schemas (`response_format.json_schema`) and
//! `tool_choice`. Cerebras answers `{message, type, param, code:
//! "wrong_api_format"}`; messages quote the recorded text. Findings about a
//! `response_format` schema or about `tool_choice` name no tool.
//!
//! Rules:
//! - `cerebras-unsupported-schema-fields`: an array schema with `minItems` /
//!   `maxItems` (tools and `response_format`). Both recorded bodies name the
//!   node's `items` beside the bound (`{'minItems', 'items'}`), so the
//!   message does too; `items` alone is accepted (the structured-outputs
//!   documentation describes array `items`).
//! - `cerebras-additionalproperties-false-required` (HTTP 422): a strict
//!   schema (`response_format.json_schema.strict: true`, or a tool with
//!   `function.strict: true`, per the gateway report the research cites)
//!   whose object schemas do not all set `additionalProperties: false`.
//! - `cerebras-tool-choice-named-function`: `tool_choice` naming a function
//!   (only `auto` and `none` are accepted).
//!
//! Left out: the structured-outputs documentation's other limits (type
//! arrays, `items: true`, more than five `anyOf` branches) are neither
//! recorded nor listed by the research, so no rule id stands for them.

use serde_json::{Map, Value};

use super::model::{Finding, Request, Rule, Status};
use super::{each_schema, finding, nodes, py_str};
use crate::lane::Lane;
use crate::lookup::Lookup;
use crate::schema::is_object_schema;

const CEREBRAS: &[Lane] = &[Lane::Cerebras];

/// Array bounds Cerebras reported as unsupported.
const ARRAY_BOUNDS: &[&str] = &["minItems", "maxItems"];

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "cerebras-additionalproperties-false-required",
        lanes: CEREBRAS,
        status: Status::Recorded,
        summary: "strict schema whose objects do not all set additionalProperties: false (422)",
        docs: &[],
        first_seen: Some("2026-01-14"),
        last_seen: Some("2026-01-14"),
        read: None,
        status_code: 422,
        check: additional_properties_false_required,
    },
    Rule {
        id: "cerebras-tool-choice-named-function",
        lanes: CEREBRAS,
        status: Status::Recorded,
        summary: "tool_choice naming a function (only auto or none)",
        docs: &[],
        first_seen: Some("2025-08-07"),
        last_seen: Some("2025-08-07"),
        read: None,
        status_code: 400,
        check: tool_choice_named_function,
    },
    Rule {
        id: "cerebras-unsupported-schema-fields",
        lanes: CEREBRAS,
        status: Status::Recorded,
        summary: "minItems / maxItems on an array schema",
        docs: &[],
        first_seen: Some("2025-08-26"),
        last_seen: Some("2025-08-26"),
        read: None,
        status_code: 400,
        check: unsupported_schema_fields,
    },
];

/// The `response_format` schema and whether it is strict.
fn response_schema<'a>(req: &Request<'a>) -> Option<(&'a Value, bool)> {
    let rf = req.response_format?;
    let schema = rf.pointer("/json_schema/schema")?;
    let strict = rf
        .pointer("/json_schema/strict")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Some((schema, strict))
}

/// A per-schema predicate: `(schema, strict)` → `(pointer, message)`.
type SchemaCheck<'a> = dyn Fn(&Value, bool) -> Option<(String, String)> + 'a;

/// `f(schema)` over each tool schema (with its index) and the
/// `response_format` schema (no index), as findings.
fn each_schema_and_response(req: &Request<'_>, f: &SchemaCheck<'_>) -> Vec<Finding> {
    let mut out = each_schema(req, &mut |i, s| {
        let strict = req.strict(i).unwrap_or(false);
        f(s, strict)
            .map(|(path, message)| finding(i, &path, message))
            .into_iter()
            .collect()
    });
    if let Some((s, strict)) = response_schema(req)
        && let Some((path, message)) = f(s, strict)
    {
        out.push(Finding {
            tool: None,
            path,
            message,
        });
    }
    out
}

/// The fields of one array node Cerebras names: its bounds, then `items`.
fn unsupported_in(node: &Map<String, Value>) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = ARRAY_BOUNDS
        .iter()
        .copied()
        .filter(|k| node.has(k))
        .collect();
    if !out.is_empty() && node.has("items") {
        out.push("items");
    }
    out
}

fn unsupported_schema_fields(req: &Request<'_>) -> Vec<Finding> {
    each_schema_and_response(req, &|s, _| {
        let mut first = None;
        let mut fields: Vec<&str> = Vec::new();
        for (ptr, node) in nodes(req, s).iter() {
            let found = unsupported_in(node);
            if !found.is_empty() && first.is_none() {
                first = Some(ptr.clone());
            }
            for k in found {
                if !fields.contains(&k) {
                    fields.push(k);
                }
            }
        }
        let set = fields
            .iter()
            .map(|k| format!("'{k}'"))
            .collect::<Vec<_>>()
            .join(", ");
        first.map(|ptr| (ptr, format!("Unsupported JSON schema fields: {{{set}}}")))
    })
}

fn additional_properties_false_required(req: &Request<'_>) -> Vec<Finding> {
    each_schema_and_response(req, &|s, strict| {
        if !strict {
            return None;
        }
        nodes(req, s)
            .iter()
            .find(|(_, node)| {
                is_object_schema(node)
                    && node.field("additionalProperties") != Some(&Value::Bool(false))
            })
            .map(|(ptr, _)| {
                (
                    ptr.clone(),
                    "'additionalProperties' is required to be supplied and set to false."
                        .to_owned(),
                )
            })
    })
}

fn tool_choice_named_function(req: &Request<'_>) -> Vec<Finding> {
    let Some(choice) = req.tool_choice.and_then(Value::as_object) else {
        return Vec::new();
    };
    if choice.get("type").and_then(Value::as_str) != Some("function") {
        return Vec::new();
    }
    let name = choice
        .get("function")
        .and_then(|f| f.get("name"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    vec![Finding {
        tool: None,
        path: String::new(),
        message: format!(
            "Unsupported tool_choice: type='function' function=ChoiceObjectFunction(name={}). Expected 'auto' or 'none'.",
            py_str(name)
        ),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check;
    use crate::rules::model::{DEFAULT_AS_OF, Rejection};
    use serde_json::json;

    fn cerebras(
        tools: &[Value],
        tool_choice: Option<&Value>,
        response_format: Option<&Value>,
    ) -> Vec<Rejection> {
        check(&Request {
            tools_present: true,
            lane: Lane::Cerebras,
            tools,
            tool_choice,
            response_format,
            walks: None,
            as_of: DEFAULT_AS_OF,
        })
    }

    fn only(rejections: &[Rejection], rule: &str) -> String {
        assert_eq!(rejections.len(), 1, "{rejections:#?}");
        assert_eq!(rejections[0].rule, rule);
        rejections[0].message.clone()
    }

    fn function(name: &str, parameters: Value) -> Value {
        let mut t = json!({"type": "function", "function": {"name": name}});
        t["function"]["parameters"] = parameters;
        t
    }

    fn edits(bound: Option<u64>) -> Value {
        let mut edits = json!({"type": "array", "items": {"type": "object", "properties": {
            "old": {"type": "string"}}, "required": ["old"], "additionalProperties": false}});
        if let Some(n) = bound {
            edits["minItems"] = json!(n);
        }
        json!({"type": "object", "properties": {"edits": edits}, "required": ["edits"], "additionalProperties": false})
    }

    #[test]
    fn cerebras_rejects_min_items_and_names_the_items_beside_it() {
        let tools = [function("MultiEdit", edits(Some(1)))];
        let r = cerebras(&tools, None, None);
        assert_eq!(r[0].path, "/properties/edits");
        assert_eq!(
            only(&r, "cerebras-unsupported-schema-fields"),
            "Unsupported JSON schema fields: {'minItems', 'items'}"
        );
    }

    #[test]
    fn cerebras_accepts_an_array_with_items_and_no_bounds() {
        assert!(cerebras(&[function("MultiEdit", edits(None))], None, None).is_empty());
    }

    #[test]
    fn cerebras_rejects_a_strict_response_format_with_an_open_object() {
        let rf = json!({"type": "json_schema", "json_schema": {"name": "MovieScript", "strict": true,
            "schema": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}});
        let r = cerebras(&[], None, Some(&rf));
        assert_eq!(r[0].tool, None);
        assert_eq!(r[0].status, 422);
        assert_eq!(
            only(&r, "cerebras-additionalproperties-false-required"),
            "'additionalProperties' is required to be supplied and set to false."
        );
    }

    #[test]
    fn cerebras_rejects_a_strict_tool_with_a_nested_open_object() {
        let tools = [
            json!({"type": "function", "function": {"name": "f", "strict": true, "parameters": {
                "type": "object", "properties": {"o": {"type": "object", "properties": {}}}, "additionalProperties": false
            }}}),
        ];
        let r = cerebras(&tools, None, None);
        assert_eq!(r[0].tool, Some(0));
        assert_eq!(r[0].path, "/properties/o");
        assert_eq!(r[0].rule, "cerebras-additionalproperties-false-required");
    }

    #[test]
    fn cerebras_accepts_a_closed_strict_schema_and_an_open_non_strict_one() {
        let closed = json!({"type": "json_schema", "json_schema": {"name": "M", "strict": true,
            "schema": {"type": "object", "properties": {"t": {"type": "string"}}, "required": ["t"], "additionalProperties": false}}});
        assert!(cerebras(&[], None, Some(&closed)).is_empty());
        let open = [function(
            "f",
            json!({"type": "object", "properties": {"t": {"type": "string"}}}),
        )];
        assert!(cerebras(&open, None, None).is_empty());
    }

    #[test]
    fn cerebras_rejects_a_tool_choice_naming_a_function() {
        let tools = [function("Steps", edits(None))];
        let choice = json!({"type": "function", "function": {"name": "Steps"}});
        let r = cerebras(&tools, Some(&choice), None);
        assert_eq!(r[0].tool, None);
        assert_eq!(
            only(&r, "cerebras-tool-choice-named-function"),
            "Unsupported tool_choice: type='function' function=ChoiceObjectFunction(name='Steps'). Expected 'auto' or 'none'."
        );
    }

    #[test]
    fn cerebras_accepts_tool_choice_auto() {
        let tools = [function("Steps", edits(None))];
        assert!(cerebras(&tools, Some(&json!("auto")), None).is_empty());
    }
}
