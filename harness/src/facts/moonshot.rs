//! Moonshot (Kimi): the documented tool-use subset (MFJS).

use super::types::{KeywordSet, Limit, READ};

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
