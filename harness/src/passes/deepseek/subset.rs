//! The DeepSeek strict subset as data (formats, widening and unrepresentable
//! keywords), the search over the shipped shape, and closing one object.

use std::ops::ControlFlow;

use serde_json::{Map, Value};

use crate::passes::objects::{
    self, FalseOptional, Objects, Qualify, RequireAll, Undeclared, WriteRequired,
};
use crate::schema::{self, ChildKey, NodePath, TooDeep};

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
pub(super) type Judge<'a> = dyn FnMut(&NodePath<'_>, &Map<String, Value>) -> Option<String> + 'a;

pub(super) fn find_in_shipped(root: &Value, f: &mut Judge<'_>) -> Result<Option<String>, TooDeep> {
    let found = schema::search(
        root,
        &|parent, child| match child {
            ChildKey::Named("properties", name) => schema::requires(parent, name),
            _ => true,
        },
        &mut |path, node| match f(path, node) {
            Some(reason) => ControlFlow::Break(reason),
            None => ControlFlow::Continue(()),
        },
    )?;
    Ok(found.break_value())
}

/// Which halves of [`objects`] run (both, outside mutants).
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

/// DeepSeek's closing: every object schema requires all its properties
/// (a `required` name the object does not declare is dropped silently,
/// repeats collapse, `required` is always written) and then forbids
/// additional ones; `conditionals`: also inside `if`/`then`/`else`/`not`.
/// Existing `required` entries keep their order; missing property names
/// follow in property order (no needless byte change).
pub(super) fn objects(close: Close, conditionals: bool) -> Objects {
    Objects {
        qualify: Qualify::Objects,
        nested: true,
        conditionals,
        require: close.require_all.then_some(RequireAll {
            undeclared: Undeclared::DropSilently,
            false_optional: FalseOptional::Require,
            dedup: true,
            write: WriteRequired::Always,
            reason: "strict mode requires every property",
        }),
        close: close.forbid_additional.then_some(objects::Close {
            after: "required",
            reason: "strict mode closes every object",
        }),
    }
}

pub(super) fn at(path: &str) -> String {
    schema::display_path(path)
}
