//! Anthropic: strict tool use / structured outputs.

use super::types::{KeywordSet, Limit, READ};

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

/// Array constraints strict mode does not support (`minItems` 0 or 1 is
/// the only array constraint it keeps; `STRICT_MIN_ITEMS_MAX`). The page
/// lists array constraints beyond that among the unsupported features;
/// `maxItems` (experientiallabs/experiential#804, api.anthropic.com,
/// 2026-09-05) and `uniqueItems` (BerriAI/litellm#33981) were answered
/// with a 400 naming them.
pub const STRICT_ARRAY_UNSUPPORTED: KeywordSet = KeywordSet {
    id: "anthropic-strict-unsupported-array-constraints",
    provider: "anthropic",
    lanes: LANES,
    what: "array constraints other than minItems under strict",
    items: &["maxItems", "uniqueItems"],
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
