//! The `mcp` format: `tools/list` tool objects, whose schema is `inputSchema`.

use super::raw::SchemaKey;

pub(super) const MCP_KEY: SchemaKey = SchemaKey {
    keys: &["inputSchema"],
    optional: false,
    strict: false,
    lenient: false,
};
