//! Phase 1, proto parsing of `parameters` (`gemini-openapi`): unknown
//! fields and values the `Schema` proto cannot hold. Any finding rejects
//! the request before validation ([`parsed`]).

use serde_json::Value;

use super::memo::{Memo, PARSED};
use super::paths::{payload_location, proto_nodes, unknown_name};
use crate::facts::gemini as fact;
use crate::lane::Lane;
use crate::lookup::Lookup;
use crate::rules::model::{Finding, Request};
use crate::rules::{each_schema, finding};
use crate::schema::child_path;

/// The last day `title` and `default` were recorded as unknown fields.
const TITLE_DEFAULT_LAST_REJECTED: &str = "2024-09-26";

// ---------------------------------------------------------------------------
// Phase 1: proto parsing.

/// The proto-parsing predicates: any finding rejects the request before
/// validation runs.
const PARSE_PHASE: &[fn(&Request<'_>) -> Vec<Finding>] = &[
    unknown_additional_properties,
    unknown_schema_keyword,
    unknown_const,
    unknown_exclusive_bounds,
    unknown_property_names,
    unknown_title_examples_default_defs,
    unknown_schema_proto_field,
    type_not_repeating,
    type_invalid_value,
    property_schema_not_object,
    enum_values_must_be_strings,
];

/// Validation runs: not the `parameters` wire, or it parsed.
pub(super) fn parsed(req: &Request<'_>) -> bool {
    if req.lane != Lane::GeminiOpenapi {
        return true;
    }
    let key = (req.tools.as_ptr() as usize, req.tools.len());
    let memo = PARSED.with(std::cell::Cell::get);
    if let Memo::Parsed(a, n, v) = memo
        && (a, n) == key
    {
        return v;
    }
    let v = PARSE_PHASE.iter().all(|f| f(req).is_empty());
    if !matches!(memo, Memo::Off) {
        PARSED.with(|c| c.set(Memo::Parsed(key.0, key.1, v)));
    }
    v
}

/// `Unknown name "k"` for each of `keywords` at a proto position, in the
/// order of `keywords` within a node.
fn unknown_names(req: &Request<'_>, keywords: &[&str]) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (ptr, node) in proto_nodes(req, s).iter() {
            for k in keywords.iter().filter(|k| node.has(k)) {
                out.push(unknown_name(req, i, s, ptr, k));
            }
        }
        out
    })
}

pub(super) fn unknown_additional_properties(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["additionalProperties"])
}

pub(super) fn unknown_schema_keyword(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["$schema"])
}

pub(super) fn unknown_const(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["const"])
}

pub(super) fn unknown_exclusive_bounds(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["exclusiveMinimum", "exclusiveMaximum"])
}

pub(super) fn unknown_property_names(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["propertyNames", "patternProperties"])
}

pub(super) fn unknown_title_examples_default_defs(req: &Request<'_>) -> Vec<Finding> {
    if req.as_of <= TITLE_DEFAULT_LAST_REJECTED {
        unknown_names(req, &["examples", "title", "default", "$defs"])
    } else {
        unknown_names(req, &["examples", "$defs"])
    }
}

/// Fields the recorded unknown-field rules report (each under its own id).
const RECORDED_UNKNOWN: &[&str] = &[
    "additionalProperties",
    "$schema",
    "const",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "propertyNames",
    "patternProperties",
    "examples",
    "$defs",
];

/// A field the `Schema` proto knows, by its JSON or its proto name.
fn is_proto_field(key: &str) -> bool {
    fact::SCHEMA_FIELDS.items.contains(&key) || fact::SCHEMA_FIELD_ALIASES.items.contains(&key)
}

/// `gemini-unknown-field-schema-proto`: any other field at a proto position,
/// in the parser's own words (the wording of the recorded unknown-field
/// rules), reported where it stands; its value is never entered.
pub(super) fn unknown_schema_proto_field(req: &Request<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    // `title` and `default` are proto fields: their early rejection is the
    // recorded rule's.
    each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (ptr, node) in proto_nodes(req, s).iter() {
            for k in node
                .keys()
                .filter(|k| !is_proto_field(k) && !RECORDED_UNKNOWN.contains(&k.as_str()))
            {
                out.push(unknown_name(req, i, s, ptr, k));
            }
        }
        out
    })
}

