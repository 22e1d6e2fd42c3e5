//! The DeepSeek strict subset as data (formats, widening and unrepresentable
//! keywords), the search over the shipped shape, and closing one object.

use serde_json::{Map, Value, json};

use crate::passes::Cx;
use crate::schema::{self, ChildKey, MAX_DEPTH, TooDeep};

/// DeepSeek's documented `format` values.
pub(crate) const FORMATS: &[&str] = crate::facts::deepseek::STRICT_FORMATS.items;

/// Keywords stripped because removing them only widens what is accepted.
pub(crate) const WIDENING: &[&str] = &[
    "patternProperties",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "dependentRequired",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
];

/// Keywords the strict subset cannot express: a shape needing one fails closed.
pub(crate) const UNREPRESENTABLE: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "contains",
    "prefixItems",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "oneOf",
    "allOf",
    "dependentSchemas",
];

/// Pre-order walk over the schema positions that will ship: the values of
/// optional properties are skipped (the removal pass deletes them). Stops at
/// the first `Some(reason)` the callback returns.
pub(super) type Judge<'a> = dyn FnMut(&str, &Map<String, Value>) -> Option<String> + 'a;

pub(super) fn find_in_shipped(root: &Value, f: &mut Judge<'_>) -> Result<Option<String>, TooDeep> {
    fn go(
        v: &Value,
        path: &mut String,
        depth: usize,
        f: &mut Judge<'_>,
    ) -> Result<Option<String>, TooDeep> {
        let Some(map) = v.as_object() else {
            return Ok(None);
        };
        if depth > MAX_DEPTH {
            return Err(TooDeep {
                path: schema::display_path(path),
                limit: MAX_DEPTH,
            });
        }
        if let Some(r) = f(path, map) {
            return Ok(Some(r));
        }
        let required = schema::required_names(map);
        for child in schema::children(map) {
            if let ChildKey::Named("properties", name) = &child
                && !required.contains(name)
            {
                continue;
            }
            let len = path.len();
            path.push_str(&child.suffix());
            if let Some(sub) = child.get(map)
                && let Some(r) = go(sub, path, depth + 1, f)?
            {
                return Ok(Some(r));
            }
            path.truncate(len);
        }
        Ok(None)
    }
    go(root, &mut String::new(), 0, f)
}

/// Which halves of [`close_object`] run (both, outside mutants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Close {
    pub(crate) require_all: bool,
    pub(crate) forbid_additional: bool,
}

impl Default for Close {
    fn default() -> Self {
        Self {
            require_all: true,
            forbid_additional: true,
        }
    }
}

/// Require every property and forbid additional ones on one object node.
/// Existing `required` entries keep their order; missing property names
/// follow in property order (no needless byte change).
pub(super) fn close_object(
    path: &str,
    node: &mut Map<String, Value>,
    close: Close,
    cx: &mut Cx<'_>,
) {
    let names: Vec<String> = node
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let mut required: Vec<String> = schema::required_names(node)
        .into_iter()
        .filter(|r| names.contains(r))
        .collect();
    required.dedup();
    for n in &names {
        if !required.contains(n) {
            required.push(n.clone());
        }
    }
    if close.require_all {
        cx.set_keyword(
            path,
            node,
            ("properties", "required"),
            json!(required),
            "strict mode requires every property",
        );
    }
    if close.forbid_additional {
        cx.set_keyword(
            path,
            node,
            ("required", "additionalProperties"),
            json!(false),
            "strict mode closes every object",
        );
    }
}

pub(super) fn at(path: &str) -> String {
    schema::display_path(path)
}
