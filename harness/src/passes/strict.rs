//! OpenAI strict mode (v1): a tool sent with `strict: true` must use the
//! strict subset, which the API enforces per object (recordings
//! `openai-strict-additionalproperties-false-2` and
//! `openai-strict-required-all-keys-5`). Two passes, for strict tools only
//! (non-strict tools are left alone):
//! - `strict-close-objects`: every object schema gets `additionalProperties: false`;
//! - `strict-require-all`: every property is required; an optional one
//!   becomes nullable instead (OpenAI's documented way to keep it optional:
//!   a `"null"` type member, or a null branch for typeless schemas).
//!
//! A tool is strict when its own flag says so, or, without a flag, when the
//! lane sends `strict: true` by default (`openai-strict`, see
//! [`Lane::strict_by_default`]). The Responses profile uses the unit
//! structs [`StrictCloseObjects`] / [`StrictRequireAll`] (the defaults);
//! the Chat lanes construct [`CloseObjects`] / [`RequireAll`] directly. The
//! fields of those two are their mutation points.

use serde_json::{Value, json};

use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::lane::Lane;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// Which tools a strict pass shapes. The fields are mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictGate {
    /// A tool without a flag follows the lane's default.
    pub(crate) lane_default: bool,
    /// Shape the strict tools (`false`: the non-strict ones, a mutant).
    pub(crate) strict: bool,
}

impl Default for StrictGate {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl StrictGate {
    /// Strict tools, by flag or by the lane's default.
    pub(crate) const DEFAULT: Self = Self {
        lane_default: true,
        strict: true,
    };

    /// The tool is shaped.
    pub(crate) fn admits(self, tool: &Tool, lane: Lane) -> bool {
        let default = self.lane_default && lane.strict_by_default();
        tool.strict.unwrap_or(default) == self.strict
    }

    /// The gate's own mutants of a pass: `with(gate)` is the pass with
    /// that gate.
    pub(crate) fn mutants<P: Pass + 'static>(self, with: impl Fn(Self) -> P) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "ignore the lane's strict default",
                with(Self {
                    lane_default: !self.lane_default,
                    ..self
                }),
            ),
            PassMutant::new(
                "negate the strict gate",
                with(Self {
                    strict: !self.strict,
                    ..self
                }),
            ),
        ]
    }
}

/// The Responses profile's `strict-close-objects` ([`CloseObjects`] with
/// its defaults; named like a type so the profile table reads as one).
#[allow(non_upper_case_globals)]
pub(crate) const StrictCloseObjects: CloseObjects = CloseObjects {
    gate: StrictGate::DEFAULT,
    rule: "openai-strict-additionalproperties-false",
    nested: true,
};

/// `strict-close-objects`: see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CloseObjects {
    pub(crate) gate: StrictGate,
    /// The oracle rule (OpenAI's, or Cerebras' 422 for its strict tools).
    pub(crate) rule: &'static str,
    /// Close nested objects too (`false`: the root only, a mutant).
    pub(crate) nested: bool,
}

impl Default for CloseObjects {
    fn default() -> Self {
        StrictCloseObjects
    }
}

impl Pass for CloseObjects {
    fn name(&self) -> &'static str {
        "strict-close-objects"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.gate.admits(tool, cx.lane) {
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
            self.nested
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = self.gate.mutants(|gate| Self { gate, ..*self });
        out.push(PassMutant::new(
            "close the root object only",
            Self {
                nested: !self.nested,
                ..*self
            },
        ));
        out
    }
}

/// The Responses profile's `strict-require-all` ([`RequireAll`] with its
/// defaults).
#[allow(non_upper_case_globals)]
pub(crate) const StrictRequireAll: RequireAll = RequireAll {
    gate: StrictGate::DEFAULT,
    nullable: true,
    nested: true,
};

/// `strict-require-all`: see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RequireAll {
    pub(crate) gate: StrictGate,
    /// Make a newly required property nullable (`false`: a mutant that
    /// requires it as declared).
    pub(crate) nullable: bool,
    /// Shape nested objects too (`false`: the root only, a mutant).
    pub(crate) nested: bool,
}

