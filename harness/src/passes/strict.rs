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

use serde_json::{Map, Value, json};

use super::objects::{self, FalseOptional, Objects, Qualify, Undeclared, WriteRequired};
use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::lane::Lane;
use crate::lookup::Lookup;
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

/// Send `tool` with `strict: false`, recorded on the `strict` keyword with
/// why the strict subset cannot carry it.
pub(crate) fn send_non_strict(tool: &mut Tool, cx: &mut Cx<'_>, why: &str) {
    tool.strict = Some(false);
    cx.record(
        "",
        "strict",
        Action::Rewritten,
        format!("sent with strict: false: {why}"),
    );
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
        Objects::close_only(Qualify::Objects, self.nested).apply(
            &mut tool.input_schema,
            cx,
            &mut objects::leave_optional,
        )?;
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

/// The pointer and keyword of the first conditional subschema (pre-order),
/// if any: an `if`/`then`/`else`/`not` subschema, or a `dependentSchemas`
/// (`dependencies`) holding one. Closing an object there would change the
/// condition: a `dependentSchemas` entry typed `object` and closed refuses
/// every instance with the property it depends on.
pub(crate) fn first_conditional(root: &Value) -> Result<Option<(String, &'static str)>, TooDeep> {
    let mut found = None;
    schema::visit(root, &mut |path, node| {
        if found.is_some() {
            return;
        }
        let schema_valued = |v: &Value| v.is_object() || v.is_boolean();
        if let Some(kw) = schema::CONDITIONALS
            .iter()
            .find(|k| node.field(k).is_some_and(schema_valued))
        {
            found = Some((schema::child_path(path, kw), *kw));
        } else if let Some(kw) = schema::DEPENDENT_SCHEMAS.iter().find(|k| {
            node.field(k)
                .and_then(Value::as_object)
                .is_some_and(|m| m.values().any(schema_valued))
        }) {
            found = Some((schema::child_path(path, kw), *kw));
        }
    })?;
    Ok(found)
}

/// Why a strict subset cannot carry the conditional `kw` at `at` (the
/// OpenAI and Anthropic fallbacks' reason).
pub(crate) fn conditional_reason(at: &str, kw: &str) -> String {
    let has_no = if schema::DEPENDENT_SCHEMAS.contains(&kw) {
        kw
    } else {
        "if/then/else/not"
    };
    format!(
        "{kw} at {at}: the strict subset has no {has_no}, and closing objects inside one would change the condition"
    )
}

/// `strict-conditionals`: a strict tool whose schema has an `if`/`then`/
/// `else`/`not` or `dependentSchemas` subschema
/// ([`first_conditional`]) ships with `strict: false` (recorded on the
/// `strict` keyword). Closing the objects inside one would change the
/// condition, and leaving them open breaks the strict rule that every
/// object is closed (`rule`). For lanes without a broader strict fallback
/// (Cerebras; the OpenAI lanes' `strict-fallback` does the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictConditionals {
    pub(crate) gate: StrictGate,
    pub(crate) rule: &'static str,
    /// Mutation point: keep such tools strict.
    pub(crate) enabled: bool,
}

impl StrictConditionals {
    pub(crate) const fn new(rule: &'static str) -> Self {
        Self {
            gate: StrictGate::DEFAULT,
            rule,
            enabled: true,
        }
    }
}

