//! Provider facts: what each provider's documentation says about tool
//! schemas, as plain data. Bottom layer: it imports nothing from this crate,
//! so passes (which must not consult the oracle that judges them) and the
//! oracle's documented rules (`rules/<provider>.rs`) read the same facts.
//!
//! Every fact carries the documentation URL it was read from and the date
//! it was read ([`READ`]). What no document settles is an [`OpenQuestion`]:
//! recorded as data for a live probe to answer, never guessed either way
//! (no rule rejects it, no pass relies on it being accepted).
//!
//! Sources were read on 2026-12-01 through stored public copies of the
//! pages (see `../shared/research/documented_subsets.md`); the key OpenAI
//! facts (the format list and the `'… is not permitted'` / `'… is not a
//! valid format'` wording) were checked against public reports quoting the
//! API's answers.

/// The date every fact in this file was read.
pub const READ: &str = "2026-12-01";

/// A documented limit: `value` is the largest accepted quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// Short id (`openai-strict-properties`).
    pub id: &'static str,
    pub provider: &'static str,
    /// Lane ids it applies to.
    pub lanes: &'static [&'static str],
    /// What is counted, in one line.
    pub what: &'static str,
    pub value: usize,
    pub doc: &'static str,
    pub read: &'static str,
}

/// A documented set of keywords or values (closed when `closed`: anything
/// outside it is rejected according to the document).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeywordSet {
    pub id: &'static str,
    pub provider: &'static str,
    pub lanes: &'static [&'static str],
    /// What the set is (`strict string formats`, `Schema proto fields`, …).
    pub what: &'static str,
    pub items: &'static [&'static str],
    /// The document lists these as the only ones allowed.
    pub closed: bool,
    pub doc: &'static str,
    pub read: &'static str,
}

/// Something the documentation leaves open (silent, or contradicting
/// itself or a recording): a probe answers it, no rule guesses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenQuestion {
    /// Stable id (`openai-strict-min-max-length`).
    pub id: &'static str,
    pub provider: &'static str,
    pub lanes: &'static [&'static str],
    pub question: &'static str,
    /// What the sources say (and where they disagree).
    pub known: &'static str,
    pub docs: &'static [&'static str],
    pub read: &'static str,
}

// ===========================================================================
// OpenAI: Structured Outputs / strict function calling.

pub mod openai {
    use super::{KeywordSet, Limit, READ};

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
}

// ===========================================================================
// Anthropic: strict tool use / structured outputs.

pub mod anthropic {
    use super::{KeywordSet, Limit, READ};

    pub const JSON_SCHEMA_LIMITATIONS: &str = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations";
    pub const STRICT_TOOL_USE: &str =
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use";
    pub const DEFINE_TOOLS: &str =
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools";

    const LANES: &[&str] = &["anthropic-messages"];

    /// The string formats strict mode supports (includes `uri`).
    pub const STRICT_FORMATS: KeywordSet = KeywordSet {
        id: "anthropic-strict-formats",
        provider: "anthropic",
        lanes: LANES,
        what: "string format values under strict",
        items: &[
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "uri",
            "ipv4",
            "ipv6",
            "uuid",
        ],
        closed: true,
        doc: JSON_SCHEMA_LIMITATIONS,
        read: READ,
    };

