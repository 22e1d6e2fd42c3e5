//! Gemini (Gemini API, Vertex AI, gemini-cli / Code Assist backends):
//! recorded and documented rejections of function declarations, on the
//! `parameters` wire (an OpenAPI 3.0 subset parsed into the `Schema` proto,
//! lane `gemini-openapi`) and the `parametersJsonSchema` wire (lane
//! `gemini-jsonschema`). Messages quote the recorded bodies with the
//! declaration index and the path of the request substituted; every
//! declaration sits in `tools[0].function_declarations[i]`.
//!
//! Gemini answers in two phases, and the rules follow them:
//!
//! 1. **Proto parsing** of `parameters` (`Invalid JSON payload received.
//!    Unknown name "…" at '…'` / `Invalid value at '…'`). Paths name map
//!    entries by position (`properties[3].value`) and fields in snake case
//!    (`any_of[0]`). Only proto positions are parsed: the root, `properties`
//!    values, object `items` and `anyOf` branches; a keyword the proto lacks
//!    is reported where it stands and its value is never entered.
//! 2. **Validation**, only when parsing succeeded (a parse error rejects the
//!    whole request first): `* GenerateContentRequest.…` lines naming map
//!    entries by key (`properties[x]`), and Vertex-style `Unable to submit
//!    request because `f` functionDeclaration `parameters.a.b` …` messages.
//!
//! Rules (proto parsing, `gemini-openapi`):
//! - `gemini-unknown-field-additionalproperties`: `additionalProperties`.
//! - `gemini-unknown-field-schema-keyword`: `$schema`.
//! - `gemini-unknown-field-const`: `const`.
//! - `gemini-unknown-field-exclusiveminimum`: `exclusiveMinimum` / `exclusiveMaximum`.
//! - `gemini-unknown-field-propertynames`: `propertyNames` / `patternProperties`.
//! - `gemini-unknown-field-title-examples-default-defs`: `examples` and `$defs`;
//!   `title` and `default` only as of 2024-09-26 or earlier (both are `Schema`
//!   fields today; the change date is unknown, so the rule follows the last
//!   recorded rejection).
//! - `gemini-type-not-repeating`: a `type` array.
//! - `gemini-type-invalid-value` (documented: the `Type` enum,
//!   `facts::gemini::TYPES`): a `type` string that names no `Type` (`""`,
//!   `date`, `any`). The message is the parser's as zereight/gitlab-mcp#166
//!   (2025-07-14) and agno-agi/agno#3298 quote it for `""`, in excerpts of
//!   client logs too partial to record.
//! - `gemini-property-schema-not-object`: a scalar where a `Schema` belongs.
//! - `gemini-enum-values-must-be-strings`: a non-string `enum` member.
//!
//! Rules (validation, `gemini-openapi`):
//! - `gemini-object-properties-non-empty`: OBJECT without properties.
//! - `gemini-array-items-required`: ARRAY without `items`.
//! - `gemini-enum-only-string-type`: `enum` on a non-STRING type other than
//!   OBJECT/ARRAY (those are `vertex-enum-with-object-or-array-type`).
//! - `gemini-string-format-enum-datetime-only`: STRING `format` other than
//!   `enum` / `date-time`.
//! - `gemini-type-required-without-combinator` and
//!   `vertex-schema-type-field-missing`: a nested schema without `type` and
//!   without `anyOf`/`oneOf`/`allOf`. The same construct gets the Gemini API's
//!   message and Vertex's; nothing in a request tells the backends apart, so
//!   both rules fire.
//! - `gemini-anyof-must-be-only-field`: `anyOf` with sibling keys.
//! - `vertex-enum-with-object-or-array-type`: `enum` on OBJECT / ARRAY.
//! - `vertex-parameters-type-object`: a `parameters` root not typed OBJECT.
//! - `gemini-parameter-name-pattern` (documented only; Vertex reference):
//!   top-level parameter names `^[A-Za-z_][A-Za-z0-9_]{0,63}$`. No rejection
//!   is recorded, so its message quotes the documentation.
//!
//! Rules on both wires:
//! - `gemini-function-name-pattern`: a letter or `_` first, then
//!   `[A-Za-z0-9_.-]` (and `:` as of 2026-03-03, the first message that lists
//!   colons), at most 64 characters.
//! - `gemini-maxitems-cumulative-budget`: the `maxItems` of one declaration
//!   sum past 960 (opaque `INVALID_ARGUMENT`).
//! - `gemini-parameters-json-schema-exclusive` (documented only):
//!   `parameters` and `parametersJsonSchema` on one declaration.
//! - `gemini-function-declarations-limit`: more than 512 declarations in
//!   one request (a finding about the request: the client must send fewer
//!   tools; v1 shapes each tool and drops none, a declared replay gap).
//!
//! Rules, documented only (`facts::gemini`, read 2026-12-01):
//! - `gemini-unknown-field-schema-proto`: any field the `Schema` proto does
//!   not have (`oneOf`, `allOf`, `not`, `$ref`, `if`, `uniqueItems`, …) and
//!   no recorded rule above names, in the parser's own words; the proto's
//!   snake_case field names (`max_items`, `property_ordering`, …) are
//!   accepted.
//!
//! Left out: `copilot-gemini-tool-name-required` (GitHub Copilot's own
//! gateway check, not Gemini's; no lane models that gateway); Gemini-style
//! rules on `parametersJsonSchema` other than the two above (that wire
//! takes full JSON Schema; its subset is an open question).
//!
//! Layout: this file holds the rule table; `parse.rs` phase 1 (proto
//! parsing), `validate.rs` phase 2 (validation), `declarations.rs` the
//! rules on both wires, `paths.rs` paths as Gemini prints them, `memo.rs`
//! the per-request memos, `tests.rs` the unit tests.

