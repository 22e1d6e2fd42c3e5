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

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::{each_schema, finding, nodes};
use crate::facts::{self, gemini as fact};
use crate::lane::Lane;
use crate::oracle::{Finding, Request, Rule, Status};
use crate::schema::{NAME_MAPS, child_path};

const OPENAPI: &[Lane] = &[Lane::GeminiOpenapi];
const BOTH: &[Lane] = &[Lane::GeminiOpenapi, Lane::GeminiJsonschema];

const FUNCTION_DECLARATION: &str =
    "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration";
const SCHEMA: &str = fact::SCHEMA;
const SCHEMA_MIRROR: &str = fact::SCHEMA_MIRROR;
const JSON_SCHEMA_DECLARATION: &str = "https://ai.google.dev/api/caching#FunctionDeclaration";
const UNKNOWN_FIELD_DOCS: &[&str] = &[FUNCTION_DECLARATION, SCHEMA, SCHEMA_MIRROR];

/// Vertex's message tail.
const LEARN_MORE: &str =
    "Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling";

/// The last day `title` and `default` were recorded as unknown fields.
const TITLE_DEFAULT_LAST_REJECTED: &str = "2024-09-26";
/// The first day a function-name message listed colons.
const NAME_COLONS_FROM: &str = "2026-03-03";
/// The `maxItems` sum one declaration may reach.
const MAX_ITEMS_BUDGET: f64 = 960.0;

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

// ---------------------------------------------------------------------------
// Paths: JSON Pointers inside a schema, rendered the ways Gemini prints them.

/// How a path is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Proto parsing: `.properties[3].value.any_of[0]` (map entries by position).
    Payload,
    /// Validation: `.properties[x].items` (map entries by key).
    Field,
    /// Vertex: `.x.items` after `parameters`.
    Dotted,
}