/// A finding at each proto node's `type` that `wrong` holds, worded by
/// `message(location of the node, the type)`.
fn type_findings(
    req: &Request<'_>,
    wrong: fn(&Value) -> bool,
    message: fn(&str, &Value) -> String,
) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        proto_nodes(req, s)
            .iter()
            .filter_map(|(ptr, node)| {
                let t = node.field("type").filter(|t| wrong(t))?;
                Some(finding(
                    i,
                    &child_path(ptr, "type"),
                    message(&payload_location(req, i, s, ptr), t),
                ))
            })
            .collect()
    })
}

pub(super) fn type_not_repeating(req: &Request<'_>) -> Vec<Finding> {
    type_findings(req, Value::is_array, |at, _| {
        format!(
            "Invalid JSON payload received. Unknown name \"type\" at '{at}': Proto field is not repeating, cannot start list."
        )
    })
}

/// A `type` string that names no value of the `Type` enum (an empty
/// string, `date`, `any`): the enum's JSON parser rejects it.
pub(super) fn type_invalid_value(req: &Request<'_>) -> Vec<Finding> {
    type_findings(
        req,
        |t| t.as_str().is_some_and(|name| !fact::is_type_name(name)),
        |at, t| {
            format!(
                "Invalid value at '{at}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), {t}"
            )
        },
    )
}

/// A JSON scalar where the proto wants a `Schema` message.
fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// `Invalid value at '…' (…Schema), <value>`, as the Vertex-backed parser prints it.
fn invalid_schema_value(location: &str, v: &Value) -> String {
    format!(
        "Invalid value at '{location}' (type.googleapis.com/google.cloud.aiplatform.master.Schema), {v}"
    )
}

pub(super) fn property_schema_not_object(req: &Request<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let loc = req.schema_location(i);
        if is_scalar(s) {
            return vec![finding(i, "", invalid_schema_value(&loc, s))];
        }
        let mut out = Vec::new();
        for (ptr, node) in proto_nodes(req, s).iter() {
            // Built only for a finding: most nodes have none.
            let base = || payload_location(req, i, s, ptr);
            if let Some(props) = node.field("properties").and_then(Value::as_object) {
                for (idx, (name, v)) in props.iter().enumerate() {
                    if is_scalar(v) {
                        let at = format!("{}.properties[{idx}].value", base());
                        out.push(finding(
                            i,
                            &child_path(&child_path(ptr, "properties"), name),
                            invalid_schema_value(&at, v),
                        ));
                    }
                }
            }
            if let Some(v) = node.field("items").filter(|v| is_scalar(v)) {
                let at = format!("{}.items", base());
                out.push(finding(
                    i,
                    &child_path(ptr, "items"),
                    invalid_schema_value(&at, v),
                ));
            }
            if let Some(branches) = node.field("anyOf").and_then(Value::as_array) {
                for (idx, v) in branches.iter().enumerate() {
                    if is_scalar(v) {
                        let at = format!("{}.any_of[{idx}]", base());
                        out.push(finding(
                            i,
                            &format!("{ptr}/anyOf/{idx}"),
                            invalid_schema_value(&at, v),
                        ));
                    }
                }
            }
        }
        out
    })
}

pub(super) fn enum_values_must_be_strings(req: &Request<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (ptr, node) in proto_nodes(req, s).iter() {
            let Some(members) = node.field("enum").and_then(Value::as_array) else {
                continue;
            };
            for (idx, v) in members.iter().enumerate().filter(|(_, v)| !v.is_string()) {
                out.push(finding(
                    i,
                    &format!("{ptr}/enum/{idx}"),
                    format!(
                        "Invalid value at '{}.enum[{idx}]' (TYPE_STRING), {v}",
                        payload_location(req, i, s, ptr)
                    ),
                ));
            }
        }
        out
    })
}
