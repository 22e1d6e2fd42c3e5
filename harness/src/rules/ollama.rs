//! Ollama `/api/chat` (lane `ollama`): recorded rejections of
//! `tools[].function.parameters`. Ollama decodes the request into Go
//! structs (`ToolFunctionParameters` with `properties map[string]
//! api.ToolProperty`), so a JSON value of the wrong kind fails with Go's
//! `json: cannot unmarshal <kind> into Go struct field <Struct>.<path> of
//! type <type>`; map keys are not part of the path. Messages quote that
//! text as the recordings show it.
//!
//! Rules:
//! - `ollama-boolean-subschema`: a boolean schema as a property value
//!   (`"x": true`).
//! - `ollama-property-value-must-be-object`: a string, number or array as a
//!   property value (`"query": "string"`).
//! - `ollama-properties-must-be-map`: `properties` that is not a JSON object
//!   (`"properties": []`). Before 2025-04-07 (ollama PR #9434) a property's
//!   `type` had to be one string, so a type array fails with the same
//!   `cannot unmarshal array` message, on the anonymous struct of the time.
//!
//! Only the top-level `properties` are decoded into Go structs; nested
//! schemas (`items`, nested `properties`) are kept as untyped values, so
//! they are not checked. `null` decodes to a zero value and is accepted.

use serde_json::Value;

use super::model::{Finding, Request, Rule, Status};
use super::{each_schema, finding};
use crate::lane::Lane;
use crate::schema::child_path;

const OLLAMA: &[Lane] = &[Lane::Ollama];

/// The day Ollama began to accept a `type` array (PR #9434).
const TYPE_ARRAYS_FROM: &str = "2025-04-07";

/// Where Go's decoder reports the `properties` map.
const PROPERTIES_FIELD: &str = "ToolFunctionParameters.tools.function.parameters.properties";

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "ollama-boolean-subschema",
        lanes: OLLAMA,
        status: Status::Recorded,
        summary: "boolean schema as a property value (Go struct decoding)",
        docs: &[],
        first_seen: Some("2026-07-04"),
        last_seen: Some("2026-07-04"),
        read: None,
        status_code: 400,
        check: boolean_subschema,
    },
    Rule {
        id: "ollama-properties-must-be-map",
        lanes: OLLAMA,
        status: Status::Recorded,
        summary: "properties not a JSON object (and, before 2025-04-07, a type array)",
        docs: &[],
        first_seen: Some("2025-04-25"),
        last_seen: Some("2025-04-25"),
        read: None,
        status_code: 400,
        check: properties_must_be_map,
    },
    Rule {
        id: "ollama-property-value-must-be-object",
        lanes: OLLAMA,
        status: Status::Recorded,
        summary: "string, number or array as a property value",
        docs: &[],
        first_seen: Some("2026-02-14"),
        last_seen: Some("2026-02-14"),
        read: None,
        status_code: 400,
        check: property_value_must_be_object,
    },
];

/// The JSON kind as Go's `UnmarshalTypeError` names it.
fn go_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Property values whose JSON kind `pick` selects, as findings.
fn property_values(req: &Request<'_>, pick: fn(&Value) -> bool) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let Some(props) = s.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        props
            .iter()
            .filter(|(_, v)| pick(v))
            .map(|(name, v)| {
                finding(
                    i,
                    &child_path("/properties", name),
                    format!(
                        "json: cannot unmarshal {} into Go struct field {PROPERTIES_FIELD} of type api.ToolProperty",
                        go_kind(v)
                    ),
                )
            })
            .collect()
    })
}

fn boolean_subschema(req: &Request<'_>) -> Vec<Finding> {
    property_values(req, Value::is_boolean)
}

fn property_value_must_be_object(req: &Request<'_>) -> Vec<Finding> {
    property_values(req, |v| {
        matches!(v, Value::String(_) | Value::Number(_) | Value::Array(_))
    })
}

