//! Paths: JSON Pointers inside a schema, rendered the ways Gemini prints
//! them (proto payload positions, validation field paths, Vertex's dotted
//! `parameters.a.b`), and the proto positions a path may reach.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::memo::position_of;
use crate::lookup::Lookup;
use crate::rules::model::{Finding, Request};
use crate::rules::model::{NodeList, WalkKind};
use crate::rules::{finding, walked};
use crate::schema::{ChildKey, NAME_MAPS, child_path, nodes_within_limit_through as nodes_through};

// ---------------------------------------------------------------------------
// Paths: JSON Pointers inside a schema, rendered the ways Gemini prints them.

/// How a path is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    /// Proto parsing: `.properties[3].value.any_of[0]` (map entries by position).
    Payload,
    /// Validation: `.properties[x].items` (map entries by key).
    Field,
    /// Vertex: `.x.items` after `parameters`.
    Dotted,
}

/// The reference tokens of a JSON Pointer (`""` is the root).
fn tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer[1..]
        .split('/')
        .map(crate::schema::unescape_token)
        .collect()
}

/// A keyword as the proto names its field (`anyOf` → `any_of`).
fn snake(keyword: &str) -> String {
    let mut out = String::new();
    for c in keyword.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Where a pointer lands, printed in `style`, relative to `parameters`.
pub(super) fn render(schema: &Value, pointer: &str, style: Style) -> String {
    let t = tokens(pointer);
    let mut out = String::new();
    let mut cur = Some(schema);
    let mut i = 0;
    while i < t.len() {
        let key = t[i].as_str();
        let container = cur.and_then(|c| c.get(key));
        let next = t.get(i + 1);
        let name_map = container
            .and_then(Value::as_object)
            .filter(|_| NAME_MAPS.contains(&key));
        if let (Some(map), Some(name)) = (name_map, next) {
            match style {
                Style::Payload => {
                    let idx = position_of(map, name);
                    let _ = write!(out, ".{}[{idx}].value", snake(key));
                }
                Style::Field => {
                    let _ = write!(out, ".{}[{name}]", snake(key));
                }
                Style::Dotted if key == "properties" => {
                    let _ = write!(out, ".{name}");
                }
                Style::Dotted => {
                    let _ = write!(out, ".{}.{name}", snake(key));
                }
            }
            cur = map.get(name);
            i += 2;
        } else if let (Some(arr), Some(idx)) = (
            container.and_then(Value::as_array),
            next.and_then(|n| n.parse::<usize>().ok()),
        ) {
            let _ = write!(out, ".{}[{idx}]", snake(key));
            cur = arr.get(idx);
            i += 2;
        } else {
            let _ = write!(out, ".{}", snake(key));
            cur = container;
            i += 1;
        }
    }
    out
}

/// The pointer reaches a node through proto fields only: `properties`
/// values, object `items`, `anyOf` branches. The definition [`proto_nodes`]
/// walks by (its unit test checks the two agree).
#[cfg(test)]
pub(super) fn is_proto_pointer(pointer: &str) -> bool {
    // Raw tokens: an escaped token (one with `~`) never decodes to a keyword
    // or an index, so the keywords and indices compare as they are.
    if pointer.is_empty() {
        return true;
    }
    let t: Vec<&str> = pointer[1..].split('/').collect();
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            "properties" if i + 1 < t.len() => i += 2,
            "items" => i += 1,
            "anyOf" if t.get(i + 1).is_some_and(|n| n.parse::<usize>().is_ok()) => i += 2,
            _ => return false,
        }
    }
    true
}

/// The proto JSON parser's rejection of field `k` of the node at `ptr`.
pub(super) fn unknown_name(req: &Request<'_>, i: usize, s: &Value, ptr: &str, k: &str) -> Finding {
    finding(
        i,
        &child_path(ptr, k),
        format!(
            "Invalid JSON payload received. Unknown name \"{k}\" at '{}': Cannot find field.",
            payload_location(req, i, s, ptr)
        ),
    )
}

/// Every schema node the `Schema` proto parses, with its pointer: the
/// nodes whose pointer [`is_proto_pointer`], reached by proto steps alone
/// (a `properties` value, object `items`, an `anyOf` branch), so the
/// subtrees under any other keyword are never walked.
/// A tool schema of `req` is walked once per check, whichever rules ask.
pub(super) fn proto_nodes<'a: 's, 's>(req: &Request<'a>, schema: &'s Value) -> NodeList<'s> {
    walked(req, schema, WalkKind::Proto, |s| {
        nodes_through(s, &is_proto_step)
    })
}

/// One step of a proto pointer ([`is_proto_pointer`]): `properties/<name>`,
/// `items` (one schema) or `anyOf/<index>`.
fn is_proto_step(child: &ChildKey) -> bool {
    matches!(
        child,
        ChildKey::Named("properties", _)
            | ChildKey::Single("items")
            | ChildKey::Indexed("anyOf", _)
    )
}

/// The node's `type`, lowercased (the proto takes `OBJECT` and `object`).
pub(super) fn type_name(node: &Map<String, Value>) -> Option<String> {
    node.field("type")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
}

/// `* GenerateContentRequest.tools[0].function_declarations[i].parameters…`
pub(super) fn field_location(req: &Request<'_>, i: usize, schema: &Value, pointer: &str) -> String {
    format!(
        "* GenerateContentRequest.{}{}",
        req.schema_location(i),
        render(schema, pointer, Style::Field)
    )
}

/// `tools[0].function_declarations[i].parameters…` as the proto parser prints it.
pub(super) fn payload_location(
    req: &Request<'_>,
    i: usize,
    schema: &Value,
    pointer: &str,
) -> String {
    format!(
        "{}{}",
        req.schema_location(i),
        render(schema, pointer, Style::Payload)
    )
}

/// `parameters.a.b` as Vertex prints it.
pub(super) fn dotted(schema: &Value, pointer: &str) -> String {
    format!("parameters{}", render(schema, pointer, Style::Dotted))
}
