//! OpenAI: Structured Outputs / strict function calling.

use super::types::{KeywordSet, Limit, READ};

/// The Structured Outputs guide, supported-schemas section.
pub const STRUCTURED_OUTPUTS: &str =
    "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas";
/// The function-calling guide, strict mode.
pub const FUNCTION_CALLING: &str =
    "https://platform.openai.com/docs/guides/function-calling#strict-mode";
/// The Chat Completions API reference (`tools`, function names).
pub const CHAT_REFERENCE: &str =
    "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools";

/// Lanes where a strict schema can appear (strict tools or a strict
/// `response_format`).
pub const STRICT_LANES: &[&str] = &["openai-chat", "openai-strict", "openai-responses"];

/// "Supported string formats" under strict.
pub const STRICT_FORMATS: KeywordSet = KeywordSet {
    id: "openai-strict-formats",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "string format values under strict",
    items: &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ],
    closed: true,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

/// Keywords the guide lists as supported for every type, or as the
/// structure of a strict schema (types, `enum`, `anyOf`, definitions,
/// `description`).
pub const STRICT_GENERAL: KeywordSet = KeywordSet {
    id: "openai-strict-general-keywords",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "keywords supported on any strict schema node",
    items: &[
        "type",
        "description",
        "enum",
        "anyOf",
        "$ref",
        "$defs",
        "definitions",
    ],
    closed: true,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

/// Supported string keywords.
pub const STRICT_STRING: KeywordSet = KeywordSet {
    id: "openai-strict-string-keywords",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "string keywords under strict",
    items: &["pattern", "format"],
    closed: true,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

/// Supported number keywords.
pub const STRICT_NUMBER: KeywordSet = KeywordSet {
    id: "openai-strict-number-keywords",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "number / integer keywords under strict",
    items: &[
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
    ],
    closed: true,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

/// Supported object keywords.
pub const STRICT_OBJECT: KeywordSet = KeywordSet {
    id: "openai-strict-object-keywords",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "object keywords under strict (additionalProperties must be false)",
    items: &["properties", "required", "additionalProperties"],
    closed: true,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

/// Supported array keywords.
pub const STRICT_ARRAY: KeywordSet = KeywordSet {
    id: "openai-strict-array-keywords",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "array keywords under strict",
    items: &["items", "minItems", "maxItems"],
    closed: true,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

/// Keywords the guide names as unsupported ("composition": `allOf`,
/// `not`, `dependentRequired`, `dependentSchemas`, `if`, `then`,
/// `else`) or that fall outside the closed supported lists above and
/// were named "not supported" in the launch version of the guide
/// (`patternProperties`, `propertyNames`, `unevaluated*`,
/// `min/maxProperties`, `contains`, `min/maxContains`, `uniqueItems`),
/// plus draft 2020-12 applicators no supported list contains (`oneOf`,
/// `prefixItems`, `dependencies`, `additionalItems`).
pub const STRICT_REJECTED: KeywordSet = KeywordSet {
    id: "openai-strict-unsupported-keywords",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "keywords a strict schema must not contain",
    items: &[
        "allOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "patternProperties",
        "propertyNames",
        "unevaluatedProperties",
        "minProperties",
        "maxProperties",
        "contains",
        "minContains",
        "maxContains",
        "prefixItems",
        "additionalItems",
        "unevaluatedItems",
        "uniqueItems",
    ],
    closed: true,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

pub const STRICT_PROPERTIES: Limit = Limit {
    id: "openai-strict-properties",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "object properties in one strict schema",
    value: 5000,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

pub const STRICT_NESTING: Limit = Limit {
    id: "openai-strict-nesting",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "levels of object nesting in one strict schema",
    value: 10,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

pub const STRICT_STRING_BUDGET: Limit = Limit {
    id: "openai-strict-string-budget",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "characters of all property names, definition names, enum values and const values in one strict schema",
    value: 120_000,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

pub const STRICT_ENUM_VALUES: Limit = Limit {
    id: "openai-strict-enum-values",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "enum values across one strict schema",
    value: 1000,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

/// A string enum with more values than this has a character budget.
pub const STRICT_LARGE_ENUM: Limit = Limit {
    id: "openai-strict-large-enum",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "values of one string enum above which the enum string budget applies",
    value: 250,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

pub const STRICT_ENUM_STRING_BUDGET: Limit = Limit {
    id: "openai-strict-enum-string-budget",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "characters of all values of one string enum with more than 250 values",
    value: 15_000,
    doc: STRUCTURED_OUTPUTS,
    read: READ,
};

pub const NAME_LENGTH: Limit = Limit {
    id: "openai-function-name-length",
    provider: "openai",
    lanes: STRICT_LANES,
    what: "characters of a function name (a-z, A-Z, 0-9, _ and -)",
    value: 64,
    doc: CHAT_REFERENCE,
    read: READ,
};

/// "A max of 128 functions are supported" (Chat Completions `tools`).
pub const CHAT_TOOLS: Limit = Limit {
    id: "openai-chat-tools",
    provider: "openai",
    lanes: &["openai-chat", "openai-strict"],
    what: "tools in one Chat Completions request",
    value: 128,
    doc: CHAT_REFERENCE,
    read: READ,
};

/// Under strict, the keywords a subschema may stand on instead of a
/// `type` key: OpenAI rejects any other subschema without one (`In
/// context=('properties', 'value'), schema must have a 'type' key.`,
/// Gitlawb/openclaude#1114, 2026-05-11; `items: {}` in
/// can1357/oh-my-pi#211, 2026-02-28). The unions and `$ref` are what the
/// reports' fixes leave untyped; `oneOf`, `allOf` and `not` are rejected
/// on their own (`openai-strict-keyword-not-permitted`); `enum` and
/// `const` stand in too, as no report shows either rejected without a
/// type. Recorded, not documented: the supported-schemas page lists
/// the types, not this check.
pub const STRICT_TYPE_STAND_INS: &[&str] =
    &["anyOf", "oneOf", "allOf", "not", "$ref", "enum", "const"];
