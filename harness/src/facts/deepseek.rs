//! DeepSeek: strict function calling (beta).

use super::types::{KeywordSet, READ};

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
