//! Google Gemini: the `Schema` proto (`parameters`) and `parametersJsonSchema`.

use super::types::{KeywordSet, Limit, READ};

/// The Gemini API `Schema` reference.
pub const SCHEMA: &str = "https://ai.google.dev/api/caching#Schema";
/// A generated mirror of the same field list.
pub const SCHEMA_MIRROR: &str = "https://hexdocs.pm/geminix/Geminix.V1beta.Schema.html";
/// Vertex `FunctionDeclaration` (name and parameter-name rules).
pub const FUNCTION_DECLARATION: &str =
    "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration";
/// Firebase AI Logic on `format` for the Gemini Developer API.
pub const FIREBASE_SCHEMA: &str = "https://firebase.google.com/docs/reference/js/ai.schemashared";

/// The fields of the `Schema` proto (the complete list; any other
/// field is an unknown name to the proto's JSON parser).
pub const SCHEMA_FIELDS: KeywordSet = KeywordSet {
    id: "gemini-schema-fields",
    provider: "gemini",
    lanes: &["gemini-openapi"],
    what: "fields of the Schema proto (lowerCamelCase JSON names)",
    items: &[
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "propertyOrdering",
        "default",
        "items",
        "minimum",
        "maximum",
    ],
    closed: true,
    doc: SCHEMA,
    read: READ,
};

/// The proto's own (snake_case) field names, which its JSON parser
/// accepts beside the lowerCamelCase ones.
pub const SCHEMA_FIELD_ALIASES: KeywordSet = KeywordSet {
    id: "gemini-schema-field-aliases",
    provider: "gemini",
    lanes: &["gemini-openapi"],
    what: "snake_case proto field names of the Schema fields",
    items: &[
        "max_items",
        "min_items",
        "min_properties",
        "max_properties",
        "min_length",
        "max_length",
        "any_of",
        "property_ordering",
    ],
    closed: true,
    doc: SCHEMA,
    read: READ,
};

/// The Gemini API `Type` reference.
pub const TYPE: &str = "https://ai.google.dev/api/caching#Type";

/// The values of the `Schema` `type` field: the `Type` enum, whose JSON
/// parser takes a name in any case (`object`, `OBJECT`). Any other string
/// is an invalid value (`Invalid value at '….type'
/// (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ""`, as
/// zereight/gitlab-mcp#166 quotes it).
pub const TYPES: KeywordSet = KeywordSet {
    id: "gemini-schema-types",
    provider: "gemini",
    lanes: &["gemini-openapi"],
    what: "values of the Schema type field (the Type enum, any case)",
    items: &[
        "TYPE_UNSPECIFIED",
        "STRING",
        "NUMBER",
        "INTEGER",
        "BOOLEAN",
        "ARRAY",
        "OBJECT",
        "NULL",
    ],
    closed: true,
    doc: TYPE,
    read: READ,
};

/// Whether `name` is a value of the `Type` enum (in any case).
pub fn is_type_name(name: &str) -> bool {
    TYPES.items.iter().any(|t| t.eq_ignore_ascii_case(name))
}

/// STRING formats (older reference text, Firebase: "must be either
/// 'enum' or 'date-time', otherwise requests will fail"; the newer
/// text says any value is allowed: see the open question).
pub const STRING_FORMATS: KeywordSet = KeywordSet {
    id: "gemini-string-formats",
    provider: "gemini",
    lanes: &["gemini-openapi"],
    what: "STRING format values",
    items: &["enum", "date-time"],
    closed: true,
    doc: FIREBASE_SCHEMA,
    read: READ,
};

pub const NAME_LENGTH: Limit = Limit {
    id: "gemini-function-name-length",
    provider: "gemini",
    lanes: &["gemini-openapi", "gemini-jsonschema"],
    what: "characters of a function name (letter or _ first, then a-z A-Z 0-9 _ . : -)",
    value: 64,
    doc: FUNCTION_DECLARATION,
    read: READ,
};

pub const PARAMETER_NAME_LENGTH: Limit = Limit {
    id: "gemini-parameter-name-length",
    provider: "gemini",
    lanes: &["gemini-openapi"],
    what: "characters of a top-level parameter name (letter or _ first, then a-z A-Z 0-9 _)",
    value: 64,
    doc: FUNCTION_DECLARATION,
    read: READ,
};
