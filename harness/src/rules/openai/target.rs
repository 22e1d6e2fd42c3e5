//! What OpenAI's rules look at: the schemas it validates ([`Target`]s:
//! function parameters and strict `response_format` schemas), and paths as
//! its validator prints them (the `In context=(…)` tuple, JSONPath).

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::lane::Wire;
use crate::rules::model::{Finding, Request};
use crate::rules::{nodes, py_str};
use crate::schema::{NAME_MAPS, SCHEMA_ARRAYS};

// ---- what the rules look at -------------------------------------------

/// One schema OpenAI validates: a function's parameters or a strict
/// `response_format` schema.
pub(super) struct Target<'r> {
    pub(super) tool: Option<usize>,
    pub(super) schema: &'r Value,
    /// `function` or `response_format`, and its name: the subject of
    /// messages, put together only when a rule words one.
    kind: &'static str,
    name: &'r str,
}

impl Target<'_> {
    /// `Invalid schema for function 'NAME': …`.
    pub(super) fn invalid(&self, text: &str) -> String {
        format!("Invalid schema for {} '{}': {text}", self.kind, self.name)
    }

    /// `Invalid schema for function 'NAME': In context=(…), …`.
    pub(super) fn in_context(&self, path: &str, text: &str) -> String {
        self.invalid(&format!("In context={}, {text}", context(path)))
    }

    pub(super) fn finding(&self, path: &str, message: String) -> Finding {
        Finding {
            tool: self.tool,
            path: path.to_owned(),
            message,
        }
    }
}

/// Every tool's parameters.
pub(super) fn tool_targets<'r>(req: &'r Request<'_>) -> Vec<Target<'r>> {
    (0..req.tools.len())
        .filter_map(|i| {
            Some(Target {
                tool: Some(i),
                schema: req.schema(i)?,
                kind: "function",
                name: req.name(i).unwrap_or_default(),
            })
        })
        .collect()
}

/// The tool is strict: its flag, or on Responses the default (an absent
/// flag means strict there; see `lane.rs`).
fn is_strict(req: &Request<'_>, i: usize) -> bool {
    req.strict(i).unwrap_or(req.lane.wire() == Wire::Responses)
}

/// Every strict tool's parameters, and a strict `response_format` schema
/// (Chat: `{type: json_schema, json_schema: {name, strict, schema}}`;
/// Responses `text.format`: `{type: json_schema, name, strict, schema}`).
pub(super) fn strict_targets<'r>(req: &'r Request<'_>) -> Vec<Target<'r>> {
    let mut out: Vec<Target<'r>> = tool_targets(req)
        .into_iter()
        .filter(|t| t.tool.is_some_and(|i| is_strict(req, i)))
        .collect();
    if let Some(rf) = req.response_format
        && rf.get("type").and_then(Value::as_str) == Some("json_schema")
    {
        let js = rf.get("json_schema").unwrap_or(rf);
        if js.get("strict").and_then(Value::as_bool) == Some(true)
            && let Some(schema) = js.get("schema")
        {
            let name = js.get("name").and_then(Value::as_str).unwrap_or_default();
            out.push(Target {
                tool: None,
                schema,
                kind: "response_format",
                name,
            });
        }
    }
    out
}

/// A check of one schema node of a target: its messages.
pub(super) type NodeCheck = dyn FnMut(&Target<'_>, &str, &Map<String, Value>) -> Vec<String>;

/// For each target and each of its schema nodes: the findings of `f`.
pub(super) fn each_node(
    req: &Request<'_>,
    targets: &[Target<'_>],
    f: &mut NodeCheck,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for t in targets {
        for (path, node) in nodes(req, t.schema).iter() {
            for message in f(t, path, node) {
                out.push(t.finding(path, message));
            }
        }
    }
    out
}

// ---- paths as OpenAI prints them --------------------------------------

/// One step of a JSON Pointer: a name, or an index into a schema array.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Step {
    Key(String),
    Index(usize),
}

/// The steps of a schema-walk pointer; tokens after `anyOf`/`oneOf`/
/// `allOf`/`prefixItems` (and array-form `items`) are indices, tokens after
/// name maps are names even when they look like numbers.
pub(super) fn steps(path: &str) -> Vec<Step> {
    let mut raw = match path.strip_prefix('/') {
        Some(rest) => rest.split('/'),
        None => return Vec::new(),
    }
    .map(crate::schema::unescape_token)
    .peekable();
    let mut out = Vec::new();
    while let Some(kw) = raw.next() {
        let indexed = SCHEMA_ARRAYS.contains(&kw.as_str()) || kw == "items";
        let named = NAME_MAPS.contains(&kw.as_str()) || kw == "dependencies";
        out.push(Step::Key(kw));
        let Some(next) = raw.peek() else { break };
        if indexed && let Ok(n) = next.parse::<usize>() {
            out.push(Step::Index(n));
            raw.next();
        } else if named && let Some(name) = raw.next() {
            out.push(Step::Key(name));
        }
    }
    out
}

/// The `In context=(…)` tuple: `()`, `('properties',)`, `('properties', 'x')`.
pub(super) fn context(path: &str) -> String {
    let steps = steps(path);
    let mut out = String::with_capacity(path.len() + 4 * steps.len() + 3);
    out.push('(');
    for (i, s) in steps.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match s {
            Step::Key(k) => out.push_str(&py_str(k)),
            Step::Index(n) => {
                let _ = write!(out, "{n}");
            }
        }
    }
    if steps.len() == 1 {
        out.push(',');
    }
    out.push(')');
    out
}

/// The JSONPath the newer validator prints: `$.properties.email`.
pub(super) fn json_path(path: &str) -> String {
    let mut out = "$".to_owned();
    for s in steps(path) {
        match s {
            Step::Key(k) => {
                out.push('.');
                out.push_str(&k);
            }
            Step::Index(n) => {
                let _ = write!(out, "[{n}]");
            }
        }
    }
    out
}