    /// Numeric and string-length constraints strict mode does not support.
    pub const STRICT_UNSUPPORTED: KeywordSet = KeywordSet {
        id: "anthropic-strict-unsupported-constraints",
        provider: "anthropic",
        lanes: LANES,
        what: "numerical and string-length constraints under strict",
        items: &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
        ],
        closed: false,
        doc: JSON_SCHEMA_LIMITATIONS,
        read: READ,
    };

    pub const STRICT_TOOLS: Limit = Limit {
        id: "anthropic-strict-tools",
        provider: "anthropic",
        lanes: LANES,
        what: "tools with strict: true in one request",
        value: 20,
        doc: JSON_SCHEMA_LIMITATIONS,
        read: READ,
    };

    pub const STRICT_OPTIONAL: Limit = Limit {
        id: "anthropic-strict-optional-parameters",
        provider: "anthropic",
        lanes: LANES,
        what: "optional parameters across all strict schemas of one request",
        value: 24,
        doc: JSON_SCHEMA_LIMITATIONS,
        read: READ,
    };

    pub const STRICT_UNIONS: Limit = Limit {
        id: "anthropic-strict-union-parameters",
        provider: "anthropic",
        lanes: LANES,
        what: "parameters with union types across all strict schemas of one request",
        value: 16,
        doc: JSON_SCHEMA_LIMITATIONS,
        read: READ,
    };

    /// `minItems` values strict mode supports: 0 and 1.
    pub const STRICT_MIN_ITEMS_MAX: Limit = Limit {
        id: "anthropic-strict-min-items",
        provider: "anthropic",
        lanes: LANES,
        what: "largest minItems value under strict",
        value: 1,
        doc: JSON_SCHEMA_LIMITATIONS,
        read: READ,
    };

    pub const NAME_LENGTH: Limit = Limit {
        id: "anthropic-tool-name-length",
        provider: "anthropic",
        lanes: LANES,
        what: "characters of a tool name (^[a-zA-Z0-9_-]{1,128}$; {1,64} on older pages)",
        value: 128,
        doc: DEFINE_TOOLS,
        read: READ,
    };
}

// ===========================================================================
// Google Gemini: the `Schema` proto (`parameters`) and `parametersJsonSchema`.

pub mod gemini {
    use super::{KeywordSet, Limit, READ};

    /// The Gemini API `Schema` reference.
    pub const SCHEMA: &str = "https://ai.google.dev/api/caching#Schema";
    /// A generated mirror of the same field list.
    pub const SCHEMA_MIRROR: &str = "https://hexdocs.pm/geminix/Geminix.V1beta.Schema.html";
    /// Vertex `FunctionDeclaration` (name and parameter-name rules).
    pub const FUNCTION_DECLARATION: &str =
        "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration";
    /// Firebase AI Logic on `format` for the Gemini Developer API.
    pub const FIREBASE_SCHEMA: &str =
        "https://firebase.google.com/docs/reference/js/ai.schemashared";

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
}

// ===========================================================================
// DeepSeek: strict function calling (beta).

pub mod deepseek {
    use super::{KeywordSet, READ};

    pub const STRICT_MODE: &str =
        "https://api-docs.deepseek.com/guides/function_calling#strict-mode-beta";

    /// The `format` values strict mode supports.
    pub const STRICT_FORMATS: KeywordSet = KeywordSet {
        id: "deepseek-strict-formats",
        provider: "deepseek",
        lanes: &["deepseek-strict"],
        what: "string format values under strict",
        items: &["email", "hostname", "ipv4", "ipv6", "uuid"],
        closed: true,
        doc: STRICT_MODE,
        read: READ,
    };

    /// Keywords the strict-mode guide names as unsupported.
    pub const STRICT_UNSUPPORTED: KeywordSet = KeywordSet {
        id: "deepseek-strict-unsupported-keywords",
        provider: "deepseek",
        lanes: &["deepseek-strict"],
        what: "keywords strict mode does not support (string and array lengths)",
        items: &["minLength", "maxLength", "minItems", "maxItems"],
        closed: false,
        doc: STRICT_MODE,
        read: READ,
    };
}

// ===========================================================================
// AWS Bedrock Converse.

pub mod bedrock {
    use super::{KeywordSet, Limit, READ};

    pub const TOOL_SPECIFICATION: &str = "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html";
    pub const STRUCTURED_OUTPUT: &str =
        "https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html";

