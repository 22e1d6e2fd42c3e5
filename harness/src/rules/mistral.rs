//! Mistral chat completions (lane `mistral`): recorded rejections of
//! `tools[].function`. Mistral checks `parameters` with Python's
//! `jsonschema` against the metaschema and prints the validator's message
//! (Python reprs: `{'type': 'string'} is not of type 'string'`); the
//! function object itself is a Pydantic model that forbids extra keys
//! (HTTP 422, a `detail` list).
//!
//! Rules:
//! - `mistral-parameters-not-object-schema`: `parameters` is not a valid
//!   schema: a keyword whose value has the wrong JSON type — typically a bare
//!   property map whose property is named like a keyword (`description`,
//!   `title`, `required`, …). A bare map without such a collision passes, as
//!   the recording notes. Checked: the string, object, array, number,
//!   integer and boolean keywords of the metaschema, subschema positions
//!   (`object` or `boolean`), and `type` (a string or an array).
//! - `mistral-function-extra-field-forbidden`: a key on the function object
//!   other than `name`, `description`, `parameters`, `strict` (HTTP 422; the
//!   message is the recorded `detail` body as JSON).
//!
//! Left out: nothing recorded for this provider; the documentation cited by
//! the research gives no URL.

use serde_json::{Value, json};

use super::model::{Finding, Request, Rule, Status};
use super::{each_schema, finding, nodes};
use crate::lane::Lane;
use crate::metaschema::{Want, node_violations, violation};

const MISTRAL: &[Lane] = &[Lane::Mistral];

/// The keys Mistral's function model declares.
const FUNCTION_KEYS: &[&str] = &["name", "description", "parameters", "strict"];

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "mistral-function-extra-field-forbidden",
        lanes: MISTRAL,
        status: Status::Recorded,
        summary: "a key on the function object besides name/description/parameters/strict (422)",
        docs: &[],
        first_seen: Some("2024-05-18"),
        last_seen: Some("2024-05-18"),
        read: None,
        status_code: 422,
        check: function_extra_field_forbidden,
    },
    Rule {
        id: "mistral-parameters-not-object-schema",
        lanes: MISTRAL,
        status: Status::Recorded,
        summary: "parameters is not a valid schema (e.g. a bare property map with a `description` property)",
        docs: &[],
        first_seen: Some("2025-03-28"),
        last_seen: Some("2025-03-28"),
        read: None,
        status_code: 400,
        check: parameters_not_object_schema,
    },
];

/// What the metaschema wants for a keyword's value.
fn parameters_not_object_schema(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        if matches!(s, Value::String(_) | Value::Number(_) | Value::Array(_)) {
            let message = violation(Want::Schema, s).unwrap_or_default();
            return vec![finding(i, "", format!("Invalid tool schema: {message}"))];
        }
        nodes(req, s)
            .iter()
            .flat_map(|(ptr, node)| node_violations(ptr, node))
            .map(|(at, message)| finding(i, &at, format!("Invalid tool schema: {message}")))
            .collect()
    })
}

fn function_extra_field_forbidden(req: &Request<'_>) -> Vec<Finding> {
    req.tools
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let function = t.get("function")?.as_object()?;
            let detail: Vec<Value> = function
                .iter()
                .filter(|(k, _)| !FUNCTION_KEYS.contains(&k.as_str()))
                .map(|(k, v)| {
                    json!({
                        "type": "extra_forbidden",
                        "loc": ["body", "tools", i, "function", k],
                        "msg": "Extra inputs are not permitted",
                        "input": v
                    })
                })
                .collect();
            (!detail.is_empty()).then(|| finding(i, "", json!({ "detail": detail }).to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check;
    use crate::rules::model::{DEFAULT_AS_OF, Rejection};

    fn mistral(tools: &[Value]) -> Vec<Rejection> {
        check(&crate::rules::request(Lane::Mistral, tools, DEFAULT_AS_OF))
    }

    fn only(rejections: &[Rejection], rule: &str) -> String {
        assert_eq!(rejections.len(), 1, "{rejections:#?}");
        assert_eq!(rejections[0].rule, rule);
        rejections[0].message.clone()
    }

    fn function(f: Value) -> Value {
        let mut t = json!({"type": "function"});
        t["function"] = f;
        t
    }

    #[test]
    fn mistral_rejects_a_bare_property_map_with_a_description_property() {
        let tools = [function(json!({"name": "upload", "parameters": {
            "video_path": {"type": "string", "description": "The file path"},
            "description": {"type": "string", "description": "The description for the TikTok video"}
        }}))];
        let r = mistral(&tools);
        assert_eq!(r[0].path, "/description");
        assert_eq!(
            only(&r, "mistral-parameters-not-object-schema"),
            "Invalid tool schema: {'type': 'string', 'description': 'The description for the TikTok video'} is not of type 'string'"
        );
    }

    #[test]
    fn mistral_accepts_the_same_map_wrapped_in_an_object_schema() {
        let tools = [function(json!({"name": "upload", "parameters": {
            "type": "object",
            "properties": {
                "video_path": {"type": "string", "description": "The file path"},
                "description": {"type": "string", "description": "The description"}
            }
        }}))];
        assert!(mistral(&tools).is_empty());
    }

    #[test]
    fn mistral_prints_python_reprs_for_nested_violations() {
        let tools = [function(json!({"name": "f", "parameters": {
            "type": "object",
            "properties": {"a": {"type": "array", "items": {"type": "string"}, "maxItems": "3"}, "b": "string"},
            "required": "a"
        }}))];
        let messages: Vec<_> = mistral(&tools)
            .into_iter()
            .map(|r| (r.path, r.message))
            .collect();
        assert_eq!(
            messages,
            [
                (
                    "/properties/b".to_owned(),
                    "Invalid tool schema: 'string' is not of type 'object', 'boolean'".to_owned()
                ),
                (
                    "/required".to_owned(),
                    "Invalid tool schema: 'a' is not of type 'array'".to_owned()
                ),
                (
                    "/properties/a/maxItems".to_owned(),
                    "Invalid tool schema: '3' is not of type 'integer'".to_owned()
                ),
            ]
        );
        assert_eq!(
            crate::metaschema::py_repr(&json!([null, true, 1.0, "it's"])),
            "[None, True, 1.0, \"it's\"]"
        );
    }

    #[test]
    fn mistral_rejects_required_beside_parameters_with_a_422_detail() {
        let tools = [function(json!({"name": "summarize", "parameters": {
            "type": "object", "properties": {"content": {"type": "string"}}
        }, "required": ["content"]}))];
        let r = mistral(&tools);
        assert_eq!(r[0].status, 422);
        assert_eq!(
            only(&r, "mistral-function-extra-field-forbidden"),
            r#"{"detail":[{"type":"extra_forbidden","loc":["body","tools",0,"function","required"],"msg":"Extra inputs are not permitted","input":["content"]}]}"#
        );
    }

    #[test]
    fn mistral_accepts_required_inside_parameters_and_a_strict_flag() {
        let tools = [function(
            json!({"name": "summarize", "description": "d", "strict": true, "parameters": {
                "type": "object", "properties": {"content": {"type": "string"}}, "required": ["content"]
            }}),
        )];
        assert!(mistral(&tools).is_empty());
    }
}
