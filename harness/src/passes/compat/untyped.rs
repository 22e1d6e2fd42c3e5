//! `type-untyped-subschemas`: on `moonshot` (rule `moonshot-type-required`,
//! recorded: `<At path 'properties.truncateMode': type is not defined>`),
//! every subschema Moonshot reads as one declares a `type`, top-down.
//!
//! Acts where the rule judges, by its own walk: a non-root schema object
//! reached from the root only through `properties`, `$defs`, `anyOf`
//! members, a single `items` or `additionalProperties`, that is not `{}`
//! and has none of `type`, `anyOf`, `$ref`, `allOf`, `oneOf` (an `anyOf` or
//! `$ref` node must not carry a type; how Moonshot reads `allOf`, `oneOf`,
//! `not` and tuple `items` is not recorded, so nothing at or under them is
//! touched). Such a node gets, first that applies:
//! 1. the type its `const` or `enum` values have (exact; several become a
//!    type array, `number` absorbing `integer`);
//! 2. the one type family its keywords constrain (`properties` or
//!    `required` → object, `items` → array, `pattern` or `format` → string,
//!    `minimum` → number): a narrowing, recorded as such (values of other
//!    types it accepted vacuously no longer match);
//! 3. otherwise (it accepts values of every type, or its keywords span
//!    several families) an `anyOf` with one member per JSON type (string,
//!    number, boolean, object, array, null), exact: each keyword moves into
//!    the members it constrains (a family keyword into its type's member,
//!    `default` into the member of its value's type, any other keyword into
//!    every member), while `description`, `title` (the keywords the
//!    validator rules allow beside `anyOf`) and the identity keywords
//!    (`$id`, `$anchor`, `$defs`, …, which must stay unique) stay on the
//!    node. A model reading it still sees the description where it was.
//!    A keyword a local `$ref` points into stays on the node too (moving it
//!    would leave the reference dangling; beside the `anyOf` it means the
//!    same).

use serde_json::{Map, Value, json};

use super::anyof::{exact_types, family_type, json_type, type_value};
use super::keywords::FAMILIES;
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::pointer::escape_token;
use crate::schema::{self, ChildKey, TooDeep};
use crate::tool::Tool;

/// One member per JSON type, in this order (`number` takes integers).
const EVERY_TYPE: [&str; 6] = ["string", "number", "boolean", "object", "array", "null"];

/// Keywords that stay on a node that becomes an `anyOf` of every type.
const STAY_ON_NODE: &[&str] = &[
    "description",
    "title",
    "$comment",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$defs",
    "definitions",
];

/// Keywords whose presence exempts a node: it must not (`anyOf`, `$ref`)
/// or need not be typed, or Moonshot's reading of it is not recorded.
const EXEMPT: &[&str] = &["type", "anyOf", "$ref", "allOf", "oneOf"];

/// See the module docs. The flags are the pass's mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeUntypedSubschemas {
    /// Type a node by its one keyword family (else it gets every type).
    pub(crate) infer_from_keywords: bool,
    /// Give a node that implies no type an `anyOf` of every type (else it
    /// stays untyped).
    pub(crate) type_any_value: bool,
}

impl Default for TypeUntypedSubschemas {
    fn default() -> Self {
        Self {
            infer_from_keywords: true,
            type_any_value: true,
        }
    }
}

/// A node the pass types (wherever it stands; see [`mfjs_step`]).
fn untyped(node: &Map<String, Value>) -> bool {
    !node.is_empty() && !EXEMPT.iter().any(|k| node.has(k))
}

/// A child position Moonshot's schema format has: `properties` and `$defs`
/// entries, `anyOf` members, a single `items`, `additionalProperties`.
pub(super) fn mfjs_step(key: &ChildKey<'_>) -> bool {
    match key {
        ChildKey::Named(k, _) => matches!(*k, "properties" | "$defs"),
        ChildKey::Indexed(k, _) => *k == "anyOf",
        ChildKey::Single(k) => matches!(*k, "items" | "additionalProperties"),
    }
}

