//! Ollama decodes the root `properties` of `parameters` into a Go
//! `map[string]api.ToolProperty` (nested schemas stay untyped values), so the
//! map and each of its values must be JSON objects. One pass per rule:
//! - `ollama-properties-map` (`ollama-properties-must-be-map`, recorded
//!   `json: cannot unmarshal array into Go struct field
//!   .tools.function.parameters.properties`): an empty array given for
//!   `properties` becomes `{}` (exact); any other non-map value fails closed;
//! - `ollama-boolean-properties` (`ollama-boolean-subschema`, recorded
//!   `cannot unmarshal bool into Go struct field`): a `true` property schema
//!   becomes `{}` (exact); a `false` one (the property must be absent) is
//!   removed and the model told not to pass it (Ollama's struct would drop a
//!   `not: {}` and show the model an unconstrained property); a required
//!   `false` property (no call can satisfy the tool) fails closed;
//! - `ollama-type-name-properties` (`ollama-property-value-must-be-object`,
//!   recorded `"query": "string"` → `cannot unmarshal string into Go struct
//!   field`): a property value that is a JSON type name, or an array of them,
//!   is read as the `type` it names; any other string, number or array
//!   fails closed.

use serde_json::{Map, Value, json};

use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

const TYPE_NAMES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The description note naming the properties whose `false` schema was
/// removed (none: no note).
pub(super) fn note_forbidden(tool: &mut Tool, cx: &mut Cx<'_>, forbidden: &[String]) {
    if forbidden.is_empty() {
        return;
    }
    let list: Vec<String> = forbidden.iter().map(|n| format!("`{n}`")).collect();
    cx.note(
        tool,
        &format!("Never pass these parameters: {}.", list.join(", ")),
        "properties whose schema is `false` surfaced as a note",
    );
}

fn prop_path(name: &str) -> String {
    schema::child_path("/properties", name)
}

/// The root's `properties` map, when the root and it are JSON objects.
fn root_props(tool: &mut Tool) -> Option<&mut Map<String, Value>> {
    tool.input_schema
        .as_object_mut()?
        .field_mut("properties")?
        .as_object_mut()
}

/// `ollama-properties-map`, see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OllamaPropertiesMap {
    /// Fail closed on a non-map `properties` other than `[]` (off: ship it).
    pub(crate) fail_closed_otherwise: bool,
}

impl Default for OllamaPropertiesMap {
    fn default() -> Self {
        Self {
            fail_closed_otherwise: true,
        }
    }
}

impl Pass for OllamaPropertiesMap {
    fn name(&self) -> &'static str {
        "ollama-properties-map"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("ollama-properties-must-be-map")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        match root.field("properties") {
            None | Some(Value::Null | Value::Object(_)) => Ok(Step::Continue),
            Some(Value::Array(a)) if a.is_empty() => {
                root.insert("properties".into(), json!({}));
                cx.record(
                    "",
                    "properties",
                    Action::Rewritten,
                    "an empty array given for properties: the empty map (exact)",
                );
                Ok(Step::Continue)
            }
            Some(other) if self.fail_closed_otherwise => Ok(Step::FailClosed(format!(
                "properties is {} {}, not a map of property schemas; no map means the same",
                kind(other),
                schema::to_bytes(other)
            ))),
            Some(_) => Ok(Step::Continue),
        }
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "ship a non-map properties",
            Self {
                fail_closed_otherwise: !self.fail_closed_otherwise,
            },
        )]
    }
}

/// `ollama-boolean-properties`, see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OllamaBooleanProperties {
    pub(crate) note_forbidden: bool,
    pub(crate) fail_closed_required: bool,
}

impl Default for OllamaBooleanProperties {
    fn default() -> Self {
        Self {
            note_forbidden: true,
            fail_closed_required: true,
        }
    }
}

