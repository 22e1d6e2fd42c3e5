//! Helpers shared by the two root-composition passes (the old Responses
//! flatten and the narrowed Anthropic pass): non-object root replacement and
//! the branch-property merge.

use serde_json::{Map, Value};

use super::Cx;
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::schema;

/// Which side wins when two sources declare the same property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MergeOrder {
    /// The first declaration stays (root first, then branches in order).
    FirstWins,
    /// A later declaration replaces an earlier one (a mutation, not a profile).
    LastWins,
}

/// Replace a root that is not a JSON object (array, scalar, boolean) by `{}`.
/// Returns whether it did.
pub(crate) fn replace_non_object_root(root: &mut Value, cx: &mut Cx<'_>) -> bool {
    if root.is_object() {
        return false;
    }
    let kind = match root {
        Value::Array(_) => "an array",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Null => "null",
        Value::Object(_) => unreachable!(),
    };
    cx.record(
        "",
        "",
        Action::Rewritten,
        format!("input schema root is {kind}, not a JSON object: replaced by {{}}"),
    );
    *root = Value::Object(Map::new());
    true
}

/// Remove `keywords` from the root in that order and merge their object
/// branches' `properties` into the root's `properties` (root first, then
/// branches in keyword and branch order, per `order`), and keep the
/// `required` entries of `allOf` branches at the root. Returns the removed
/// `(keyword, branches)` pairs in `keywords` order (the merged branches'
/// `properties` emptied: they moved to the root).
pub(crate) fn strip_and_merge(
    root: &mut Map<String, Value>,
    keywords: &[&str],
    order: MergeOrder,
    cx: &mut Cx<'_>,
) -> Vec<(String, Vec<Value>)> {
    let removed = strip_and_merge_properties(root, keywords, keywords, order, cx);
    keep_all_of_required(root, &removed, cx);
    removed
}

/// An `allOf` branch's `required` binds the whole input: its entries that
/// name a root property after the merge join the root's `required` (in
/// branch order, each once), recorded.
fn keep_all_of_required(
    root: &mut Map<String, Value>,
    removed: &[(String, Vec<Value>)],
    cx: &mut Cx<'_>,
) {
    let Some((_, branches)) = removed.iter().find(|(kw, _)| kw == "allOf") else {
        return;
    };
    keep_branch_required(
        root,
        branches,
        "required entries of the root allOf branches kept at the root",
        cx,
    );
}

/// The `required` entries of `branches` that name a root property join the
/// root's `required` (in branch order, each once), recorded as `why: a, b`.
/// A root `required` that is not an array is left alone.
pub(crate) fn keep_branch_required(
    root: &mut Map<String, Value>,
    branches: &[Value],
    why: &str,
    cx: &mut Cx<'_>,
) {
    let props = root.field("properties").and_then(Value::as_object);
    let mut required: Vec<Value> = match root.field("required") {
        Some(Value::Array(r)) => r.clone(),
        _ => Vec::new(),
    };
    let mut added = Vec::new();
    for name in branches
        .iter()
        .filter_map(|b| b.field("required")?.as_array())
        .flatten()
        .filter_map(Value::as_str)
    {
        let declared = props.is_some_and(|p| p.contains_key(name));
        if declared && !required.iter().any(|r| r.as_str() == Some(name)) {
            required.push(Value::String(name.to_owned()));
            added.push(name.to_owned());
        }
    }
    if added.is_empty() || !matches!(root.field("required"), None | Some(Value::Array(_))) {
        return;
    }
    let action = if root.has("required") {
        Action::Rewritten
    } else {
        Action::Added
    };
    root.insert("required".into(), Value::Array(required));
    cx.record(
        "",
        "required",
        action,
        format!("{why}: {}", added.join(", ")),
    );
}

/// Remove `keywords` from the root and merge the `properties` of the
/// branches of those listed in `merged` (the others are stripped alone);
/// `required` entries are left alone (v0's Responses flatten).
pub(crate) fn strip_and_merge_properties(
    root: &mut Map<String, Value>,
    keywords: &[&str],
    merged: &[&str],
    order: MergeOrder,
    cx: &mut Cx<'_>,
) -> Vec<(String, Vec<Value>)> {
    let mut removed = Vec::new();
    for kw in keywords {
        if let Some(v) = root.shift_remove(*kw) {
            let branches = match v {
                Value::Array(a) => a,
                _ => Vec::new(),
            };
            cx.record(
                "",
                kw,
                Action::Removed,
                format!("root {kw} stripped ({} branches)", branches.len()),
            );
            removed.push(((*kw).to_owned(), branches));
        }
    }
    // Moved out of the branches, not copied: what is returned keeps the
    // branches' other keywords (their `required`), not their properties.
    let mut incoming: Vec<(String, String, Value)> = Vec::new();
    for (kw, branches) in removed
        .iter_mut()
        .filter(|(kw, _)| merged.contains(&kw.as_str()))
    {
        for (i, b) in branches.iter_mut().enumerate() {
            if let Some(Value::Object(props)) = b.field_mut("properties") {
                for (name, s) in std::mem::take(props) {
                    incoming.push((format!("/{kw}/{i}"), name, s));
                }
            }
        }
    }
    if incoming.is_empty() {
        return removed;
    }
    let props = if let Some(Value::Object(p)) = root.field_mut("properties") {
        p
    } else {
        root.insert("properties".into(), Value::Object(Map::new()));
        match root.field_mut("properties") {
            Some(Value::Object(p)) => p,
            _ => unreachable!(),
        }
    };
    for (from, name, s) in incoming {
        let at = format!("{from}/properties/{}", schema::escape_token(&name));
        match (props.has(&name), order) {
            (false, _) => {
                props.insert(name, s);
                cx.record(
                    &at,
                    "properties",
                    Action::Rewritten,
                    "branch property merged into the root",
                );
            }
            (true, MergeOrder::FirstWins) => {
                if props.field(&name) != Some(&s) {
                    cx.record(
                        &at,
                        "properties",
                        Action::Removed,
                        format!("branch property `{name}` lost to an earlier declaration of the same name"),
                    );
                }
            }
            (true, MergeOrder::LastWins) => {
                props.insert(name, s);
            }
        }
    }
    removed
}

/// Drop root `required` entries that name no root property (after a merge).
pub(crate) fn prune_dangling_required(root: &mut Map<String, Value>, cx: &mut Cx<'_>) {
    let Some(Value::Array(required)) = root.field("required") else {
        return;
    };
    let props = root.field("properties").and_then(Value::as_object);
    let keep: Vec<Value> = required
        .iter()
        .filter(|r| {
            r.as_str()
                .is_some_and(|n| props.is_some_and(|p| p.contains_key(n)))
        })
        .cloned()
        .collect();
    if keep.len() == required.len() {
        return;
    }
    for r in required.iter().filter(|r| !keep.contains(r)) {
        cx.record(
            "",
            "required",
            Action::Removed,
            format!(
                "required entry {} dangles after the merge",
                schema::to_bytes(r)
            ),
        );
    }
    if keep.is_empty() {
        root.shift_remove("required");
    } else {
        root.insert("required".into(), Value::Array(keep));
    }
}

/// Whether the root ends up with at least one property.
pub(crate) fn has_properties(root: &Map<String, Value>) -> bool {
    root.field("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty())
}
