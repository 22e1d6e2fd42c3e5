//! The `schema` format: a single schema document, one tool named after the
//! file stem, and what makes an object look like a schema.

use serde_json::{Map, Value};

use super::locate::Src;
use super::raw::Raw;
use crate::error::LoadError;

/// JSON Schema keywords: an object with any of these (or no keys at all) is
/// taken for a schema document.
const SCHEMA_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "$schema",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "definitions",
    "$defs",
    "enum",
    "items",
    "$id",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "const",
    "not",
    "if",
    "then",
    "else",
    "required",
    "additionalProperties",
    "patternProperties",
    "prefixItems",
    "contains",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

pub(super) fn looks_like_schema(obj: &Map<String, Value>) -> bool {
    obj.is_empty() || obj.keys().any(|k| SCHEMA_KEYWORDS.contains(&k.as_str()))
}

pub(super) fn single_schema<'a>(
    src: Src<'a>,
    root: &mut Value,
    stem: &str,
) -> Result<Vec<Raw<'a>>, LoadError> {
    if !(root.is_object() || root.is_boolean()) {
        return Err(src.error("", "format schema expects a json object or boolean"));
    }
    Ok(vec![Raw {
        src,
        pointer: String::new(),
        name: stem.to_owned(),
        description: None,
        schema: root.take(),
        strict: None,
        notes: Vec::new(),
        instances: Vec::new(),
    }])
}