/// The reference tokens of a JSON Pointer (`""` is the root).
fn tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer[1..]
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// A keyword as the proto names its field (`anyOf` → `any_of`).
fn snake(keyword: &str) -> String {
    let mut out = String::new();
    for c in keyword.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A name map's address and length, and each name's position in it.
type Positions = (usize, usize, std::collections::HashMap<String, usize>);

thread_local! {
    /// The last name map [`position_of`] indexed: its address and length,
    /// and each name's position. Findings on sibling properties come one
    /// after another, so one entry turns a quadratic scan of a large map
    /// (5,001 properties, one finding each) into one pass.
    static POSITIONS: std::cell::RefCell<Option<Positions>> = const { std::cell::RefCell::new(None) };
}

/// `name`'s position among `map`'s keys (0 if absent).
fn position_of(map: &Map<String, Value>, name: &str) -> usize {
    if map.len() < 32 || matches!(PARSED.with(std::cell::Cell::get), Memo::Off) {
        return map.keys().position(|k| k == name).unwrap_or(0);
    }
    let addr = std::ptr::from_ref(map) as usize;
    POSITIONS.with(|cell| {
        let mut cache = cell.borrow_mut();
        let hit = matches!(&*cache, Some((a, n, _)) if *a == addr && *n == map.len());
        if !hit {
            let index = map
                .keys()
                .enumerate()
                .map(|(i, k)| (k.clone(), i))
                .collect();
            *cache = Some((addr, map.len(), index));
        }
        cache
            .as_ref()
            .and_then(|(_, _, index)| index.get(name).copied())
            .unwrap_or(0)
    })
}

/// Where a pointer lands, printed in `style`, relative to `parameters`.
fn render(schema: &Value, pointer: &str, style: Style) -> String {
    let t = tokens(pointer);
    let mut out = String::new();
    let mut cur = Some(schema);
    let mut i = 0;
    while i < t.len() {
        let key = t[i].as_str();
        let container = cur.and_then(|c| c.get(key));
        let next = t.get(i + 1);
        let name_map = container
            .and_then(Value::as_object)
            .filter(|_| NAME_MAPS.contains(&key));
        if let (Some(map), Some(name)) = (name_map, next) {
            match style {
                Style::Payload => {
                    let idx = position_of(map, name);
                    let _ = write!(out, ".{}[{idx}].value", snake(key));
                }
                Style::Field => {
                    let _ = write!(out, ".{}[{name}]", snake(key));
                }
                Style::Dotted if key == "properties" => {
                    let _ = write!(out, ".{name}");
                }
                Style::Dotted => {
                    let _ = write!(out, ".{}.{name}", snake(key));
                }
            }
            cur = map.get(name);
            i += 2;
        } else if let (Some(arr), Some(idx)) = (
            container.and_then(Value::as_array),
            next.and_then(|n| n.parse::<usize>().ok()),
        ) {
            let _ = write!(out, ".{}[{idx}]", snake(key));
            cur = arr.get(idx);
            i += 2;
        } else {
            let _ = write!(out, ".{}", snake(key));
            cur = container;
            i += 1;
        }
    }
    out
}

/// The pointer reaches a node through proto fields only: `properties`
/// values, object `items`, `anyOf` branches.
fn is_proto_pointer(pointer: &str) -> bool {
    let t = tokens(pointer);
    let mut i = 0;
    while i < t.len() {
        match t[i].as_str() {
            "properties" if i + 1 < t.len() => i += 2,
            "items" => i += 1,
            "anyOf" if t.get(i + 1).is_some_and(|n| n.parse::<usize>().is_ok()) => i += 2,
            _ => return false,
        }
    }
    true
}

/// Every schema node the `Schema` proto parses, with its pointer.
/// The proto JSON parser's rejection of field `k` of the node at `ptr`.
fn unknown_name(req: &Request<'_>, i: usize, s: &Value, ptr: &str, k: &str) -> Finding {
    finding(
        i,
        &child_path(ptr, k),
        format!(
            "Invalid JSON payload received. Unknown name \"{k}\" at '{}': Cannot find field.",
            payload_location(req, i, s, ptr)
        ),
    )
}

fn proto_nodes(schema: &Value) -> Vec<(String, &Map<String, Value>)> {
    nodes(schema)
        .into_iter()
        .filter(|(p, _)| is_proto_pointer(p))
        .collect()
}

/// The node's `type`, lowercased (the proto takes `OBJECT` and `object`).
fn type_name(node: &Map<String, Value>) -> Option<String> {
    node.get("type")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
}

/// `* GenerateContentRequest.tools[0].function_declarations[i].parameters…`
fn field_location(req: &Request<'_>, i: usize, schema: &Value, pointer: &str) -> String {
    format!(
        "* GenerateContentRequest.{}{}",
        req.schema_location(i),
        render(schema, pointer, Style::Field)
    )
}

/// `tools[0].function_declarations[i].parameters…` as the proto parser prints it.
fn payload_location(req: &Request<'_>, i: usize, schema: &Value, pointer: &str) -> String {
    format!(
        "{}{}",
        req.schema_location(i),
        render(schema, pointer, Style::Payload)
    )
}

/// `parameters.a.b` as Vertex prints it.
fn dotted(schema: &Value, pointer: &str) -> String {
    format!("parameters{}", render(schema, pointer, Style::Dotted))
}

// ---------------------------------------------------------------------------
// Phase 1: proto parsing.

/// The proto-parsing predicates: any finding rejects the request before
/// validation runs.
const PARSE_PHASE: &[fn(&Request<'_>) -> Vec<Finding>] = &[
    unknown_additional_properties,
    unknown_schema_keyword,
    unknown_const,
    unknown_exclusive_bounds,
    unknown_property_names,
    unknown_title_examples_default_defs,
    unknown_schema_proto_field,
    type_not_repeating,
    property_schema_not_object,
    enum_values_must_be_strings,
];

/// [`PARSED`]'s state.
#[derive(Clone, Copy)]
enum Memo {
    /// No `oracle::check` is running: nothing is memoised.
    Off,
    /// Armed, nothing memoised yet.
    Empty,
    /// The verdict for the request whose tools are at this address and length.
    Parsed(usize, usize, bool),
}

thread_local! {
    /// [`parsed`]'s verdict for the request being checked (keyed by its
    /// tools' address and length): every validation-phase rule asks, and
    /// the parse phase walks every node.
    static PARSED: std::cell::Cell<Memo> = const { std::cell::Cell::new(Memo::Off) };
}

/// Arm (`true`, before a request) or disarm (after it) the per-request
/// memos ([`PARSED`], [`POSITIONS`]): `oracle::check` brackets each request
/// with them, so no memo outlives the schemas whose addresses it keys on.
pub(crate) fn request_memos(armed: bool) {
    PARSED.with(|c| c.set(if armed { Memo::Empty } else { Memo::Off }));
    POSITIONS.with(|c| c.borrow_mut().take());
}

/// Validation runs: not the `parameters` wire, or it parsed.
fn parsed(req: &Request<'_>) -> bool {
    if req.lane != Lane::GeminiOpenapi {
        return true;
    }
    let key = (req.tools.as_ptr() as usize, req.tools.len());
    let memo = PARSED.with(std::cell::Cell::get);
    if let Memo::Parsed(a, n, v) = memo
        && (a, n) == key
    {
        return v;
    }
    let v = PARSE_PHASE.iter().all(|f| f(req).is_empty());
    if !matches!(memo, Memo::Off) {
        PARSED.with(|c| c.set(Memo::Parsed(key.0, key.1, v)));
    }
    v
}

/// `Unknown name "k"` for each of `keywords` at a proto position, in the
/// order of `keywords` within a node.
fn unknown_names(req: &Request<'_>, keywords: &[&str]) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (ptr, node) in proto_nodes(s) {
            for k in keywords.iter().filter(|k| node.contains_key(**k)) {
                out.push(unknown_name(req, i, s, &ptr, k));
            }
        }
        out
    })
}

fn unknown_additional_properties(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["additionalProperties"])
}

fn unknown_schema_keyword(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["$schema"])
}

fn unknown_const(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["const"])
}

fn unknown_exclusive_bounds(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["exclusiveMinimum", "exclusiveMaximum"])
}

fn unknown_property_names(req: &Request<'_>) -> Vec<Finding> {
    unknown_names(req, &["propertyNames", "patternProperties"])
}

fn unknown_title_examples_default_defs(req: &Request<'_>) -> Vec<Finding> {
    if req.as_of <= TITLE_DEFAULT_LAST_REJECTED {
        unknown_names(req, &["examples", "title", "default", "$defs"])
    } else {
        unknown_names(req, &["examples", "$defs"])
    }
}

/// Fields the recorded unknown-field rules report (each under its own id).
const RECORDED_UNKNOWN: &[&str] = &[
    "additionalProperties",
    "$schema",
    "const",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "propertyNames",
    "patternProperties",
    "examples",
    "$defs",
];

/// A field the `Schema` proto knows, by its JSON or its proto name.
fn is_proto_field(key: &str) -> bool {
    fact::SCHEMA_FIELDS.items.contains(&key) || fact::SCHEMA_FIELD_ALIASES.items.contains(&key)
}

