//! Cerebras: the documented strict-mode subset.

use super::types::{KeywordSet, Limit, READ};

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
