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

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::{nodes, py_repr, py_str};
use crate::facts::{self, openai as fact};
use crate::lane::{Lane, Wire};
use crate::oracle::{Finding, Request, Rule, Status};
use crate::schema::{
    MAX_DEPTH, NAME_MAPS, SCHEMA_ARRAYS, SINGLE_SCHEMA, children, escape_token, has_type,
    is_object_schema,
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

// ---- what the rules look at -------------------------------------------

/// One schema OpenAI validates: a function's parameters or a strict
/// `response_format` schema.
struct Target<'r> {
    tool: Option<usize>,
    schema: &'r Value,
    /// `function 'NAME'` or `response_format 'NAME'`.
    subject: String,
}

impl Target<'_> {
    /// `Invalid schema for function 'NAME': …`.
    fn invalid(&self, text: &str) -> String {
        format!("Invalid schema for {}: {text}", self.subject)
    }

    /// `Invalid schema for function 'NAME': In context=(…), …`.
    fn in_context(&self, path: &str, text: &str) -> String {
        self.invalid(&format!("In context={}, {text}", context(path)))
    }

    fn finding(&self, path: &str, message: String) -> Finding {
        Finding {
            tool: self.tool,
            path: path.to_owned(),
            message,
        }
    }
}

/// Every tool's parameters.
fn tool_targets<'r>(req: &'r Request<'_>) -> Vec<Target<'r>> {
    (0..req.tools.len())
        .filter_map(|i| {
            Some(Target {
                tool: Some(i),
                schema: req.schema(i)?,
                subject: format!("function '{}'", req.name(i).unwrap_or_default()),
            })
        })
        .collect()
}

/// The tool is strict: its flag, or on Responses the default (an absent
/// flag means strict there; see `lane.rs`).
fn is_strict(req: &Request<'_>, i: usize) -> bool {
    req.strict(i).unwrap_or(req.lane.wire() == Wire::Responses)
}

/// Every strict tool's parameters, and a strict `response_format` schema
/// (Chat: `{type: json_schema, json_schema: {name, strict, schema}}`;
/// Responses `text.format`: `{type: json_schema, name, strict, schema}`).
fn strict_targets<'r>(req: &'r Request<'_>) -> Vec<Target<'r>> {
    let mut out: Vec<Target<'r>> = tool_targets(req)
        .into_iter()
        .filter(|t| t.tool.is_some_and(|i| is_strict(req, i)))
        .collect();
    if let Some(rf) = req.response_format
        && rf.get("type").and_then(Value::as_str) == Some("json_schema")
    {
        let js = rf.get("json_schema").unwrap_or(rf);
        if js.get("strict").and_then(Value::as_bool) == Some(true)
            && let Some(schema) = js.get("schema")
        {
            let name = js.get("name").and_then(Value::as_str).unwrap_or_default();
            out.push(Target {
                tool: None,
                schema,
                subject: format!("response_format '{name}'"),
            });
        }
    }
    out
}

