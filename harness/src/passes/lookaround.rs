//! `strip-lookaround-patterns`: v1's OpenAI Responses pass (seed 003).
//!
//! The Responses API rejects the whole request when a tool's `pattern`
//! contains a regex lookahead or lookbehind. Every such `pattern` (found by
//! the ECMA-262 lexer in `ecma`, never by substring search) is removed, one
//! degradation per (tool, keyword, path), and the lost constraints are listed
//! in one description note. Every other byte is kept.

use serde_json::Value;

use super::normalize::Normalize;
use super::notes::{self, Unenforced};
use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::ecma;
use crate::lookup::Lookup;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// The fields are the pass's mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StripLookaroundPatterns {
    /// Append the unenforced-constraint note.
    pub(crate) note: bool,
    /// Judge patterns with the ECMA-262 lexer (else: substring search).
    pub(crate) lexer: bool,
    /// Keep a pattern the lexer cannot judge (invalid regex).
    pub(crate) keep_unjudged: bool,
}

impl Default for StripLookaroundPatterns {
    fn default() -> Self {
        Self {
            note: true,
            lexer: true,
            keep_unjudged: true,
        }
    }
}

impl StripLookaroundPatterns {
    fn strips(self, pattern: &str) -> bool {
        if !self.lexer {
            return ["(?=", "(?!", "(?<=", "(?<!"]
                .iter()
                .any(|a| pattern.contains(a));
        }
        match ecma::has_lookaround(pattern) {
            Some(found) => found,
            None => !self.keep_unjudged,
        }
    }
}

impl Pass for StripLookaroundPatterns {
    fn name(&self) -> &'static str {
        "strip-lookaround-patterns"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-pattern-lookaround")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "skip the unenforced note", |p| &mut p.note),
            PassMutant::flip(self, "substring search instead of the lexer", |p| {
                &mut p.lexer
            }),
            PassMutant::flip(self, "strip patterns the lexer cannot judge", |p| {
                &mut p.keep_unjudged
            }),
        ]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut lost = Vec::new();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let has = matches!(node.field("pattern"), Some(Value::String(p)) if self.strips(p));
            if has && let Some(v) = node.shift_remove("pattern") {
                cx.record(
                    path,
                    "pattern",
                    Action::Removed,
                    "pattern uses a regex lookaround, which the Responses API rejects",
                );
                lost.push(Unenforced {
                    pointer: path.as_str().to_owned(),
                    keyword: "pattern".into(),
                    value: v,
                });
            }
            true
        })?;
        if self.note
            && let Some(n) = notes::unenforced_note(&lost)
        {
            cx.note(tool, &n, "stripped lookaround patterns surfaced as a note");
        }
        if lost.is_empty() {
            return Ok(Step::Continue);
        }
        // `normalize` ran before: a one-branch union whose property
        // differed from its parent's only by a stripped pattern is
        // inlined now, not on the next shaping (idempotence; found by
        // cargo fuzz). Its records are normalize's.
        cx.run_again(
            &Normalize::ignoring_other_types_on_null().collapses_only(),
            self,
            tool,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{bytes, run, run_on_tool};
    use serde_json::json;

    fn strip(v: Value) -> crate::passes::test_support::Ran {
        run(
            &StripLookaroundPatterns::default(),
            Lane::OpenaiResponses,
            v,
        )
    }

    #[test]
    fn responses_v1_inlines_a_union_the_stripped_pattern_kept_apart() {
        // cargo fuzz (shape_idempotent): normalize, which runs first, could
        // not inline this branch; a second shaping did.
        let r = strip(
            json!({"type":"object","properties":{"code":{"type":"object","properties":{"value":{"type":"string"}},"oneOf":[{"type":"object","properties":{"value":{"type":"string","pattern":"^(?!0)\\d+$"}}}]}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"code":{"type":"object","properties":{"value":{"type":"string"}}}}}"#
        );
        assert_eq!(
            r.marks(),
            [
                (
                    "/properties/code/oneOf/0/properties/value".to_owned(),
                    "pattern".to_owned(),
                    Action::Removed
                ),
                (String::new(), "description".to_owned(), Action::Noted),
                (
                    "/properties/code".to_owned(),
                    "oneOf".to_owned(),
                    Action::Rewritten
                ),
            ]
        );
        let r = strip(json!({"type":"string","pattern":"^[a-z]+$"}));
        assert!(r.records.is_empty());
    }

    #[test]
    fn responses_v1_removes_exactly_the_lookaround_patterns() {
        let r = run_on_tool(
            &StripLookaroundPatterns::default(),
            Lane::OpenaiResponses,
            Tool::new(
                "t",
                json!({"type":"object","properties":{
                    "slug":{"type":"string","pattern":"^(?!-)[a-z0-9-]+$","maxLength":40},
                    "plain":{"type":"string","pattern":"^[a-z]+$"},
                    "tags":{"type":"array","items":{"type":"string","pattern":"(?<=#)\\w+"}}}}),
            )
            .with_description("Tag things."),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"slug":{"type":"string","maxLength":40},"plain":{"type":"string","pattern":"^[a-z]+$"},"tags":{"type":"array","items":{"type":"string"}}}}"#
        );
        assert_eq!(
            r.marks(),
            [
                ("/properties/slug".into(), "pattern".into(), Action::Removed),
                (
                    "/properties/tags/items".into(),
                    "pattern".into(),
                    Action::Removed
                ),
                (String::new(), "description".into(), Action::Noted),
            ]
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "Tag things.\n\nConstraints this schema does not enforce (still follow them): slug: pattern ^(?!-)[a-z0-9-]+$; /properties/tags/items: pattern (?<=#)\\w+."
            )
        );
    }

    #[test]
    fn responses_v1_keeps_a_lookahead_lookalike_inside_a_character_class() {
        let v = json!({"type":"string","pattern":"^[(?=]+$"});
        let r = strip(v.clone());
        assert_eq!(bytes(r.schema()), bytes(&v));
        assert!(r.records.is_empty());
    }

    #[test]
    fn responses_v1_keeps_an_escaped_paren_pattern() {
        let v = json!({"type":"string","pattern":"^\\(\\?=x\\)$"});
        assert_eq!(strip(v.clone()).schema(), &v);
    }

    #[test]
    fn responses_v1_never_touches_a_property_named_pattern() {
        let v = json!({"type":"object","properties":{"pattern":{"type":"string","description":"(?=x)"}}});
        let r = strip(v.clone());
        assert_eq!(r.schema(), &v);
    }

    #[test]
    fn responses_v1_strips_lookaround_inside_defs() {
        let r =
            strip(json!({"$defs":{"d":{"type":"string","pattern":"(?=a)a"}},"$ref":"#/$defs/d"}));
        assert_eq!(
            bytes(r.schema()),
            r##"{"$defs":{"d":{"type":"string"}},"$ref":"#/$defs/d"}"##
        );
        assert_eq!(
            r.marks()[0],
            ("/$defs/d".into(), "pattern".into(), Action::Removed)
        );
    }

    #[test]
    fn responses_v1_keeps_an_invalid_pattern_it_cannot_judge() {
        let v = json!({"type":"string","pattern":"(?=unclosed"});
        assert_eq!(strip(v.clone()).schema(), &v);
    }
}
