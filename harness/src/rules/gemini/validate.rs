//! Phase 2, validation of a parsed `parameters` schema (`gemini-openapi`):
//! the Gemini API's `* GenerateContentRequest.…` lines and Vertex's
//! `Unable to submit request because …` messages.

use serde_json::{Map, Value};

use super::parse::parsed;
use super::paths::{dotted, field_location, proto_nodes, type_name};
use crate::lane::Lane;
use crate::lookup::Lookup;
use crate::rules::model::{Finding, Request};
use crate::rules::{each_schema, finding};
use crate::schema::child_path;

/// Vertex's message tail.
const LEARN_MORE: &str =
    "Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling";

// ---------------------------------------------------------------------------
// Phase 2: validation (only when the request parsed).

/// A validation predicate: `(index, schema, pointer, node)` → a finding.
type NodeCheck<'a> = dyn Fn(usize, &Value, &str, &Map<String, Value>) -> Option<Finding> + 'a;

/// `f(index, schema, pointer, node)` for each proto node of each parsed
/// `parameters`; the findings of all.
fn validate(req: &Request<'_>, f: &NodeCheck<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi || !parsed(req) {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        proto_nodes(req, s)
            .iter()
            .filter_map(|(ptr, node)| f(i, s, ptr, node))
            .collect()
    })
}

pub(super) fn object_properties_non_empty(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let empty = node
            .get("properties")
            .is_none_or(|p| p.is_null() || p.as_object().is_some_and(Map::is_empty));
        (type_name(node).as_deref() == Some("object") && empty).then(|| {
            finding(
                i,
                ptr,
                format!(
                    "{}.properties: should be non-empty for OBJECT type",
                    field_location(req, i, s, ptr)
                ),
            )
        })
    })
}

pub(super) fn array_items_required(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let missing = node.field("items").is_none_or(Value::is_null);
        (type_name(node).as_deref() == Some("array") && missing).then(|| {
            finding(
                i,
                ptr,
                format!("{}.items: missing field.", field_location(req, i, s, ptr)),
            )
        })
    })
}

pub(super) fn enum_only_string_type(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let t = type_name(node);
        let other = !matches!(t.as_deref(), Some("string" | "object" | "array"));
        (node.has("enum") && other).then(|| {
            finding(
                i,
                &child_path(ptr, "enum"),
                format!(
                    "{}.enum: only allowed for STRING type",
                    field_location(req, i, s, ptr)
                ),
            )
        })
    })
}

pub(super) fn string_format_enum_datetime_only(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let format = node.field("format").and_then(Value::as_str)?;
        (type_name(node).as_deref() == Some("string") && !matches!(format, "enum" | "date-time"))
            .then(|| {
                finding(
                    i,
                    &child_path(ptr, "format"),
                    format!(
                        "{}.format: only 'enum' and 'date-time' are supported for STRING type",
                        field_location(req, i, s, ptr)
                    ),
                )
            })
    })
}

/// A nested node with no `type` and no combinator to stand for one.
fn lacks_type(ptr: &str, node: &Map<String, Value>) -> bool {
    !ptr.is_empty()
        && node.field("type").is_none_or(Value::is_null)
        && !["anyOf", "oneOf", "allOf", "any_of", "one_of", "all_of"]
            .iter()
            .any(|k| node.has(k))
}

pub(super) fn type_required_without_combinator(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        lacks_type(ptr, node).then(|| {
            finding(
                i,
                ptr,
                format!(
                    "{}.type: must be specified when not using one_of, any_of or all_of fields",
                    field_location(req, i, s, ptr)
                ),
            )
        })
    })
}

pub(super) fn schema_type_field_missing(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        lacks_type(ptr, node).then(|| {
            finding(
                i,
                ptr,
                format!(
                    "Unable to submit request because `{}` functionDeclaration `{}` schema didn't specify the schema type field. {LEARN_MORE}",
                    req.name(i).unwrap_or_default(),
                    dotted(s, ptr)
                ),
            )
        })
    })
}

pub(super) fn anyof_must_be_only_field(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        (node.has("anyOf") && node.len() > 1).then(|| {
            finding(
                i,
                ptr,
                format!(
                    "Unable to submit request because `{}` functionDeclaration `{}` schema specified other fields alongside any_of. When using any_of, it must be the only field set.",
                    req.name(i).unwrap_or_default(),
                    dotted(s, ptr)
                ),
            )
        })
    })
}

pub(super) fn enum_with_object_or_array_type(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let typed = matches!(type_name(node).as_deref(), Some("object" | "array"));
        (node.has("enum") && typed).then(|| {
            finding(
                i,
                &child_path(ptr, "enum"),
                format!(
                    "Unable to submit request because {} functionDeclaration {} schema specified incorrect schema type field. For schema with enum values, schema type should not be OBJECT or ARRAY. {LEARN_MORE}",
                    req.name(i).unwrap_or_default(),
                    dotted(s, ptr)
                ),
            )
        })
    })
}

pub(super) fn parameters_type_object(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, _, ptr, node| {
        (ptr.is_empty() && type_name(node).as_deref() != Some("object")).then(|| {
            finding(
                i,
                "",
                format!(
                    "Unable to submit request because `{}` functionDeclaration parameters schema should be of type OBJECT. {LEARN_MORE}",
                    req.name(i).unwrap_or_default()
                ),
            )
        })
    })
}

/// `^[A-Za-z_][A-Za-z0-9_]{0,63}$` (Vertex's parameter names).
fn is_parameter_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

pub(super) fn parameter_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi || !parsed(req) {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let Some(props) = s.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        props
            .keys()
            .filter(|k| !is_parameter_name(k))
            .map(|k| {
                finding(
                    i,
                    &child_path("/properties", k),
                    format!(
                        "* GenerateContentRequest.{}.properties[{k}]: parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64",
                        req.schema_location(i)
                    ),
                )
            })
            .collect()
    })
}
