//! Walking JSON Schema *positions*: the one traversal every pass uses.
//!
//! Only schema positions are walked. `properties`, `$defs`, `definitions`,
//! `$def`, `patternProperties` and `dependentSchemas` are **name maps** (their
//! values are schemas, the map itself is not); `enum`, `const`, `default` and
//! `examples` are **literals** (never walked). A property named `const`,
//! `properties` or `contains` is therefore a name, never a keyword.
//!
//! Depth is bounded by [`MAX_DEPTH`]: deeper input gives [`TooDeep`] instead
//! of overflowing the stack.

use serde_json::{Map, Value};

/// The deepest schema nesting any walk accepts (counted in schema positions).
pub const MAX_DEPTH: usize = 128;

/// Keywords whose value is a map from names to schemas.
pub(crate) const NAME_MAPS: &[&str] = &[
    "properties",
    "$defs",
    "definitions",
    "$def",
    "patternProperties",
    "dependentSchemas",
];

/// Keywords whose value is one schema.
pub(crate) const SINGLE_SCHEMA: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];

/// Keywords whose subschema is a condition or a negation: what it says
/// decides *whether* other keywords apply, so a rewrite that tightens it
/// (closing an object, requiring every property) changes the condition.
pub(crate) const CONDITIONALS: &[&str] = &["if", "then", "else", "not"];

/// Keywords whose value is an array of schemas.
pub(crate) const SCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// The schema nests deeper than [`MAX_DEPTH`]; `path` is where the walk stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("schema nests deeper than {limit} levels at {path}")]
pub struct TooDeep {
    pub path: String,
    pub limit: usize,
}

/// Escape one JSON Pointer reference token (RFC 6901).
pub(crate) fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// `parent` + `/token`, escaped.
pub(crate) fn child_path(parent: &str, token: &str) -> String {
    format!("{parent}/{}", escape_token(token))
}

/// One child schema position of a node: the keyword it hangs under, an
/// optional name or index inside that keyword, and its pointer suffix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ChildKey {
    /// `node[keyword]` is a schema (`not`, `items` object form, ...).
    Single(&'static str),
    /// `node[keyword][name]` is a schema (`properties/foo`).
    Named(&'static str, String),
    /// `node[keyword][index]` is a schema (`anyOf/0`, tuple `items/1`).
    Indexed(&'static str, usize),
}

impl ChildKey {
    /// The pointer suffix this child adds to its parent's path.
    pub(crate) fn suffix(&self) -> String {
        match self {
            Self::Single(k) => format!("/{}", escape_token(k)),
            Self::Named(k, n) => format!("/{}/{}", escape_token(k), escape_token(n)),
            Self::Indexed(k, i) => format!("/{}/{i}", escape_token(k)),
        }
    }

    /// Borrow the child out of its parent object.
    pub(crate) fn get<'a>(&self, node: &'a Map<String, Value>) -> Option<&'a Value> {
        match self {
            Self::Single(k) => node.get(*k),
            Self::Named(k, n) => node.get(*k)?.as_object()?.get(n),
            Self::Indexed(k, i) => node.get(*k)?.as_array()?.get(*i),
        }
    }

    /// Mutably borrow the child out of its parent object.
    pub(crate) fn get_mut<'a>(&self, node: &'a mut Map<String, Value>) -> Option<&'a mut Value> {
        match self {
            Self::Single(k) => node.get_mut(*k),
            Self::Named(k, n) => node.get_mut(*k)?.as_object_mut()?.get_mut(n),
            Self::Indexed(k, i) => node.get_mut(*k)?.as_array_mut()?.get_mut(*i),
        }
    }
}