impl Pass for StrictConditionals {
    fn name(&self) -> &'static str {
        "strict-conditionals"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.enabled || !self.gate.admits(tool, cx.lane) {
            return Ok(Step::Continue);
        }
        if let Some((at, kw)) = first_conditional(&tool.input_schema)? {
            tool.strict = Some(false);
            cx.record(
                "",
                "strict",
                Action::Rewritten,
                format!(
                    "sent with strict: false: {kw} at {at}: closing objects inside one would change the condition"
                ),
            );
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = self.gate.mutants(|gate| Self { gate, ..*self });
        out.push(PassMutant::new(
            "keep conditional schemas strict",
            Self {
                enabled: !self.enabled,
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

/// One change [`nullable`] made: keyword, action, reason.
type Change = (&'static str, Action, &'static str);

const MADE_NULLABLE: &str = "strict mode: optional property made nullable";

/// A union branch that already accepts `null` on its own: `{"type":"null"}`,
/// a type list with `"null"` (and no `enum`/`const` leaving null out), or a
/// typeless `enum` with a null member / `const: null`.
fn null_branch(branch: &Value) -> bool {
    let Value::Object(b) = branch else {
        return false;
    };
    let typed = match b.field("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.contains(&json!("null")),
        Some(_) => false,
        None => b.has("enum") || b.has("const"),
    };
    typed
        && b.field("enum")
            .and_then(Value::as_array)
            .is_none_or(|e| e.contains(&Value::Null))
        && b.field("const").is_none_or(Value::is_null)
}

/// After `null` joined a property's `type`: let its `enum`/`const` take
/// `null` too, or the type member admits a value the enum still refuses
/// (the model could never leave the field empty). `const: c` becomes
/// `enum: [c, null]` in place (beside an `enum`, the enum keeps only `c`).
fn admit_null_literal(m: &mut Map<String, Value>, out: &mut Vec<Change>) {
    if let Some(c) = m.field("const").cloned()
        && !c.is_null()
    {
        let kept = match m.field("enum").and_then(Value::as_array) {
            Some(e) => e.iter().filter(|v| **v == c).cloned().collect(),
            None => vec![c],
        };
        let mut members = kept;
        members.push(Value::Null);
        if m.has("enum") {
            m.insert("enum".into(), Value::Array(members));
            m.shift_remove("const");
        } else {
            let old = std::mem::take(m);
            for (k, v) in old {
                if k == "const" {
                    m.insert("enum".into(), Value::Array(members.clone()));
                } else {
                    m.insert(k, v);
                }
            }
        }
        out.push((
            "const",
            Action::Rewritten,
            "strict mode: const of a nullable property restated as enum [value, null]",
        ));
        return;
    }
    if let Some(Value::Array(e)) = m.field_mut("enum")
        && !e.contains(&Value::Null)
    {
        e.push(Value::Null);
        out.push((
            "enum",
            Action::Rewritten,
            "strict mode: null added to the enum of a nullable property",
        ));
    }
}

/// Make one property schema accept `null` too, with exactly one null
/// encoding: what was already nullable gets no second null. Returns every
/// change made (none when the schema already accepted `null`).
fn nullable(prop: &mut Value) -> Vec<Change> {
    let mut out = Vec::new();
    let Value::Object(m) = prop else {
        return out;
    };
    // OpenAPI's `nullable: true` is not JSON Schema: strict mode reads the
    // type list, so the flag becomes the `"null"` member below (one null).
    if m.field("nullable") == Some(&Value::Bool(true)) {
        m.shift_remove("nullable");
        out.push((
            "nullable",
            Action::Rewritten,
            "strict mode: nullable: true restated as a \"null\" type member",
        ));
    }
    match m.field_mut("type") {
        Some(Value::String(t)) => {
            if t != "null" {
                let t = std::mem::take(t);
                m.insert("type".into(), json!([t, "null"]));
                out.push(("type", Action::Rewritten, MADE_NULLABLE));
            }
            admit_null_literal(m, &mut out);
        }
        Some(Value::Array(ts)) => {
            if !ts.contains(&json!("null")) {
                ts.push(json!("null"));
                out.push(("type", Action::Rewritten, MADE_NULLABLE));
            }
            admit_null_literal(m, &mut out);
        }
        Some(_) => {}
        None => {
            let unions = ["anyOf", "oneOf"];
            let has_null_branch = unions.iter().any(|u| {
                m.field(u)
                    .and_then(Value::as_array)
                    .is_some_and(|bs| bs.iter().any(null_branch))
            });
            if has_null_branch || null_branch(&Value::Object(m.clone())) {
                return out;
            }
            // An empty `anyOf` (matching nothing) is wrapped like any
            // other schema: `anyOf: [{"type": "null"}]` would be collapsed
            // by the next run's normalize (idempotence).
            if let Some(Value::Array(branches)) = m.field_mut("anyOf")
                && !branches.is_empty()
            {
                branches.push(json!({"type": "null"}));
                out.push(("anyOf", Action::Rewritten, MADE_NULLABLE));
                return out;
            }
            let inner = std::mem::take(m);
            m.insert(
                "anyOf".into(),
                json!([Value::Object(inner), {"type": "null"}]),
            );
            out.push(("properties", Action::Rewritten, MADE_NULLABLE));
        }
    }
    out
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
        Objects {
            qualify: Qualify::DeclaringProperties,
            nested: self.nested,
            conditionals: false,
            require: Some(objects::RequireAll {
                undeclared: Undeclared::DropRecorded,
                false_optional: FalseOptional::DropRecorded,
                dedup: false,
                write: WriteRequired::WhenNamesChange,
                reason: "strict mode: every property required",
            }),
            close: None,
        }
        .apply(&mut tool.input_schema, cx, &mut |at, prop, cx| {
            if self.nullable {
                for (keyword, action, reason) in nullable(prop) {
                    cx.record(at, keyword, action, reason);
                }
            }
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

    fn require_all(lane: Lane, schema: Value) -> crate::passes::test_support::Ran {
        run_on_tool(&RequireAll::default(), lane, strict(schema))
    }

    /// `fixtures#open_map_with_undeclared_required`: an object requiring a
    /// key only its `additionalProperties` schema admitted. Closed by strict
    /// mode, it could never be called; the undeclared name goes.
    #[test]
    fn openai_strict_v1_drops_a_required_name_the_closed_object_does_not_declare() {
        let r = require_all(
            Lane::OpenaiStrict,
            json!({"type":"object","properties":{"host":{"type":"string"}},"required":["host","port"],"additionalProperties":false}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"host":{"type":"string"}},"required":["host"],"additionalProperties":false}"#
        );
        assert_eq!(
            r.marks(),
            [
                (String::new(), "required".into(), Action::Removed),
                (String::new(), "required".into(), Action::Rewritten),
            ]
        );
        // Declared and required already: nothing to do.
        let r = require_all(
            Lane::OpenaiStrict,
            json!({"type":"object","properties":{"host":{"type":"string"}},"required":["host"],"additionalProperties":false}),
        );
        assert_eq!(r.marks(), []);
    }

    /// JSON-Schema-Test-Suite "properties with boolean schema" and
    /// JSONSchemaBench ui5-workspace.yaml (an `additionalProperties: false`
    /// written inside `properties`): requiring a `false` property would make
    /// the tool uncallable.
    #[test]
    fn openai_strict_v1_drops_an_optional_false_property_instead_of_requiring_it() {
        let r = require_all(
            Lane::OpenaiStrict,
            json!({"type":"object","properties":{"foo":true,"additionalProperties":false},"additionalProperties":false}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"foo":true},"required":["foo"],"additionalProperties":false}"#
        );
        assert_eq!(
            r.marks(),
            [
                (
                    "/properties/additionalProperties".into(),
                    "(schema)".into(),
                    Action::Removed
                ),
                (String::new(), "required".into(), Action::Added),
            ]
        );
    }

    #[test]
    fn openai_strict_v1_adds_null_to_the_enum_of_an_optional_enum_property() {
        let r = require_all(
            Lane::OpenaiStrict,
            json!({"type":"object","properties":{"kind":{"type":"string","enum":["ASN","POPULATION"]},"n":{"enum":[1,2]}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"kind":{"type":["string","null"],"enum":["ASN","POPULATION",null]},"n":{"anyOf":[{"enum":[1,2]},{"type":"null"}]}},"required":["kind","n"]}"#
        );
        assert_eq!(
            r.marks(),
            [
                ("/properties/kind".into(), "type".into(), Action::Rewritten),
                ("/properties/kind".into(), "enum".into(), Action::Rewritten),
                (
                    "/properties/n".into(),
                    "properties".into(),
                    Action::Rewritten
                ),
                (String::new(), "required".into(), Action::Added),
            ]
        );
        assert_eq!(
            r.records[1].reason,
            "strict mode: null added to the enum of a nullable property"
        );
    }

    #[test]
    fn openai_strict_v1_restates_the_const_of_an_optional_property_as_an_enum_with_null() {
        let r = require_all(
            Lane::OpenaiStrict,
            json!({"type":"object","properties":{"c":{"type":"string","const":"x","description":"d"},"both":{"type":"string","enum":["x","y"],"const":"y"}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"c":{"type":["string","null"],"enum":["x",null],"description":"d"},"both":{"type":["string","null"],"enum":["y",null]}},"required":["c","both"]}"#
        );
        assert_eq!(
            r.marks(),
            [
                ("/properties/c".into(), "type".into(), Action::Rewritten),
                ("/properties/c".into(), "const".into(), Action::Rewritten),
                ("/properties/both".into(), "type".into(), Action::Rewritten),
                ("/properties/both".into(), "const".into(), Action::Rewritten),
                (String::new(), "required".into(), Action::Added),
            ]
        );
    }

    #[test]
    fn openai_strict_v1_gives_an_already_nullable_optional_property_no_second_null() {
        let r = require_all(
            Lane::OpenaiStrict,
            json!({"type":"object","properties":{
                "t":{"type":["string","null"]},
                "a":{"anyOf":[{"$ref":"#/$defs/x"},{"type":"null"}]},
                "o":{"oneOf":[{"type":"null"},{"type":"integer"}]},
                "e":{"enum":["a",null]},
                "c":{"const":null},
                "te":{"type":["string","null"],"enum":["a",null]}
            }}),
        );
        assert_eq!(
            bytes(r.schema()),
            r##"{"type":"object","properties":{"t":{"type":["string","null"]},"a":{"anyOf":[{"$ref":"#/$defs/x"},{"type":"null"}]},"o":{"oneOf":[{"type":"null"},{"type":"integer"}]},"e":{"enum":["a",null]},"c":{"const":null},"te":{"type":["string","null"],"enum":["a",null]}},"required":["t","a","o","e","c","te"]}"##
        );
        // Only `required` changed: no record claims a property was made nullable.
        assert_eq!(
            r.marks(),
            [(String::new(), "required".into(), Action::Added)]
        );
    }

    #[test]
    fn openai_strict_v1_completes_a_nullable_type_whose_enum_leaves_null_out() {
        let r = require_all(
            Lane::OpenaiStrict,
            json!({"type":"object","properties":{"e":{"type":["string","null"],"enum":["a"]},"s":{"type":"string","enum":["b",null]}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"e":{"type":["string","null"],"enum":["a",null]},"s":{"type":["string","null"],"enum":["b",null]}},"required":["e","s"]}"#
        );
        assert_eq!(
            r.marks(),
            [
                ("/properties/e".into(), "enum".into(), Action::Rewritten),
                ("/properties/s".into(), "type".into(), Action::Rewritten),
                (String::new(), "required".into(), Action::Added),
            ]
        );
    }

    #[test]
    fn responses_v1_turns_nullable_true_into_the_one_null_type_member() {
        // normalize collapses `anyOf: [{"type": "string"}, {"type": "null"}]`
        // to `nullable: true` before the strict passes run on Responses.
        let r = require_all(
            Lane::OpenaiResponses,
            json!({"type":"object","properties":{"s":{"type":"string","nullable":true,"enum":["a"]},"r":{"$ref":"#/$defs/x","nullable":true}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r##"{"type":"object","properties":{"s":{"type":["string","null"],"enum":["a",null]},"r":{"anyOf":[{"$ref":"#/$defs/x"},{"type":"null"}]}},"required":["s","r"]}"##
        );
        assert_eq!(
            r.marks(),
            [
                ("/properties/s".into(), "nullable".into(), Action::Rewritten),
                ("/properties/s".into(), "type".into(), Action::Rewritten),
                ("/properties/s".into(), "enum".into(), Action::Rewritten),
                ("/properties/r".into(), "nullable".into(), Action::Rewritten),
                (
                    "/properties/r".into(),
                    "properties".into(),
                    Action::Rewritten
                ),
                (String::new(), "required".into(), Action::Added),
            ]
        );
    }

    #[test]
    fn cerebras_v1_sends_a_strict_tool_with_a_conditional_schema_non_strict() {
        let pass = StrictConditionals::new("cerebras-additionalproperties-false-required");
        let v = json!({"type":"object","properties":{"k":{"type":"string"}},"else":{"type":"object","properties":{"z":{}}}});
        let r = run_on_tool(&pass, Lane::Cerebras, strict(v.clone()));
        assert_eq!(r.tool.strict, Some(false));
        assert_eq!(r.schema(), &v);
        assert_eq!(
            r.marks(),
            [(String::new(), "strict".into(), Action::Rewritten)]
        );
        assert_eq!(
            r.records[0].reason,
            "sent with strict: false: else at /else: closing objects inside one would change the condition"
        );
        // non-strict tools, and strict tools without a conditional, stay as they are
        let r = run_on_tool(&pass, Lane::Cerebras, Tool::new("t", v));
        assert_eq!((r.tool.strict, r.records.len()), (None, 0));
        let plain = json!({"type":"object","properties":{"if":{"type":"string"}}});
        let r = run_on_tool(&pass, Lane::Cerebras, strict(plain));
        assert_eq!((r.tool.strict, r.records.len()), (Some(true), 0));
    }

    /// A `dependentSchemas` (or draft 7 `dependencies`) entry holding a schema
    /// is a conditional; a name-list `dependencies` entry and an empty map are
    /// not, and `if`/`then`/`else`/`not` come first at the same node.
    #[test]
    fn first_conditional_counts_dependent_schemas_but_not_name_lists() {
        let dep = json!({"type":"object","properties":{"o":{"type":"object",
            "dependentSchemas":{"a":{"type":"object","required":["b"]}}}}});
        assert_eq!(
            first_conditional(&dep).unwrap(),
            Some((
                "/properties/o/dependentSchemas".to_owned(),
                "dependentSchemas"
            ))
        );
        let draft7 = json!({"type":"object","dependencies":{"a":["b"],"c":true}});
        assert_eq!(
            first_conditional(&draft7).unwrap(),
            Some(("/dependencies".to_owned(), "dependencies"))
        );
        let names_only = json!({"type":"object","dependencies":{"a":["b"]},"dependentSchemas":{}});
        assert_eq!(first_conditional(&names_only).unwrap(), None);
        let both = json!({"dependentSchemas":{"a":{}},"not":{"required":["x"]}});
        assert_eq!(
            first_conditional(&both).unwrap(),
            Some(("/not".to_owned(), "not"))
        );
        assert_eq!(
            conditional_reason("/dependentSchemas", "dependentSchemas"),
            "dependentSchemas at /dependentSchemas: the strict subset has no dependentSchemas, and closing objects inside one would change the condition"
        );
    }

    /// Closed, a `dependentSchemas` entry typed `object` refused every
    /// instance with `a`: the tool goes non-strict before the closing pass.
    #[test]
    fn cerebras_v1_sends_a_strict_tool_with_dependent_schemas_non_strict() {
        let pass = StrictConditionals::new("cerebras-additionalproperties-false-required");
        let v = json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},
            "dependentSchemas":{"a":{"type":"object","required":["b"]}}});
        let r = run_on_tool(&pass, Lane::Cerebras, strict(v.clone()));
        assert_eq!(r.tool.strict, Some(false));
        assert_eq!(r.schema(), &v);
        assert_eq!(
            r.records[0].reason,
            "sent with strict: false: dependentSchemas at /dependentSchemas: closing objects inside one would change the condition"
        );
    }

    #[test]
    fn strict_passes_never_close_or_require_inside_if_then_else_not() {
        let v = json!({"type":"object","properties":{"k":{"type":"string"}},"required":["k"],
            "if":{"properties":{"k":{"const":"a"}}},
            "then":{"properties":{"x":{"type":"object","properties":{"y":{"type":"string"}}}}},
            "else":{"type":"object","properties":{"z":{"type":"integer"}}},
            "not":{"type":"object","properties":{"w":{"type":"null"}}}});
        let conditions = r#""if":{"properties":{"k":{"const":"a"}}},"then":{"properties":{"x":{"type":"object","properties":{"y":{"type":"string"}}}}},"else":{"type":"object","properties":{"z":{"type":"integer"}}},"not":{"type":"object","properties":{"w":{"type":"null"}}}"#;
        for lane in [Lane::OpenaiStrict, Lane::OpenaiResponses, Lane::Cerebras] {
            let r = run_on_tool(&CloseObjects::default(), lane, strict(v.clone()));
            assert_eq!(
                bytes(r.schema()),
                format!(
                    r#"{{"type":"object","properties":{{"k":{{"type":"string"}}}},"additionalProperties":false,"required":["k"],{conditions}}}"#
                ),
                "{lane:?}"
            );
            assert_eq!(
                r.marks(),
                [(String::new(), "additionalProperties".into(), Action::Added)]
            );
            let r = run_on_tool(&RequireAll::default(), lane, strict(v.clone()));
            assert_eq!(bytes(r.schema()), bytes(&v), "{lane:?}");
            assert!(r.records.is_empty());
        }
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
