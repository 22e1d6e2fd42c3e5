//! Before the rewrites: tools named unusable by configuration, and the pre-gate
//! that fails closed on what no rewrite reaches.

use serde_json::{Map, Value};

use super::subset::{at, find_in_shipped};
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::TooDeep;
use crate::tool::Tool;

/// Fail closed for tools the configuration names as unusable in strict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct DeepseekStrictUnusable;

impl Pass for DeepseekStrictUnusable {
    fn name(&self) -> &'static str {
        "deepseek-strict-unusable"
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if cx.config.strict_unusable.contains(&tool.name) {
            return Ok(Step::FailClosed(format!(
                "tool `{}` is listed in strict_unusable: its runtime needs values the strict subset cannot require",
                tool.name
            )));
        }
        Ok(Step::Continue)
    }
}

/// Checks that must judge the shape before later passes erase the evidence.
/// Each field switches one check (the pass's mutation points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekPreGate {
    pub(crate) non_object_root: bool,
    pub(crate) map_root: bool,
    pub(crate) dependent_schemas: bool,
    pub(crate) schema_dependencies: bool,
    pub(crate) const_null: bool,
}

/// The default gate, usable as a value like the unit struct it once was.
#[allow(non_upper_case_globals)]
pub(crate) const DeepseekPreGate: DeepseekPreGate = DeepseekPreGate {
    non_object_root: true,
    map_root: true,
    dependent_schemas: true,
    schema_dependencies: true,
    const_null: true,
};

impl Default for DeepseekPreGate {
    fn default() -> Self {
        DeepseekPreGate
    }
}

impl Pass for DeepseekPreGate {
    fn name(&self) -> &'static str {
        "deepseek-pre-gate"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "skip the non-object root check", |p| {
                &mut p.non_object_root
            }),
            PassMutant::flip(self, "skip the root map-shape check", |p| &mut p.map_root),
            PassMutant::flip(self, "skip the dependentSchemas check", |p| {
                &mut p.dependent_schemas
            }),
            PassMutant::flip(self, "skip the schema-form dependencies check", |p| {
                &mut p.schema_dependencies
            }),
            PassMutant::flip(self, "skip the const: null check", |p| &mut p.const_null),
        ]
    }

    fn apply(&self, tool: &mut Tool, _cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.non_object_root && !tool.input_schema.is_object() {
            return Ok(Step::FailClosed(
                "input schema is not a JSON object: strict mode needs an object schema".into(),
            ));
        }
        if self.non_object_root
            && let Some(t) = tool.input_schema.field("type")
            && t != "object"
            && !t
                .as_array()
                .is_some_and(|ts| ts.iter().any(|x| x == "object"))
        {
            return Ok(Step::FailClosed(format!(
                "root declares type {t}: strict mode needs an object root"
            )));
        }
        if let Some(root) = tool.input_schema.as_object() {
            let props_empty = root
                .field("properties")
                .and_then(Value::as_object)
                .is_none_or(Map::is_empty);
            let map_like = matches!(
                root.field("additionalProperties"),
                Some(Value::Object(_) | Value::Bool(true))
            ) || root
                .field("patternProperties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if self.map_root && props_empty && map_like {
                return Ok(Step::FailClosed(
                    "root is a map shape (additionalProperties or patternProperties without properties): strict mode would only accept {}".into(),
                ));
            }
        }
        let found = find_in_shipped(&tool.input_schema, &mut |path, node| {
            if self.dependent_schemas
                && node
                    .field("dependentSchemas")
                    .and_then(Value::as_object)
                    .is_some_and(|m| !m.is_empty())
            {
                return Some(format!(
                    "dependentSchemas at {} cannot be expressed in strict mode",
                    at(path)
                ));
            }
            if self.schema_dependencies
                && let Some(Value::Object(deps)) = node.field("dependencies")
                && deps.values().any(|v| v.is_object() || v.is_boolean())
            {
                return Some(format!(
                    "schema-form dependencies at {} cannot be expressed in strict mode",
                    at(path)
                ));
            }
            if self.const_null && node.field("const") == Some(&Value::Null) {
                return Some(format!(
                    "const: null at {} needs a null type, outside the strict subset",
                    at(path)
                ));
            }
            None
        })?;
        Ok(found.map_or(Step::Continue, Step::FailClosed))
    }
}
