//! The parameters root on the compat lanes.
//!
//! - `wrap-bare-property-map`: `parameters` given as a bare property map
//!   (`{"video_path": {...}, "description": {...}}`, no `type`/`properties`
//!   wrapper) is wrapped into `{"type": "object", "properties": {...}}`.
//!   Mistral rejects such a map when a property is named like a keyword
//!   (recorded: `Invalid tool schema: {'type': 'string', 'description': ...}
//!   is not of type 'string'`); DeepSeek and Moonshot reject any root
//!   without `type: "object"`.
//! - `parameters-object-floor`: the root becomes an object schema with
//!   `type: "object"` (recorded: DeepSeek `schema must be a JSON Schema of
//!   'type: "object"', got 'type: null'`, Moonshot
//!   `tools.function.parameters.type is required and must be "object"`).
//!   On Mistral only a root that is no schema at all (array, number,
//!   string) is replaced.

use serde_json::{Map, Value, json};

use super::keywords::{never_object_valued, object_valued};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::root as shared;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// `wrap-bare-property-map`, see the module docs. A root is a bare map when
/// it has no object-valued keyword, a `type` that is absent, `"object"` or
/// itself an object (a property named `type`), and at least one key whose
/// value is a JSON object; those keys move under `properties` (at the first
/// one's position), the rest stay. It is wrapped when a moved key is named
/// like a keyword, or (`wrap_untyped`) when the root declares no
/// `type: "object"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WrapBarePropertyMap {
    rule: &'static str,
    /// Wrap a map without a keyword collision too when its root is not typed
    /// `object` (DeepSeek, Moonshot); Mistral accepts such a map.
    pub(crate) wrap_untyped: bool,
    /// `$`- and `x-`-prefixed keys are vendor or core keywords, never moved.
    pub(crate) keep_reserved: bool,
}

impl WrapBarePropertyMap {
    pub(crate) fn new(rule: &'static str, wrap_untyped: bool) -> Self {
        Self {
            rule,
            wrap_untyped,
            keep_reserved: true,
        }
    }

    fn movable(&self, key: &str, value: &Value) -> bool {
        value.is_object()
            && !(self.keep_reserved && (key.starts_with('$') || key.starts_with("x-")))
    }
}

impl Pass for WrapBarePropertyMap {
    fn name(&self) -> &'static str {
        "wrap-bare-property-map"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        if root.keys().any(|k| object_valued(k)) {
            return Ok(Step::Continue);
        }
        let typed_object = match root.field("type") {
            None | Some(Value::Object(_)) => false,
            Some(Value::String(s)) if s == "object" => true,
            Some(_) => return Ok(Step::Continue),
        };
        let moved: Vec<String> = root
            .iter()
            .filter(|(k, v)| self.movable(k, v))
            .map(|(k, _)| k.clone())
            .collect();
        let collision = moved.iter().any(|k| never_object_valued(k));
        if moved.is_empty() || !(collision || (self.wrap_untyped && !typed_object)) {
            return Ok(Step::Continue);
        }
        let old = std::mem::take(root);
        if !typed_object {
            root.insert("type".into(), json!("object"));
            cx.record(
                "",
                "type",
                Action::Added,
                "bare property map wrapped into an object schema",
            );
        }
        let mut props = Map::new();
        let mut rest: Vec<(String, Option<Value>)> = Vec::new();
        for (k, v) in old {
            if moved.contains(&k) {
                if props.is_empty() {
                    rest.push(("properties".into(), None));
                }
                cx.record(
                    "",
                    &k,
                    Action::Rewritten,
                    format!("bare property map: `{k}` is a property, moved under properties"),
                );
                props.insert(k, v);
            } else {
                rest.push((k, Some(v)));
            }
        }
        let mut props = Some(props);
        for (k, v) in rest {
            match v {
                Some(v) => root.insert(k, v),
                None => root.insert(k, Value::Object(props.take().unwrap_or_default())),
            };
        }
        cx.record(
            "",
            "properties",
            Action::Added,
            "bare property map wrapped into an object schema",
        );
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "negate wrap_untyped",
                Self {
                    wrap_untyped: !self.wrap_untyped,
                    ..self.clone()
                },
            ),
            PassMutant::new(
                "move $- and x- keys too",
                Self {
                    keep_reserved: false,
                    ..self.clone()
                },
            ),
        ]
    }
}