impl Pass for OllamaBooleanProperties {
    fn name(&self) -> &'static str {
        "ollama-boolean-properties"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("ollama-boolean-subschema")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let required = tool
            .input_schema
            .as_object()
            .map(schema::required_names)
            .unwrap_or_default();
        let Some(props) = root_props(tool) else {
            return Ok(Step::Continue);
        };
        let forbidden: Vec<String> = props
            .iter()
            .filter(|(_, v)| **v == Value::Bool(false))
            .map(|(k, _)| k.clone())
            .collect();
        if self.fail_closed_required
            && let Some(name) = forbidden.iter().find(|n| required.contains(n))
        {
            return Ok(Step::FailClosed(format!(
                "property `{name}` is required but its schema is `false`: no call can satisfy the tool"
            )));
        }
        for (name, v) in props.iter_mut() {
            if *v == Value::Bool(true) {
                *v = json!({});
                cx.record(
                    &prop_path(name),
                    "properties",
                    Action::Rewritten,
                    "boolean `true` property schema: the equivalent `{}` (exact)",
                );
            }
        }
        for name in &forbidden {
            props.shift_remove(name);
            cx.record(
                &prop_path(name),
                "properties",
                Action::Removed,
                "boolean `false` property schema (the property must be absent): removed and noted",
            );
        }
        if self.note_forbidden {
            note_forbidden(tool, cx, &forbidden);
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "skip the note for removed false properties",
                Self {
                    note_forbidden: !self.note_forbidden,
                    ..*self
                },
            ),
            PassMutant::new(
                "remove a required false property",
                Self {
                    fail_closed_required: !self.fail_closed_required,
                    ..*self
                },
            ),
        ]
    }
}

/// `ollama-type-name-properties`, see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OllamaTypeNameProperties {
    /// Read an array of type names as a type array (off: fail closed).
    pub(crate) accept_type_arrays: bool,
}

impl Default for OllamaTypeNameProperties {
    fn default() -> Self {
        Self {
            accept_type_arrays: true,
        }
    }
}

impl OllamaTypeNameProperties {
    fn names_types(self, v: &Value) -> bool {
        match v {
            Value::String(s) => TYPE_NAMES.contains(&s.as_str()),
            Value::Array(a) => {
                self.accept_type_arrays
                    && !a.is_empty()
                    && a.iter()
                        .all(|t| t.as_str().is_some_and(|s| TYPE_NAMES.contains(&s)))
            }
            _ => false,
        }
    }
}

impl Pass for OllamaTypeNameProperties {
    fn name(&self) -> &'static str {
        "ollama-type-name-properties"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("ollama-property-value-must-be-object")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(props) = root_props(tool) else {
            return Ok(Step::Continue);
        };
        let bad = |v: &Value| matches!(v, Value::String(_) | Value::Number(_) | Value::Array(_));
        if let Some((name, v)) = props.iter().find(|(_, v)| bad(v) && !self.names_types(v)) {
            return Ok(Step::FailClosed(format!(
                "property `{name}` is {} {}, not a schema, and names no JSON type",
                kind(v),
                schema::to_bytes(v)
            )));
        }
        for (name, v) in props.iter_mut().filter(|(_, v)| bad(v)) {
            cx.record(
                &prop_path(name),
                "properties",
                Action::Rewritten,
                format!(
                    "shorthand {} read as the type it names",
                    schema::to_bytes(v)
                ),
            );
            *v = json!({ "type": v.take() });
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "fail closed on a type-name array",
            Self {
                accept_type_arrays: !self.accept_type_arrays,
            },
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{bytes, run, run_on_tool};

    fn mark(path: &str, keyword: &str, action: Action) -> (String, String, Action) {
        (path.to_owned(), keyword.to_owned(), action)
    }

    #[test]
    fn ollama_v1_turns_an_empty_properties_array_into_a_map() {
        let r = run(
            &OllamaPropertiesMap::default(),
            Lane::Ollama,
            json!({"type":"object","properties":[],"required":[]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{},"required":[]}"#
        );
        assert_eq!(r.marks(), [mark("", "properties", Action::Rewritten)]);
        assert_eq!(
            r.records[0].rule.as_deref(),
            Some("ollama-properties-must-be-map")
        );
        let again = run(
            &OllamaPropertiesMap::default(),
            Lane::Ollama,
            r.schema().clone(),
        );
        assert!(again.records.is_empty());
    }

    #[test]
    fn ollama_v1_fails_closed_on_other_non_map_properties() {
        let r = run(
            &OllamaPropertiesMap::default(),
            Lane::Ollama,
            json!({"type":"object","properties":["a"]}),
        );
        assert_eq!(
            r.step,
            Step::FailClosed(
                "properties is an array [\"a\"], not a map of property schemas; no map means the same".into()
            )
        );
        for v in [
            json!({"properties":null}),
            json!({"properties":{"a":{}}}),
            json!([]),
        ] {
            let r = run(&OllamaPropertiesMap::default(), Lane::Ollama, v.clone());
            assert_eq!(r.schema(), &v);
            assert_eq!(r.step, Step::Continue);
        }
    }

    #[test]
    fn ollama_v1_rewrites_true_property_schemas_and_removes_false_ones_with_a_note() {
        let r = run_on_tool(
            &OllamaBooleanProperties::default(),
            Lane::Ollama,
            Tool::new(
                "grep",
                json!({"type":"object","properties":{"pattern":{"type":"string"},"options":true,"legacy":false,"old":false},
                       "required":["pattern"],"additionalProperties":{"items":true}}),
            )
            .with_description("Search."),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"pattern":{"type":"string"},"options":{}},"required":["pattern"],"additionalProperties":{"items":true}}"#
        );
        assert_eq!(
            r.marks(),
            [
                mark("/properties/options", "properties", Action::Rewritten),
                mark("/properties/legacy", "properties", Action::Removed),
                mark("/properties/old", "properties", Action::Removed),
                mark("", "description", Action::Noted),
            ]
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("Search.\n\nNever pass these parameters: `legacy`, `old`.")
        );
        let again = run(
            &OllamaBooleanProperties::default(),
            Lane::Ollama,
            r.schema().clone(),
        );
        assert!(again.records.is_empty());
    }