    pub const NAME_LENGTH: Limit = Limit {
        id: "bedrock-tool-name-length",
        provider: "bedrock",
        lanes: &["bedrock-converse"],
        what: "characters of a tool name ([a-zA-Z0-9_-]+)",
        value: 64,
        doc: TOOL_SPECIFICATION,
        read: READ,
    };

    /// The string formats structured outputs (strict) support.
    pub const STRICT_FORMATS: KeywordSet = KeywordSet {
        id: "bedrock-strict-formats",
        provider: "bedrock",
        lanes: &["bedrock-converse"],
        what: "string format values under strict",
        items: &[
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "uri",
            "ipv4",
            "ipv6",
            "uuid",
        ],
        closed: true,
        doc: STRUCTURED_OUTPUT,
        read: READ,
    };
}

// ===========================================================================
// xAI, Cerebras, Moonshot (documented subsets; other providers document
// no subset: Mistral, Groq tools, Ollama; see the open questions).

pub mod xai {
    use super::{KeywordSet, Limit, READ};

    pub const STRUCTURED_OUTPUTS: &str =
        "https://docs.x.ai/developers/model-capabilities/text/structured-outputs";

    /// Formats xAI enforces (others are accepted and not enforced).
    pub const ENFORCED_FORMATS: KeywordSet = KeywordSet {
        id: "xai-enforced-formats",
        provider: "xai",
        lanes: &["xai"],
        what: "format values that are enforced (others accepted, best-effort)",
        items: &[
            "date",
            "time",
            "date-time",
            "email",
            "uuid",
            "ipv4",
            "ipv6",
            "uri",
        ],
        closed: false,
        doc: STRUCTURED_OUTPUTS,
        read: READ,
    };

    pub const MAX_LENGTH_CEILING: Limit = Limit {
        id: "xai-length-ceiling",
        provider: "xai",
        lanes: &["xai"],
        what: "largest enforced minLength/maxLength",
        value: 2048,
        doc: STRUCTURED_OUTPUTS,
        read: READ,
    };

    pub const MAX_ITEMS_CEILING: Limit = Limit {
        id: "xai-items-ceiling",
        provider: "xai",
        lanes: &["xai"],
        what: "largest enforced minItems/maxItems",
        value: 256,
        doc: STRUCTURED_OUTPUTS,
        read: READ,
    };

    pub const MAX_PROPERTIES_CEILING: Limit = Limit {
        id: "xai-properties-ceiling",
        provider: "xai",
        lanes: &["xai"],
        what: "largest enforced minProperties/maxProperties",
        value: 64,
        doc: STRUCTURED_OUTPUTS,
        read: READ,
    };
}

pub mod cerebras {
    use super::{KeywordSet, Limit, READ};

    pub const STRUCTURED_OUTPUTS: &str =
        "https://inference-docs.cerebras.ai/capabilities/structured-outputs";

    /// Keywords strict mode does not support (newer page, 2026-10-01 copy).
    pub const STRICT_UNSUPPORTED: KeywordSet = KeywordSet {
        id: "cerebras-strict-unsupported-keywords",
        provider: "cerebras",
        lanes: &["cerebras"],
        what: "keywords strict mode does not support",
        items: &[
            "oneOf",
            "allOf",
            "not",
            "nullable",
            "if",
            "then",
            "else",
            "dependentRequired",
            "dependentSchemas",
            "patternProperties",
            "unevaluatedProperties",
            "pattern",
            "format",
            "minItems",
            "maxItems",
            "$anchor",
        ],
        closed: false,
        doc: STRUCTURED_OUTPUTS,
        read: READ,
    };

    pub const STRICT_STRING_BUDGET: Limit = Limit {
        id: "cerebras-strict-string-budget",
        provider: "cerebras",
        lanes: &["cerebras"],
        what: "characters of property names, definition names, enum and const strings",
        value: 5000,
        doc: STRUCTURED_OUTPUTS,
        read: READ,
    };

