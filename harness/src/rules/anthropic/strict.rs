//! Anthropic's strict (grammar-compiled) rules: strict tools and
//! `output_config.format`, their `minItems`, complexity and union budgets,
//! recursion, external `$ref`s, patterns and formats.

use serde_json::{Map, Value};

use crate::lookup::Lookup;
use crate::rules::model::{Finding, Request};
use crate::rules::nodes;
use crate::strict_subset::{has_backreference, is_recursive};

/// One schema the strict grammar compiles.
struct StrictSchema<'r> {
    tool: Option<usize>,
    schema: &'r Value,
    /// Where the provider says the problem is: `tools.N.custom` or
    /// `output_config.format.schema`.
    at: String,
}

/// Every strict tool's input_schema, and `output_config.format`'s schema
/// (this lane's `response_format`: `{"type": "json_schema", "schema": …}`).
fn strict_schemas<'r>(req: &'r Request<'_>) -> Vec<StrictSchema<'r>> {
    let mut out: Vec<StrictSchema<'r>> = (0..req.tools.len())
        .filter(|&i| req.strict(i) == Some(true))
        .filter_map(|i| {
            Some(StrictSchema {
                tool: Some(i),
                schema: req.schema(i)?,
                at: format!("tools.{i}.custom"),
            })
        })
        .collect();
    if let Some(rf) = req.response_format
        && rf.get("type").and_then(Value::as_str) == Some("json_schema")
        && let Some(schema) = rf.get("schema")
    {
        out.push(StrictSchema {
            tool: None,
            schema,
            at: "output_config.format.schema".to_owned(),
        });
    }
    out
}

/// A check of one node of a strict schema: the message, if it offends.
type NodeCheck = dyn FnMut(&StrictSchema<'_>, &str, &Map<String, Value>) -> Option<String>;

/// For each strict schema and each of its nodes: `f(schema, path, node)`.
fn each_strict_node(req: &Request<'_>, f: &mut NodeCheck) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in strict_schemas(req) {
        for (path, node) in nodes(req, s.schema).iter() {
            if let Some(message) = f(&s, path, node) {
                out.push(Finding {
                    tool: s.tool,
                    path: path.clone(),
                    message,
                });
            }
        }
    }
    out
}

pub(super) fn strict_min_items(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &mut |s, _, node| {
        let n = node.field("minItems")?;
        let allowed = n
            .as_f64()
            .is_some_and(|n| (0.0..=1.0).contains(&n) && n.fract().abs() < f64::EPSILON);
        (!allowed).then(|| {
            format!(
                "{}: For 'array' type, 'minItems' values other than 0 or 1 are not supported",
                s.at
            )
        })
    })
}

/// The array constraints strict mode does not support (the provider-facts
/// table).
const ARRAY_UNSUPPORTED: &[&str] = crate::facts::anthropic::STRICT_ARRAY_UNSUPPORTED.items;

/// The compiler names one unsupported keyword `property 'maxItems'` and
/// several `properties maximum, minimum` (sorted, unquoted): both forms
/// are recorded (agentjido/req_llm#302 and earendil-works/pi#9953 for
/// integers).
pub(crate) fn unsupported_properties(at: &str, ty: &str, present: &mut [&str]) -> String {
    present.sort_unstable();
    match present {
        [one] => format!("{at}: For '{ty}' type, property '{one}' is not supported"),
        _ => format!(
            "{at}: For '{ty}' type, properties {} are not supported",
            present.join(", ")
        ),
    }
}

/// An array schema (`type: "array"`) with `maxItems` or `uniqueItems`
/// (recorded: experientiallabs/experiential#804 on a strict tool,
/// agentjido/req_llm#706 and BerriAI/litellm#33981 on
/// `output_format`).
pub(super) fn strict_array_constraints(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &mut |s, _, node| {
        if node.field("type").and_then(Value::as_str) != Some("array") {
            return None;
        }
        let mut present: Vec<&str> = ARRAY_UNSUPPORTED
            .iter()
            .copied()
            .filter(|k| node.has(k))
            .collect();
        (!present.is_empty()).then(|| unsupported_properties(&s.at, "array", &mut present))
    })
}

/// Properties of an object node that its `required` does not list.
fn optional_count(node: &Map<String, Value>) -> usize {
    let Some(props) = node.field("properties").and_then(Value::as_object) else {
        return 0;
    };
    let required = crate::schema::required_names(node);
    props.keys().filter(|k| !required.contains(k)).count()
}