/// A check of one schema node of a target: its messages.
type NodeCheck = dyn FnMut(&Target<'_>, &str, &Map<String, Value>) -> Vec<String>;

/// For each target and each of its schema nodes: the findings of `f`.
fn each_node(targets: &[Target<'_>], f: &mut NodeCheck) -> Vec<Finding> {
    let mut out = Vec::new();
    for t in targets {
        for (path, node) in nodes(t.schema) {
            for message in f(t, &path, node) {
                out.push(t.finding(&path, message));
            }
        }
    }
    out
}

// ---- paths as OpenAI prints them --------------------------------------

/// One step of a JSON Pointer: a name, or an index into a schema array.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// The steps of a schema-walk pointer; tokens after `anyOf`/`oneOf`/
/// `allOf`/`prefixItems` (and array-form `items`) are indices, tokens after
/// name maps are names even when they look like numbers.
fn steps(path: &str) -> Vec<Step> {
    let raw: Vec<String> = match path.strip_prefix('/') {
        Some(rest) => rest.split('/').map(unescape).collect(),
        None => Vec::new(),
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let kw = raw[i].as_str();
        out.push(Step::Key(raw[i].clone()));
        i += 1;
        let Some(next) = raw.get(i) else { break };
        let indexed = SCHEMA_ARRAYS.contains(&kw) || kw == "items";
        let named = NAME_MAPS.contains(&kw) || kw == "dependencies";
        if indexed && let Ok(n) = next.parse::<usize>() {
            out.push(Step::Index(n));
            i += 1;
        } else if named {
            out.push(Step::Key(next.clone()));
            i += 1;
        }
    }
    out
}

/// The `In context=(…)` tuple: `()`, `('properties',)`, `('properties', 'x')`.
fn context(path: &str) -> String {
    let items: Vec<String> = steps(path)
        .into_iter()
        .map(|s| match s {
            Step::Key(k) => py_str(&k),
            Step::Index(n) => n.to_string(),
        })
        .collect();
    match items.len() {
        1 => format!("({},)", items[0]),
        _ => format!("({})", items.join(", ")),
    }
}

/// The JSONPath the newer validator prints: `$.properties.email`.
fn json_path(path: &str) -> String {
    let mut out = "$".to_owned();
    for s in steps(path) {
        match s {
            Step::Key(k) => {
                out.push('.');
                out.push_str(&k);
            }
            Step::Index(n) => {
                let _ = write!(out, "[{n}]");
            }
        }
    }
    out
}

// ---- non-strict rules -------------------------------------------------

fn object_missing_properties(req: &Request<'_>) -> Vec<Finding> {
    tool_targets(req)
        .iter()
        .filter_map(|t| {
            let root = t.schema.as_object()?;
            (has_type(root, "object") && !root.contains_key("properties"))
                .then(|| t.finding("", t.in_context("", "object schema missing properties.")))
        })
        .collect()
}

fn array_missing_items(req: &Request<'_>) -> Vec<Finding> {
    each_node(&tool_targets(req), &mut |t, path, node| {
        if has_type(node, "array") && !node.contains_key("items") {
            vec![t.in_context(path, "array schema missing items")]
        } else {
            Vec::new()
        }
    })
}

/// The message gained `'const'` between 2026-01-14 (langchainjs#9804, still
/// without it) and 2026-08-12 (the recording with it); we switch at the
/// first sighting.
const ROOT_CONST_FROM: &str = "2026-08-12";

/// GPT-5 and later accept root unions on `/v1/responses` (LiteLLM PR
/// #38792, 2026-08-29: only gpt-4*, gpt-3.5 and o-series still reject);
/// Chat Completions rejects them on every model (PR #38839). The lane has
/// no model, so from that date the lane means a current model.
const RESPONSES_ROOT_UNIONS_FROM: &str = "2026-08-29";

fn root_composition(req: &Request<'_>) -> Vec<Finding> {
    let with_const = req.as_of >= ROOT_CONST_FROM;
    let unions_ok = req.lane == Lane::OpenaiResponses && req.as_of >= RESPONSES_ROOT_UNIONS_FROM;
    let listed = if with_const {
        "'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not'"
    } else {
        "'oneOf'/'anyOf'/'allOf'/'enum'/'not'"
    };
    tool_targets(req)
        .iter()
        .filter_map(|t| {
            let root = t.schema.as_object()?;
            let bad = ["oneOf", "anyOf", "allOf", "enum", "const", "not"]
                .iter()
                .filter(|k| **k != "const" || with_const)
                .filter(|k| !(unions_ok && ["oneOf", "anyOf", "allOf"].contains(*k)))
                .any(|k| root.contains_key(*k));
            bad.then(|| {
                t.finding(
                    "",
                    t.invalid(&format!(
                        "schema must have type 'object' and not have {listed} at the top level."
                    )),
                )
            })
        })
        .collect()
}

/// Keywords whose value is a name map (the draft's own; `$def` is a
/// misspelling the walker tolerates, not a keyword).
const MAP_KEYWORDS: &[&str] = &[
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];

fn required_null(req: &Request<'_>) -> Vec<Finding> {
    each_node(&tool_targets(req), &mut |t, _, node| {
        let mut out = Vec::new();
        if let Some(r) = node.get("required")
            && !r.is_array()
        {
            out.push(t.invalid(&format!("{} is not of type 'array'.", py_repr(r))));
        }
        for kw in MAP_KEYWORDS {
            if let Some(v) = node.get(*kw)
                && !v.is_object()
            {
                out.push(t.invalid(&format!("{} is not of type 'object'.", py_repr(v))));
            }
        }
        out
    })
}

fn schema_like(v: &Value) -> bool {
    v.is_object() || v.is_boolean()
}

/// Array-form `items` is left alone: whether `[]` is a tuple or a bad
/// schema depends on the draft the validator assumes. The root counts too:
/// the recording does not show where its `[]` sat, and `parameters: []`
/// fails the same validator.
fn subschema_not_object(req: &Request<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for t in tool_targets(req) {
        if !schema_like(t.schema) {
            out.push(t.finding(
                "",
                t.invalid(&format!(
                    "{} is not of type 'object', 'boolean'.",
                    py_repr(t.schema)
                )),
            ));
        }
        for (path, node) in nodes(t.schema) {
            let mut bad = |at: String, v: &Value| {
                out.push(t.finding(
                    &at,
                    t.invalid(&format!(
                        "{} is not of type 'object', 'boolean'.",
                        py_repr(v)
                    )),
                ));
            };
            for kw in MAP_KEYWORDS {
                if let Some(map) = node.get(*kw).and_then(Value::as_object) {
                    for (name, v) in map.iter().filter(|(_, v)| !schema_like(v)) {
                        bad(format!("{path}/{kw}/{}", escape_token(name)), v);
                    }
                }
            }
            for kw in SINGLE_SCHEMA {
                if let Some(v) = node.get(*kw).filter(|v| !schema_like(v)) {
                    bad(format!("{path}/{kw}"), v);
                }
            }
            if let Some(v) = node
                .get("items")
                .filter(|v| !schema_like(v) && !v.is_array())
            {
                bad(format!("{path}/items"), v);
            }
            for kw in SCHEMA_ARRAYS {
                if let Some(arr) = node.get(*kw).and_then(Value::as_array) {
                    for (i, v) in arr.iter().enumerate().filter(|(_, v)| !schema_like(v)) {
                        bad(format!("{path}/{kw}/{i}"), v);
                    }
                }
            }
        }
    }
    out
}

/// Before 2026-05-29 the same schema failed in-stream with a server_error
/// (gpt-5.4, vercel/ai PR #20021): no request-time rejection to model.
const LOOKAROUND_400_FROM: &str = "2026-05-29";

fn pattern_lookaround(req: &Request<'_>) -> Vec<Finding> {
    if req.as_of < LOOKAROUND_400_FROM {
        return Vec::new();
    }
    each_node(&tool_targets(req), &mut |_, path, node| {
        let Some(p) = node.get("pattern").and_then(Value::as_str) else {
            return Vec::new();
        };
        if crate::ecma::has_lookaround(p) == Some(true) {
            vec![format!(
                "Invalid JSON schema: regex lookaround is not supported. Found at {}.pattern.",
                json_path(path)
            )]
        } else {
            Vec::new()
        }
    })
}

/// Where the name sits, as OpenAI prints it.
fn name_location(req: &Request<'_>, i: usize) -> String {
    match req.lane.wire() {
        Wire::Responses => format!("tools[{i}].name"),
        _ => format!("tools[{i}].function.name"),
    }
}

fn tool_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            let ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            (!ok).then(|| Finding {
                tool: Some(i),
                path: String::new(),
                message: format!(
                    "Invalid '{}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
                    name_location(req, i)
                ),
            })
        })
        .collect()
}

/// The message follows OpenAI's `invalid_value` wording for string lengths.
fn tool_name_length(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter_map(|i| {
            let n = req.name(i)?.chars().count();
            let max = limit(fact::NAME_LENGTH);
            (n > max).then(|| Finding {
                tool: Some(i),
                path: String::new(),
                message: format!(
                    "Invalid '{}': string too long. Expected a string with maximum length {max}, but got a string with length {n} instead.",
                    name_location(req, i)
                ),
            })
        })
        .collect()
}

