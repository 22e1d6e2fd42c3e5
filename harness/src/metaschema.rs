//! What a JSON Schema metaschema says about a schema document, as plain
//! data below both the passes and the oracles (neither asks the other):
//! - [`draft_2020_12_error`]: validity under the draft 2020-12 metaschema.
//!   This is the one module that wraps the `jsonschema` crate (no remote
//!   `$ref`s).
//! - [`keyword_type_violation`]: the JSON type the metaschema gives each
//!   keyword's value.
//! - [`Validator`]: a compiled schema that judges instances (formats
//!   asserted), for the semantic differential.
//!
//! The provider facts that make passes and oracles need these:
//! - Anthropic validates every custom tool's `input_schema` against the
//!   draft 2020-12 metaschema (`JSON schema is invalid. It must match JSON
//!   Schema draft 2020-12`, recordings `anthropic-json-schema-invalid-2020-12-*`);
//! - Groq compiles `parameters` as a draft 2020-12 document (`schema is not
//!   valid JSON Schema`, recordings `groq-metaschema-validation-*`);
//! - Mistral checks `parameters` with Python's `jsonschema` and rejects a
//!   keyword whose value has the wrong JSON type, in Python reprs
//!   (`{'type': 'string'} is not of type 'string'`, recordings
//!   `mistral-parameters-not-object-schema-*`).

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::schema::{self, NAME_MAPS, TooDeep, child_path};

/// The first reason `schema` is not a valid JSON Schema draft 2020-12
/// document (checked against the draft's metaschema), if any.
pub(crate) fn draft_2020_12_error(schema: &Value) -> Option<String> {
    // The yes/no walk stops at the first failure and builds no error; the
    // error walk, which names it, runs only for the few that fail.
    if jsonschema::draft202012::meta::is_valid(schema) {
        return None;
    }
    jsonschema::draft202012::meta::validate(schema)
        .err()
        .map(|e| e.to_string())
}

/// A compiled schema that judges instances: the draft its `$schema` names
/// (2020-12 when none), `format` asserted for the formats the validator
/// knows (unknown formats pass), no remote `$ref`s.
pub(crate) struct Validator(jsonschema::Validator);

impl Validator {
    /// Compile `schema`; the error says why it cannot judge instances (an
    /// invalid keyword value, an unresolvable `$ref`, a pattern the regex
    /// engine does not take, …). The `pattern`s' regexes come from
    /// `patterns` and new ones are left there: the schemas one tool is
    /// shaped into repeat its patterns, and a regex compiles to the same
    /// matcher every time (a failed one fails the same way).
    pub(crate) fn compile(schema: &Value, patterns: &Patterns) -> Result<Self, String> {
        jsonschema::options()
            .with_pattern_cache(patterns.0.clone())
            .should_validate_formats(true)
            .should_ignore_unknown_formats(true)
            .build(schema)
            .map(Self)
            .map_err(|e| stable_message(&e.to_string()))
    }

    /// Whether `instance` is valid.
    pub(crate) fn accepts(&self, instance: &Value) -> bool {
        self.0.is_valid(instance)
    }
}

/// Compiled `pattern` regexes that [`Validator::compile`] reuses
/// between the validators it builds (kept as long as the value lives).
#[derive(Debug, Clone, Default)]
pub(crate) struct Patterns(jsonschema::PatternCache);

/// A compile error as the same words on every run: with several
/// unresolvable references the crate names whichever it meets first, in an
/// order that varies between runs, so the name is left out.
fn stable_message(message: &str) -> String {
    match message.split_once("' is not present in a registry") {
        Some((head, tail)) if head.starts_with("Resource '") => {
            format!("a referenced resource is not present in a registry{tail}")
        }
        _ => message.to_owned(),
    }
}

/// What the metaschema wants for a keyword's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    String,
    Object,
    Array,
    Number,
    Integer,
    Boolean,
    /// A subschema: `'object', 'boolean'`.
    Schema,
    /// `type`: a string or an array of strings.
    TypeValue,
}