mod declarations;
mod memo;
mod parse;
mod paths;
#[cfg(test)]
mod tests;
mod validate;

pub(crate) use memo::request_memos;

use super::model::{Rule, Status};
use crate::facts::{self, gemini as fact};
use crate::lane::Lane;
use declarations::{
    function_declarations_limit, function_name_pattern, maxitems_cumulative_budget,
    parameters_json_schema_exclusive,
};
use parse::{
    enum_values_must_be_strings, property_schema_not_object, type_invalid_value,
    type_not_repeating, unknown_additional_properties, unknown_const, unknown_exclusive_bounds,
    unknown_property_names, unknown_schema_keyword, unknown_schema_proto_field,
    unknown_title_examples_default_defs,
};
use validate::{
    anyof_must_be_only_field, array_items_required, enum_only_string_type,
    enum_with_object_or_array_type, object_properties_non_empty, parameter_name_pattern,
    parameters_type_object, schema_type_field_missing, string_format_enum_datetime_only,
    type_required_without_combinator,
};

const OPENAPI: &[Lane] = &[Lane::GeminiOpenapi];
const BOTH: &[Lane] = &[Lane::GeminiOpenapi, Lane::GeminiJsonschema];

const FUNCTION_DECLARATION: &str =
    "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration";
const SCHEMA: &str = fact::SCHEMA;
const SCHEMA_MIRROR: &str = fact::SCHEMA_MIRROR;
const JSON_SCHEMA_DECLARATION: &str = "https://ai.google.dev/api/caching#FunctionDeclaration";
const UNKNOWN_FIELD_DOCS: &[&str] = &[FUNCTION_DECLARATION, SCHEMA, SCHEMA_MIRROR];

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "gemini-anyof-must-be-only-field",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "anyOf with sibling keys in the same schema node (Gemini 3 / Vertex)",
        docs: &[],
        first_seen: Some("2026-02-22"),
        last_seen: Some("2026-02-22"),
        read: None,
        status_code: 400,
        check: anyof_must_be_only_field,
    },
    Rule {
        id: "gemini-array-items-required",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "ARRAY schema without items",
        docs: &[SCHEMA],
        first_seen: Some("2026-03-11"),
        last_seen: Some("2026-03-11"),
        read: None,
        status_code: 400,
        check: array_items_required,
    },
    Rule {
        id: "gemini-enum-only-string-type",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "enum on a schema whose type is not STRING (OBJECT/ARRAY: see the Vertex rule)",
        docs: &[SCHEMA],
        first_seen: Some("2025-08-07"),
        last_seen: Some("2025-08-07"),
        read: None,
        status_code: 400,
        check: enum_only_string_type,
    },
    Rule {
        id: "gemini-enum-values-must-be-strings",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "enum member that is not a string (proto TYPE_STRING)",
        docs: &[SCHEMA],
        first_seen: Some("2025-06-27"),
        last_seen: Some("2025-06-27"),
        read: None,
        status_code: 400,
        check: enum_values_must_be_strings,
    },
    Rule {
        id: "gemini-function-declarations-limit",
        lanes: BOTH,
        status: Status::Recorded,
        summary: "more than 512 function declarations in one request",
        docs: &[],
        first_seen: Some("2026-02-14"),
        last_seen: Some("2026-04-15"),
        read: None,
        status_code: 400,
        check: function_declarations_limit,
    },
    Rule {
        id: "gemini-function-name-pattern",
        lanes: BOTH,
        status: Status::Recorded,
        summary: "function name: letter or _ first, then a-z A-Z 0-9 _ . - (and : since 2026), at most 64",
        docs: &[FUNCTION_DECLARATION],
        first_seen: Some("2025-09-06"),
        last_seen: Some("2025-09-06"),
        read: None,
        status_code: 400,
        check: function_name_pattern,
    },
    Rule {
        id: "gemini-maxitems-cumulative-budget",
        lanes: BOTH,
        status: Status::Recorded,
        summary: "the maxItems of one declaration sum past ~960 (opaque INVALID_ARGUMENT)",
        docs: &[],
        first_seen: Some("2026-03-16"),
        last_seen: Some("2026-03-16"),
        read: None,
        status_code: 400,
        check: maxitems_cumulative_budget,
    },
    Rule {
        id: "gemini-object-properties-non-empty",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "OBJECT schema with empty or absent properties (omit parameters instead)",
        docs: &[FUNCTION_DECLARATION],
        first_seen: Some("2024-09-27"),
        last_seen: Some("2024-09-27"),
        read: None,
        status_code: 400,
        check: object_properties_non_empty,
    },
    Rule {
        id: "gemini-parameter-name-pattern",
        lanes: OPENAPI,
        status: Status::Documented,
        summary: "top-level parameter names: letter or _ first, then a-z A-Z 0-9 _, at most 64",
        docs: &[FUNCTION_DECLARATION],
        first_seen: None,
        last_seen: None,
        read: None,
        status_code: 400,
        check: parameter_name_pattern,
    },
    Rule {
        id: "gemini-parameters-json-schema-exclusive",
        lanes: BOTH,
        status: Status::Documented,
        summary: "parameters and parametersJsonSchema on the same declaration",
        docs: &[JSON_SCHEMA_DECLARATION],
        first_seen: None,
        last_seen: None,
        read: None,
        status_code: 400,
        check: parameters_json_schema_exclusive,
    },
    Rule {
        id: "gemini-property-schema-not-object",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "a scalar (e.g. \"object\") where a Schema object belongs",
        docs: &[SCHEMA],
        first_seen: Some("2026-07-09"),
        last_seen: Some("2026-07-09"),
        read: None,
        status_code: 400,
        check: property_schema_not_object,
    },
    Rule {
        id: "gemini-string-format-enum-datetime-only",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "STRING format other than enum or date-time",
        docs: &[fact::FIREBASE_SCHEMA, SCHEMA],
        first_seen: Some("2025-07-03"),
        last_seen: Some("2025-07-03"),
        read: None,
        status_code: 400,
        check: string_format_enum_datetime_only,
    },
    Rule {
        id: "gemini-type-invalid-value",
        lanes: OPENAPI,
        status: Status::Documented,
        summary: "type string that names no Type (an empty string, date, any)",
        docs: &[fact::TYPE],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: type_invalid_value,
    },
    Rule {
        id: "gemini-type-not-repeating",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "type given as a list (use nullable instead)",
        docs: &[SCHEMA],
        first_seen: Some("2025-06-08"),
        last_seen: Some("2025-06-08"),
        read: None,
        status_code: 400,
        check: type_not_repeating,
    },
    Rule {
        id: "gemini-type-required-without-combinator",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "nested schema without type and without anyOf/oneOf/allOf (Gemini API wording)",
        docs: &[],
        first_seen: Some("2025-03-09"),
        last_seen: Some("2025-03-09"),
        read: None,
        status_code: 400,
        check: type_required_without_combinator,
    },
    Rule {
        id: "gemini-unknown-field-additionalproperties",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "additionalProperties in parameters",
        docs: UNKNOWN_FIELD_DOCS,
        first_seen: Some("2025-04-20"),
        last_seen: Some("2025-04-20"),
        read: None,
        status_code: 400,
        check: unknown_additional_properties,
    },
    Rule {
        id: "gemini-unknown-field-const",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "const in parameters",
        docs: UNKNOWN_FIELD_DOCS,
        first_seen: Some("2025-12-15"),
        last_seen: Some("2025-12-15"),
        read: None,
        status_code: 400,
        check: unknown_const,
    },
    Rule {
        id: "gemini-unknown-field-exclusiveminimum",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "exclusiveMinimum / exclusiveMaximum in parameters",
        docs: UNKNOWN_FIELD_DOCS,
        first_seen: Some("2026-09-07"),
        last_seen: Some("2026-09-07"),
        read: None,
        status_code: 400,
        check: unknown_exclusive_bounds,
    },
    Rule {
        id: "gemini-unknown-field-propertynames",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "propertyNames / patternProperties in parameters",
        docs: UNKNOWN_FIELD_DOCS,
        first_seen: Some("2026-05-06"),
        last_seen: Some("2026-05-06"),
        read: None,
        status_code: 400,
        check: unknown_property_names,
    },
    Rule {
        id: "gemini-unknown-field-schema-keyword",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "$schema in parameters",
        docs: UNKNOWN_FIELD_DOCS,
        first_seen: Some("2025-07-25"),
        last_seen: Some("2025-07-25"),
        read: None,
        status_code: 400,
        check: unknown_schema_keyword,
    },
    Rule {
        id: "gemini-unknown-field-title-examples-default-defs",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "examples / $defs in parameters (title and default until 2024-09-26)",
        docs: &[SCHEMA_MIRROR],
        first_seen: Some("2024-09-26"),
        last_seen: Some("2024-09-26"),
        read: None,
        status_code: 400,
        check: unknown_title_examples_default_defs,
    },
    Rule {
        id: "gemini-unknown-field-schema-proto",
        lanes: OPENAPI,
        status: Status::Documented,
        summary: "a field the Schema proto does not have (oneOf, allOf, not, $ref, if/then/else, uniqueItems, …; the recorded ones have their own rules)",
        docs: &[SCHEMA, SCHEMA_MIRROR],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: unknown_schema_proto_field,
    },
    Rule {
        id: "vertex-enum-with-object-or-array-type",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "enum on an OBJECT or ARRAY schema",
        docs: &[SCHEMA],
        first_seen: Some("2025-07-30"),
        last_seen: Some("2025-07-30"),
        read: None,
        status_code: 400,
        check: enum_with_object_or_array_type,
    },
    Rule {
        id: "vertex-parameters-type-object",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "parameters root not of type OBJECT (including {})",
        docs: &[FUNCTION_DECLARATION],
        first_seen: Some("2025-12-26"),
        last_seen: Some("2025-12-26"),
        read: None,
        status_code: 400,
        check: parameters_type_object,
    },
    Rule {
        id: "vertex-schema-type-field-missing",
        lanes: OPENAPI,
        status: Status::Recorded,
        summary: "nested schema without type and without anyOf/oneOf/allOf (Vertex wording)",
        docs: &[],
        first_seen: Some("2025-06-27"),
        last_seen: Some("2025-06-27"),
        read: None,
        status_code: 400,
        check: schema_type_field_missing,
    },
];
