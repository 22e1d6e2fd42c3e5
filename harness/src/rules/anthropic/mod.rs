//! Anthropic Messages (first party): recorded and documented rejections of
//! custom tools (`name`, `input_schema`) and of strict (grammar-compiled)
//! schemas. Messages quote the recorded bodies (`tools.N.custom.…`) with the
//! tool index of the request.
//!
//! Rules, recorded:
//! - `anthropic-root-composition`: `oneOf`/`anyOf`/`allOf` at the root of
//!   `input_schema` (also on `openai-chat`: recorded through OpenRouter's
//!   chat wire, which passes Anthropic's message through unchanged).
//! - `anthropic-tool-name-pattern`, `anthropic-tool-name-length`: the name
//!   alphabet and its length (64 → 128 on 2025-07-01).
//! - `anthropic-input-schema-missing`: a custom tool without `input_schema`.
//! - `anthropic-bedrock-invoke-input-schema-key`: a custom tool that spells
//!   it `inputSchema` (the Bedrock Converse key) instead of `input_schema`.
//! - `anthropic-input-schema-type-required`: `input_schema` without `type`.
//! - `anthropic-json-schema-invalid-2020-12`: not a valid draft 2020-12 schema.
//! - `anthropic-property-key-pattern`: a root property name outside
//!   `^[a-zA-Z0-9_.-]{1,64}$`.
//! - `anthropic-strict-minitems-0-or-1`: strict, `minItems` other than 0 or 1.
//! - `anthropic-strict-array-constraints`: strict, `maxItems` or
//!   `uniqueItems` on an array schema (`For 'array' type, property
//!   'maxItems' is not supported`).
//! - `anthropic-strict-schema-too-complex`: strict, more than 20 strict tools
//!   or more than 24 optional properties in all strict schemas together (an
//!   approximation with the thresholds reported alongside the recording).
//!
//! Rules, documented only (their messages are ours, in the provider's
//! location style; no provider text was recorded):
//! - `anthropic-strict-union-types-limit`: more than 16 union-typed
//!   properties across strict schemas (only the message prefix is quoted).
//! - `anthropic-strict-recursive-schema`, `anthropic-strict-external-ref`,
//!   `anthropic-strict-pattern-unsupported` (lookaround, backreference),
//!   `anthropic-strict-format-unsupported`.
//!
//! Strict rules see strict tools (`strict: true`) and the request's
//! `output_config.format` (passed as `response_format` on this lane).
//!
//! `anthropic-strict-additionalproperties-false` and
//! `anthropic-strict-numeric-bounds` (recorded through Bedrock Converse,
//! documented for Messages and quoted from it) live in `bedrock.rs` and
//! judge this lane's strict tools too (see `bedrock.rs`).
//! Formats and limits come from the provider-facts table
//! (`facts::anthropic`).
//!
//! Left out: `anthropic-strict-grammar-too-large` (the
//! ceiling is undocumented and model-dependent, nothing in a request gives
//! it); `strict` on `computer_toolset`/`browser_toolset` entries (server
//! tools the lanes never render).
//!
//! Layout: this file holds the rule table; `tools.rs` the rules on custom
//! tools and their schemas, `strict.rs` the strict-mode rules, `tests.rs`
//! the unit tests.

mod strict;
#[cfg(test)]
mod tests;
mod tools;

use super::model::{Rule, Status};
use crate::lane::Lane;
pub(crate) use strict::unsupported_properties;
use strict::{
    strict_array_constraints, strict_external_ref, strict_format_unsupported, strict_min_items,
    strict_pattern_unsupported, strict_recursive_schema, strict_schema_too_complex,
    strict_union_types_limit,
};
use tools::{
    bedrock_invoke_input_schema_key, input_schema_missing, input_schema_type_required,
    json_schema_invalid, property_key_pattern, root_composition, tool_name_length,
    tool_name_pattern,
};

const MESSAGES: &[Lane] = &[Lane::AnthropicMessages];
/// Root composition is also recorded through OpenRouter's chat wire
/// (Roo-Code PR #10726), where Anthropic's validator speaks unchanged.
const MESSAGES_AND_CHAT: &[Lane] = &[Lane::AnthropicMessages, Lane::OpenaiChat];

const DEFINE_TOOLS: &str =
    "https://platform.claude.com/docs/agents-and-tools/tool-use/define-tools";
