//! OpenAI (Chat Completions, Structured Outputs, Responses; also Azure
//! OpenAI and gateways relaying OpenAI's body): recorded and documented
//! rejections of function tools and strict schemas.
//!
//! Messages are OpenAI's validator text: `Invalid schema for function
//! 'NAME': In context=(…), …` with the context as a Python tuple of the
//! path inside the schema, `Invalid schema for response_format 'NAME': …`
//! for a strict `response_format`, `Invalid 'tools[0].function.name': …`
//! for names.
//!
//! Rules, recorded:
//! - `openai-object-schema-missing-properties`: the root is `type: object`
//!   without `properties` (nested ones pass, prism-php/prism PR #746).
//! - `openai-array-schema-missing-items`: any `type: array` without `items`.
//! - `openai-root-composition`: `oneOf`/`anyOf`/`allOf`/`enum`/`not` (and,
//!   from 2026-08-12, `const`) at the root; on Responses the unions pass
//!   from 2026-08-29 (GPT-5 family).
//! - `openai-required-null`: `required` not an array, or a name map
//!   (`properties`, `$defs`, …) not an object (metaschema wording).
//! - `openai-subschema-not-object`: a schema position holding something
//!   other than an object or a boolean.
//! - `openai-pattern-lookaround` (Responses, from 2026-05-29): a `pattern`
//!   with lookahead or lookbehind.
//! - `openai-tool-name-pattern`: a function name outside `^[a-zA-Z0-9_-]+$`.
//! - `openai-empty-tools-array` (Chat Completions): `"tools": []` (an absent
//!   `tools` member is a request without tools, and accepted).
//! - strict (`strict: true` tools and strict `response_format`):
//!   `openai-strict-additionalproperties-false`,
//!   `openai-strict-required-all-keys`, `openai-strict-minimum-not-permitted`
//!   (length, range, count, pattern and format keywords, until 2025-05-15).
//! - `openai-strict-subschema-missing-type`: a subschema other than the
//!   root with no `type` key (`{}`, a description-only property,
//!   `items: {}`) and no `anyOf`, `$ref`, `enum` or `const` standing in
//!   for one (`schema must have a 'type' key.`).
//! - `openai-strict-ref-siblings`: a `$ref` beside any other keyword
//!   (`$ref cannot have keywords {'description'}`; a root's `$defs` not
//!   counted).
//! - `azure-openai-strict-default-not-permitted` (`openai-strict` only): a
//!   property with a non-null `default`. Azure only; api.openai.com accepts
//!   it, so this lane is the stricter of the two.
//!
//! Rules, documented only, built from the provider-facts table
//! (`facts::openai`, read 2026-12-01; message wording of the limits follows
//! the one observed for nesting, ellmer#671; the others are ours unless
//! noted):
//! `openai-tool-name-length` (64), `openai-strict-nesting-limit`,
//! `openai-strict-property-count-limit`, `openai-strict-enum-count-limit`,
//! `openai-strict-string-budget-limit` (120,000 characters of property
//! names, definition names, enum and const values),
//! `openai-strict-enum-string-budget-limit` (15,000 characters for a string
//! enum of more than 250 values), `openai-tool-count-limit` (128 tools,
//! Chat Completions; OpenAI's `array too long` wording),
//! `openai-strict-keyword-not-permitted` (the documented unsupported
//! keywords, in the wording public reports quote: `'allOf' is not
//! permitted.`), `openai-strict-format-unsupported` (formats outside the
//! nine documented ones: `'uri' is not a valid format.`, as quoted).
//!
//! Open questions (`facts::OPEN_QUESTIONS`, no rule either way):
//! `minLength`/`maxLength` on base models, `const`/`default` on
//! api.openai.com, annotations (`title`, `examples`, …), a root `$schema`,
//! `format` on numbers, lookaround on strict Chat, the Responses tool count.
//!
//! Left out: the fine-tuned-model keyword limits (the request does not name
//! the model), and a typeless root (`got 'type: "None"'`: no recording, no
//! rule id).
//!
//! Layout: this file holds the rule table; `target.rs` what the rules look
//! at (the validated schemas, paths as OpenAI prints them), `checks.rs` the
//! non-strict rules, `strict.rs` the strict-mode rules, `limits.rs` the
//! documented size limits, `tests.rs` the unit tests.

mod checks;
mod limits;
mod strict;
mod target;
#[cfg(test)]
mod tests;

