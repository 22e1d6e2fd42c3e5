//! xAI: the documented Structured Outputs subset (enforced formats and the
//! ceilings of the length, item and property keywords).

use super::types::{KeywordSet, Limit, READ};

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