/// The compiler's budget is undocumented as such; the thresholds are the
/// ones reported with the recording (genkit#5230: 20 tools, 24 optional
/// fields) and confirmed elsewhere (alphaXiv/agents PR #51: "26 optional
/// properties against a limit of 24"). An approximation: a request under
/// both can still be too complex (optional properties inside array items
/// multiply, enricai/leerie PR #157).
const MAX_STRICT_TOOLS: usize = crate::facts::anthropic::STRICT_TOOLS.value;
const MAX_OPTIONAL_PROPERTIES: usize = crate::facts::anthropic::STRICT_OPTIONAL.value;
const MAX_UNION_PROPERTIES: usize = crate::facts::anthropic::STRICT_UNIONS.value;

pub(super) fn strict_schema_too_complex(req: &Request<'_>) -> Vec<Finding> {
    let strict_tools = (0..req.tools.len())
        .filter(|&i| req.strict(i) == Some(true))
        .count();
    let optional: usize = strict_schemas(req)
        .iter()
        .map(|s| {
            nodes(req, s.schema)
                .iter()
                .map(|(_, node)| optional_count(node))
                .sum::<usize>()
        })
        .sum();
    if strict_tools > MAX_STRICT_TOOLS || optional > MAX_OPTIONAL_PROPERTIES {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: "Schema is too complex for compilation. Try reducing the number of tools or simplifying tool schemas.".to_owned(),
        }]
    } else {
        Vec::new()
    }
}

/// A property whose schema is a union: `anyOf`, or a `type` list of two or
/// more names.
fn is_union(v: &Value) -> bool {
    v.get("anyOf").is_some()
        || v.get("type")
            .and_then(Value::as_array)
            .is_some_and(|t| t.len() > 1)
}

/// vercel/ai PR #17268 quotes the message with its middle elided:
/// `Schemas contains too many parameters with union types (… limit: 16 …)`;
/// mozilla/bugbug PR #6234 names the 16-anyOf limit for strict tools.
pub(super) fn strict_union_types_limit(req: &Request<'_>) -> Vec<Finding> {
    let unions: usize = strict_schemas(req)
        .iter()
        .map(|s| {
            nodes(req, s.schema)
                .iter()
                .filter_map(|(_, node)| node.field("properties").and_then(Value::as_object))
                .map(|props| props.values().filter(|v| is_union(v)).count())
                .sum::<usize>()
        })
        .sum();
    if unions > MAX_UNION_PROPERTIES {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: format!(
                "Schemas contains too many parameters with union types ({unions} parameters with union types, limit: {MAX_UNION_PROPERTIES})"
            ),
        }]
    } else {
        Vec::new()
    }
}

/// The local `$ref`s of one schema: (pointer of the referring node, target
/// pointer inside the schema).
fn local_refs(req: &Request<'_>, schema: &Value) -> Vec<(String, String)> {
    nodes(req, schema)
        .iter()
        .filter_map(|(path, node)| {
            let r = node.field("$ref")?.as_str()?;
            let target = r.strip_prefix('#')?;
            Some((path.clone(), target.to_owned()))
        })
        .collect()
}

pub(super) fn strict_recursive_schema(req: &Request<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in strict_schemas(req) {
        let refs = local_refs(req, s.schema);
        let mut reported: Vec<&str> = Vec::new();
        for (at, target) in &refs {
            if !reported.contains(&target.as_str()) && is_recursive(target, &refs) {
                reported.push(target);
                out.push(Finding {
                    tool: s.tool,
                    path: at.clone(),
                    message: format!(
                        "{}: recursive schemas are not supported ($ref '#{target}' refers back to itself)",
                        s.at
                    ),
                });
            }
        }
    }
    out
}

pub(super) fn strict_external_ref(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &mut |s, _, node| {
        let r = node.field("$ref")?.as_str()?;
        (!r.starts_with('#')).then(|| format!("{}: external $ref '{r}' is not supported", s.at))
    })
}

pub(super) fn strict_pattern_unsupported(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &mut |s, _, node| {
        let p = node.field("pattern")?.as_str()?;
        let lookaround = crate::ecma::has_lookaround(p)?;
        (lookaround || has_backreference(p)).then(|| {
            format!(
                "{}: 'pattern' uses a lookaround or a backreference, which strict mode does not support",
                s.at
            )
        })
    })
}

/// The string formats strict mode supports (the structured-outputs
/// limitations, from the provider-facts table).
const FORMATS: &[&str] = crate::facts::anthropic::STRICT_FORMATS.items;

pub(super) fn strict_format_unsupported(req: &Request<'_>) -> Vec<Finding> {
    each_strict_node(req, &mut |s, _, node| {
        let f = node.field("format")?.as_str()?;
        (!FORMATS.contains(&f))
            .then(|| format!("{}: For 'string' type, format '{f}' is not supported", s.at))
    })
}
