//! The previous line's DeepSeek strict shaping (`deepseek-strict-v0`).

use serde_json::{Value, json};

use super::subset::{Close, close_object};
use crate::degradation::Action;
use crate::passes::{Cx, Pass, Step};
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

// ---------------------------------------------------------------- v0

/// The old line's strict shaping (see module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekStrictV0;

impl Pass for DeepseekStrictV0 {
    fn name(&self) -> &'static str {
        "deepseek-strict-v0"
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if !schema::is_object_schema(node) {
                return true;
            }
            let required = schema::required_names(node);
            if let Some(Value::Object(props)) = node.get_mut("properties") {
                for (name, sub) in props.iter_mut() {
                    if required.contains(name) {
                        continue;
                    }
                    if let Value::Object(s) = sub
                        && s.get("nullable") != Some(&json!(true))
                    {
                        s.insert("nullable".into(), json!(true));
                        cx.record(
                            &schema::child_path(&format!("{path}/properties"), name),
                            "nullable",
                            Action::Added,
                            "optional property made nullable and required",
                        );
                    }
                }
            }
            close_object(path, node, Close::default(), cx);
            true
        })?;
        if tool.strict != Some(true) {
            tool.strict = Some(true);
            cx.record("", "strict", Action::Added, "tool marked strict");
        }
        Ok(Step::Continue)
    }
}

// ---------------------------------------------------------------- v1