/// The JSON type the metaschema gives `keyword`'s value (`None`: a keyword
/// it does not constrain).
pub(crate) fn want(keyword: &str) -> Option<Want> {
    Some(match keyword {
        "title" | "description" | "pattern" | "format" | "$id" | "$schema" | "$ref"
        | "$comment" | "$anchor" | "contentMediaType" | "contentEncoding" => Want::String,
        "properties" | "patternProperties" | "definitions" | "$defs" | "dependentSchemas" => {
            Want::Object
        }
        "required" | "enum" | "allOf" | "anyOf" | "oneOf" | "prefixItems" => Want::Array,
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            Want::Number
        }
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties"
        | "minContains" | "maxContains" => Want::Integer,
        "uniqueItems" | "readOnly" | "writeOnly" | "deprecated" => Want::Boolean,
        "additionalProperties"
        | "not"
        | "if"
        | "then"
        | "else"
        | "contains"
        | "propertyNames"
        | "unevaluatedProperties"
        | "unevaluatedItems"
        | "additionalItems"
        | "contentSchema" => Want::Schema,
        "type" => Want::TypeValue,
        _ => return None,
    })
}

fn is_integer(v: &Value) -> bool {
    v.as_i64().is_some()
        || v.as_u64().is_some()
        || v.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Python's `repr` of the JSON value as `json.loads` would build it (the
/// form Python validators print values in).
pub(crate) fn py_repr(v: &Value) -> String {
    match v {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => {
            let s = n.to_string();
            if n.is_f64() && !s.contains(['.', 'e', 'E']) {
                format!("{s}.0")
            } else {
                s
            }
        }
        Value::String(s) => py_str(s),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(py_repr).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", py_str(k), py_repr(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Python's `repr` of a `str`: single quotes unless only double quotes avoid escaping.
pub(crate) fn py_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    // Nothing to escape (most names): the text as it is.
    if !s.contains(|c: char| c == '\\' || c == quote || (c as u32) < 0x20 || c as u32 == 0x7f) {
        out.push_str(s);
        out.push(quote);
        return out;
    }
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Python `jsonschema`'s message for a value that fails `w`, if it does.
pub(crate) fn violation(w: Want, v: &Value) -> Option<String> {
    let (ok, expected) = match w {
        Want::String => (v.is_string(), "is not of type 'string'"),
        Want::Object => (v.is_object(), "is not of type 'object'"),
        Want::Array => (v.is_array(), "is not of type 'array'"),
        Want::Number => (v.is_number(), "is not of type 'number'"),
        Want::Integer => (is_integer(v), "is not of type 'integer'"),
        Want::Boolean => (v.is_boolean(), "is not of type 'boolean'"),
        Want::Schema => (
            v.is_object() || v.is_boolean(),
            "is not of type 'object', 'boolean'",
        ),
        Want::TypeValue => (
            v.is_string() || v.is_array(),
            "is not valid under any of the given schemas",
        ),
    };
    (!ok).then(|| format!("{} {expected}", py_repr(v)))
}

/// Every keyword-type violation of one node: `(pointer, message)`.
pub(crate) fn node_violations(ptr: &str, node: &Map<String, Value>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (k, v) in node {
        if let Some(message) = want(k).and_then(|w| violation(w, v)) {
            out.push((child_path(ptr, k), message));
        }
        // Name-map values and schema-array members are subschemas.
        let members: Vec<(String, &Value)> = if NAME_MAPS.contains(&k.as_str()) {
            v.as_object()
                .map(|m| {
                    m.iter()
                        .map(|(n, s)| (child_path(&child_path(ptr, k), n), s))
                        .collect()
                })
                .unwrap_or_default()
        } else if matches!(k.as_str(), "allOf" | "anyOf" | "oneOf" | "prefixItems") {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .enumerate()
                        .map(|(idx, s)| (format!("{}/{idx}", child_path(ptr, k)), s))
                        .collect()
                })
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        for (at, s) in members {
            if let Some(message) = violation(Want::Schema, s) {
                out.push((at, message));
            }
        }
    }
    out
}

/// The first keyword whose value has the wrong JSON type, in walk order:
/// `(pointer, message)` in Python `jsonschema`'s words. A root that is a
/// string, a number or an array is itself the violation (at `""`).
pub(crate) fn keyword_type_violation(root: &Value) -> Result<Option<(String, String)>, TooDeep> {
    if matches!(root, Value::String(_) | Value::Number(_) | Value::Array(_)) {
        return Ok(violation(Want::Schema, root).map(|m| (String::new(), m)));
    }
    let mut found = None;
    schema::visit(root, &mut |path, node| {
        if found.is_none() {
            found = node_violations(path, node).into_iter().next();
        }
    })?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Two unresolvable references: the message must not depend on which
    /// one the crate meets first (it varies between runs).
    #[test]
    fn an_unresolvable_reference_error_names_no_resource() {
        let schema = json!({"properties": {
            "a": {"$ref": "node"},
            "b": {"$ref": "tree"}
        }});
        let Err(message) = Validator::compile(&schema, &Patterns::default()) else {
            panic!("compiles");
        };
        assert_eq!(
            message,
            "a referenced resource is not present in a registry and retrieving it failed: No base URI is available"
        );
    }

    /// A validator built from shared patterns judges as one built afresh,
    /// and a pattern that failed fails again with the same words.
    #[test]
    fn shared_patterns_judge_and_fail_as_fresh_ones() {
        let patterns = Patterns::default();
        let schema = json!({"properties": {"a": {"type": "string", "pattern": "^x+$"}}});
        let moved = json!({"items": {"type": "string", "pattern": "^x+$"}});
        let first = Validator::compile(&schema, &patterns).expect("compiles");
        let again = Validator::compile(&moved, &patterns).expect("compiles");
        assert!(first.accepts(&json!({"a": "xx"})));
        assert!(!first.accepts(&json!({"a": "xy"})));
        assert!(again.accepts(&json!(["x", "xxx"])));
        assert!(!again.accepts(&json!(["x", "y"])));
        let bad = json!({"properties": {"a": {"pattern": "(x"}}});
        let fresh = Validator::compile(&bad, &Patterns::default()).err();
        assert!(fresh.is_some());
        assert_eq!(Validator::compile(&bad, &patterns).err(), fresh);
        assert_eq!(Validator::compile(&bad, &patterns).err(), fresh);
    }

    #[test]
    fn draft_2020_12_errors_name_the_problem() {
        assert_eq!(draft_2020_12_error(&json!({"type": "object"})), None);
        assert_eq!(
            draft_2020_12_error(&json!({"required": "a"})).as_deref(),
            Some(r#""a" is not of type "array""#)
        );
        assert!(draft_2020_12_error(&json!({"type": "objekt"})).is_some());
    }

    #[test]
    fn the_first_keyword_of_the_wrong_type_is_named_in_python_words() {
        assert_eq!(
            keyword_type_violation(
                &json!({"type":"object","properties":{"a":{"type":"string"},"b":{"allOf":{"type":"string"},"minLength":1.5}}})
            ),
            Ok(Some((
                "/properties/b/allOf".to_owned(),
                "{'type': 'string'} is not of type 'array'".to_owned()
            )))
        );
        assert_eq!(
            keyword_type_violation(
                &json!({"properties":{"description":{"type":"string"}},"description":{"x":1}})
            ),
            Ok(Some((
                "/description".to_owned(),
                "{'x': 1} is not of type 'string'".to_owned()
            )))
        );
        assert_eq!(
            keyword_type_violation(&json!([1])),
            Ok(Some((
                String::new(),
                "[1] is not of type 'object', 'boolean'".to_owned()
            )))
        );
        assert_eq!(
            keyword_type_violation(&json!({"type":["string","null"],"anyOf":[true,{}]})),
            Ok(None)
        );
        assert_eq!(keyword_type_violation(&json!(null)), Ok(None));
    }
}
