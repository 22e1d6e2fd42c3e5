//! `refs-into-defs`: on `moonshot` (rule `moonshot-ref-outside-defs`,
//! recorded: `<At path '….startDateTime.$ref': references must start with
//! #/$defs/>`), every local `$ref` points into the root's `$defs`, where
//! Moonshot resolves references (its validator rules allow `#/$defs/…` and
//! `#`). Exact: each reference reaches the same schema as before.
//! 1. The root's draft-07 `definitions` becomes `$defs`: renamed in place
//!    when the root has no `$defs`, else merged into it (an entry whose name
//!    is taken by a different schema gets the first free `name_2`, `name_3`,
//!    …), and `#/definitions/X…` becomes `#/$defs/X…`.
//! 2. Any other local reference (`#/properties/a`, a definitions container
//!    of another name) gets a copy of its target in `$defs`, named after the
//!    pointer's last token (characters outside letters, digits, `_` and `-`
//!    replaced by `_`, made unique the same way), and points there. The
//!    pointer may be percent-encoded, as URI fragments are. A target the
//!    pointer does not reach is left as it is.
//!
//! A root `$defs` that is no map (it names no schema) is replaced by one,
//! recorded. Non-local references (another document, `#anchor`) are left
//! alone: no
//! rewrite can keep what they point at, so Moonshot still rejects them.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::pointer::escape_token;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// See the module docs. The flags are the pass's mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RefsIntoDefs {
    /// Move the root's `definitions` into `$defs`.
    pub(crate) rename_definitions: bool,
    /// Copy the targets of other local references into `$defs`.
    pub(crate) copy_other_targets: bool,
}

impl Default for RefsIntoDefs {
    fn default() -> Self {
        Self {
            rename_definitions: true,
            copy_other_targets: true,
        }
    }
}

/// A reference Moonshot resolves: `#`, or one into `$defs`.
fn into_defs(reference: &str) -> bool {
    reference == "#" || reference.starts_with("#/$defs/")
}

/// A local reference Moonshot does not resolve: `#/…` outside `$defs`.
fn needs_moving(reference: &str) -> bool {
    reference.starts_with("#/") && !into_defs(reference)
}

/// A name for `$defs` from a pointer's last token: letters, digits, `_`
/// and `-` kept, anything else `_`; free among the names of `defs`.
fn free_name(token: &str, defs: &Map<String, Value>) -> String {
    let base: String = token
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let base = if base.is_empty() {
        "ref".to_owned()
    } else {
        base
    };
    if !defs.contains_key(&base) {
        return base;
    }
    // Of `defs.len() + 1` candidates one is free.
    (2..=defs.len() + 2)
        .map(|n| format!("{base}_{n}"))
        .find(|n| !defs.contains_key(n))
        .unwrap_or(base)
}

impl RefsIntoDefs {
    /// Step 1: the root's `definitions` into `$defs`; the prefix map of the
    /// references it moves (`#/definitions/X` → `#/$defs/Y`).
    fn rename_definitions(root: &mut Map<String, Value>, cx: &mut Cx<'_>) -> Vec<(String, String)> {
        if !matches!(root.field("definitions"), Some(Value::Object(_))) {
            return Vec::new();
        }
        let at = root.keys().position(|k| k == "definitions").unwrap_or(0);
        let Some(Value::Object(definitions)) = root.shift_remove("definitions") else {
            return Vec::new();
        };
        let mut moved = Vec::new();
        if let Some(Value::Object(defs)) = root.field_mut("$defs") {
            for (name, schema) in definitions {
                let to = match defs.get(&name) {
                    Some(same) if *same == schema => name.clone(),
                    _ => {
                        let to = free_name(&name, defs);
                        defs.insert(to.clone(), schema);
                        to
                    }
                };
                moved.push((
                    format!("#/definitions/{}", escape_token(&name)),
                    format!("#/$defs/{}", escape_token(&to)),
                ));
            }
        } else {
            // `apply` made any `$defs` a map first: here there is none.
            root.shift_insert(at, "$defs".into(), Value::Object(definitions));
            moved.push(("#/definitions".to_owned(), "#/$defs".to_owned()));
        }
        cx.record(
            "",
            "definitions",
            Action::Rewritten,
            "moved into $defs, where Moonshot resolves references (exact)",
        );
        moved
    }
}

/// Keywords whose value is data, not schemas: a `$ref` key inside is no
/// reference (unless the keyword is a name in a name map: `properties.enum`).
const LITERALS: &[&str] = &["enum", "const", "default", "examples", "example"];

