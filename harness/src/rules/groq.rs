//! Groq chat completions (lane `groq`): recorded rejections of
//! `tools[].function.parameters`. Messages quote the recorded bodies with
//! the tool index, name and schema path of the request substituted.
//!
//! Rules:
//! - `groq-required-without-properties`: the `parameters` root carries
//!   `required` (even `[]`) but no `properties`. Only the root is checked:
//!   the recorded message names `tools[N].function.parameters` and no nested
//!   rejection is recorded.
//! - `groq-metaschema-validation`: `parameters` is not valid under the draft
//!   2020-12 metaschema. The message names the deepest offending keyword as
//!   Groq's validator does; its tail is our metaschema validator's reason,
//!   turned into Groq's `expected X, but got Y` form for type errors.
//!
//! Left out: nothing recorded for this provider; no documentation URL is
//! known.

use serde_json::{Map, Value};

use super::metaschema_error;
use super::model::{Finding, Request, Rule, Status};
use super::{each_schema, finding, nodes};
use crate::lane::Lane;
use crate::lookup::Lookup;
use crate::schema::child_path;

const GROQ: &[Lane] = &[Lane::Groq];

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "groq-metaschema-validation",
        lanes: GROQ,
        status: Status::Recorded,
        summary: "parameters not valid under the draft 2020-12 metaschema",
        docs: &[],
        first_seen: Some("2025-05-06"),
        last_seen: Some("2025-05-06"),
        read: None,
        status_code: 400,
        check: metaschema_validation,
    },
    Rule {
        id: "groq-required-without-properties",
        lanes: GROQ,
        status: Status::Recorded,
        summary: "parameters root with required but no properties",
        docs: &[],
        first_seen: Some("2026-08-16"),
        last_seen: Some("2026-08-16"),
        read: None,
        status_code: 400,
        check: required_without_properties,
    },
];

fn required_without_properties(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let Some(root) = s.as_object() else {
            return Vec::new();
        };
        if !root.has("required") || root.has("properties") {
            return Vec::new();
        }
        vec![finding(
            i,
            "/required",
            format!(
                "invalid JSON schema for tool {}, {}: 'required' present but 'properties' is missing",
                req.name(i).unwrap_or_default(),
                req.schema_location(i)
            ),
        )]
    })
}

/// The JSON type name Groq's validator prints.
fn kind(v: &Value) -> &'static str {
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

/// `"x" is not of type "array"` → `expected array, but got string`.
fn reason(error: &str, value: &Value) -> String {
    let marker = " is not of type \"";
    match error.rfind(marker) {
        Some(at) => {
            let rest = &error[at + marker.len()..];
            let expected = rest.split('"').next().unwrap_or(rest);
            format!("expected {expected}, but got {}", kind(value))
        }
        None => error.to_owned(),
    }
}

/// The deepest `(pointer, value, reason)` whose keyword alone fails the
/// metaschema (the first in walk order among equally deep ones); the root
/// when no single keyword does.
///
/// Each keyword is checked with its whole value, so checking every one
/// costs the schema's size times its depth; the candidates are tried
/// longest pointer first instead (a stable sort keeps walk order among
/// equal lengths) and the first that fails is the answer: the same
/// answer, usually after a few small checks (a 200-deep chain took tens of
/// milliseconds).
fn culprit(req: &Request<'_>, schema: &Value, whole: &str) -> (String, String) {
    let mut candidates: Vec<(String, &String, &Value)> = Vec::new();
    for (ptr, node) in nodes(req, schema).iter() {
        for (k, v) in *node {
            candidates.push((child_path(ptr, k), k, v));
        }
    }
    candidates.sort_by_key(|(at, _, _)| std::cmp::Reverse(at.len()));
    for (at, k, v) in candidates {
        let mut one = Map::new();
        one.insert(k.clone(), v.clone());
        if let Some(e) = metaschema_error(&Value::Object(one)) {
            return (at, reason(&e, v));
        }
    }
    (String::new(), reason(whole, schema))
}

