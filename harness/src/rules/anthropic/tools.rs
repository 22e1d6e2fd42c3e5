//! Anthropic's rules on custom tools and their `input_schema`, strict or
//! not: root composition, the name, the schema's presence, key, `type` and
//! draft 2020-12 validity, and root property names.

use serde_json::{Map, Value};

use crate::lookup::Lookup;
use crate::rules::model::{Finding, Request};
use crate::rules::{each_schema, finding, metaschema_error};
use crate::schema::escape_token;

/// A custom tool (no `type`, or `type: "custom"`); server tools such as
/// `web_search_20250305` carry no `input_schema`.
fn custom_tools<'r>(req: &'r Request<'_>) -> impl Iterator<Item = (usize, &'r Map<String, Value>)> {
    req.tools.iter().enumerate().filter_map(|(i, t)| {
        let t = t.as_object()?;
        t.get("type")
            .and_then(Value::as_str)
            .is_none_or(|ty| ty == "custom")
            .then_some((i, t))
    })
}

pub(super) fn root_composition(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let Some(root) = s.as_object() else {
            return Vec::new();
        };
        if ["oneOf", "allOf", "anyOf"].iter().any(|k| root.has(k)) {
            // The message is Anthropic's own on every wire (OpenRouter
            // relays it verbatim), so the location is always the Messages one.
            vec![finding(
                i,
                "",
                format!(
                    "tools.{i}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
                ),
            )]
        } else {
            Vec::new()
        }
    })
}

/// The name limit changed from 64 to 128 characters (2025-07-01): the
/// 2025-03-07 recording quotes `{1,64}`, the define-tools page now `{1,128}`.
fn name_limit(as_of: &str) -> usize {
    if as_of < "2025-07-01" { 64 } else { 128 }
}

/// Since the 128 limit a too-long name gets its own message (pydantic checks
/// `max_length` before `pattern` and reports the first failure).
fn name_too_long(name: &str, as_of: &str) -> bool {
    as_of >= "2025-07-01" && name.chars().count() > 128
}

pub(super) fn tool_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    let limit = name_limit(req.as_of);
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            let ok = !name.is_empty()
                && name.chars().count() <= limit
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            (!ok && !name_too_long(name, req.as_of)).then(|| {
                finding(
                    i,
                    "",
                    format!("tools.{i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,{limit}}}$'"),
                )
            })
        })
        .collect()
}

pub(super) fn tool_name_length(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            name_too_long(name, req.as_of).then(|| {
                finding(
                    i,
                    "",
                    format!("tools.{i}.custom.name: String should have at most 128 characters"),
                )
            })
        })
        .collect()
}

pub(super) fn input_schema_missing(req: &Request<'_>) -> Vec<Finding> {
    custom_tools(req)
        .filter(|(_, t)| !t.contains_key("input_schema") && !t.contains_key("inputSchema"))
        .map(|(i, _)| {
            finding(
                i,
                "",
                format!("tools.{i}.custom.input_schema: Field required"),
            )
        })
        .collect()
}

/// koog#500 shows the same endpoint naming the extraneous `inputSchema`
/// key next to the missing `input_schema`; the recorded message is the
/// missing-field one.
pub(super) fn bedrock_invoke_input_schema_key(req: &Request<'_>) -> Vec<Finding> {
    custom_tools(req)
        .filter(|(_, t)| !t.contains_key("input_schema") && t.contains_key("inputSchema"))
        .map(|(i, _)| {
            finding(
                i,
                "",
                format!("tools.{i}.custom.input_schema: Field required"),
            )
        })
        .collect()
}

pub(super) fn input_schema_type_required(req: &Request<'_>) -> Vec<Finding> {
    custom_tools(req)
        .filter_map(|(i, t)| {
            let s = t.get("input_schema")?.as_object()?;
            (!s.contains_key("type")).then(|| {
                finding(
                    i,
                    "",
                    format!("tools.{i}.custom.input_schema.type: Field required"),
                )
            })
        })
        .collect()
}

/// The docs link at the end of the message moved with Anthropic's docs:
/// docs.anthropic.com (2025-04-05 recording; still so on 2025-09-09,
/// claude-code#7365), docs.claude.com from 2025-10-04 (claude-code#8900;
/// the 2025-12-20 recording). A later platform.claude.com link is reported
/// in provider_rules.md without a dated body, so it is not modelled.
fn docs_link(as_of: &str) -> &'static str {
    if as_of < "2025-10-04" {
        "https://docs.anthropic.com/en/docs/tool-use"
    } else {
        "https://docs.claude.com/en/docs/tool-use"
    }
}

pub(super) fn json_schema_invalid(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        if metaschema_error(s).is_none() {
            return Vec::new();
        }
        vec![finding(
            i,
            "",
            format!(
                "tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at {}.",
                docs_link(req.as_of)
            ),
        )]
    })
}

fn property_key_ok(key: &str) -> bool {
    !key.is_empty()
        && key.chars().count() <= 64
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Only the root's property names are checked (decocms/studio PR #6874);
/// one message per tool, pointing at the first offending name.
pub(super) fn property_key_pattern(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let Some(props) = s.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        props
            .keys()
            .find(|k| !property_key_ok(k))
            .map(|k| {
                finding(
                    i,
                    &format!("/properties/{}", escape_token(k)),
                    format!(
                        "tools.{i}.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{{1,64}}$'"
                    ),
                )
            })
            .into_iter()
            .collect()
    })
}