/// Where a value stands, for [`each_ref`].
#[derive(Clone)]
enum At {
    /// A schema position.
    Schema,
    /// A name map (`properties`, `$defs`, …): its values are schemas.
    NameMap,
    /// An array of schemas (`anyOf`, tuple `items`, …).
    Schemas,
    /// Under the keyword `.1` of the schema at `.0` that holds no schema (an
    /// unknown keyword): a change here is recorded as that keyword's. Shared
    /// by everything under that keyword.
    Inside(Rc<(String, String)>),
}

/// Call `f` with where to record a change (a schema's pointer and the
/// keyword: `$ref`, or the unknown keyword it stands under) and the value of
/// every `$ref` string in `root` outside literals. Under unknown keywords
/// too: a pointer may reach a schema kept there (JSONSchemaStore's
/// `definitions/builtinSteps/documentation/run`), so a reference inside it
/// must move with the others. Without `paths` the pointers are not built
/// and `f` gets `""` for each (a walk that only reads the references). The
/// walk stops where `f` says `false`.
fn each_ref(root: &mut Value, paths: bool, f: &mut dyn FnMut(&str, &str, &mut String) -> bool) {
    let mut stack: Vec<(String, &mut Value, At)> = vec![(String::new(), root, At::Schema)];
    while let Some((path, v, at)) = stack.pop() {
        // Children go on the stack in order, then are turned around: the
        // first is visited first.
        let first = stack.len();
        let child = |token: &str| {
            if paths {
                format!("{path}/{}", escape_token(token))
            } else {
                String::new()
            }
        };
        match v {
            Value::Object(o) => {
                for (k, c) in o.iter_mut() {
                    let next = match &at {
                        At::NameMap | At::Schemas => At::Schema,
                        At::Inside(inside) => {
                            if k == "$ref"
                                && let Value::String(r) = c
                                && !f(&inside.0, &inside.1, r)
                            {
                                return;
                            }
                            At::Inside(Rc::clone(inside))
                        }
                        At::Schema => {
                            let key = k.as_str();
                            if key == "$ref" {
                                if let Value::String(r) = c
                                    && !f(&path, "$ref", r)
                                {
                                    return;
                                }
                                continue;
                            }
                            if LITERALS.contains(&key) {
                                continue;
                            }
                            if schema::NAME_MAPS.contains(&key) || key == "dependencies" {
                                At::NameMap
                            } else if schema::SINGLE_SCHEMA.contains(&key)
                                || (key == "items" && c.is_object())
                            {
                                At::Schema
                            } else if schema::SCHEMA_ARRAYS.contains(&key) || key == "items" {
                                At::Schemas
                            } else {
                                At::Inside(Rc::new((path.clone(), k.clone())))
                            }
                        }
                    };
                    // Scalars hold no `$ref`: only containers are walked.
                    if matches!(c, Value::Object(_) | Value::Array(_)) {
                        stack.push((child(k), c, next));
                    }
                }
            }
            Value::Array(a) => {
                for (i, c) in a.iter_mut().enumerate() {
                    let next = match &at {
                        At::Schemas => At::Schema,
                        At::Inside(inside) => At::Inside(Rc::clone(inside)),
                        At::Schema | At::NameMap => continue,
                    };
                    if matches!(c, Value::Object(_) | Value::Array(_)) {
                        stack.push((child(&i.to_string()), c, next));
                    }
                }
            }
            _ => {}
        }
        stack[first..].reverse();
    }
}

/// Whether any object anywhere in `v` has a `$ref` string that does not
/// point into `$defs`: one read-only walk, no pointers, no copies. When it
/// finds none, neither does [`each_ref`], which reads a subset of them.
fn any_ref_outside_defs(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                for (k, c) in o {
                    match c {
                        Value::String(r) if k == "$ref" && !into_defs(r) => return true,
                        Value::Object(_) | Value::Array(_) => stack.push(c),
                        _ => {}
                    }
                }
            }
            Value::Array(a) => stack.extend(a.iter().filter(|c| c.is_object() || c.is_array())),
            _ => {}
        }
    }
    false
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok());
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(b) => {
                    out.push(b);
                    i += 3;
                    continue;
                }
                None => return text.to_owned(),
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// `reference` with the first matching prefix of `moved` replaced (a prefix
/// ends at a token boundary).
fn renamed(reference: &str, moved: &[(String, String)]) -> Option<String> {
    moved.iter().find_map(|(from, to)| {
        let rest = reference.strip_prefix(from.as_str())?;
        (rest.is_empty() || rest.starts_with('/')).then(|| format!("{to}{rest}"))
    })
}