/// `gemini-unknown-field-schema-proto`: any other field at a proto position,
/// in the parser's own words (the wording of the recorded unknown-field
/// rules), reported where it stands; its value is never entered.
fn unknown_schema_proto_field(req: &Request<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    // `title` and `default` are proto fields: their early rejection is the
    // recorded rule's.
    each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (ptr, node) in proto_nodes(s) {
            for k in node
                .keys()
                .filter(|k| !is_proto_field(k) && !RECORDED_UNKNOWN.contains(&k.as_str()))
            {
                out.push(unknown_name(req, i, s, &ptr, k));
            }
        }
        out
    })
}

fn type_not_repeating(req: &Request<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        proto_nodes(s)
            .into_iter()
            .filter(|(_, node)| node.get("type").is_some_and(Value::is_array))
            .map(|(ptr, _)| {
                finding(
                    i,
                    &child_path(&ptr, "type"),
                    format!(
                        "Invalid JSON payload received. Unknown name \"type\" at '{}': Proto field is not repeating, cannot start list.",
                        payload_location(req, i, s, &ptr)
                    ),
                )
            })
            .collect()
    })
}

/// A JSON scalar where the proto wants a `Schema` message.
fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// `Invalid value at '…' (…Schema), <value>`, as the Vertex-backed parser prints it.
fn invalid_schema_value(location: &str, v: &Value) -> String {
    format!(
        "Invalid value at '{location}' (type.googleapis.com/google.cloud.aiplatform.master.Schema), {v}"
    )
}

fn property_schema_not_object(req: &Request<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let loc = req.schema_location(i);
        if is_scalar(s) {
            return vec![finding(i, "", invalid_schema_value(&loc, s))];
        }
        let mut out = Vec::new();
        for (ptr, node) in proto_nodes(s) {
            let base = payload_location(req, i, s, &ptr);
            if let Some(props) = node.get("properties").and_then(Value::as_object) {
                for (idx, (name, v)) in props.iter().enumerate() {
                    if is_scalar(v) {
                        let at = format!("{base}.properties[{idx}].value");
                        out.push(finding(
                            i,
                            &child_path(&child_path(&ptr, "properties"), name),
                            invalid_schema_value(&at, v),
                        ));
                    }
                }
            }
            if let Some(v) = node.get("items").filter(|v| is_scalar(v)) {
                let at = format!("{base}.items");
                out.push(finding(
                    i,
                    &child_path(&ptr, "items"),
                    invalid_schema_value(&at, v),
                ));
            }
            if let Some(branches) = node.get("anyOf").and_then(Value::as_array) {
                for (idx, v) in branches.iter().enumerate() {
                    if is_scalar(v) {
                        let at = format!("{base}.any_of[{idx}]");
                        out.push(finding(
                            i,
                            &format!("{ptr}/anyOf/{idx}"),
                            invalid_schema_value(&at, v),
                        ));
                    }
                }
            }
        }
        out
    })
}

fn enum_values_must_be_strings(req: &Request<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (ptr, node) in proto_nodes(s) {
            let Some(members) = node.get("enum").and_then(Value::as_array) else {
                continue;
            };
            for (idx, v) in members.iter().enumerate().filter(|(_, v)| !v.is_string()) {
                out.push(finding(
                    i,
                    &format!("{ptr}/enum/{idx}"),
                    format!(
                        "Invalid value at '{}.enum[{idx}]' (TYPE_STRING), {v}",
                        payload_location(req, i, s, &ptr)
                    ),
                ));
            }
        }
        out
    })
}

// ---------------------------------------------------------------------------
// Phase 2: validation (only when the request parsed).

/// A validation predicate: `(index, schema, pointer, node)` → a finding.
type NodeCheck<'a> = dyn Fn(usize, &Value, &str, &Map<String, Value>) -> Option<Finding> + 'a;

/// `f(index, schema, pointer, node)` for each proto node of each parsed
/// `parameters`; the findings of all.
fn validate(req: &Request<'_>, f: &NodeCheck<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi || !parsed(req) {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        proto_nodes(s)
            .into_iter()
            .filter_map(|(ptr, node)| f(i, s, &ptr, node))
            .collect()
    })
}

fn object_properties_non_empty(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let empty = node
            .get("properties")
            .is_none_or(|p| p.is_null() || p.as_object().is_some_and(Map::is_empty));
        (type_name(node).as_deref() == Some("object") && empty).then(|| {
            finding(
                i,
                ptr,
                format!(
                    "{}.properties: should be non-empty for OBJECT type",
                    field_location(req, i, s, ptr)
                ),
            )
        })
    })
}

fn array_items_required(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let missing = node.get("items").is_none_or(Value::is_null);
        (type_name(node).as_deref() == Some("array") && missing).then(|| {
            finding(
                i,
                ptr,
                format!("{}.items: missing field.", field_location(req, i, s, ptr)),
            )
        })
    })
}

fn enum_only_string_type(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let t = type_name(node);
        let other = !matches!(t.as_deref(), Some("string" | "object" | "array"));
        (node.contains_key("enum") && other).then(|| {
            finding(
                i,
                &child_path(ptr, "enum"),
                format!(
                    "{}.enum: only allowed for STRING type",
                    field_location(req, i, s, ptr)
                ),
            )
        })
    })
}

fn string_format_enum_datetime_only(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let format = node.get("format").and_then(Value::as_str)?;
        (type_name(node).as_deref() == Some("string") && !matches!(format, "enum" | "date-time"))
            .then(|| {
                finding(
                    i,
                    &child_path(ptr, "format"),
                    format!(
                        "{}.format: only 'enum' and 'date-time' are supported for STRING type",
                        field_location(req, i, s, ptr)
                    ),
                )
            })
    })
}

