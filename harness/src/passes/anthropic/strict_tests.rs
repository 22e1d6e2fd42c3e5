//! Tests of the v1 `anthropic-messages` passes added after the root
//! narrowing: draft 2020-12 repair, names, and the strict subset.

use serde_json::{Map, Value, json};

use super::*;
use crate::degradation::Action;
use crate::lane::Lane;
use crate::passes::test_support::{Ran, bytes, run, run_on_tool};
use crate::passes::{Pass, Step};
use crate::tool::Tool;

const LANE: Lane = Lane::AnthropicMessages;

fn strict(schema: Value) -> Tool {
    let mut t = Tool::new("t", schema);
    t.strict = Some(true);
    t
}

fn mark(path: &str, keyword: &str, action: Action) -> (String, String, Action) {
    (path.to_owned(), keyword.to_owned(), action)
}

/// Run `pass`, then run it again on its output: the second run records nothing.
fn twice(pass: &dyn Pass, tool: Tool) -> Ran {
    let first = run_on_tool(pass, LANE, tool);
    let again = run_on_tool(pass, LANE, first.tool.clone());
    assert!(
        again.records.is_empty(),
        "not idempotent: {:?}",
        again.marks()
    );
    assert_eq!(again.tool, first.tool);
    first
}

// ---------------------------------------------------------------- repair

#[test]
fn anthropic_v1_repair_reads_a_bare_type_name_property_as_a_type_schema() {
    // recording anthropic-json-schema-invalid-2020-12-241
    let r = twice(
        &RepairDraft202012::default(),
        Tool::new(
            "click",
            json!({"type":"object","properties":{"xCoordinate":"number","yCoordinate":"number"},"required":["xCoordinate","yCoordinate"]}),
        ),
    );
    assert_eq!(r.step, Step::Continue);
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"xCoordinate":{"type":"number"},"yCoordinate":{"type":"number"}},"required":["xCoordinate","yCoordinate"]}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/xCoordinate", "type", Action::Rewritten),
            mark("/properties/yCoordinate", "type", Action::Rewritten),
        ]
    );
}

