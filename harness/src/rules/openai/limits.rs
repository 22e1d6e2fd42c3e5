//! OpenAI's documented size limits on strict schemas (nesting, property,
//! enum and string budgets, with the date they were raised) and on the
//! request (tool count, name length), from `facts::openai`.

use std::convert::Infallible;
use std::ops::ControlFlow;

use serde_json::{Map, Value};

use super::target::{each_node, strict_targets};
use crate::facts::{self, openai as fact};
use crate::lookup::Lookup;
use crate::rules::model::{Finding, Request};
use crate::rules::nodes;
use crate::schema::{PastLimit, is_object_schema, walk};

/// The size limits were raised once: the launch docs said 100 properties,
/// 5 levels and 500 enum values (the constants of openai-java's
/// `JsonSchemaValidator`), and an `o3` request got "6 levels of nesting
/// exceeds limit of 5" on 2025-07-17 (tidyverse/ellmer#671); the docs now
/// say 5000, 10 and 1000. The change is undated; we switch after that
/// sighting.
const LIMITS_RAISED_FROM: &str = "2025-07-18";

struct Limits {
    levels: usize,
    properties: usize,
    enum_values: usize,
    /// Characters of property names, definition names, enum and const values.
    strings: usize,
    /// Characters of one string enum with more than 250 values.
    large_enum_strings: usize,
}

/// A documented limit as a count.
pub(super) fn limit(l: facts::Limit) -> usize {
    l.value
}

fn limits(as_of: &str) -> Limits {
    if as_of < LIMITS_RAISED_FROM {
        Limits {
            levels: 5,
            properties: 100,
            enum_values: 500,
            strings: 15_000,
            large_enum_strings: 7_500,
        }
    } else {
        Limits {
            levels: limit(fact::STRICT_NESTING),
            properties: limit(fact::STRICT_PROPERTIES),
            enum_values: limit(fact::STRICT_ENUM_VALUES),
            strings: limit(fact::STRICT_STRING_BUDGET),
            large_enum_strings: limit(fact::STRICT_ENUM_STRING_BUDGET),
        }
    }
}

/// Object levels on the deepest path: every object schema counts one, the
/// root included; definitions start their own count. An approximation of
/// "levels of nesting", which the docs do not define further.
fn object_levels(schema: &Value) -> usize {
    let mut deepest = 0;
    // A node past the depth limit still counts, its children do not.
    let _ = walk::<usize, Infallible>(
        schema,
        PastLimit::Leaf,
        0,
        &mut |_, node, above| {
            let here = above + usize::from(is_object_schema(node));
            deepest = deepest.max(here);
            ControlFlow::Continue(Some(here))
        },
        &|here, _, child| Some(if child.is_definition() { 0 } else { *here }),
    );
    deepest
}

/// Findings for strict schemas whose `count` exceeds `limit`; the message
/// names the count and the limit after `what` (OpenAI's wording).
fn over_limit(
    req: &Request<'_>,
    limit: usize,
    what: &str,
    count: &dyn Fn(&Value) -> usize,
) -> Vec<Finding> {
    strict_targets(req)
        .iter()
        .filter_map(|t| {
            let n = count(t.schema);
            (n > limit).then(|| {
                t.finding(
                    "",
                    t.invalid(&format!("{n} {what} exceeds limit of {limit}.")),
                )
            })
        })
        .collect()
}

pub(super) fn strict_nesting_limit(req: &Request<'_>) -> Vec<Finding> {
    over_limit(req, limits(req.as_of).levels, "levels of nesting", &|s| {
        object_levels(s)
    })
}

pub(super) fn strict_property_count_limit(req: &Request<'_>) -> Vec<Finding> {
    over_limit(
        req,
        limits(req.as_of).properties,
        "object properties",
        &|s| {
            nodes(req, s)
                .iter()
                .filter_map(|(_, node)| node.field("properties").and_then(Value::as_object))
                .map(Map::len)
                .sum()
        },
    )
}

pub(super) fn strict_enum_count_limit(req: &Request<'_>) -> Vec<Finding> {
    over_limit(req, limits(req.as_of).enum_values, "enum values", &|s| {
        nodes(req, s)
            .iter()
            .filter_map(|(_, node)| node.field("enum").and_then(Value::as_array))
            .map(Vec::len)
            .sum()
    })
}

/// Characters of property names, definition names, and string enum and
/// const values in one schema (the documented string budget).
pub(super) fn string_budget(req: &Request<'_>, schema: &Value) -> usize {
    let mut n = 0;
    for (_, node) in nodes(req, schema).iter() {
        for kw in ["properties", "$defs", "definitions"] {
            if let Some(m) = node.field(kw).and_then(Value::as_object) {
                n += m.keys().map(|k| k.chars().count()).sum::<usize>();
            }
        }
        if let Some(values) = node.field("enum").and_then(Value::as_array) {
            n += values
                .iter()
                .filter_map(Value::as_str)
                .map(|v| v.chars().count())
                .sum::<usize>();
        }
        if let Some(c) = node.field("const").and_then(Value::as_str) {
            n += c.chars().count();
        }
    }
    n
}

pub(super) fn strict_string_budget_limit(req: &Request<'_>) -> Vec<Finding> {
    over_limit(
        req,
        limits(req.as_of).strings,
        "characters of property names, definition names, enum values and const values",
        &|s| string_budget(req, s),
    )
}

pub(super) fn strict_enum_string_budget_limit(req: &Request<'_>) -> Vec<Finding> {
    let max = limits(req.as_of).large_enum_strings;
    let large = limit(fact::STRICT_LARGE_ENUM);
    each_node(req, &strict_targets(req), &mut move |t, path, node| {
        let Some(values) = node.field("enum").and_then(Value::as_array) else {
            return Vec::new();
        };
        let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
        let chars: usize = strings.iter().map(|v| v.chars().count()).sum();
        if strings.len() > large && chars > max {
            vec![t.in_context(
                path,
                &format!(
                    "enum with {} string values totals {chars} characters, which exceeds limit of {max} for enums with more than {large} values.",
                    strings.len()
                ),
            )]
        } else {
            Vec::new()
        }
    })
}

/// OpenAI's `invalid_value` wording for array lengths.
pub(super) fn tool_count_limit(req: &Request<'_>) -> Vec<Finding> {
    let max = limit(fact::CHAT_TOOLS);
    let n = req.tools.len();
    if n > max {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: format!(
                "Invalid 'tools': array too long. Expected an array with maximum length {max}, but got an array with length {n} instead."
            ),
        }]
    } else {
        Vec::new()
    }
}