/// A nested node with no `type` and no combinator to stand for one.
fn lacks_type(ptr: &str, node: &Map<String, Value>) -> bool {
    !ptr.is_empty()
        && node.get("type").is_none_or(Value::is_null)
        && !["anyOf", "oneOf", "allOf", "any_of", "one_of", "all_of"]
            .iter()
            .any(|k| node.contains_key(*k))
}

fn type_required_without_combinator(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        lacks_type(ptr, node).then(|| {
            finding(
                i,
                ptr,
                format!(
                    "{}.type: must be specified when not using one_of, any_of or all_of fields",
                    field_location(req, i, s, ptr)
                ),
            )
        })
    })
}

fn schema_type_field_missing(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        lacks_type(ptr, node).then(|| {
            finding(
                i,
                ptr,
                format!(
                    "Unable to submit request because `{}` functionDeclaration `{}` schema didn't specify the schema type field. {LEARN_MORE}",
                    req.name(i).unwrap_or_default(),
                    dotted(s, ptr)
                ),
            )
        })
    })
}

fn anyof_must_be_only_field(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        (node.contains_key("anyOf") && node.len() > 1).then(|| {
            finding(
                i,
                ptr,
                format!(
                    "Unable to submit request because `{}` functionDeclaration `{}` schema specified other fields alongside any_of. When using any_of, it must be the only field set.",
                    req.name(i).unwrap_or_default(),
                    dotted(s, ptr)
                ),
            )
        })
    })
}

fn enum_with_object_or_array_type(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, s, ptr, node| {
        let typed = matches!(type_name(node).as_deref(), Some("object" | "array"));
        (node.contains_key("enum") && typed).then(|| {
            finding(
                i,
                &child_path(ptr, "enum"),
                format!(
                    "Unable to submit request because {} functionDeclaration {} schema specified incorrect schema type field. For schema with enum values, schema type should not be OBJECT or ARRAY. {LEARN_MORE}",
                    req.name(i).unwrap_or_default(),
                    dotted(s, ptr)
                ),
            )
        })
    })
}

fn parameters_type_object(req: &Request<'_>) -> Vec<Finding> {
    validate(req, &|i, _, ptr, node| {
        (ptr.is_empty() && type_name(node).as_deref() != Some("object")).then(|| {
            finding(
                i,
                "",
                format!(
                    "Unable to submit request because `{}` functionDeclaration parameters schema should be of type OBJECT. {LEARN_MORE}",
                    req.name(i).unwrap_or_default()
                ),
            )
        })
    })
}

/// `^[A-Za-z_][A-Za-z0-9_]{0,63}$` (Vertex's parameter names).
fn is_parameter_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

fn parameter_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    if req.lane != Lane::GeminiOpenapi || !parsed(req) {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let Some(props) = s.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        props
            .keys()
            .filter(|k| !is_parameter_name(k))
            .map(|k| {
                finding(
                    i,
                    &child_path("/properties", k),
                    format!(
                        "* GenerateContentRequest.{}.properties[{k}]: parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64",
                        req.schema_location(i)
                    ),
                )
            })
            .collect()
    })
}

/// The function-name alphabet as of a date.
fn is_function_name(name: &str, colons: bool) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') || (colons && c == ':')
        })
        && name.chars().count() <= 64
}

fn function_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    if !parsed(req) {
        return Vec::new();
    }
    let colons = req.as_of >= NAME_COLONS_FROM;
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            (!is_function_name(name, colons)).then(|| {
                let message = if colons {
                    format!(
                        "* GenerateContentRequest.tools[0].function_declarations[{i}].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64."
                    )
                } else {
                    format!(
                        "The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations[{i}].name: [FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64."
                    )
                };
                finding(i, "", message)
            })
        })
        .collect()
}

/// A `maxItems` value as a number (the proto also takes int64 strings).
fn max_items(node: &Map<String, Value>) -> f64 {
    match node.get("maxItems") {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(Value::String(s)) => s.parse().unwrap_or(0.0),
        _ => 0.0,
    }
}

fn maxitems_cumulative_budget(req: &Request<'_>) -> Vec<Finding> {
    if !parsed(req) {
        return Vec::new();
    }
    each_schema(req, &mut |i, s| {
        let sum: f64 = nodes(s).iter().map(|(_, node)| max_items(node)).sum();
        if sum > MAX_ITEMS_BUDGET {
            vec![finding(i, "", "INVALID_ARGUMENT".to_owned())]
        } else {
            Vec::new()
        }
    })
}