    pub const STRICT_NESTING: Limit = Limit {
        id: "cerebras-strict-nesting",
        provider: "cerebras",
        lanes: &["cerebras"],
        what: "levels of nesting",
        value: 10,
        doc: STRUCTURED_OUTPUTS,
        read: READ,
    };

    pub const STRICT_PROPERTIES: Limit = Limit {
        id: "cerebras-strict-properties",
        provider: "cerebras",
        lanes: &["cerebras"],
        what: "object properties",
        value: 500,
        doc: STRUCTURED_OUTPUTS,
        read: READ,
    };

    pub const STRICT_ENUM_VALUES: Limit = Limit {
        id: "cerebras-strict-enum-values",
        provider: "cerebras",
        lanes: &["cerebras"],
        what: "enum values in total",
        value: 500,
        doc: STRUCTURED_OUTPUTS,
        read: READ,
    };
}

pub mod moonshot {
    use super::{KeywordSet, Limit, READ};

    pub const TOOL_USE: &str = "https://platform.kimi.ai/docs/api/tool-use";
    pub const MFJS_SPEC: &str = "https://github.com/MoonshotAI/walle/blob/main/docs/mfjs-spec.md";
    pub const WALLE: &str = "https://github.com/MoonshotAI/walle/blob/main/docs/walle.md";

    /// Keywords MFJS does not support.
    pub const UNSUPPORTED: KeywordSet = KeywordSet {
        id: "moonshot-mfjs-unsupported-keywords",
        provider: "moonshot",
        lanes: &["moonshot"],
        what: "keywords Moonshot-flavoured JSON Schema does not support",
        items: &[
            "format",
            "$comment",
            "prefixItems",
            "unevaluatedItems",
            "minimum",
            "exclusiveMinimum",
            "maximum",
            "exclusiveMaximum",
            "minItems",
            "maxItems",
        ],
        closed: false,
        doc: MFJS_SPEC,
        read: READ,
    };

    /// The function-name pattern of the tool-use reference.
    pub const NAME_PATTERN: &str = "^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$";

    pub const TOOLS: Limit = Limit {
        id: "moonshot-tools",
        provider: "moonshot",
        lanes: &["moonshot"],
        what: "functions in one request",
        value: 128,
        doc: TOOL_USE,
        read: READ,
    };

    pub const NAME_LENGTH: Limit = Limit {
        id: "moonshot-function-name-length",
        provider: "moonshot",
        lanes: &["moonshot"],
        what: "characters of a function name (^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$)",
        value: 64,
        doc: TOOL_USE,
        read: READ,
    };

    pub const PROPERTIES: Limit = Limit {
        id: "moonshot-properties",
        provider: "moonshot",
        lanes: &["moonshot"],
        what: "object properties in total",
        value: 100,
        doc: WALLE,
        read: READ,
    };

    pub const NESTING: Limit = Limit {
        id: "moonshot-nesting",
        provider: "moonshot",
        lanes: &["moonshot"],
        what: "levels of nesting",
        value: 5,
        doc: WALLE,
        read: READ,
    };

    pub const ENUM_VALUES: Limit = Limit {
        id: "moonshot-enum-values",
        provider: "moonshot",
        lanes: &["moonshot"],
        what: "enum values in total",
        value: 500,
        doc: WALLE,
        read: READ,
    };
}

// ===========================================================================
// The tables.

/// Every documented keyword or value set.
pub static KEYWORD_SETS: &[&KeywordSet] = &[
    &openai::STRICT_FORMATS,
    &openai::STRICT_GENERAL,
    &openai::STRICT_STRING,
    &openai::STRICT_NUMBER,
    &openai::STRICT_OBJECT,
    &openai::STRICT_ARRAY,
    &openai::STRICT_REJECTED,
    &anthropic::STRICT_FORMATS,
    &anthropic::STRICT_UNSUPPORTED,
    &gemini::SCHEMA_FIELDS,
    &gemini::SCHEMA_FIELD_ALIASES,
    &gemini::STRING_FORMATS,
    &deepseek::STRICT_FORMATS,
    &deepseek::STRICT_UNSUPPORTED,
    &bedrock::STRICT_FORMATS,
    &xai::ENFORCED_FORMATS,
    &cerebras::STRICT_UNSUPPORTED,
    &moonshot::UNSUPPORTED,
];

