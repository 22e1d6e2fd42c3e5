//! The BFCL dialect (module docs, "BFCL dialect"): its marker types and the
//! translation of its type names and `optional` keyword to JSON Schema.

use serde_json::Value;

use super::types::LoadNote;
use crate::schema::{self, TooDeep};

/// The JSON Schema type names.
const JSON_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// BFCL types whose presence makes a catalog BFCL (module docs, step 6).
const BFCL_MARKERS: &[&str] = &["dict", "float", "tuple", "any"];

/// BFCL (Python/Java/JavaScript) type names and their JSON Schema type.
const BFCL_TYPES: &[(&str, &str)] = &[
    ("dict", "object"),
    ("HashMap", "object"),
    ("Hashtable", "object"),
    ("float", "number"),
    ("double", "number"),
    ("tuple", "array"),
    ("list", "array"),
    ("Array", "array"),
    ("ArrayList", "array"),
    ("Queue", "array"),
    ("Stack", "array"),
    ("long", "integer"),
    ("short", "integer"),
    ("byte", "integer"),
    ("int", "integer"),
    ("char", "string"),
    ("str", "string"),
    ("bool", "boolean"),
];

enum TypeFix {
    Keep,
    To(&'static str),
    /// `any`: no type constraint at all.
    Any,
    Unknown,
}

fn bfcl_type(t: &str) -> TypeFix {
    if JSON_TYPES.contains(&t) {
        TypeFix::Keep
    } else if t == "any" {
        TypeFix::Any
    } else if let Some((_, to)) = BFCL_TYPES.iter().find(|(from, _)| *from == t) {
        TypeFix::To(to)
    } else if let Some(to) = JSON_TYPES.iter().find(|j| j.eq_ignore_ascii_case(t)) {
        TypeFix::To(to)
    } else {
        TypeFix::Unknown
    }
}

pub(super) fn uses_bfcl_types(schema: &Value) -> Result<bool, TooDeep> {
    let mut found = false;
    schema::visit(schema, &mut |_, node| {
        found |= match node.get("type") {
            Some(Value::String(t)) => BFCL_MARKERS.contains(&t.as_str()),
            Some(Value::Array(ts)) => ts
                .iter()
                .any(|t| t.as_str().is_some_and(|t| BFCL_MARKERS.contains(&t))),
            _ => false,
        };
    })?;
    Ok(found)
}

/// Translate the BFCL dialect in one schema (module docs), noting each change.
pub(super) fn translate_bfcl(
    schema: &mut Value,
    tool: &str,
    notes: &mut Vec<LoadNote>,
) -> Result<(), TooDeep> {
    schema::rewrite_pre_order(schema, &mut |path, node| {
        let mut note = |message: String| {
            notes.push(LoadNote {
                tool: tool.to_owned(),
                path: path.as_str().to_owned(),
                message,
            });
        };
        let mut remove_type = false;
        match node.get_mut("type") {
            Some(Value::String(t)) => match bfcl_type(t) {
                TypeFix::Keep => {}
                TypeFix::To(to) => {
                    note(format!("bfcl: type \"{t}\" translated to \"{to}\""));
                    to.clone_into(t);
                }
                TypeFix::Any => {
                    note("bfcl: type \"any\" removed (any value)".to_owned());
                    remove_type = true;
                }
                TypeFix::Unknown => {
                    note(format!("bfcl: unknown type \"{t}\" removed"));
                    remove_type = true;
                }
            },
            Some(Value::Array(ts)) => {
                let mut kept = Vec::with_capacity(ts.len());
                for t in ts.drain(..) {
                    let Value::String(s) = &t else {
                        kept.push(t);
                        continue;
                    };
                    match bfcl_type(s) {
                        TypeFix::Keep => kept.push(t),
                        TypeFix::To(to) => {
                            note(format!("bfcl: type \"{s}\" translated to \"{to}\""));
                            kept.push(Value::String(to.to_owned()));
                        }
                        TypeFix::Any => {
                            note("bfcl: type \"any\" removed (any value)".to_owned());
                            remove_type = true;
                        }
                        TypeFix::Unknown => note(format!("bfcl: unknown type \"{s}\" removed")),
                    }
                }
                remove_type |= kept.is_empty();
                *ts = kept;
            }
            _ => {}
        }
        if remove_type {
            node.shift_remove("type");
        }
        if node.shift_remove("optional").is_some() {
            note("bfcl: non-standard keyword \"optional\" removed".to_owned());
        }
        true
    })
}
