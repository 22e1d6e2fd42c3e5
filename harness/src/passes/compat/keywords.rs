//! Keyword classes the compat passes share: the type families, the other
//! assertions, the annotations, and which keywords take an object value.

use crate::schema::{NAME_MAPS, SINGLE_SCHEMA};

pub(crate) use crate::schema::KEYWORD_FAMILIES as FAMILIES;

/// Assertions outside the type families: a member with none of these and no
/// family keyword accepts every value.
pub(super) const OTHER_ASSERTIONS: &[&str] = &[
    "type",
    "enum",
    "const",
    "$ref",
    "$dynamicRef",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependencies",
];

/// Keywords that only annotate.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "$comment",
    "examples",
    "$id",
    "$schema",
    "$anchor",
    "readOnly",
    "writeOnly",
    "deprecated",
];

/// A JSON Schema keyword whose valid value may be a JSON object (a subschema,
/// a name map or a literal).
pub(super) fn object_valued(key: &str) -> bool {
    NAME_MAPS.contains(&key)
        || SINGLE_SCHEMA.contains(&key)
        || [
            "items",
            "dependentRequired",
            "dependencies",
            "const",
            "default",
            "$vocabulary",
        ]
        .contains(&key)
}

/// A JSON Schema keyword whose valid value is never a JSON object.
pub(super) fn never_object_valued(key: &str) -> bool {
    !object_valued(key)
        && (OTHER_ASSERTIONS.contains(&key)
            || ANNOTATIONS.contains(&key)
            || FAMILIES.iter().any(|(_, kws)| kws.contains(&key)))
}
