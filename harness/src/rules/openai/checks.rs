//! OpenAI's non-strict rules: every function tool's schema and name, and
//! the `tools` array itself, whatever the `strict` flag says.

use serde_json::Value;

use super::limits::limit;
use super::target::{each_node, json_path, tool_targets};
use crate::facts::openai as fact;
use crate::lane::Lane;
use crate::lookup::Lookup;
use crate::rules::model::{Finding, Request};
use crate::rules::{nodes, py_repr};
use crate::schema::{SCHEMA_ARRAYS, SINGLE_SCHEMA, escape_token, has_type};

// ---- non-strict rules -------------------------------------------------

pub(super) fn object_missing_properties(req: &Request<'_>) -> Vec<Finding> {
    tool_targets(req)
        .iter()
        .filter_map(|t| {
            let root = t.schema.as_object()?;
            (has_type(root, "object") && !root.has("properties"))
                .then(|| t.finding("", t.in_context("", "object schema missing properties.")))
        })
        .collect()
}

pub(super) fn array_missing_items(req: &Request<'_>) -> Vec<Finding> {
    each_node(req, &tool_targets(req), &mut |t, path, node| {
        if has_type(node, "array") && !node.has("items") {
            vec![t.in_context(path, "array schema missing items")]
        } else {
            Vec::new()
        }
    })
}

/// The message gained `'const'` between 2026-01-14 (langchainjs#9804, still
/// without it) and 2026-08-12 (the recording with it); we switch at the
/// first sighting.
const ROOT_CONST_FROM: &str = "2026-08-12";

/// GPT-5 and later accept root unions on `/v1/responses` (LiteLLM PR
/// #38792, 2026-08-29: only gpt-4*, gpt-3.5 and o-series still reject);
/// Chat Completions rejects them on every model (PR #38839). The lane has
/// no model, so from that date the lane means a current model.
const RESPONSES_ROOT_UNIONS_FROM: &str = "2026-08-29";

pub(super) fn root_composition(req: &Request<'_>) -> Vec<Finding> {
    let with_const = req.as_of >= ROOT_CONST_FROM;
    let unions_ok = req.lane == Lane::OpenaiResponses && req.as_of >= RESPONSES_ROOT_UNIONS_FROM;
    let listed = if with_const {
        "'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not'"
    } else {
        "'oneOf'/'anyOf'/'allOf'/'enum'/'not'"
    };
    tool_targets(req)
        .iter()
        .filter_map(|t| {
            let root = t.schema.as_object()?;
            let bad = ["oneOf", "anyOf", "allOf", "enum", "const", "not"]
                .iter()
                .filter(|k| **k != "const" || with_const)
                .filter(|k| !(unions_ok && ["oneOf", "anyOf", "allOf"].contains(*k)))
                .any(|k| root.has(k));
            bad.then(|| {
                t.finding(
                    "",
                    t.invalid(&format!(
                        "schema must have type 'object' and not have {listed} at the top level."
                    )),
                )
            })
        })
        .collect()
}

/// Keywords whose value is a name map (the draft's own; `$def` is a
/// misspelling the walker tolerates, not a keyword).
const MAP_KEYWORDS: &[&str] = &[
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];

pub(super) fn required_null(req: &Request<'_>) -> Vec<Finding> {
    each_node(req, &tool_targets(req), &mut |t, _, node| {
        let mut out = Vec::new();
        if let Some(r) = node.field("required")
            && !r.is_array()
        {
            out.push(t.invalid(&format!("{} is not of type 'array'.", py_repr(r))));
        }
        for kw in MAP_KEYWORDS {
            if let Some(v) = node.field(kw)
                && !v.is_object()
            {
                out.push(t.invalid(&format!("{} is not of type 'object'.", py_repr(v))));
            }
        }
        out
    })
}

fn schema_like(v: &Value) -> bool {
    v.is_object() || v.is_boolean()
}

