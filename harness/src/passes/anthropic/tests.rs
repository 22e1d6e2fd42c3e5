//! Unit tests.

use super::*;
use crate::degradation::Action;
use crate::lane::Lane;
use crate::passes::test_support::{bytes, run, run_on_tool};
use crate::tool::Tool;
use serde_json::{Value, json};

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
        Some("Quote.\n\nAt least one of these parameter groups must be provided: ticker | isin.")
    );
}

/// An allOf branch's `required` binds the whole input: kept at the root
/// (found by a mutation-check witness: the entry was dropped with only
/// "root allOf stripped" recorded). A name no property declares, and one
/// already required, are not added.
#[test]
fn anthropic_v1_keeps_the_required_entries_of_root_all_of_branches() {
    let r = narrow(
        json!({"type":"object","properties":{"q":{"type":"string"}},"required":["q"],
        "allOf":[{"properties":{"ticket id":{"type":"string"}},"required":["ticket id","q"]},
                 {"required":["ghost"]}]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"q":{"type":"string"},"ticket id":{"type":"string"}},"required":["q","ticket id"]}"#
    );
    assert_eq!(
        r.marks(),
        [
            (String::new(), "allOf".into(), Action::Removed),
            (
                "/allOf/0/properties/ticket id".into(),
                "properties".into(),
                Action::Rewritten
            ),
            (String::new(), "required".into(), Action::Rewritten),
            (String::new(), "description".into(), Action::Noted),
        ]
    );
    let r = narrow(json!({"allOf":[{"type":"object","properties":{"a":{}},"required":["a"]}]}));
    assert_eq!(
        bytes(r.schema()),
        r#"{"properties":{"a":{}},"required":["a"],"type":"object"}"#
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
    // the groups are kept as required too
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{},"b":{}},"required":["a","b"]}"#
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
        &ObjectRootFloor::default(),
        Lane::AnthropicMessages,
        json!({"properties":{"a":{}},"required":["a"]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"properties":{"a":{}},"required":["a"],"type":"object"}"#
    );
    assert_eq!(r.marks(), [(String::new(), "type".into(), Action::Added)]);
    let empty = run(
        &ObjectRootFloor::default(),
        Lane::AnthropicMessages,
        json!({}),
    );
    assert_eq!(
        bytes(empty.schema()),
        r#"{"type":"object","properties":{}}"#
    );
}

#[test]
fn anthropic_v1_object_root_floor_keeps_a_declared_root_type() {
    for v in [json!({"type":"string"}), json!({"type":"object"})] {
        let r = run(
            &ObjectRootFloor::default(),
            Lane::AnthropicMessages,
            v.clone(),
        );
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
