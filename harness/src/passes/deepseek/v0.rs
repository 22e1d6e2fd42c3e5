//! The previous line's DeepSeek strict shaping (`deepseek-strict-v0`).

use serde_json::{Value, json};

use super::subset::{Close, objects};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, Step};
use crate::schema::TooDeep;
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
        // Inside conditionals too; an optional property is made nullable
        // as it is required.
        objects(Close::default(), true).apply(&mut tool.input_schema, cx, &mut |at, sub, cx| {
            if let Value::Object(s) = sub
                && s.field("nullable") != Some(&json!(true))
            {
                s.insert("nullable".into(), json!(true));
                cx.record(
                    at,
                    "nullable",
                    Action::Added,
                    "optional property made nullable and required",
                );
            }
        })?;
        if tool.strict != Some(true) {
            tool.strict = Some(true);
            cx.record("", "strict", Action::Added, "tool marked strict");
        }
        Ok(Step::Continue)
    }
}

// ---------------------------------------------------------------- v1