use super::model::{Rule, Status};
use crate::facts::{self, openai as fact};
use crate::lane::Lane;
use checks::{
    array_missing_items, empty_tools_array, object_missing_properties, pattern_lookaround,
    required_null, root_composition, subschema_not_object, tool_name_length, tool_name_pattern,
};
use limits::{
    strict_enum_count_limit, strict_enum_string_budget_limit, strict_nesting_limit,
    strict_property_count_limit, strict_string_budget_limit, tool_count_limit,
};
use strict::{
    azure_default_not_permitted, strict_additional_properties, strict_format_unsupported,
    strict_keyword_not_permitted, strict_ref_siblings, strict_required_all_keys,
    strict_subschema_missing_type, strict_unsupported_keyword,
};

const CHAT: &[Lane] = &[Lane::OpenaiChat, Lane::OpenaiStrict];
const ALL: &[Lane] = &[Lane::OpenaiChat, Lane::OpenaiStrict, Lane::OpenaiResponses];
const RESPONSES: &[Lane] = &[Lane::OpenaiResponses];
const AZURE_STRICT: &[Lane] = &[Lane::OpenaiStrict];

const STRUCTURED_OUTPUTS: &str = fact::STRUCTURED_OUTPUTS;
const FUNCTION_REFERENCE: &str = fact::CHAT_REFERENCE;

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "openai-object-schema-missing-properties",
        lanes: ALL,
        status: Status::Recorded,
        summary: "root type: object without properties (use \"properties\": {} for no arguments)",
        docs: &[FUNCTION_REFERENCE],
        first_seen: Some("2025-05-06"),
        last_seen: Some("2025-08-10"),
        read: None,
        status_code: 400,
        check: object_missing_properties,
    },
    Rule {
        id: "openai-array-schema-missing-items",
        lanes: ALL,
        status: Status::Recorded,
        summary: "type: array without items, at any depth",
        docs: &[],
        first_seen: Some("2024-07-01"),
        last_seen: Some("2024-07-01"),
        read: None,
        status_code: 400,
        check: array_missing_items,
    },
    Rule {
        id: "openai-root-composition",
        lanes: ALL,
        status: Status::Recorded,
        summary: "oneOf/anyOf/allOf/enum/const/not at the root (Responses accepts the unions from 2026-08-29)",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: Some("2025-07-03"),
        last_seen: Some("2026-08-12"),
        read: None,
        status_code: 400,
        check: root_composition,
    },
    Rule {
        id: "openai-required-null",
        lanes: ALL,
        status: Status::Recorded,
        summary: "required that is not an array, or a name map (properties, $defs, …) that is not an object",
        docs: &[],
        first_seen: Some("2024-07-17"),
        last_seen: Some("2024-07-17"),
        read: None,
        status_code: 400,
        check: required_null,
    },
    Rule {
        id: "openai-subschema-not-object",
        lanes: ALL,
        status: Status::Recorded,
        summary: "a schema position holding neither an object nor a boolean (e.g. [] from PHP)",
        docs: &[],
        first_seen: Some("2025-06-11"),
        last_seen: Some("2025-06-11"),
        read: None,
        status_code: 400,
        check: subschema_not_object,
    },
    Rule {
        id: "openai-pattern-lookaround",
        lanes: RESPONSES,
        status: Status::Recorded,
        summary: "a pattern with lookahead or lookbehind (400 from 2026-05-29)",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: Some("2026-05-29"),
        last_seen: Some("2026-05-29"),
        read: None,
        status_code: 400,
        check: pattern_lookaround,
    },
    Rule {
        id: "openai-tool-name-pattern",
        lanes: ALL,
        status: Status::Recorded,
        summary: "function name outside ^[a-zA-Z0-9_-]+$",
        docs: &[FUNCTION_REFERENCE],
        first_seen: Some("2025-06-09"),
        last_seen: Some("2025-06-09"),
        read: None,
        status_code: 400,
        check: tool_name_pattern,
    },
    Rule {
        id: "openai-tool-name-length",
        lanes: ALL,
        status: Status::Documented,
        summary: "function name longer than 64 characters",
        docs: &[FUNCTION_REFERENCE],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: tool_name_length,
    },
    Rule {
        id: "openai-empty-tools-array",
        lanes: CHAT,
        status: Status::Recorded,
        summary: "tools sent as an empty array (omit it instead)",
        docs: &[],
        first_seen: Some("2024-02-11"),
        last_seen: Some("2024-02-11"),
        read: None,
        status_code: 400,
        check: empty_tools_array,
    },
    Rule {
        id: "openai-strict-additionalproperties-false",
        lanes: ALL,
        status: Status::Recorded,
        summary: "strict: an object without additionalProperties: false",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: Some("2025-03-14"),
        last_seen: Some("2025-03-14"),
        read: None,
        status_code: 400,
        check: strict_additional_properties,
    },
    Rule {
        id: "openai-strict-required-all-keys",
        lanes: ALL,
        status: Status::Recorded,
        summary: "strict: required does not list every key of properties",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: Some("2025-05-13"),
        last_seen: Some("2025-05-13"),
        read: None,
        status_code: 400,
        check: strict_required_all_keys,
    },
    Rule {
        id: "openai-strict-minimum-not-permitted",
        lanes: ALL,
        status: Status::Recorded,
        summary: "strict: length, range, count, pattern and format keywords (rejected until 2025-05-15, later documented as supported)",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: Some("2025-04-07"),
        last_seen: Some("2025-04-07"),
        read: None,
        status_code: 400,
        check: strict_keyword_not_permitted,
    },
    Rule {
        id: "openai-strict-ref-siblings",
        lanes: ALL,
        status: Status::Recorded,
        summary: "strict: a $ref beside other keywords ({\"$ref\": …, \"description\": …}; $defs/definitions beside a root $ref not counted)",
        docs: &[],
        first_seen: Some("2026-08-16"),
        last_seen: Some("2026-08-16"),
        read: None,
        status_code: 400,
        check: strict_ref_siblings,
    },
    Rule {
        id: "openai-strict-subschema-missing-type",
        lanes: ALL,
        status: Status::Recorded,
        summary: "strict: a subschema without a type key ({}, a description-only property, items: {}; anyOf, $ref, enum and const nodes not counted)",
        docs: &[],
        first_seen: Some("2026-02-28"),
        last_seen: Some("2026-05-11"),
        read: None,
        status_code: 400,
        check: strict_subschema_missing_type,
    },
    Rule {
        id: "azure-openai-strict-default-not-permitted",
        lanes: AZURE_STRICT,
        status: Status::Recorded,
        summary: "strict: a property with a non-null default (Azure OpenAI; api.openai.com accepts it)",
        docs: &[],
        first_seen: Some("2026-08-13"),
        last_seen: Some("2026-08-13"),
        read: None,
        status_code: 400,
        check: azure_default_not_permitted,
    },
    Rule {
        id: "openai-strict-nesting-limit",
        lanes: ALL,
        status: Status::Documented,
        summary: "strict: more than 10 levels of object nesting (5 until 2025-07-17)",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_nesting_limit,
    },
    Rule {
        id: "openai-strict-property-count-limit",
        lanes: ALL,
        status: Status::Documented,
        summary: "strict: more than 5000 object properties in one schema (100 until 2025-07-17)",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_property_count_limit,
    },
    Rule {
        id: "openai-strict-enum-count-limit",
        lanes: ALL,
        status: Status::Documented,
        summary: "strict: more than 1000 enum values in one schema (500 until 2025-07-17)",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_enum_count_limit,
    },
    Rule {
        id: "openai-strict-keyword-not-permitted",
        lanes: ALL,
        status: Status::Documented,
        summary: "strict: a keyword outside the documented supported set (allOf, oneOf, not, if/then/else, dependentRequired, patternProperties, propertyNames, contains, prefixItems, uniqueItems, …)",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_unsupported_keyword,
    },
    Rule {
        id: "openai-strict-format-unsupported",
        lanes: ALL,
        status: Status::Documented,
        summary: "strict: a string format outside date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_format_unsupported,
    },
    Rule {
        id: "openai-strict-string-budget-limit",
        lanes: ALL,
        status: Status::Documented,
        summary: "strict: more than 120,000 characters of property names, definition names, enum and const values in one schema (15,000 until 2025-07-17)",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_string_budget_limit,
    },
    Rule {
        id: "openai-strict-enum-string-budget-limit",
        lanes: ALL,
        status: Status::Documented,
        summary: "strict: a string enum of more than 250 values whose values total more than 15,000 characters (7,500 until 2025-07-17)",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: strict_enum_string_budget_limit,
    },
    Rule {
        id: "openai-tool-count-limit",
        lanes: CHAT,
        status: Status::Documented,
        summary: "more than 128 tools in one Chat Completions request",
        docs: &[FUNCTION_REFERENCE],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: tool_count_limit,
    },
];