impl Pass for RefsIntoDefs {
    fn name(&self) -> &'static str {
        "refs-into-defs"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("moonshot-ref-outside-defs")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !tool.input_schema.is_object() {
            return Ok(Step::Continue);
        }
        if !any_ref_outside_defs(&tool.input_schema) {
            return Ok(Step::Continue);
        }
        let mut needed = false;
        each_ref(&mut tool.input_schema, false, &mut |_, _, r| {
            needed = !into_defs(r);
            !needed
        });
        if !needed {
            return Ok(Step::Continue);
        }
        // A `$defs` that is no map of schemas names none: it gives way to
        // the one the references need (recorded).
        if let Some(root) = tool.input_schema.as_object_mut()
            && root.field("$defs").is_some_and(|d| !d.is_object())
        {
            root.insert("$defs".into(), Value::Object(Map::new()));
            cx.record(
                "",
                "$defs",
                Action::Rewritten,
                "not a map of schemas (it named none): replaced by the map the references point into",
            );
        }
        let mut moved = Vec::new();
        if self.rename_definitions
            && let Some(root) = tool.input_schema.as_object_mut()
        {
            moved = RefsIntoDefs::rename_definitions(root, cx);
        }
        // Step 2: the references left outside `$defs`, each target copied.
        let mut copies: BTreeMap<String, String> = BTreeMap::new();
        if self.copy_other_targets {
            let mut left: Vec<String> = Vec::new();
            each_ref(&mut tool.input_schema, false, &mut |_, _, r| {
                let r = renamed(r, &moved).unwrap_or_else(|| r.clone());
                if needs_moving(&r) && !left.contains(&r) {
                    left.push(r);
                }
                true
            });
            for r in left {
                // A URI fragment may percent-encode the pointer's characters.
                let pointer = percent_decoded(&r[1..]);
                let Some(target) = tool.input_schema.pointer(&pointer).cloned() else {
                    continue;
                };
                let token = pointer.rsplit('/').next().unwrap_or_default();
                let Some(root) = tool.input_schema.as_object_mut() else {
                    break;
                };
                let defs = root
                    .entry("$defs")
                    .or_insert_with(|| Value::Object(Map::new()));
                let Value::Object(defs) = defs else {
                    break;
                };
                let name = free_name(&schema::unescape_token(token), defs);
                defs.insert(name.clone(), target);
                cx.record(
                    &format!("/$defs/{}", escape_token(&name)),
                    "$defs",
                    Action::Added,
                    format!("a copy of {r}: Moonshot resolves references only into $defs (exact)"),
                );
                copies.insert(r, format!("#/$defs/{}", escape_token(&name)));
            }
        }
        // Step 3: every reference that moved points to where its target is.
        each_ref(&mut tool.input_schema, true, &mut |path, keyword, r| {
            let renamed = renamed(r, &moved);
            let to = renamed
                .as_ref()
                .and_then(|n| copies.get(n))
                .or_else(|| copies.get(r.as_str()))
                .cloned()
                .or(renamed);
            if let Some(to) = to {
                *r = to;
                let reason = if keyword == "$ref" {
                    "points to the same schema, in $defs (exact)"
                } else {
                    "a $ref under this keyword points to the same schema, in $defs (exact)"
                };
                cx.record(path, keyword, Action::Rewritten, reason);
            }
            true
        });
        // What is left (another document, an anchor, a pointer the schema
        // does not have) no rewrite reaches: the tool fails closed, so the
        // failure stays visible (judged where the rule judges: at schemas).
        let mut left = None;
        let _ = schema::visit_nodes::<()>(&tool.input_schema, &mut |_, node| match node
            .field("$ref")
            .and_then(Value::as_str)
        {
            Some(r) if !into_defs(r) => {
                left = Some(r.to_owned());
                std::ops::ControlFlow::Break(())
            }
            _ => std::ops::ControlFlow::Continue(()),
        })?;
        if let Some(r) = left {
            return Ok(Step::FailClosed(format!(
                "$ref {r:?} cannot point into $defs: Moonshot resolves only #/$defs/… and #, and no rewrite reaches its target"
            )));
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "leave the root's definitions where they are", |m| {
                &mut m.rename_definitions
            }),
            PassMutant::flip(self, "leave other local references outside $defs", |m| {
                &mut m.copy_other_targets
            }),
        ]
    }
}

#[cfg(test)]
#[path = "defs_tests.rs"]
mod tests;
