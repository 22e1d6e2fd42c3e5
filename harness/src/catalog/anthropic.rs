//! The `anthropic` format (custom tools, `input_schema`) and the
//! `shared-corpus` format, which spells its tools the Anthropic way.

use super::raw::SchemaKey;

/// Anthropic custom tools. `inputSchema` (the Converse/MCP spelling, which
/// the Messages endpoint refuses: recording
/// `anthropic-bedrock-invoke-input-schema-key-549`) is read as the schema
/// and renders as `input_schema`; a tool with neither (recording
/// `anthropic-input-schema-missing-1`) is read as the typeless `{}`.
pub(super) const ANTHROPIC_KEY: SchemaKey = SchemaKey {
    keys: &["input_schema", "inputSchema"],
    optional: false,
    strict: true,
    lenient: true,
};

pub(super) const SHARED_KEY: SchemaKey = SchemaKey {
    keys: &["input_schema"],
    optional: false,
    // A catalog may pin the tool's `strict` flag (the project's fixtures do).
    strict: true,
    lenient: false,
};