    #[test]
    fn ollama_v1_fails_closed_on_a_required_false_property() {
        let r = run(
            &OllamaBooleanProperties::default(),
            Lane::Ollama,
            json!({"type":"object","properties":{"x":false},"required":["x"]}),
        );
        assert_eq!(
            r.step,
            Step::FailClosed(
                "property `x` is required but its schema is `false`: no call can satisfy the tool"
                    .into()
            )
        );
    }

    #[test]
    fn ollama_v1_reads_type_name_shorthands_as_types() {
        let r = run(
            &OllamaTypeNameProperties::default(),
            Lane::Ollama,
            json!({"type":"object","properties":{"query":"string","n":["integer","null"],"ok":{"type":"boolean"}},"required":["query"]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"query":{"type":"string"},"n":{"type":["integer","null"]},"ok":{"type":"boolean"}},"required":["query"]}"#
        );
        assert_eq!(
            r.marks(),
            [
                mark("/properties/query", "properties", Action::Rewritten),
                mark("/properties/n", "properties", Action::Rewritten),
            ]
        );
        let again = run(
            &OllamaTypeNameProperties::default(),
            Lane::Ollama,
            r.schema().clone(),
        );
        assert!(again.records.is_empty());
    }

    #[test]
    fn ollama_v1_fails_closed_on_a_property_value_that_names_no_type() {
        for (v, msg) in [
            (json!("The query"), "a string \"The query\""),
            (json!(3), "a number 3"),
            (json!(["a"]), "an array [\"a\"]"),
        ] {
            let r = run(
                &OllamaTypeNameProperties::default(),
                Lane::Ollama,
                json!({"type":"object","properties":{"q": v}}),
            );
            assert_eq!(
                r.step,
                Step::FailClosed(format!(
                    "property `q` is {msg}, not a schema, and names no JSON type"
                ))
            );
        }
    }

    #[test]
    fn ollama_passes_declare_their_mutants() {
        assert_eq!(OllamaPropertiesMap::default().mutants().len(), 1);
        assert_eq!(OllamaBooleanProperties::default().mutants().len(), 2);
        assert_eq!(OllamaTypeNameProperties::default().mutants().len(), 1);
    }
}