fn metaschema_validation(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let Some(whole) = metaschema_error(s) else {
            return Vec::new();
        };
        let (at, why) = culprit(req, s, &whole);
        vec![finding(
            i,
            &at,
            format!(
                "schema is not valid JSON Schema: jsonschema file:///home/di/params.json compilation failed: '{at}' does not validate with https://json-schema.org/draft/2020-12/schema: {why}"
            ),
        )]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check;
    use crate::rules::model::{DEFAULT_AS_OF, Rejection};
    use serde_json::json;

    fn groq(tools: &[Value]) -> Vec<Rejection> {
        check(&crate::rules::request(Lane::Groq, tools, DEFAULT_AS_OF))
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

    #[test]
    fn groq_rejects_required_without_properties() {
        let tools = [
            function("ok", json!({"type": "object", "properties": {}})),
            function(
                "view_agent_graph",
                json!({"type": "object", "required": []}),
            ),
        ];
        assert_eq!(
            only(&groq(&tools), "groq-required-without-properties"),
            "invalid JSON schema for tool view_agent_graph, tools[1].function.parameters: 'required' present but 'properties' is missing"
        );
    }

    #[test]
    fn groq_accepts_required_with_empty_properties() {
        let tools = [function(
            "view_agent_graph",
            json!({"type": "object", "properties": {}, "required": []}),
        )];
        assert!(groq(&tools).is_empty());
    }

    #[test]
    fn groq_rejects_a_nested_string_required_against_the_metaschema() {
        let tools = [function(
            "http_request",
            json!({"type": "object", "properties": {"headers": {"type": "array", "items": {
                "type": "object", "properties": {"key": {"type": "string", "required": "true"}}
            }}}}),
        )];
        let r = groq(&tools);
        assert_eq!(
            r[0].path,
            "/properties/headers/items/properties/key/required"
        );
        assert_eq!(
            only(&r, "groq-metaschema-validation"),
            "schema is not valid JSON Schema: jsonschema file:///home/di/params.json compilation failed: '/properties/headers/items/properties/key/required' does not validate with https://json-schema.org/draft/2020-12/schema: expected array, but got string"
        );
    }

    #[test]
    fn groq_accepts_required_as_an_array_on_the_object() {
        let tools = [function(
            "http_request",
            json!({"type": "object", "properties": {"headers": {"type": "array", "items": {
                "type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]
            }}}}),
        )];
        assert!(groq(&tools).is_empty());
    }

    /// [`culprit`] by its definition: every keyword checked, the longest
    /// failing pointer kept (the first in walk order among equals).
    fn culprit_checking_every_keyword(schema: &Value, whole: &str) -> (String, String) {
        let mut best: Option<(String, String)> = None;
        let none = crate::rules::request(Lane::Groq, &[], "");
        for (ptr, node) in nodes(&none, schema).iter() {
            for (k, v) in *node {
                let mut one = Map::new();
                one.insert(k.clone(), v.clone());
                if let Some(e) = metaschema_error(&Value::Object(one)) {
                    let at = child_path(ptr, k);
                    if best.as_ref().is_none_or(|(b, _)| at.len() > b.len()) {
                        best = Some((at, reason(&e, v)));
                    }
                }
            }
        }
        best.unwrap_or_else(|| (String::new(), reason(whole, schema)))
    }

    #[test]
    fn the_culprit_tried_longest_first_is_the_one_every_check_finds() {
        // Two failing keywords at the same depth (walk order decides), a
        // deeper one, and generated schemas (compositions, name maps,
        // keyword-named properties: many fail the metaschema).
        let mut schemas = vec![
            json!({"type": "object", "properties": {"b": {"type": 5}, "a": {"type": 6}}}),
            json!({"properties": {"x": {"minimum": "1", "properties": {"y": {"enum": 3}}}}, "required": "x"}),
            json!({"anyOf": [{"type": "nope"}, {"items": {"maxItems": -1}}], "required": 1}),
        ];
        schemas.extend(
            crate::generate::FuzzSpec {
                count: 300,
                seed: 7,
            }
            .tools()
            .map(|t| t.input_schema),
        );
        let mut failing = 0;
        for s in &schemas {
            let Some(whole) = metaschema_error(s) else {
                continue;
            };
            failing += 1;
            assert_eq!(
                culprit(&crate::rules::request(Lane::Groq, &[], ""), s, &whole),
                culprit_checking_every_keyword(s, &whole),
                "{s}"
            );
        }
        assert!(failing >= 100, "only {failing} schemas fail the metaschema");
    }
}