/// Every documented limit.
pub static LIMITS: &[&Limit] = &[
    &openai::STRICT_PROPERTIES,
    &openai::STRICT_NESTING,
    &openai::STRICT_STRING_BUDGET,
    &openai::STRICT_ENUM_VALUES,
    &openai::STRICT_LARGE_ENUM,
    &openai::STRICT_ENUM_STRING_BUDGET,
    &openai::NAME_LENGTH,
    &openai::CHAT_TOOLS,
    &anthropic::STRICT_TOOLS,
    &anthropic::STRICT_OPTIONAL,
    &anthropic::STRICT_UNIONS,
    &anthropic::STRICT_MIN_ITEMS_MAX,
    &anthropic::NAME_LENGTH,
    &gemini::NAME_LENGTH,
    &gemini::PARAMETER_NAME_LENGTH,
    &bedrock::NAME_LENGTH,
    &xai::MAX_LENGTH_CEILING,
    &xai::MAX_ITEMS_CEILING,
    &xai::MAX_PROPERTIES_CEILING,
    &cerebras::STRICT_STRING_BUDGET,
    &cerebras::STRICT_NESTING,
    &cerebras::STRICT_PROPERTIES,
    &cerebras::STRICT_ENUM_VALUES,
    &moonshot::TOOLS,
    &moonshot::NAME_LENGTH,
    &moonshot::PROPERTIES,
    &moonshot::NESTING,
    &moonshot::ENUM_VALUES,
];

const OPENAI_STRICT: &[&str] = openai::STRICT_LANES;