/// An empty tools slice means `"tools": []` was sent, unless the request is
/// a structured-output one (then it had no `tools` member; see
/// `recording.rs`).
fn empty_tools_array(req: &Request<'_>) -> Vec<Finding> {
    if req.tools_present && req.tools.is_empty() && req.response_format.is_none() {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: "[] is too short - 'tools'".to_owned(),
        }]
    } else {
        Vec::new()
    }
}

// ---- strict rules -----------------------------------------------------

fn strict_additional_properties(req: &Request<'_>) -> Vec<Finding> {
    each_node(&strict_targets(req), &mut |t, path, node| {
        if is_object_schema(node) && node.get("additionalProperties") != Some(&Value::Bool(false)) {
            vec![t.in_context(
                path,
                "'additionalProperties' is required to be supplied and to be false.",
            )]
        } else {
            Vec::new()
        }
    })
}

/// Several missing keys are listed comma-separated (only one is recorded).
fn strict_required_all_keys(req: &Request<'_>) -> Vec<Finding> {
    each_node(&strict_targets(req), &mut |t, path, node| {
        let Some(props) = node.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        let required = crate::schema::required_names(node);
        let missing: Vec<String> = props
            .keys()
            .filter(|k| !required.contains(k))
            .map(|k| py_str(k))
            .collect();
        if missing.is_empty() {
            Vec::new()
        } else {
            vec![t.in_context(
                path,
                &format!(
                    "'required' is required to be supplied and to be an array including every key in properties. Missing {}.",
                    missing.join(", ")
                ),
            )]
        }
    })
}

/// Strict mode first rejected these keywords ("not yet supported" at
/// launch); the docs now list them as supported except for fine-tuned
/// models. Rejections are reported through 2025-05-15 (Davidyz/VectorCode
/// #133, gpt-4o); the change is undated, so we switch the day after.
const STRICT_KEYWORDS_PERMITTED_FROM: &str = "2025-05-16";

/// The keywords the docs now list as unsupported only for fine-tuned models.
const ONCE_NOT_PERMITTED: &[&str] = &[
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "multipleOf",
    "patternProperties",
    "minItems",
    "maxItems",
];

fn strict_keyword_not_permitted(req: &Request<'_>) -> Vec<Finding> {
    if req.as_of >= STRICT_KEYWORDS_PERMITTED_FROM {
        return Vec::new();
    }
    each_node(&strict_targets(req), &mut |t, path, node| {
        node.keys()
            .filter(|k| ONCE_NOT_PERMITTED.contains(&k.as_str()))
            .map(|k| t.in_context(path, &format!("'{k}' is not permitted.")))
            .collect()
    })
}

/// The node is the value of a `properties` entry.
fn is_property(path: &str) -> bool {
    let s = steps(path);
    s.len() >= 2 && s[s.len() - 2] == Step::Key("properties".to_owned())
}

fn azure_default_not_permitted(req: &Request<'_>) -> Vec<Finding> {
    each_node(&strict_targets(req), &mut |_, path, node| {
        if is_property(path) && node.get("default").is_some_and(|d| !d.is_null()) {
            vec!["'default' is not permitted within a property definition".to_owned()]
        } else {
            Vec::new()
        }
    })
}

/// The size limits were raised once: the launch docs said 100 properties,
/// 5 levels and 500 enum values (the constants of openai-java's
/// `JsonSchemaValidator`), and an `o3` request got "6 levels of nesting
/// exceeds limit of 5" on 2025-07-17 (tidyverse/ellmer#671); the docs now
/// say 5000, 10 and 1000. The change is undated; we switch after that
/// sighting.
const LIMITS_RAISED_FROM: &str = "2025-07-18";

struct Limits {
    levels: usize,
    properties: usize,
    enum_values: usize,
    /// Characters of property names, definition names, enum and const values.
    strings: usize,
    /// Characters of one string enum with more than 250 values.
    large_enum_strings: usize,
}

/// A documented limit as a count.
fn limit(l: facts::Limit) -> usize {
    l.value
}

fn limits(as_of: &str) -> Limits {
    if as_of < LIMITS_RAISED_FROM {
        Limits {
            levels: 5,
            properties: 100,
            enum_values: 500,
            strings: 15_000,
            large_enum_strings: 7_500,
        }
    } else {
        Limits {
            levels: limit(fact::STRICT_NESTING),
            properties: limit(fact::STRICT_PROPERTIES),
            enum_values: limit(fact::STRICT_ENUM_VALUES),
            strings: limit(fact::STRICT_STRING_BUDGET),
            large_enum_strings: limit(fact::STRICT_ENUM_STRING_BUDGET),
        }
    }
}

/// Object levels on the deepest path: every object schema counts one, the
/// root included; definitions start their own count. An approximation of
/// "levels of nesting", which the docs do not define further.
fn object_levels(schema: &Value) -> usize {
    fn go(v: &Value, above: usize, depth: usize) -> usize {
        let Some(map) = v.as_object() else {
            return above;
        };
        let here = above + usize::from(is_object_schema(map));
        if depth > MAX_DEPTH {
            return here;
        }
        children(map)
            .iter()
            .filter_map(|c| {
                let sub = c.get(map)?;
                let defs =
                    c.suffix().starts_with("/$defs/") || c.suffix().starts_with("/definitions/");
                Some(go(sub, if defs { 0 } else { here }, depth + 1))
            })
            .fold(here, usize::max)
    }
    go(schema, 0, 0)
}

/// Findings for strict schemas whose `count` exceeds `limit`; the message
/// names the count and the limit after `what` (OpenAI's wording).
fn over_limit(
    req: &Request<'_>,
    limit: usize,
    what: &str,
    count: &dyn Fn(&Value) -> usize,
) -> Vec<Finding> {
    strict_targets(req)
        .iter()
        .filter_map(|t| {
            let n = count(t.schema);
            (n > limit).then(|| {
                t.finding(
                    "",
                    t.invalid(&format!("{n} {what} exceeds limit of {limit}.")),
                )
            })
        })
        .collect()
}

