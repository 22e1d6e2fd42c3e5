//! Unit tests of `strict-inline-ref-siblings`: exact bytes, records and
//! reasons.

use serde_json::{Value, json};

use super::*;
use crate::degradation::Action;
use crate::lane::Lane;
use crate::passes::test_support::{Ran, bytes, run_on_tool};
use crate::tool::Tool;

fn strict(schema: Value) -> Tool {
    let mut t = Tool::new("t", schema);
    t.strict = Some(true);
    t
}

fn inline(schema: Value) -> Ran {
    run_on_tool(
        &StrictInlineRefSiblings::default(),
        Lane::OpenaiStrict,
        strict(schema),
    )
}

/// `(path, keyword, action, reason)` of every record.
fn records(r: &Ran) -> Vec<(String, String, Action, String)> {
    r.records
        .iter()
        .map(|d| {
            (
                d.path.clone(),
                d.keyword.clone(),
                d.action,
                d.reason.to_string(),
            )
        })
        .collect()
}

/// The tool went non-strict as it came in, with this reason.
fn non_strict(r: &Ran, input: &Value, why: &str) {
    assert_eq!(bytes(r.schema()), bytes(input));
    assert_eq!(r.tool.strict, Some(false));
    assert_eq!(
        records(r),
        [(
            String::new(),
            "strict".to_owned(),
            Action::Rewritten,
            format!("sent with strict: false: {why}")
        )]
    );
}

fn defs() -> Value {
    json!({"c": {"type": "object", "title": "Contact", "properties": {"email": {"type": "string"}}}})
}

/// Pydantic's described model-typed field: the target's keywords in its
/// order, the node's after them, the node's `title` over the target's.
#[test]
fn strict_inline_ref_siblings_inlines_a_described_ref_keeping_the_node_annotations() {
    let r = inline(json!({"type": "object", "properties": {
        "to": {"$ref": "#/$defs/c", "description": "who gets it", "title": "To"}},
        "$defs": defs()}));
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"to":{"type":"object","title":"To","properties":{"email":{"type":"string"}},"description":"who gets it"}},"$defs":{"c":{"type":"object","title":"Contact","properties":{"email":{"type":"string"}}}}}"#
    );
    assert_eq!(r.tool.strict, Some(true));
    assert_eq!(
        records(&r),
        [(
            "/properties/to".to_owned(),
            "$ref".to_owned(),
            Action::Rewritten,
            "$ref #/$defs/c inlined into the node with description, title beside it: strict mode takes no keywords beside a $ref".to_owned()
        )]
    );
}

/// A target holding a `$ref` beside keywords: the copy's node is inlined
/// in turn (and the definition itself in place); shaping the output again
/// changes nothing.
#[test]
fn strict_inline_ref_siblings_inlines_the_copies_too_and_is_idempotent() {
    let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/outer", "description": "a"}},
        "$defs": {"outer": {"type": "object", "properties": {"in": {"$ref": "#/$defs/c", "description": "in"}}}, "c": defs()["c"].clone()}});
    let r = inline(schema);
    assert_eq!(
        r.marks(),
        [
            (
                "/properties/a".to_owned(),
                "$ref".to_owned(),
                Action::Rewritten
            ),
            (
                "/properties/a/properties/in".to_owned(),
                "$ref".to_owned(),
                Action::Rewritten
            ),
            (
                "/$defs/outer/properties/in".to_owned(),
                "$ref".to_owned(),
                Action::Rewritten
            ),
        ]
    );
    let again = run_on_tool(
        &StrictInlineRefSiblings::default(),
        Lane::OpenaiStrict,
        r.tool.clone(),
    );
    assert!(again.records.is_empty(), "{:?}", again.marks());
    assert_eq!(again.tool, r.tool);
}

/// A keyword both declare, to different values, is no annotation: one
/// schema cannot say both, so the tool goes non-strict as it came.
#[test]
fn strict_inline_ref_siblings_sends_a_conflicting_sibling_non_strict() {
    let input = json!({"type": "object", "properties": {"to": {"$ref": "#/$defs/c", "type": "string"}}, "$defs": defs()});
    non_strict(
        &inline(input.clone()),
        &input,
        "the $ref at /properties/to has type beside it, which strict mode rejects, and cannot be inlined: its target declares type too, so one schema cannot say both",
    );
}

