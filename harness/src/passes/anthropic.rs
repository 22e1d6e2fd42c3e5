//! `narrow-root-composition`: v1's first-party Anthropic pass (seed 000),
//! narrowed to exactly the recorded rejection
//! (`input_schema does not support oneOf, allOf, or anyOf at the top level`).
//!
//! On a normalized schema:
//! 1. a root that is not a JSON object becomes `{}`;
//! 2. root `oneOf`/`anyOf`/`allOf` are stripped, branch properties merged
//!    (root wins, then the first branch);
//! 3. the note comes from the first of `oneOf` > `anyOf` > `allOf` present;
//!    when the root is left with no properties and that keyword gave no note,
//!    a generic keyword-specific note is used instead;
//! 4. whenever a composition was stripped and the root declares no `type`,
//!    the object floor is restored: `type: "object"` (and `properties: {}`
//!    when absent, so a second run is a no-op);
//! 5. root `required` entries left dangling by the merge are pruned.
//!
//! Root `enum`/`not`, `dependentRequired`/`dependentSchemas`, declared
//! non-object roots and nested compositions ship verbatim.

use serde_json::json;

use super::notes;
use super::root::{self, MergeOrder};
use super::{Cx, Pass, Step};
use crate::degradation::Action;
use crate::schema::TooDeep;
use crate::tool::Tool;

/// v1 on `anthropic-messages`, in order.
pub(crate) fn v1_messages() -> Vec<Box<dyn Pass>> {
    vec![
        Box::new(super::Normalize::default()),
        Box::new(NarrowRootComposition::default()),
        Box::new(ObjectRootFloor),
    ]
}

/// See the module docs. The fields are the pass's mutation points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NarrowRootComposition {
    /// Stripped root keywords, also the note precedence order.
    pub(crate) keywords: Vec<&'static str>,
    pub(crate) merge: MergeOrder,
    pub(crate) replace_non_object_root: bool,
    pub(crate) restore_object_floor: bool,
    pub(crate) generic_note: bool,
    pub(crate) prune_dangling_required: bool,
}

impl Default for NarrowRootComposition {
    fn default() -> Self {
        Self {
            keywords: vec!["oneOf", "anyOf", "allOf"],
            merge: MergeOrder::FirstWins,
            replace_non_object_root: true,
            restore_object_floor: true,
            generic_note: true,
            prune_dangling_required: true,
        }
    }
}

impl Pass for NarrowRootComposition {
    fn name(&self) -> &'static str {
        "narrow-root-composition"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-root-composition")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.replace_non_object_root {
            root::replace_non_object_root(&mut tool.input_schema, cx);
        }
        let Some(rootmap) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        let Some(lead) = self
            .keywords
            .iter()
            .copied()
            .find(|k| rootmap.contains_key(*k))
        else {
            return Ok(Step::Continue);
        };
        let groups = rootmap
            .get(lead)
            .and_then(|v| v.as_array())
            .map(|b| notes::required_groups(b))
            .unwrap_or_default();
        let specific = notes::composition_note(lead, &groups);
        root::strip_and_merge(rootmap, &self.keywords, self.merge, cx);
        if self.restore_object_floor && !rootmap.contains_key("type") {
            rootmap.insert("type".into(), json!("object"));
            cx.record(
                "",
                "type",
                Action::Added,
                "object floor restored after the root composition strip",
            );
            if !rootmap.contains_key("properties") {
                rootmap.insert("properties".into(), json!({}));
                cx.record(
                    "",
                    "properties",
                    Action::Added,
                    "object floor restored after the root composition strip",
                );
            }
        }
        if self.prune_dangling_required {
            root::prune_dangling_required(rootmap, cx);
        }
        let note = match specific {
            Some(n) => Some(n),
            None if self.generic_note && !root::has_properties(rootmap) => {
                notes::generic_composition_note(lead).map(str::to_owned)
            }
            None => None,
        };
        if let Some(n) = note {
            cx.note(
                tool,
                &n,
                &format!("root {lead} constraint surfaced as a note"),
            );
        }
        Ok(Step::Continue)
    }
}

/// `object-root-floor`: v1's first-party Anthropic pass for the recorded
/// `tools.N.custom.input_schema.type: Field required` (rule
/// `anthropic-input-schema-type-required`): a root object schema that
/// declares no `type` gets `type: "object"` (and `properties: {}` when it
/// has none, so the result is stable under `normalize`). A declared root
/// type, object or not, is left alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ObjectRootFloor;