#[test]
fn anthropic_v1_repair_reads_a_bare_type_name_items_schema() {
    let r = run(
        &RepairDraft202012::default(),
        LANE,
        json!({"type":"object","properties":{"xs":{"type":"array","items":"string"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"xs":{"type":"array","items":{"type":"string"}}}}"#
    );
    assert_eq!(
        r.marks(),
        [mark("/properties/xs/items", "type", Action::Rewritten)]
    );
}

#[test]
fn anthropic_v1_repair_lifts_a_draft_3_boolean_required_into_the_parent() {
    // recording anthropic-json-schema-invalid-2020-12-71
    let r = twice(
        &RepairDraft202012::default(),
        Tool::new(
            "run_query",
            json!({"type":"object","properties":{"name":{"type":"string","required":true},"opt":{"type":"string","required":false}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"name":{"type":"string"},"opt":{"type":"string"}},"required":["name"]}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/name", "required", Action::Removed),
            mark("/properties/opt", "required", Action::Removed),
            mark("", "required", Action::Added),
        ]
    );
}

#[test]
fn anthropic_v1_repair_appends_a_lifted_name_to_an_existing_required_list() {
    let r = run(
        &RepairDraft202012::default(),
        LANE,
        json!({"type":"object","properties":{"a":{},"b":{"required":true}},"required":["a"]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{},"b":{}},"required":["a","b"]}"#
    );
}

#[test]
fn anthropic_v1_repair_drops_a_boolean_required_outside_a_property() {
    let r = run(
        &RepairDraft202012::default(),
        LANE,
        json!({"type":"object","required":true,"properties":{}}),
    );
    assert_eq!(bytes(r.schema()), r#"{"type":"object","properties":{}}"#);
    assert_eq!(r.marks(), [mark("", "required", Action::Removed)]);
}

#[test]
fn anthropic_v1_repair_moves_tuple_items_to_prefix_items() {
    let r = twice(
        &RepairDraft202012::default(),
        Tool::new(
            "t",
            json!({"type":"object","properties":{"pt":{"type":"array","items":[{"type":"integer"},{"type":"string"}],"additionalItems":false,"minItems":2}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"pt":{"type":"array","prefixItems":[{"type":"integer"},{"type":"string"}],"minItems":2,"items":false}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/pt", "items", Action::Rewritten),
            mark("/properties/pt", "additionalItems", Action::Rewritten),
        ]
    );
}

#[test]
fn anthropic_v1_repair_turns_draft_4_boolean_exclusive_bounds_into_numbers() {
    let r = twice(
        &RepairDraft202012::default(),
        Tool::new(
            "t",
            json!({"type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":9,"exclusiveMaximum":false},
                "m":{"type":"number","exclusiveMaximum":true}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0,"maximum":9},"m":{"type":"number"}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/n", "minimum", Action::Rewritten),
            mark("/properties/n", "exclusiveMaximum", Action::Removed),
            mark("/properties/m", "exclusiveMaximum", Action::Removed),
        ]
    );
}

#[test]
fn anthropic_v1_repair_fails_closed_when_no_faithful_repair_exists() {
    let r = run(
        &RepairDraft202012::default(),
        LANE,
        json!({"type":"object","properties":{"a":{"type":"objekt"}}}),
    );
    match r.step {
        Step::FailClosed(reason) => assert!(
            reason.starts_with("not a valid draft 2020-12 schema and no faithful repair exists: "),
            "{reason}"
        ),
        Step::Continue => panic!("shipped an invalid schema"),
    }
}

#[test]
fn anthropic_v1_repair_leaves_valid_schemas_and_non_object_roots_alone() {
    for v in [
        json!({"type":"object","properties":{"a":{"type":"string","enum":["number"]}},"required":["a"]}),
        json!({"type":"object","properties":{"required":{"type":"boolean"}}}),
        json!(["not", "a", "schema"]),
        json!(true),
    ] {
        let r = run(&RepairDraft202012::default(), LANE, v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty(), "{v}");
        assert_eq!(r.step, Step::Continue, "{v}");
    }
}

// ---------------------------------------------------------------- names

#[test]
fn anthropic_v1_tool_names_use_the_64_character_limit_valid_at_every_recording_date() {
    assert!(TOOL_NAME.accepts(&"a".repeat(64)));
    assert!(!TOOL_NAME.accepts(&"a".repeat(65)));
    assert!(!TOOL_NAME.accepts("apify.rag-web-browser"));
    assert_eq!(
        TOOL_NAME.sanitize("apify.rag-web-browser").as_deref(),
        Some("apify_rag-web-browser")
    );
}

#[test]
fn anthropic_v1_property_keys_allow_dots_and_dashes_but_not_brackets() {
    assert!(PROPERTY_KEY.accepts("a.b-c_d"));
    assert!(PROPERTY_KEY.accepts(".hidden"));
    assert!(!PROPERTY_KEY.accepts("filter[bundleId]"));
    assert!(!PROPERTY_KEY.accepts(&"k".repeat(65)));
    assert_eq!(
        PROPERTY_KEY.sanitize("filter[bundleId]").as_deref(),
        Some("filter_bundleId_")
    );
}

#[test]
fn anthropic_v1_pipeline_renames_the_recorded_tool_name_and_property_key() {
    let passes = crate::passes::lists::v1(crate::lane::Lane::AnthropicMessages);
    let cfg = crate::pipeline::PipelineConfig::default();
    let tool = Tool::new(
        "apify.rag-web-browser",
        json!({"type":"object","properties":{"filter[bundleId]":{"type":"string"}}}),
    );
    let shaped = crate::pipeline::run_passes(&passes, LANE, &cfg, &tool);
    assert_eq!(shaped.tool.name, "apify_rag-web-browser");
    assert_eq!(
        bytes(&shaped.tool.input_schema),
        r#"{"type":"object","properties":{"filter_bundleId_":{"type":"string"}}}"#
    );
}

#[test]
fn anthropic_v1_pipeline_gives_a_schemaless_tool_the_object_floor() {
    let passes = crate::passes::lists::v1(crate::lane::Lane::AnthropicMessages);
    let cfg = crate::pipeline::PipelineConfig::default();
    let shaped = crate::pipeline::run_passes(&passes, LANE, &cfg, &Tool::new("t", json!({})));
    assert_eq!(
        bytes(&shaped.tool.input_schema),
        r#"{"type":"object","properties":{}}"#
    );
}

// ---------------------------------------------------------------- strict

#[test]
fn anthropic_v1_strict_min_items_lowers_to_1_with_a_note() {
    // recording anthropic-strict-minitems-0-or-1-93
    let r = twice(
        &StrictMinItems::default(),
        strict(
            json!({"type":"object","properties":{"cards":{"type":"array","minItems":8},"one":{"type":"array","minItems":1}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"cards":{"type":"array","minItems":1},"one":{"type":"array","minItems":1}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/cards", "minItems", Action::Rewritten),
            mark("", "description", Action::Noted),
        ]
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some("Constraints this schema does not enforce (still follow them): cards: minItems 8.")
    );
}

#[test]
fn anthropic_v1_strict_min_items_removes_what_is_no_count_of_items() {
    // Under `additionalItems` (no keyword in draft 2020-12, so the 2020-12
    // repair does not read it) strict mode still rejects them (the oracle's
    // anthropic-strict-minitems-0-or-1; fuzz regression
    // shape_conforms/strict-min-items-not-a-count.json).
    let r = twice(
        &StrictMinItems::default(),
        strict(json!({"type":"object","properties":{
            "o":{"additionalItems":{"minItems":{}}},
            "h":{"additionalItems":{"minItems":0.5}},
            "n":{"additionalItems":{"minItems":-2}},
            "s":{"additionalItems":{"minItems":"3"}},
            "f":{"additionalItems":{"minItems":2.5}},
            "z":{"additionalItems":{"minItems":0}}}})),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"o":{"additionalItems":{}},"h":{"additionalItems":{}},"n":{"additionalItems":{}},"s":{"additionalItems":{}},"f":{"additionalItems":{"minItems":1}},"z":{"additionalItems":{"minItems":0}}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/o/additionalItems", "minItems", Action::Removed),
            mark("/properties/h/additionalItems", "minItems", Action::Removed),
            mark("/properties/n/additionalItems", "minItems", Action::Removed),
            mark("/properties/s/additionalItems", "minItems", Action::Removed),
            mark(
                "/properties/f/additionalItems",
                "minItems",
                Action::Rewritten
            ),
            mark("", "description", Action::Noted),
        ]
    );
    assert_eq!(
        r.records[0].reason,
        "strict mode supports minItems 0 or 1 only: {} is no count of items, removed"
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some(
            "Constraints this schema does not enforce (still follow them): /properties/f/additionalItems: minItems 2.5."
        )
    );
}

#[test]
fn anthropic_v1_strict_passes_leave_non_strict_tools_alone() {
    let v = json!({"type":"object","properties":{"xs":{"type":"array","minItems":8},
        "n":{"type":"integer","minimum":1},"f":{"type":"string","format":"regex"}}});
    let passes: [&dyn Pass; 5] = [
        &StrictMinItems::default(),
        &StrictUnsupportedFormats::default(),
        &StrictBounds::default(),
        &StrictCloseObjects::default(),
        &StrictFallback::default(),
    ];
    for pass in passes {
        let r = run(pass, LANE, v.clone());
        assert_eq!(r.schema(), &v, "{}", pass.name());
        assert!(r.records.is_empty(), "{}", pass.name());
        assert_eq!(r.tool.strict, None);
    }
}

#[test]
fn anthropic_v1_strict_unsupported_formats_are_removed_and_noted() {
    let r = twice(
        &StrictUnsupportedFormats::default(),
        strict(
            json!({"type":"object","properties":{"p":{"type":"string","format":"regex"},
            "d":{"type":"string","format":"date-time"},"u":{"type":"string","format":"uuid"}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"p":{"type":"string"},"d":{"type":"string","format":"date-time"},"u":{"type":"string","format":"uuid"}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/p", "format", Action::Removed),
            mark("", "description", Action::Noted),
        ]
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some("Constraints this schema does not enforce (still follow them): p: format regex.")
    );
}

#[test]
fn anthropic_v1_strict_bounds_are_removed_per_type_and_noted() {
    let r = twice(
        &StrictBounds::default(),
        strict(json!({"type":"object","properties":{
            "score":{"type":"integer","minimum":1,"maximum":10,"exclusiveMinimum":0,"exclusiveMaximum":11,"multipleOf":1},
            "s":{"type":"string","minLength":1,"maxLength":5,"minimum":3},
            "xs":{"type":"array","minItems":1,"maxItems":3}}})),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"score":{"type":"integer"},"s":{"type":"string","minimum":3},"xs":{"type":"array","minItems":1,"maxItems":3}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/score", "minimum", Action::Removed),
            mark("/properties/score", "maximum", Action::Removed),
            mark("/properties/score", "exclusiveMinimum", Action::Removed),
            mark("/properties/score", "exclusiveMaximum", Action::Removed),
            mark("/properties/score", "multipleOf", Action::Removed),
            mark("/properties/s", "minLength", Action::Removed),
            mark("/properties/s", "maxLength", Action::Removed),
            mark("", "description", Action::Noted),
        ]
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some(
            "Constraints this schema does not enforce (still follow them): score: minimum 1; score: maximum 10; score: exclusiveMinimum 0; score: exclusiveMaximum 11; score: multipleOf 1; s: minLength 1; s: maxLength 5."
        )
    );
}

#[test]
fn anthropic_v1_strict_array_bounds_removes_max_items_and_unique_items_and_notes_them() {
    let r = twice(
        &StrictArrayBounds::default(),
        strict(json!({"type":"object","properties":{
            "tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":5,"uniqueItems":true},
            "ids":{"type":"array","uniqueItems":false},
            "s":{"type":"string","maxItems":3}}})),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"},"minItems":1},"ids":{"type":"array"},"s":{"type":"string","maxItems":3}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/tags", "maxItems", Action::Removed),
            mark("/properties/tags", "uniqueItems", Action::Removed),
            mark("/properties/ids", "uniqueItems", Action::Removed),
            mark("", "description", Action::Noted),
        ]
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some(
            "Constraints this schema does not enforce (still follow them): tags: maxItems 5; tags: uniqueItems true."
        )
    );
}

#[test]
fn anthropic_v1_strict_array_bounds_leaves_non_strict_tools_alone() {
    let mut tool =
        strict(json!({"type":"object","properties":{"xs":{"type":"array","maxItems":2}}}));
    tool.strict = None;
    let r = twice(&StrictArrayBounds::default(), tool);
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"xs":{"type":"array","maxItems":2}}}"#
    );
    assert!(r.marks().is_empty());
}

#[test]
fn anthropic_v1_strict_close_objects_closes_only_objects_that_say_nothing() {
    let r = twice(
        &StrictCloseObjects::default(),
        strict(
            json!({"type":"object","properties":{"o":{"type":"object","properties":{}},
            "m":{"type":"object","additionalProperties":{"type":"string"}}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"o":{"type":"object","properties":{},"additionalProperties":false},"m":{"type":"object","additionalProperties":{"type":"string"}}},"additionalProperties":false}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("", "additionalProperties", Action::Added),
            mark("/properties/o", "additionalProperties", Action::Added),
        ]
    );
}

#[test]
fn anthropic_v1_strict_close_objects_never_reaches_into_if_then_else_not() {
    let r = twice(
        &StrictCloseObjects::default(),
        strict(json!({"type":"object","properties":{"k":{"type":"string"}},
            "if":{"properties":{"k":{"const":"a"}}},
            "then":{"type":"object","properties":{"x":{"type":"object","properties":{}}}},
            "not":{"type":"object","properties":{"w":{"type":"string"}}}})),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"k":{"type":"string"}},"additionalProperties":false,"if":{"properties":{"k":{"const":"a"}}},"then":{"type":"object","properties":{"x":{"type":"object","properties":{}}}},"not":{"type":"object","properties":{"w":{"type":"string"}}}}"#
    );
    assert_eq!(r.marks(), [mark("", "additionalProperties", Action::Added)]);
}

#[test]
fn anthropic_v1_strict_fallback_drops_strict_for_a_conditional_schema() {
    let v = json!({"type":"object","properties":{"k":{"type":"string"},"o":{"type":"object","properties":{"p":{"type":"string"}},"required":["p"],"additionalProperties":false,"else":{"required":["p"]}}},
        "required":["k","o"],"additionalProperties":false});
    let r = twice(&StrictFallback::default(), strict(v.clone()));
    assert_eq!(r.tool.strict, None);
    assert_eq!(r.schema(), &v);
    assert_eq!(r.marks(), [mark("", "strict", Action::Removed)]);
    assert_eq!(
        r.records[0].reason,
        "no faithful strict form, the tool ships non-strict: else at /properties/o/else: the strict subset has no if/then/else/not, and closing objects inside one would change the condition"
    );
    // The mutant keeps it strict.
    let keep = StrictFallback {
        conditionals: false,
        ..StrictFallback::default()
    };
    let r = run_on_tool(&keep, LANE, strict(v));
    assert_eq!(r.tool.strict, Some(true));
    assert!(r.records.is_empty());
}

/// A `dependentSchemas` entry typed `object`: closed by
/// `anthropic-strict-close-objects`, it refused every instance with `a`
/// (the semantic differential's narrowing); the tool now ships non-strict.
#[test]
fn anthropic_v1_strict_fallback_drops_strict_for_dependent_schemas() {
    let v = json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},
        "dependentSchemas":{"a":{"type":"object","required":["b"]}}});
    let r = twice(&StrictFallback::default(), strict(v.clone()));
    assert_eq!(r.tool.strict, None);
    assert_eq!(r.schema(), &v);
    assert_eq!(
        r.records[0].reason,
        "no faithful strict form, the tool ships non-strict: dependentSchemas at /dependentSchemas: the strict subset has no dependentSchemas, and closing objects inside one would change the condition"
    );
}

fn optional_props(n: usize) -> Value {
    let props: Map<String, Value> = (0..n)
        .map(|k| (format!("p{k}"), json!({"type": "string"})))
        .collect();
    json!({"type":"object","properties":props,"additionalProperties":false})
}

#[test]
fn anthropic_v1_strict_fallback_drops_strict_for_a_too_complex_tool() {
    // recording anthropic-strict-schema-too-complex-5230
    let r = twice(&StrictFallback::default(), strict(optional_props(25)));
    assert_eq!(r.tool.strict, None);
    assert_eq!(bytes(r.schema()), bytes(&optional_props(25)));
    assert_eq!(r.marks(), [mark("", "strict", Action::Removed)]);
    assert!(
        r.records[0]
            .reason
            .contains("anthropic-strict-schema-too-complex: Schema is too complex"),
        "{}",
        r.records[0].reason
    );
}

#[test]
fn anthropic_v1_strict_fallback_keeps_strict_within_the_budget() {
    let r = run_on_tool(&StrictFallback::default(), LANE, strict(optional_props(24)));
    assert_eq!(r.tool.strict, Some(true));
    assert!(r.records.is_empty());
}

#[test]
fn anthropic_v1_strict_fallback_leaves_what_the_rewrites_mend_strict() {
    let v = json!({"type":"object","properties":{"xs":{"type":"array","minItems":8},
        "f":{"type":"string","format":"regex"}},"required":["xs","f"],"additionalProperties":false});
    let r = run_on_tool(&StrictFallback::default(), LANE, strict(v));
    assert_eq!(r.tool.strict, Some(true));
    assert!(r.records.is_empty());
}

#[test]
fn anthropic_v1_strict_fallback_drops_strict_for_unmendable_rules() {
    for (v, rule) in [
        (
            json!({"type":"object","properties":{"p":{"type":"string","pattern":"^(?!-)[a-z]+$"}},"required":["p"],"additionalProperties":false}),
            "anthropic-strict-pattern-unsupported",
        ),
        (
            json!({"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}},"required":["a"],"additionalProperties":false}),
            "anthropic-strict-external-ref",
        ),
        (
            json!({"type":"object","properties":{"m":{"type":"object","additionalProperties":true}},"required":["m"],"additionalProperties":false}),
            "anthropic-strict-additionalproperties-false",
        ),
    ] {
        let r = run_on_tool(&StrictFallback::default(), LANE, strict(v.clone()));
        assert_eq!(r.tool.strict, None, "{v}");
        assert_eq!(r.schema(), &v);
        assert_eq!(r.marks(), [mark("", "strict", Action::Removed)]);
        assert!(
            r.records[0].reason.contains(rule),
            "{}",
            r.records[0].reason
        );
    }
}

#[test]
fn anthropic_v1_pipeline_ships_a_too_complex_strict_tool_non_strict_and_untouched() {
    let passes = crate::passes::lists::v1(crate::lane::Lane::AnthropicMessages);
    let cfg = crate::pipeline::PipelineConfig::default();
    let mut v = optional_props(25);
    v["properties"]["n"] = json!({"type":"integer","minimum":1});
    let shaped = crate::pipeline::run_passes(&passes, LANE, &cfg, &strict(v.clone()));
    assert_eq!(shaped.tool.strict, None);
    assert_eq!(
        shaped.tool.input_schema, v,
        "bounds kept on a non-strict tool"
    );
}

// ---------------------------------------------------------------- mutants

#[test]
fn anthropic_v1_passes_declare_their_mutation_points() {
    let names =
        |p: &dyn Pass| -> Vec<String> { p.mutants().into_iter().map(|m| m.change).collect() };
    assert_eq!(
        names(&NarrowRootComposition::default()),
        [
            "drop \"oneOf\" from stripped keywords",
            "drop \"anyOf\" from stripped keywords",
            "drop \"allOf\" from stripped keywords",
            "reverse the keyword (note) precedence",
            "last branch wins a merge",
            "skip the non-object root replacement",
            "skip the object floor restore",
            "skip the generic note",
            "skip the dangling required prune",
        ]
    );
    assert_eq!(names(&ObjectRootFloor::default()).len(), 1);
    assert_eq!(names(&RepairDraft202012::default()).len(), 5);
    assert_eq!(names(&StrictMinItems::default()).len(), 2);
    assert_eq!(names(&StrictUnsupportedFormats::default()).len(), 2);
    assert_eq!(names(&StrictBounds::default()).len(), 8);
    assert_eq!(names(&StrictArrayBounds::default()).len(), 3);
    assert_eq!(names(&StrictCloseObjects::default()).len(), 1);
    assert_eq!(names(&StrictFallback::default()).len(), 5);
    for p in crate::passes::lists::v1(crate::lane::Lane::AnthropicMessages) {
        for m in p.mutants() {
            assert_eq!(m.pass.name(), p.name(), "{}", m.change);
        }
    }
}

#[test]
fn anthropic_v1_object_root_floor_mutant_overwrites_a_declared_type() {
    let m = ObjectRootFloor {
        only_typeless: false,
    };
    let r = run(&m, LANE, json!({"type":"string"}));
    assert_eq!(bytes(r.schema()), r#"{"type":"object","properties":{}}"#);
}

/// The strict subset the fallback reads (`strict_subset`) and the oracle's
/// strict rules agree, tool by tool: same rules, same messages, same order.
/// Left out: the rules whose every offence a later rewrite mends and which
/// the subset therefore does not list (closing objects, bounds, array
/// constraints).
#[test]
fn anthropic_v1_strict_subset_facts_match_the_oracle_strict_rules() {
    let mut many_unions = Map::new();
    for k in 0..17 {
        many_unions.insert(format!("u{k}"), json!({"type":["string","null"]}));
    }
    let schemas = [
        optional_props(25),
        json!({"type":"object","properties":many_unions,"additionalProperties":false}),
        json!({"type":"object","$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},
            "properties":{"p":{"type":"string","pattern":"^(?!x)(a)\\1","format":"color"},
            "e":{"$ref":"https://example.com/e.json"},"l":{"type":"array","minItems":3},
            "n":{"$ref":"#/$defs/n"}}}),
        json!({"type":"object","properties":{"a":{"type":"string","format":"uri","pattern":"^[a-z]+$"}}}),
    ];
    for v in schemas {
        let tool = strict(v.clone());
        let wire = [LANE.render(&tool)];
        let oracle: Vec<(&str, String)> = crate::oracle::check(&crate::rules::request(
            LANE,
            &wire,
            crate::oracle::DEFAULT_AS_OF,
        ))
        .into_iter()
        .filter(|r| r.rule.starts_with("anthropic-strict-"))
        .filter(|r| {
            ![
                "anthropic-strict-additionalproperties-false",
                "anthropic-strict-numeric-bounds",
                "anthropic-strict-array-constraints",
            ]
            .contains(&r.rule)
        })
        .map(|r| (r.rule, r.message))
        .collect();
        assert_eq!(strict_rejections(&tool).unwrap(), oracle, "{v}");
    }
}
