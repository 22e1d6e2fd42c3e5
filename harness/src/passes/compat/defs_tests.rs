use super::*;
use crate::lane::Lane;
use crate::passes::test_support::{Ran, bytes, marks, run};
use serde_json::json;

fn moved(v: Value) -> Ran {
    run(&RefsIntoDefs::default(), Lane::Moonshot, v)
}

#[test]
fn moonshot_v1_renames_draft_7_definitions_to_defs_and_their_refs() {
    // hermes-agent#14804: MCP servers' draft-07 schemas, rejected until
    // `definitions` became `$defs`.
    let r = moved(
        json!({"type":"object","properties":{"when":{"$ref":"#/definitions/DateTime"},"list":{"type":"array","items":{"$ref":"#/definitions/Item/properties/id"}}},"definitions":{"DateTime":{"type":"string"},"Item":{"type":"object","properties":{"id":{"type":"integer"}}}},"required":["when"]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"when":{"$ref":"#/$defs/DateTime"},"list":{"type":"array","items":{"$ref":"#/$defs/Item/properties/id"}}},"$defs":{"DateTime":{"type":"string"},"Item":{"type":"object","properties":{"id":{"type":"integer"}}}},"required":["when"]}"##
    );
    assert_eq!(
        r.marks(),
        marks(&[
            ("", "definitions", Action::Rewritten),
            ("/properties/when", "$ref", Action::Rewritten),
            ("/properties/list/items", "$ref", Action::Rewritten),
        ])
    );
    assert_eq!(
        r.records[0].rule.as_deref(),
        Some("moonshot-ref-outside-defs")
    );
    assert_eq!(r.step, Step::Continue);
}

