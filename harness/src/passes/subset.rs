//! `strict-subset`: hold a strict OpenAI tool to the documented Structured
//! Outputs subset (`facts::openai`), which rejects every keyword of
//! `STRICT_REJECTED` and every string `format` outside `STRICT_FORMATS`
//! (rules `openai-strict-keyword-not-permitted`,
//! `openai-strict-format-unsupported`).
//!
//! - A counting or annotation-like keyword whose removal only widens what
//!   is accepted (`uniqueItems`, `minProperties`/`maxProperties`,
//!   `dependentRequired`, `minContains`/`maxContains`, `additionalItems`)
//!   and an undocumented string `format` are removed, each with a record,
//!   and listed in one description note so the model still honours them.
//! - A structural keyword (compositions other than `anyOf`,
//!   schema-valued dependencies, `patternProperties`,
//!   `propertyNames`, `contains`, `prefixItems`, `unevaluated*`) has no
//!   faithful strict rewrite: the tool is sent with `strict: false`,
//!   recorded on the `strict` keyword, and nothing else is changed. This
//!   matches the DeepSeek strict line, which fails closed on the same
//!   constructs; `not` and conditionals are `strict-fallback`'s, which runs
//!   first and sends such tools non-strict.
//!
//! The sets come from the provider-facts table, not from the oracle.

use serde_json::Value;

