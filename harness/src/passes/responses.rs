//! `responses-root-flatten`: the old line's Responses-style root flatten.
//!
//! v0 runs it on `anthropic-messages`, `anthropic-compatible` and
//! `openai-responses`; v1 keeps it unchanged on `openai-responses` (seed 000
//! leaves that lane untouched). On a normalized schema:
//! 1. a root that is not a JSON object becomes `{}`;
//! 2. the constraint note is taken from the root `oneOf` (else `anyOf`)
//!    branches' required groups;
//! 3. root `oneOf`/`anyOf`/`allOf`/`enum`/`not` are stripped, branch
//!    properties merged into the root (root wins, then the first branch);
//! 4. `type` is forced to `"object"` and `properties` to an object, and root
//!    `required` entries naming no property are pruned;
//! 5. `dependentRequired`/`dependentSchemas` are stripped everywhere, with a
//!    dependency note;
//! 6. the notes are appended to the description.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::notes;
use super::root::{self, MergeOrder};
use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// See the module docs. The fields are the pass's mutation points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ResponsesRootFlatten {
    /// Root keywords stripped, in merge order.
    pub(crate) stripped: Cow<'static, [&'static str]>,
    /// Merge properties from the members of every stripped keyword (v0),
    /// or only from the branches of the compositions (v1: `enum` members
    /// are values, not schemas, and `not` negates its properties; merging
    /// them surfaced content no earlier pass had repaired).
    pub(crate) merge_values: bool,
    /// Keywords whose branches give the note, in precedence order.
    pub(crate) noted: Cow<'static, [&'static str]>,
    /// Stripped at every schema position.
    pub(crate) dependent: Cow<'static, [&'static str]>,
    pub(crate) merge: MergeOrder,
    pub(crate) replace_non_object_root: bool,
    pub(crate) force_type: bool,
    pub(crate) force_properties: bool,
    pub(crate) prune_dangling_required: bool,
}

/// The pass as both profiles run it, usable as a value like the unit
/// struct it once was.
#[allow(non_upper_case_globals)]
pub(crate) const ResponsesRootFlatten: ResponsesRootFlatten = ResponsesRootFlatten {
    stripped: Cow::Borrowed(&["oneOf", "anyOf", "allOf", "enum", "not"]),
    merge_values: true,
    noted: Cow::Borrowed(&["oneOf", "anyOf"]),
    dependent: Cow::Borrowed(&["dependentRequired", "dependentSchemas"]),
    merge: MergeOrder::FirstWins,
    replace_non_object_root: true,
    force_type: true,
    force_properties: true,
    prune_dangling_required: true,
};

impl ResponsesRootFlatten {
    /// v1's flatten: properties merged from composition branches only.
    pub(crate) fn v1() -> Self {
        Self {
            merge_values: false,
            ..ResponsesRootFlatten
        }
    }
}

impl Default for ResponsesRootFlatten {
    fn default() -> Self {
        ResponsesRootFlatten
    }
}