/// `additionalProperties` beside a target's `properties` would close over
/// them; in the conjunction it allowed `{}` only.
#[test]
fn strict_inline_ref_siblings_sends_a_neighbour_keyword_beside_the_targets_non_strict() {
    let input = json!({"type": "object", "properties": {"to": {"$ref": "#/$defs/c", "additionalProperties": false}}, "$defs": defs()});
    non_strict(
        &inline(input.clone()),
        &input,
        "the $ref at /properties/to has additionalProperties beside it, which strict mode rejects, and cannot be inlined: its target declares additionalProperties too, so one schema cannot say both",
    );
}

/// A recursive reference's copy holds the same node again.
#[test]
fn strict_inline_ref_siblings_sends_a_recursive_ref_non_strict() {
    let input =
        json!({"type": "object", "properties": {"next": {"$ref": "#", "description": "the rest"}}});
    non_strict(
        &inline(input.clone()),
        &input,
        "the $ref at /properties/next has description beside it, which strict mode rejects, and cannot be inlined: its target holds it again (a recursive reference)",
    );
}

#[test]
fn strict_inline_ref_siblings_sends_an_unresolved_ref_non_strict() {
    let input = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/none", "description": "x"}}});
    non_strict(
        &inline(input.clone()),
        &input,
        "the $ref at /properties/x has description beside it, which strict mode rejects, and cannot be inlined: its reference resolves to no schema in this tool",
    );
}

/// 300 references to a target of 4,000 bytes: 1,200,000 bytes of copies,
/// past the 1 MiB cap the tool's own size (about 17 KB) gets; the
/// 263rd copy (`p262`) is the first past it.
#[test]
fn strict_inline_ref_siblings_sends_copies_past_the_growth_budget_non_strict() {
    let props: serde_json::Map<String, Value> = (0..300)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"$ref": "#/$defs/big", "description": "d"}),
            )
        })
        .collect();
    let big = json!({"type": "string", "description": "b".repeat(3_966)});
    let input = json!({"type": "object", "properties": props, "$defs": {"big": big}});
    assert_eq!(crate::json_len::byte_len(&input["$defs"]["big"]), 4_000);
    assert_eq!(
        crate::passes::growth::growth_budget(crate::passes::growth::own_size(&input)),
        1_048_576
    );
    assert_eq!(1_048_576 / 4_000, 262);
    non_strict(
        &inline(input.clone()),
        &input,
        "the $ref at /properties/p262 has description beside it, which strict mode rejects, and cannot be inlined: inlining would grow the tool by more than 1048576 bytes",
    );
}

/// Inlined, a `{"type": "object", "$ref": …}` whose target is a map is an
/// open object strict mode cannot carry: non-strict, as it came.
#[test]
fn strict_inline_ref_siblings_sends_a_tool_past_a_strict_limit_once_inlined_non_strict() {
    let input = json!({"type": "object", "properties": {"env": {"type": "object", "$ref": "#/$defs/map"}},
        "$defs": {"map": {"additionalProperties": {"type": "string"}}}});
    non_strict(
        &inline(input.clone()),
        &input,
        "strict mode takes no keywords beside a $ref, and with the targets inlined the open object at /properties/env declares no properties: strict mode could only accept {} there",
    );
}