/// The member of [`EVERY_TYPE`] a keyword belongs to, `None` for a
/// keyword of no family.
fn family_member(keyword: &str) -> Option<usize> {
    let (ty, _) = FAMILIES.iter().find(|(_, kws)| kws.contains(&keyword))?;
    EVERY_TYPE.iter().position(|t| t == ty)
}

impl TypeUntypedSubschemas {
    fn type_node(
        self,
        path: &str,
        node: &mut Map<String, Value>,
        refs: &[String],
        cx: &mut Cx<'_>,
    ) {
        if let Some(names) = exact_types(node, &Value::Null, 0) {
            node.shift_insert(0, "type".into(), type_value(names));
            cx.record(
                path,
                "type",
                Action::Added,
                "untyped: the type its const or enum values have (exact)",
            );
        } else if let Some(t) = family_type(node).filter(|_| self.infer_from_keywords) {
            node.shift_insert(0, "type".into(), json!(t));
            cx.record(
                path,
                "type",
                Action::Added,
                format!(
                    "untyped: typed {t} by its keywords (narrows: values of other types it accepted vacuously no longer match it)"
                ),
            );
        } else if self.type_any_value {
            every_type(path, node, refs, cx);
        }
    }
}

/// Whether a local `$ref` points at or into `keyword` of the node at `path`.
fn referenced(path: &str, keyword: &str, refs: &[String]) -> bool {
    let at = format!("{path}/{}", escape_token(keyword));
    refs.iter().any(|r| {
        r.strip_prefix(&at)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// Rewrite an untyped node that implies no one type as an `anyOf` of every
/// type, its keywords moved into the members they constrain (exact).
fn every_type(path: &str, node: &mut Map<String, Value>, refs: &[String], cx: &mut Cx<'_>) {
    let mut members: Vec<Map<String, Value>> = EVERY_TYPE
        .iter()
        .map(|t| Map::from_iter([("type".to_owned(), json!(t))]))
        .collect();
    for (k, v) in std::mem::take(node) {
        if STAY_ON_NODE.contains(&k.as_str()) {
            node.insert(k, v);
            continue;
        }
        // A keyword a local `$ref` points into stays where it is, beside
        // the anyOf, where it means the same.
        if referenced(path, &k, refs) {
            node.insert(k, v);
            continue;
        }
        let only = if k == "default" {
            let ty = json_type(&v);
            let ty = if ty == "integer" { "number" } else { ty };
            EVERY_TYPE.iter().position(|t| *t == ty)
        } else {
            family_member(&k)
        };
        let reason = match only {
            Some(i) => format!("moved into the anyOf member of type {}", EVERY_TYPE[i]),
            None => "moved into every member of the anyOf".to_owned(),
        };
        cx.record(path, &k, Action::Rewritten, reason);
        match only {
            Some(i) => {
                members[i].insert(k, v);
            }
            None => {
                for m in &mut members {
                    m.insert(k.clone(), v.clone());
                }
            }
        }
    }
    node.insert(
        "anyOf".into(),
        Value::Array(members.into_iter().map(Value::Object).collect()),
    );
    cx.record(
        path,
        "anyOf",
        Action::Added,
        "untyped, it accepted values of every type: an anyOf of one member per type, each declaring it (exact)",
    );
}

impl Pass for TypeUntypedSubschemas {
    fn name(&self) -> &'static str {
        "type-untyped-subschemas"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("moonshot-type-required")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !schema::any_node(&tool.input_schema, &|depth, node| {
            depth > 0 && untyped(node)
        })? {
            return Ok(Step::Continue);
        }
        // Keeping a keyword on its node is exact, so too many is safe.
        let refs = crate::pointer::local_ref_pointers(&tool.input_schema);
        // Only through the positions Moonshot's schema format has.
        schema::rewrite_pre_order_through(
            &mut tool.input_schema,
            &mfjs_step,
            &mut |path, node| {
                if !path.is_empty() && untyped(node) {
                    self.type_node(path, node, &refs, cx);
                }
                true
            },
        )?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "never type a node by its keyword family", |m| {
                &mut m.infer_from_keywords
            }),
            PassMutant::flip(self, "leave a node that implies no type untyped", |m| {
                &mut m.type_any_value
            }),
        ]
    }
}

#[cfg(test)]
#[path = "untyped_tests.rs"]
mod tests;
