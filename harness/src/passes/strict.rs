//! OpenAI strict mode on the Responses lane (v1): a tool sent with
//! `strict: true` must use the strict subset, which the Responses API
//! enforces per object (recordings `openai-strict-additionalproperties-false-2`
//! and `openai-strict-required-all-keys-5`). Two passes, for strict tools
//! only (non-strict tools are left alone):
//! - `strict-close-objects`: every object schema gets `additionalProperties: false`;
//! - `strict-require-all`: every property is required; an optional one
//!   becomes nullable instead (OpenAI's documented way to keep it optional:
//!   a `"null"` type member, or a null branch for typeless schemas).

use serde_json::{Value, json};

use super::{Cx, Pass, Step};
use crate::degradation::Action;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// `additionalProperties: false` on every object of a strict tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct StrictCloseObjects;

impl Pass for StrictCloseObjects {
    fn name(&self) -> &'static str {
        "strict-close-objects"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-strict-additionalproperties-false")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if tool.strict != Some(true) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if schema::is_object_schema(node) {
                cx.set_keyword(
                    path,
                    node,
                    ("properties", "additionalProperties"),
                    json!(false),
                    "strict mode: every object closed",
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }
}

/// Every property required; optional ones made nullable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct StrictRequireAll;

/// Make one property schema accept `null` too.
fn nullable(prop: &mut Value) -> &'static str {
    let Value::Object(m) = prop else {
        return "properties";
    };
    match m.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            m.insert("type".into(), json!([t, "null"]));
            "type"
        }
        Some(Value::Array(ts)) => {
            if !ts.contains(&json!("null")) {
                ts.push(json!("null"));
            }
            "type"
        }
        Some(_) => "type",
        None => {
            if let Some(Value::Array(branches)) = m.get_mut("anyOf") {
                branches.push(json!({"type": "null"}));
                return "anyOf";
            }
            let inner = std::mem::take(m);
            m.insert(
                "anyOf".into(),
                json!([Value::Object(inner), {"type": "null"}]),
            );
            "properties"
        }
    }
}

impl Pass for StrictRequireAll {
    fn name(&self) -> &'static str {
        "strict-require-all"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-strict-required-all-keys")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if tool.strict != Some(true) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let required = schema::required_names(node);
            let Some(Value::Object(props)) = node.get_mut("properties") else {
                return true;
            };
            let mut all = required.clone();
            for (name, prop) in props.iter_mut() {
                if required.contains(name) {
                    continue;
                }
                let keyword = nullable(prop);
                let at = schema::child_path(&format!("{path}/properties"), name);
                cx.record(
                    &at,
                    keyword,
                    Action::Rewritten,
                    "strict mode: optional property made nullable",
                );
                all.push(name.clone());
            }
            if all != required || (!all.is_empty() && !node.contains_key("required")) {
                cx.set_keyword(
                    path,
                    node,
                    ("properties", "required"),
                    json!(all),
                    "strict mode: every property required",
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{bytes, run_on_tool};

    fn strict(schema: Value) -> Tool {
        let mut t = Tool::new("t", schema);
        t.strict = Some(true);
        t
    }

    #[test]
    fn responses_v1_closes_every_object_of_a_strict_tool() {
        let r = run_on_tool(
            &StrictCloseObjects,
            Lane::OpenaiResponses,
            strict(
                json!({"type":"object","properties":{"p":{"type":"object","properties":{"r":{"type":"boolean"}},"required":["r"]}},"required":["p"],"additionalProperties":false}),
            ),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"p":{"type":"object","properties":{"r":{"type":"boolean"}},"additionalProperties":false,"required":["r"]}},"required":["p"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn responses_v1_makes_optional_properties_of_a_strict_tool_nullable_and_required() {
        let r = run_on_tool(
            &StrictRequireAll,
            Lane::OpenaiResponses,
            strict(
                json!({"type":"object","properties":{"sql":{"type":"string"},"params":{"type":"array","items":{"type":"string"}},"ref":{"$ref":"#/$defs/x"}},"required":["sql"]}),
            ),
        );
        assert_eq!(
            bytes(r.schema()),
            r##"{"type":"object","properties":{"sql":{"type":"string"},"params":{"type":["array","null"],"items":{"type":"string"}},"ref":{"anyOf":[{"$ref":"#/$defs/x"},{"type":"null"}]}},"required":["sql","params","ref"]}"##
        );
    }

    #[test]
    fn responses_v1_leaves_non_strict_tools_alone() {
        let v = json!({"type":"object","properties":{"a":{"type":"string"}}});
        for pass in [&StrictCloseObjects as &dyn Pass, &StrictRequireAll] {
            let r = run_on_tool(pass, Lane::OpenaiResponses, Tool::new("t", v.clone()));
            assert_eq!(r.schema(), &v);
            assert!(r.records.is_empty());
        }
    }
}