fn parameters_json_schema_exclusive(req: &Request<'_>) -> Vec<Finding> {
    if !parsed(req) {
        return Vec::new();
    }
    req.tools
        .iter()
        .enumerate()
        .filter(|(_, d)| {
            d.get("parameters").is_some()
                && (d.get("parametersJsonSchema").is_some()
                    || d.get("parameters_json_schema").is_some())
        })
        .map(|(i, _)| {
            finding(
                i,
                "",
                format!(
                    "tools[0].function_declarations[{i}]: parametersJsonSchema is mutually exclusive with parameters"
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{DEFAULT_AS_OF, Rejection, check};
    use serde_json::json;

    fn req<'a>(lane: Lane, tools: &'a [Value], as_of: &'a str) -> Request<'a> {
        crate::rules::request(lane, tools, as_of)
    }

    /// One declaration on the `parameters` wire.
    fn decl(parameters: Value) -> Value {
        let mut d = json!({"name": "f", "description": "d"});
        d["parameters"] = parameters;
        d
    }

    fn openapi(tools: &[Value]) -> Vec<Rejection> {
        check(&req(Lane::GeminiOpenapi, tools, DEFAULT_AS_OF))
    }

    /// The single rejection, asserting its rule.
    fn only(rejections: &[Rejection], rule: &str) -> String {
        assert_eq!(rejections.len(), 1, "{rejections:#?}");
        assert_eq!(rejections[0].rule, rule);
        rejections[0].message.clone()
    }

    #[test]
    fn gemini_openapi_paths_name_map_entries_by_position_or_by_key() {
        let s = json!({"properties": {"a": {}, "b": {"items": {"anyOf": [{}, {"properties": {"c/d": {}}}]}}}});
        let p = "/properties/b/items/anyOf/1/properties/c~1d";
        assert_eq!(
            render(&s, p, Style::Payload),
            ".properties[1].value.items.any_of[1].properties[0].value"
        );
        assert_eq!(
            render(&s, p, Style::Field),
            ".properties[b].items.any_of[1].properties[c/d]"
        );
        assert_eq!(render(&s, p, Style::Dotted), ".b.items.any_of[1].c/d");
        assert!(is_proto_pointer(p));
        assert!(!is_proto_pointer("/not/properties/a"));
        assert!(!is_proto_pointer("/$defs/a"));
    }

    #[test]
    fn gemini_openapi_rejects_additional_properties_with_the_recorded_message() {
        let tools = [
            decl(json!({"type": "object", "properties": {"a": {"type": "string"}}})),
            decl(
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
            ),
        ];
        let r = openapi(&tools);
        assert_eq!(r[0].tool, Some(1));
        assert_eq!(r[0].path, "/additionalProperties");
        assert_eq!(
            only(&r, "gemini-unknown-field-additionalproperties"),
            "Invalid JSON payload received. Unknown name \"additionalProperties\" at 'tools[0].function_declarations[1].parameters': Cannot find field."
        );
    }

    #[test]
    fn gemini_openapi_accepts_a_property_named_additional_properties() {
        let tools = [decl(
            json!({"type": "object", "properties": {"additionalProperties": {"type": "string"}}}),
        )];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_jsonschema_accepts_additional_properties() {
        let tools = [
            json!({"name": "f", "parametersJsonSchema": {"type": "object", "properties": {}, "additionalProperties": false}}),
        ];
        assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_a_root_dollar_schema() {
        let tools = [decl(
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"q": {"type": "string"}}}),
        )];
        assert_eq!(
            only(&openapi(&tools), "gemini-unknown-field-schema-keyword"),
            "Invalid JSON payload received. Unknown name \"$schema\" at 'tools[0].function_declarations[0].parameters': Cannot find field."
        );
    }

    #[test]
    fn gemini_openapi_accepts_a_schema_without_dollar_schema() {
        let tools = [decl(
            json!({"type": "object", "properties": {"query": {"type": "string"}}}),
        )];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_const_inside_any_of_branches() {
        let tools = [decl(json!({"type": "object", "properties": {
            "q": {"type": "string"},
            "mode": {"anyOf": [{"type": "string", "const": "fast"}, {"type": "string", "const": "slow"}]}
        }}))];
        let r = openapi(&tools);
        assert_eq!(r.len(), 2);
        assert!(r.iter().all(|x| x.rule == "gemini-unknown-field-const"));
        assert_eq!(r[1].path, "/properties/mode/anyOf/1/const");
        assert_eq!(
            r[1].message,
            "Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[0].parameters.properties[1].value.any_of[1]': Cannot find field."
        );
    }

    #[test]
    fn gemini_openapi_accepts_const_written_as_a_one_member_enum() {
        let tools = [decl(json!({"type": "object", "properties": {
            "mode": {"anyOf": [{"type": "string", "enum": ["fast"]}, {"type": "string", "enum": ["slow"]}]}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_exclusive_minimum() {
        let tools = [decl(json!({"type": "object", "properties": {
            "item": {"type": "string"},
            "n": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}]}
        }}))];
        assert_eq!(
            only(&openapi(&tools), "gemini-unknown-field-exclusiveminimum"),
            "Invalid JSON payload received. Unknown name \"exclusiveMinimum\" at 'tools[0].function_declarations[0].parameters.properties[1].value.any_of[0]': Cannot find field."
        );
    }

    #[test]
    fn gemini_openapi_accepts_an_inclusive_minimum() {
        let tools = [decl(json!({"type": "object", "properties": {
            "n": {"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}]}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_property_names() {
        let tools = [
            decl(json!({"type": "object", "properties": {"p": {"type": "string"}}})),
            decl(json!({"type": "object", "properties": {
                "r": {"type": "string"},
                "labels": {"type": "object", "properties": {"env": {"type": "string"}}, "propertyNames": {"pattern": "^[a-z]+$"}}
            }})),
        ];
        assert_eq!(
            only(&openapi(&tools), "gemini-unknown-field-propertynames"),
            "Invalid JSON payload received. Unknown name \"propertyNames\" at 'tools[0].function_declarations[1].parameters.properties[1].value': Cannot find field."
        );
    }

    #[test]
    fn gemini_openapi_does_not_enter_an_unknown_keyword_value() {
        // `not` is itself unknown (rejected where it stands, documented
        // rule): the parser never reaches what it holds.
        let tools = [decl(
            json!({"type": "object", "properties": {"a": {"type": "string"}},
            "not": {"propertyNames": {}, "additionalProperties": false}}),
        )];
        let r = openapi(&tools);
        assert_eq!(r[0].path, "/not");
        assert_eq!(
            only(&r, "gemini-unknown-field-schema-proto"),
            "Invalid JSON payload received. Unknown name \"not\" at 'tools[0].function_declarations[0].parameters': Cannot find field."
        );
    }

    #[test]
    fn gemini_openapi_rejects_examples_and_title_as_of_the_recording() {
        let tools = [decl(json!({"type": "object", "properties": {
            "query": {"type": "string", "title": "Query", "examples": ["q"]}
        }}))];
        let then = check(&req(Lane::GeminiOpenapi, &tools, "2024-09-26"));
        let messages: Vec<_> = then.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "Invalid JSON payload received. Unknown name \"examples\" at 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.",
                "Invalid JSON payload received. Unknown name \"title\" at 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.",
            ]
        );
        let now = openapi(&tools);
        assert_eq!(
            only(&now, "gemini-unknown-field-title-examples-default-defs"),
            messages[0]
        );
    }

    #[test]
    fn gemini_openapi_accepts_title_and_default_today() {
        let tools = [decl(json!({"type": "object", "properties": {
            "query": {"type": "string", "title": "Query", "default": "x", "example": "q"}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_a_type_list() {
        let tools = [decl(json!({"type": "object", "properties": {
            "f": {"type": "string"},
            "patches": {"type": "array", "items": {"type": "object", "properties": {
                "start": {"type": "integer"}, "contents": {"type": ["string", "null"]}
            }}}
        }}))];
        assert_eq!(
            only(&openapi(&tools), "gemini-type-not-repeating"),
            "Invalid JSON payload received. Unknown name \"type\" at 'tools[0].function_declarations[0].parameters.properties[1].value.items.properties[1].value': Proto field is not repeating, cannot start list."
        );
    }

    #[test]
    fn gemini_openapi_accepts_nullable_instead_of_a_type_list() {
        let tools = [decl(json!({"type": "object", "properties": {
            "contents": {"type": "string", "nullable": true}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_a_bare_string_property_schema() {
        let tools = [decl(json!({"type": "object", "properties": {
            "title": {"type": "string"}, "options": "object"
        }}))];
        assert_eq!(
            only(&openapi(&tools), "gemini-property-schema-not-object"),
            "Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value' (type.googleapis.com/google.cloud.aiplatform.master.Schema), \"object\""
        );
    }

    #[test]
    fn gemini_openapi_accepts_an_object_property_schema() {
        let tools = [decl(json!({"type": "object", "properties": {
            "options": {"type": "object", "properties": {"a": {"type": "string"}}}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_numeric_enum_members_before_validation() {
        let tools = [decl(json!({"type": "object", "properties": {
            "project": {"type": "string"}, "depth": {"type": "number", "enum": [0, 1]}
        }}))];
        let r = openapi(&tools);
        // Only the parse errors: the enum-on-NUMBER validation never runs.
        assert_eq!(r.len(), 2, "{r:#?}");
        assert!(
            r.iter()
                .all(|x| x.rule == "gemini-enum-values-must-be-strings")
        );
        assert_eq!(
            r[0].message,
            "Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value.enum[0]' (TYPE_STRING), 0"
        );
    }

    #[test]
    fn gemini_openapi_accepts_string_enum_members() {
        let tools = [decl(json!({"type": "object", "properties": {
            "depth": {"type": "string", "enum": ["0", "1"]}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_an_object_with_empty_properties() {
        let tools = [decl(json!({"type": "object", "properties": {}}))];
        assert_eq!(
            only(&openapi(&tools), "gemini-object-properties-non-empty"),
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type"
        );
    }

    #[test]
    fn gemini_openapi_accepts_a_declaration_without_parameters() {
        let tools = [json!({"name": "now", "description": "the time"})];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_an_array_without_items() {
        let tools = [decl(json!({"type": "object", "properties": {
            "q": {"type": "string"}, "x": {"type": "array", "description": "ids"}
        }}))];
        assert_eq!(
            only(&openapi(&tools), "gemini-array-items-required"),
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[x].items: missing field."
        );
    }

    #[test]
    fn gemini_openapi_accepts_an_array_with_items() {
        let tools = [decl(json!({"type": "object", "properties": {
            "x": {"type": "ARRAY", "items": {"type": "STRING"}}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_an_enum_on_an_integer() {
        let tools = [decl(json!({"type": "object", "properties": {
            "path": {"type": "string"}, "truncateMode": {"type": "integer", "enum": ["0", "1"]}
        }}))];
        assert_eq!(
            only(&openapi(&tools), "gemini-enum-only-string-type"),
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[truncateMode].enum: only allowed for STRING type"
        );
    }

    #[test]
    fn gemini_openapi_accepts_an_enum_on_a_string() {
        let tools = [decl(json!({"type": "object", "properties": {
            "truncateMode": {"type": "string", "enum": ["0", "1"]}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_a_uri_format_on_a_string() {
        let tools = [decl(
            json!({"type": "object", "properties": {"links": {"type": "array", "items": {
                "type": "object", "properties": {"title": {"type": "string"}, "url": {"type": "string", "format": "uri"}}
            }}}}),
        )];
        assert_eq!(
            only(&openapi(&tools), "gemini-string-format-enum-datetime-only"),
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[links].items.properties[url].format: only 'enum' and 'date-time' are supported for STRING type"
        );
    }

    #[test]
    fn gemini_openapi_accepts_a_date_time_format_and_numeric_formats() {
        let tools = [decl(json!({"type": "object", "properties": {
            "at": {"type": "string", "format": "date-time"},
            "n": {"type": "integer", "format": "int64"}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_an_untyped_property_in_both_backends_wordings() {
        let tools = [
            json!({"name": "create-field", "parameters": {"type": "object", "properties": {
                "data": {"type": "object", "properties": {"meta": {"type": "object", "properties": {
                    "width": {"description": "Display width"}
                }}}}
            }}}),
        ];
        let r = openapi(&tools);
        let messages: Vec<_> = r.iter().map(|x| (x.rule, x.message.as_str())).collect();
        assert_eq!(
            messages,
            [
                (
                    "gemini-type-required-without-combinator",
                    "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[data].properties[meta].properties[width].type: must be specified when not using one_of, any_of or all_of fields"
                ),
                (
                    "vertex-schema-type-field-missing",
                    "Unable to submit request because `create-field` functionDeclaration `parameters.data.meta.width` schema didn't specify the schema type field. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling"
                ),
            ]
        );
    }

    #[test]
    fn gemini_openapi_accepts_an_untyped_any_of_holder() {
        let tools = [decl(json!({"type": "object", "properties": {
            "v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
        }}))];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_any_of_beside_a_description() {
        let tools = [
            json!({"name": "edit", "parameters": {"type": "object", "properties": {
                "edits": {"description": "The edits", "anyOf": [{"type": "string"}, {"type": "integer"}]}
            }}}),
        ];
        assert_eq!(
            only(&openapi(&tools), "gemini-anyof-must-be-only-field"),
            "Unable to submit request because `edit` functionDeclaration `parameters.edits` schema specified other fields alongside any_of. When using any_of, it must be the only field set."
        );
    }

    #[test]
    fn gemini_openapi_accepts_any_of_as_the_only_field() {
        let tools = [
            json!({"name": "edit", "parameters": {"type": "object", "properties": {
                "edits": {"anyOf": [{"type": "string", "description": "The edits"}, {"type": "integer"}]}
            }}}),
        ];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_an_enum_on_an_array_in_vertex_wording() {
        let tools = [
            json!({"name": "run", "parameters": {"type": "object", "properties": {
                "modes": {"type": "array", "items": {"type": "string"}, "enum": ["a", "b"]}
            }}}),
        ];
        assert_eq!(
            only(&openapi(&tools), "vertex-enum-with-object-or-array-type"),
            "Unable to submit request because run functionDeclaration parameters.modes schema specified incorrect schema type field. For schema with enum values, schema type should not be OBJECT or ARRAY. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling"
        );
    }

    #[test]
    fn gemini_openapi_accepts_the_enum_on_the_array_items() {
        let tools = [
            json!({"name": "run", "parameters": {"type": "object", "properties": {
                "modes": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}
            }}}),
        ];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_empty_parameters_in_vertex_wording() {
        let tools = [json!({"name": "load_docs", "parameters": {}})];
        assert_eq!(
            only(&openapi(&tools), "vertex-parameters-type-object"),
            "Unable to submit request because `load_docs` functionDeclaration parameters schema should be of type OBJECT. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling"
        );
    }

    #[test]
    fn gemini_openapi_accepts_an_object_root_with_properties() {
        let tools = [
            json!({"name": "load_docs", "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}}}),
        ];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_a_function_name_starting_with_a_digit() {
        let tools = [
            decl(json!({"type": "object", "properties": {"m": {"type": "string"}}})),
            json!({"name": "21st_magic", "parameters": {"type": "object", "properties": {"m": {"type": "string"}}}}),
        ];
        let r = check(&req(Lane::GeminiOpenapi, &tools, "2025-09-06"));
        assert_eq!(r[0].tool, Some(1));
        assert_eq!(
            only(&r, "gemini-function-name-pattern"),
            "The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations[1].name: [FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64."
        );
    }

    #[test]
    fn gemini_jsonschema_accepts_colons_in_a_function_name_only_since_2026_03_03() {
        let tools =
            [json!({"name": "mcp:search.web-1", "parametersJsonSchema": {"type": "object"}})];
        assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
        let before = check(&req(Lane::GeminiJsonschema, &tools, "2025-09-06"));
        assert_eq!(
            only(&before, "gemini-function-name-pattern")
                .lines()
                .count(),
            2
        );
        let long = [json!({"name": "a".repeat(65)})];
        assert_eq!(
            only(
                &check(&req(Lane::GeminiJsonschema, &long, DEFAULT_AS_OF)),
                "gemini-function-name-pattern"
            ),
            "* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64."
        );
    }

    fn arrays(n: usize, max: u64) -> Value {
        let props: Map<String, Value> = (0..n)
            .map(|k| {
                (
                    format!("a{k}"),
                    json!({"type": "array", "items": {"type": "string"}, "maxItems": max}),
                )
            })
            .collect();
        json!({"type": "object", "properties": props})
    }

    #[test]
    fn gemini_jsonschema_rejects_a_max_items_sum_past_960() {
        let tools = [json!({"name": "plan", "parametersJsonSchema": arrays(10, 100)})];
        let r = check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF));
        assert_eq!(
            only(&r, "gemini-maxitems-cumulative-budget"),
            "INVALID_ARGUMENT"
        );
    }

    #[test]
    fn gemini_jsonschema_accepts_a_max_items_sum_of_960() {
        let tools = [json!({"name": "plan", "parametersJsonSchema": arrays(8, 120)})];
        assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn gemini_openapi_rejects_a_hyphenated_parameter_name_as_documented() {
        let tools = [decl(
            json!({"type": "object", "properties": {"file-path": {"type": "string"}}}),
        )];
        assert_eq!(
            only(&openapi(&tools), "gemini-parameter-name-pattern"),
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[file-path]: parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64"
        );
    }

    #[test]
    fn gemini_openapi_accepts_an_underscored_parameter_name() {
        let tools = [decl(
            json!({"type": "object", "properties": {"_file_path2": {"type": "string"}}}),
        )];
        assert!(openapi(&tools).is_empty());
    }

    #[test]
    fn gemini_jsonschema_rejects_parameters_beside_parameters_json_schema() {
        let tools = [
            json!({"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
            "parametersJsonSchema": {"type": "object"}}),
        ];
        assert_eq!(
            only(
                &check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)),
                "gemini-parameters-json-schema-exclusive"
            ),
            "tools[0].function_declarations[0]: parametersJsonSchema is mutually exclusive with parameters"
        );
    }

    #[test]
    fn gemini_jsonschema_accepts_parameters_json_schema_alone() {
        let tools = [
            json!({"name": "f", "parametersJsonSchema": {"type": "object", "properties": {"a": {"const": 1}}}}),
        ];
        assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
    }

    // ---- documented: the closed Schema proto ----------------------------

    #[test]
    fn gemini_openapi_rejects_a_nested_one_of_as_an_unknown_proto_field() {
        let tools = [
            decl(json!({"type": "object", "properties": {"q": {"type": "string"}}})),
            decl(json!({"type": "object", "properties": {
                "q": {"type": "string"},
                "labels": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
            }})),
        ];
        let r = openapi(&tools);
        assert_eq!(r[0].tool, Some(1));
        assert_eq!(r[0].path, "/properties/labels/oneOf");
        assert_eq!(r[0].status, 400);
        assert_eq!(
            only(&r, "gemini-unknown-field-schema-proto"),
            "Invalid JSON payload received. Unknown name \"oneOf\" at 'tools[0].function_declarations[1].parameters.properties[1].value': Cannot find field."
        );
    }

    #[test]
    fn gemini_openapi_reports_an_unknown_field_where_it_stands_and_never_enters_it() {
        let tools = [decl(json!({"type": "object", "properties": {
            "x": {"type": "array", "items": {"$ref": "#/$defs/y"}, "uniqueItems": true},
            "n": {"not": {"additionalProperties": false, "foo": 1}, "type": "string"}
        }}))];
        let r = openapi(&tools);
        let got: Vec<(&str, &str)> = r.iter().map(|x| (x.rule, x.path.as_str())).collect();
        assert_eq!(
            got,
            [
                (
                    "gemini-unknown-field-schema-proto",
                    "/properties/x/uniqueItems"
                ),
                (
                    "gemini-unknown-field-schema-proto",
                    "/properties/x/items/$ref"
                ),
                ("gemini-unknown-field-schema-proto", "/properties/n/not"),
            ]
        );
        assert_eq!(
            r[1].message,
            "Invalid JSON payload received. Unknown name \"$ref\" at 'tools[0].function_declarations[0].parameters.properties[0].value.items': Cannot find field."
        );
    }

    #[test]
    fn gemini_openapi_accepts_every_schema_field_and_its_snake_case_alias() {
        let tools = [decl(json!({
            "type": "OBJECT", "title": "T", "description": "d", "nullable": false,
            "required": ["s"], "minProperties": "1", "max_properties": "3",
            "propertyOrdering": ["s", "a", "n"], "default": {}, "example": {"s": "x"},
            "properties": {
                "s": {"type": "STRING", "format": "enum", "enum": ["x"], "minLength": "1", "max_length": "9", "pattern": "^x$"},
                "a": {"type": "ARRAY", "items": {"type": "STRING"}, "min_items": "0", "maxItems": "4"},
                "n": {"any_of": [{"type": "NUMBER", "minimum": 0, "maximum": 9}], "property_ordering": []}
            }
        }))];
        let r = openapi(&tools);
        assert!(
            r.iter()
                .all(|x| x.rule != "gemini-unknown-field-schema-proto"),
            "{r:#?}"
        );
        assert!(r.is_empty(), "{r:#?}");
    }

    #[test]
    fn gemini_openapi_leaves_recorded_unknown_fields_to_their_own_rules() {
        let tools = [decl(
            json!({"type": "object", "properties": {"a": {"type": "string"}},
            "additionalProperties": false, "$defs": {}}),
        )];
        let rules: Vec<&str> = openapi(&tools).iter().map(|x| x.rule).collect();
        assert_eq!(
            rules,
            [
                "gemini-unknown-field-additionalproperties",
                "gemini-unknown-field-title-examples-default-defs"
            ]
        );
    }

    #[test]
    fn gemini_jsonschema_accepts_one_of_and_unique_items() {
        let tools = [
            json!({"name": "f", "parametersJsonSchema": {"type": "object", "properties": {
                "v": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "ids": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
            }}}),
        ];
        assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn gemini_unknown_field_rule_is_documented_with_the_schema_reference_and_read_date() {
        let rule = RULES
            .iter()
            .find(|r| r.id == "gemini-unknown-field-schema-proto")
            .unwrap();
        assert_eq!(rule.status, Status::Documented);
        assert_eq!(rule.docs[0], "https://ai.google.dev/api/caching#Schema");
        assert_eq!(rule.read, Some("2026-12-01"));
    }
}