const JSON_SCHEMA_LIMITATIONS: &str = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations";
const STRICT_TOOL_USE: &str =
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use";

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "anthropic-root-composition",
        lanes: MESSAGES_AND_CHAT,
        status: Status::Recorded,
        summary: "oneOf/anyOf/allOf at the root of input_schema",
        docs: &[],
        first_seen: Some("2025-08-07"),
        last_seen: Some("2026-05-26"),
        read: None,
        status_code: 400,
        check: root_composition,
    },
    Rule {
        id: "anthropic-tool-name-pattern",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "tool name must match ^[a-zA-Z0-9_-]{1,128}$ ({1,64} before 2025-07-01)",
        docs: &[DEFINE_TOOLS],
        first_seen: Some("2025-03-07"),
        last_seen: Some("2025-03-07"),
        read: None,
        status_code: 400,
        check: tool_name_pattern,
    },
    Rule {
        id: "anthropic-tool-name-length",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "tool name longer than 128 characters (its own message since the 128 limit)",
        docs: &[DEFINE_TOOLS],
        first_seen: Some("2026-09-22"),
        last_seen: Some("2026-09-22"),
        read: None,
        status_code: 400,
        check: tool_name_length,
    },
    Rule {
        id: "anthropic-input-schema-missing",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "custom tool without input_schema",
        docs: &[DEFINE_TOOLS],
        first_seen: Some("2026-01-23"),
        last_seen: Some("2026-01-23"),
        read: None,
        status_code: 400,
        check: input_schema_missing,
    },
    Rule {
        id: "anthropic-bedrock-invoke-input-schema-key",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "custom tool whose schema sits under the Converse key inputSchema, not input_schema (seen on Bedrock InvokeModel)",
        docs: &[],
        first_seen: Some("2025-08-06"),
        last_seen: Some("2025-08-06"),
        read: None,
        status_code: 400,
        check: bedrock_invoke_input_schema_key,
    },
    Rule {
        id: "anthropic-input-schema-type-required",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "input_schema without a top-level type",
        docs: &[DEFINE_TOOLS],
        first_seen: Some("2026-07-09"),
        last_seen: Some("2026-07-09"),
        read: None,
        status_code: 400,
        check: input_schema_type_required,
    },
    Rule {
        id: "anthropic-json-schema-invalid-2020-12",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "input_schema is not a valid JSON Schema draft 2020-12 document",
        docs: &[],
        first_seen: Some("2025-04-05"),
        last_seen: Some("2025-12-20"),
        read: None,
        status_code: 400,
        check: json_schema_invalid,
    },
    Rule {
        id: "anthropic-property-key-pattern",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "a root property name outside ^[a-zA-Z0-9_.-]{1,64}$",
        docs: &[],
        first_seen: Some("2026-03-31"),
        last_seen: Some("2026-03-31"),
        read: None,
        status_code: 400,
        check: property_key_pattern,
    },
    Rule {
        id: "anthropic-strict-minitems-0-or-1",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "strict: minItems other than 0 or 1",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: Some("2026-05-01"),
        last_seen: Some("2026-05-01"),
        read: None,
        status_code: 400,
        check: strict_min_items,
    },
    Rule {
        id: "anthropic-strict-array-constraints",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "strict: maxItems or uniqueItems on an array schema",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: Some("2026-05-19"),
        last_seen: Some("2026-09-05"),
        read: None,
        status_code: 400,
        check: strict_array_constraints,
    },
    Rule {
        id: "anthropic-strict-schema-too-complex",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "strict: more than 20 strict tools or more than 24 optional properties across strict schemas (approximation of the compiler's budget)",
        docs: &[JSON_SCHEMA_LIMITATIONS, STRICT_TOOL_USE],
        first_seen: Some("2026-05-04"),
        last_seen: Some("2026-05-04"),
        read: None,
        status_code: 400,
        check: strict_schema_too_complex,
    },
    Rule {
        id: "anthropic-strict-union-types-limit",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: more than 16 union-typed properties (anyOf or a type list) across strict schemas",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: Some(crate::facts::READ),
        status_code: 400,
        check: strict_union_types_limit,
    },
    Rule {
        id: "anthropic-strict-recursive-schema",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: a $ref that (transitively) refers back to itself",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: None,
        status_code: 400,
        check: strict_recursive_schema,
    },
    Rule {
        id: "anthropic-strict-external-ref",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: a $ref outside the schema (not starting with #)",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: None,
        status_code: 400,
        check: strict_external_ref,
    },
    Rule {
        id: "anthropic-strict-pattern-unsupported",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: a pattern with lookaround or a backreference",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: None,
        status_code: 400,
        check: strict_pattern_unsupported,
    },
    Rule {
        id: "anthropic-strict-format-unsupported",
        lanes: MESSAGES,
        status: Status::Documented,
        summary: "strict: a string format outside date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid",
        docs: &[JSON_SCHEMA_LIMITATIONS],
        first_seen: None,
        last_seen: None,
        read: Some(crate::facts::READ),
        status_code: 400,
        check: strict_format_unsupported,
    },
];