/// `parameters-object-floor`, see the module docs. With `object_type`:
/// a `false` root fails closed (the tool accepts no arguments; nothing the
/// model can satisfy says the same); any other non-object JSON root
/// becomes `{}`; a root without `type` gets `type: "object"` first (exact
/// over function arguments, which are always a JSON object); a type array
/// naming `object` becomes `"object"`; any other declared type fails
/// closed (the tool takes a non-object input); a root given its type here
/// gets `properties: {}` when it has none. Without `object_type` only an
/// array, number or string root (no schema at all) becomes `{}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParametersObjectFloor {
    rule: &'static str,
    pub(crate) object_type: bool,
    pub(crate) narrow_type_array: bool,
    pub(crate) empty_properties: bool,
}

impl ParametersObjectFloor {
    pub(crate) fn new(rule: &'static str, object_type: bool) -> Self {
        Self {
            rule,
            object_type,
            narrow_type_array: true,
            empty_properties: true,
        }
    }
}

impl Pass for ParametersObjectFloor {
    fn name(&self) -> &'static str {
        "parameters-object-floor"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let root = &mut tool.input_schema;
        if !self.object_type {
            if matches!(root, Value::Array(_) | Value::Number(_) | Value::String(_)) {
                shared::replace_non_object_root(root, cx);
            }
            return Ok(Step::Continue);
        }
        if *root == Value::Bool(false) {
            return Ok(Step::FailClosed(
                "the root schema is `false`: the tool accepts no arguments, and no object schema the model could satisfy says the same".into(),
            ));
        }
        shared::replace_non_object_root(root, cx);
        let Some(map) = root.as_object_mut() else {
            return Ok(Step::Continue);
        };
        match map.field("type") {
            Some(Value::String(t)) if t == "object" => return Ok(Step::Continue),
            None => {
                map.shift_insert(0, "type".into(), json!("object"));
                cx.record(
                    "",
                    "type",
                    Action::Added,
                    "parameters must be type: object; exact, function arguments are always a JSON object",
                );
            }
            Some(Value::Array(types))
                if self.narrow_type_array && types.iter().any(|t| t == "object") =>
            {
                cx.record(
                    "",
                    "type",
                    Action::Rewritten,
                    format!(
                        "type {} narrowed to \"object\": function arguments are always a JSON object",
                        schema::to_bytes(&Value::Array(types.clone()))
                    ),
                );
                map.insert("type".into(), json!("object"));
            }
            Some(other) => {
                return Ok(Step::FailClosed(format!(
                    "the root type {} is not \"object\": the tool takes a non-object input, and no object schema means the same",
                    schema::to_bytes(other)
                )));
            }
        }
        if self.empty_properties && !map.has("properties") {
            schema::insert_after(map, "type", "properties", json!({}));
            cx.record(
                "",
                "properties",
                Action::Added,
                "object floor: an empty property map beside the new type",
            );
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let negated = PassMutant::new(
            "negate object_type",
            Self {
                object_type: !self.object_type,
                ..self.clone()
            },
        );
        if !self.object_type {
            // The other points only act on the object floor.
            return vec![negated];
        }
        vec![
            negated,
            PassMutant::new(
                "fail closed on a type array naming object",
                Self {
                    narrow_type_array: false,
                    ..self.clone()
                },
            ),
            PassMutant::new(
                "skip the empty properties",
                Self {
                    empty_properties: false,
                    ..self.clone()
                },
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::Step;
    use crate::passes::test_support::{Ran, bytes, marks, run};
    use serde_json::json;

    const DS: &str = "deepseek-parameters-must-be-object";
    const MI: &str = "mistral-parameters-not-object-schema";

    fn wrap(pass: &WrapBarePropertyMap, v: Value) -> Ran {
        run(pass, Lane::DeepseekChat, v)
    }

    fn floor(v: Value) -> Ran {
        run(&ParametersObjectFloor::new(DS, true), Lane::DeepseekChat, v)
    }

    #[test]
    fn mistral_v1_wraps_a_bare_property_map_with_a_description_property() {
        let r = wrap(
            &WrapBarePropertyMap::new(MI, false),
            json!({"video_path":{"type":"string"},"description":{"type":"string","description":"D"}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"video_path":{"type":"string"},"description":{"type":"string","description":"D"}}}"#
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("", "type", Action::Added),
                ("", "video_path", Action::Rewritten),
                ("", "description", Action::Rewritten),
                ("", "properties", Action::Added),
            ])
        );
        assert_eq!(r.records[0].rule.as_deref(), Some(MI));
    }

    #[test]
    fn mistral_v1_leaves_a_bare_map_without_a_keyword_collision() {
        let v = json!({"video_path":{"type":"string"},"title":"T"});
        let r = wrap(&WrapBarePropertyMap::new(MI, false), v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
    }

    #[test]
    fn deepseek_chat_v1_wraps_an_untyped_bare_map_keeping_other_keys_in_place() {
        let r = wrap(
            &WrapBarePropertyMap::new(DS, true),
            json!({"title":"T","q":{"type":"string"},"required":["q"],"n":{}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","title":"T","properties":{"q":{"type":"string"},"n":{}},"required":["q"]}"#
        );
    }

    #[test]
    fn deepseek_chat_v1_wraps_a_map_with_a_property_named_type_and_keeps_reserved_keys() {
        let r = wrap(
            &WrapBarePropertyMap::new(DS, true),
            json!({"type":{"type":"string"},"x-meta":{"a":1},"$comment":"c","name":{}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"type":{"type":"string"},"name":{}},"x-meta":{"a":1},"$comment":"c"}"#
        );
    }

    #[test]
    fn deepseek_chat_v1_wraps_a_typed_object_root_only_on_a_collision() {
        let typed = json!({"type":"object","extra":{"type":"string"}});
        let r = wrap(&WrapBarePropertyMap::new(DS, true), typed.clone());
        assert_eq!(r.schema(), &typed);
        let r = wrap(
            &WrapBarePropertyMap::new(DS, true),
            json!({"type":"object","format":{"type":"string"}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"format":{"type":"string"}}}"#
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("", "format", Action::Rewritten),
                ("", "properties", Action::Added)
            ])
        );
    }

    #[test]
    fn deepseek_chat_v1_never_wraps_a_schema_or_an_idempotent_output() {
        let pass = WrapBarePropertyMap::new(DS, true);
        for v in [
            json!({"type":"object","properties":{"a":{}}}),
            json!({"not":{"type":"string"},"a":{}}),
            json!({"type":"string","a":{}}),
            json!({"description":"only scalars"}),
            json!({"x-a":{},"$x":{}}),
            json!([1]),
        ] {
            let r = wrap(&pass, v.clone());
            assert_eq!(r.schema(), &v, "{v}");
            assert!(r.records.is_empty(), "{v}");
        }
        let once = wrap(&pass, json!({"a":{"type":"string"}}));
        let twice = wrap(&pass, once.schema().clone());
        assert_eq!(bytes(twice.schema()), bytes(once.schema()));
        assert!(twice.records.is_empty());
    }

    #[test]
    fn wrap_bare_property_map_declares_its_mutants() {
        let names: Vec<String> = WrapBarePropertyMap::new(DS, true)
            .mutants()
            .into_iter()
            .map(|m| m.change)
            .collect();
        assert_eq!(names, ["negate wrap_untyped", "move $- and x- keys too"]);
    }

    #[test]
    fn deepseek_chat_v1_types_an_empty_parameters_object() {
        let r = floor(json!({}));
        assert_eq!(bytes(r.schema()), r#"{"type":"object","properties":{}}"#);
        assert_eq!(
            r.marks(),
            marks(&[
                ("", "type", Action::Added),
                ("", "properties", Action::Added)
            ])
        );
        assert_eq!(r.records[0].rule.as_deref(), Some(DS));
    }

    #[test]
    fn moonshot_v1_types_a_root_with_properties_first() {
        let r = run(
            &ParametersObjectFloor::new("moonshot-parameters-type-object", true),
            Lane::Moonshot,
            json!({"properties":{"query":{"type":"string"}},"required":["query"]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}"#
        );
        assert_eq!(r.marks(), marks(&[("", "type", Action::Added)]));
    }

    #[test]
    fn deepseek_chat_v1_replaces_a_non_object_root_and_types_it() {
        for v in [
            json!([1, 2]),
            json!(7),
            json!("s"),
            json!(null),
            json!(true),
        ] {
            let r = floor(v.clone());
            assert_eq!(
                bytes(r.schema()),
                r#"{"type":"object","properties":{}}"#,
                "{v}"
            );
            assert_eq!(
                r.marks(),
                marks(&[
                    ("", "", Action::Rewritten),
                    ("", "type", Action::Added),
                    ("", "properties", Action::Added)
                ])
            );
        }
    }

    #[test]
    fn deepseek_chat_v1_fails_closed_on_a_false_root_and_a_declared_scalar_root() {
        let r = floor(json!(false));
        assert!(matches!(&r.step, Step::FailClosed(m) if m.contains("`false`")));
        let r = floor(json!({"type":"string","enum":["a"]}));
        assert_eq!(
            r.step,
            Step::FailClosed(
                "the root type \"string\" is not \"object\": the tool takes a non-object input, and no object schema means the same".into()
            )
        );
        assert!(r.records.is_empty());
        let r = floor(json!({"type":["string","null"]}));
        assert!(matches!(r.step, Step::FailClosed(_)));
    }

    #[test]
    fn deepseek_chat_v1_narrows_a_type_array_naming_object() {
        let r = floor(json!({"type":["object","null"],"properties":{"a":{}}}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{}}}"#
        );
        assert_eq!(r.marks(), marks(&[("", "type", Action::Rewritten)]));
        assert_eq!(r.step, Step::Continue);
    }

    #[test]
    fn deepseek_chat_v1_object_floor_is_a_no_op_on_an_object_root_and_idempotent() {
        for v in [
            json!({"type":"object"}),
            json!({"type":"object","properties":{"a":{}}}),
        ] {
            let r = floor(v.clone());
            assert_eq!(r.schema(), &v);
            assert!(r.records.is_empty());
        }
        let once = floor(json!({"anyOf":[{"required":["a"]}]}));
        assert_eq!(
            bytes(once.schema()),
            r#"{"type":"object","properties":{},"anyOf":[{"required":["a"]}]}"#
        );
        let twice = floor(once.schema().clone());
        assert_eq!(bytes(twice.schema()), bytes(once.schema()));
        assert!(twice.records.is_empty());
    }

    #[test]
    fn mistral_v1_object_floor_replaces_only_roots_that_are_no_schema() {
        let pass = ParametersObjectFloor::new(MI, false);
        for v in [json!([{"type":"object"}]), json!(7), json!("object")] {
            let r = run(&pass, Lane::Mistral, v);
            assert_eq!(bytes(r.schema()), "{}");
            assert_eq!(r.marks(), marks(&[("", "", Action::Rewritten)]));
        }
        for v in [
            json!(true),
            json!(false),
            json!(null),
            json!({}),
            json!({"type":"string"}),
        ] {
            let r = run(&pass, Lane::Mistral, v.clone());
            assert_eq!(r.schema(), &v);
            assert!(r.records.is_empty());
            assert_eq!(r.step, Step::Continue);
        }
    }

    #[test]
    fn parameters_object_floor_declares_its_mutants() {
        let names: Vec<String> = ParametersObjectFloor::new(DS, true)
            .mutants()
            .into_iter()
            .map(|m| m.change)
            .collect();
        assert_eq!(
            names,
            [
                "negate object_type",
                "fail closed on a type array naming object",
                "skip the empty properties"
            ]
        );
        assert_eq!(ParametersObjectFloor::new(MI, false).mutants().len(), 1);
    }
}