fn static_keyword(k: &str, table: &[&'static str]) -> Option<&'static str> {
    table.iter().copied().find(|t| *t == k)
}

/// The schema positions directly under `node`, in the node's own key order
/// (so walks are deterministic and follow the author's layout).
pub(crate) fn children(node: &Map<String, Value>) -> Vec<ChildKey> {
    let mut out = Vec::new();
    for (k, v) in node {
        if let Some(kw) = static_keyword(k, NAME_MAPS) {
            if let Some(map) = v.as_object() {
                // `dependentSchemas` values may be arrays in malformed input; only
                // schema-shaped values (objects and booleans) are positions.
                for (name, sub) in map {
                    if sub.is_object() || sub.is_boolean() {
                        out.push(ChildKey::Named(kw, name.clone()));
                    }
                }
            }
        } else if let Some(kw) = static_keyword(k, SINGLE_SCHEMA) {
            if v.is_object() || v.is_boolean() {
                out.push(ChildKey::Single(kw));
            }
        } else if let Some(kw) = static_keyword(k, SCHEMA_ARRAYS) {
            if let Some(arr) = v.as_array() {
                for (i, sub) in arr.iter().enumerate() {
                    if sub.is_object() || sub.is_boolean() {
                        out.push(ChildKey::Indexed(kw, i));
                    }
                }
            }
        } else if k == "items" {
            match v {
                Value::Array(arr) => {
                    for (i, sub) in arr.iter().enumerate() {
                        if sub.is_object() || sub.is_boolean() {
                            out.push(ChildKey::Indexed("items", i));
                        }
                    }
                }
                Value::Object(_) | Value::Bool(_) => out.push(ChildKey::Single("items")),
                _ => {}
            }
        } else if k == "dependencies" {
            // Draft-7 `dependencies`: schema-form values are positions,
            // name-table (array) values are data.
            if let Some(map) = v.as_object() {
                for (name, sub) in map {
                    if sub.is_object() || sub.is_boolean() {
                        out.push(ChildKey::Named("dependencies", name.clone()));
                    }
                }
            }
        }
    }
    out
}

/// Visit every schema object in pre-order, with its JSON Pointer and depth
/// (root = 0). Boolean schemas are skipped (they carry no keywords).
pub fn visit(root: &Value, f: &mut dyn FnMut(&str, &Map<String, Value>)) -> Result<(), TooDeep> {
    fn go(
        v: &Value,
        path: &mut String,
        depth: usize,
        f: &mut dyn FnMut(&str, &Map<String, Value>),
    ) -> Result<(), TooDeep> {
        let Some(map) = v.as_object() else {
            return Ok(());
        };
        if depth > MAX_DEPTH {
            return Err(TooDeep {
                path: display_path(path),
                limit: MAX_DEPTH,
            });
        }
        f(path, map);
        for child in children(map) {
            let len = path.len();
            path.push_str(&child.suffix());
            if let Some(sub) = child.get(map) {
                go(sub, path, depth + 1, f)?;
            }
            path.truncate(len);
        }
        Ok(())
    }
    go(root, &mut String::new(), 0, f)
}

/// When a rewrite calls back: before or after the node's children.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Pre,
    Post,
}

/// A mutable walk's callback: pointer, the key the node was reached by, node.
type Rewriter<'a> = dyn FnMut(&str, Option<&ChildKey>, &mut Map<String, Value>) -> bool + 'a;
/// A post-order callback (nothing to skip).
type PostRewriter<'a> = dyn FnMut(&str, Option<&ChildKey>, &mut Map<String, Value>) + 'a;

/// The one mutable walk. The callback gets the node's pointer, the key it
/// was reached by (`None` for the root) and the node; in pre-order its
/// `false` skips the node's children (which are taken after the callback).
fn rewrite(root: &mut Value, order: Order, f: &mut Rewriter<'_>) -> Result<(), TooDeep> {
    fn go(
        v: &mut Value,
        via: Option<&ChildKey>,
        path: &mut String,
        depth: usize,
        order: Order,
        f: &mut Rewriter<'_>,
    ) -> Result<(), TooDeep> {
        let Some(map) = v.as_object_mut() else {
            return Ok(());
        };
        if depth > MAX_DEPTH {
            return Err(TooDeep {
                path: display_path(path),
                limit: MAX_DEPTH,
            });
        }
        if order == Order::Pre && !f(path, via, map) {
            return Ok(());
        }
        for child in children(map) {
            let len = path.len();
            path.push_str(&child.suffix());
            if let Some(sub) = child.get_mut(map) {
                go(sub, Some(&child), path, depth + 1, order, f)?;
            }
            path.truncate(len);
        }
        if order == Order::Post {
            f(path, via, map);
        }
        Ok(())
    }
    go(root, None, &mut String::new(), 0, order, f)
}

/// Rewrite every schema object bottom-up (children first, then the node),
/// with its JSON Pointer and the key it was reached by (`None` at the root).
pub(crate) fn rewrite_post_order(
    root: &mut Value,
    f: &mut PostRewriter<'_>,
) -> Result<(), TooDeep> {
    rewrite(root, Order::Post, &mut |p, via, m| {
        f(p, via, m);
        true
    })
}

/// Rewrite every schema object top-down (the node, then the children it has
/// after the callback). Returning `false` from the callback skips the
/// node's children.
pub(crate) fn rewrite_pre_order(
    root: &mut Value,
    f: &mut dyn FnMut(&str, &mut Map<String, Value>) -> bool,
) -> Result<(), TooDeep> {
    rewrite(root, Order::Pre, &mut |p, _, m| f(p, m))
}

/// Rewrite top-down like [`rewrite_pre_order`], but never enter an
/// `if`/`then`/`else`/`not` subschema ([`CONDITIONALS`]): the callback never
/// sees a node at or below one.
pub(crate) fn rewrite_pre_order_outside_conditionals(
    root: &mut Value,
    f: &mut dyn FnMut(&str, &mut Map<String, Value>) -> bool,
) -> Result<(), TooDeep> {
    rewrite(root, Order::Pre, &mut |p, via, m| {
        if via.is_some_and(ChildKey::is_conditional) {
            return false;
        }
        f(p, m)
    })
}

/// The pointer and keyword of the first `if`/`then`/`else`/`not` subschema
/// (pre-order), if any.
pub(crate) fn first_conditional(root: &Value) -> Result<Option<(String, &'static str)>, TooDeep> {
    let mut found = None;
    visit(root, &mut |path, node| {
        if found.is_none()
            && let Some(kw) = CONDITIONALS.iter().find(|k| {
                node.get(**k)
                    .is_some_and(|v| v.is_object() || v.is_boolean())
            })
        {
            found = Some((child_path(path, kw), *kw));
        }
    })?;
    Ok(found)
}

impl ChildKey {
    /// The child is an `if`/`then`/`else`/`not` subschema.
    pub(crate) fn is_conditional(&self) -> bool {
        matches!(self, Self::Single(k) if CONDITIONALS.contains(k))
    }

    /// The child is an in-place applicator: it constrains the *same*
    /// instance as its parent (`allOf`/`anyOf`/`oneOf` branches, `not`,
    /// `if`/`then`/`else`, `dependentSchemas`/`dependencies` values), so its
    /// `required` may name properties its parent declares.
    pub(crate) fn is_in_place(&self) -> bool {
        match self {
            Self::Indexed(k, _) => matches!(*k, "allOf" | "anyOf" | "oneOf"),
            Self::Single(k) => matches!(*k, "not" | "if" | "then" | "else"),
            Self::Named(k, _) => matches!(*k, "dependentSchemas" | "dependencies"),
        }
    }
}

/// How a path is shown in messages: the root is `/`.
pub fn display_path(path: &str) -> String {
    if path.is_empty() {
        "/".to_owned()
    } else {
        path.to_owned()
    }
}

/// The node is typed only as numbers (a nullable number included): the
/// documented strict format list is for strings, so a `format` there is an
/// open question, neither stripped nor rejected.
pub(crate) fn numeric_only(node: &Map<String, Value>) -> bool {
    let numeric = |t: &Value| matches!(t.as_str(), Some("number" | "integer"));
    match node.get("type") {
        // `null` beside the numbers (a nullable number) keeps it numeric.
        Some(Value::Array(ts)) => {
            ts.iter().any(numeric) && ts.iter().all(|t| numeric(t) || t == "null")
        }
        Some(t) => numeric(t),
        None => false,
    }
}

/// `type` is exactly the string `name`.
pub(crate) fn has_type(node: &Map<String, Value>, name: &str) -> bool {
    node.get("type").and_then(Value::as_str) == Some(name)
}

/// An object schema: `type: "object"`, or no `type` but `properties`.
pub(crate) fn is_object_schema(node: &Map<String, Value>) -> bool {
    has_type(node, "object") || (!node.contains_key("type") && node.contains_key("properties"))
}

/// The names a node requires, in order (non-strings ignored).
pub(crate) fn required_names(node: &Map<String, Value>) -> Vec<String> {
    node.get("required")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Compact serialization (the byte form every comparison uses).
pub(crate) fn to_bytes(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Insert `key: value` right after `after` (or at the end when `after` is
/// absent); an existing `key` is replaced in place.
pub(crate) fn insert_after(node: &mut Map<String, Value>, after: &str, key: &str, value: Value) {
    if node.contains_key(key) || !node.contains_key(after) {
        node.insert(key.to_owned(), value);
        return;
    }
    let old = std::mem::take(node);
    for (k, v) in old {
        let hit = k == after;
        node.insert(k, v);
        if hit {
            node.insert(key.to_owned(), value.clone());
        }
    }
}

/// Keywords by the one instance type they constrain.
pub(crate) const KEYWORD_FAMILIES: &[(&str, &[&str])] = &[
    (
        "object",
        &[
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "minProperties",
            "maxProperties",
            "propertyNames",
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
        ],
    ),
    (
        "array",
        &[
            "items",
            "prefixItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "contains",
            "minContains",
            "maxContains",
            "unevaluatedItems",
            "additionalItems",
        ],
    ),
    (
        "string",
        &[
            "minLength",
            "maxLength",
            "pattern",
            "format",
            "contentEncoding",
            "contentMediaType",
        ],
    ),
    (
        "number",
        &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        ],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(v: &Value) -> Vec<String> {
        let mut out = Vec::new();
        visit(v, &mut |p, _| out.push(display_path(p))).unwrap();
        out
    }

    #[test]
    fn walk_visits_property_schemas_but_not_the_properties_map() {
        let v = json!({"type":"object","properties":{"const":{"type":"string"},"properties":{"type":"object"}}});
        assert_eq!(
            paths(&v),
            ["/", "/properties/const", "/properties/properties"]
        );
    }

    #[test]
    fn walk_never_enters_literals() {
        let v = json!({"enum":[{"type":"object"}],"const":{"anyOf":[]},"default":{"not":{}},"examples":[{"properties":{}}]});
        assert_eq!(paths(&v), ["/"]);
    }

    #[test]
    fn walk_visits_every_name_map_and_schema_array() {
        let v = json!({
            "$defs":{"a":{}}, "definitions":{"b":{}}, "$def":{"c":{}},
            "patternProperties":{"^x":{}}, "dependentSchemas":{"d":{}},
            "anyOf":[{}], "items":[{}, {}], "not":{}, "dependencies":{"e":["f"], "g":{}}
        });
        assert_eq!(
            paths(&v),
            [
                "/",
                "/$defs/a",
                "/definitions/b",
                "/$def/c",
                "/patternProperties/^x",
                "/dependentSchemas/d",
                "/anyOf/0",
                "/items/0",
                "/items/1",
                "/not",
                "/dependencies/g"
            ]
        );
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        let v = json!({"properties":{"a/b~c":{}}});
        assert_eq!(paths(&v), ["/", "/properties/a~1b~0c"]);
    }

    #[test]
    fn a_schema_deeper_than_the_limit_is_an_error_not_a_stack_overflow() {
        let mut v = json!({});
        for _ in 0..(MAX_DEPTH + 5) {
            v = json!({"not": v});
        }
        let err = visit(&v, &mut |_, _| {}).unwrap_err();
        assert_eq!(err.limit, MAX_DEPTH);
        assert!(err.path.starts_with("/not/not"), "{}", err.path);
        assert_eq!(err.path.matches("/not").count(), MAX_DEPTH + 1);
    }
}