fn strict_nesting_limit(req: &Request<'_>) -> Vec<Finding> {
    over_limit(req, limits(req.as_of).levels, "levels of nesting", &|s| {
        object_levels(s)
    })
}

fn strict_property_count_limit(req: &Request<'_>) -> Vec<Finding> {
    over_limit(
        req,
        limits(req.as_of).properties,
        "object properties",
        &|s| {
            nodes(s)
                .iter()
                .filter_map(|(_, node)| node.get("properties").and_then(Value::as_object))
                .map(Map::len)
                .sum()
        },
    )
}

fn strict_enum_count_limit(req: &Request<'_>) -> Vec<Finding> {
    over_limit(req, limits(req.as_of).enum_values, "enum values", &|s| {
        nodes(s)
            .iter()
            .filter_map(|(_, node)| node.get("enum").and_then(Value::as_array))
            .map(Vec::len)
            .sum()
    })
}

// ---- documented strict subset (facts.rs) -----------------------------

/// `openai-strict-keyword-not-permitted`: a keyword of the documented
/// unsupported set, in OpenAI's recorded wording (`In context=('properties',
/// 'data'), 'allOf' is not permitted.`, notion-mcp-server#102,
/// 2025-08-07). Before 2025-05-16 the keywords that
/// `openai-strict-minimum-not-permitted` covers are left to that rule.
fn strict_unsupported_keyword(req: &Request<'_>) -> Vec<Finding> {
    let early = req.as_of < STRICT_KEYWORDS_PERMITTED_FROM;
    let mut out = Vec::new();
    for t in strict_targets(req) {
        for (path, node) in nodes(t.schema) {
            for k in node.keys().filter(|k| {
                fact::STRICT_REJECTED.items.contains(&k.as_str())
                    && !(early && ONCE_NOT_PERMITTED.contains(&k.as_str()))
            }) {
                out.push(t.finding(
                    &format!("{path}/{}", escape_token(k)),
                    t.in_context(&path, &format!("'{k}' is not permitted.")),
                ));
            }
        }
    }
    out
}

/// `openai-strict-format-unsupported`: in OpenAI's wording as public reports
/// quote it (`In context=('properties', 'url'), 'uri' is not a valid
/// format.`: forgecode#2974, 2026-04-12; oh-my-pi#206, 2026-02-28). Before
/// 2025-05-16 `format` itself was not permitted (the older rule).
fn strict_format_unsupported(req: &Request<'_>) -> Vec<Finding> {
    if req.as_of < STRICT_KEYWORDS_PERMITTED_FROM {
        return Vec::new();
    }
    let mut out = Vec::new();
    for t in strict_targets(req) {
        for (path, node) in nodes(t.schema) {
            let Some(f) = node.get("format").and_then(Value::as_str) else {
                continue;
            };
            if fact::STRICT_FORMATS.items.contains(&f) || crate::schema::numeric_only(node) {
                continue;
            }
            out.push(t.finding(
                &format!("{path}/format"),
                t.in_context(&path, &format!("{} is not a valid format.", py_str(f))),
            ));
        }
    }
    out
}

/// Characters of property names, definition names, and string enum and
/// const values in one schema (the documented string budget).
fn string_budget(schema: &Value) -> usize {
    let mut n = 0;
    for (_, node) in nodes(schema) {
        for kw in ["properties", "$defs", "definitions"] {
            if let Some(m) = node.get(kw).and_then(Value::as_object) {
                n += m.keys().map(|k| k.chars().count()).sum::<usize>();
            }
        }
        if let Some(values) = node.get("enum").and_then(Value::as_array) {
            n += values
                .iter()
                .filter_map(Value::as_str)
                .map(|v| v.chars().count())
                .sum::<usize>();
        }
        if let Some(c) = node.get("const").and_then(Value::as_str) {
            n += c.chars().count();
        }
    }
    n
}

fn strict_string_budget_limit(req: &Request<'_>) -> Vec<Finding> {
    over_limit(
        req,
        limits(req.as_of).strings,
        "characters of property names, definition names, enum values and const values",
        &string_budget,
    )
}

fn strict_enum_string_budget_limit(req: &Request<'_>) -> Vec<Finding> {
    let max = limits(req.as_of).large_enum_strings;
    let large = limit(fact::STRICT_LARGE_ENUM);
    each_node(&strict_targets(req), &mut move |t, path, node| {
        let Some(values) = node.get("enum").and_then(Value::as_array) else {
            return Vec::new();
        };
        let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
        let chars: usize = strings.iter().map(|v| v.chars().count()).sum();
        if strings.len() > large && chars > max {
            vec![t.in_context(
                path,
                &format!(
                    "enum with {} string values totals {chars} characters, which exceeds limit of {max} for enums with more than {large} values.",
                    strings.len()
                ),
            )]
        } else {
            Vec::new()
        }
    })
}