/// Draft-07 ignores a `$ref`'s siblings: the assertions go (recorded each)
/// and a bare `$ref` stays; an annotation beside it is inlined.
#[test]
fn strict_inline_ref_siblings_drops_what_a_draft_07_ref_ignores() {
    let r = inline(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {
        "a": {"type": "string", "$ref": "#/definitions/n"},
        "b": {"description": "b", "$ref": "#/definitions/n", "maxItems": 2}},
        "definitions": {"n": {"type": "integer"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"$ref":"#/definitions/n"},"b":{"type":"integer","description":"b"}},"definitions":{"n":{"type":"integer"}}}"##
    );
    assert_eq!(
        records(&r),
        [
            (
                "/properties/a".to_owned(),
                "$ref".to_owned(),
                Action::Rewritten,
                "its siblings but the annotations dropped: draft-07 (the root's $schema) ignores them".to_owned()
            ),
            (
                "/properties/a".to_owned(),
                "type".to_owned(),
                Action::Removed,
                "ignored beside a $ref in draft-07 (the root's $schema), dropped as the $ref is inlined".to_owned()
            ),
            (
                "/properties/b".to_owned(),
                "$ref".to_owned(),
                Action::Rewritten,
                "its siblings but the annotations dropped: draft-07 (the root's $schema) ignores them".to_owned()
            ),
            (
                "/properties/b".to_owned(),
                "maxItems".to_owned(),
                Action::Removed,
                "ignored beside a $ref in draft-07 (the root's $schema), dropped as the $ref is inlined".to_owned()
            ),
            (
                "/properties/b".to_owned(),
                "$ref".to_owned(),
                Action::Rewritten,
                "$ref #/definitions/n inlined into the node with description beside it: strict mode takes no keywords beside a $ref".to_owned()
            ),
        ]
    );
}

/// The root instance inlines a root `$ref` (its `$schema` and the
/// definitions kept, the root's definitions over the target's) and leaves
/// the nodes below it; a root `$ref` beside its definitions alone is left.
#[test]
fn strict_inline_ref_siblings_root_instance_inlines_the_root_only() {
    let r = run_on_tool(
        &StrictInlineRefSiblings::ROOT,
        Lane::OpenaiStrict,
        strict(
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/r",
            "$defs": {"r": {"type": "object", "properties": {"c": {"$ref": "#/$defs/c", "description": "c"}}, "$defs": {}}, "c": defs()["c"].clone()}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"c":{"$ref":"#/$defs/c","description":"c"}},"$defs":{"r":{"type":"object","properties":{"c":{"$ref":"#/$defs/c","description":"c"}},"$defs":{}},"c":{"type":"object","title":"Contact","properties":{"email":{"type":"string"}}}},"$schema":"https://json-schema.org/draft/2020-12/schema"}"##
    );
    assert_eq!(
        r.marks(),
        [(String::new(), "$ref".to_owned(), Action::Rewritten)]
    );
    let alone = json!({"$ref": "#/$defs/c", "$defs": defs()});
    let r = run_on_tool(
        &StrictInlineRefSiblings::default(),
        Lane::OpenaiStrict,
        strict(alone.clone()),
    );
    assert!(r.records.is_empty());
    assert_eq!(r.schema(), &alone);
}

/// Only strict tools are shaped (a non-strict tool takes a `$ref` beside
/// keywords); the `inline: false` mutant leaves every one.
#[test]
fn strict_inline_ref_siblings_leaves_non_strict_tools_and_its_mutant_leaves_all() {
    let input = json!({"type": "object", "properties": {"to": {"$ref": "#/$defs/c", "description": "d"}}, "$defs": defs()});
    let mut loose = Tool::new("t", input.clone());
    loose.strict = Some(false);
    let r = run_on_tool(
        &StrictInlineRefSiblings::default(),
        Lane::OpenaiStrict,
        loose,
    );
    assert!(r.records.is_empty());
    assert_eq!(r.schema(), &input);
    let off = StrictInlineRefSiblings {
        inline: false,
        ..StrictInlineRefSiblings::default()
    };
    let r = run_on_tool(&off, Lane::OpenaiStrict, strict(input.clone()));
    assert!(r.records.is_empty());
    assert_eq!(r.schema(), &input);
    let names: Vec<String> = StrictInlineRefSiblings::default()
        .mutants()
        .iter()
        .map(|m| m.change.clone())
        .collect();
    assert_eq!(
        names,
        [
            "ignore the lane's strict default",
            "negate the strict gate",
            "leave $ref siblings"
        ]
    );
}