impl Pass for ObjectRootFloor {
    fn name(&self) -> &'static str {
        "object-root-floor"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-input-schema-type-required")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        if !root.contains_key("type") {
            root.insert("type".into(), json!("object"));
            cx.record(
                "",
                "type",
                Action::Added,
                "the endpoint requires a root type",
            );
            if !root.contains_key("properties") {
                root.insert("properties".into(), json!({}));
                cx.record(
                    "",
                    "properties",
                    Action::Added,
                    "object floor for a typeless root",
                );
                // `required` entries can only name properties it declares.
                root::prune_dangling_required(root, cx);
            }
        }
        Ok(Step::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{bytes, run, run_on_tool};
    use serde_json::Value;

    fn narrow(v: Value) -> crate::passes::test_support::Ran {
        run(
            &NarrowRootComposition::default(),
            Lane::AnthropicMessages,
            v,
        )
    }

    fn narrow_tool(v: Value, desc: &str) -> crate::passes::test_support::Ran {
        run_on_tool(
            &NarrowRootComposition::default(),
            Lane::AnthropicMessages,
            Tool::new("t", v).with_description(desc),
        )
    }

    #[test]
    fn anthropic_v1_strips_a_root_any_of_merges_branches_and_notes_at_least_one() {
        let r = narrow_tool(
            json!({"type":"object","properties":{"range":{"type":"string"}},"anyOf":[
                {"properties":{"ticker":{"type":"string"}},"required":["ticker"]},
                {"properties":{"isin":{"type":"string"}},"required":["isin"]}]}),
            "Quote.",
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"range":{"type":"string"},"ticker":{"type":"string"},"isin":{"type":"string"}}}"#
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "Quote.\n\nAt least one of these parameter groups must be provided: ticker | isin."
            )
        );
    }

    #[test]
    fn anthropic_v1_note_replaces_an_empty_description() {
        let r = narrow_tool(
            json!({"type":"object","oneOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}]}),
            "",
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("Exactly one of these parameter groups must be provided: a | b.")
        );
    }

    #[test]
    fn anthropic_v1_strips_a_root_all_of_with_an_every_group_note() {
        let r = narrow_tool(
            json!({"type":"object","allOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}]}),
            "",
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{},"b":{}}}"#
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("Every one of these parameter groups must be provided: a | b.")
        );
    }

    #[test]
    fn anthropic_v1_keeps_root_enum_not_and_dependent_keywords_verbatim() {
        for v in [
            json!({"type":"string","enum":["a","b"]}),
            json!({"type":"object","properties":{"a":{}},"not":{"required":["a"]}}),
            json!({"type":"object","properties":{"a":{},"b":{}},"dependentRequired":{"a":["b"]}}),
            json!({"type":"object","properties":{"a":{}},"dependentSchemas":{"a":{"properties":{"b":{}}}}}),
            json!({"type":"string"}),
        ] {
            let r = narrow(v.clone());
            assert_eq!(bytes(r.schema()), bytes(&v));
            assert!(r.records.is_empty(), "{v}");
        }
    }

    #[test]
    fn anthropic_v1_keeps_nested_compositions() {
        let v = json!({"type":"object","properties":{"x":{"oneOf":[{"type":"string"},{"type":"integer"}]}}});
        assert_eq!(narrow(v.clone()).schema(), &v);
    }

    #[test]
    fn anthropic_v1_restores_the_object_floor_for_an_all_of_of_refs() {
        let r = narrow_tool(
            json!({"$defs":{"a":{"type":"object","properties":{"x":{}}}},"allOf":[{"$ref":"#/$defs/a"}]}),
            "",
        );
        // single-element allOf would collapse in normalize; run the pass alone
        assert_eq!(
            bytes(r.schema()),
            r#"{"$defs":{"a":{"type":"object","properties":{"x":{}}}},"type":"object","properties":{}}"#
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "The input must match several combined shapes that this schema cannot express; see the tool's documentation."
            )
        );
    }

    #[test]
    fn anthropic_v1_restores_the_object_floor_for_boolean_branches() {
        let r = narrow_tool(json!({"anyOf":[true,{"required":["a"]}]}), "D.");
        assert_eq!(bytes(r.schema()), r#"{"type":"object","properties":{}}"#);
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "D.\n\nThe input must match at least one of several alternative shapes that this schema cannot express; see the tool's documentation."
            )
        );
    }

    #[test]
    fn anthropic_v1_gives_no_generic_note_when_the_root_keeps_properties() {
        // apply_patch-like: required-only branches beside root properties,
        // after normalize pruned the branch groups: no note, as the old line.
        let r = narrow_tool(
            json!({"type":"object","properties":{"input":{},"patch":{}},"oneOf":[{},{}]}),
            "Patch.",
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"input":{},"patch":{}}}"#
        );
        assert_eq!(r.tool.description.as_deref(), Some("Patch."));
    }

    #[test]
    fn anthropic_v1_root_property_wins_a_merge() {
        let r = narrow(
            json!({"type":"object","properties":{"a":{"type":"string"}},"oneOf":[
            {"properties":{"a":{"type":"integer"}}},{"properties":{"b":{}}}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{}}}"#
        );
        assert!(r.marks().contains(&(
            "/oneOf/0/properties/a".into(),
            "properties".into(),
            Action::Removed
        )));
    }

    #[test]
    fn anthropic_v1_first_branch_wins_a_merge() {
        let r = narrow(json!({"type":"object","anyOf":[
            {"properties":{"b":{"type":"integer"}}},{"properties":{"b":{"type":"string"}}}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"b":{"type":"integer"}}}"#
        );
    }

    #[test]
    fn anthropic_v1_note_precedence_is_one_of_over_any_of() {
        let r = narrow_tool(
            json!({"type":"object",
                "anyOf":[{"properties":{"c":{}},"required":["c"]},{"properties":{"d":{}},"required":["d"]}],
                "oneOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}]}),
            "",
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("Exactly one of these parameter groups must be provided: a | b.")
        );
        // merge order follows the keyword order too: oneOf branches first
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{}}}"#
        );
    }

    #[test]
    fn anthropic_v1_note_precedence_is_any_of_over_all_of() {
        let r = narrow_tool(
            json!({"allOf":[{"required":["x"]},{"required":["y"]}],
                   "anyOf":[{"properties":{"c":{}},"required":["c"]},{"properties":{"d":{}},"required":["d"]}]}),
            "",
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("At least one of these parameter groups must be provided: c | d.")
        );
    }

    #[test]
    fn anthropic_v1_keeps_a_declared_root_type() {
        let r = narrow(json!({"type":"string","oneOf":[{"minLength":1},{"maxLength":0}]}));
        assert_eq!(bytes(r.schema()), r#"{"type":"string"}"#);
    }

    #[test]
    fn anthropic_v1_replaces_a_non_object_root_with_an_empty_object() {
        let r = narrow(json!(["not", "a", "schema"]));
        assert_eq!(bytes(r.schema()), "{}");
        assert_eq!(bytes(narrow(json!(42)).schema()), "{}");
    }

    #[test]
    fn anthropic_v1_prunes_required_left_dangling_after_the_merge() {
        let r = narrow(
            json!({"type":"object","properties":{"a":{}},"required":["a","b"],"oneOf":[{"properties":{"c":{}}}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{},"c":{}},"required":["a"]}"#
        );
    }

    #[test]
    fn anthropic_v1_narrowing_leaves_a_typeless_root_without_composition_to_the_floor_pass() {
        let v = json!({"properties":{"a":{}}});
        let r = narrow(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
    }

    #[test]
    fn anthropic_v1_object_root_floor_types_a_typeless_root() {
        let r = run(
            &ObjectRootFloor,
            Lane::AnthropicMessages,
            json!({"properties":{"a":{}},"required":["a"]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"properties":{"a":{}},"required":["a"],"type":"object"}"#
        );
        assert_eq!(r.marks(), [(String::new(), "type".into(), Action::Added)]);
        let empty = run(&ObjectRootFloor, Lane::AnthropicMessages, json!({}));
        assert_eq!(
            bytes(empty.schema()),
            r#"{"type":"object","properties":{}}"#
        );
    }

    #[test]
    fn anthropic_v1_object_root_floor_keeps_a_declared_root_type() {
        for v in [json!({"type":"string"}), json!({"type":"object"})] {
            let r = run(&ObjectRootFloor, Lane::AnthropicMessages, v.clone());
            assert_eq!(r.schema(), &v);
            assert!(r.records.is_empty());
        }
    }

    #[test]
    fn anthropic_v1_restores_type_for_a_typeless_root_with_merged_properties() {
        let r = narrow(json!({"anyOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"properties":{"a":{},"b":{}},"type":"object"}"#
        );
    }
}
