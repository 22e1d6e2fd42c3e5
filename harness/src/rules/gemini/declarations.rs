//! Rules on both wires, about a function declaration as a whole: its
//! name, the `maxItems` budget of its schema, and `parameters` beside
//! `parametersJsonSchema`; and about the request: how many declarations
//! it holds.

use serde_json::{Map, Value};

use super::parse::parsed;
use crate::lookup::Lookup;
use crate::rules::model::{Finding, Request};
use crate::rules::{each_schema, finding, nodes};

/// The first day a function-name message listed colons.
const NAME_COLONS_FROM: &str = "2026-03-03";
/// The `maxItems` sum one declaration may reach.
const MAX_ITEMS_BUDGET: f64 = 960.0;
/// The function declarations one request may hold, as the Gemini API
/// answers (recorded from google-gemini/gemini-cli#19083, 2026-02-14;
/// #25440, 2026-04-15, quotes the same answer). The Vertex SDK reference says "Maximum 64 function
/// declarations can be provided"; no rejection at 64 is recorded, and
/// clients send hundreds, so the rule follows the answers.
const MAX_DECLARATIONS: usize = 512;

/// The function-name alphabet as of a date.
fn is_function_name(name: &str, colons: bool) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') || (colons && c == ':')
        })
        && name.chars().count() <= 64
}

pub(super) fn function_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    if !parsed(req) {
        return Vec::new();
    }
    let colons = req.as_of >= NAME_COLONS_FROM;
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            (!is_function_name(name, colons)).then(|| {
                let message = if colons {
                    format!(
                        "* GenerateContentRequest.tools[0].function_declarations[{i}].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64."
                    )
                } else {
                    format!(
                        "The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations[{i}].name: [FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64."
                    )
                };
                finding(i, "", message)
            })
        })
        .collect()
}

/// A `maxItems` value as a number (the proto also takes int64 strings).
fn max_items(node: &Map<String, Value>) -> f64 {
    match node.field("maxItems") {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(Value::String(s)) => s.parse().unwrap_or(0.0),
        _ => 0.0,
    }
}

pub(super) fn maxitems_cumulative_budget(req: &Request<'_>) -> Vec<Finding> {
    if !parsed(req) {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let sum: f64 = nodes(req, s).iter().map(|(_, node)| max_items(node)).sum();
        if sum > MAX_ITEMS_BUDGET {
            vec![finding(i, "", "INVALID_ARGUMENT".to_owned())]
        } else {
            Vec::new()
        }
    })
}

pub(super) fn parameters_json_schema_exclusive(req: &Request<'_>) -> Vec<Finding> {
    if !parsed(req) {
        return Vec::new();
    }
    req.tools
        .iter()
        .enumerate()
        .filter(|(_, d)| {
            d.get("parameters").is_some()
                && (d.get("parametersJsonSchema").is_some()
                    || d.get("parameters_json_schema").is_some())
        })
        .map(|(i, _)| {
            finding(
                i,
                "",
                format!(
                    "tools[0].function_declarations[{i}]: parametersJsonSchema is mutually exclusive with parameters"
                ),
            )
        })
        .collect()
}

/// A finding about the request, not one declaration: the client must send
/// fewer tools (no shaping of a tool can fix it).
pub(super) fn function_declarations_limit(req: &Request<'_>) -> Vec<Finding> {
    if req.tools.len() <= MAX_DECLARATIONS || !parsed(req) {
        return Vec::new();
    }
    vec![Finding {
        tool: None,
        path: String::new(),
        message: format!(
            "The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations: [FIELD_INVALID] At most {MAX_DECLARATIONS} function declarations can be specified."
        ),
    }]
}
