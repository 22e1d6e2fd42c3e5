//! `property-schemas-to-objects`: on `moonshot` (rule
//! `moonshot-property-schema-not-object`, recorded: `<At path
//! 'properties.tasks.items.properties': property schema for 'outputSchema'
//! must be an object>`), every value of a `properties` map, at the
//! positions Moonshot's schema format has, becomes an object:
//! - `true` becomes `{}`, the same schema (exact; Moonshot's validator
//!   rules take `{}` without a type);
//! - `false` (the key must be absent) goes, recorded and named in a
//!   description note; a required one fails the tool closed, since no
//!   call can satisfy it;
//! - any other value (a string such as `"string"`, a number, an array,
//!   `null`) is no schema at all and becomes `{}`, recorded, as
//!   `replace-non-schemas` does on the OpenAI wires.

use serde_json::{Map, Value, json};

use super::ollama::{kind, note_forbidden};
use super::untyped::mfjs_step;
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::pointer::child_path;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// See the module docs. The flag is the pass's mutation point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PropertySchemasToObjects {
    /// Remove a `false` property (else it ships as it is).
    pub(crate) remove_forbidden: bool,
}

impl Default for PropertySchemasToObjects {
    fn default() -> Self {
        Self {
            remove_forbidden: true,
        }
    }
}

/// The node's `properties` map holds a value that is not an object.
fn has_non_object_property(node: &Map<String, Value>) -> bool {
    node.field("properties")
        .and_then(Value::as_object)
        .is_some_and(|props| props.values().any(|v| !v.is_object()))
}

impl Pass for PropertySchemasToObjects {
    fn name(&self) -> &'static str {
        "property-schemas-to-objects"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("moonshot-property-schema-not-object")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !schema::any_node(&tool.input_schema, &|_, node| has_non_object_property(node))? {
            return Ok(Step::Continue);
        }
        let mut forbidden = Vec::new();
        let mut unsatisfiable = None;
        schema::rewrite_pre_order_through(
            &mut tool.input_schema,
            &mfjs_step,
            &mut |path, node| {
                if !has_non_object_property(node) {
                    return true;
                }
                let required = schema::required_names(node);
                let Some(props) = node.get_mut("properties").and_then(Value::as_object_mut) else {
                    return true;
                };
                let names: Vec<String> = props
                    .iter()
                    .filter(|(_, v)| !v.is_object())
                    .map(|(k, _)| k.clone())
                    .collect();
                let map_path = child_path(path, "properties");
                for name in names {
                    let at = child_path(&map_path, &name);
                    match props.get(&name) {
                        Some(Value::Bool(false)) if !self.remove_forbidden => {}
                        Some(Value::Bool(false)) if required.contains(&name) => {
                            unsatisfiable.get_or_insert(at);
                        }
                        Some(Value::Bool(false)) => {
                            props.shift_remove(&name);
                            cx.record(
                            &at,
                            "properties",
                            Action::Removed,
                            "boolean `false` property schema (the property must be absent): removed and noted",
                        );
                            forbidden.push(name);
                        }
                        Some(Value::Bool(true)) => {
                            props.insert(name, json!({}));
                            cx.record(
                                &at,
                                "properties",
                                Action::Rewritten,
                                "boolean `true` property schema: the equivalent `{}` (exact)",
                            );
                        }
                        Some(other) => {
                            let what = kind(other);
                            props.insert(name, json!({}));
                            cx.record(
                                &at,
                                "properties",
                                Action::Rewritten,
                                format!(
                                    "property schema held {what}, not a schema: replaced by {{}}"
                                ),
                            );
                        }
                        None => {}
                    }
                }
                true
            },
        )?;
        if let Some(at) = unsatisfiable {
            return Ok(Step::FailClosed(format!(
                "the property at {at} is required but its schema is `false`: no call can satisfy the tool"
            )));
        }
        note_forbidden(tool, cx, &forbidden);
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::flip(
            self,
            "leave a `false` property in place",
            |m| &mut m.remove_forbidden,
        )]
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::run_on_tool;

    /// `true` becomes `{}`, a scalar becomes `{}`, an optional `false` goes
    /// (noted), each recorded at its property, nested ones included.
    #[test]
    fn moonshot_v1_makes_every_property_schema_an_object() {
        let tool = Tool::new(
            "t",
            json!({"type": "object", "properties": {
                "tasks": {"type": "array", "items": {"type": "object", "properties": {
                    "prompt": {"type": "string"},
                    "outputSchema": true
                }}},
                "content": "string",
                "legacy": false
            }, "required": ["tasks"]}),
        );
        let r = run_on_tool(&PropertySchemasToObjects::default(), Lane::Moonshot, tool);
        assert_eq!(
            r.tool.input_schema,
            json!({"type": "object", "properties": {
                "tasks": {"type": "array", "items": {"type": "object", "properties": {
                    "prompt": {"type": "string"},
                    "outputSchema": {}
                }}},
                "content": {}
            }, "required": ["tasks"]})
        );
        let records: Vec<(&str, &str)> = r
            .records
            .iter()
            .map(|d| (d.path.as_str(), &*d.reason))
            .collect();
        assert_eq!(
            records,
            [
                (
                    "/properties/content",
                    "property schema held a string, not a schema: replaced by {}"
                ),
                (
                    "/properties/legacy",
                    "boolean `false` property schema (the property must be absent): removed and noted"
                ),
                (
                    "/properties/tasks/items/properties/outputSchema",
                    "boolean `true` property schema: the equivalent `{}` (exact)"
                ),
                ("", "properties whose schema is `false` surfaced as a note"),
            ]
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("Never pass these parameters: `legacy`.")
        );
    }

    /// A required `false` property fails the tool closed.
    #[test]
    fn moonshot_v1_fails_closed_on_a_required_false_property() {
        let tool = Tool::new(
            "t",
            json!({"type": "object", "properties": {"x": false}, "required": ["x"]}),
        );
        let r = run_on_tool(&PropertySchemasToObjects::default(), Lane::Moonshot, tool);
        assert_eq!(
            r.step,
            Step::FailClosed(
                "the property at /properties/x is required but its schema is `false`: no call can satisfy the tool"
                    .into()
            )
        );
    }
}