/// What the documentation leaves open, per provider, for the probe work.
pub static OPEN_QUESTIONS: &[OpenQuestion] = &[
    OpenQuestion {
        id: "openai-strict-min-max-length",
        provider: "openai",
        lanes: OPENAI_STRICT,
        question: "Does strict mode on base models accept minLength / maxLength?",
        known: "The supported string list names only pattern and format, yet the fine-tuned list says fine-tuned models 'additionally' lack minLength/maxLength, implying base models accept them. Rejected with 'is not permitted' until 2025-05 (rule openai-strict-minimum-not-permitted).",
        docs: &[openai::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "openai-strict-pattern-properties",
        provider: "openai",
        lanes: OPENAI_STRICT,
        question: "Do base models accept patternProperties under strict?",
        known: "Not in the supported object list and named unsupported at launch (the rule openai-strict-keyword-not-permitted follows that), but the fine-tuned list says fine-tuned models 'additionally' lack it, implying base models accept it.",
        docs: &[openai::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "openai-strict-const-default",
        provider: "openai",
        lanes: OPENAI_STRICT,
        question: "Are const and default accepted inside a strict schema (api.openai.com)?",
        known: "const appears only in the string-budget sentence ('const values'); default is not mentioned. Azure rejects a non-null property default (rule azure-openai-strict-default-not-permitted); maintainers report api.openai.com accepts it.",
        docs: &[openai::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "openai-strict-annotations",
        provider: "openai",
        lanes: OPENAI_STRICT,
        question: "Are annotations (title, examples, $comment, deprecated, readOnly, …) and non-standard keys accepted under strict?",
        known: "The guide lists no annotation but description; no recording rejects title or examples.",
        docs: &[openai::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "openai-strict-root-dollar-schema",
        provider: "openai",
        lanes: OPENAI_STRICT,
        question: "Is a root $schema (or $id) accepted under strict?",
        known: "Not documented; a non-URI $id is rejected as 'is not a uri-reference' (griptape#2150, 2026-04-16), which says nothing about a valid one.",
        docs: &[openai::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "openai-strict-format-on-numbers",
        provider: "openai",
        lanes: OPENAI_STRICT,
        question: "Is format on a number or integer (int32, int64, float, double) accepted under strict?",
        known: "The format list is given for strings only; the rule openai-strict-format-unsupported leaves nodes typed only number/integer alone.",
        docs: &[openai::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "openai-chat-strict-lookaround",
        provider: "openai",
        lanes: &["openai-chat", "openai-strict"],
        question: "Does strict Chat Completions reject a lookaround pattern as Responses does?",
        known: "Recorded on Responses only (rule openai-pattern-lookaround, from 2026-05-29); the regex subset of pattern is not documented.",
        docs: &[openai::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "openai-responses-tool-count",
        provider: "openai",
        lanes: &["openai-responses"],
        question: "How many function tools does the Responses API accept?",
        known: "128 is documented for Chat Completions tools only.",
        docs: &[openai::CHAT_REFERENCE],
        read: READ,
    },
    OpenQuestion {
        id: "openai-responses-omitted-strict",
        provider: "openai",
        lanes: &["openai-responses"],
        question: "With strict omitted, does Responses normalize the schema or fall back to non-strict?",
        known: "Two wordings of the function-calling guide disagree (normalize vs fall back with strict: false).",
        docs: &[openai::FUNCTION_CALLING],
        read: READ,
    },
    OpenQuestion {
        id: "openai-strict-nesting-arrays",
        provider: "openai",
        lanes: OPENAI_STRICT,
        question: "Does the 10-level nesting limit count arrays, or objects only?",
        known: "The guide says 'levels of nesting'; the rule counts object levels.",
        docs: &[openai::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "openai-description-length",
        provider: "openai",
        lanes: OPENAI_STRICT,
        question: "Is there a limit on function description length?",
        known: "Not documented.",
        docs: &[openai::CHAT_REFERENCE],
        read: READ,
    },
    OpenQuestion {
        id: "anthropic-non-strict-keywords",
        provider: "anthropic",
        lanes: &["anthropic-messages"],
        question: "Which keywords does a non-strict input_schema accept, and which draft applies?",
        known: "Documented only as 'a JSON Schema object'; rejections cite draft 2020-12.",
        docs: &[anthropic::DEFINE_TOOLS],
        read: READ,
    },
    OpenQuestion {
        id: "anthropic-limits",
        provider: "anthropic",
        lanes: &["anthropic-messages"],
        question: "Nesting, enum-count, description-length and tool-count limits; the grammar-size ceiling?",
        known: "Not documented; the grammar ceiling is model-dependent ('Schema is too complex for compilation').",
        docs: &[anthropic::JSON_SCHEMA_LIMITATIONS],
        read: READ,
    },
    OpenQuestion {
        id: "gemini-format-values",
        provider: "gemini",
        lanes: &["gemini-openapi"],
        question: "Are STRING format values beyond enum and date-time rejected or ignored today?",
        known: "Older reference text and Firebase: only enum / date-time, otherwise requests fail (recorded 2025-07-03, rule gemini-string-format-enum-datetime-only); the newer Schema reference: 'Any value is allowed'. The recording wins until a probe says otherwise.",
        docs: &[gemini::SCHEMA, gemini::FIREBASE_SCHEMA],
        read: READ,
    },
    OpenQuestion {
        id: "gemini-json-schema-subset",
        provider: "gemini",
        lanes: &["gemini-jsonschema"],
        question: "Which keywords does parametersJsonSchema accept, and are unknown ones rejected or ignored?",
        known: "Not documented for parametersJsonSchema; responseJsonSchema lists a subset and the structured-output guide says unsupported properties are ignored.",
        docs: &[gemini::SCHEMA],
        read: READ,
    },
    OpenQuestion {
        id: "gemini-declaration-count",
        provider: "gemini",
        lanes: &["gemini-openapi", "gemini-jsonschema"],
        question: "How many function declarations does one request accept (64 or 128)? Enum, size and depth ceilings?",
        known: "Gemini API: not documented. Vertex: 'Maximum 64' (older) vs 128 (newer). Large enums (~100-260 values) reported as 400 'complexity'.",
        docs: &[gemini::FUNCTION_DECLARATION],
        read: READ,
    },
    OpenQuestion {
        id: "gemini-name-length",
        provider: "gemini",
        lanes: &["gemini-openapi", "gemini-jsonschema"],
        question: "Is the function-name limit 64 or 128 characters today?",
        known: "Reference text says 64; the newest discovery text (SDK comments only) says 128.",
        docs: &[gemini::FUNCTION_DECLARATION],
        read: READ,
    },
    OpenQuestion {
        id: "deepseek-limits",
        provider: "deepseek",
        lanes: &["deepseek-chat", "deepseek-strict"],
        question: "Schema size, nesting, enum-count, tool-count and name-pattern limits?",
        known: "None documented.",
        docs: &[deepseek::STRICT_MODE],
        read: READ,
    },
    OpenQuestion {
        id: "deepseek-strict-keywords",
        provider: "deepseek",
        lanes: &["deepseek-strict"],
        question: "Are allOf, oneOf, not, patternProperties and const on strings accepted under strict? $def or $defs?",
        known: "Only minLength/maxLength/minItems/maxItems are documented as unsupported; the guide spells $def.",
        docs: &[deepseek::STRICT_MODE],
        read: READ,
    },
    OpenQuestion {
        id: "bedrock-strict-limits",
        provider: "bedrock",
        lanes: &["bedrock-converse"],
        question: "Do Anthropic's strict limits (20 tools, 24 optional, 16 unions) apply on Converse? Non-Claude models?",
        known: "Not stated on Bedrock pages.",
        docs: &[bedrock::STRUCTURED_OUTPUT],
        read: READ,
    },
    OpenQuestion {
        id: "mistral-subset",
        provider: "mistral",
        lanes: &["mistral"],
        question: "Is any keyword subset documented, and what does strict mean on tools?",
        known: "No subset found; $id/$schema reported as grammar errors (litellm#13389, 2025-08-07).",
        docs: &["https://docs.mistral.ai/capabilities/function_calling"],
        read: READ,
    },
    OpenQuestion {
        id: "groq-tool-strict",
        provider: "groq",
        lanes: &["groq"],
        question: "Do tool definitions honour strict; which keywords, formats and limits apply?",
        known: "Structured Outputs documents a strict subset for response_format only; tools: 'a JSON Schema object'.",
        docs: &["https://console.groq.com/docs/structured-outputs"],
        read: READ,
    },
    OpenQuestion {
        id: "xai-tool-limits",
        provider: "xai",
        lanes: &["xai"],
        question: "Tool count and name rules; does additionalProperties default to false for tools?",
        known: "Not documented beyond the structured-outputs page.",
        docs: &[xai::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "cerebras-doc-version",
        provider: "cerebras",
        lanes: &["cerebras"],
        question: "Which version of the strict-mode page is live (optional fields allowed? anyOf capped at 5?)",
        known: "Two versions disagree; the tool-use page was not found.",
        docs: &[cerebras::STRUCTURED_OUTPUTS],
        read: READ,
    },
    OpenQuestion {
        id: "ollama-keywords",
        provider: "ollama",
        lanes: &["ollama"],
        question: "Which keywords survive in current releases; are type arrays accepted; any name or count limits?",
        known: "Not documented; type arrays were a 400 in 2025-02 (ellmer#342).",
        docs: &["https://github.com/ollama/ollama/blob/main/docs/api.md"],
        read: READ,
    },
    OpenQuestion {
        id: "moonshot-enforcement",
        provider: "moonshot",
        lanes: &["moonshot"],
        question: "Are the MFJS structural rules (type beside anyOf, #/$defs/ refs, title, min/max keywords) enforced on the official endpoint?",
        known: "The spec and the validator notes disagree (title, min/max); reports conflict on enforcement.",
        docs: &[moonshot::MFJS_SPEC, moonshot::WALLE],
        read: READ,
    },
];

/// The open question with this id.
#[must_use]
pub fn open_question(id: &str) -> Option<&'static OpenQuestion> {
    OPEN_QUESTIONS.iter().find(|q| q.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fact_has_an_https_doc_and_the_read_date() {
        for s in KEYWORD_SETS {
            assert!(s.doc.starts_with("https://"), "{}", s.id);
            assert_eq!(s.read, "2026-12-01", "{}", s.id);
            assert!(!s.items.is_empty(), "{}", s.id);
        }
        for l in LIMITS {
            assert!(l.doc.starts_with("https://"), "{}", l.id);
            assert_eq!(l.read, "2026-12-01", "{}", l.id);
        }
        for q in OPEN_QUESTIONS {
            assert!(q.docs.iter().all(|d| d.starts_with("https://")), "{}", q.id);
            assert_eq!(q.read, "2026-12-01", "{}", q.id);
        }
    }

    #[test]
    fn facts_import_nothing_from_the_crate() {
        // The bottom layer: passes and rules read it, it reads neither.
        let source = include_str!("facts.rs");
        let code = &source[..source.find("#[cfg(test)]").unwrap()];
        for needle in [["cra", "te::"].concat(), ["use ", "std"].concat()] {
            assert!(!code.contains(&needle), "facts.rs mentions {needle}");
        }
    }

    #[test]
    fn fact_ids_are_unique() {
        let mut ids: Vec<&str> = KEYWORD_SETS
            .iter()
            .map(|s| s.id)
            .chain(LIMITS.iter().map(|l| l.id))
            .chain(OPEN_QUESTIONS.iter().map(|q| q.id))
            .collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n);
    }

    #[test]
    fn openai_strict_formats_are_the_nine_documented_ones_without_uri() {
        assert_eq!(
            openai::STRICT_FORMATS.items,
            [
                "date-time",
                "time",
                "date",
                "duration",
                "email",
                "hostname",
                "ipv4",
                "ipv6",
                "uuid"
            ]
        );
        assert!(anthropic::STRICT_FORMATS.items.contains(&"uri"));
    }

    #[test]
    fn openai_rejected_keywords_overlap_no_supported_list_and_no_open_question() {
        for set in [
            &openai::STRICT_GENERAL,
            &openai::STRICT_STRING,
            &openai::STRICT_NUMBER,
            &openai::STRICT_OBJECT,
            &openai::STRICT_ARRAY,
        ] {
            for k in set.items {
                assert!(!openai::STRICT_REJECTED.items.contains(k), "{k}");
            }
        }
        for k in [
            "minLength",
            "maxLength",
            "const",
            "default",
            "title",
            "$schema",
        ] {
            assert!(!openai::STRICT_REJECTED.items.contains(&k), "{k}");
        }
    }

    #[test]
    fn gemini_schema_has_22_fields_and_an_alias_for_every_multi_word_one() {
        assert_eq!(gemini::SCHEMA_FIELDS.items.len(), 22);
        let multi: Vec<&str> = gemini::SCHEMA_FIELDS
            .items
            .iter()
            .copied()
            .filter(|f| f.chars().any(|c| c.is_ascii_uppercase()))
            .collect();
        assert_eq!(multi.len(), gemini::SCHEMA_FIELD_ALIASES.items.len());
    }

    #[test]
    fn open_questions_are_found_by_id() {
        assert_eq!(
            open_question("openai-strict-min-max-length").map(|q| q.provider),
            Some("openai")
        );
        assert!(open_question("no-such-question").is_none());
    }
}
