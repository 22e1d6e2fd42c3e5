//! AWS Bedrock Converse.

use super::types::{KeywordSet, Limit, READ};

pub const TOOL_SPECIFICATION: &str =
    "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html";
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