impl Pass for ResponsesRootFlatten {
    fn name(&self) -> &'static str {
        "responses-root-flatten"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out =
            PassMutant::drop_each(self, "stripped root keywords", |p| p.stripped.to_mut());
        let mut reversed = self.clone();
        reversed.noted.to_mut().reverse();
        out.push(PassMutant::new("reverse the note precedence", reversed));
        out.extend(PassMutant::drop_each(self, "dependent keywords", |p| {
            p.dependent.to_mut()
        }));
        let mut last = self.clone();
        last.merge = MergeOrder::LastWins;
        out.push(PassMutant::new("last-wins property merge", last));
        out.push(PassMutant::flip(
            self,
            "flip merging from enum and not",
            |p| &mut p.merge_values,
        ));
        out.push(PassMutant::flip(self, "keep a non-object root", |p| {
            &mut p.replace_non_object_root
        }));
        out.push(PassMutant::flip(self, "skip forcing type: object", |p| {
            &mut p.force_type
        }));
        out.push(PassMutant::flip(self, "skip forcing properties", |p| {
            &mut p.force_properties
        }));
        out.push(PassMutant::flip(
            self,
            "skip the dangling-required prune",
            |p| &mut p.prune_dangling_required,
        ));
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.replace_non_object_root {
            root::replace_non_object_root(&mut tool.input_schema, cx);
        }
        let Some(rootmap) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        let note = self.noted.iter().find_map(|kw| {
            let branches = rootmap.field(kw)?.as_array()?;
            Some(notes::composition_note(
                kw,
                &notes::required_groups(branches),
            ))
        });
        let merged: &[&str] = if self.merge_values {
            &self.stripped
        } else {
            &["oneOf", "anyOf", "allOf"]
        };
        // The `required` entries of `allOf` branches are not kept, in v1
        // either: Responses output stays byte-identical to v0's except
        // where a provider rejects it (seeds 003 and 004: prompt-cache
        // identity); the strip is recorded.
        root::strip_and_merge_properties(rootmap, &self.stripped, merged, self.merge, cx);
        if self.force_type && !schema::has_type(rootmap, "object") {
            let action = if rootmap.has("type") {
                Action::Rewritten
            } else {
                Action::Added
            };
            rootmap.insert("type".into(), json!("object"));
            cx.record("", "type", action, "root type forced to \"object\"");
        }
        if self.force_properties && !rootmap.field("properties").is_some_and(Value::is_object) {
            let action = if rootmap.has("properties") {
                Action::Rewritten
            } else {
                Action::Added
            };
            rootmap.insert("properties".into(), json!({}));
            cx.record(
                "",
                "properties",
                action,
                "root properties forced to an object",
            );
        }
        // Forcing `properties` can leave root `required` entries dangling.
        if self.prune_dangling_required {
            root::prune_dangling_required(rootmap, cx);
        }
        let mut deps = Vec::new();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            for kw in self.dependent.iter() {
                if let Some(v) = node.shift_remove(*kw) {
                    cx.record(
                        path,
                        kw,
                        Action::Removed,
                        format!("{kw} stripped by the Responses flatten"),
                    );
                    deps.push((path.as_str().to_owned(), (*kw).to_owned(), v));
                }
            }
            true
        })?;
        if let Some(n) = note.flatten() {
            cx.note(tool, &n, "root composition constraint surfaced as a note");
        }
        if let Some(n) = notes::dependencies_note(&deps) {
            cx.note(tool, &n, "parameter dependencies surfaced as a note");
        }
        Ok(Step::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{bytes, run, run_on_tool};

    fn flat(v: Value) -> crate::passes::test_support::Ran {
        run(&ResponsesRootFlatten, Lane::OpenaiResponses, v)
    }

    #[test]
    fn responses_flatten_strips_a_root_one_of_merges_and_notes() {
        let r = run_on_tool(
            &ResponsesRootFlatten,
            Lane::OpenaiResponses,
            Tool::new(
                "pay",
                json!({"type":"object","properties":{"amount":{"type":"number"}},"oneOf":[
                    {"properties":{"card":{"type":"string"}},"required":["card"]},
                    {"properties":{"iban":{"type":"string"}},"required":["iban"]}]}),
            )
            .with_description("Pay."),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"amount":{"type":"number"},"card":{"type":"string"},"iban":{"type":"string"}}}"#
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("Pay.\n\nExactly one of these parameter groups must be provided: card | iban.")
        );
    }

    /// v0 merges properties out of `enum` members and `not` too; v1 merges
    /// only from composition branches (found by the idempotence property: a
    /// merged enum member carried `required: null` no repair had seen).
    #[test]
    fn responses_flatten_v1_merges_from_compositions_only() {
        let schema = json!({"type":"object","properties":{"q":{"type":"string"}},
            "anyOf":[{"properties":{"a":{"type":"integer"}}}],
            "allOf":[{"required":["a"]}],
            "enum":[{"properties":{"e":{"required":null}}}],
            "not":{"properties":{"n":{"type":"string"}}}});
        let v0 = flat(schema.clone());
        assert_eq!(
            bytes(v0.schema()),
            r#"{"type":"object","properties":{"q":{"type":"string"},"a":{"type":"integer"},"e":{"required":null}}}"#
        );
        let v1 = run(&ResponsesRootFlatten::v1(), Lane::OpenaiResponses, schema);
        assert_eq!(
            bytes(v1.schema()),
            r#"{"type":"object","properties":{"q":{"type":"string"},"a":{"type":"integer"}}}"#
        );
        assert_eq!(
            v1.marks(),
            [
                (String::new(), "anyOf".into(), Action::Removed),
                (String::new(), "allOf".into(), Action::Removed),
                (String::new(), "enum".into(), Action::Removed),
                (String::new(), "not".into(), Action::Removed),
                (
                    "/anyOf/0/properties/a".into(),
                    "properties".into(),
                    Action::Rewritten
                ),
            ]
        );
    }

    #[test]
    fn responses_flatten_strips_root_enum_and_not_and_forces_object() {
        let r = flat(json!({"type":"string","enum":["a","b"],"not":{"const":"c"}}));
        assert_eq!(bytes(r.schema()), r#"{"type":"object","properties":{}}"#);
        assert_eq!(
            r.marks(),
            [
                (String::new(), "enum".into(), Action::Removed),
                (String::new(), "not".into(), Action::Removed),
                (String::new(), "type".into(), Action::Rewritten),
                (String::new(), "properties".into(), Action::Added),
            ]
        );
    }

    #[test]
    fn responses_flatten_prunes_required_left_dangling_by_the_forced_properties() {
        let r = flat(json!({"required":["a","b"]}));
        assert_eq!(bytes(r.schema()), r#"{"type":"object","properties":{}}"#);
        let again = flat(r.schema().clone());
        assert_eq!(bytes(again.schema()), bytes(r.schema()));
    }

    #[test]
    fn responses_flatten_replaces_a_non_object_root() {
        assert_eq!(
            bytes(flat(json!([1, 2])).schema()),
            r#"{"type":"object","properties":{}}"#
        );
        assert_eq!(
            bytes(flat(json!(true)).schema()),
            r#"{"type":"object","properties":{}}"#
        );
    }

    #[test]
    fn responses_flatten_strips_dependent_keywords_everywhere_with_a_note() {
        let r = run_on_tool(
            &ResponsesRootFlatten,
            Lane::OpenaiResponses,
            Tool::new(
                "t",
                json!({"type":"object","properties":{"card":{"type":"string"},"cvv":{"type":"string"},
                    "o":{"type":"object","properties":{"x":{}},"dependentSchemas":{"x":{"required":["y"]}}}},
                    "dependentRequired":{"card":["cvv"]}}),
            ),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"card":{"type":"string"},"cvv":{"type":"string"},"o":{"type":"object","properties":{"x":{}}}}}"#
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "Parameter dependencies: (root): card requires cvv; o: when x is provided, extra constraints apply."
            )
        );
    }

    #[test]
    fn responses_flatten_root_property_wins_then_first_branch_wins() {
        let r = flat(json!({"properties":{"a":{"type":"string"}},"anyOf":[
            {"properties":{"a":{"type":"integer"},"b":{"type":"integer"}}},
            {"properties":{"b":{"type":"boolean"}}}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"properties":{"a":{"type":"string"},"b":{"type":"integer"}},"type":"object"}"#
        );
    }

    #[test]
    fn responses_flatten_keeps_nested_compositions_and_lookaround_patterns() {
        let v = json!({"type":"object","properties":{"x":{"oneOf":[{"type":"string","pattern":"^(?=a)"},{"type":"integer"}]}}});
        assert_eq!(flat(v.clone()).schema(), &v);
    }
}
