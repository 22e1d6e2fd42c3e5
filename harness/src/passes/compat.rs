//! v1 on `deepseek-chat`, `moonshot`, `mistral` and `ollama`: every tool passes that lane's oracle, every loss recorded.
//!
//! Per lane, in order (each pass names the oracle rule it exists for):
//! - `deepseek-chat`: `wrap-bare-property-map`, `parameters-object-floor`
//!   (`deepseek-parameters-must-be-object`), `type-any-of-members`
//!   (`deepseek-anyof-member-missing-type`);
//! - `moonshot`: `wrap-bare-property-map`, `parameters-object-floor`
//!   (`moonshot-parameters-type-object`), `ref-siblings-to-all-of`
//!   (`moonshot-ref-sibling-conflict`);
//! - `mistral`: `wrap-bare-property-map`, `parameters-object-floor` (only
//!   roots that are no schema at all), `draft4-exclusive-bounds`
//!   (`mistral-parameters-not-object-schema`);
//! - `ollama`: `ollama-properties-map`, `ollama-boolean-properties`,
//!   `ollama-type-name-properties` (one per `ollama-*` rule).
//!
//! No `normalize` runs first: these endpoints read JSON Schema, so its
//! `nullable: true` collapse would change what they accept.
//! `mistral-function-extra-field-forbidden` concerns keys of the function
//! object beside `parameters`, which a `Tool` never carries: not a pass here.

mod anyof;
mod mistral;
mod ollama;
mod refs;
mod root;

use super::Pass;
use crate::lane::Lane;
use crate::schema::{NAME_MAPS, SINGLE_SCHEMA};

pub(crate) use anyof::TypeAnyOfMembers;
pub(crate) use mistral::Draft4ExclusiveBounds;
pub(crate) use ollama::{OllamaBooleanProperties, OllamaPropertiesMap, OllamaTypeNameProperties};
pub(crate) use refs::RefSiblingsToAllOf;
pub(crate) use root::{ParametersObjectFloor, WrapBarePropertyMap};

/// The ordered v1 passes for `lane` (none for a lane outside this family).
pub(crate) fn v1(lane: Lane) -> Vec<Box<dyn Pass>> {
    match lane {
        Lane::DeepseekChat => vec![
            Box::new(WrapBarePropertyMap::new(
                "deepseek-parameters-must-be-object",
                true,
            )),
            Box::new(ParametersObjectFloor::new(
                "deepseek-parameters-must-be-object",
                true,
            )),
            Box::new(TypeAnyOfMembers::default()),
        ],
        Lane::Moonshot => vec![
            Box::new(WrapBarePropertyMap::new(
                "moonshot-parameters-type-object",
                true,
            )),
            Box::new(ParametersObjectFloor::new(
                "moonshot-parameters-type-object",
                true,
            )),
            Box::new(RefSiblingsToAllOf::default()),
        ],
        Lane::Mistral => vec![
            Box::new(WrapBarePropertyMap::new(
                "mistral-parameters-not-object-schema",
                false,
            )),
            Box::new(ParametersObjectFloor::new(
                "mistral-parameters-not-object-schema",
                false,
            )),
            Box::new(Draft4ExclusiveBounds::default()),
        ],
        Lane::Ollama => vec![
            Box::new(OllamaPropertiesMap::default()),
            Box::new(OllamaBooleanProperties::default()),
            Box::new(OllamaTypeNameProperties::default()),
        ],
        _ => Vec::new(),
    }
}

/// Keywords by the one instance type they constrain.
const FAMILIES: &[(&str, &[&str])] = &[
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

/// Assertions outside the type families: a member with none of these and no
/// family keyword accepts every value.
const OTHER_ASSERTIONS: &[&str] = &[
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
fn object_valued(key: &str) -> bool {
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
fn never_object_valued(key: &str) -> bool {
    !object_valued(key)
        && (OTHER_ASSERTIONS.contains(&key)
            || ANNOTATIONS.contains(&key)
            || FAMILIES.iter().any(|(_, kws)| kws.contains(&key)))
}