/// Array-form `items` is left alone: whether `[]` is a tuple or a bad
/// schema depends on the draft the validator assumes. The root counts too:
/// the recording does not show where its `[]` sat, and `parameters: []`
/// fails the same validator.
pub(super) fn subschema_not_object(req: &Request<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for t in tool_targets(req) {
        if !schema_like(t.schema) {
            out.push(t.finding(
                "",
                t.invalid(&format!(
                    "{} is not of type 'object', 'boolean'.",
                    py_repr(t.schema)
                )),
            ));
        }
        for (path, node) in nodes(req, t.schema).iter() {
            let mut bad = |at: String, v: &Value| {
                out.push(t.finding(
                    &at,
                    t.invalid(&format!(
                        "{} is not of type 'object', 'boolean'.",
                        py_repr(v)
                    )),
                ));
            };
            for kw in MAP_KEYWORDS {
                if let Some(map) = node.field(kw).and_then(Value::as_object) {
                    for (name, v) in map.iter().filter(|(_, v)| !schema_like(v)) {
                        bad(format!("{path}/{kw}/{}", escape_token(name)), v);
                    }
                }
            }
            for kw in SINGLE_SCHEMA {
                if let Some(v) = node.field(kw).filter(|v| !schema_like(v)) {
                    bad(format!("{path}/{kw}"), v);
                }
            }
            if let Some(v) = node
                .field("items")
                .filter(|v| !schema_like(v) && !v.is_array())
            {
                bad(format!("{path}/items"), v);
            }
            for kw in SCHEMA_ARRAYS {
                if let Some(arr) = node.field(kw).and_then(Value::as_array) {
                    for (i, v) in arr.iter().enumerate().filter(|(_, v)| !schema_like(v)) {
                        bad(format!("{path}/{kw}/{i}"), v);
                    }
                }
            }
        }
    }
    out
}

/// Before 2026-05-29 the same schema failed in-stream with a server_error
/// (gpt-5.4, vercel/ai PR #20021): no request-time rejection to model.
const LOOKAROUND_400_FROM: &str = "2026-05-29";

pub(super) fn pattern_lookaround(req: &Request<'_>) -> Vec<Finding> {
    if req.as_of < LOOKAROUND_400_FROM {
        return Vec::new();
    }
    each_node(req, &tool_targets(req), &mut |_, path, node| {
        let Some(p) = node.field("pattern").and_then(Value::as_str) else {
            return Vec::new();
        };
        if crate::ecma::has_lookaround(p) == Some(true) {
            vec![format!(
                "Invalid JSON schema: regex lookaround is not supported. Found at {}.pattern.",
                json_path(path)
            )]
        } else {
            Vec::new()
        }
    })
}

pub(super) fn tool_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            let ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            (!ok).then(|| Finding {
                tool: Some(i),
                path: String::new(),
                message: format!(
                    "Invalid '{}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
                    req.lane.name_location(i)
                ),
            })
        })
        .collect()
}

/// The message follows OpenAI's `invalid_value` wording for string lengths.
pub(super) fn tool_name_length(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter_map(|i| {
            let n = req.name(i)?.chars().count();
            let max = limit(fact::NAME_LENGTH);
            (n > max).then(|| Finding {
                tool: Some(i),
                path: String::new(),
                message: format!(
                    "Invalid '{}': string too long. Expected a string with maximum length {max}, but got a string with length {n} instead.",
                    req.lane.name_location(i)
                ),
            })
        })
        .collect()
}

/// An empty tools slice means `"tools": []` was sent, unless the request is
/// a structured-output one (then it had no `tools` member; see
/// `recording.rs`).
pub(super) fn empty_tools_array(req: &Request<'_>) -> Vec<Finding> {
    if req.tools_present && req.tools.is_empty() && req.response_format.is_none() {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: "[] is too short - 'tools'".to_owned(),
        }]
    } else {
        Vec::new()
    }
}