#[test]
fn moonshot_v1_merges_definitions_into_existing_defs_renaming_a_clash() {
    let r = moved(
        json!({"type":"object","properties":{"a":{"$ref":"#/definitions/A"},"b":{"$ref":"#/definitions/B"},"c":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"number"},"B":{"type":"boolean"}},"definitions":{"A":{"type":"string"},"B":{"type":"boolean"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/A_2"},"b":{"$ref":"#/$defs/B"},"c":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"number"},"B":{"type":"boolean"},"A_2":{"type":"string"}}}"##
    );
}

#[test]
fn moonshot_v1_copies_the_target_of_another_local_ref_into_defs() {
    // zod-to-json-schema's relative references point into properties.
    let r = moved(
        json!({"type":"object","properties":{"start":{"type":"object","properties":{"dateTime":{"type":"string"}}},"end":{"$ref":"#/properties/start"},"tz":{"$ref":"#/properties/start/properties/date%Time"},"at":{"$ref":"#/properties/start/properties/date%54ime"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"start":{"type":"object","properties":{"dateTime":{"type":"string"}}},"end":{"$ref":"#/$defs/start"},"tz":{"$ref":"#/properties/start/properties/date%Time"},"at":{"$ref":"#/$defs/dateTime"}},"$defs":{"start":{"type":"object","properties":{"dateTime":{"type":"string"}}},"dateTime":{"type":"string"}}}"##
    );
    assert_eq!(
        r.marks(),
        marks(&[
            ("/$defs/start", "$defs", Action::Added),
            ("/$defs/dateTime", "$defs", Action::Added),
            ("/properties/end", "$ref", Action::Rewritten),
            ("/properties/at", "$ref", Action::Rewritten),
        ])
    );
}

#[test]
fn moonshot_v1_leaves_refs_moonshot_resolves_alone() {
    let input = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"},"n":{"$ref":"#"},"m":{"$ref":"#/$defs/missing"}},"$defs":{"A":{"type":"string"}}});
    let r = moved(input.clone());
    assert_eq!(r.schema(), &input);
    assert!(r.records.is_empty());
    assert_eq!(r.step, Step::Continue);
}

#[test]
fn moonshot_v1_fails_closed_on_a_ref_no_rewrite_reaches() {
    for (reference, input) in [
        (
            "other.json#/x",
            json!({"type":"object","properties":{"x":{"$ref":"other.json#/x"}}}),
        ),
        (
            "#anchor",
            json!({"type":"object","properties":{"y":{"$ref":"#anchor"}}}),
        ),
        ("", json!({"type":"object","properties":{"z":{"$ref":""}}})),
        (
            "#/properties/gone",
            json!({"type":"object","properties":{"w":{"$ref":"#/properties/gone"}}}),
        ),
    ] {
        assert_eq!(
            moved(input).step,
            Step::FailClosed(format!(
                "$ref {reference:?} cannot point into $defs: Moonshot resolves only #/$defs/… and #, and no rewrite reaches its target"
            )),
            "{reference}"
        );
    }
}

#[test]
fn moonshot_v1_copies_a_recursive_target_with_its_inner_refs_pointing_at_the_copy() {
    let r = moved(
        json!({"type":"object","properties":{"node":{"type":"object","properties":{"next":{"$ref":"#/properties/node"}}}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}},"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}}}"##
    );
}

#[test]
fn moonshot_v1_mutants_leave_definitions_or_other_refs_where_they_are() {
    let input = json!({"type":"object","properties":{"a":{"$ref":"#/definitions/A"},"b":{"$ref":"#/properties/c"},"c":{"type":"string"}},"definitions":{"A":{"type":"string"}}});
    let keep_definitions = run(
        &RefsIntoDefs {
            rename_definitions: false,
            ..RefsIntoDefs::default()
        },
        Lane::Moonshot,
        input.clone(),
    );
    assert_eq!(
        bytes(keep_definitions.schema()),
        r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/A"},"b":{"$ref":"#/$defs/c"},"c":{"type":"string"}},"definitions":{"A":{"type":"string"}},"$defs":{"A":{"type":"string"},"c":{"type":"string"}}}"##
    );
    let keep_others = run(
        &RefsIntoDefs {
            copy_other_targets: false,
            ..RefsIntoDefs::default()
        },
        Lane::Moonshot,
        input,
    );
    assert_eq!(
        bytes(keep_others.schema()),
        r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/A"},"b":{"$ref":"#/properties/c"},"c":{"type":"string"}},"$defs":{"A":{"type":"string"}}}"##
    );
}

#[test]
fn moonshot_v1_moves_a_ref_under_an_unknown_keyword_and_records_it_as_that_keywords() {
    // JSONSchemaStore circleciconfig: a schema kept under a keyword of its
    // own, reached by a pointer; its reference must move with the others.
    let r = moved(
        json!({"type":"object","properties":{"run":{"$ref":"#/definitions/steps/docs/run"}},"definitions":{"steps":{"docs":{"run":{"$ref":"#/definitions/text"}}},"text":{"type":"string","enum":[{"$ref":"#/definitions/not-a-ref"}]}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"run":{"$ref":"#/$defs/steps/docs/run"}},"$defs":{"steps":{"docs":{"run":{"$ref":"#/$defs/text"}}},"text":{"type":"string","enum":[{"$ref":"#/definitions/not-a-ref"}]}}}"##
    );
    assert_eq!(
        r.marks(),
        marks(&[
            ("", "definitions", Action::Rewritten),
            ("/properties/run", "$ref", Action::Rewritten),
            ("/$defs/steps", "docs", Action::Rewritten),
        ])
    );
}

#[test]
fn moonshot_v1_replaces_a_defs_that_is_no_map_when_references_need_one() {
    let r = moved(
        json!({"type":"object","$defs":"none","properties":{"a":{"$ref":"#/definitions/A"}},"definitions":{"A":{"type":"string"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","$defs":{"A":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/A"}}}"##
    );
    assert_eq!(
        r.marks(),
        marks(&[
            ("", "$defs", Action::Rewritten),
            ("", "definitions", Action::Rewritten),
            ("/properties/a", "$ref", Action::Rewritten),
        ])
    );
}