fn properties_must_be_map(req: &Request<'_>) -> Vec<Finding> {
    let type_arrays_rejected = req.as_of < TYPE_ARRAYS_FROM;
    each_schema(req, &mut |i, s| {
        match s.get("properties") {
            Some(Value::Object(props)) if type_arrays_rejected => props
                .iter()
                .filter(|(_, v)| v.get("type").is_some_and(Value::is_array))
                .map(|(name, _)| {
                    finding(
                        i,
                        &child_path(&child_path("/properties", name), "type"),
                        "json: cannot unmarshal array into Go struct field .tools.function.parameters.properties.type of type string".to_owned(),
                    )
                })
                .collect(),
            None | Some(Value::Null | Value::Object(_)) => Vec::new(),
            Some(v) => vec![finding(
                i,
                "/properties",
                format!(
                    "json: cannot unmarshal {} into Go struct field {PROPERTIES_FIELD} of type map[string]api.ToolProperty",
                    go_kind(v)
                ),
            )],
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check;
    use crate::rules::model::{DEFAULT_AS_OF, Rejection};
    use serde_json::json;

    fn ollama(tools: &[Value], as_of: &str) -> Vec<Rejection> {
        check(&crate::rules::request(Lane::Ollama, tools, as_of))
    }

    fn only(rejections: &[Rejection], rule: &str) -> String {
        assert_eq!(rejections.len(), 1, "{rejections:#?}");
        assert_eq!(rejections[0].rule, rule);
        rejections[0].message.clone()
    }

    fn function(parameters: Value) -> Value {
        let mut t = json!({"type": "function", "function": {"name": "f"}});
        t["function"]["parameters"] = parameters;
        t
    }

    #[test]
    fn ollama_rejects_a_boolean_property_schema() {
        let tools = [function(json!({"type": "object", "properties": {
            "pattern": {"type": "string"}, "options": true
        }}))];
        let r = ollama(&tools, DEFAULT_AS_OF);
        assert_eq!(r[0].path, "/properties/options");
        assert_eq!(
            only(&r, "ollama-boolean-subschema"),
            "json: cannot unmarshal bool into Go struct field ToolFunctionParameters.tools.function.parameters.properties of type api.ToolProperty"
        );
    }

    #[test]
    fn ollama_accepts_an_empty_object_property_schema_and_nested_booleans() {
        let tools = [function(
            json!({"type": "object", "additionalProperties": false, "properties": {
                "options": {}, "list": {"type": "array", "items": true}
            }}),
        )];
        assert!(ollama(&tools, DEFAULT_AS_OF).is_empty());
    }

    #[test]
    fn ollama_rejects_a_string_property_value() {
        let tools = [function(
            json!({"type": "object", "properties": {"query": "string"}}),
        )];
        assert_eq!(
            only(
                &ollama(&tools, DEFAULT_AS_OF),
                "ollama-property-value-must-be-object"
            ),
            "json: cannot unmarshal string into Go struct field ToolFunctionParameters.tools.function.parameters.properties of type api.ToolProperty"
        );
    }

    #[test]
    fn ollama_accepts_the_property_value_as_a_schema_object() {
        let tools = [function(
            json!({"type": "object", "properties": {"query": {"type": "string"}}}),
        )];
        assert!(ollama(&tools, DEFAULT_AS_OF).is_empty());
    }

    #[test]
    fn ollama_rejects_properties_given_as_an_array() {
        let tools = [function(
            json!({"type": "object", "properties": [], "required": []}),
        )];
        assert_eq!(
            only(
                &ollama(&tools, DEFAULT_AS_OF),
                "ollama-properties-must-be-map"
            ),
            "json: cannot unmarshal array into Go struct field ToolFunctionParameters.tools.function.parameters.properties of type map[string]api.ToolProperty"
        );
    }

    #[test]
    fn ollama_accepts_properties_given_as_an_empty_object() {
        let tools = [function(
            json!({"type": "object", "properties": {}, "required": []}),
        )];
        assert!(ollama(&tools, DEFAULT_AS_OF).is_empty());
    }

    #[test]
    fn ollama_rejects_a_type_array_only_before_2025_04_07() {
        let tools = [function(json!({"type": "object", "properties": {
            "n": {"type": ["string", "null"]}
        }}))];
        assert!(ollama(&tools, "2025-04-07").is_empty());
        assert_eq!(
            only(
                &ollama(&tools, "2025-04-06"),
                "ollama-properties-must-be-map"
            ),
            "json: cannot unmarshal array into Go struct field .tools.function.parameters.properties.type of type string"
        );
    }
}