use super::notes::{self, Unenforced};
use super::strict::StrictGate;
use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::facts::openai as fact;
use crate::lookup::Lookup;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// Keywords no widening removal can serve: the tool goes non-strict.
/// (`not` and `if`/`then`/`else` are left to `strict-fallback`, which runs
/// first and sends conditional tools non-strict.)
const FALLBACK: &[&str] = &[
    "allOf",
    "oneOf",
    "dependentSchemas",
    "dependencies",
    "patternProperties",
    "propertyNames",
    "contains",
    "prefixItems",
    "unevaluatedProperties",
    "unevaluatedItems",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrictSubset {
    pub(crate) gate: StrictGate,
    /// Keywords removed (their removal only widens).
    pub(crate) strip: Vec<&'static str>,
    /// Keywords that send the tool non-strict.
    pub(crate) fallback: Vec<&'static str>,
    /// The documented string formats.
    pub(crate) formats: Vec<&'static str>,
    /// Surface what was removed in a description note.
    pub(crate) note: bool,
}

/// What `strict-fallback` already serves (it runs before this pass).
const CONDITIONALS: &[&str] = &["not", "if", "then", "else"];

impl Default for StrictSubset {
    fn default() -> Self {
        Self {
            gate: StrictGate::DEFAULT,
            strip: fact::STRICT_REJECTED
                .items
                .iter()
                .copied()
                .filter(|k| !FALLBACK.contains(k) && !CONDITIONALS.contains(k))
                .collect(),
            fallback: FALLBACK.to_vec(),
            formats: fact::STRICT_FORMATS.items.to_vec(),
            note: true,
        }
    }
}

impl StrictSubset {
    /// Why the tool must go non-strict, if it must (the first such node).
    fn fallback_reason(&self, schema: &Value) -> Result<Option<String>, TooDeep> {
        let mut why = None;
        schema::visit(schema, &mut |path, node| {
            if why.is_some() {
                return;
            }
            let at = schema::display_path(path);
            if let Some(k) = self.fallback.iter().find(|k| node.has(k)) {
                why = Some(format!(
                    "{k} at {at} is outside the strict subset and no widening removal serves it"
                ));
            }
        })?;
        Ok(why)
    }
}

impl Pass for StrictSubset {
    fn name(&self) -> &'static str {
        "strict-subset"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-strict-keyword-not-permitted")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = self.gate.mutants(|gate| Self {
            gate,
            ..self.clone()
        });
        out.extend(PassMutant::drop_each(self, "widening strips", |p| {
            &mut p.strip
        }));
        out.extend(PassMutant::drop_each(self, "fallback keywords", |p| {
            &mut p.fallback
        }));
        out.extend(PassMutant::drop_each(self, "documented formats", |p| {
            &mut p.formats
        }));
        out.push(PassMutant::flip(self, "skip the unenforced note", |p| {
            &mut p.note
        }));
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.gate.admits(tool, cx.lane) {
            return Ok(Step::Continue);
        }
        if let Some(why) = self.fallback_reason(&tool.input_schema)? {
            super::strict::send_non_strict(tool, cx, &why);
            return Ok(Step::Continue);
        }
        let mut lost = Vec::new();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            for kw in &self.strip {
                if let Some(v) = node.shift_remove(*kw) {
                    cx.record(
                        path,
                        kw,
                        Action::Removed,
                        "outside the strict subset; removing it only widens what is accepted",
                    );
                    lost.push(Unenforced {
                        pointer: path.as_str().to_owned(),
                        keyword: (*kw).to_owned(),
                        value: v,
                    });
                }
            }
            if !schema::numeric_only(node)
                && matches!(node.field("format"), Some(Value::String(f)) if !self.formats.contains(&f.as_str()))
                && let Some(v) = node.shift_remove("format")
            {
                cx.record(
                    path,
                    "format",
                    Action::Removed,
                    "format value outside the documented strict list",
                );
                lost.push(Unenforced {
                    pointer: path.as_str().to_owned(),
                    keyword: "format".to_owned(),
                    value: v,
                });
            }
            true
        })?;
        if self.note
            && let Some(n) = notes::unenforced_note(&lost)
        {
            cx.note(tool, &n, "stripped constraints surfaced as a note");
        }
        Ok(Step::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::run;
    use super::*;
    use crate::lane::Lane;
    use serde_json::json;

    fn bytes(v: &Value) -> String {
        serde_json::to_string(v).unwrap()
    }

    #[test]
    fn openai_strict_strips_an_undocumented_format_with_a_record_and_a_note() {
        let ran = run(
            &StrictSubset::default(),
            Lane::OpenaiStrict,
            json!({"type":"object","properties":{
                "url":{"type":"string","format":"uri"},
                "at":{"type":"string","format":"date-time"},
                "n":{"type":"integer","format":"int64"}}}),
        );
        assert_eq!(
            bytes(&ran.tool.input_schema),
            r#"{"type":"object","properties":{"url":{"type":"string"},"at":{"type":"string","format":"date-time"},"n":{"type":"integer","format":"int64"}}}"#
        );
        assert_eq!(
            ran.tool.description.as_deref(),
            Some("Constraints this schema does not enforce (still follow them): url: format uri.")
        );
        let records: Vec<(&str, &str)> = ran
            .records
            .iter()
            .map(|d| (d.path.as_str(), d.keyword.as_str()))
            .collect();
        assert_eq!(
            records,
            [("/properties/url", "format"), ("", "description")]
        );
    }

    #[test]
    fn openai_strict_removes_widening_only_keywords_and_names_them_in_one_note() {
        let ran = run(
            &StrictSubset::default(),
            Lane::OpenaiStrict,
            json!({"type":"object","properties":{
                "labels":{"type":"array","items":{"type":"string"},"uniqueItems":true},
                "opts":{"type":"object","properties":{},"minProperties":1}},
                "dependentRequired":{"a":["b"]}}),
        );
        assert_eq!(
            bytes(&ran.tool.input_schema),
            r#"{"type":"object","properties":{"labels":{"type":"array","items":{"type":"string"}},"opts":{"type":"object","properties":{}}}}"#
        );
        assert_eq!(
            ran.tool.description.as_deref(),
            Some(
                r#"Constraints this schema does not enforce (still follow them): (root): dependentRequired {"a":["b"]}; labels: uniqueItems true; opts: minProperties 1."#
            )
        );
        assert_eq!(ran.tool.strict, None);
    }

    #[test]
    fn openai_strict_sends_a_tool_with_a_nested_one_of_non_strict() {
        // github-mcp-server update_issue_labels: a nested oneOf.
        let schema = json!({"type":"object","properties":{"labels":{"oneOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]}}});
        let ran = run(&StrictSubset::default(), Lane::OpenaiStrict, schema.clone());
        assert_eq!(ran.tool.input_schema, schema);
        assert_eq!(ran.tool.strict, Some(false));
        assert_eq!(
            ran.records[0].reason,
            "sent with strict: false: oneOf at /properties/labels is outside the strict subset and no widening removal serves it"
        );
    }

    #[test]
    fn not_and_conditionals_are_left_to_strict_fallback() {
        let schema =
            json!({"type":"object","properties":{"n":{"anyOf":[{"type":"string"},{"not":{}}]}}});
        let ran = run(&StrictSubset::default(), Lane::OpenaiStrict, schema.clone());
        assert_eq!(ran.tool.input_schema, schema);
        assert!(ran.records.is_empty());
    }

    #[test]
    fn openai_strict_sends_a_tool_with_all_of_non_strict_and_changes_nothing_else() {
        let schema = json!({"type":"object","properties":{
            "a":{"allOf":[{"type":"string"}]},"u":{"type":"string","format":"uri"}}});
        let ran = run(&StrictSubset::default(), Lane::OpenaiStrict, schema.clone());
        assert_eq!(ran.tool.input_schema, schema);
        assert_eq!(ran.tool.strict, Some(false));
        assert_eq!(ran.records.len(), 1);
        assert_eq!(
            ran.records[0].reason,
            "sent with strict: false: allOf at /properties/a is outside the strict subset and no widening removal serves it"
        );
    }

    #[test]
    fn a_format_on_a_nullable_number_is_left_alone_as_on_a_number() {
        // Shaping twice must not strip it the second time, after
        // strict-require-all made the property nullable (idempotence).
        let schema =
            json!({"type":"object","properties":{"n":{"type":["integer","null"],"format":"uri"}}});
        let ran = run(&StrictSubset::default(), Lane::OpenaiStrict, schema.clone());
        assert_eq!(ran.tool.input_schema, schema);
        assert!(ran.records.is_empty());
    }

    #[test]
    fn openai_chat_leaves_a_non_strict_tool_alone() {
        let schema = json!({"type":"object","properties":{"u":{"type":"string","format":"uri","uniqueItems":true}}});
        let ran = run(&StrictSubset::default(), Lane::OpenaiChat, schema.clone());
        assert_eq!(ran.tool.input_schema, schema);
        assert!(ran.records.is_empty());
    }

    #[test]
    fn a_property_named_like_a_keyword_is_a_name_not_a_keyword() {
        let schema = json!({"type":"object","properties":{"not":{"type":"string"},"allOf":{"type":"integer"}}});
        let ran = run(&StrictSubset::default(), Lane::OpenaiStrict, schema.clone());
        assert_eq!(ran.tool.input_schema, schema);
        assert!(ran.records.is_empty());
    }
}