/// OpenAI's `invalid_value` wording for array lengths.
fn tool_count_limit(req: &Request<'_>) -> Vec<Finding> {
    let max = limit(fact::CHAT_TOOLS);
    let n = req.tools.len();
    if n > max {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: format!(
                "Invalid 'tools': array too long. Expected an array with maximum length {max}, but got an array with length {n} instead."
            ),
        }]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{DEFAULT_AS_OF, Rejection, check};
    use serde_json::json;

    fn req<'a>(lane: Lane, tools: &'a [Value], as_of: &'a str) -> Request<'a> {
        crate::rules::request(lane, tools, as_of)
    }

    fn chat(name: &str, parameters: Value) -> Value {
        let mut t = json!({"type": "function", "function": {"name": name}});
        t["function"]["parameters"] = parameters;
        t
    }

    fn strict(name: &str, parameters: Value) -> Value {
        let mut t = chat(name, parameters);
        t["function"]["strict"] = json!(true);
        t
    }

    fn responses(name: &str, parameters: Value, strict: bool) -> Value {
        let mut t = json!({"type": "function", "name": name, "strict": strict});
        t["parameters"] = parameters;
        t
    }

    /// A strict-clean object around `props`.
    fn closed(props: Value) -> Value {
        let required: Vec<String> = props
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        let mut o = json!({"type": "object", "required": required, "additionalProperties": false});
        o["properties"] = props;
        o
    }

    fn only(r: &[Rejection]) -> &Rejection {
        assert_eq!(r.len(), 1, "{r:?}");
        &r[0]
    }

    #[test]
    fn openai_validator_paths_print_as_python_tuples_and_json_paths() {
        assert_eq!(context(""), "()");
        assert_eq!(context("/items"), "('items',)");
        assert_eq!(
            context("/properties/info/items/properties/synonyms"),
            "('properties', 'info', 'items', 'properties', 'synonyms')"
        );
        assert_eq!(
            context("/anyOf/0/properties/1"),
            "('anyOf', 0, 'properties', '1')"
        );
        assert_eq!(py_str("it's"), "\"it's\"");
        assert_eq!(
            py_repr(&json!({"a": [null, true, 1]})),
            "{'a': [None, True, 1]}"
        );
        assert_eq!(json_path("/properties/email"), "$.properties.email");
        assert_eq!(
            json_path("/anyOf/1/properties/a~1b"),
            "$.anyOf[1].properties.a/b"
        );
    }

    #[test]
    fn openai_chat_rejects_a_root_object_without_properties() {
        let tools = [
            chat("mongodb-find", closed(json!({"db": {"type": "string"}}))),
            chat("mongodb-list-databases", json!({"type": "object"})),
        ];
        let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-object-schema-missing-properties");
        assert_eq!(r.tool, Some(1));
        assert_eq!(
            r.message,
            "Invalid schema for function 'mongodb-list-databases': In context=(), object schema missing properties."
        );
    }

    #[test]
    fn openai_chat_accepts_empty_properties_and_a_nested_free_form_object() {
        let tools = [
            chat("a", json!({"type": "object", "properties": {}})),
            chat(
                "b",
                json!({"type": "object", "properties": {"meta": {"type": "object", "additionalProperties": true}}}),
            ),
        ];
        assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_chat_rejects_a_nested_array_without_items() {
        let tools = [chat(
            "information_extraction",
            json!({"type": "object", "properties": {"info": {"type": "array", "items": {"type": "object", "properties": {"synonyms": {"type": "array"}}}}}}),
        )];
        let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-array-schema-missing-items");
        assert_eq!(r.path, "/properties/info/items/properties/synonyms");
        assert_eq!(
            r.message,
            "Invalid schema for function 'information_extraction': In context=('properties', 'info', 'items', 'properties', 'synonyms'), array schema missing items"
        );
    }

    #[test]
    fn openai_chat_accepts_an_array_with_items_and_an_items_property_name() {
        let tools = [chat(
            "t",
            json!({"type": "object", "properties": {"items": {"type": "array", "items": {}}, "enum": {"type": "string", "enum": ["array"]}}}),
        )];
        assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_chat_rejects_a_root_any_of_with_the_message_of_its_date() {
        let tools = [chat(
            "HassStartTimer",
            json!({"type": "object", "properties": {"h": {"type": "integer"}}, "anyOf": [{"required": ["h"]}]}),
        )];
        let r = check(&req(Lane::OpenaiChat, &tools, "2026-08-12"));
        let hit = r
            .iter()
            .find(|r| r.rule == "openai-root-composition")
            .unwrap();
        assert_eq!(
            hit.message,
            "Invalid schema for function 'HassStartTimer': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level."
        );
        let r = check(&req(Lane::OpenaiChat, &tools, "2025-07-03"));
        let hit = r
            .iter()
            .find(|r| r.rule == "openai-root-composition")
            .unwrap();
        assert_eq!(
            hit.message,
            "Invalid schema for function 'HassStartTimer': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level."
        );
    }

    #[test]
    fn openai_chat_accepts_a_nested_any_of_and_a_root_const_before_2026_08_12() {
        let tools = [chat(
            "t",
            json!({"type": "object", "properties": {"x": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}),
        )];
        assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
        let tools = [chat(
            "t",
            json!({"type": "object", "properties": {}, "const": {}}),
        )];
        assert!(check(&req(Lane::OpenaiChat, &tools, "2026-01-14")).is_empty());
    }

    #[test]
    fn openai_responses_accepts_root_unions_from_2026_08_29_but_not_root_enum() {
        let tools = [responses(
            "t",
            json!({"type": "object", "properties": {}, "oneOf": [{"required": []}]}),
            false,
        )];
        assert!(check(&req(Lane::OpenaiResponses, &tools, "2026-08-29")).is_empty());
        assert_eq!(
            only(&check(&req(Lane::OpenaiResponses, &tools, "2026-08-28"))).rule,
            "openai-root-composition"
        );
        let tools = [responses(
            "t",
            json!({"type": "object", "properties": {}, "enum": [{}]}),
            false,
        )];
        assert_eq!(
            only(&check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF))).rule,
            "openai-root-composition"
        );
    }

    #[test]
    fn openai_chat_rejects_required_null_in_python_words() {
        let tools = [chat(
            "ai-sfn",
            json!({"type": "object", "properties": {}, "required": null}),
        )];
        let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-required-null");
        assert_eq!(
            r.message,
            "Invalid schema for function 'ai-sfn': None is not of type 'array'."
        );
    }

    #[test]
    fn openai_chat_rejects_properties_sent_as_an_empty_list() {
        let tools = [chat("relay", json!({"type": "object", "properties": []}))];
        let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-required-null");
        assert_eq!(
            r.message,
            "Invalid schema for function 'relay': [] is not of type 'object'."
        );
    }

    #[test]
    fn openai_chat_accepts_a_property_named_required() {
        let tools = [chat(
            "t",
            json!({"type": "object", "properties": {"required": {"type": "boolean"}}, "required": ["required"]}),
        )];
        assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_chat_rejects_a_property_schema_sent_as_an_empty_list() {
        let tools = [chat(
            "str_replace_editor",
            json!({"type": "object", "properties": {"path": {"type": "string"}, "view_range": []}}),
        )];
        let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-subschema-not-object");
        assert_eq!(r.path, "/properties/view_range");
        assert_eq!(
            r.message,
            "Invalid schema for function 'str_replace_editor': [] is not of type 'object', 'boolean'."
        );
    }

    #[test]
    fn openai_chat_rejects_parameters_sent_as_a_list_and_accepts_a_boolean_root() {
        let tools = [chat("relay", json!([{"type": "object"}]))];
        let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-subschema-not-object");
        assert_eq!(r.path, "");
        assert_eq!(
            r.message,
            "Invalid schema for function 'relay': [{'type': 'object'}] is not of type 'object', 'boolean'."
        );
        let tools = [chat("t", json!(true))];
        assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_chat_accepts_boolean_subschemas_and_list_valued_keywords() {
        let tools = [chat(
            "t",
            json!({"type": "object", "properties": {"a": true, "b": {"type": "string", "enum": []}}, "additionalProperties": false}),
        )];
        assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_responses_rejects_a_lookahead_pattern_from_2026_05_29() {
        let tools = [responses(
            "send_invite",
            closed(json!({"email": {"type": "string", "pattern": "^(?!\\.)[a-z.]+@[a-z]+$"}})),
            false,
        )];
        let r = check(&req(Lane::OpenaiResponses, &tools, "2026-05-29"));
        let r = only(&r);
        assert_eq!(r.rule, "openai-pattern-lookaround");
        assert_eq!(
            r.message,
            "Invalid JSON schema: regex lookaround is not supported. Found at $.properties.email.pattern."
        );
        assert!(check(&req(Lane::OpenaiResponses, &tools, "2026-05-28")).is_empty());
    }

    #[test]
    fn openai_responses_accepts_a_lookahead_opener_inside_a_class() {
        let tools = [responses(
            "t",
            closed(json!({"p": {"type": "string", "pattern": "^[(?=]+$"}})),
            false,
        )];
        assert!(check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_chat_rejects_a_slash_in_a_function_name() {
        let tools = [chat(
            "filesystem/read_file",
            json!({"type": "object", "properties": {}}),
        )];
        let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-tool-name-pattern");
        assert_eq!(
            r.message,
            "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."
        );
    }

    #[test]
    fn openai_responses_names_the_responses_location_and_accepts_a_dash() {
        let tools = [
            responses(
                "read-file_2",
                json!({"type": "object", "properties": {}}),
                false,
            ),
            responses("a.b", json!({"type": "object", "properties": {}}), false),
        ];
        let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
        assert_eq!(
            only(&r).message,
            "Invalid 'tools[1].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."
        );
    }

    #[test]
    fn openai_chat_rejects_a_65_character_name_and_accepts_64() {
        let tools = [
            chat(&"a".repeat(64), json!({"type": "object", "properties": {}})),
            chat(&"b".repeat(65), json!({"type": "object", "properties": {}})),
        ];
        let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-tool-name-length");
        assert_eq!(
            r.message,
            "Invalid 'tools[1].function.name': string too long. Expected a string with maximum length 64, but got a string with length 65 instead."
        );
    }

    #[test]
    fn openai_chat_rejects_an_empty_tools_array() {
        let r = check(&req(Lane::OpenaiChat, &[], DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-empty-tools-array");
        assert_eq!(r.tool, None);
        assert_eq!(r.message, "[] is too short - 'tools'");
    }

    #[test]
    fn openai_chat_accepts_a_request_without_a_tools_member() {
        let r = check(&Request {
            tools_present: false,
            ..req(Lane::OpenaiChat, &[], DEFAULT_AS_OF)
        });
        assert!(r.is_empty(), "{r:?}");
    }

    #[test]
    fn openai_chat_accepts_no_tools_member_beside_a_response_format() {
        let rf = json!({"type": "json_schema", "json_schema": {"name": "r", "strict": true, "schema": closed(json!({}))}});
        let r = check(&Request {
            tools_present: true,
            response_format: Some(&rf),
            ..req(Lane::OpenaiChat, &[], DEFAULT_AS_OF)
        });
        assert!(r.is_empty(), "{r:?}");
        assert!(check(&req(Lane::OpenaiResponses, &[], DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_responses_strict_rejects_a_nested_object_without_additional_properties_false() {
        let tools = [responses(
            "filesystem-set_permissions",
            json!({"type": "object", "properties": {"permissions": {"type": "object", "properties": {"read": {"type": "boolean"}}, "required": ["read"]}}, "required": ["permissions"], "additionalProperties": false}),
            true,
        )];
        let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-additionalproperties-false");
        assert_eq!(r.path, "/properties/permissions");
        assert_eq!(
            r.message,
            "Invalid schema for function 'filesystem-set_permissions': In context=('properties', 'permissions'), 'additionalProperties' is required to be supplied and to be false."
        );
    }

    #[test]
    fn openai_strict_accepts_a_closed_object_and_a_non_strict_tool_stays_open() {
        let tools = [
            strict(
                "a",
                closed(json!({"o": closed(json!({"x": {"type": "string"}}))})),
            ),
            json!({"type": "function", "function": {"name": "b", "strict": false, "parameters": {"type": "object", "properties": {"o": {"type": "object", "properties": {}}}}}}),
        ];
        assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_responses_strict_rejects_a_key_missing_from_required() {
        let tools = [responses(
            "mysql_execute",
            json!({"type": "object", "properties": {"sql": {"type": "string"}, "params": {"type": "array", "items": {"type": "string"}}}, "required": ["sql"], "additionalProperties": false}),
            true,
        )];
        let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-required-all-keys");
        assert_eq!(
            r.message,
            "Invalid schema for function 'mysql_execute': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'params'."
        );
    }

    #[test]
    fn openai_responses_treats_an_absent_strict_flag_as_strict() {
        let tools = [
            json!({"type": "function", "name": "t", "parameters": {"type": "object", "properties": {}}}),
        ];
        let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
        assert_eq!(only(&r).rule, "openai-strict-additionalproperties-false");
        assert_eq!(
            r[0].message,
            "Invalid schema for function 't': In context=(), 'additionalProperties' is required to be supplied and to be false."
        );
    }

    #[test]
    fn openai_responses_accepts_an_optional_key_without_strict() {
        let tools = [responses(
            "t",
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": []}),
            false,
        )];
        assert!(check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_strict_rejected_minimum_in_a_response_format_until_2025_05_15() {
        let rf = json!({"type": "json_schema", "json_schema": {"name": "review", "strict": true, "schema":
            closed(json!({"scores": {"type": "array", "items": closed(json!({"value": {"type": "number", "minimum": 0}}))}}))}});
        let at = |as_of| {
            check(&Request {
                tools_present: true,
                response_format: Some(&rf),
                ..req(Lane::OpenaiStrict, &[], as_of)
            })
        };
        let r = at("2025-04-07");
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-minimum-not-permitted");
        assert_eq!(r.tool, None);
        assert_eq!(
            r.message,
            "Invalid schema for response_format 'review': In context=('properties', 'scores', 'items', 'properties', 'value'), 'minimum' is not permitted."
        );
        assert!(at("2025-05-16").is_empty());
    }

    #[test]
    fn openai_chat_accepted_minimum_without_strict_in_2025_04() {
        let tools = [chat(
            "t",
            closed(json!({"n": {"type": "number", "minimum": 0}})),
        )];
        assert!(check(&req(Lane::OpenaiChat, &tools, "2025-04-07")).is_empty());
    }

    #[test]
    fn openai_strict_rejects_a_property_default_as_azure_does() {
        let tools = [strict(
            "search_knowledge_base",
            closed(
                json!({"query": {"type": "string"}, "max_results": {"type": "integer", "default": 5}}),
            ),
        )];
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "azure-openai-strict-default-not-permitted");
        assert_eq!(r.path, "/properties/max_results");
        assert_eq!(
            r.message,
            "'default' is not permitted within a property definition"
        );
    }

    #[test]
    fn openai_strict_accepts_a_null_default_and_a_property_named_default() {
        let tools = [strict(
            "t",
            closed(
                json!({"a": {"type": ["string", "null"], "default": null}, "default": {"type": "string"}}),
            ),
        )];
        assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
    }

    /// `levels` nested closed objects.
    fn nested(levels: usize) -> Value {
        (1..levels).fold(closed(json!({})), |inner, _| closed(json!({"o": inner})))
    }

    #[test]
    fn openai_strict_rejects_11_levels_of_nesting() {
        let tools = [strict("deep", nested(11))];
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-nesting-limit");
        assert_eq!(
            r.message,
            "Invalid schema for function 'deep': 11 levels of nesting exceeds limit of 10."
        );
        let r = check(&req(
            Lane::OpenaiStrict,
            &[strict("deep", nested(6))],
            "2025-07-17",
        ));
        assert_eq!(
            only(&r).message,
            "Invalid schema for function 'deep': 6 levels of nesting exceeds limit of 5."
        );
    }

    #[test]
    fn openai_strict_accepts_10_levels_of_nesting() {
        let tools = [strict("deep", nested(10))];
        assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_strict_rejects_5001_properties_and_accepts_5000() {
        let props = |n: usize| -> Value {
            Value::Object(
                (0..n)
                    .map(|k| (format!("p{k}"), json!({"type": "string"})))
                    .collect(),
            )
        };
        let tools = [strict("wide", closed(props(5001)))];
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-property-count-limit");
        assert_eq!(
            r.message,
            "Invalid schema for function 'wide': 5001 object properties exceeds limit of 5000."
        );
        let tools = [strict("wide", closed(props(5000)))];
        assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_strict_rejects_1001_enum_values_and_accepts_1000() {
        let values = |n: usize| -> Vec<String> { (0..n).map(|k| format!("v{k}")).collect() };
        let tools = [strict(
            "e",
            closed(
                json!({"a": {"type": "string", "enum": values(600)}, "b": {"type": "string", "enum": values(401)}}),
            ),
        )];
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-enum-count-limit");
        assert_eq!(
            r.message,
            "Invalid schema for function 'e': 1001 enum values exceeds limit of 1000."
        );
        let tools = [strict(
            "e",
            closed(json!({"a": {"type": "string", "enum": values(1000)}})),
        )];
        assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
    }

    // ---- documented strict subset ---------------------------------------

    #[test]
    fn openai_strict_rejects_a_nested_all_of_in_the_recorded_wording() {
        let tools = [strict(
            "notion-update-page",
            closed(json!({"data": {"allOf": [closed(json!({"a": {"type": "string"}}))]}})),
        )];
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-keyword-not-permitted");
        assert_eq!(r.path, "/properties/data/allOf");
        assert_eq!(
            r.message,
            "Invalid schema for function 'notion-update-page': In context=('properties', 'data'), 'allOf' is not permitted."
        );
    }

    #[test]
    fn openai_chat_accepts_unsupported_keywords_on_a_non_strict_tool() {
        let tools = [chat(
            "t",
            json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}, "if": {"required": ["a"]}, "then": {}}),
        )];
        assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_strict_accepts_every_documented_keyword_and_leaves_open_questions_alone() {
        let mut tools = [strict(
            "t",
            closed(json!({
                "s": {"type": "string", "pattern": "^a+$", "format": "email", "description": "d", "minLength": 1, "maxLength": 9},
                "n": {"type": ["number", "null"], "minimum": 0, "maximum": 9, "exclusiveMinimum": -1, "exclusiveMaximum": 10, "multipleOf": 0.5},
                "i": {"type": "integer", "format": "int64"},
                "a": {"type": "array", "items": {"$ref": "#/$defs/x"}, "minItems": 1, "maxItems": 3},
                "e": {"anyOf": [{"type": "string", "enum": ["x"]}, {"type": "null"}], "title": "E"},
                "c": {"type": "string", "const": "k"}
            })),
        )];
        tools[0]["function"]["parameters"]["$defs"] = json!({"x": {"type": "string"}});
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        assert!(r.is_empty(), "{r:#?}");
    }

    #[test]
    fn openai_strict_rejects_every_listed_unsupported_keyword() {
        for k in crate::facts::openai::STRICT_REJECTED.items {
            let mut prop = json!({"type": "string"});
            prop[*k] = json!({});
            let tools = [strict("t", closed(json!({"p": prop})))];
            let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
            let found: Vec<_> = r
                .iter()
                .filter(|x| x.rule == "openai-strict-keyword-not-permitted")
                .collect();
            assert_eq!(found.len(), 1, "{k}: {r:#?}");
            assert_eq!(found[0].path, format!("/properties/p/{k}"));
        }
    }

    #[test]
    fn openai_strict_leaves_pattern_properties_to_the_older_rule_before_2025_05_16() {
        let tools = [strict(
            "t",
            closed(
                json!({"m": {"type": "object", "properties": {}, "additionalProperties": false, "patternProperties": {"^x": {"type": "string"}}}}),
            ),
        )];
        let r = check(&req(Lane::OpenaiStrict, &tools, "2025-04-07"));
        assert_eq!(only(&r).rule, "openai-strict-minimum-not-permitted");
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        assert_eq!(only(&r).rule, "openai-strict-keyword-not-permitted");
    }

    #[test]
    fn openai_responses_rejects_a_uri_format_on_a_strict_tool_and_accepts_date_time() {
        let tools = [responses(
            "fetch",
            closed(
                json!({"url": {"type": "string", "format": "uri"}, "at": {"type": "string", "format": "date-time"}}),
            ),
            true,
        )];
        let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-format-unsupported");
        assert_eq!(r.path, "/properties/url/format");
        assert_eq!(
            r.message,
            "Invalid schema for function 'fetch': In context=('properties', 'url'), 'uri' is not a valid format."
        );
        let ok = [responses(
            "fetch",
            closed(json!({"at": {"type": "string", "format": "date-time"}})),
            true,
        )];
        assert!(check(&req(Lane::OpenaiResponses, &ok, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn openai_strict_rejects_an_unsupported_keyword_in_a_strict_response_format() {
        let rf = json!({"type": "json_schema", "json_schema": {"name": "out", "strict": true, "schema":
            closed(json!({"ids": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}))}});
        let r = check(&Request {
            tools_present: true,
            response_format: Some(&rf),
            ..req(Lane::OpenaiStrict, &[], DEFAULT_AS_OF)
        });
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-keyword-not-permitted");
        assert_eq!(r.tool, None);
        assert_eq!(
            r.message,
            "Invalid schema for response_format 'out': In context=('properties', 'ids'), 'uniqueItems' is not permitted."
        );
    }

    /// A closed object whose `n` enum values are `len` characters each.
    fn enum_of(n: usize, len: usize) -> Value {
        let values: Vec<String> = (0..n).map(|k| format!("{k:0>len$}")).collect();
        closed(json!({"e": {"type": "string", "enum": values}}))
    }

    #[test]
    fn openai_strict_rejects_a_251_value_enum_past_15000_characters() {
        // 251 × 60 = 15,060 characters.
        let tools = [strict("e", enum_of(251, 60))];
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-enum-string-budget-limit");
        assert_eq!(r.path, "/properties/e");
        assert_eq!(
            r.message,
            "Invalid schema for function 'e': In context=('properties', 'e'), enum with 251 string values totals 15060 characters, which exceeds limit of 15000 for enums with more than 250 values."
        );
        // 250 values are under the large-enum threshold whatever their size;
        // 251 × 59 = 14,809 characters are within the budget.
        for ok in [enum_of(250, 100), enum_of(251, 59)] {
            let tools = [strict("e", ok)];
            assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
        }
    }

    #[test]
    fn openai_strict_rejects_120001_characters_of_names_and_values_and_accepts_120000() {
        // The property name "c" (1 character) plus its const value, plus
        // the definition name "d" and its enum value "v".
        let schema = |n: usize| {
            let mut s = closed(json!({"c": {"type": "string", "const": "x".repeat(n)}}));
            s["$defs"] = json!({"d": {"type": "string", "enum": ["v"]}});
            s
        };
        assert_eq!(string_budget(&schema(119_997)), 120_000);
        let tools = [strict("big", schema(119_997))];
        assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
        let tools = [strict("big", schema(119_998))];
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-strict-string-budget-limit");
        assert_eq!(
            r.message,
            "Invalid schema for function 'big': 120001 characters of property names, definition names, enum values and const values exceeds limit of 120000."
        );
    }

    #[test]
    fn openai_chat_rejects_129_tools_and_accepts_128() {
        let tools: Vec<Value> = (0..129)
            .map(|k| {
                chat(
                    &format!("t{k}"),
                    json!({"type": "object", "properties": {}}),
                )
            })
            .collect();
        let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
        let r = only(&r);
        assert_eq!(r.rule, "openai-tool-count-limit");
        assert_eq!(r.tool, None);
        assert_eq!(
            r.message,
            "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 129 instead."
        );
        assert!(check(&req(Lane::OpenaiChat, &tools[..128], DEFAULT_AS_OF)).is_empty());
        // Not documented for Responses: an open question, no rule.
        assert!(crate::facts::open_question("openai-responses-tool-count").is_some());
    }

    #[test]
    fn openai_documented_rules_carry_the_doc_url_and_read_date() {
        for id in [
            "openai-strict-keyword-not-permitted",
            "openai-strict-format-unsupported",
            "openai-strict-string-budget-limit",
            "openai-strict-enum-string-budget-limit",
            "openai-tool-count-limit",
        ] {
            let rule = RULES.iter().find(|r| r.id == id).unwrap();
            assert_eq!(rule.status, Status::Documented, "{id}");
            assert_eq!(rule.read, Some("2026-12-01"), "{id}");
            assert!(
                rule.docs[0].starts_with("https://platform.openai.com/docs/"),
                "{id}"
            );
        }
    }
}