impl Default for RequireAll {
    fn default() -> Self {
        StrictRequireAll
    }
}

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
            // An empty `anyOf` (matching nothing) is wrapped like any
            // other schema: `anyOf: [{"type": "null"}]` would be collapsed
            // by the next run's normalize (idempotence).
            if let Some(Value::Array(branches)) = m.get_mut("anyOf")
                && !branches.is_empty()
            {
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

impl Pass for RequireAll {
    fn name(&self) -> &'static str {
        "strict-require-all"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-strict-required-all-keys")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.gate.admits(tool, cx.lane) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let required = schema::required_names(node);
            let Some(Value::Object(props)) = node.get_mut("properties") else {
                return self.nested;
            };
            let mut all = required.clone();
            for (name, prop) in props.iter_mut() {
                if required.contains(name) {
                    continue;
                }
                let at = schema::child_path(&format!("{path}/properties"), name);
                if self.nullable {
                    let keyword = nullable(prop);
                    cx.record(
                        &at,
                        keyword,
                        Action::Rewritten,
                        "strict mode: optional property made nullable",
                    );
                }
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
            self.nested
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = self.gate.mutants(|gate| Self { gate, ..*self });
        out.push(PassMutant::new(
            "skip making optional properties nullable",
            Self {
                nullable: !self.nullable,
                ..*self
            },
        ));
        out.push(PassMutant::new(
            "require the root's properties only",
            Self {
                nested: !self.nested,
                ..*self
            },
        ));
        out
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
    fn an_optional_empty_any_of_is_wrapped_not_extended() {
        let ran = run_on_tool(
            &StrictRequireAll,
            Lane::OpenaiResponses,
            strict(
                json!({"type":"object","properties":{"a":{"anyOf":[]},"b":{"anyOf":[{"$ref":"#/$defs/x"}]}}}),
            ),
        );
        assert_eq!(
            bytes(ran.schema()),
            r##"{"type":"object","properties":{"a":{"anyOf":[{"anyOf":[]},{"type":"null"}]},"b":{"anyOf":[{"$ref":"#/$defs/x"},{"type":"null"}]}},"required":["a","b"]}"##
        );
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

    #[test]
    fn openai_strict_v1_treats_a_tool_without_a_flag_as_strict() {
        let v = json!({"type":"object","properties":{"a":{"type":"string"},"o":{"type":"object","properties":{"b":{}},"required":["b"]}},"required":["a","o"]});
        let r = run_on_tool(
            &CloseObjects::default(),
            Lane::OpenaiStrict,
            Tool::new("t", v.clone()),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{"type":"string"},"o":{"type":"object","properties":{"b":{}},"additionalProperties":false,"required":["b"]}},"additionalProperties":false,"required":["a","o"]}"#
        );
        // the lane default only applies to tools without a flag
        let mut off = Tool::new("t", v.clone());
        off.strict = Some(false);
        let r = run_on_tool(&CloseObjects::default(), Lane::OpenaiStrict, off);
        assert!(r.records.is_empty());
        // and Responses has no strict default
        let r = run_on_tool(
            &StrictCloseObjects,
            Lane::OpenaiResponses,
            Tool::new("t", v),
        );
        assert!(r.records.is_empty());
    }

    #[test]
    fn strict_gate_admits_by_flag_then_lane_default() {
        let gate = StrictGate::default();
        let mut t = Tool::new("t", json!({}));
        assert!(gate.admits(&t, Lane::OpenaiStrict));
        assert!(!gate.admits(&t, Lane::OpenaiChat));
        t.strict = Some(true);
        assert!(gate.admits(&t, Lane::OpenaiChat));
        t.strict = Some(false);
        assert!(!gate.admits(&t, Lane::OpenaiStrict));
    }

    #[test]
    fn strict_passes_declare_their_mutation_points() {
        let names = |p: &dyn Pass| {
            p.mutants()
                .into_iter()
                .map(|m| m.change)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&StrictCloseObjects),
            [
                "ignore the lane's strict default",
                "negate the strict gate",
                "close the root object only"
            ]
        );
        assert_eq!(
            names(&StrictRequireAll),
            [
                "ignore the lane's strict default",
                "negate the strict gate",
                "skip making optional properties nullable",
                "require the root's properties only"
            ]
        );
        for m in StrictCloseObjects
            .mutants()
            .into_iter()
            .chain(StrictRequireAll.mutants())
        {
            assert!(["strict-close-objects", "strict-require-all"].contains(&m.pass.name()));
        }
    }

    #[test]
    fn strict_passes_shape_nested_objects_and_nullable_optionals() {
        let v = json!({"type":"object","properties":{"o":{"type":"object","properties":{"b":{"type":"string"}}}},"required":["o"]});
        let r = run_on_tool(&StrictRequireAll, Lane::OpenaiResponses, strict(v.clone()));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"o":{"type":"object","properties":{"b":{"type":["string","null"]}},"required":["b"]}},"required":["o"]}"#
        );
        let root_only = RequireAll {
            nested: false,
            ..RequireAll::default()
        };
        let r = run_on_tool(&root_only, Lane::OpenaiResponses, strict(v.clone()));
        assert_eq!(bytes(r.schema()), bytes(&v));
        let no_null = RequireAll {
            nullable: false,
            ..RequireAll::default()
        };
        let r = run_on_tool(&no_null, Lane::OpenaiResponses, strict(v));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"o":{"type":"object","properties":{"b":{"type":"string"}},"required":["b"]}},"required":["o"]}"#
        );
    }
}
