//! OpenAI's strict-mode rules (`strict: true` tools and strict
//! `response_format` schemas): closed objects, every key required, and the
//! keywords and formats strict mode does not take (recorded, then the
//! documented subset of `facts::openai`).

use serde_json::Value;

use super::target::{Step, context, each_node, steps, strict_targets};
use crate::facts::openai as fact;
use crate::lookup::Lookup;
use crate::rules::model::{Finding, Request};
use crate::rules::{nodes, py_str};
use crate::schema::{escape_token, is_object_schema};

// ---- strict rules -----------------------------------------------------

pub(super) fn strict_additional_properties(req: &Request<'_>) -> Vec<Finding> {
    each_node(req, &strict_targets(req), &mut |t, path, node| {
        if is_object_schema(node) && node.field("additionalProperties") != Some(&Value::Bool(false))
        {
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
pub(super) fn strict_required_all_keys(req: &Request<'_>) -> Vec<Finding> {
    each_node(req, &strict_targets(req), &mut |t, path, node| {
        let Some(props) = node.field("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        let missing: Vec<String> = props
            .keys()
            .filter(|k| !crate::schema::requires(node, k))
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

/// `openai-strict-ref-siblings`: a `$ref` beside other keywords, in
/// OpenAI's recorded wording (`Invalid schema for response_format 'search':
/// context=('properties', 'query'), $ref cannot have keywords {'default',
/// 'description', 'title'}.`, langchainjs#11381, 2026-08-16; the same
/// message with `{'description'}` in camel-ai/camel#3001, 2025-08-10, and
/// defog-ai/defog#244, 2026-03-13). The keywords are listed sorted, as both
/// reports print them. `$defs`/`definitions` beside a root `$ref` are not
/// counted: no report shows whether they are rejected.
pub(super) fn strict_ref_siblings(req: &Request<'_>) -> Vec<Finding> {
    each_node(req, &strict_targets(req), &mut |t, path, node| {
        if !node.has("$ref") {
            return Vec::new();
        }
        let mut keys: Vec<&str> = node
            .keys()
            .map(String::as_str)
            .filter(|k| {
                *k != "$ref" && !(path.is_empty() && (*k == "$defs" || *k == "definitions"))
            })
            .collect();
        if keys.is_empty() {
            return Vec::new();
        }
        keys.sort_unstable();
        let listed: Vec<String> = keys.into_iter().map(py_str).collect();
        vec![t.invalid(&format!(
            "context={}, $ref cannot have keywords {{{}}}.",
            context(path),
            listed.join(", ")
        ))]
    })
}

/// `openai-strict-subschema-missing-type`: a subschema (not the root) with
/// no `type` key and none of the keywords that stand in for one
/// (`facts::openai::STRICT_TYPE_STAND_INS`), in OpenAI's recorded wording:
/// `Invalid schema for function 'mcp__ruflo__config_set': In
/// context=('properties', 'value'), schema must have a 'type' key.`
/// (Gitlawb/openclaude#1114, 2026-05-11, a description-only property on the
/// Responses API; the same message for `items: {}` in can1357/oh-my-pi#211,
/// 2026-02-28).
pub(super) fn strict_subschema_missing_type(req: &Request<'_>) -> Vec<Finding> {
    each_node(req, &strict_targets(req), &mut |t, path, node| {
        if path.is_empty()
            || node.has("type")
            || fact::STRICT_TYPE_STAND_INS.iter().any(|k| node.has(k))
        {
            Vec::new()
        } else {
            vec![t.in_context(path, "schema must have a 'type' key.")]
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

pub(super) fn strict_keyword_not_permitted(req: &Request<'_>) -> Vec<Finding> {
    if req.as_of >= STRICT_KEYWORDS_PERMITTED_FROM {
        return Vec::new();
    }
    each_node(req, &strict_targets(req), &mut |t, path, node| {
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

pub(super) fn azure_default_not_permitted(req: &Request<'_>) -> Vec<Finding> {
    each_node(req, &strict_targets(req), &mut |_, path, node| {
        // The node's own member first: `is_property` parses the path.
        if node.field("default").is_some_and(|d| !d.is_null()) && is_property(path) {
            vec!["'default' is not permitted within a property definition".to_owned()]
        } else {
            Vec::new()
        }
    })
}

// ---- documented strict subset (facts.rs) -----------------------------

/// `openai-strict-keyword-not-permitted`: a keyword of the documented
/// unsupported set, in OpenAI's recorded wording (`In context=('properties',
/// 'data'), 'allOf' is not permitted.`, notion-mcp-server#102,
/// 2025-08-07). Before 2025-05-16 the keywords that
/// `openai-strict-minimum-not-permitted` covers are left to that rule.
pub(super) fn strict_unsupported_keyword(req: &Request<'_>) -> Vec<Finding> {
    let early = req.as_of < STRICT_KEYWORDS_PERMITTED_FROM;
    let mut out = Vec::new();
    for t in strict_targets(req) {
        for (path, node) in nodes(req, t.schema).iter() {
            for k in node.keys().filter(|k| {
                fact::STRICT_REJECTED.items.contains(&k.as_str())
                    && !(early && ONCE_NOT_PERMITTED.contains(&k.as_str()))
            }) {
                out.push(t.finding(
                    &format!("{path}/{}", escape_token(k)),
                    t.in_context(path, &format!("'{k}' is not permitted.")),
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
pub(super) fn strict_format_unsupported(req: &Request<'_>) -> Vec<Finding> {
    if req.as_of < STRICT_KEYWORDS_PERMITTED_FROM {
        return Vec::new();
    }
    let mut out = Vec::new();
    for t in strict_targets(req) {
        for (path, node) in nodes(req, t.schema).iter() {
            let Some(f) = node.field("format").and_then(Value::as_str) else {
                continue;
            };
            if fact::STRICT_FORMATS.items.contains(&f) || crate::schema::numeric_only(node) {
                continue;
            }
            out.push(t.finding(
                &format!("{path}/format"),
                t.in_context(path, &format!("{} is not a valid format.", py_str(f))),
            ));
        }
    }
    out
}
